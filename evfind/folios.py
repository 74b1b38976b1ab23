"""Printed folios: the page number a page prints at its foot or head, read from its text.

A PDF may say what each page is numbered (its page labels); most filings do not, but print the
number on the page: "109", "F-12", "ii", "A - 3", "- 4 -", "Page 5 of 20", or beside a running
footer ("2023 FORM 10-K 31", "16 NIKE, INC."). ``printed_folios`` reads it from the page texts
alone, so it serves PDF pages and HTML pages alike.

A number at the edge of a page is taken for its folio only where it runs in sequence with its
neighbours' (the physical page minus the folio is the same on nearby pages, in the same series:
plain numbers, one letter prefix such as F-, or roman numerals). A figure that ends a table, a
year or a note number does not run in sequence, and is never taken; a page where nothing is
found, or nothing runs in sequence, gets None. Pure: page texts in, labels out.

    >>> printed_folios(["Cover", "Contents\\n i", "Business\\n1", "Risks\\n2", "Table\\n2,019\\n3"])
    [None, None, '1', '2', '3']

(The contents page prints "i" alone in its series: one roman page runs in sequence with nothing.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

EDGE_LINES = 5  # the lines at the head and at the foot of a page where a folio is looked for
WINDOW = 4  # how far (in physical pages) a neighbour that confirms a folio may be
MAX_FOLIO = 9999

_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN = re.compile(r"(?=[ivxlcdm])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
# A line that is nothing but a folio: "109", "- 4 -", "F-12", "A - 3", "ii", "Page 5 of 20".
_ALONE = re.compile(
    r"(?:page\s+)?(?P<body>[A-Za-z]{1,2}\s?-\s?\d{1,4}|\d{1,4}|[ivxlcdm]{1,8}|[IVXLCDM]{1,8})(?:\s+of\s+\d{1,4})?",
    re.IGNORECASE,
)
# Between dashes or in brackets: "- 4 -", "-10-", "(iv)", "[7]".
_DASHED = re.compile(
    r"[-\u2013\u2014]\s*(?P<body>[^-\s][^\s]*(?:\s?-\s?\d{1,4})?)\s*[-\u2013\u2014]|[(\[]\s*(?P<inner>[^()\[\]\s]+)\s*[)\]]"
)
# A folio beside running text at the start or the end of a line: "16 NIKE, INC.", "2023 FORM 10-K 31".
_LEADING = re.compile(r"(?P<body>\d{1,4})\s+(?P<rest>[^\d\s].*)")
_TRAILING = re.compile(r"(?P<rest>.*\D)\s+(?:\|\s*)?(?P<body>\d{1,4})")
# Words that number a part of a document rather than its pages: "Exhibit 21", "Note 5", "Item 7"
# at the top of consecutive pages can run in step like folios.
_NUMBERING = frozenset(
    "exhibit note item section article schedule part annex appendix chapter rule step level tier "
    "class series phase stage year quarter no number form".split()
)
# Years in a table's column headings run in step across two pages as easily as folios do.
_YEARS = range(1900, 2100)


@dataclass(frozen=True)
class _Candidate:
    series: str  # "" for plain numbers, "F-" for a letter prefix, "i" / "I" for roman numerals
    value: int
    label: str  # as the folio is given out: "109", "F-12", "ii"
    alone: bool  # the whole line is the folio (not beside running text)
    rank: int  # where on the page: 0 the last line, 1 the first, 2 the one before last...


def _roman(text: str) -> int | None:
    low = text.lower()
    if not low or _ROMAN.fullmatch(low) is None:
        return None
    total = 0
    for here, after in zip(low, low[1:] + " "):
        value = _ROMAN_VALUES[here]
        total += -value if after != " " and _ROMAN_VALUES[after] > value else value
    return total


def _read(body: str) -> tuple[str, int, str] | None:
    """(series, value, label) of a folio as printed, or None."""
    body = body.strip()
    if body.isdigit():
        value = int(body)
        return ("", value, str(value)) if 0 < value <= MAX_FOLIO and value not in _YEARS else None
    prefix, dash, number = body.partition("-")
    if dash:
        prefix, number = prefix.strip(), number.strip()
        if prefix.isalpha() and number.isdigit() and 0 < int(number) <= MAX_FOLIO:
            return (prefix.upper() + "-", int(number), f"{prefix.upper()}-{int(number)}")
        return None
    if body.isalpha() and (body.islower() or body.isupper()):
        value = _roman(body)
        if value is not None:
            return ("i" if body.islower() else "I", value, body)
    return None


def _candidates(text: str) -> list[_Candidate]:
    lines = [line.strip() for line in text.split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        return []
    order: list[int] = []  # the last line, the first, the one before last, the second...
    for index in range(min(EDGE_LINES, len(lines))):
        for where in (len(lines) - 1 - index, index):
            if where not in order:
                order.append(where)
    found = []
    for rank, line in enumerate(lines[where] for where in order):
        if len(line) > 200:
            continue
        alone = _DASHED.fullmatch(line) or _ALONE.fullmatch(line)
        if alone:
            read = _read(alone.group("body") or alone.group("inner"))
            if read:
                found.append(_Candidate(*read, alone=True, rank=rank))
            continue
        for pattern in (_TRAILING, _LEADING):
            match = pattern.fullmatch(line)
            if match is None or _numbering(match.group("rest"), pattern is _TRAILING):
                continue
            if read := _read(match.group("body")):
                found.append(_Candidate(*read, alone=False, rank=rank))
    return found


def _numbering(rest: str, before: bool) -> bool:
    """Is the running text beside a number a word that numbers something other than pages
    ("Exhibit 21", "Note 5")? ``before``: the text is before the number."""
    words = re.findall(r"[a-z]+", rest.lower())
    return bool(words) and (words[-1] if before else words[0]) in _NUMBERING


def folio_candidate(line: str) -> str | None:
    """The folio a line would print, if it stood at a page's edge (before any neighbour is
    read): "Page 49 of 120" -> "49", "2025 FORM 10-K 56" -> "56", "Exhibit 21" -> None.

    >>> folio_candidate("- 49 -"), folio_candidate("F-12"), folio_candidate("Net sales $ 1,234")
    ('49', 'F-12', None)
    """
    found = _candidates(line)
    return found[0].label if found else None


def printed_folios(pages: Sequence[str]) -> list[str | None]:
    """The folio each page prints (its normalised text in, one label or None per page out).

    A candidate is a number alone on one of the first or last EDGE_LINES lines of a page, or at
    either end of such a line beside running text. It is kept where another page within WINDOW
    pages has a candidate of the same series whose folio is as far from that page's as the
    pages are apart (two such pages for a number beside running text, which a note or an
    article number could otherwise imitate). A page left without a folio between two that
    agree takes the number they imply, where that number is printed at the edge of the page.
    """
    candidates = [_candidates(text) for text in pages]
    keys: dict[tuple[str, int], list[int]] = {}  # (series, physical - folio) -> pages holding it
    for index, found in enumerate(candidates):
        for candidate in found:
            where = keys.setdefault((candidate.series, index - candidate.value), [])
            if not where or where[-1] != index:
                where.append(index)

    def support(index: int, candidate: _Candidate) -> int:
        pages_of = keys[(candidate.series, index - candidate.value)]
        return sum(1 for other in pages_of if other != index and abs(other - index) <= WINDOW)

    labels: list[str | None] = [None] * len(pages)
    chosen: list[tuple[str, int] | None] = [None] * len(pages)
    for index, found in enumerate(candidates):
        best = None
        for candidate in found:
            needed = 1 if candidate.alone else 2
            score = support(index, candidate)
            if score >= needed and (best is None or (score, -candidate.rank) > best[0]):
                best = ((score, -candidate.rank), candidate)
        if best is not None:
            candidate = best[1]
            labels[index] = candidate.label
            chosen[index] = (candidate.series, index - candidate.value)

    # A page between two confirmed folios of one series whose own candidate falls between theirs,
    # no further from each than the pages are apart: a folio glued to the page's last sentence,
    # or one that a blank page inserted before it put out of step.
    for index, found in enumerate(candidates):
        if labels[index] is not None or not found:
            continue
        before = next((j for j in range(index - 1, max(-1, index - WINDOW - 1), -1) if chosen[j]), None)
        after = next((j for j in range(index + 1, min(len(pages), index + WINDOW + 1)) if chosen[j]), None)
        if before is None or after is None or chosen[before][0] != chosen[after][0]:
            continue
        series = chosen[before][0]
        low, high = before - chosen[before][1], after - chosen[after][1]  # their folios
        for candidate in found:
            value = candidate.value
            if (
                candidate.series == series
                and low < value < high
                and value - low <= index - before
                and high - value <= after - index
            ):
                labels[index] = candidate.label
                break
    return labels


def page_labels(pdf_labels: Sequence[str | None], texts: Sequence[str]) -> list[str | None]:
    """The label each page is stored with: the PDF's own page labels where it has them, else the
    folios its texts print (``printed_folios``). Labels that only repeat the physical page
    numbers (1, 2, 3... as many PDF writers set them) say nothing the page number does not:
    the printed folios are read instead."""
    given = [label.strip() if label else None for label in pdf_labels]
    if any(given) and any(label != str(number) for number, label in enumerate(given, start=1) if label):
        return given
    return printed_folios(texts)
