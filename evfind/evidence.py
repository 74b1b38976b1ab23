"""Evidence on a page: where the question's concepts meet, line by line.

Pure functions over a page's text. A page reaches here with its matches marked, ``\\x02`` before
and ``\\x03`` after each stretch that matched the question, as FTS5's ``highlight()`` marks them
(or as ``mark`` does in Python, for tests and for pages the index did not mark): so a word counts
as a match exactly when the index says so (unicode61 tokens, Porter stems). From the marks this
module finds which of the question's concepts each line holds, and from those one ``Passage``
per page:

- its ``score``: the weighted share of the question's concepts that the best few consecutive
  lines hold, or a table's row with the table's caption above it (weights: each concept's
  rarity in the filing), the signal that reorders the leading candidates (``rank.rerank``);
- its ``lines``: the one to three lines of that passage where the concepts meet, the evidence a
  user reads, by their index in the page's text (as ``evfind show --format json`` gives it,
  split on newlines). For a fact question, a line where one of the question's line items sits
  beside a figure comes first.

A *concept* is one thing the question asks about with every phrase that expresses it: the
question's word or phrase and the lexicon's expansions of it ("capital expenditures",
"purchases of property, plant and equipment"), so that an expansion adds to the concept it
stands for and never counts as a concept of its own.

    >>> from evfind.evidence import Concept, stems, mark, read_lines, best_passage
    >>> capex = Concept("capex", (stems("capital expenditures"), stems("purchases of property and equipment")))
    >>> year = Concept("2023", (stems("2023"),), weight=0.0, line_item=False)
    >>> page = "Cash flows\\nPurchases of property and equipment (1,234) (987)\\nDividends paid (55)"
    >>> lines, held = read_lines(mark(page, (capex, year)), (capex, year))
    >>> best_passage(lines, held, (capex, year), fact=True).lines
    ((1, 'Purchases of property and equipment (1,234) (987)'),)
"""

import re
from functools import lru_cache
from typing import NamedTuple

from .periods import SPAN_NAMED, off_period, other_years, periods_asked, periods_shown  # noqa: F401 (read here by finder, question)
from .porter import stem_token
from .tablerows import (  # noqa: F401  (has_figure, is_table_row, column_headings: read here by pagefigures, present)
    _DATE, _DIGIT, _FIGURE, _YEAR, _YEAR_IN, PROSE_WORDS, TABLE_REACH, column_headings, has_figure, is_column_heading,
    is_table_row,
)
from .text import LazyPattern

START, END = "\x02", "\x03"  # the marks around a matched stretch (FTS5 highlight(), mark())
WINDOW = 3  # lines in a passage: a caption and its figures, or a sentence wrapped over lines
MAX_LINES = 3  # evidence lines shown for a page

_SPAN = LazyPattern("\x02(.*?)\x03", re.S)
_TOKEN = LazyPattern(r"[^\W_]+")  # unicode61's tokens: runs of letters and digits


class Concept(NamedTuple):
    """One thing the question asks about, and every phrase that expresses it."""

    label: str  # the question's wording ("capital expenditures")
    phrases: tuple[tuple[str, ...], ...]  # the Porter stems of each phrase that expresses it
    weight: float = 1.0  # its rarity in the filing (an IDF): rare concepts count more
    line_item: bool = True  # a caption or measure whose line may carry the figure asked for
    # How directly each phrase says the concept (``OWN``, ``SYNONYM``, ``INPUT``), as the
    # evidence line is chosen (``shown_lines``); empty: the first phrase is the question's own
    # wording, the others synonyms.
    tiers: tuple[int, ...] = ()
    # The concept names the filer (its words are the cover's and on most pages: "Costco"): a
    # line that says it says no more about what is asked, though its label says the filer.
    filer: bool = False


