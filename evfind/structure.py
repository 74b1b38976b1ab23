"""Document structure, computed once at ingest: headings, sections carried forward, statements.

Pure functions over page texts (normalised, one string per physical page). Nothing here knows
SQLite or questions. ``analyse`` walks the pages in order, the way a reader does:

- a **heading** is an ``Item N.`` line, a ``Note N`` line, a primary statement's title at the
  top of a page, or a short title-like line whose words name a known topic (data/sections.tsv);
- the **section** of a page is the Item and the note or subsection in force at its top, carried
  forward from the last heading seen (a note runs until the next note; a subsection found only
  by its title line runs for at most ``TITLE_CARRY`` more pages);
- a page is a **primary statement** when a statement title sits in the short lines at its top
  and its line items fit that statement; tables of contents, indexes and the auditor's report,
  which merely name the statements, are not statements.

The walk has two parts. ``classify_page`` is a pure function of one page's lines and a
read-only ``Place`` (are the notes under way, what statement was the page before): it says what
the page is (a table of contents or index, its headings, the statement it is, the sections it
names). ``Carry`` holds what the pages before leave in force (the Item, note and subsection, the
last statement and its title) and turns each page's ``PageKind`` into its ``PageStructure``.
The classifier takes a ``Form``, where a form-specific reading (10-Q Parts, 8-K Items,
exhibits) plugs in. The thresholds both use are named below, each with why it has its value
(a statement's title and line items: statements.py; a page's lines and its top: lines.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import lru_cache

from ._data import rows
from .labels import CONTENTS, DEFINITIONS
from .lines import ITEM_LINE_WORDS, ITEM_TITLE_WORDS, TOP_LINES, first_content, lines as _lines, numbers as _numbers
from .lines import short as _short, title_words, top_end
from .statements import (  # noqa: F401 (STATEMENTS, PRIMARY, STATEMENT_TITLE_WORDS: importable from here too)
    CONTINUED_FIT, PRIMARY, STATEMENT_NUMBERS, STATEMENT_TITLE_WORDS, STATEMENTS, TITLED_FIT, not_a_statement_page,
    statement_fit, statement_title as _statement_title, title_candidates as _title_candidates,
)
from .text import words_key

# ---------------------------------------------------------------------------------------------
# Thresholds. Each says what it guards against and what a filing looks like on either side of
# it; the figures quoted were counted on the development filings (50 10-Ks, 10-Qs, 8-Ks and
# earnings releases).

# Where a page's top ends (TOP_LINES), and the Item line's length (ITEM_LINE_WORDS,
# ITEM_TITLE_WORDS): evfind/lines.py, which forms.py reads them from too.
# Pages a subsection found only by its title line ("Liquidity and Capital Resources") is carried
# forward. Nothing marks where such a subsection ends (the next title may name no known topic):
# carried further, its label would spill onto the pages of whatever follows it.
TITLE_CARRY = 2

# A table of contents names the Items without starting them: it lists TOC_ITEMS or more Item
# lines (a 10-K lists twenty or so, a 10-Q ten), or at least TOC_FEW of them most of which end
# in a page number. Body pages that gather the short Items (1B to 4, or Part III's 10 to 14
# incorporated by reference) hold four to seven, each followed by its text and none ending in a
# page number: they start those Items. (On the development filings every page with eight or
# more Item lines is a table of contents and every page with four to seven is a body page.)
TOC_ITEMS = 8
TOC_FEW = 4
# A page of definitions: DEFINITION_LINES or more lines that define a term ('"Affiliate" means
# ...', 'Term: ...' in a credit agreement or an indenture), or GLOSSARY_LINES or more lines that
# spell out an abbreviation ("AOCI Accumulated other comprehensive income") under a Glossary,
# Definitions or Abbreviations heading. Such pages repeat the words of every question about
# the document and hold no disclosure: the ranking reads them as the definitions they are.
DEFINITION_LINES = 3
GLOSSARY_LINES = 6
# A page with INDEX_TITLES or more statement titles is an index of the statements (or the page
# of a table of contents that lists them). A statement page names one statement, two at most
# (income and comprehensive income on one page); an index names four to six.
INDEX_TITLES = 3

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

# Statement pages at most STATEMENT_RUN_GAP pages apart form one block (the statements are
# consecutive, but a page between may be unreadable or an untitled continuation not recognised).
# In the development filings 162 of the 180 gaps between consecutive statement pages are one or
# two pages; the others are five pages or more.
STATEMENT_RUN_GAP = 2

# Carried sections whose heading says nothing about a page's topic ("Financial Statements and
# Supplementary Data" runs over every note): not indexed as the page's context.
# CONTENTS labels a page that lists titles with their page numbers (a table of contents, an
# index to the statements): read from the page's shape (``_is_toc``, ``_is_index``), not a heading.
_NO_CONTEXT = {"financial_statements", CONTENTS}


@dataclass(frozen=True)
class Heading:
    """A heading line seen on a page."""

    level: str  # item | note | topic | statement
    label: str  # a label of data/sections.tsv, or "note" for a note of unknown topic
    text: str  # the heading as printed
    line: int  # index of the line on the page


@dataclass
class PageStructure:
    """What ingest stores about one page's place in the document."""

    heading: str = ""  # headings seen on the page, " | "-joined (indexed, weighted above text)
    context: str = ""  # headings of the sections the page continues (indexed, weighted)
    section: str | None = None  # innermost section at the top of the page
    section_heading: str | None = None
    statement: str | None = None
    toc: bool = False
    sections: list[tuple[str, str, str]] = field(default_factory=list)  # (label, heading, origin)

    def add(self, label: str, heading: str, origin: str) -> None:
        if all(existing[0] != label for existing in self.sections):
            self.sections.append((label, heading, origin))


