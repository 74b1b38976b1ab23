"""Heading lines, one line at a time: an Item line, a note's heading, a subsection's title, and
the vocabulary (data/sections.tsv) that names what each is about.

Pure functions of a line (and the line after it). structure.py's walk decides which of them
start a section, where on the page and in what order; forms.py reads a form's Items with
``numbered_item_heading`` and ``capitalised``. The thresholds are named below, each with why it
has its value; the figures quoted were counted on the development filings.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ._data import rows
from .lines import ITEM_LINE_WORDS, ITEM_TITLE_WORDS, numbers as _numbers, rejoin, short as _short, title_words
from .text import words_key

# Line lengths of heading lines, in words. (The Item line, ITEM_LINE_WORDS in lines.py: 8-K
# Item 2.03's full title runs to 19 words and is not read as a heading by the plain reading;
# forms.py reads an 8-K's Items by its own numbering, with a longer line.)

# The note line ("Note 12 - Accumulated Other Comprehensive Income (Loss)"): note titles run to
# about ten words; a longer line that starts "Note 3" is a sentence ("Note 3 describes ...").
NOTE_LINE_WORDS = 14
# The title on the line after a bare "Note 9" line: a title, not the note's first sentence.
NOTE_TITLE_WORDS = 12
# A subsection's title line ("Income Taxes", "Off-Balance Sheet Arrangements", "Human Capital"):
# TITLE_CHARS long, at most TITLE_WORDS words, and at least TITLE_CAPITALISED of its content words
# capitalised. Shorter is a stray letter or a roman numeral; longer, or more words, is a table
# caption or a list's first line. Title Case passes with one lower-case word in four ("Disclosure
# about Market Risk"); sentence case, mostly the first line of a paragraph, does not.
TITLE_CHARS = (3, 80)
TITLE_WORDS = 9
TITLE_CAPITALISED = 0.75
# Running text, as opposed to a table row or a caption: PROSE_WORDS or more words with at most
# PROSE_NUMBERS numbers, or a sentence (a word and a full stop) with at most one number in
# PROSE_SHARE words ("As of December 2, 2016, we employed 15,706 people."). A one-word title line
# ("Backlog", "Seasonality", "EMPLOYEES") is a heading only when such text follows it; a
# one-word table caption is followed by rows of numbers.
PROSE_WORDS = 6
PROSE_NUMBERS = 2
PROSE_SHARE = 4


# ---------------------------------------------------------------------------------------------
# Vocabulary


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, list[tuple[str, re.Pattern]]]:
    table: dict[str, list[tuple[str, re.Pattern]]] = {"item": [], "statement": [], "topic": []}
    for kind, label, pattern in rows("sections.tsv", 3):
        table[kind].append((label, re.compile(pattern)))
    return table


@lru_cache(maxsize=8192)
def _first(kind: str, key: str) -> str | None:
    """The label of the first row of ``kind`` whose pattern is found in ``key``. Cached: a
    filing prints the same headings again (running heads, a statement's title on each of its
    pages), two lines of three that are tried are one tried before."""
    for label, pattern in vocabulary()[kind]:
        if pattern.search(key):
            return label
    return None


def topic_of(title: str) -> str | None:
    return _first("topic", words_key(title))


# ---------------------------------------------------------------------------------------------
# Heading lines

# The counts inside the patterns are shapes, not thresholds: Item numbers have one or two digits
# ("Item 7", "Item 15"), 8-K Items two more after a dot ("Item 2.02"), letters a to d after them
# ("Item 1A", "Item 9C"); notes are numbered to 99 or lettered; a bare numbered note title ("9.
# Income Taxes") is a capitalised run of 3 to 81 characters without sentence punctuation; page
# numbers are lines.py's.
_ITEM = re.compile(
    r"^(?:part\s+[ivx]+\s*[,.:\-]?\s*)?item\s*(\d{1,2}(?:\.\d{2})?\s*[a-d]?)\b[\s.:\-]*(.*)$", re.I
)
# A note is numbered ("Note 12", "NOTE12") or lettered with a space ("Note A"): "NOTES TO
# CONSOLIDATED FINANCIAL STATEMENTS" and "Notes payable" are no note "S".
_NOTE = re.compile(r"^note\s*(\d{1,2}|(?<=\s)[a-z])\b[\s.:\-]*(.*)$", re.I)
_CONTINUED = re.compile(r"\(\s*continued\s*\)\s*$", re.I)
_NUMBERED = re.compile(r"^(?:\((\d{1,2})\)|(\d{1,2})\s*[.\-:])\s*([A-Z][^.;:$%]{2,80})$")  # "9. Title", "(9) Title"
_NUMBER = re.compile(r"^(?:note\s*)?\(?(\d{1,2})\b", re.I)
_SENTENCE = re.compile(r"[a-z]\.(?:\s|$)")  # a full stop after a word


def _title_like(line: str) -> bool:
    """A short line that reads like a heading: capitalised words, no numbers, no sentence."""
    if not TITLE_CHARS[0] <= len(line) <= TITLE_CHARS[1] or not line[0].isupper():
        return False
    if line[-1] in ".,;" or "$" in line or "%" in line or any(map(str.isdigit, line)):
        return False
    words = line.split()
    if len(words) > TITLE_WORDS:
        return False
    if line.isupper():
        return True
    small = title_words("small")
    content = [w for w in words if w.lower() not in small]
    capitalised = [w for w in content if w[0].isupper()]
    return bool(content) and len(capitalised) >= TITLE_CAPITALISED * len(content)


def _prose(line: str) -> bool:
    """A line of running text (what follows a one-word heading such as "Backlog")."""
    words = line.split()
    if len(words) < PROSE_WORDS:
        return False
    numbers = _numbers(line)
    return numbers <= PROSE_NUMBERS or (numbers * PROSE_SHARE <= len(words) and bool(_SENTENCE.search(line)))


def item_heading(line: str, next_line: str = "") -> tuple[str, str] | None:
    """("risk_factors", "Item 1A. Risk Factors") for an Item line; None for anything else."""
    found = numbered_item_heading(line, next_line)
    return found[:2] if found else None


def numbered_item_heading(line: str, next_line: str = "") -> tuple[str, str, str] | None:
    """item_heading's reading with the Item's number as printed: ("risk_factors", "Item 1A.
    Risk Factors", "1A")."""
    match = _ITEM.match(line)
    if not match or not _short(line, ITEM_LINE_WORDS):
        return None
    title = match.group(2).strip()
    if not title and next_line and _short(next_line, ITEM_TITLE_WORDS):
        title = next_line
        line = f"{line} {next_line}"
    if not capitalised(title):
        return None  # "Item 1A of this report describes ...": a reference, not a heading
    title = re.sub(r"[\s.]*\d+$", "", title)  # a table of contents' page number
    label = _first("item", words_key(title))
    if label is None and rejoin(title) != title:  # "Item 1. Busines s.": extraction split a word
        label, line = _first("item", words_key(rejoin(title))), rejoin(line)
    if label is None:
        return None
    return label, re.sub(r"\s+", " ", line).strip(), match.group(1)


def capitalised(title: str) -> bool:
    """A title starts with a capital, after a bracket ("[Reserved]", "(Removed and Reserved)")."""
    return title.lstrip("[(\"'\u201c")[:1].isupper()


def note_heading(line: str, next_line: str = "", numbered: bool = False,
                 expected: int | None = None) -> tuple[str, str] | None:
    """("income_taxes", "Note 9 - Income Taxes") for a note heading; label "note" when the
    note's topic is not known. Bare numbered headings ("9. Income Taxes", "(9) Leases") only
    when ``numbered`` (inside the notes), and only when their topic is known or they carry
    the number the next note takes (``expected``: the notes run in order, while a list item
    inside a note is numbered from 1 again)."""
    match = _NOTE.match(line)
    if match and _short(line, NOTE_LINE_WORDS):
        title = match.group(2).strip()
        if title and not title[0].isalpha():
            return None
        if not title and next_line and _short(next_line, NOTE_TITLE_WORDS):
            title = next_line
            line = f"{line} {next_line}"
        if title and title[:1].islower():
            return None  # a sentence that starts "Note 3 describes ..."
        if _CONTINUED.search(title):
            return None  # "Note 9 - Income Taxes (Continued)": a running head, the note goes on
        return (topic_of(title) or "note"), line
    if numbered:
        match = _NUMBERED.match(line)
        if match and not _CONTINUED.search(line) and _title_like(match.group(3)):
            label = topic_of(match.group(3))
            if label or int(match.group(1) or match.group(2)) == expected:
                return label or "note", line
    return None


def note_number(heading: str) -> int | None:
    """The number of a note heading: "Note 9 - Income Taxes", "9. Leases", "(9) Leases" -> 9."""
    match = _NUMBER.match(heading)
    return int(match.group(1)) if match else None


def item_number(heading: str) -> str | None:
    """The number of an Item heading as printed, spaces dropped: "Item 1 A. Risk Factors" -> "1A"."""
    match = _ITEM.match(heading)
    return re.sub(r"\s+", "", match.group(1)).upper() if match else None
