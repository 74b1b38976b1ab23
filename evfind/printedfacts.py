"""The facts a page prints but does not tag: a figure of an inline-XBRL filing shown on a page
whose own tags do not hold it (an MD&A table, the highlights, a reconciliation), found where the
filing tags it.

Many of a filing's figures are printed on several pages and tagged on one (the statements and
notes): the capital expenditures of a segment note are tagged there and printed again, untagged,
in MD&A's capital allocation table. A hit on such a page lists the fact the question asks for
(``pagefacts.listed``, on the page that tags it) where the hit's page prints it:

- the same figure: the value as the tagging page shows it ("23,783"), as a whole figure of a
  line of the hit's page (not a part of "123,783" or "23,783.5"), with the same scale (a figure
  followed by "%" only for a fact in percent, by "million", "billion" or "thousand", or on a page
  that says "in millions", only for a fact of that scale; a figure of a page that says none is
  read at the fact's) and the same sign as printed (in parentheses or with a minus on both pages,
  or on neither: a cash flow statement prints a capital expenditure "(23,783)", a capital
  allocation table "23,783");
- beside words that name the fact: the words on the line before the figure (back to the figure
  before it; for a column of a table's row, the row's label), or the same words read with a
  synonym the lexicon gives for a phrase of them (evfind/data/lexicon.tsv, its ``synonym`` rows
  only: "backlog" is "remaining performance obligations", Reg S-K Item 101(c)(1) and ASC 606),
  hold ``WORDS`` or more of one of the fact's phrases (its concept's vocabulary, the row label it
  is tagged beside, the words of its member), each word counted by its rarity among the filing's
  facts, and say the question's
  line item in its own wording (``own_wording``: not the lexicon's expansions) as a fact's phrase
  must to be listed on its own page (``pagefacts.phrase_score`` at ``pagefacts.LEAST`` or more):
  "Provision for income taxes 1,837" names a fact of income taxes, a neighbour of the effective
  tax rate asked for, not the rate. A row's label is also read by its initials ("Earnings before
  interest and taxes": EBIT).

Each is listed with the page that tags it (``FactHit.page_number``) and the line of the hit's
page that prints it (``FactHit.line``), so a reader can open both. Nothing is computed or
compared across facts: a fact is listed only where its own figure is printed. Pure: plain
values in, ``concepts.FactHit`` out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

from .concepts import FUNCTION_WORDS, FactHit, label_key, period_of, vocabulary
from .pagefacts import LEAST, members, phrase_score, stems_of
from .porter import stem_token
from .text import tokens

WORDS = 0.75  # the share of one of a fact's phrases (by its words' rarity) the words beside its figure say
_SCALE_WORDS = {"thousand": 3, "million": 6, "billion": 9}
_DECLARED = re.compile(r"\bin (thousands|millions|billions)\b", re.I)  # "(Dollars in millions)"
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# A figure as a page prints it: an opening parenthesis or a minus, a dollar sign, the number, a
# closing parenthesis, a percent sign or a scale word.
_FIGURE = re.compile(
    r"(?<![\w.,])(?P<open>\(\s?)?(?P<minus>[-\u2212\u2013]\s?)?\$?\s?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?![\w]|[.,]\d)(?P<close>\s?\))?(?P<percent>\s?%)?(?:\s+(?P<scale>thousand|million|billion)s?\b)?",
    re.I,
)
WORD = re.compile(r"[^\W\d_]{2,}")  # a word: two letters or more


class Figure(NamedTuple):
    """A figure printed on a line: where it is, its number as printed, its sign and scale."""

    start: int
    number: str  # "23,783", "3.1"
    negative: bool  # in parentheses, or with a minus
    scale: int | None  # -2 for a percent, 3/6/9 by a scale word after it; None where the line says none


def figures(line: str) -> list[Figure]:
    """The figures of a line, in order.

    >>> [(f.number, f.negative, f.scale) for f in figures("Income tax ($381) 3.1 % and $525 million")]
    [('381', True, None), ('3.1', False, -2), ('525', False, 6)]
    """
    found = []
    for match in _FIGURE.finditer(line):
        scale = -2 if match["percent"] else _SCALE_WORDS.get((match["scale"] or "").lower())
        negative = bool(match["minus"]) or bool(match["open"] and match["close"])
        found.append(Figure(match.start("number"), match["number"], negative, scale))
    return found


@lru_cache(maxsize=64)
def read(text: str) -> tuple[tuple[int, str, tuple[Figure, ...]], ...]:
    """A page's lines, each with its number (from 1) and its figures (kept for the last pages read)."""
    return tuple((number, line, tuple(figures(line))) for number, line in enumerate(text.split("\n"), start=1))


@lru_cache(maxsize=64)
def places(text: str) -> dict[str, list[tuple[int, str, tuple[Figure, ...], int]]]:
    """Where a page prints each number: (line number, line, its figures, the figure's place)."""
    found: dict[str, list] = {}
    for number, line, printed in read(text):
        for at, figure in enumerate(printed):
            found.setdefault(figure.number, []).append((number, line, printed, at))
    return found


