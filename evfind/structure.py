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
(a statement's title and line items: statements.py; a page's lines and its top: lines.py; an
Item line, a note's heading and a subsection's title, one line at a time: headings.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from .headings import (  # noqa: F401 (the heading lines' readers: importable from here too)
    NOTE_LINE_WORDS, PROSE_NUMBERS, _NOTE, _ITEM, _prose, _title_like, capitalised, item_heading, item_number, note_heading,
    note_number, numbered_item_heading, topic_of, vocabulary,
)
from .labels import CONTENTS, DEFINITIONS
from .lines import ITEM_LINE_WORDS, TOP_LINES, boilerplate, first_content, lines as _lines, numbers as _numbers
from .lines import REFLOW_RUN, REFLOW_WORDS, runs_on, short as _short, top_end
from .statements import (  # noqa: F401 (STATEMENTS, PRIMARY, STATEMENT_TITLE_WORDS: importable from here too)
    CONTINUED_FIT, PRIMARY, STATEMENT_NUMBERS, STATEMENT_TITLE_WORDS, STATEMENTS, TITLED_FIT, combined_kind, not_a_statement_page, parent_only,
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

# A second statement on a statement page (a release's balance sheet under its income statement)
# has its title on a line of its own below the page's top and LOWER_FIT of its line items after
# it: it may run on to the next page after a few lines ("CONSOLIDATED BALANCE SHEETS" / "ASSETS" /
# "Cash and cash equivalents $ 12,493" at a page's foot), and on a statement page nothing else
# prints a statement's title alone on a line.
LOWER_FIT = 1

# Statement pages at most STATEMENT_RUN_GAP pages apart form one block (the statements are
# consecutive, but a page between may be unreadable or an untitled continuation not recognised).
# In the development filings 162 of the 180 gaps between consecutive statement pages are one or
# two pages; the others are five pages or more.
STATEMENT_RUN_GAP = 2

# A page header above an Item's heading: at most HEAD_LINES short lines that are neither running
# text nor a row of figures ("Item 5, 6", the Items the page holds, over "PART II" and the Item
# line; "Index to Financial Statements", a filer's link back). Any more, and the page holds the
# end of the Item before: it is carried onto the page.
HEAD_LINES = 2

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

    levels: dict[str, str] = field(default_factory=dict, compare=False, repr=False)  # label -> level of its heading
    # A statement page's: the note and subsection in force at its top, which a statement does
    # not carry on (it is a section of its own) unless it turns out to be no primary statement.
    behind: list[tuple[str, str]] = field(default_factory=list, compare=False, repr=False)

    def add(self, label: str, heading: str, origin: str, level: str = "") -> None:
        """One row a label: the first, except that a section the page starts (a heading on
        it) replaces the same label carried onto it (Note 2 "Summary of Significant
        Accounting Policies" starting below Note 1 "Description of Business", both
        accounting_policies), and an Item or a note replaces a subsection of the same label
        ("Contracts with Customers" above "NOTE 2. Revenue"): where a section starts is what
        `evfind info` and the Item look-ups read."""
        for index, existing in enumerate(self.sections):
            if existing[0] == label:
                starts = origin in ("title", "started")
                outranks = level in ("item", "note") and self.levels.get(label) == "topic"
                if starts and (existing[2] == "carried" or outranks):
                    self.sections[index] = (label, heading, origin)
                    self.levels[label] = level
                return
        self.sections.append((label, heading, origin))
        self.levels[label] = level


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
    next_note: int | None = None  # the number the next note takes (1 before the first)
    item: tuple[str, str] | None = None  # the Item in force: (label, heading)
    part: str | None = None  # the Part in force (forms that number their Items again in each Part)
    statement: str | None = None  # the statement the page before was: this page may continue it


@dataclass(frozen=True)
class PageKind:
    """What one page is, read from its own lines and the reader's Place."""

    toc: bool = False  # a table of contents (TOC_ITEMS or more Item lines)
    index: bool = False  # a table of contents or an index of the statements: names, starts nothing
    statement: str | None = None  # the primary statement the page is
    title: str | None = None  # that statement's title as printed here (None when untitled)
    also: tuple[tuple[str, str], ...] = ()  # (kind, title) of the statements it holds besides (``_also_on``)
    headings: tuple[Heading, ...] = ()  # in reading order; on an index page Items and statements only
    opening: Heading | None = None  # an Item, note or subsection heading on the page's first line of content
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
    """An index of the statements (or a TOC): INDEX_TITLES or more statement titles; or an
    index of the notes: TOC_FEW or more note lines, most of which end in a page number ("Note 9
    Income Taxes 59"), as a table of contents lists Items."""
    if sum(1 for line in lines if _statement_title(line)) >= INDEX_TITLES:
        return True
    notes = [line for line in lines if _NOTE.match(line) and _short(line, NOTE_LINE_WORDS)]
    numbered = sum(1 for line in notes if line.split()[-1].isdigit())
    return len(notes) >= TOC_FEW and 2 * numbered > len(notes)


# Sections at the level of an Item that carry no Item's number: "Information About Our Executive
# Officers", which Form 10-K General Instruction G(3) lets Part I hold under a caption of its own
# (after Item 4, as a rule: it ends Item 4, which is a line long), so only where no Item or one
# of Part I's is in force (in Part III it is Item 10's subject, in Item 15 an exhibit's title);
# and a certification (Reg S-K Item 601(b)(31), (32)) opening a page: nothing of the 10-K goes
# on onto it. (label: the Items in force where the heading is such a section; None: any.)
PART_I = ("business", "risk_factors", "unresolved_staff_comments", "cybersecurity", "properties",
          "legal_proceedings", "mine_safety", "shareholder_vote")  # Form 10-K Part I, Items 1 to 4
FORM_SECTIONS = {"executive_officers": PART_I, "certifications": None}
# A certification opens with the words Exchange Act Rules 13a-14(a) and 15d-14(a) prescribe (Reg
# S-K Item 601(b)(31)): "I, Jane Roe, certify that:", under a title ("CERTIFICATION") or none.
_CERTIFY = re.compile(r"^I,\s+[^,]{2,80},\s+(?:hereby\s+)?certify\b")
# G(3)'s caption names the executive officers as its subject ("Executive Officers of the
# Registrant", "Information About Our Executive Officers"); a title that names them in passing
# ("Loss of Key Executive Officers" in Item 1A, "Grants to Executive Officers") is a subsection.
# Some filers number it as an Item of their own ("ITEM X. INFORMATION ABOUT OUR EXECUTIVE
# OFFICERS", "Item 4A. Executive Officers of the Registrant"), a number the form does not have.
_OFFICERS_CAPTION = re.compile(
    r"^(?:item\s+[0-9a-z]{1,3}\s*[.:\-\u2013\u2014]\s*)?(?:information\s+(?:about|regarding|concerning)\s+)?"
    r"(?:our\s+|the\s+)?executive\s+officers\b", re.I)


def _form_section(label: str, line: str, at_top: bool, in_notes: bool, item: tuple[str, str] | None) -> bool:
    """A subsection heading that is a section of the form's own level (``FORM_SECTIONS``)."""
    if label not in FORM_SECTIONS or in_notes or (label == "certifications" and not at_top):
        return False
    if label == "executive_officers" and not _OFFICERS_CAPTION.match(line):
        return False
    allowed = FORM_SECTIONS[label]
    return item is None or allowed is None or item[0] in allowed


def find_headings(
    lines: list[str], in_notes: bool, form: Form = ANY_FORM, part: str | None = None,
    next_note: int | None = None, item: tuple[str, str] | None = None,
) -> list[Heading]:
    """Item, note, statement and topic headings on one page, in reading order (``part``: the
    Part in force at the page's top, moved on by the Part lines of the page; ``next_note``:
    the number the next note takes, moved on by the notes of the page; ``item``: the Item in
    force, (label, heading), whose heading printed again is a running head, not a start)."""
    found: list[Heading] = []
    top = top_end(lines)
    skip = -1
    for index, line in enumerate(lines):
        if index <= skip:
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        part = form.part(line) or part
        # "... See" / "Part II - Item 3. Legal Proceedings for a discussion ...": a sentence
        sentence = index > 0 and runs_on(lines[index - 1])
        hit = None if sentence else form.item(line, following, part)
        if hit:
            skip = index + (1 if hit[1] != line else 0)
            if item is not None and hit[0] == item[0] and item_number(hit[1]) == item_number(item[1]):
                continue  # "PART II Item 8" above every page of Item 8: it goes on
            found.append(Heading("item", hit[0], hit[1], index))
            item = hit
            in_notes = hit[0] == "financial_statements"  # as Carry._move: another Item ends the notes
            next_note = 1 if in_notes else None
            continue
        hit = None if sentence else note_heading(line, following, numbered=in_notes, expected=next_note)
        if hit:
            found.append(Heading("note", hit[0], hit[1], index))
            skip = index + (1 if hit[1] != line else 0)
            number = note_number(hit[1])
            next_note = number + 1 if number is not None else next_note
            continue
        if index < top and _statement_title(line):
            continue  # a statement's title: found below
        title_like = _title_like(line)
        certify = index < top and bool(_CERTIFY.match(following if title_like else line))
        if certify or (title_like and (" " in line or _prose(following))):
            label = "certifications" if certify else topic_of(line)
            if label and _form_section(label, line, index < top, in_notes, item):
                if item is None or label != item[0]:  # its heading printed again goes on with it
                    found.append(Heading("item", label, line, index))
                    item, in_notes, next_note = (label, line), False, None
            elif label:
                found.append(Heading("topic", label, line, index))
    seen = set()
    for index, candidate in _title_candidates(lines, top):
        if index and runs_on(lines[index - 1]):
            continue  # "... recorded currently in" / "Statements of Earnings.": a sentence
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
    key, top_key = words_key(page_text), words_key("\n".join(lines[: top_end(lines)]))
    if not_a_statement_page(key, top_key) or _numbers(page_text) < STATEMENT_NUMBERS:
        return None
    if parent_only(top_key):
        return None  # Schedule I: the registrant's own condensed statements
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


_KEYWORD = re.compile(r"^(?:part|item|note)\b", re.I)
_NUMBERING = re.compile(r"^(?:part|item|note|[ivx]+|\(?\d{1,2}(?:\.\d{2})?[a-d]?\)?\.?|[\-\u2013\u2014:.])$", re.I)


def _join_headings(lines: list[str], form: Form) -> list[str]:
    """The lines with a heading that the PDF's text layer gave one word a line ("PART" / "I" /
    "Item" / "1." / "BUSINESS"; "NOTE" / "2" / "-" / "FAIR" / "VALUE" ...) joined into one: a
    run of REFLOW_RUN or more lines of at most REFLOW_WORDS words, starting with "Part", "Item"
    or "Note", is joined while it reads as a Part, Item or note heading; it ends where an
    all-capitals title meets a word in lower case ("BUSINESS" / "Our" / "Business")."""
    result: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        end = index
        if _KEYWORD.match(line) and len(line.split()) <= REFLOW_WORDS:
            title = []  # the lines of the title, after the keywords and numbers
            while end + 1 < len(lines) and len(lines[end + 1].split()) <= REFLOW_WORDS and end - index < ITEM_LINE_WORDS:
                if title and _shouted(title) and not _shouted([lines[end + 1]]):
                    break
                end += 1
                if title or not _NUMBERING.match(lines[end]):
                    title.append(lines[end])
        joined = " ".join(lines[index : end + 1])
        if end - index + 1 >= REFLOW_RUN and (form.item(joined, "", None) or note_heading(joined) or form.part(joined)):
            result.append(joined)
            index = end + 1
            continue
        result.append(line)
        index += 1
    return result


def _shouted(lines: list[str]) -> bool:
    """Lines whose words in letters are all capitals ("FAIR", "VALUE"), and some are."""
    words = [w for line in lines for w in line.split() if any(c.isalpha() for c in w)]
    return bool(words) and all(w.isupper() for w in words)


# Forms whose statements open a page of their own, under Item 8 (Form 10-K) or Part I Item 1
# (Form 10-Q); a press release prints its statements after its text, on the page it ends.
ITEM_FORMS = ("10-K", "10-Q")


def _statement_below(lines: list[str]) -> tuple[str, str] | None:
    """(kind, title) of a statement that begins below a page's top, where the statements have
    not begun: its title alone on a line, over STATEMENT_NUMBERS figures and TITLED_FIT of its
    line items (a release's income statement after the release's last paragraph)."""
    for index in range(top_end(lines), len(lines)):
        kind = _statement_title(lines[index])
        if not kind or runs_on(lines[index - 1]):
            continue
        below = "\n".join(lines[index + 1 :])
        key = words_key(below)
        if _numbers(below) >= STATEMENT_NUMBERS and statement_fit(kind, key) >= TITLED_FIT and not not_a_statement_page(key):
            return kind, lines[index]
    return None


def _opening(lines: list[str], headings: list[Heading]) -> Heading | None:
    """The Item, note or subsection heading that opens the page, before any of the text of the
    section in force: on its first line of content, or an Item's below at most HEAD_LINES
    short lines of a page header ("Item 5, 6" over "PART II / ITEM 5. MARKET FOR ...", a link
    back to an index), which hold no running text and no row of figures."""
    first = first_content(lines)
    for heading in headings:
        if heading.level not in _DEPTH:
            continue
        if heading.line <= first:
            return heading
        above = [line for line in lines[first : heading.line] if not boilerplate(line)]
        if heading.level == "item" and len(above) <= HEAD_LINES and not any(
            _prose(line) or _numbers(line) > PROSE_NUMBERS for line in above
        ):
            return heading
        return None
    return None


def _also_on(lines: list[str], statement: str, title: str | None) -> tuple[tuple[str, str], ...]:
    """(kind, title) of the statements a statement page holds besides its own: the second one
    a combined title names ("Statements of Operations and Comprehensive Loss"), and one whose
    title stands on a line of its own below the page's top, over line items and figures that
    fit it (a release prints its balance sheet under its income statement)."""
    found = []
    second = combined_kind(title) if title else None
    if second and second != statement:
        found.append((second, title))
    for index in range(top_end(lines), len(lines)):
        kind = _statement_title(lines[index])
        if not kind or kind == statement or any(kind == k for k, _ in found) or runs_on(lines[index - 1]):
            continue
        if statement_fit(kind, words_key("\n".join(lines[index + 1 :]))) >= LOWER_FIT:
            found.append((kind, lines[index]))
    return tuple(found)


def classify_page(lines: list[str], place: Place = Place(), form: Form = ANY_FORM) -> PageKind:
    """What one page is: a table of contents or an index, its headings, the statement it is
    and the sections it names. A pure function of the page's non-blank, stripped lines (as
    ``_lines`` gives them) and the reader's place."""
    lines = _join_headings(lines, form)
    toc = _is_toc(lines, form)
    index = toc or _is_index(lines)
    headings = [] if toc else find_headings(lines, place.in_notes, form, place.part, place.next_note, place.item)
    if index:
        headings = [h for h in headings if h.level in ("item", "statement")]
    text = "\n".join(lines)
    statement = _statement_on(text, lines, headings, place.statement, index)
    title = next((h.text for h in headings if h.level == "statement" and h.label == statement), None)
    if statement is None and not index and not place.in_notes and form.name not in ITEM_FORMS:
        statement, title = _statement_below(lines) or (None, None)
    also = _also_on(lines, statement, title) if statement else ()
    opening = _opening(lines, headings)
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
        also=also,
        headings=tuple(headings),
        opening=opening,
        sections=tuple(sections),
        notes_follow="notes to" in lowered and "financial statements" in lowered,
        part=next((part for part in map(form.part, reversed(lines)) if part), place.part),
        definitions=not index and _is_definitions(lines),
    )


# ---------------------------------------------------------------------------------------------
# The walk: what the pages before leave in force


_DEPTH = {"item": 0, "note": 1, "topic": 2}  # how deep a heading's section sits: an Item holds notes, a note subsections


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
    note_number: int | None = None  # the number of the last numbered note

    def place(self) -> Place:
        next_note = None if not self.in_notes else (self.note_number or 0) + 1
        return Place(in_notes=self.in_notes, statement=self.statement, part=self.part, next_note=next_note,
                     item=self.item)

    def read(self, kind: PageKind, page_index: int) -> PageStructure:
        """The page's structure, from what it is and what is in force at its top; then its
        headings move the reader on."""
        if self.topic is not None and page_index - self.topic[2] > TITLE_CARRY:
            self.topic = None
        statement = self.statement = kind.statement
        if kind.also and kind.also[-1][1] != kind.title:
            self.statement = kind.also[-1][0]  # the statement below ends the page: the next may continue it
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
            page.behind = [level[:2] for level in (self.note, self.topic) if level is not None]
        continued = [(label, h) for label, h, origin in page.sections if origin == "carried"]  # before a start replaces one
        if statement:
            page.add(statement, title or statement, "statement")
            for also, also_title in kind.also:
                page.add(also, also_title, "statement")
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
            page.add(heading.label, heading.text, origin, heading.level)
            if heading.level == "statement":
                continue
            seen.append(heading.text)
            self._move(heading, page_index)
            if page.section is None or heading is kind.opening:
                page.section, page.section_heading = self._innermost() or (None, None)
        if kind.notes_follow:
            self.in_notes = True
        page.heading = " | ".join(dict.fromkeys(seen))
        page.context = " | ".join(dict.fromkeys(h for label, h in continued if label not in _NO_CONTEXT))
        return page

    def _inherit(self, page: PageStructure, opening: Heading | None, statement: str | None) -> None:
        """What the page inherits from the pages before it, unless a heading on its first line
        starts a new Item, note or subsection before any of the old one's text: an Item ends
        all three, a note the note and the subsection, a subsection ("Business Highlights"
        opening a release's page) the subsection. A statement page is a section of its own: it
        inherits only the Item."""
        for level, carried in (("item", self.item), ("note", self.note), ("topic", self.topic)):
            if carried is None or (statement and level != "item"):
                continue
            if opening is not None and _DEPTH[level] >= _DEPTH[opening.level]:
                continue
            page.add(carried[0], carried[1], "carried")

    def _move(self, heading: Heading, page_index: int) -> None:
        if heading.level == "item":
            self.item, self.note, self.topic = (heading.label, heading.text), None, None
            # Item 8 (a 10-Q's Part I Item 1) holds the notes; any other Item ends them
            # (Item 9 after a 10-K's notes, Item 2 after a 10-Q's), and with them the reading
            # of bare numbered lines ("1. Financial Statements" in Item 15) as notes.
            self.in_notes = heading.label == "financial_statements"
            self.note_number = None
        elif heading.level == "note":
            self.note, self.topic = (heading.label, heading.text), None
            self.note_number = note_number(heading.text) or self.note_number
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

    def kinds(run: list[int]) -> set[str]:
        return {label for i in run for label, _, origin in pages[i].sections if origin == "statement" and label in STATEMENTS}

    def weight(run: list[int]) -> tuple[int, int]:
        return len(kinds(run) & set(PRIMARY)), -run[0]

    best = max(runs, key=weight)  # most kinds of primary statement; then the first such block
    for index in best:
        pages[index].add("primary_statements", pages[index].section_heading or "", "statement")
    # A second, partial copy of statements the main block holds (a note's restated balance
    # sheet, a parent-company schedule, a guarantee group's statements) is no primary statement:
    # it names them (origin "title"). A full second set (a combined filing's other registrant)
    # stays.
    main = kinds(best)
    for run in runs:
        if run is not best and kinds(run) <= main and len(kinds(run)) < len(main):
            for index in run:
                _demote(pages[index])


def _demote(page: PageStructure) -> None:
    """A page read as a statement that is not one of the primary statements: its statement's
    title is a title on it, and its section the one carried onto it."""
    page.statement = None
    rows = [(label, heading, "title" if origin == "statement" else origin) for label, heading, origin in page.sections]
    page.sections = []
    for label, heading, origin in [*[s for s in rows if s[2] == "carried"], *((*b, "carried") for b in page.behind), *rows]:
        page.add(label, heading, origin)
    carried = [s for s in page.sections if s[2] == "carried"]
    page.section, page.section_heading = carried[-1][:2] if carried else (None, None)
