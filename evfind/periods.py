"""Periods: which span of time a question asks for, and which a page's tables and text cover
(read by the ranking to put a page of another span after the others; evidence.py re-exports
them).

An earnings release or a 10-Q prints the same table for two spans, the quarter and the year
to date (or the quarter and the full year), on neighbouring pages that hold the same words:
"Operating Profit by Division, 12 Weeks Ended" and "... 24 Weeks Ended". The column headings
say which is which (Reg S-X Rule 10-01(c): interim statements for the quarter and the year to
date; Rule 3-02: annual statements for the year), as do the question's words ("full-year",
"year-to-date", "Q4"). Spans: "quarter", "to_date" (the year to date: six or nine months, 24 or
36 weeks, the first half), "year" (twelve months, 52 or 53 weeks). ``other_years``: a line that
names only years the question does not (a signal of the line chooser, linechoice.py).
"""

import re
from functools import lru_cache

from .text import LazyPattern

START, END = "\x02", "\x03"  # the marks around a matched stretch, as evidence.py reads them

_NUMBER_WORDS = {
    "three": "3", "six": "6", "nine": "9", "twelve": "12", "thirteen": "13", "sixteen": "16",
    "seventeen": "17", "twenty four": "24", "twenty eight": "28", "thirty six": "36",
    "forty": "40", "fifty two": "52", "fifty three": "53",
}
_SPAN_OF = {
    ("months", "3"): "quarter", ("months", "6"): "to_date", ("months", "9"): "to_date",
    ("months", "12"): "year",
    ("weeks", "12"): "quarter", ("weeks", "13"): "quarter", ("weeks", "16"): "quarter",
    ("weeks", "17"): "quarter", ("weeks", "24"): "to_date", ("weeks", "28"): "to_date",
    ("weeks", "36"): "to_date", ("weeks", "40"): "to_date", ("weeks", "52"): "year",
    ("weeks", "53"): "year",
}
_COUNTED = r"(\d{1,2}|" + "|".join(w.replace(" ", "[ -]") for w in _NUMBER_WORDS) + r")[ -](months|weeks)"
# What a page covers: the spans its headings and sentences say "ended" of.
_SHOWN = LazyPattern(
    r"\b(?:" + _COUNTED + r"|(quarters?|(?:fiscal )?years?)) end(?:ed|ing)\b"
    r"|\b(full[ -]year|year[ -]to[ -]date|first half|half[ -]year)\b",
    re.I,
)
# A span named in words, as questions name it (question.py reads its words as a period's too).
SPAN_NAMED = r"full[ -](?:fiscal )?year|year[ -]to[ -]date|ytd|first half|half[ -]year"
# What a question asks for: a quarter named, a span counted, the full year or the year to date.
_ASKED = LazyPattern(
    r"\b(?:" + _COUNTED + r")\b"
    r"|\b(q[1-4]|[1-4]q|quarters?)\b"
    r"|\b(" + SPAN_NAMED + r")\b",
    re.I,
)
_WORDED = {"full year": "year", "full fiscal year": "year", "year to date": "to_date", "ytd": "to_date",
           "first half": "to_date", "half year": "to_date"}


def _counted(number: str, unit: str) -> str | None:
    number = _NUMBER_WORDS.get(number.lower().replace("-", " "), number)
    return _SPAN_OF.get((unit.lower(), number))


def _worded(words: str) -> str:
    return _WORDED[" ".join(words.lower().replace("-", " ").split())]


@lru_cache(maxsize=1024)
def periods_asked(question: str) -> frozenset[str]:
    """The spans a question asks for ("quarter", "to_date", "year"); none when it names none
    (a year alone, "FY2022", names no span: a 10-K's every table is of the year).

    >>> sorted(periods_asked("Operating profit by division for Q4 and the full year 2022"))
    ['quarter', 'year']
    >>> sorted(periods_asked("Europe's core operating profit for the first 24 weeks of 2023"))
    ['to_date']
    >>> periods_asked("What was 3M's FY2022 capital expenditure?")
    frozenset()
    """
    found = set()
    for match in _ASKED.finditer(" ".join(question.replace(";", " ").split())):
        number, unit, quarter, worded = match.groups()
        if number:
            found.add(_counted(number, unit))
        elif quarter:
            found.add("quarter")
        else:
            found.add(_worded(worded))
    return frozenset(found - {None})


def periods_shown(text: str) -> frozenset[str]:
    """The spans a page's tables and sentences cover: "Three Months Ended", "24 Weeks Ended",
    "Years Ended", "Full-Year 2022".

    >>> sorted(periods_shown("Quarter Ended Year Ended\\n12/31/2022 12/25/2021"))
    ['quarter', 'year']
    >>> sorted(periods_shown("Operating Profit by Division\\n24 Weeks Ended June 17, 2023"))
    ['to_date']
    """
    found = set()
    for match in _SHOWN.finditer(text.replace(START, "").replace(END, "")):
        number, unit, ended, worded = match.groups()
        if number:
            found.add(_counted(number, unit))
        elif ended:
            found.add("quarter" if ended.lower().startswith("quarter") else "year")
        else:
            found.add(_worded(worded))
    return frozenset(found - {None})


def off_period(asked: frozenset[str], text: str) -> bool:
    """Does the page cover only spans the question does not ask for (the quarter's table when
    the full year is asked)? A page that names no span (a balance sheet, a passage of prose
    without "ended") is not off.

    >>> off_period(frozenset({"year"}), "Operating Profit by Division\\nQuarter Ended 12/31/2022")
    True
    >>> off_period(frozenset({"year"}), "Quarter Ended Year Ended")
    False
    """
    if not asked:
        return False
    shown = periods_shown(text)
    return bool(shown) and not shown & asked


_YEAR = LazyPattern(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def other_years(years: frozenset[str], line: str) -> bool:
    """Does a line name years, none of them one the question names (``years``): a sentence of
    another year's event ("adopted the ASU in Q1 2017" when 2018 is asked), a row dated another
    year? A line naming no year is not other.

    >>> other_years(frozenset({"2018"}), "recorded in Q1 2017"), other_years(frozenset({"2018"}), "2018 and 2017")
    (True, False)
    """
    named = set(_YEAR.findall(line))
    return bool(named) and not named & years