def numbers(text: str) -> frozenset[str]:
    """Every figure's number a page prints."""
    return frozenset(places(text))


def declared_scale(text: str) -> int | None:
    """The scale a page declares for its figures ("(Dollars in millions)": 6), where it declares
    one only."""
    said = {_SCALE_WORDS[word.lower()[:-1]] for word in _DECLARED.findall(text)}
    return said.pop() if len(said) == 1 else None


def beside(line: str, figure: Figure, before: list[Figure]) -> str:
    """The words a figure is printed beside: the line's text before it, back to the figure before
    it; for a later column of a table's row (no words since the last figure), the row's label."""
    starts = [f.start for f in before] + [figure.start]
    for index in range(len(starts) - 1, -1, -1):
        begin = 0 if index == 0 else _end_of(line, starts[index - 1])
        text = line[begin:starts[index]]
        if WORD.search(text):
            return text
    return ""


def _end_of(line: str, start: int) -> int:
    found = _NUMBER.match(line, start)
    return found.end() if found else start


def phrases_of(fact) -> list[frozenset[str]]:
    """The phrases that name a fact, as stems: its concept's vocabulary, the row label it is
    tagged beside and its members' words (a label or member of two content words or more)."""
    found = [stems_of(p) for p in vocabulary(fact.concept)]
    extra = ([label_key(fact.row_label)] if fact.row_label else []) + list(members(fact.dimensions))
    found += [words for words in map(stems_of, extra) if len(words) >= 2]
    return [words for words in found if words]


def names(words: frozenset[str], fact, rarity: Mapping[str, float]) -> bool:
    """Do these words say ``WORDS`` or more of one of the fact's phrases (by their words' rarity)?"""
    weight = lambda w: rarity.get(w, 1.0)  # noqa: E731
    for phrase in phrases_of(fact):
        whole = sum(weight(w) for w in phrase)
        if whole and sum(weight(w) for w in phrase & words) >= WORDS * whole - 1e-9:
            return True
    return False


def synonyms(text: str) -> list[frozenset[str]]:
    """The text's words as stems, and with each synonym the lexicon gives for a phrase of them
    (``question.lexicon(metrics=False)``: other words for the same thing, not a measure's inputs)."""
    from .question import cue_key, lexicon

    table = lexicon(metrics=False)
    words = cue_key(text)
    stems = stems_of(text)
    found = [stems]
    if len(words) <= 12:
        for start in range(len(words)):
            for end in range(start + 1, min(start + 6, len(words)) + 1):
                for phrase in table.get(words[start:end], ()):
                    found.append(stems | stems_of(phrase))
    return found


def own_wording(question):
    """The question (``pagefacts.Asked``) with its line items' own wording only (no expansions)."""
    ideas = tuple(kept for item in question.ideas if (kept := tuple(p for p in item if p[1] >= 1.0)))
    return question._replace(ideas=ideas, said={w: f for w, f in question.said.items() if f >= 1.0})


def readings_beside(text: str, said: Mapping[str, float]) -> list[frozenset[str]]:
    """The words beside a figure as stems, and as read with a run of two to six of its content
    words by their initials where the question says them (``said``): "Earnings before interest
    and taxes" is also "ebit"."""
    words = [w for w in tokens(text) if w not in FUNCTION_WORDS and not w.isdigit()]
    stems = stems_of(text)
    found = [stems]
    if len(words) <= 12:
        for start in range(len(words)):
            for end in range(start + 2, min(start + 6, len(words)) + 1):
                run = words[start:end]
                initials = stem_token("".join(w[0] for w in run))
                if initials in said:
                    found.append(stems - {stem_token(w) for w in run} | {initials})
    return found


def _says(text: str, fact, question, rarity: Mapping[str, float], least: float) -> bool:
    return any(names(words, fact, rarity) for words in synonyms(text)) and any(
        phrase_score(words, question, rarity) >= least for words in readings_beside(text, question.said))


def printed_sign(text: str, fact) -> bool | None:
    """Is the fact's figure printed negative on the page that tags it (on the line of its row
    label, else the first line printing it); None where that page does not print its number."""
    label = " ".join(fact.row_label.split()).lower() if fact.row_label else None
    seen = None
    for _, line, printed in read(text):
        for figure in printed:
            if figure.number == fact.value:
                if label and " ".join(line.split()).lower().startswith(label):
                    return figure.negative
                if seen is None:
                    seen = figure.negative
    return seen


def fact_negative(fact) -> bool:
    return fact.sign == "-"


def fits(figure: Figure, fact, page_scale: int | None, negative: bool | None, sign: bool = True) -> bool:
    """Is this figure the fact as its page shows it: its number, scale and (unless not ``sign``)
    sign (``negative``: as the tagging page prints it; the fact's own where None)?"""
    if figure.number != fact.value:
        return False
    scale = fact.scale if fact.scale is not None else 0
    if (figure.scale == -2) != (scale == -2):
        return False
    if figure.scale is not None and figure.scale != scale:
        return False
    if figure.scale is None and scale >= 3 and page_scale is not None and page_scale != scale:
        return False
    if not sign:
        return True
    if negative is None:
        negative = fact_negative(fact)
    return figure.negative == negative


