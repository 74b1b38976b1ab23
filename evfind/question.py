"""Read a question: content words, financial expansions and the sections it points to.

Pure functions over strings; the vocabulary is plain data in evfind/data/. Nothing here knows
SQLite. The result, a ``ParsedQuestion``, is everything the ranking needs.

A Chinese question is first read into English by zh.py (``zh.read``); that reading is parsed here
like an English question, once. Words are folded by evfind/text.py (``tokens``, ``normal``).
"""

import re
from functools import lru_cache
from typing import NamedTuple

from ._data import compiled, rows, words
from .evidence import SPAN_NAMED
from .text import LazyPattern, derivations, is_chinese, normal, phrases, stems, tokens
from .text import common_words  # noqa: F401 (its home is text.py, beside words_on; kept importable here)

_YEAR = LazyPattern(r"^(?:fy|cy|q[1-4]fy|fy\d{0,2}q)?((?:19|20)\d\d)(?:q[1-4])?$")


class Term(NamedTuple):
    """One phrase of the lexical query: question words, or an expansion of them."""

    phrase: str  # lower-case words separated by single spaces
    source: str  # question | year | lexicon (an expansion: the lexicon's, or a derivational form) | pair

    @property
    def fts(self) -> str:
        """The phrase as an FTS5 string: always quoted, so no word is taken as syntax."""
        return '"' + self.phrase.replace('"', '""') + '"'


class Idea(NamedTuple):
    """One thing the question asks about: the question's own wording and every phrase that
    says the same (the lexicon's expansions of it). evidence.py weighs a page's lines by the
    ideas they hold, so an expansion adds to the idea it stands for, never on its own."""

    label: str  # the question's wording ("capital expenditures")
    phrases: tuple[str, ...]  # lower-case phrases, the question's first
    year: bool = False  # a year: it picks a column, not a line
    source: bool = False  # a statement named as where to look ("in the income statement"): it picks the page, not a line


class ParsedQuestion(NamedTuple):
    """A question as evfind reads it."""

    text: str
    words: tuple[str, ...]  # content words of the question, in order
    terms: tuple[Term, ...]  # the phrases searched: question words, then expansions
    named: tuple[str, ...] = ()  # primary statements the question names ("the balance sheet")
    statements: tuple[str, ...] = ()  # statements named or implied by a metric, named first
    sections: tuple[str, ...] = ()  # sections the question's topics point to
    cues: tuple[str, ...] = ()  # the lexicon and route cues that matched
    reading: "zh.Reading | None" = None  # a Chinese question: how zh.py read it (zh.read)
    ideas: tuple[Idea, ...] = ()  # what the question asks about, each with its phrases
    fact: bool = True  # asks for a figure: an amount, a count, a rate (not where something is)
    ratio: bool = False  # asks for a ratio of statement line items (DPO, quick ratio, margins)
    exhibits: tuple[str, ...] = ()  # exhibits named by number ("Exhibit 10.2": Reg S-K Item 601)
    items: tuple[tuple[str | None, str], ...] = ()  # Items named by number: (part, "1A"), (None, "5.07")
    opening: bool = False  # asks where something begins ("where does Exhibit 99.1 start?")

    @property
    def routes(self) -> tuple[str, ...]:
        """Every targeted label: statements, then sections."""
        return tuple(dict.fromkeys(self.statements + self.sections))

    @property
    def empty(self) -> bool:
        return not self.terms

    def match_expression(self) -> str:
        """The FTS5 MATCH expression: every term OR-ed, each a quoted phrase."""
        return " OR ".join(term.fts for term in self.terms)


# ---------------------------------------------------------------------------------------------
# Vocabulary


_VOCABULARY_FILES = (
    "stopwords.txt", "meta_words.tsv", "lexicon.tsv", "routes.tsv", "derivations.tsv", "question_words.tsv", "compounds.tsv",
)


@lru_cache(maxsize=1)
def _vocabulary() -> dict:
    """Every table a question is read with, built from evfind/data once (and kept between
    processes by ``_data.compiled``)."""
    return compiled("question", _VOCABULARY_FILES, _build_vocabulary)


