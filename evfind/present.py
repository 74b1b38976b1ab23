"""How a cited page is shown: its note, its matched terms and where they are on its evidence lines.

Pure functions over a page's text as the query marked it (FTS5 ``highlight()``: ``\x02`` before
and ``\x03`` after each stretch that matched) and over its best passage (evidence.py). Nothing
here ranks: the pages are chosen before they are described.
"""

import re

from . import auditlines, evidence, months as by_month
from .evidence import Passage
from .question import ParsedQuestion
from .store import PageRow
from .text import LazyPattern, normal

_WHERE_FIRST = LazyPattern(r"\s*(?:where|which pages?|what pages?|on (?:what|which) pages?|find)\b", re.I)
# A question that asks what something is, or which ones, besides or instead of where it is.
_WHAT = LazyPattern(r"^\s*(?:what|which)\b(?!\s+(?:pages?|parts?|sections?|notes?)\b)|是什么|是哪些|有哪些|哪些", re.I)
_FIGURE_FIRST = LazyPattern(r"\s*(?:what (?:was|were|is|are)\b(?! the (?:pages?|sections?|notes?)\b)|how (?:much|many)\b)|.*(?:是多少|有多少)", re.I)
# A question that asks why a figure is what it is (Porter stems, and the Chinese words): the
# sentence that explains it, not its row.
_WHY = frozenset({"why", "drove", "drive", "driver", "driven", "caus", "reason", "explain"})
_WHY_ZH = ("为什么", "为何", "原因", "驱动", "推动", "导致")
CONTINUES = "continues: "  # a note's heading of the section a page continues (in Chinese: zh.CONTINUES)
MARK = LazyPattern("\x02(.*?)\x03", re.S)
_NO_MARKS = {ord(evidence.START): " ", ord(evidence.END): " "}


def tiers(idea, metrics: bool = True) -> tuple[int, ...]:
    """How directly each phrase of a question's idea (``question.Idea``) says it, as the shown
    evidence line is chosen (``evidence.shown_lines``): ``OWN`` for the question's own wording,
    ``INPUT`` for a line item the lexicon adds as an input of the measure asked (a metric's or a
    ratio's row: operating cash flow for free cash flow), unless it holds every word of the
    measure's name ("effective income tax rate" says the effective tax rate), ``SYNONYM`` for
    the others."""
    from .question import lexicon  # (the vocabulary is read once per process)
    from .text import normal, tokens

    key = tuple(normal(w) for w in tokens(idea.label))
    inputs = set(lexicon(metrics).get(key, ())) - set(lexicon(False).get(key, ())) if metrics else set()
    own = set(key)
    found = []
    for number, phrase in enumerate(idea.phrases):
        if number == 0 or phrase == idea.label:
            found.append(evidence.OWN)
        elif phrase in inputs and not own <= {normal(w) for w in tokens(phrase)}:
            found.append(evidence.INPUT)
        else:
            found.append(evidence.SYNONYM)
    return tuple(found)


def shown(passage: Passage, lines: list[str], held, concepts: tuple[evidence.Concept, ...], fact: bool,
          where: bool = False, tagged: frozenset[int] = frozenset(), marked: frozenset[int] = frozenset(),
          months: tuple[tuple[str, str], ...] = (), asks_what: bool = False, why: bool = False,
          spans: frozenset[str] = frozenset()) -> Passage:
    """The passage with the lines a user reads (``evidence.shown_lines``, chosen from the whole
    page) as its evidence lines, each with its table's column headings
    (``evidence.column_headings``). Its score, coverage and figure (what the ranking reads)
    are left as they are."""
    if not passage.lines:
        return passage
    # Asked what the critical audit matters are, their titles; asked only where, the report's heading.
    cams = (not where or asks_what) and auditlines.asks_cam([p for c in concepts for p in c.phrases])
    named = auditlines.cam_titles(lines) if cams else frozenset()
    asked = evidence.Asked(fact, where, why, tagged, marked,
                           by_month.month_rows(lines, months) if months and fact else frozenset(), named, spans)
    chosen = evidence.shown_lines(lines, held, concepts, asked) or tuple(
        i for i, _ in passage.lines)
    columns = tuple(tuple((j, lines[j]) for j in evidence.column_headings(lines, i)) for i in chosen)
    return passage._replace(lines=tuple((i, lines[i]) for i in chosen), columns=columns)