def key(fact) -> tuple:
    """What tells a fact apart, of a stored row or a FactHit: concept, dimensions, period, value."""
    period = fact.period if isinstance(fact, FactHit) else period_of(fact)
    return fact.concept, fact.dimensions or None, period, fact.value


def as_hit(row) -> FactHit:
    """A stored fact row as a FactHit of its page (score 0: not yet scored for a question)."""
    return FactHit(row.page_id, row.page_number, row.concept, period_of(row), row.value, 0.0, (), row.row_label,
                   row.dimensions, row.unit)


class Candidate(NamedTuple):
    """A fact the question asks for (as the page tagging it lists it) and its stored row."""

    hit: FactHit
    row: object  # factstore.FactRow: scale, sign, row label, dimensions
    tagged_text: str  # the text of the page that tags it


def shown(text: str, candidates: Iterable[Candidate], question, rarity: Mapping[str, float], most: int = 5,
          least: float = LEAST) -> tuple[FactHit, ...]:
    """Of these facts (best first), those this page's text prints beside words that name them
    and the question (``pagefacts.Asked``; see the module's docstring), each once, with the line
    printing it; at most ``most``."""
    page_scale = declared_scale(text)
    where = places(text)
    question = own_wording(question)
    says = lru_cache(maxsize=None)(lambda words, fact_key, row: _says(words, row, question, rarity, least))
    found, seen = [], set()
    for candidate in candidates:
        hit, row = candidate.hit, candidate.row
        told = key(hit)
        if told in seen or row.value not in where:
            continue
        negative = None
        for number, line, printed, at in where[row.value]:
            figure = printed[at]
            if not fits(figure, row, page_scale, None if negative is None else negative, sign=False):
                continue
            if not says(beside(line, figure, printed[:at]), told, row):
                continue
            if negative is None:  # the sign last: it reads the tagging page
                negative = printed_sign(candidate.tagged_text, row)
                negative = fact_negative(row) if negative is None else negative
            if figure.negative == negative:
                seen.add(told)
                found.append(hit._replace(line=number))
                break
        if len(found) >= most:
            break
    return tuple(found)


class Index:
    """A revision's facts by their value as shown and by their page, and the row labels it prints
    beside several concepts (``pagefacts.shared_labels``): made once, read by ``listed``."""

    def __init__(self, facts: Iterable, labels: Iterable[tuple[str, str | None]]):
        from .pagefacts import shared_labels

        self.labels = list(dict.fromkeys(labels))
        self.by_value: dict[str, list] = {}
        self.by_page: dict[int, list] = {}
        for row in facts:
            self.by_value.setdefault(row.value, []).append(row)
            self.by_page.setdefault(row.page_id, []).append(row)
        self.shared = shared_labels(self.labels)


def listed(question, texts: Mapping[int, str], index: Index, rarity: Mapping[str, float], texts_of,
           most: int = 5) -> dict[int, tuple[FactHit, ...]]:
    """For each of these pages (page id -> its text), the facts the question (``pagefacts.Asked``)
    asks for that it prints and another page tags: of the facts the pages tagging them list
    (``pagefacts.by_page``), those ``shown`` finds, at most ``most``, each with the line printing
    it. Read cheapest first: the facts whose value these pages print (of two characters or more:
    a lone digit beside words is a footnote or a count as often as a figure), of a concept whose
    words say the question's line item (``pagefacts.asked_concepts``), those printed beside words
    naming them, and only then what their pages list. ``texts_of``: page ids -> their texts."""
    from .pagefacts import asked_concepts, by_page

    printed = frozenset().union(*(numbers(text) for text in texts.values()))
    same = [row for value in printed if len(value) > 1 for row in index.by_value.get(value, ()) if row.page_id not in texts]
    matched = set(asked_concepts(question, index.labels, rarity, among=frozenset(r.concept for r in same),
                                 shared=index.shared))
    same = [r for r in same if r.concept in matched]
    if not same:
        return {}
    tagged = texts_of(sorted({r.page_id for r in same}))
    pool = [Candidate(as_hit(r), r, tagged.get(r.page_id, "")) for r in same]
    lines: dict[int, dict] = {}  # page -> fact key -> the line printing it
    for page, text in texts.items():
        for hit in shown(text, pool, question, rarity, most=len(pool)):
            lines.setdefault(page, {})[key(hit)] = hit.line
    if not lines:
        return {}
    tagging = sorted({r.page_id for r in same if any(key(r) in found for found in lines.values())})
    rows = [row for page in tagging for row in index.by_page[page]]  # each page's facts, as its hit lists them
    wanted = [hit for hits in by_page(question, rows, rarity, most=most).values() for hit in hits]
    wanted.sort(key=lambda hit: (-hit.score, hit.page_number))
    found = {}
    for page, keys in lines.items():
        kept = list({key(h): h._replace(line=keys[key(h)]) for h in wanted if key(h) in keys}.values())[:most]
        if kept:
            found[page] = tuple(kept)
    return found