def _build_vocabulary() -> dict:
    stop = frozenset(w.lower() for w in words("stopwords.txt"))

    def key(cue: str) -> tuple[str, ...]:
        return tuple(normal(w) for w in tokens(cue) if w not in stop)

    phrases, singles = [], set()
    for (entry,) in rows("meta_words.tsv", 1):
        found = tuple(tokens(entry))
        if len(found) > 1:
            phrases.append(found)
        elif found:
            singles.add(found[0])
    phrases.sort(key=len, reverse=True)
    lexicons: dict[bool, dict] = {True: {}, False: {}}
    ratio_cues = set()
    for cue, expansions, kind in rows("lexicon.tsv", 3):
        found = tuple(phrase for phrase in (" ".join(tokens(p)) for p in expansions.split("|")) if phrase)
        for metrics, table in lexicons.items():
            if kind in ("metric", "ratio") and not metrics:
                continue
            table[key(cue)] = table.get(key(cue), ()) + found
        if kind == "ratio":
            ratio_cues.add(key(cue))
    # What a question's words are expanded by: the lexicon's cues, and the derivational families
    # of text.derivations (a single word each; a lexicon cue of the same words would win).
    derived = {(word,): forms for word, forms in derivations().items()}
    expansions = {metrics: {**derived, **table} for metrics, table in lexicons.items()}
    routes: dict[tuple[str, ...], tuple] = {}
    for cue, labels, kind in rows("routes.tsv", 3):
        routes[key(cue)] = routes.get(key(cue), ()) + ((tuple(labels.split()), kind),)
    lists: dict[str, list[str]] = {}
    for name, entry in rows("question_words.tsv", 2):
        lists.setdefault(name, []).append(entry)
    return {
        "lists": {name: tuple(entries) for name, entries in lists.items()},
        "stopwords": stop,
        "meta": (tuple(phrases), frozenset(singles)),
        "lexicon": lexicons,
        "expansions": expansions,
        "derived": {word: forms[0] for word, forms in derivations().items()},
        "ratios": frozenset(ratio_cues),
        "routes": routes,
    }


def listed(name: str) -> tuple[str, ...]:
    """The entries of one word list of data/question_words.tsv, in the file's order."""
    return _vocabulary()["lists"][name]


def _alternatives(name: str) -> str:
    """A list's entries as one pattern: the English ones as whole words, the others (Chinese, a
    sign) as they are: where, which pages? ... as whole words, then 哪一?页 ..."""
    english = [e for e in listed(name) if e[:1].isascii() and (e[:1].isalnum())]
    other = [e for e in listed(name) if e not in english]
    return "|".join(([rf"\b(?:{'|'.join(english)})\b"] if english else []) + other)


def stopwords() -> frozenset[str]:
    return _vocabulary()["stopwords"]


def meta_vocabulary() -> tuple[tuple[tuple[str, ...], ...], frozenset[str]]:
    """(meta phrases as word tuples, longest first; meta single words)."""
    return _vocabulary()["meta"]


def lexicon(metrics: bool = True) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Cue (normalised word tuple) -> expansion phrases; without the metric and ratio rows if
    not ``metrics``."""
    return _vocabulary()["lexicon"][bool(metrics)]


def expansions(metrics: bool = True) -> dict[tuple[str, ...], tuple[str, ...]]:
    """``lexicon`` with the derivational families of text.derivations as one-word cues: what a
    question's words are expanded by."""
    return _vocabulary()["expansions"][bool(metrics)]


def route_words(words: list[str]) -> list[str]:
    """The words routes are matched on: each word with a derivational family as the first form of
    it ("acquire" -> acquisition), so a verb routes as its noun does."""
    derived = _vocabulary()["derived"]
    return [derived.get(normal(w), w) for w in words]


def ratios() -> frozenset[tuple[str, ...]]:
    """The cues of the lexicon's ratios (kind ``ratio``): an analyst's ratio of statement line
    items, whose evidence is the statements themselves."""
    return _vocabulary()["ratios"]