# ---------------------------------------------------------------------------------------------
# Vocabulary


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, list[tuple[str, re.Pattern]]]:
    table: dict[str, list[tuple[str, re.Pattern]]] = {"item": [], "statement": [], "topic": []}
    for kind, label, pattern in rows("sections.tsv", 3):
        table[kind].append((label, re.compile(pattern)))
    return table


def _first(kind: str, key: str) -> str | None:
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
_NOTE = re.compile(r"^note\s*(\d{1,2}|[a-z])\b[\s.:\-]*(.*)$", re.I)
_NUMBERED = re.compile(r"^(\d{1,2})\s*[.\-:]\s*([A-Z][^.;:$%]{2,80})$")
_SENTENCE = re.compile(r"[a-z]\.(?:\s|$)")  # a full stop after a word


def _title_like(line: str) -> bool:
    """A short line that reads like a heading: capitalised words, no numbers, no sentence."""
    if not TITLE_CHARS[0] <= len(line) <= TITLE_CHARS[1] or not line[0].isupper():
        return False
    if line[-1] in ".,;" or any(ch.isdigit() for ch in line) or "$" in line or "%" in line:
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
    if not title[:1].isupper():
        return None  # "Item 1A of this report describes ...": a reference, not a heading
    title = re.sub(r"[\s.]*\d+$", "", title)  # a table of contents' page number
    label = _first("item", words_key(title))
    if label is None:
        return None
    return label, re.sub(r"\s+", " ", line).strip(), match.group(1)


def note_heading(line: str, next_line: str = "", numbered: bool = False) -> tuple[str, str] | None:
    """("income_taxes", "Note 9 - Income Taxes") for a note heading; label "note" when the
    note's topic is not known. Bare numbered headings ("9. Income Taxes") only when
    ``numbered`` (inside the notes) and their topic is known."""
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
        return (topic_of(title) or "note"), line
    if numbered:
        match = _NUMBERED.match(line)
        if match and _title_like(match.group(2)):
            label = topic_of(match.group(2))
            if label:
                return label, line
    return None


# ---------------------------------------------------------------------------------------------
# One page: what it is, from its own lines and the reader's place


def _no_part(line: str) -> str | None:
    return None


@dataclass(frozen=True)
class Form:
    """How one kind of filing is read: what its Item headings look like, and the Parts that
    number its Items again.

    ``ANY_FORM`` reads the Items of a 10-K by their titles (and 8-K Items such as "Item 2.02"
    by the same pattern); it knows no Parts. A form-specific reading (evfind.forms: 10-Q Part I
    and II Items, 8-K Items 1.01 to 9.01) is a Form of its own, passed to ``analyse``: its
    ``part`` reads "PART II" lines, and the Part in force is carried from page to page
    (``Place``, ``Carry``) and handed to its ``item``.
    """

    name: str
    item: Callable[[str, str, str | None], tuple[str, str] | None]  # (line, next line, Part) -> (label, heading)
    part: Callable[[str], str | None] = _no_part  # the Part a line starts: "PART II" -> "II"
    contents: bool = True  # has a table of contents of Item lines (an 8-K has none)


