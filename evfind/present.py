"""How a cited page is shown: its note, its matched terms and where they are on its evidence lines.

Pure functions over a page's text as the query marked it (FTS5 ``highlight()``: ``\x02`` before
and ``\x03`` after each stretch that matched) and over its best passage (evidence.py). Nothing
here ranks: the pages are chosen before they are described.
"""

import re

from . import evidence
from .evidence import Passage
from .question import ParsedQuestion
from .store import PageRow
from .text import LazyPattern, normal

CONTINUES = "continues: "  # a note's heading of the section a page continues (in Chinese: zh.CONTINUES)
MARK = LazyPattern("\x02(.*?)\x03", re.S)
_NO_MARKS = {ord(evidence.START): " ", ord(evidence.END): " "}


def evidence_lines(passage: Passage | None) -> tuple[tuple[int, str], ...]:
    """A passage's evidence lines, numbered from 1 as a user counts the lines of a page."""
    return () if passage is None else tuple((index + 1, text) for index, text in passage.lines)


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
                _, held = evidence.read_lines(match.group(0), concepts)
                owners = frozenset().union(*held.values())
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