def route_table() -> dict[tuple[str, ...], tuple[tuple[tuple[str, ...], str], ...]]:
    """Cue (normalised word tuple) -> its rows: (labels, kind: named | implied | section)."""
    return _vocabulary()["routes"]


# ---------------------------------------------------------------------------------------------
# Words


def cue_key(cue: str) -> tuple[str, ...]:
    """A cue as it is matched: its words without stopwords, each in singular form, since the
    question's words are matched the same way ("statement of cash flows" -> statement cash
    flow)."""
    stop = stopwords()
    return tuple(normal(w) for w in tokens(cue) if w not in stop)


def _find_phrases(words: list[str], table: dict[tuple[str, ...], tuple[str, ...]]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Non-overlapping cue matches (start, end, cue), longest first, left to right."""
    normals = [normal(w) for w in words]
    longest = _longest(id(table), table)
    taken = [False] * len(words)
    found = []
    for size in range(min(longest, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            key = tuple(normals[start : start + size])
            if key in table and not any(taken[start : start + size]):
                found.append((start, start + size, key))
                for i in range(start, start + size):
                    taken[i] = True
    found.sort()
    return found


_LONGEST: dict[int, int] = {}


def _longest(key: int, table: dict) -> int:
    """The most words in a cue of a table (the tables are built once and kept: keyed by id)."""
    if key not in _LONGEST:
        _LONGEST[key] = max((len(k) for k in table), default=0)
    return _LONGEST[key]


@lru_cache(maxsize=1)
def _meta_by_first_word() -> dict[str, tuple[tuple[str, ...], ...]]:
    """The meta phrases by their first word, longest first."""
    table: dict[str, list[tuple[str, ...]]] = {}
    for phrase in meta_vocabulary()[0]:
        table.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(found) for first, found in table.items()}


def _drop_meta(words: list[str]) -> list[str]:
    _, singles = meta_vocabulary()
    by_first = _meta_by_first_word()
    keep = [True] * len(words)
    for start, word in enumerate(words):
        for phrase in by_first.get(word, ()):
            size = len(phrase)
            if tuple(words[start : start + size]) == phrase:
                for i in range(start, start + size):
                    keep[i] = False
    stop = stopwords()
    return [w for w, k in zip(words, keep) if k and w not in stop and w not in singles]


def content_words(question: str) -> list[str]:
    """The question's content words: stopwords and meta words dropped, years kept (FY2022 is
    also 2022), other numbers kept only when they have three or more digits."""
    result: list[str] = []
    for word in _drop_meta(tokens(question)):
        year = _YEAR.match(word)
        if year:
            result.append(year.group(1))
            continue
        if word.isdigit() and len(word) < 3:
            continue
        if len(word) == 1 and not word.isdigit():
            continue
        result.append(word)
    return list(dict.fromkeys(result))


def parse(question: str, *, metrics: bool = True, meta: bool = True, pairs: bool = True, filer: str = "") -> ParsedQuestion:
    """Content words, lexicon expansions and routes of one question.

    A Chinese question is read through the glossary into English once (``zh.read``) and its
    reading parsed once: the result's ``text`` is the question as asked, its ``reading`` says how
    it was read. Where it names something the glossary does not read (a company, most often) and
    ``filer`` (the filing's registrant name: registrant.py) is given, the name is read first, as
    an English question names the company. ``metrics``, ``meta`` and ``pairs`` switch the metric
    expansions, the full meta-word list and the question's word pairs off, for measuring what
    each adds (`evfind eval --ablate`)."""
    if not is_chinese(question):
        return _parse_english(question, metrics, meta, pairs)
    from .zh import read  # a Chinese question only

    reading = read(question)
    if filer and reading.unknown and not set(tokens(filer.lower())) & set(tokens(reading.english)):
        reading = reading._replace(english=f"{filer}; {reading.english}")  # (not where it writes the name: "Halden")
    parsed = _parse_english(reading.english, metrics, meta, pairs, asked=question)
    fact = _asks_fact(question, parsed.statements, parsed.ratio)
    ideas = parsed.ideas
    for match in reading.matches:
        if len(match.english) > 1:
            ideas = _one_idea(ideas, match.english)
    opening = _asks_opening(question)
    return parsed._replace(text=question, reading=_with_phrases(reading), fact=fact, ideas=ideas, opening=opening)


def _words_of(label: str) -> set[str]:
    return {normal(w) for w in tokens(label)}


def _one_idea(ideas: tuple[Idea, ...], wordings: tuple[str, ...]) -> tuple[Idea, ...]:
    """The ideas with those read from a glossary term's alternative wordings (经营: "operate",
    "operations") made one: a page that says either holds what the Chinese term asks about.

    >>> _one_idea((Idea("2022", ("2022",), True), Idea("operate", ("operate",)),
    ...            Idea("operations", ("operations", "operating"))), ("operate", "operations"))
    (Idea(label='2022', phrases=('2022',), year=True, source=False), Idea(label='operate', phrases=('operate', 'operations', 'operating'), year=False, source=False))
    """
    words = set().union(*map(_words_of, wordings))
    merged = [i for i, idea in enumerate(ideas) if not idea.year and _words_of(idea.label) <= words]
    if len(merged) < 2:
        return ideas
    phrases = [w for w in wordings if w]  # each wording whole, then what its ideas expanded to
    for i in merged:
        phrases.extend(p for p in ideas[i].phrases if p not in phrases)
    # a wording's single words stay searched with it (as phrases of the idea) only when the
    # wording is one word: "articles of incorporation" is not "articles"
    phrases = [p for p in phrases if p in wordings or not any(p in tokens(w) and " " in w for w in wordings)]
    first = merged[0]
    one = Idea(wordings[0], tuple(dict.fromkeys(phrases)))
    return tuple(one if i == first else idea for i, idea in enumerate(ideas) if i == first or i not in merged)


def _with_phrases(reading: "zh.Reading") -> "zh.Reading":
    """The reading with each glossary match's ``phrases`` filled in, for the Chinese notes."""
    matches = tuple(m._replace(phrases=_searched(m.english)) for m in reading.matches)
    return reading._replace(matches=matches)