ANY_FORM = Form("any", lambda line, following, part: item_heading(line, following))


@dataclass(frozen=True)
class Place:
    """What the page classifier may know of the pages before it (a read-only view of Carry)."""

    in_notes: bool = False  # the notes have begun: bare "9. Income Taxes" lines are note headings
    part: str | None = None  # the Part in force (forms that number their Items again in each Part)
    statement: str | None = None  # the statement the page before was: this page may continue it


@dataclass(frozen=True)
class PageKind:
    """What one page is, read from its own lines and the reader's Place."""

    toc: bool = False  # a table of contents (TOC_ITEMS or more Item lines)
    index: bool = False  # a table of contents or an index of the statements: names, starts nothing
    statement: str | None = None  # the primary statement the page is
    title: str | None = None  # that statement's title as printed here (None when untitled)
    headings: tuple[Heading, ...] = ()  # in reading order; on an index page Items and statements only
    opening: Heading | None = None  # an Item or note heading on the page's first line of content
    # The sections the page names, in reading order, as (heading, origin): the Items, notes and
    # subsections it starts ("title" at the top of the page, "started" below), and a statement's
    # title on a page that is not that statement ("title" only: kept for the plain method's
    # first-lines routing; it starts nothing).
    sections: tuple[tuple[Heading, str], ...] = ()
    notes_follow: bool = False  # the page names the notes to the financial statements
    part: str | None = None  # the Part in force at the page's end
    definitions: bool = False  # a page of defined terms or a glossary


def _is_toc(lines: list[str], form: Form = ANY_FORM) -> bool:
    """A table of contents (in a form that has one): TOC_ITEMS or more Item lines, or TOC_FEW or
    more most of which end in a page number."""
    if not form.contents:
        return False
    items = [line for line in lines if form.item(line, "", None)]
    numbered = sum(1 for line in items if line.split()[-1].isdigit())
    return len(items) >= TOC_ITEMS or (len(items) >= TOC_FEW and 2 * numbered > len(items))


_DEFINES = re.compile(
    r"^[\"\u201c]?[A-Z][\w ,.&'()/-]{1,80}[\"\u201d]? (?:means|shall mean|has the meaning|shall have the meaning)\b"
)
_GLOSSARY_TITLE = re.compile(r"^(?:glossary(?: of [a-z ]+)?|definitions|defined terms|abbreviations(?: and acronyms)?|acronyms)$", re.I)
_ABBREVIATION = re.compile(r"^[A-Z][A-Z0-9&./-]{1,11}s? [A-Z(]")


def _is_definitions(lines: list[str]) -> bool:
    """A page of definitions (DEFINITION_LINES lines defining a term) or of a glossary
    (a Glossary heading and GLOSSARY_LINES abbreviations spelled out)."""
    if sum(1 for line in lines if _DEFINES.match(line)) >= DEFINITION_LINES:
        return True
    top = lines[: TOP_LINES]
    return any(_GLOSSARY_TITLE.match(line) for line in top) and sum(
        1 for line in lines if _ABBREVIATION.match(line)
    ) >= GLOSSARY_LINES


def _is_index(lines: list[str]) -> bool:
    """An index of the statements (or a TOC): INDEX_TITLES or more statement titles."""
    return sum(1 for line in lines if _statement_title(line)) >= INDEX_TITLES


