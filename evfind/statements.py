"""Primary statements on a page, computed at ingest: the title lines that name one, and the line
items that tell a statement from a page that only borrows its name.

Pure functions over lines and page words (text.words_key); structure.py's walk reads a page's
statement through them. The five statements are those of Reg S-X (Rules 5-02, 5-03, 3-04) and ASC
220 and 230; their title patterns are data/sections.tsv's "statement" rows, their characteristic
line items data/statement_lines.tsv.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ._data import rows
from .lines import short, title_words
from .text import squash

STATEMENTS = (
    "income_statement",
    "comprehensive_income",
    "balance_sheet",
    "cash_flow_statement",
    "equity_statement",
)
PRIMARY = ("income_statement", "balance_sheet", "cash_flow_statement")

# ---------------------------------------------------------------------------------------------
# Thresholds. The figures quoted were counted on the development filings.

# A statement's title line, with the company name and the period ("Consolidated Statements of
# Comprehensive Income Corning Incorporated and Subsidiary Companies", "... for the years ended
# December 31, 2024, 2023 and 2022"); a longer line is text that mentions a statement.
STATEMENT_TITLE_WORDS = 16
# Letters (squashed: no spaces) that may stand before a statement's name on its title line: a
# company name ("3M Company and Subsidiaries" is 23, "The Procter & Gamble Company" 23). More is
# a sentence that ends by naming a statement.
TITLE_LEAD = 40
# Letters that may follow the statement's name once dates and qualifiers are dropped: a footnote
# mark ("Consolidated Balance Sheets (a)"), a letter split off by extraction. Two or more mean the
# line goes on to name something else ("Balance Sheet Data", "Statement of Income Highlights").
TITLE_TAIL = 1
# A trailing company name is cut at a capitalised word, keeping at least COMPANY_CUT_WORDS words
# before it: the shortest title ("Balance Sheets", "Income Statement") is two.
COMPANY_CUT_WORDS = 2
# Some PDFs extract a title a few words per line ("CONSOLIDATED" / "BALANCE" / "SHEETS"; or
# "Consolidated Statements" / "of Comprehensive" / "Income"): up to TITLE_RUN_LINES consecutive
# lines of at most TITLE_RUN_WORDS words each are joined and tried as one title. Four such lines
# hold the longest title ("Consolidated Statements of Changes in Shareholders' Equity", seven
# words); a line of more words is a title, or text, on its own.
TITLE_RUN_LINES = 4
TITLE_RUN_WORDS = 3

# A primary statement is a table: STATEMENT_NUMBERS or more figures on the page. Two years of
# six line items already make twelve; the development statement pages hold 17 and more (nine in
# ten hold 35 or more), while pages that only name a statement (a title page before the
# statements, a note that refers to one) hold a few dates.
STATEMENT_NUMBERS = 12
# Characteristic line items (data/statement_lines.tsv) a page under a statement's title must
# hold: TITLED_FIT. The title already says what the page is; two line items tell a statement from
# a schedule that borrows its name. An untitled page continues the statement on the page before only with
# CONTINUED_FIT (or a "(continued)" at its top): with no title, more of the statement's own lines
# must be there, so a note's table that follows the statements is not taken for one.
TITLED_FIT = 2
CONTINUED_FIT = 3


@lru_cache(maxsize=1)
def _titles() -> list[tuple[str, re.Pattern]]:
    """(label, pattern) of data/sections.tsv's statement titles, tried on a squashed title."""
    return [(label, re.compile(pattern)) for kind, label, pattern in rows("sections.tsv", 3) if kind == "statement"]


# ---------------------------------------------------------------------------------------------
# Title lines

_QUALIFIERS = re.compile(
    r"\((?:continued|unaudited|audited|in [^)]*|dollars[^)]*|amounts[^)]*)\)"
    # the sign a title gives in brackets: "Statements of Income (Loss)", "Equity (Deficit)"
    r"|\((?:net )?(?:loss|losses|income|earnings|deficit|deficiency)\)"
    r"|\b(?:as of|as at|at|for the|years? ended|fiscal years? ended|quarters? ended|months ended)\b.*$"
    r"|[\s\d,.\-]+$",
    re.I,
)


# A statement that carries a second one in its title is read as the first: "Statements of
# Operations and Comprehensive Loss" (ASC 220-10-45-1A: net income and other comprehensive
# income in one continuous statement), "Statements of Income and Retained Earnings", "Statements
# of Shareholders' Equity and Comprehensive Income". Matched on the squashed title, at its end.
_COMBINED = re.compile(r"and(?:other)?comprehensive(?:income|loss|earnings)+$|andretainedearnings$")
_WITH_COMPREHENSIVE = re.compile(r"and(?:other)?comprehensive(?:income|loss|earnings)+$")


def combined_kind(title: str) -> str | None:
    """The second statement a combined title names: comprehensive_income for "Statements of
    Operations and Comprehensive Loss" (ASC 220-10-45-1A: one continuous statement) or
    "Shareholders' Equity and Comprehensive Income"; None for a title of one statement."""
    key = squash(_QUALIFIERS.sub(" ", title))
    return "comprehensive_income" if _WITH_COMPREHENSIVE.search(key) else None