@lru_cache(maxsize=1024)
def _searched(english: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The note keys (``text.stems``) of every phrase a glossary entry's English wordings search:
    their words and lexicon expansions, as in an English question of those words with every
    option on. A property of the glossary and the lexicon, not of the question: worked out once
    per entry."""
    return frozenset(stems(t.phrase) for p in english for t in _parse_english(p, True, True, False).terms)


def _parse_english(question: str, metrics: bool, meta: bool, pairs: bool = True, asked: str | None = None) -> ParsedQuestion:
    """``parse`` of a question in English (or of a Chinese question's English reading, ``asked``
    being the question as asked)."""
    words = content_words(question) if meta else _plain_words(question)
    terms: list[Term] = [Term(w, "year" if _is_year(w) else "question") for w in words]
    cues: list[str] = []
    added: list[Term] = []
    # Cues are matched on the question's words before meta words are dropped from them, so a
    # phrase such as "cash flow statement" or "days payable outstanding" is seen whole.
    all_words = [w for w in tokens(question) if w not in stopwords()]
    if _ORGANIC.search(question) and "organic" not in all_words:
        all_words.append("organic")  # growth excluding acquisitions and currency: organic growth
    table = expansions(metrics)
    ideas: list[tuple[int, Idea]] = []
    covered: set[str] = set()
    ratio = False
    for start, end, cue in _find_phrases(all_words, table):
        if cue in lexicon(metrics):  # (a derivational family is a fold, not a cue of the vocabulary)
            cues.append(" ".join(cue))
        ratio = ratio or cue in ratios()
        added.extend(Term(phrase, "lexicon") for phrase in table[cue])
        wording = " ".join(all_words[start:end])

        if not all(normal(w) in covered for w in all_words[start:end]):  # a cue met twice: one idea
            ideas.append((start, Idea(wording, tuple(dict.fromkeys((wording, *table[cue]))))))
        covered.update(normal(w) for w in all_words[start:end])
    in_cues = set(covered)
    position = {normal(w): i for i, w in reversed(list(enumerate(all_words)))}
    for word in words:
        if normal(word) not in covered:  # (a word and its plural are one idea)
            covered.add(normal(word))
            at = position.get(normal(word), len(all_words))
            ideas.append((at, Idea(word, (word,), year=_is_year(word))))
    if pairs:
        for at, pair in _pairs(question, words, in_cues):
            ideas.append((at, Idea(pair, (pair,))))
            added.insert(0, Term(pair, "pair"))
    items = named_items(question)
    for _, number in items:  # "Item 7": the heading's words, the number a word of its own
        phrase = f"item {number.lower()}"
        ideas.append((position.get("item", len(all_words)), Idea(phrase, (phrase,))))
        added.insert(0, Term(phrase, "pair"))
    named: list[str] = []
    implied: list[str] = []
    sections: list[str] = []
    source_words: set[str] = set()
    for _, _, cue in _find_phrases(route_words(all_words), route_table()):
        cues.append(" ".join(cue))
        for labels, kind in route_table()[cue]:
            if kind == "named" and _located(question, cue):
                kind = "implied"  # "still on the balance sheet": where an item is, not a source
            if kind == "named":
                source_words.update(normal(w) for w in cue)
            {"named": named, "implied": implied}.get(kind, sections).extend(labels)
    if (implied or sections) and asks_reason(asked or question):
        # "What drove the drop in gross margin?", "Why did the segment's operating loss widen?":
        # the statements and the notes give the figures, MD&A the reasons for their changes
        # (Reg S-K Item 303(b)(2)); the statements are not the table asked for.
        # A release has no MD&A: its narrative (the highlights, each segment's commentary) gives
        # the reasons, and its non-GAAP reconciliations, like the statements, the figures.
        # ("Why does management use adjusted EBITDA?" asks the reconciliation's own statement of
        # why the measure is useful, Reg S-K Item 10(e)(1)(i)(C): it names no change.)
        implied, ratio = [], False
        if _CHANGE.search(asked or question):
            sections = [label for label in sections if label != NON_GAAP]
        sections += [MDNA, HIGHLIGHTS]
    if _BY_SEGMENT.search(question) and set(sections) - {SEGMENTS}:
        # "goodwill by segment", "unearned revenue by segment": the segments are the table's
        # rows, its topic's section holds it (ASC 350-20-50-1 puts goodwill by segment in the
        # goodwill note); the segment note is where segments are the topic.
        sections = [label for label in sections if label != SEGMENTS]
    # A period ("the quarter ended June 2", "as of March 31") picks a column, as a year does.
    ideas = [(at, idea._replace(year=True) if not idea.year and _is_period(idea.label) else idea) for at, idea in ideas]
    # ... and so do the words of a period's pair on their own ("second", "quarter" of "the second quarter"),
    # and of a span named ("full" of "full-year", "date" of "year-to-date": evidence.periods_asked).
    in_periods = {w for _, idea in ideas if idea.year and " " in idea.label for w in idea.label.split()}
    spans = {w for m in _SPAN_NAMED.finditer(question) for w in _words_of(m.group(0))} - {"year", "fiscal", "to"}
    in_periods |= spans

    def period(label: str) -> bool:
        return label in in_periods and label in _PERIOD_WORDS | _SPAN_WORDS or " " in label and _words_of(label) <= spans

    ideas = [(at, idea._replace(year=True) if not idea.year and period(idea.label) else idea) for at, idea in ideas]
    if source_words:  # the statement named as the source is where to look, not what to find on it
        ideas = [(at, idea._replace(source=True) if not idea.year and _words_of(idea.label) <= source_words else idea)
                 for at, idea in ideas]
    seen = {t.phrase for t in terms}
    for term in added:
        if term.phrase not in seen:
            seen.add(term.phrase)
            terms.append(term)
    return bounded(ParsedQuestion(
        text=question,
        words=tuple(words),
        terms=tuple(terms),
        named=tuple(dict.fromkeys(named)),
        statements=tuple(dict.fromkeys(named + implied)),
        sections=tuple(dict.fromkeys(sections)),
        cues=tuple(dict.fromkeys(cues)),
        ideas=tuple(idea for _, idea in sorted(ideas, key=lambda pair: pair[0])),
        fact=_asks_fact(question, named + implied, ratio),
        ratio=ratio,
        exhibits=named_exhibits(question),
        items=items,
        opening=_asks_opening(question),
    ))


# A question about where a document or section opens, not about what it says.
_OPENING = LazyPattern(lambda: _alternatives("opening"), re.I)


@lru_cache(maxsize=1)
def _opening_words() -> tuple[str, ...]:
    """What an opening question must hold as text ("begin" of "begins?"): checked before the pattern."""
    return tuple(re.sub(r".\?", "", entry) for entry in listed("opening"))


def _asks_opening(question: str) -> bool:
    lowered = question.lower()
    return any(word in lowered for word in _opening_words()) and bool(_OPENING.search(question))


# An exhibit named by its number in the exhibit table of Reg S-K Item 601(a): "Exhibit 10.2",
# "Exhibit No. 99.1", "Ex. 4.1"; in a Chinese question's reading, "exhibits; 10.2" (附件10.2).
_EXHIBIT = LazyPattern(r"\b(?:exhibits?|ex\.)[\s;:,]*(?:no\.?\s*|number\s+)?(\d{1,3}(?:\.\d{1,3})?)(?![\d.]*\d)", re.I)


# An Item of a form named by its number: "Item 7", "Item 1A", "Part II, Item 2", "Item 5.07"
# (the Items of each form: data/form_items.tsv); in a Chinese question's reading, 第7项 and
# 第二部分 read as "item 7" and "part ii" (zh.py).
_NAMED_ITEM = LazyPattern(
    r"\b(?:part\s+(ii|i|2|1)\b[\s,;]*)?(?<!line )items?\s*(\d\.\d{2}|\d{1,2}[a-d]?)(?![\w.]*\d)", re.I
)


def named_items(question: str) -> tuple[tuple[str | None, str], ...]:
    """The Items a question names by number, each (its Part or None, its number), in order.

    >>> named_items("Where is Part II, Item 1A? And Item 7, Item 5.07, items 2019 or line item 4?")
    (('II', '1A'), (None, '7'), (None, '5.07'))
    """
    if "item" not in question.lower():  # (most questions: the pattern is not even compiled)
        return ()
    found = []
    for match in _NAMED_ITEM.finditer(question):
        part = match.group(1)
        found.append(({"1": "I", "2": "II"}.get(part, part.upper()) if part else None, match.group(2).upper()))
    return tuple(dict.fromkeys(found))


def named_exhibits(question: str) -> tuple[str, ...]:
    """The exhibit numbers a question names, in order, each once.

    >>> named_exhibits("Where does Exhibit 10.2, the Five-Year Agreement, begin? And exhibit no. 99.1?")
    ('10.2', '99.1')
    >>> named_exhibits("Which exhibits were filed in 2022?")
    ()
    """
    lowered = question.lower()
    if "exhibit" not in lowered and "ex." not in lowered:  # (most questions)
        return ()
    return tuple(dict.fromkeys(m.group(1) for m in _EXHIBIT.finditer(question)))


# What a question asks, read from the word lists of data/question_words.tsv (each with its
# source): a page or a place (_WHERE), a figure (_FIGURE), the reasons (_REASON) of a change
# (_CHANGE). Growth "excluding the impact of M&A", "ex-FX" (_ORGANIC) is what non-GAAP
# disclosures call organic growth (Reg G; Reg S-K Item 10(e)). FinanceBench's instruction for
# when a metric does not apply ("If gross margin is not a useful metric for a company like this,
# then state that and explain why.", _NOT_USEFUL) is not a question about reasons.
_WHERE = LazyPattern(lambda: _alternatives("where"), re.I)
_FIGURE = LazyPattern(lambda: _alternatives("figure"), re.I)
_ORGANIC = LazyPattern(lambda: rf"\b(?:{'|'.join(listed('organic_excluding'))})\b[^.?]{{0,40}}?\b(?:{'|'.join(listed('organic_excluded'))})\b", re.I)
_REASON = LazyPattern(lambda: _alternatives("reason"), re.I)
_CHANGE = LazyPattern(lambda: _alternatives("change"), re.I)
_NOT_USEFUL = LazyPattern(
    lambda: r"\bif\b[^?]*?\bnot\b[^?]*?\bexplain why\b.*$|\bif\b[^?]*?\bnot (?:a |an )?(?:" + "|".join(listed("not_useful")) + r")\b.*$",
    re.I | re.S,
)
MDNA = "mdna"
NON_GAAP = "non_gaap"  # the reconciliations of non-GAAP measures (Reg G; Reg S-K Item 10(e))
HIGHLIGHTS = "highlights"  # an earnings release's highlights (Form 8-K Item 2.02, Exhibit 99.1)


def asks_reason(question: str) -> bool:
    """Does the question ask why a figure changed ("What drove ...", "Why did ...", 为何)?

    >>> asks_reason("What drove the drop in gross margin in FY2023?"), asks_reason("What was gross margin?")
    (True, False)
    >>> asks_reason("Is gross margin improving? If gross margin is not a useful metric, state that and explain why.")
    False
    >>> asks_reason("Has the quick ratio improved? If it is not something an analyst would ask about, then state that and explain why.")
    False
    """
    return _REASON.search(_NOT_USEFUL.sub("", question)) is not None


def _asks_fact(question: str, statements, ratio: bool) -> bool:
    """A figure: asked for in words, or (unless the question asks where) the question names a
    line item of a statement or a ratio. ``question`` as asked, in English or in Chinese."""
    return asks_figure(question) or (not asks_where(question) and bool(statements or ratio))


def asks_figure(question: str) -> bool:
    """Does the question ask for a figure (an amount, a count, a rate, a change), whether or not
    it also asks where it is? Its evidence line is then a line item beside its figure."""
    return _FIGURE.search(question) is not None


def asks_where(question: str) -> bool:
    """Does the question ask where something is ("Where is the lease maturity table?",
    "哪一页有...") rather than for a figure or a fact?"""
    return _WHERE.search(question) is not None


def _pairs(question: str, words: list[str], in_cues: set[str] = frozenset()) -> list[tuple[int, str]]:
    """Two content words the question writes side by side ("average price", "operating
    income", "senior notes"), with their position: searched as a phrase, a pair is informative
    even where each word alone is on most pages, and a line that holds it holds the two words
    together. Numbers and years are left out; so are pairs the lexicon reads as one cue (they
    are an idea of their own already)."""
    kept = {w for w in words if not any(ch.isdigit() for ch in w)}
    found: dict[str, int] = {}
    at = 0
    for run in phrases(question):  # a pair never spans a slash, a comma or a possessive
        for i in range(len(run) - 1):
            first, second = run[i], run[i + 1]
            if first in kept and second in kept and normal(first) != normal(second):
                if normal(first) in in_cues and normal(second) in in_cues:
                    continue  # both words belong to lexicon cues: the cue is the idea
                found.setdefault(f"{first} {second}", at + i)
        at += len(run)
    return [(at, pair) for pair, at in found.items()]


def _located(question: str, cue: tuple[str, ...]) -> bool:
    """Is the statement the cue names written as where an item sits ("recorded on the balance
    sheet", "off-balance sheet") rather than as the source the question is to be answered from
    ("using the balance sheet", "shown in the statement of income")?"""
    words = r"\W+(?:\w+\W+){0,2}?".join(re.escape(w) + r"\w*" for w in cue)
    pattern = r"\b(?:on|off)\W+(?:(?:the|its|our|their|a)\W+)?(?:(?:consolidated|condensed)\W+)*" + words
    for match in re.finditer(pattern, question, re.I):
        before = re.findall(r"\w+", question[: match.start()].lower())[-1:]
        if not (before and before[0] in listed("source_verb")):  # "rely on the balance sheet" names the source
            return True
    return False


# The verbs that make "on the balance sheet" the source to answer from, not where an item sits
# ("rely on", "based on", "focus on" the statement: FinanceBench's instructions), are the list
# source_verb of data/question_words.tsv.

# The calendar's words: the Gregorian months and their abbreviations, the fiscal quarters as
# filings and analysts write them (Q1, 1Q, first quarter), the words that end a period's heading
# ("three months ended"); not vocabulary, no data file.
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_PERIOD_ENDS = frozenset(("ended", "ending"))
SEGMENTS = "segment_information"
_BY_SEGMENT = LazyPattern(r"\bby\s+(?:(?:reportable|reporting|operating|business)\s+)?(?:segments?|divisions?)\b", re.I)
_QUARTERS = frozenset(("q1", "q2", "q3", "q4", "1q", "2q", "3q", "4q"))
_ORDINALS = frozenset(("first", "second", "third", "fourth"))
QUARTER_WORDS = _QUARTERS | _ORDINALS | {"quarter", "quarters"}  # the words of a quarter named
_PERIOD_WORDS = QUARTER_WORDS | {"months", "weeks"}  # words that name a period only beside another
# A span named: the full year, the year to date, the first half (evidence.periods_asked).
_SPAN_NAMED = LazyPattern(rf"\b(?:{SPAN_NAMED})\b", re.I)
_SPAN_WORDS = frozenset(("full", "date", "ytd", "half"))


def _is_period(label: str) -> bool:
    """A period's words: a month, "ended" or "ending", alone or in a pair ("quarter ended",
    "ended june"), and a quarter named ("Q2", "second quarter"): they pick a column of a table,
    not a line.

    >>> [_is_period(x) for x in ("june", "quarter ended", "ended june", "may", "cloud revenue", "quarter")]
    [True, True, True, True, False, False]
    >>> [_is_period(x) for x in ("q2", "second quarter", "second", "second lien", "quarter dividend")]
    [True, True, False, False, False]
    """
    words = label.split()
    if len(words) == 1 and words[0] in _QUARTERS or len(words) == 2 and words[0] in _ORDINALS and words[1] == "quarter":
        return True  # "Q2", "second quarter": a quarter's column
    return any(w in _MONTHS or w in _PERIOD_ENDS for w in words) and len(words) <= 2


def _is_year(word: str) -> bool:
    return len(word) == 4 and word.isdigit() and word[:2] in ("19", "20")




def _plain_words(question: str) -> list[str]:
    """Content words by the design's short lists only (the ablation of ``meta``: question_words.tsv's
    basic_meta)."""
    stop, basic = stopwords(), listed("basic_meta")
    words = []
    for word in tokens(question):
        if word in stop or word in basic or (len(word) == 1 and not word.isdigit()):
            continue
        year = _YEAR.match(word)
        words.append(year.group(1) if year else word)
    return list(dict.fromkeys(words))


# ---------------------------------------------------------------------------------------------
# Bounds: a question pasted with a page of context is still answered in milliseconds. The cost
# of a query grows with the number of phrases OR-ed in the MATCH expression, so it is capped;
# the first words of a question are kept (they say what it asks), then the expansions.

MAX_WORDS = 48  # content words searched
MAX_TERMS = 64  # phrases in the MATCH expression: the words, then the expansions


def bounded(parsed: ParsedQuestion) -> ParsedQuestion:
    """The question with at most MAX_WORDS content words and MAX_TERMS terms."""
    if len(parsed.words) <= MAX_WORDS and len(parsed.terms) <= MAX_TERMS:
        return parsed
    dropped = set(parsed.words[MAX_WORDS:]) - set(parsed.words[:MAX_WORDS])
    terms = tuple(t for t in parsed.terms if t.phrase not in dropped)[:MAX_TERMS]
    ideas = tuple(i for i in parsed.ideas if i.label not in dropped)[:MAX_WORDS]
    return parsed._replace(words=parsed.words[:MAX_WORDS], terms=terms, ideas=ideas)
