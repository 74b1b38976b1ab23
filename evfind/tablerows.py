"""The shape of a page's lines as a table prints them: whether a line carries a figure (an amount
or a rate, not a year, a date's day or a page number), reads as a table's row (a short label,
then its figures) or as a table's column headings for periods, and which header lines above a
row are its column headings. Pure functions over lines of text; ``evidence`` reads them to find
and show a page's evidence lines, ``pagefigures`` to read a row's figures by period.

    >>> has_figure("Net sales $ 1,234 $ 1,100"), has_figure("Fiscal 2023 and 2022")
    (True, False)
    >>> lines = ["Revenue by segment", "Three Months Ended", "June 30, 2023 June 30, 2022", "Europe 476 521"]
    >>> is_table_row(lines[3]), column_headings(lines, 3)
    (True, (1, 2))
"""

import re
from functools import lru_cache

from .text import LazyPattern

TABLE_REACH = 40  # lines above a table's row to look for its caption: a table of some 40 rows
PROSE_WORDS = 12  # a line of this many words without a figure is running text: no table runs through it

# A figure: an amount or a rate, not a year, a note number or a page number.
_FIGURE = LazyPattern(
    r"(?<![\w.,])(?:\$\s?\d[\d,]*(?:\.\d+)?|\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?|\(?\d+\.\d+\)?\s?%?"
    r"|\d+\s?%|\(?\d{2,}\)?)(?!\w)"
)
_YEAR = LazyPattern(r"(?:19|20)\d\d")
# A date's day ("December 31, 2025", "Dec. 31"): not a figure.
_DATE = LazyPattern(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.I
)

_DIGIT = LazyPattern(r"\d\d|\d[.,%]|[$]\s?\d")


@lru_cache(maxsize=4096)
def has_figure(line: str) -> bool:
    """Does a line carry a figure (an amount, a rate), not only years or a page number? (Kept
    for the lines read last: a Finder's next question reads many of the same pages.)"""
    if not _DIGIT.search(line):
        return False
    line = _DATE.sub(" ", line)
    return any(not _YEAR.fullmatch(m.group(0).strip("()$% ")) for m in _FIGURE.finditer(line))


# Column headings: the header rows of a table, which say which figure is which period.
_PERIOD = LazyPattern(
    r"\b(?:(?:19|20)\d\d|fy\s?\d{2,4}|q[1-4]|[1-4]q|fiscal|quarters?|months?|weeks?|years?|ended|ending|as of"
    r"|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july"
    r"|august|september|october|november|december|half|ytd)\b",
    re.I,
)
_YEAR_IN = LazyPattern(r"(?<!\d)(?:19|20)\d\d(?!\d)")
HEADINGS = 2  # header lines shown with a row at most: a span ("Three Months Ended") and its dates


_SPAN_COUNT = LazyPattern(r"\b\d{1,2}[ -](?:weeks|months)\b", re.I)  # "12 Weeks Ended": a span, not a figure


@lru_cache(maxsize=16384)
def is_column_heading(line: str) -> bool:
    """Does a line read as a table's column headings for periods: no figure, at most a dozen
    words, and it names a year ("2025 2024 2023") or a span that ended ("Three Months Ended
    June 30,", "Fiscal Year Ended")?

    >>> is_column_heading("Three Months Ended Six Months Ended"), is_column_heading("12 Weeks Ended 36 Weeks Ended")
    (True, True)
    >>> is_column_heading("Net sales $ 1,234 $ 1,100"), is_column_heading("Purchases of property and equipment")
    (False, False)
    """
    if has_figure(_SPAN_COUNT.sub(" ", line)) or line.count(" ") >= PROSE_WORDS:  # ("12 Weeks Ended": a span)
        return False
    if _YEAR_IN.search(line):
        return True
    found = {m.group(0).lower() for m in _PERIOD.finditer(line)}
    return bool(found & {"ended", "ending", "as of"}) and bool(found - {"ended", "ending", "as of"})


@lru_cache(maxsize=16384)
def is_table_row(line: str) -> bool:
    """Does a line read as a table's row: a short label, then its figures (it ends with one)?"""
    if line.count(" ") >= 2 * PROSE_WORDS or not has_figure(line):
        return False
    last = line.rstrip().rsplit(" ", 1)[-1]
    return bool(_FIGURE.fullmatch(last.strip("$")) or last in ("-", "\u2014", "\u2013", "%", "%)"))


def column_headings(lines: list[str], row: int, reach: int = TABLE_REACH) -> tuple[int, ...]:
    """The column headings of the table a row belongs to (by index, in page order): the nearest
    lines above it, across the table's other rows and captions, that read as headings of
    periods (``is_column_heading``), at most ``HEADINGS`` of them in a row; none for a line that
    is not a table's row, or when a paragraph comes first (the table has no headings of its
    own on the page)."""
    if not 0 <= row < len(lines) or not is_table_row(lines[row]):
        return ()
    found: list[int] = []
    for i in range(row - 1, max(row - reach, 0) - 1, -1):
        line = lines[i]
        if is_column_heading(line):
            found.append(i)
            if len(found) == HEADINGS:
                break
            continue
        if found:
            break
        if not has_figure(line) and line.count(" ") >= PROSE_WORDS - 1:
            break  # a paragraph: the table starts below it
    return tuple(sorted(found))