def names_filer(label: str, question: str, filer: frozenset[str]) -> bool:
    """Does a question's idea (its ``label``) name the filer ("Costco" of "Costco's diluted
    EPS")? Each of its words is a name as the question writes it (capitalised, or a number:
    "3M") and one of the ``filer`` words (the cover's words on most of the filing's pages).

    >>> names_filer("costco", "What was Costco's diluted EPS?", frozenset({"costco", "diluted"}))
    True
    >>> names_filer("diluted", "What was Costco's diluted EPS?", frozenset({"costco", "diluted"}))
    False
    """
    words = re.findall(r"[^\W_]+", label)
    written = {w.lower() for w in re.findall(r"[^\W_]+", question) if w[0].isupper() or w[0].isdigit()}
    return bool(words) and all(w.lower() in written and normal(w.lower()) in filer for w in words)


def shown_passages(passages, marks, page_ids, concepts: tuple[evidence.Concept, ...], parsed: ParsedQuestion,
                   facts=None, least: float = 0.0, read=None) -> dict:
    """The passages with the evidence lines a user reads of these pages (``shown``), read from
    each page's text as the query marked it (``marks``: page -> (text, heading)). A question
    that names a statement's line item wants its row even where it asks where it is ("Where is
    the operating cash flow?"); one that asks only where something is gets the title first.
    ``facts`` (concepts.Lookup): the inline-XBRL facts matching the question; the lines showing
    those scoring ``least`` or more (``tagged_lines``) come first. ``read``: page -> (lines,
    concepts on each) as ``evidence.read_lines`` read them of the same marks and concepts for
    the ranking, where it did (not read again)."""
    from .question import asks_where

    figures = parsed.fact or bool(parsed.statements)
    # "Where is the tax rate reconciliation?" asks where, though a rate is a figure: a question
    # that opens by asking where, or asks where and for no figure.
    # One that asks first what a statement's figure is, then where ("What was the operating cash
    # flow in 2022, and which page shows it?"), wants the figure's row.
    asks_what = bool(_WHAT.search(parsed.text))
    where = (asks_where(parsed.text) and (not parsed.fact or bool(_WHERE_FIRST.match(parsed.text)))
             and not (figures and bool(_FIGURE_FIRST.match(parsed.text))))
    months = by_month.months_asked(parsed.text)
    why = not _WHY.isdisjoint(evidence.stems(parsed.text)) or any(w in parsed.text for w in _WHY_ZH)
    spans = evidence.periods_asked(parsed.reading.english if parsed.reading is not None else parsed.text)
    found = dict(passages)
    for page in page_ids:
        passage = found.get(page)
        if passage is not None and passage.lines:
            text = marks[page][0]
            lines, held = read[page] if read and page in read else evidence.read_lines(text, concepts)
            strong = [hit for hit in facts.on_page(page) if hit.score >= least] if facts is not None else []
            marked = frozenset(i for i, line in enumerate(text.split("\n")) if evidence.START in line)
            found[page] = shown(passage, lines, held, concepts, figures, where, tagged_lines(lines, strong), marked, months,
                                asks_what, why, spans)
    return found


def tagged_lines(lines: list[str], facts) -> frozenset[int]:
    """The lines (by index) that show one of these facts: a table's row that starts with its row
    label and shows its value, or, for a fact without a row label (one tagged in a sentence), a
    line showing its value (three characters or more), as a whole figure.

    >>> from evfind.concepts import FactHit
    >>> hit = FactHit(1, 1, "us-gaap:Revenues", "2025", "1,234", 1.0, ("net sales",), "Net sales")
    >>> sorted(tagged_lines(["Net sales $ 1,234 $ 1,100", "Cost of sales 734", "Net sales rose to $1,234 million."], [hit]))
    [0]
    """
    found = set()
    for hit in facts:
        value = " ".join(hit.value.split())
        if not value:
            continue
        figure = re.compile(r"(?<![\w.,])" + re.escape(value) + r"(?![\w]|[.,]\d)")
        label = " ".join(hit.row_label.split()).lower() if hit.row_label else None
        if label is None and len(value) < 3:
            continue
        for i, line in enumerate(lines):
            if not figure.search(line):
                continue
            if label is None or evidence.is_table_row(line) and " ".join(line.split()).lower().startswith(label):
                found.add(i)
    return frozenset(found)


def evidence_lines(passage: Passage | None) -> tuple[tuple[int, str], ...]:
    """A passage's evidence lines, numbered from 1 as a user counts the lines of a page."""
    return () if passage is None else tuple((index + 1, text) for index, text in passage.lines)


