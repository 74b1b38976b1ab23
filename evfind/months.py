"""The months a question names, and the rows of a table by month that show them.

An issuer's purchases of its equity securities (Reg S-K Item 703) are tabled by month: "April 1 -
April 30, 2023 3,282,288 $ 125.01". A question naming a month and year without a day ("in April
2023", "2023年4月") asks for that month's row. Pure functions; nothing here ranks.
"""

import re

from .text import LazyPattern

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH_ASKED = LazyPattern(r"\b(" + "|".join(_MONTHS) + r")\s+(?:of\s+)?((?:19|20)\d\d)\b", re.I)
_MONTH_ASKED_ZH = LazyPattern(r"((?:19|20)\d\d)\s*年\s*(\d{1,2})\s*月(?!\s*\d{1,2}\s*日)")


def months_asked(question: str) -> tuple[tuple[str, str], ...]:
    """The months a question names as a span, month and year without a day ("in April 2023",
    "2023年4月"), as (month, year); not a date ("April 30, 2023", "2023年4月30日").

    >>> months_asked("How many shares did Nike buy back in April 2023?"), months_asked("At April 30, 2023?")
    ((('april', '2023'),), ())
    >>> months_asked("2022年12月回购股票的平均价格是多少？")
    (('december', '2022'),)
    """
    found = [(month.lower(), year) for month, year in _MONTH_ASKED.findall(question)]
    found += [(_MONTHS[int(month) - 1], year) for year, month in _MONTH_ASKED_ZH.findall(question) if 1 <= int(month) <= 12]
    return tuple(dict.fromkeys(found))


def month_rows(lines: list[str], months: tuple[tuple[str, str], ...]) -> frozenset[int]:
    """The lines (by index) that are the row of one of these months in a table by month (an
    issuer's purchases of its shares): the line opens with the month, names its year within
    its label and shows figures after it ("April 1 — April 30, 2023 3,282,288 $ 125.01",
    "December 1 - 31, 2022 4,632 12.50").

    >>> month_rows(["Period Total Number of Shares", "April 1 — April 30, 2023 3,282,288 $ 125.01",
    ...             "April 30, 2023 and 2022"], (("april", "2023"),))
    frozenset({1})
    """
    found = set()
    for month, year in months:
        row = re.compile(r"\s*" + month + r"\b[^\n]{0,40}?\b" + year + r"\b\s*(?:\(\d\)\s*)?\$?\s*\(?\d", re.I)
        found.update(i for i, line in enumerate(lines) if row.match(line))
    return frozenset(found)