def find_headings(
    lines: list[str], in_notes: bool, form: Form = ANY_FORM, part: str | None = None
) -> list[Heading]:
    """Item, note, statement and topic headings on one page, in reading order (``part``: the
    Part in force at the page's top, moved on by the Part lines of the page)."""
    found: list[Heading] = []
    top = top_end(lines)
    skip = -1
    for index, line in enumerate(lines):
        if index <= skip:
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        part = form.part(line) or part
        hit = form.item(line, following, part)
        if hit:
            found.append(Heading("item", hit[0], hit[1], index))
            skip = index + (1 if hit[1] != line else 0)
            continue
        hit = note_heading(line, following, numbered=in_notes)
        if hit:
            found.append(Heading("note", hit[0], hit[1], index))
            skip = index + (1 if hit[1] != line else 0)
            continue
        if index < top and _statement_title(line):
            continue  # a statement's title: found below
        if _title_like(line) and (" " in line or _prose(following)):
            label = topic_of(line)
            if label:
                found.append(Heading("topic", label, line, index))
    seen = set()
    for index, candidate in _title_candidates(lines, top):
        kind = _statement_title(candidate)
        if kind and kind not in seen:
            seen.add(kind)
            found.append(Heading("statement", kind, candidate, index))
    found.sort(key=lambda h: h.line)
    return found


def _statement_on(page_text: str, lines: list[str], headings: list[Heading],
                  previous: str | None, index_page: bool) -> str | None:
    """The primary statement a page is: its title at the top and line items that fit, or the
    second page of the statement on the page before."""
    if index_page or (previous is None and not any(h.level == "statement" for h in headings)):
        return None  # most pages: no title and no statement before them
    key = words_key(page_text)
    if not_a_statement_page(key) or _numbers(page_text) < STATEMENT_NUMBERS:
        return None
    for heading in headings:
        if heading.level == "statement" and statement_fit(heading.label, key) >= TITLED_FIT:
            return heading.label
    if previous is None:
        return None
    top = top_end(lines)
    if any(h.level in ("item", "note", "statement") and h.line < top for h in headings):
        return None
    if "continued" in " ".join(lines[:top]).lower() or statement_fit(previous, key) >= CONTINUED_FIT:
        return previous
    return None


def classify_page(lines: list[str], place: Place = Place(), form: Form = ANY_FORM) -> PageKind:
    """What one page is: a table of contents or an index, its headings, the statement it is
    and the sections it names. A pure function of the page's non-blank, stripped lines (as
    ``_lines`` gives them) and the reader's place."""
    toc = _is_toc(lines, form)
    index = toc or _is_index(lines)
    headings = [] if toc else find_headings(lines, place.in_notes, form, place.part)
    if index:
        headings = [h for h in headings if h.level in ("item", "statement")]
    text = "\n".join(lines)
    statement = _statement_on(text, lines, headings, place.statement, index)
    title = next((h.text for h in headings if h.level == "statement" and h.label == statement), None)
    first = first_content(lines)
    opening = next((h for h in headings if h.level in ("item", "note") and h.line <= first), None)
    top = top_end(lines)
    sections = []
    for heading in headings:
        if heading.level == "statement":
            if heading.label != statement:
                sections.append((heading, "title"))  # the audit opinion's, a contents line's
        elif not (statement and heading.level == "topic"):  # not a statement's captions
            sections.append((heading, "title" if heading.line < top else "started"))
    lowered = text.lower()
    return PageKind(
        toc=toc,
        index=index,
        statement=statement,
        title=title,
        headings=tuple(headings),
        opening=opening,
        sections=tuple(sections),
        notes_follow="notes to" in lowered and "financial statements" in lowered,
        part=next((part for part in map(form.part, reversed(lines)) if part), place.part),
        definitions=not index and _is_definitions(lines),
    )


# ---------------------------------------------------------------------------------------------
# The walk: what the pages before leave in force