def evidence_columns(passage: Passage | None) -> tuple[tuple[tuple[int, str], ...], ...]:
    """For each of a passage's evidence lines, its table's column headings, numbered from 1."""
    if passage is None:
        return ()
    return tuple(tuple((index + 1, text) for index, text in headings) for headings in passage.columns)


def line_marks(
    marked: str, lines: tuple[tuple[int, str], ...], concepts: tuple[evidence.Concept, ...]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each evidence line ((number from 1, text)), the (start, end) offsets in it of the
    stretches FTS5 marked on the page (``marked``, as the evidence read it) that express one of
    the question's concepts, as the evidence counted them: those of the rarest concepts first
    (by the concepts' weights), then along the line. A stretch over a line break counts on each
    line it touches. Only the evidence lines are read."""
    from itertools import accumulate

    pieces = marked.split("\n")
    starts = list(accumulate((len(piece) + 1 for piece in pieces), initial=0))

    def plain(text: str) -> int:  # characters of the page's text in a stretch of marked text
        return len(text) - text.count(evidence.START) - text.count(evidence.END)

    found = []
    for number, text in lines:
        spans = []
        if number - 1 < len(pieces):
            a = starts[number - 1]
            b = a + len(pieces[number - 1])
            opened = marked.rfind(evidence.START, 0, a)  # a stretch from an earlier line runs on here
            for match in MARK.finditer(marked, opened if opened > marked.rfind(evidence.END, 0, a) else a):
                if match.start() >= b:
                    break
                owners = evidence.span_owners(match.group(1), concepts)
                if owners:
                    start = 0 if match.start() < a else plain(marked[a : match.start()])
                    end = len(text) if match.end() > b else plain(marked[a : match.end()])
                    spans.append((-max(concepts[i].weight for i in owners), start, end))
        found.append(tuple((start, end) for _, start, end in sorted(spans)))
    return tuple(found)




def spans(marked: str, limit: int = 6) -> tuple[str, ...]:
    """The distinct matched stretches of a page's text: the longest (most specific) first, a
    word dropped where a longer stretch already holds it ("cash" beside "cash flows")."""
    found: dict[str, int] = {}
    forms: set[str] = set()
    for span in MARK.findall(marked):
        span = " ".join(span.split()).lower()
        if span in found:  # (a stretch met again: its form is in forms)
            continue
        form = " ".join(normal(w) for w in span.split())  # "cash flows" and "cash flow": one
        if span and form not in forms:
            forms.add(form)
            found[span] = len(found)
    chosen: list[str] = []
    for span in sorted(found, key=lambda s: (-len(s.split()), found[s])):
        if not any(f" {span} " in f" {longer} " for longer in chosen):
            chosen.append(span)
        if len(chosen) >= limit:
            break
    return tuple(chosen)




def note(row: PageRow, terms: tuple[str, ...], parsed: ParsedQuestion, lang: str) -> str:
    """What the page shows: its heading (or the section it continues) and the matched terms; in
    Chinese, ``zh.note``."""
    if lang == "zh":
        from .zh import note

        return note(row.heading, row.section_heading, terms, parsed.reading)
    parts = []
    if row.heading:
        parts.append(row.heading)
    elif row.section_heading:
        parts.append(CONTINUES + row.section_heading)
    if terms:
        parts.append("matched: " + ", ".join(terms))
    return "; ".join(parts)



def highlights(
    text: str, terms: tuple[str, ...], concepts: tuple[evidence.Concept, ...]
) -> tuple[tuple[int, int], ...]:
    """The (start, end) offsets in a page's ``text`` of the ``terms`` a query matches (marked as
    FTS5 marks them) that the evidence counts for the question's ``concepts``, as the evidence
    lines' marks are chosen (``line_marks``): for `evfind show --highlight`."""
    phrases = tuple(p for p in (evidence.stems(term) for term in terms) if p)
    if not phrases:
        return ()
    marked = evidence.mark(text.translate(_NO_MARKS), (evidence.Concept("terms", phrases),))
    lines = tuple(enumerate(text.split("\n"), start=1))
    starts = [0]
    for _, line in lines:
        starts.append(starts[-1] + len(line) + 1)
    per_line = line_marks(marked, lines, concepts)
    return tuple(sorted((starts[i] + a, starts[i] + b) for i, spans in enumerate(per_line) for a, b in spans))