class Passage(NamedTuple):
    """A page's best passage and the features the rerank reads."""

    score: float  # weighted share of the question's concepts the passage holds, 0 to 1
    coverage: float  # weighted share of the question's concepts anywhere on the page, 0 to 1
    lines: tuple[tuple[int, str], ...] = ()  # the evidence lines, best first: (0-based index, text)
    figure: bool = False  # one of the question's line items sits on a line with a figure
    # For each evidence line, the column headings of its table (``column_headings``): the
    # header lines above it that say which figure is which period, (0-based index, text).
    columns: tuple[tuple[tuple[int, str], ...], ...] = ()


NO_PASSAGE = Passage(0.0, 0.0)


@lru_cache(maxsize=16384)
def stems(text: str) -> tuple[str, ...]:
    """The index's tokens of a text: unicode61 words, lower case, Porter stems."""
    return tuple(stem_token(token) for token in _TOKEN.findall(text.lower()))


@lru_cache(maxsize=8192)
def _owners(span: tuple[str, ...], phrases: tuple[tuple[tuple[str, ...], ...], ...]) -> frozenset[int]:
    """The concepts (by index) a marked stretch expresses: those with a phrase inside it."""
    found = set()
    for index, alternatives in enumerate(phrases):
        for phrase in alternatives:
            size = len(phrase)
            if size and any(span[i : i + size] == phrase for i in range(len(span) - size + 1)):
                found.add(index)
                break
    return frozenset(found)


@lru_cache(maxsize=4)
def _spans_read(concepts: tuple[Concept, ...]) -> dict[str, frozenset[int]]:
    """The concepts each marked stretch read so far expresses, for one question's concepts: the
    pages of one query (and the evidence lines of its hits) repeat the same stretches."""
    return {}


def span_owners(span: str, concepts: tuple[Concept, ...]) -> frozenset[int]:
    """The concepts (by index) one marked stretch's text expresses, as ``read_lines`` reads them
    (kept for the question's concepts)."""
    return _owned(_spans_read(concepts), span, concepts)


def _owned(read: dict[str, frozenset[int]], span: str, concepts: tuple[Concept, ...]) -> frozenset[int]:
    """``span_owners`` from the stretches ``read`` so far (``_spans_read(concepts)``: looked up
    once by a caller that reads many stretches)."""
    owners = read.get(span)
    if owners is None:
        owners = read[span] = _owners(stems(span), tuple(c.phrases for c in concepts))
    return owners


def read_lines(marked: str, concepts: tuple[Concept, ...]) -> tuple[list[str], dict[int, frozenset[int]]]:
    """The page's lines without the marks, and for each line that holds a match the concepts
    on it (by index). A stretch that runs over a line break (a caption wrapped in a table)
    counts on every line it touches."""
    read = _spans_read(concepts)
    held: dict[int, set[int]] = {}
    line, position = 0, 0
    for match in _SPAN.finditer(marked):
        line += marked.count("\n", position, match.start())
        span = match.group(1)
        owners = _owned(read, span, concepts)
        breaks = span.count("\n")
        for touched in range(line, line + breaks + 1) if owners else ():
            held.setdefault(touched, set()).update(owners)
        line += breaks
        position = match.end()
    plain = marked.replace(START, "").replace(END, "")
    return plain.split("\n"), {index: frozenset(found) for index, found in held.items()}