@dataclass
class Carry:
    """Where the reader is between pages: the Item, the note and the subsection in force,
    whether the notes have begun, and the statement of the page before (with its title)."""

    item: tuple[str, str] | None = None  # (label, heading)
    note: tuple[str, str] | None = None  # a statement page does not end it
    topic: tuple[str, str, int] | None = None  # (label, heading, page index where it started)
    in_notes: bool = False
    statement: str | None = None  # the statement the page before was
    title: str | None = None  # the title of the last statement page
    part: str | None = None  # the Part in force (forms that number their Items again in each Part)

    def place(self) -> Place:
        return Place(in_notes=self.in_notes, statement=self.statement, part=self.part)

    def read(self, kind: PageKind, page_index: int) -> PageStructure:
        """The page's structure, from what it is and what is in force at its top; then its
        headings move the reader on."""
        if self.topic is not None and page_index - self.topic[2] > TITLE_CARRY:
            self.topic = None
        statement = self.statement = kind.statement
        self.part = kind.part
        title = kind.title
        if statement:
            self.in_notes = True
            title = self.title = title or self.title
        page = PageStructure(statement=statement, toc=kind.toc)
        if kind.index:
            page.add(CONTENTS, "Table of contents", "title")
        if kind.definitions:
            page.add(DEFINITIONS, "Definitions", "title")
        self._inherit(page, kind.opening, statement)
        if statement:
            page.add(statement, title or statement, "statement")
            page.section, page.section_heading = statement, title
        else:
            # The section of the page is the one in force at its first line: the innermost
            # carried, the Item only when nothing narrower is.
            carried = [s for s in page.sections if s[2] == "carried"]
            narrower = [s for s in carried if s[0] != (self.item or ("",))[0]]
            if carried:
                page.section, page.section_heading = (narrower or carried)[-1][:2]
        seen = [title] if statement and title else []
        for heading, origin in kind.sections:
            page.add(heading.label, heading.text, origin)
            if heading.level == "statement":
                continue
            seen.append(heading.text)
            self._move(heading, page_index)
            if page.section is None or heading is kind.opening:
                page.section, page.section_heading = self._innermost() or (None, None)
        if kind.notes_follow:
            self.in_notes = True
        page.heading = " | ".join(dict.fromkeys(seen))
        page.context = " | ".join(
            dict.fromkeys(h for label, h, origin in page.sections if origin == "carried" and label not in _NO_CONTEXT)
        )
        return page

    def _inherit(self, page: PageStructure, opening: Heading | None, statement: str | None) -> None:
        """What the page inherits from the pages before it, unless a heading on its first line
        starts a new Item (or note) before any of the old one's text. A statement page is a
        section of its own: it inherits only the Item."""
        for level, carried in (("item", self.item), ("note", self.note), ("topic", self.topic)):
            if carried is None or (statement and level != "item"):
                continue
            if opening is not None and (opening.level == "item" or level != "item"):
                continue
            page.add(carried[0], carried[1], "carried")

    def _move(self, heading: Heading, page_index: int) -> None:
        if heading.level == "item":
            self.item, self.note, self.topic = (heading.label, heading.text), None, None
            if heading.label == "financial_statements":
                self.in_notes = True
        elif heading.level == "note":
            self.note, self.topic = (heading.label, heading.text), None
        elif heading.level == "topic":
            self.topic = (heading.label, heading.text, page_index)

    def _innermost(self) -> tuple[str, str] | None:
        levels = [level[:2] for level in (self.item, self.note, self.topic) if level is not None]
        return levels[-1] if levels else None


def analyse(texts: list[str], form: Form = ANY_FORM, starts: Collection[int] = ()) -> list[PageStructure]:
    """The structure of every page of one document, in page order: each page classified on its
    own lines and the reader's place, then read against what the pages before left in force.
    ``starts``: the indexes of pages where a document of its own begins (an exhibit attached to
    the filing), across which nothing is carried."""
    carry = Carry()
    pages = []
    for page_index, text in enumerate(texts):
        if page_index in starts:
            carry = Carry()
        kind = classify_page(_lines(text), carry.place(), form)
        pages.append(carry.read(kind, page_index))
    _mark_primary_block(pages)
    return pages


def _mark_primary_block(pages: list[PageStructure]) -> None:
    """Where a filing has several copies of the statements, the main consecutive block (the one
    with the most kinds of primary statement, then the first) is labelled primary_statements."""
    runs: list[list[int]] = []
    for index, page in enumerate(pages):
        if page.statement is None:
            continue
        if runs and index - runs[-1][-1] <= STATEMENT_RUN_GAP:
            runs[-1].append(index)
        else:
            runs.append([index])
    if not runs:
        return

    def weight(run: list[int]) -> tuple[int, int]:
        kinds = {pages[i].statement for i in run if pages[i].statement in PRIMARY}
        return len(kinds), -run[0]

    best = max(runs, key=weight)  # most kinds of primary statement; then the first such block
    for index in best:
        pages[index].add("primary_statements", pages[index].section_heading or "", "statement")
