"""The shared folio reader: the page number printed on each page ("49", "F-12", "ii"), from its text.

``printed_folios(pages)`` is what ingest stores as a page's label where the source gives none
of its own: the pages of an HTML filing (and, in time, of a PDF without page labels). A folio
is looked for where pages print one, at the foot (the last two lines) and the head (the first
two): a number alone ("49", "- 49 -", "Page 49", "Page 49 of 120"), a roman numeral ("ii",
"(i)"), a letter series ("F-12", "S-1"), or a number beside a running footer or header
("2025 FORM 10-K 56", "56 | Annual Report"). A candidate is accepted only where it runs in
sequence with a neighbour: a page within ``REACH`` pages whose candidate is of the same series
(the same kind of number, the same running text) and whose number differs by just as many
pages. So a table of contents' last line ("Signatures 137"), a year or an amount at a page's
foot are not read as folios; a page whose folio stands alone (a lone "i" before page 1) gets
none.

This is the minimal version written with HTML ingest (evfind/htmlread.py); the fuller reader
of PDFs replaces it with the same signature.

    >>> printed_folios(["Cover", "Text\\n1", "More\\n2", "Table\\n2025", "End\\n4"])
    [None, '1', '2', None, '4']

Pure: strings in, strings out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

# How far away (in pages) a neighbour in sequence may be: a folio is still read where the page
# between is unnumbered (a full-page graphic, a blank page).
REACH = 3
# A running footer's text beside its number: at most this many characters.
RUNNING_TEXT = 60

_ROMAN = re.compile(r"^[ivxlcdm]{1,7}$", re.I)
_LETTERED = re.compile(r"^([A-Z]{1,2})\s?-\s?(\d{1,3})$")
_ARABIC = re.compile(r"^\d{1,4}$")
# "Page 49", "Page 49 of 120", "- 49 -", "(i)", "[7]" (but not "1 of 2", a signature page's count)
_DECORATED = re.compile(r"^(?:page\s+(\S{1,8})(?:\s+of\s+\d{1,4})?|[-\u2013\u2014(\[]\s*(\S{1,8}?)\s*[-\u2013\u2014)\]]?)$", re.I)
_TRAILING = re.compile(r"^(.{1,%d}?)\s*[|\u00b7\u2022/]?\s+(\d{1,4}|[A-Z]{1,2}-\d{1,3})$" % RUNNING_TEXT)
_LEADING = re.compile(r"^(\d{1,4}|[A-Z]{1,2}-\d{1,3})\s+[|\u00b7\u2022/]?\s*(.{1,%d})$" % RUNNING_TEXT)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


class Candidate(NamedTuple):
    """A number a page may print as its folio: its series (the kind of number and the running
    text beside it), its value in that series and the folio as printed."""

    series: str
    value: int
    folio: str


def printed_folios(pages: Sequence[str]) -> list[str | None]:
    """The folio printed at each page's foot or head, accepted only where it runs in sequence
    with its neighbours (see the module's docstring); None for a page without one."""
    candidates = [page_candidates(text) for text in pages]
    folios: list[str | None] = []
    for index, own in enumerate(candidates):
        chosen = None
        for candidate in own:
            if _in_sequence(candidates, index, candidate):
                chosen = candidate.folio
                break
        folios.append(chosen)
    return folios


def _in_sequence(candidates: list[list[Candidate]], index: int, candidate: Candidate) -> bool:
    for distance in range(1, REACH + 1):
        for other in (index - distance, index + distance):
            if not 0 <= other < len(candidates):
                continue
            for neighbour in candidates[other]:
                if neighbour.series == candidate.series and neighbour.value - candidate.value == other - index:
                    return True
    return False


def page_candidates(text: str) -> list[Candidate]:
    """The folios a page may print, in order of preference: its last line, its first, the
    line before its last, its second."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if not lines:
        return []
    order = [lines[-1], lines[0]]
    if len(lines) > 2:
        order += [lines[-2], lines[1]]
    found: list[Candidate] = []
    for line in dict.fromkeys(order):
        candidate = folio_candidate(line)
        if candidate is not None:
            found.append(candidate)
    return found


def folio_candidate(line: str) -> Candidate | None:
    """The folio a line may be: "49", "- 49 -", "Page 49", "ii", "(i)", "F-12", "2025 FORM 10-K
    56", "56 | Annual Report"; None for a line that is not one."""
    line = " ".join(line.split())
    if len(line) > RUNNING_TEXT + 8:
        return None
    bare = _bare(line)
    if bare is not None:
        return bare
    decorated = _DECORATED.match(line)
    if decorated:
        bare = _bare(decorated.group(1) or decorated.group(2))
        if bare is not None:
            return bare
    for pattern, text_group, number_group in ((_TRAILING, 1, 2), (_LEADING, 2, 1)):
        match = pattern.match(line)
        if match:
            running = _running(match.group(text_group))
            number = _bare(match.group(number_group))
            if running and number is not None and not _ROMAN.match(match.group(number_group)):
                return Candidate(f"{number.series}|{running}", number.value, number.folio)
    return None


def _bare(token: str) -> Candidate | None:
    if _ARABIC.match(token):
        return Candidate("arabic", int(token), token)
    if _ROMAN.match(token):
        value = _roman_value(token.lower())
        if value:
            return Candidate("roman-upper" if token.isupper() else "roman", value, token)
        return None
    lettered = _LETTERED.match(token)
    if lettered:
        return Candidate(f"lettered-{lettered.group(1)}", int(lettered.group(2)), f"{lettered.group(1)}-{lettered.group(2)}")
    return None


def _running(text: str) -> str | None:
    """A running footer's text as a series key: lower case, single spaces; None where it is
    no running text (no letters, or a sentence)."""
    text = text.strip(" |\u00b7\u2022/-\u2013\u2014").lower()
    if not any(ch.isalpha() for ch in text) or text.endswith((".", ",", ";", ":")):
        return None
    return " ".join(text.split())


def _roman_value(token: str) -> int:
    """The value of a well-formed roman numeral; 0 for letters that are not one ("ivi")."""
    total = 0
    for index, ch in enumerate(token):
        value = _ROMAN_VALUES[ch]
        if index + 1 < len(token) and _ROMAN_VALUES[token[index + 1]] > value:
            total -= value
        else:
            total += value
    return total if _to_roman(total) == token else 0


def _to_roman(number: int) -> str:
    parts = []
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                           (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while number >= value:
            parts.append(letters)
            number -= value
    return "".join(parts)