def best_passage(
    lines: list[str],
    held: dict[int, frozenset[int]],
    concepts: tuple[Concept, ...],
    window: int = WINDOW,
    fact: bool = False,
) -> Passage:
    """The page's best window of ``window`` consecutive lines, or of a table's row (a line
    item beside a figure) and the caption above it: the largest weight of distinct concepts,
    then (for a fact question) a line item beside a figure, then the earliest.

    Its evidence lines are the window's lines that hold a match, at most ``MAX_LINES``: for a
    fact question the line-item-and-figure lines first, then the lines holding more concepts;
    otherwise in page order. A window wider than ``MAX_LINES`` scores the page; its lines are
    those of the page's best window of ``MAX_LINES`` lines, the tightest evidence."""
    if not held or not concepts:
        return NO_PASSAGE
    total = sum(c.weight for c in concepts) or 1.0
    anywhere = frozenset().union(*held.values())
    coverage = sum(concepts[i].weight for i in anywhere) / total
    figure_lines: dict[int, bool] = {}
    scores: dict[frozenset[int], float] = {}  # (most windows hold the same few concepts)

    def figure(index: int) -> bool:  # one of the question's line items beside a figure
        if index not in figure_lines:
            figure_lines[index] = any(concepts[i].line_item for i in held[index]) and has_figure(lines[index])
        return figure_lines[index]

    def weight(index: int) -> float:
        return sum(concepts[i].weight for i in held[index])

    def score(concepts_in: frozenset[int]) -> float:  # the weighted share a passage holds
        if concepts_in not in scores:
            scores[concepts_in] = round(sum(concepts[i].weight for i in concepts_in) / total, 9)
        return scores[concepts_in]

    windows = []
    starts = sorted(held)  # a best window can always be made to start on a matching line
    for k, start in enumerate(starts):
        end, inside, j = min(start + window, len(lines)), [start], k + 1
        while j < len(starts) and starts[j] < end:
            inside.append(starts[j])
            j += 1
        concepts_in = held[start] if len(inside) == 1 else frozenset().union(*(held[i] for i in inside))
        windows.append((score(concepts_in), start, inside))
    # A table's row and its caption: a line item beside a figure ("Europe 476 (797)") joins the
    # nearest line above it, across the table's rows, that holds a concept and no figure (the
    # table's title, "Operating Profit by Division"), as one passage.
    rows = [i for i in starts if i >= window and figure(i)]
    if rows:
        caption, captions = None, {}  # the caption in force at each line, read down the page
        for j in range(rows[-1] - window + 1):
            if j in held and not has_figure(lines[j]):
                caption = j
            elif lines[j].count(" ") >= PROSE_WORDS - 1 and not has_figure(lines[j]):
                caption = None  # a paragraph: the table below it starts without a caption
            captions[j] = caption
        for i in rows:
            j = captions[i - window]
            if j is not None and i - j < TABLE_REACH:
                windows.append((score(held[i] | held[j]), i, [j, i]))
    top = max(score for score, _, _ in windows)
    # Among the windows of the best score (figures are looked for there only): for a fact
    # question one with a figure line, then the earliest.
    best = None
    for score, start, inside in windows:
        if score < top:
            continue
        with_figure = any(figure(i) for i in inside)
        key = (fact and with_figure, -start)
        if best is None or key > best[0]:
            best = (key, inside, score, with_figure)
        if not fact:
            break  # the earliest best window: figures only matter to say whether it has one
    _, inside, score, with_figure = best
    if window > MAX_LINES:
        # The score reads a wider window (do the question's concepts meet near each other on
        # the page?); the lines a user reads are the best window of at most MAX_LINES lines.
        shown = best_passage(lines, held, concepts, MAX_LINES, fact)
        return Passage(score, coverage, shown.lines, with_figure)
    if fact:
        chosen = sorted(inside, key=lambda i: (not figure(i), -weight(i), i))[:MAX_LINES]
    else:
        chosen = sorted(sorted(inside, key=lambda i: (-weight(i), i))[:MAX_LINES])
    return Passage(score, coverage, tuple((i, lines[i]) for i in chosen), with_figure)


# ---------------------------------------------------------------------------------------------
# The lines shown: the asked concept's own line.
#
# The passage scores a page for the ranking; the line a user reads is chosen from the whole page
# (``shown_lines``): the line whose line item or sentence is what the question asks. A concept is
# said in the question's own words (``OWN``), in a synonym (``SYNONYM``: "purchases of property,
# plant and equipment" for capital expenditures) or only by the inputs of the measure asked
# (``INPUT``: operating cash flow and capital expenditures for free cash flow, the provision
# for income taxes for the effective tax rate): a line that says the measure itself comes before
# a line that holds one of its inputs.

OWN, SYNONYM, INPUT = 0, 1, 2
TIER_WEIGHT = (1.0, 0.9, 0.5)  # how much a concept counts on a line, by how directly the line says it
# The words that glue a caption together ("Purchases of property, plant and equipment"): a
# phrase is found on a line by its other words, in a row.
_GLUE = frozenset(stem_token(w) for w in ("a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of",
                                           "on", "or", "per", "the", "to", "with", "our", "its", "their"))