@lru_cache(maxsize=8192)
def statement_title(line: str) -> str | None:
    """The primary statement a title line names: "Consolidated Balance Sheets", "NIKE, Inc.
    Consolidated Statements of Income", "Balance Shee t"; the title must end the line (after
    dates and qualifiers are dropped), so "Off-balance sheet arrangements" is none."""
    if not short(line, STATEMENT_TITLE_WORDS) or line[:1].islower():
        return None  # a title starts with a capital; "companies in the consolidated statements ..." is prose
    letters = squash(line)
    if "statement" not in letters and "balancesheet" not in letters:
        return None  # every title of data/sections.tsv holds one of these: skip the patterns
    lowered = line.lower()
    if "notes to" in lowered or "see accompanying" in lowered or "integral part" in lowered:
        return None
    if "consolidating" in lowered or "guarantor" in lowered or "parent company" in lowered:
        return None  # supplementary schedules, not the primary statements
    if line.rstrip().endswith(":") or not _named_lead(line):
        return None  # "Statements of Income:" over a table; "Amounts recognized in the Consolidated Balance Sheet"
    core = _QUALIFIERS.sub(" ", line).strip()
    for candidate in (core, *_without_company(core)):
        key = _COMBINED.sub("", squash(candidate))
        for label, pattern in _titles():
            match = pattern.search(key) if key else None
            if match and len(key) - match.end() <= TITLE_TAIL and match.start() <= TITLE_LEAD:
                return label
    return None


# Where a statement's name starts on its title line: what stands before it is the company's name
# ("NIKE, Inc.", "3M Company and Subsidiaries") or nothing. A name's words are capitalised and
# it does not end with a preposition or an article; a lead with a word in lower case ("Amounts
# recognized in the", "This data should be read in conjunction with our") or one ending in
# "in" ("Gains/(Losses) Recognized in") is a sentence or a caption that names the statement.
_NAME_START = re.compile(
    r"\b(?:consolidated|condensed|combined|interim|unaudited|statements?|balance|income|cash|comprehensive|earnings|operations)\b",
    re.I,
)


def _named_lead(line: str) -> bool:
    """What stands before the statement's name on a title line could be a company's name."""
    match = _NAME_START.search(line)
    words = line[: match.start()].split() if match else []
    small = title_words("small")
    if words and words[-1].lower().strip(",") in small:
        return False
    return all(w.lower() in small or not w[:1].isalpha() or w[:1].isupper() for w in words)


_COMPANY_END = re.compile(
    r"(?:inc|incorporated|corp|corporation|company|companies|subsidiaries|ltd|limited|plc|llc|"
    r"group|holdings|co|n\.?v|s\.?a|ag|se)\.?$",
    re.I,
)


def _without_company(line: str) -> list[str]:
    """The line cut before a trailing company name ("Consolidated Statements of Income Corning
    Incorporated and Subsidiary Companies"), at each word where such a name could start."""
    if not _COMPANY_END.search(line):
        return []
    words = line.split()
    cuts = range(len(words) - 1, COMPANY_CUT_WORDS - 1, -1)
    return [" ".join(words[:i]) for i in cuts if words[i][:1].isupper()]


def title_candidates(lines: list[str], top: int) -> list[tuple[int, str]]:
    """Lines at the top of a page, each with the short line after it, and runs of very short
    lines joined ("CONSOLIDATED" / "BALANCE" / "SHEETS" as some PDFs extract a title)."""
    found = [(i, lines[i]) for i in range(min(top, len(lines)))]
    # a title that wraps its last words onto a short line ("CONSOLIDATED STATEMENTS OF
    # COMPREHENSIVE" / "INCOME")
    found += [(i, f"{lines[i]} {lines[i + 1]}") for i in range(min(top, len(lines) - 1))
              if len(lines[i + 1].split()) <= TITLE_RUN_WORDS]
    for i in range(min(top, len(lines))):
        run = []
        for j in range(i, min(i + TITLE_RUN_LINES, len(lines))):
            if len(lines[j].split()) > TITLE_RUN_WORDS:
                break
            run.append(lines[j])
            if len(run) > 1:
                found.append((i, " ".join(run)))
    return found


# ---------------------------------------------------------------------------------------------
# Line items

@lru_cache(maxsize=1)
def _line_items() -> dict[str, tuple[str, ...]]:
    """Each primary statement's characteristic line items (data/statement_lines.tsv)."""
    table: dict[str, tuple[str, ...]] = {}
    for kind, item in rows("statement_lines.tsv", 2):
        table[kind] = table.get(kind, ()) + (item,)
    return table


def statement_fit(kind: str, key: str) -> int:
    """How many of a statement's characteristic line items the page's words hold."""
    return sum(1 for cue in _line_items()[kind] if cue in key)


# The condensed statements of the registrant alone (Reg S-X Rules 5-04 and 12-04, Schedule I;
# Rule 7-05, an insurer's Schedule II: "Condensed Financial Information of Registrant",
# "(Parent Company)", "Parent Company Only") are a supplementary schedule, not the primary
# statements, though their titles are the same: a page's top says so.
_SCHEDULE = re.compile(r"\bcondensed financial information of (?:the )?registrant\b|\bparent company(?: only)?\b|\bregistrant only\b")


def parent_only(top: str) -> bool:
    """A page's top (its words: text.words_key) says it holds the registrant's own condensed
    statements, a supplementary schedule."""
    return bool(_SCHEDULE.search(top))


def not_a_statement_page(key: str, top: str | None = None) -> bool:
    """The auditor's report names the statements without being them (``key``: the page's
    words); so does a page headed Selected Financial Data (``top``: the words of the page's top,
    the page's own when not given). A release's statement page that mentions its selected data
    further down is a statement all the same."""
    top = key if top is None else top
    return (
        "we have audited" in key
        or "report of independent registered" in key
        or "selected financial data" in top
        or "selected consolidated financial data" in top
    )