@lru_cache(maxsize=32768)
def content_stems(text: str) -> tuple[str, ...]:
    """A line's or a phrase's stems without the glue words: what a phrase is found by."""
    return tuple(stem for stem in stems(text) if stem not in _GLUE)


@lru_cache(maxsize=8192)
def _content(phrase: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(stem for stem in phrase if stem not in _GLUE)


def _tier(concept: Concept, index: int) -> int:
    if concept.tiers:
        return concept.tiers[index]
    return OWN if index == 0 else SYNONYM


_ASIDE = LazyPattern(r"\((?:[A-Za-z][^()\d]{0,30}|\d{1,2})\)")  # "(used in)", "(1)": not a figure "(1,234)"


@lru_cache(maxsize=16384)
def _positions(line: str) -> tuple[tuple[str, ...], dict[str, list[int]]]:
    """A line's content stems, and where each stands (kept: read, never changed)."""
    words = content_stems(line)
    places: dict[str, list[int]] = {}
    for i, word in enumerate(words):
        if word in places:
            places[word].append(i)
        else:
            places[word] = [i]
    return words, places


def line_concepts(line: str, concepts: tuple[Concept, ...]) -> dict[int, tuple[int, frozenset[str]]]:
    """The concepts a line says (by index): for each, how directly (the best tier of its phrases
    on the line) and the words of those phrases. A phrase is on the line when its words but the
    glue are there in a row, as the index reads them (Porter stems): common words too, which the
    query's marks leave out ("net" in "Property, plant and equipment - net"), and across the
    asides a caption prints in parentheses ("Net cash provided by (used in) operating
    activities", a footnote's "(1)")."""
    return _said(line, _phrase_index(concepts))


def _phrase_index(concepts: tuple[Concept, ...]) -> dict[str, list[tuple[int, int, tuple[str, ...], int]]]:
    """The concepts' phrases by their first content stem: (concept, phrase number, content stems,
    tier) each, made once for the lines of a page (``_said``)."""
    index: dict[str, list[tuple[int, int, tuple[str, ...], int]]] = {}
    for c, concept in enumerate(concepts):
        for number, phrase in enumerate(concept.phrases):
            wanted = _content(phrase)
            if wanted:
                index.setdefault(wanted[0], []).append((c, number, wanted, _tier(concept, number)))
    return index


@lru_cache(maxsize=16384)
def _aside_positions(line: str) -> tuple[tuple[str, ...], dict[str, list[int]]]:
    """``_positions`` of a line read across its asides in parentheses (``_ASIDE``)."""
    return _positions(_ASIDE.sub(" ", line) if "(" in line else line)


def _said(line: str, index: dict) -> dict[int, tuple[int, frozenset[str]]]:
    """``line_concepts`` from the concepts' ``_phrase_index``: the phrases looked up by the
    line's words, taken in the concepts' order and each concept's phrases' order."""
    words, places = _aside_positions(line)
    hits = []
    for word, at in places.items():
        for entry in index.get(word, ()):
            wanted = entry[2]
            size = len(wanted)
            if size > 1 and not any(words[i : i + size] == wanted for i in at):
                continue
            hits.append(entry)
    found: dict[int, tuple[int, frozenset[str]]] = {}
    for c, _, wanted, tier in sorted(hits) if len(hits) > 1 else hits:
        if c in found:
            best, held = found[c]
            found[c] = (min(best, tier), held | frozenset(wanted))
        else:
            found[c] = (tier, frozenset(wanted))
    return found


NEAR = 60  # characters between a line item's word and a figure for the figure to be beside it


@lru_cache(maxsize=16384)
def beside(line: str, words: frozenset[str]) -> bool:
    """Does a figure sit beside one of these words (Porter stems) on the line, within ``NEAR``
    characters: a row's label and its figures, "approximately 77,800 employees", not a figure
    at the other end of a sentence about something else?

    >>> beside("Net sales $ 1,234 $ 1,100", frozenset({"sale"}))
    True
    >>> beside("Each year we invest 2% of our pre-tax income in the communities around the places where our employees live", frozenset({"employe"}))
    False
    """
    if not _DIGIT.search(line):
        return False
    blanked = _DATE.sub(lambda m: " " * len(m.group(0)), line)
    figures = [m.span() for m in _FIGURE.finditer(blanked) if not _YEAR.fullmatch(m.group(0).strip("()$% "))]
    if not figures:
        return False
    spots = [m.span() for m in _TOKEN.finditer(line) if stem_token(m.group(0).lower()) in words]
    return any(a - d <= NEAR and c - b <= NEAR for a, b in spots for c, d in figures)


@lru_cache(maxsize=16384)
def _label(line: str) -> frozenset[str]:
    """The words of a line's label: what a table's row says before its first figure (the whole
    line for a sentence), numbers aside."""
    first = next((m for m in _FIGURE.finditer(_DATE.sub(lambda m: " " * len(m.group(0)), line))
                  if not _YEAR.fullmatch(m.group(0).strip("()$% "))), None)
    head = line[: first.start()] if first is not None else line
    return frozenset(w for w in content_stems(head) if not w.isdigit())


FIGURE_GAIN = 2.0  # how much more a line counts where a line item sits beside a figure, for a question asking one
# A table's footnote ("(1) Net debt is total debt less cash", "* Excluding the impacts of"): a note on
# a row, said after the rows and sentences that state the thing.
_FOOTNOTE = LazyPattern(r"\s*(?:\(\d{1,2}\)|\([a-z]\)\s|\*)")
ROW_LABEL = 0.5  # the share of a row's label the asked line item's words must make for the row to be that item
TITLE_WORDS = 8  # a line of at most this many words, without a figure, may be a title


def is_title(line: str) -> bool:
    """Does a line read as a title (a heading, a table's caption), not a sentence or a row: a
    few words, no figure, most of them capitalised, or ending with a colon? A title names the
    topic; the note shows the page's heading, the evidence line what it says.

    >>> is_title("MINE SAFETY DISCLOSURES"), is_title("Item 3. Legal Proceedings."), is_title("Cash flows from investing activities:")
    (True, True, True)
    >>> is_title("fulfill all orders we receive from our customers."), is_title("Effective tax rate 25.9% 22.1%")
    (False, False)
    """
    words = line.split()
    if not words or has_figure(line) or len(words) > (2 * PROSE_WORDS if line.rstrip().endswith(":") else TITLE_WORDS):
        return False
    if line.rstrip().endswith(":"):
        return True  # a table's or a list's lead-in ("Debt at December 31 consisted of the following:")
    long = [w for w in words if len(w) > 3 and w[0].isalpha()]
    return bool(long) and 2 * sum(w[0].isupper() for w in long) > len(long)


class Asked(NamedTuple):
    """What a question asks of a page's lines, as the lines shown are chosen (``shown_lines``,
    ``line_candidates``): whether it asks a figure, only where something is, or why, and which
    of the page's lines (by index) show a fact the filing tags with a concept asked
    (``tagged``), hold a mark of the query (``marked``), are the row of a month asked
    (``months``), or name the thing asked as a report prints it (``named``: a critical audit
    matter's title); and the spans of time it asks (``spans``: ``periods_asked``)."""

    fact: bool = False
    where: bool = False
    why: bool = False
    tagged: frozenset[int] = frozenset()
    marked: frozenset[int] = frozenset()
    months: frozenset[int] = frozenset()
    named: frozenset[int] = frozenset()
    spans: frozenset[str] = frozenset()


def shown_lines(
    lines: list[str],
    held: dict[int, frozenset[int]],
    concepts: tuple[Concept, ...],
    asked: Asked = Asked(),
    limit: int = MAX_LINES,
) -> tuple[int, ...]:
    """The page's lines a user reads (by index), best first, at most ``limit``: of the lines the
    query marked (``held``), those that say what the question asks (``asked``), in the order of
    the learned line chooser (``linechoice``: a weighted sum of each line's signals,
    ``line_candidates``), the rules' order (``line_candidates``) breaking its ties; the rules'
    order alone where no chooser is shipped."""
    from . import linechoice

    candidates = line_candidates(lines, held, concepts, asked)
    chosen = linechoice.order([c.signals for c in candidates], tiers=[c.tier for c in candidates])
    return tuple(candidates[k].index for k in chosen[:limit])


# A line that states a change and its cause, as MD&A explains a figure (Reg S-K Item 303(b)(2)(ii):
# the reasons for material changes): a change word and a causal connective of
# data/question_words.tsv (its change and cause lists, each row with its source) on one line.
_CHANGED = LazyPattern(lambda: _listed("change"), re.I)
_CAUSE = LazyPattern(lambda: _listed("cause"), re.I)


def _listed(name: str) -> str:
    """One list of data/question_words.tsv as a pattern, as question.py reads it (its English
    entries as whole words, the others as they are)."""
    from ._data import rows

    entries = [entry for kind, entry in rows("question_words.tsv", 2) if kind == name]
    english = [e for e in entries if e[:1].isascii() and e[:1].isalnum()]
    return "|".join(([rf"\b(?:{'|'.join(english)})\b"] if english else []) + [e for e in entries if e not in english])


def explains(line: str) -> bool:
    """Does a line state a change and its cause ("Cost of sales increased $2.1 billion, primarily
    due to ...")? (``readings.explaining``: the lines of a page that do.)

    >>> explains("Gross margin decreased to 17% due to lower prices."), explains("Costs are due to suppliers.")
    (True, False)
    """
    return bool(_CAUSE.search(line)) and bool(_CHANGED.search(line))


@lru_cache(maxsize=16384)
def _kind(line: str) -> tuple:
    """What a line reads as, whatever the question: a title, a footnote, with a figure, a table's
    row, a period's column headings, its words, a sentence, its figures, a lead-in, a total, a
    change and its cause (kept: a Finder's next question reads many of the same lines)."""
    stems_on = _positions(line)[1]
    figures = sum(1 for m in _FIGURE.finditer(line) if not _YEAR.fullmatch(m.group(0).strip("()$% ")))
    end = line.rstrip()
    return (is_title(line), bool(_FOOTNOTE.match(line)), has_figure(line), is_table_row(line), is_column_heading(line),
            line.count(" ") + 1, end.endswith("."), figures, end.endswith(":"), "total" in stems_on,
            explains(line))


class LineCandidate(NamedTuple):
    """A line that may be shown: its index, its signals (``linechoice.SIGNALS``, in order), and
    its tier: the rules the chooser orders within (a critical audit matter's title first; a
    sentence or a row before a title, a title first when the question asks only where; a line
    before a table's footnote)."""

    index: int
    signals: tuple[float, ...]
    tier: tuple[bool, ...] = ()


def line_candidates(
    lines: list[str],
    held: dict[int, frozenset[int]],
    concepts: tuple[Concept, ...],
    asked: Asked = Asked(),
) -> list[LineCandidate]:
    """The lines that may be shown, in the rules' order, each with its signals.

    The rules: each line counts the question's concepts it says, each by its rarity (the
    concept's weight) and by how directly the line says it (``TIER_WEIGHT``: the question's own
    words, a synonym, a measure's inputs); a table's row also counts the concepts of the table's
    caption above it ("Operating Profit by Division" over "Europe 476"), for a question that
    asks for a figure. First the lines that name the thing asked in the form a report prints it
    (``named``: a critical audit matter's title); then a sentence or a row before a title
    (``is_title``: the note shows the page's heading), or a title first when the question asks
    only ``where`` something is; then the lines showing a figure the filing tags with a concept
    asked (``tagged``: an inline-XBRL fact's row); then, for a figure question, the row of the
    month it asks for (``months``: ``month_rows``); then any line before a table's footnote
    ("(1) Net debt is ..."); then a table's row whose label is mostly the asked line item's
    words (``ROW_LABEL``); then, a line item beside a figure counting ``FIGURE_GAIN`` times,
    the lines that count most; then the line whose label is most nearly what is asked (the
    share of its label's words, before its figures, that the question's phrases say: "Net
    income attributable to Acme" before "Net income attributable to noncontrolling
    interests"); then the earliest. A line that says only a year or the filer is no candidate
    where another says more."""
    if not held or not concepts:
        return []
    fact, where, why, tagged, marked, months, named, spans = asked
    # Every line the query marked is read, not only those where a marked stretch holds a whole
    # phrase: the index marks words, not the glue between them, so "RETURN ON INVESTED CAPITAL"
    # is three marks, none of them the phrase (line_concepts reads the phrase across the glue).
    index = _phrase_index(concepts)
    said = {i: _said(lines[i], index)
            for i in set(held) | {i for i in tagged | marked | named | (months if fact else frozenset()) if i < len(lines)}}
    captions: dict[int, int | None] = {}
    if fact:
        caption = None
        for i in range(len(lines)):
            captions[i] = caption
            figure = has_figure(lines[i])
            if i in held and not figure:
                caption = i
            elif not figure and lines[i].count(" ") >= PROSE_WORDS - 1:
                caption = None  # a paragraph: the table below it starts without a caption
    total = sum(c.weight for c in concepts if not c.filer) or 1.0
    rarest = max(range(len(concepts)), key=lambda c: (not concepts[c].filer, concepts[c].weight))

    def value(on: dict[int, tuple[int, frozenset[str]]]) -> float:
        return sum(concepts[c].weight * TIER_WEIGHT[tier] for c, (tier, _) in on.items() if not concepts[c].filer)

    def shares(on: dict[int, tuple[int, frozenset[str]]]) -> list[float]:  # by tier: own words, synonym, input
        found = [0.0, 0.0, 0.0, 0.0]
        for c, (t, _) in on.items():
            if not concepts[c].filer:
                found[t] += concepts[c].weight / total
        return found[:3]

    own_words = frozenset(w for c in concepts if c.weight and not c.filer
                          for n, p in enumerate(c.phrases) if _tier(c, n) == OWN for w in _content(p))
    years = frozenset(y for c in concepts if not c.line_item for y in _YEAR_IN.findall(c.label))
    heads = sorted(j for j, on in said.items() if on and not has_figure(lines[j]))  # captions, titles, lead-ins
    keys = []
    for i, on in said.items():
        month = fact and i in months
        if not on and not month and i not in named:
            continue
        line = lines[i]
        items = [c for c in on if concepts[c].line_item and concepts[c].weight and not concepts[c].filer]
        figure = fact and bool(items) and beside(line, frozenset().union(*(on[c][1] for c in items)))
        counted = value(on)
        j = captions.get(i)
        above = 0.0
        if figure and j is not None and i - j < TABLE_REACH:
            above = value({c: t for c, t in (said.get(j) or {}).items() if c not in on})
        words = frozenset().union(*(w for c, (_, w) in on.items() if concepts[c].weight)) if on else frozenset()
        label = _label(line)
        said_share = len(label & words) / len(label) if label else 0.0
        precision = said_share if figure else 0.0  # (a sentence's words are not a row's label)
        score = (counted + above) * (FIGURE_GAIN if figure else 1.0)
        title, footnote, with_figure, row, heading, size, sentence, figures, lead_in, totals, explaining = _kind(line)
        # A table's row whose label is mostly the asked line item's words is that item as printed.
        item = figure and precision >= ROW_LABEL and row
        near = frozenset().union(*(said.get(k) or () for k in (i - 1, i, i + 1)))
        signals = (i in named, title, title and where, i in tagged, month, footnote, item, figure, with_figure,
                   fact and with_figure, row, where and row, heading, size >= PROSE_WORDS,
                   sentence, min(size, 40) / 40, counted / total, above / total,
                   *shares(on), precision, said_share, i / len(lines),
                   sum(concepts[c].weight for c in near if not concepts[c].filer) / total,
                   any(not concepts[c].weight and not concepts[c].filer for c in on), min(figures, 6) / 6,
                   rarest in on, "%" in line, fact and sentence, fact and row, lead_in,
                   totals, why and sentence, why and row, explaining, why and explaining,
                   *_asked_line(lines, i, on, concepts, label, own_words, years, heads, row, totals),
                   where and totals, fact and totals, where and lead_in,
                   bool(label) and content_stems(line)[:1] == ("other",) and "other" not in own_words,
                   bool(years) and other_years(years, line), bool(spans) and off_period(spans, "\n".join(
                       [*(lines[j] for j in column_headings(lines, i)), line]) if row else line))
        keys.append(((i in named, title == where, i in tagged, month, not footnote, item, round(score, 9),
                      with_figure, round(precision, 9), -i), i, signals))
    if any(key[6] > 0 for key, _, _ in keys):  # a line that says only a year or the filer says nothing asked
        keys = [entry for entry in keys if entry[0][6] > 0 or entry[0][0] or entry[0][2] or entry[0][3]]
    keys.sort(reverse=True)
    top = max((key[6] for key, _, _ in keys), default=0.0) or 1.0
    return [LineCandidate(i, (float(rank == 0), 1 / (1 + rank), key[6] / top, (len(keys) - rank) / len(keys),
                              *map(float, signals)), (key[0], key[1], key[4]))
            for rank, (key, i, signals) in enumerate(keys)]


def _asked_line(lines: list[str], i: int, on: dict[int, tuple[int, frozenset[str]]], concepts: tuple[Concept, ...],
                label: frozenset[str], own_words: frozenset[str], years: frozenset[str], heads: list[int],
                row: bool, totals: bool) -> tuple[float, ...]:
    """The signals of a candidate line that say whether it is the asked line itself
    (``SIGNALS`` from ``item_start``): the asked line item's words open it (a row's
    label), in the question's own words; its label says nothing else; the filer's name is on it
    ("attributable to Acme", not to noncontrolling interests); a total's row where the question
    asks a total; its table's column headings name the year asked, or only other years; how far
    below the nearest line saying the question's concepts without a figure (its caption or
    heading) it stands."""
    words = _aside_positions(lines[i])[0]
    start = own_start = False
    for c in on:
        concept = concepts[c]
        if not concept.line_item or not concept.weight or concept.filer:
            continue
        for n, phrase in enumerate(concept.phrases):
            wanted = _content(phrase)
            if wanted and words[: len(wanted)] == wanted:
                start = True
                own_start = own_start or _tier(concept, n) == OWN
    extra = len(label - own_words) if label else 0
    filer = any(concepts[c].filer for c in on)
    column = other = False
    if years and row:
        named = {y for j in column_headings(lines, i) for y in _YEAR_IN.findall(lines[j])}
        column, other = bool(named & years), bool(named) and not named & years
    above = max((j for j in heads if j < i), default=None)  # the nearest such line above
    distance = min(i - above, TABLE_REACH) / TABLE_REACH if above is not None else 1.0
    return (start, own_start, min(extra, 8) / 8, filer, totals and "total" in own_words, column, other, distance)


def mark(text: str, concepts: tuple[Concept, ...]) -> str:
    """The text with every phrase of the concepts marked as FTS5's ``highlight()`` marks it:
    overlapping matches make one stretch, adjacent ones stay apart. In Python, for tests and
    for text the index did not mark."""
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    token_stems = [stem_token(text[a:b].lower()) for a, b in spans]
    instances = []
    for concept in concepts:
        for phrase in concept.phrases:
            size = len(phrase)
            for i in range(len(spans) - size + 1) if size else ():
                if tuple(token_stems[i : i + size]) == phrase:
                    instances.append((i, i + size - 1))
    merged: list[list[int]] = []
    for first, last in sorted(instances):
        if merged and first <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    out, position = [], 0
    for first, last in merged:
        out += [text[position : spans[first][0]], START, text[spans[first][0] : spans[last][1]], END]
        position = spans[last][1]
    out.append(text[position:])
    return "".join(out)
