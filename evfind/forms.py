"""The form of a filing and its parts, read from page texts: computed once at ingest.

Pure functions over page texts (normalised, one string per physical page, in page order).
Nothing here knows SQLite or questions, and nothing is keyed to a company: every rule reads the
words a form prints because the SEC's forms (or the custom of press releases) make it print them.

- ``form_of``: the form of a filing, from the cover page of its first pages: ``10-K``, ``10-Q``,
  ``8-K``; a stand-alone press release reporting results is ``earnings``; an annual report to
  shareholders that is not a 10-K is ``annual``; anything else ``other``.
- ``exhibits``: the exhibits a filing attaches (Reg S-K Item 601), each from the page whose top
  says "Exhibit 10.1" to the page before the next one, with its title and its kind.
- ``item_label``, ``item_line`` and ``part_of``: an "Item N." heading read by the form's own
  numbering (a 10-Q numbers its Items again in Part II; an 8-K numbers them 1.01 ... 9.01), and
  the Part a "PART II" line starts. ``structure_form`` hands them to structure.py's walk, which
  carries the Part in force from page to page.
- the sections of an earnings release (highlights, outlook, segment tables, non-GAAP
  reconciliations, the conference call) are evfind/release.py's ``release_sections``.
- ``analyse``: structure.py's walk with the form's reading, and the exhibits' and the
  release's sections added to the pages: what ingest stores.

Page numbers given out here are physical pages counted from 1, as evfind counts them everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial

from .exhibits import kinds as _kind_rows
from ._data import rows
from .lines import COVER_PAGES, DATELINE_TICKER, tickers as _tickers, ITEM_LINE_WORDS, ITEM_TITLE_WORDS
from .lines import lines as _lines, reflow, rejoin, title_words, top as _top
from .release import STATEMENT_TITLE as _STATEMENT_TITLE, release_sections
from .structure import ANY_FORM, Form, PageStructure, capitalised, numbered_item_heading
from .structure import analyse as analyse_structure

FORMS = ("10-K", "10-Q", "8-K", "earnings", "annual", "other")

# ---------------------------------------------------------------------------------------------
# Thresholds, each with what it guards against. The lines of a page and its top (TOP_LINES),
# the Item line's length, COVER_PAGES and the trading symbols are evfind/lines.py's, shared
# with structure.py; a statement title's length is structure.py's STATEMENT_TITLE_WORDS.

# The form (form_of, _cover)
WRAPPER_PAGES = 30  # an annual report to shareholders may wrap its 10-K: the 10-K's cover is looked for this far in
FORM_LINES = 40  # a cover names its form in its first block (above the registrant's name); lower, "Form 10-K" is a reference
FORM_LINE_WORDS = 16  # "FORM 10-K" with "ANNUAL REPORT PURSUANT TO ..." on one line; a longer line is a sentence naming a form
REPORT_LINES = 60  # the cover's "... REPORT PURSUANT TO SECTION 13" box sits above its check boxes, within its first 60 lines
RELEASE_PAGES = 2  # a press release prints its headline, dateline and ticker on its first page (a cover note may come first)
DATELINE_LINES = 30  # a release's dateline opens its first paragraph, below the headline and subheads
HEADLINE_LINES = 4  # a release's headline is its first lines of content (a logo's words may come first)
LETTER_PAGES = 6  # an annual report's letter to shareholders follows its cover and a page or two of highlights

# Exhibits (exhibit_start, _title, _tidy, is_exhibit_index)
INDEX_LINES = 3  # rows listing numbered exhibits that make a page an exhibit index (one or two are a mention)
EXHIBIT_LINE_WORDS = 16  # "Exhibit 10.1 Five-Year Credit Agreement dated as of ...": longer, it is a sentence
TITLE_LINES = 5  # the lines after "Exhibit 10.1" where its title may stand, below a version stamp or an amount
TITLE_LINE_WORDS = 16  # a title line; a longer line is the exhibit's first paragraph
TITLE_WORDS = 10  # capitalised lines joined into one title ("364-DAY" / "CREDIT AGREEMENT"); past this, text
TITLE_CHARS = 120  # a title as a list shows it: a description longer than this is cut
SHOUTED_CHARS = 4  # an all-capitals title longer than this is title-cased ("LLC" and "N.A." stay as printed)
ACRONYM_CHARS = 3  # a word of an all-capitals title this short stays in capitals (CEO, LLC) unless it is a word

# Parts and Items (part_of, item_line)
PART_LINE_WORDS = 8  # "PART I - FINANCIAL INFORMATION" is five words; a longer line that starts "Part II" is a sentence



def _words(text: str) -> str:
    """Lower-case words only: "Management's Discussion" -> "management s discussion"."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


# ---------------------------------------------------------------------------------------------
# The form

_FORM_LINE = re.compile(
    r"^[\W_]*(?:annual report on )?form\s*(10-?k|10-?q|8-?k|20-?f|40-?f|6-?k|11-?k|s-\d|f-\d|n-csr)"
    r"(?:\s*/\s*a|t|405)?(?![\w-])",
    re.I,
)
_REPORT = re.compile(r"\b(annual|quarterly|current) report\s*pursuant to section 13\b", re.I)
_CODES = {"10k": "10-K", "10q": "10-Q", "8k": "8-K"}
_REPORTS = {"annual": "10-K", "quarterly": "10-Q", "current": "8-K"}

# The counts in the patterns below are shapes of the wording: a headline's verb is followed within
# a line's length by "results" ("Reports Fourth Quarter and Full-Year 2022 Results"), a lead's
# "today reported" within a sentence; a dateline's city and state are a few words.
_RESULTS_HEADLINE = re.compile(
    r"\b(?:reports?|announces?|posts?|delivers?|releases?)\b[^.;]{0,90}?\b(?:results|earnings)\b", re.I
)
_RESULTS_BODY = re.compile(
    r"\btoday (?:reported|announced|released)\b[^.]{0,120}?\b(?:results|earnings)\b"
    r"|\b(?:first|second|third|fourth)[ -]quarter\b[^.]{0,60}?\bresults\b",
    re.I,
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATELINE = re.compile(
    rf"^[A-Z][A-Za-z.'\- ]{{1,40}},(?:\s*[A-Z][A-Za-z.\- ]{{1,20}},)?\s*(?:[-\u2013\u2014]\s*)?{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}",
    re.I,
)
# An 8-K's earnings release is furnished as its Exhibit 99 (Form 8-K Item 2.02, "Results of
# Operations and Financial Condition"; Reg S-K Item 601(b)(99): data/exhibits.tsv's press_release
# row). Its lead may name the figures rather than "results": "... announced today that net income
# for the fiscal quarter ended November 2, 2024 was ...", "... today reported net sales of ... for
# the third quarter". A lead's sentence: the filer's own figure as the verb's object (a few words
# between: "that", "its", "third quarter"; not "announced an agreement to acquire X, whose net
# sales ..."), its period soon after.
_FIGURES_LEAD = re.compile(
    r"\b(?:today (?:reported|announced)|(?:reported|announced) today)"
    r"(?:\s+(?:that|its|their|the|company's|record|consolidated|total|(?:first|second|third|fourth)|quarter(?:ly)?"
    r"|fiscal|full[- ]year|(?:19|20)\d\d|q[1-4]))*\s+"
    r"(?:net (?:income|loss|earnings|sales)|revenues?|sales|earnings per share)\b[^.]{0,80}?"
    r"\b(?:quarter|fiscal year|year ended|months ended|weeks ended)\b",
    re.I,
)
_RELEASE_WORDS = re.compile(
    r"\b(?:news release|press release|for immediate release|business wire|globe newswire|pr newswire)\b", re.I
)
_ANNUAL_WORDS = re.compile(r"\bannual report\b|\bannual review\b", re.I)
_SHAREHOLDER_WORDS = re.compile(
    r"\bdear (?:fellow )?(?:shareholders|stockholders|shareowners|investors)\b|\bletter to (?:our )?(?:shareholders|stockholders)\b"
    r"|\bto our (?:shareholders|stockholders|shareowners)\b|\bchairman\b|\bchief executive\b",
    re.I,
)


def _cover(text: str) -> str | None:
    """The form a cover page names: its "FORM 10-Q" line, else its "QUARTERLY REPORT PURSUANT
    TO SECTION 13" box (a 20-F or S-1 cover names a form of its own: "other")."""
    lines = reflow(_lines(text))
    for line in lines[:FORM_LINES]:
        match = _FORM_LINE.match(line)
        if match and len(line.split()) <= FORM_LINE_WORDS:
            code = re.sub(r"[^0-9a-z]", "", match.group(1).lower())
            return _CODES.get(code, "other")
    report = _REPORT.search(" ".join(lines[:REPORT_LINES]))
    if report:
        return _REPORTS[report.group(1).lower()]
    return None


def release_cues(text: str) -> int:
    """How many of a press release's marks a page carries: a dateline ("ISSAQUAH, Wash., May
    25, 2023"), a ticker ("(NYSE: XYZ)"), "news release" or a wire service's name."""
    lines = _lines(text)
    cues = 0
    cues += any(_DATELINE.match(line) for line in lines[:DATELINE_LINES])
    cues += bool(DATELINE_TICKER.search(text))
    cues += bool(_RELEASE_WORDS.search(text))
    return cues


def _reports_results(text: str) -> bool:
    """A headline or lead that reports a period's results ("XYZ Reports Fourth Quarter and
    Full-Year 2022 Results"; "... today reported results for the first quarter")."""
    head = " ".join(_top(_lines(text), HEADLINE_LINES))
    return bool(_RESULTS_HEADLINE.search(head) or _RESULTS_BODY.search(text))


def _results_exhibit(text: str) -> bool:
    """A first page that opens an Exhibit 99 ("Exhibit 99.1" at its top), reads as a press
    release (release_cues: a dateline, a ticker, "For Immediate Release", a wire's name) and
    leads with a period's results or figures: an 8-K's earnings release filed on its own."""
    start = exhibit_start(text)
    if start is None or start[0].partition(".")[0] != "99" or not release_cues(text):
        return False
    return _reports_results(text) or bool(_FIGURES_LEAD.search(" ".join(text.split())))


def form_of(texts: list[str]) -> str:
    """The form of a filing from its first pages: 10-K, 10-Q, 8-K, earnings, annual or other."""
    for text in texts[:COVER_PAGES]:
        form = _cover(text)
        if form:
            return form
    first = texts[:RELEASE_PAGES]
    if any(_reports_results(text) for text in first):
        cues = sum(release_cues(text) for text in first)
        statements = any(
            any(_STATEMENT_TITLE.search(line) for line in _top(_lines(text))) for text in texts[1:]
        )
        if cues or statements:
            return "earnings"
    if texts and _results_exhibit(texts[0]):
        return "earnings"
    for text in texts[COVER_PAGES:WRAPPER_PAGES]:
        if _cover(text) == "10-K":
            return "10-K"  # an annual report to shareholders wrapped around its 10-K
    head = " ".join(texts[:COVER_PAGES])
    if _ANNUAL_WORDS.search(head) and _SHAREHOLDER_WORDS.search(" ".join(texts[:LETTER_PAGES])):
        return "annual"
    return "other"


# The period a cover page reports, in the words the SEC's covers print: Form 10-K "For the
# fiscal year ended ...", Form 10-Q "For the quarterly period ended ...", Form 8-K "Date of
# Report (Date of earliest event reported): ..." (the date before or after the caption).
_MONTH_DATE = (
    r"((?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"\s+\d{1,2}\s*,\s*\d{4})"
)
_PERIOD_ENDED = re.compile(r"\bfor\s+the\s+(fiscal\s+year|quarterly\s+period)\s+ended\s*:?\s*" + _MONTH_DATE, re.I)
_REPORT_CAPTION = r"date\s+of\s+report\s*(?:\(\s*date\s+of\s+earliest\s+event\s+reported\s*\))?"
_REPORT_DATE = re.compile(_REPORT_CAPTION + r"\s*:?\s*" + _MONTH_DATE + r"|" + _MONTH_DATE + r"\s*\(?\s*" + _REPORT_CAPTION, re.I)


def cover_period(texts: list[str]) -> tuple[int, str] | None:
    """The period the cover page of a filing's first pages reports, as (physical page, words):
    (1, "fiscal year ended December 31, 2025"), "quarterly period ended June 30, 2024", "date
    of report March 3, 2025"; None where no cover prints one (a press release, say)."""
    for number, text in enumerate(texts[:COVER_PAGES], start=1):
        flat = " ".join(text.split())
        ended = _PERIOD_ENDED.search(flat)
        if ended:
            return number, f"{' '.join(ended.group(1).lower().split())} ended {_date(ended.group(2))}"
        report = _REPORT_DATE.search(flat)
        if report:
            return number, f"date of report {_date(report.group(1) or report.group(2))}"
    return None


def _date(text: str) -> str:
    """ "December 31 ,2025" -> "December 31, 2025"."""
    month, day, year = re.findall(r"[A-Za-z]+|\d+", text)
    return f"{month} {day}, {year}"


def tickers(texts: list[str]) -> tuple[str, ...]:
    """The filer's trading symbols as its first pages (its cover, a release's dateline) print
    them, in the order met (``lines.tickers``): what a question may name the filer by ("ATVI",
    "COST"), stored at ingest."""
    return _tickers("\n".join(texts[:COVER_PAGES]))


# ---------------------------------------------------------------------------------------------
# Exhibits


@dataclass(frozen=True)
class Exhibit:
    """An exhibit attached to a filing: Exhibit 10.1 on physical pages 5 to 123."""

    number: str  # as printed: 10.1, 99.1, 21, 4.6
    title: str  # from the filing's exhibit index, else the exhibit's first page; may be ""
    first_page: int  # physical, from 1
    last_page: int
    kind: str = "other"  # a kind of data/exhibits.tsv: credit_agreement, press_release, ...

    @property
    def label(self) -> str:
        return f"exhibit_{self.kind}"

    @property
    def heading(self) -> str:
        return f"Exhibit {self.number} - {self.title}" if self.title else f"Exhibit {self.number}"


_EXHIBIT_LINE = re.compile(
    r"^(?:exhibit|ex-?)\s*(?:no\.?\s*)?(\d{1,3}(?:\.\d{1,3})?(?:\([a-z0-9]+\))?)(?![\d.]*\d)\s*[.:\-\u2013\u2014]?\s*(.*)$",
    re.I,
)
# Where a line can start as _EXHIBIT_LINE does (after the white space lines.lines strips): the
# one search over a page's text that rules out most pages, before its lines are read.
_EXHIBIT_START = re.compile(r"^\s*ex", re.I | re.M)
_NOT_A_TITLE = re.compile(
    r"^(?:to|of|hereto|thereto|filed|in|and|or|as|is|was|which|that|shall|attached|incorporated)\b", re.I
)
_NOISE = re.compile(
    r"^(?:\[?\s*)?(?:execution (?:version|copy)|conformed copy|final(?: form)?|confidential.*|for immediate release|"
    r"\*+|form of|certain (?:identified )?information.*|\[.*\]|\d[\d\s.\-/]*|"
    r"(?:u\.?s\.?\s*)?(?:us)?[$\u20ac\u00a3]\s*[\d,.]+(?:\s*(?:million|billion))?|[A-Z]{1,3}\$\s*[\d,.]+)(?:\s*\]?)$",
    re.I,
)
# A footnote: its mark ("1", "(1)", "*", a dagger) and its text ("1 Not meaningful", "* Excludes
# special items"). A title may start with a figure, but not with a lone digit and a word:
# "364-Day Credit Agreement", "2024 Omnibus Incentive Plan", "18 U.S.C. Section 1350 Certification".
_FOOTNOTE = re.compile(r"^(?:\(\d{1,2}\)|\d\s+(?=[A-Za-z][a-z])|[*\u2020\u2021\u00a7]+\s*(?=[A-Za-z]))")
_TITLE_END = re.compile(r"^(?:dated|made|among|between|by and|relating to|of|for|to|as of)\b", re.I)
_BODY_START = re.compile(r"^(?:article|section)\b", re.I)  # a contract's first heading, after its title
_INDEX_ROW = re.compile(r"^(?:exhibit\s*)?(\d{1,3}(?:\.\d{1,3})?(?:\.[A-Z]{3})?)\*?[.)]?\s+(\S.{2,})$", re.I)
_INDEX_CUES = re.compile(
    r"\bexhibit index\b|\bindex to exhibits\b|\bexhibits? (?:no|number)\b|\bitem 9\.01\b|\blist of exhibits\b"
    r"|\bexhibits and financial statement schedules\b|^\s*exhibits\s*$|\bitem 6\.\s*exhibits\b",
    re.I | re.M,
)


@lru_cache(maxsize=1)
def _exhibit_kinds() -> list[tuple[str, str, re.Pattern | None]]:
    return [(number, kind, re.compile(pattern) if pattern else None) for number, kind, pattern in _kind_rows()]


def exhibit_kind(number: str, title: str = "") -> str:
    """The kind of an exhibit from its Item 601 number and its title ("10.1", "Five-Year Credit
    Agreement" -> credit_agreement; "99.1", "" -> additional). An exhibit filed under a number
    that does not fit it (a credit agreement as Exhibit 99.1) takes the kind its title names
    (rows "*") rather than its number's catch-all."""
    match = re.match(r"\d+", number)
    if not match:
        return "other"
    item, words = match.group(), _words(title)
    default = None
    for row_item, kind, pattern in _exhibit_kinds():
        if row_item == item and pattern is not None and pattern.search(words):
            return kind
        if row_item == item and pattern is None and default is None:
            default = kind
    for row_item, kind, pattern in _exhibit_kinds():
        if row_item == "*" and pattern is not None and pattern.search(words):
            return kind
    return default or "other"


def _index_rows(lines: list[str]) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(_INDEX_ROW.match, lines) if m]


def is_exhibit_index(text: str) -> bool:
    """A page that lists exhibits (a 10-K's Item 15, an 8-K's Item 9.01): rows "10.1 Credit
    Agreement ..." under an index heading."""
    lines = reflow(_lines(text))
    return len(_index_rows(lines)) >= INDEX_LINES and bool(_INDEX_CUES.search("\n".join(lines)))


def exhibit_start(text: str) -> tuple[str, str] | None:
    """(number, title) when the page is an exhibit's first page: a line at its top that says
    "Exhibit 10.1" (the title on the same line or the next); None for a mention ("filed as
    Exhibit 10.1 to ..."), an exhibit index, or a page of the filing itself."""
    if not _EXHIBIT_START.search(text):
        return None  # no line of the page starts as _EXHIBIT_LINE does (nor one reflow joins)
    lines = reflow(_lines(text))
    top = _top(lines)
    for position, line in enumerate(top):
        match = _EXHIBIT_LINE.match(line)
        if not match or len(line.split()) > EXHIBIT_LINE_WORDS:
            continue
        rest = match.group(2).strip()
        if rest and (_NOT_A_TITLE.match(rest) or rest[:1].islower()):
            return None  # "Exhibit 10.1 to the Company's Form 8-K": a reference
        if is_exhibit_index(text) or re.search(r"\bitem\s*9\.01\b", text, re.I):
            return None
        return match.group(1), _title(rest, top[position + 1 :])
    return None


def _title(rest: str, following: list[str]) -> str:
    """The exhibit's title: what follows "Exhibit 10.1" on its line, else the next lines that
    are not a version stamp or an amount ("364-DAY" / "CREDIT AGREEMENT" joined), left out when
    they read like running text."""
    if re.search(r"\.html?\b", rest, re.I):
        rest = ""  # EDGAR's document line: "EX-24 5 mmm-20211231xex24.htm EX-24"
    parts: list[str] = []
    for candidate in [rest, *following[:TITLE_LINES]]:
        candidate = candidate.strip()
        if _FOOTNOTE.match(candidate):
            if parts:
                break
            continue  # "1 Not meaningful": a table's footnote, drawn before the page's title
        if not parts and (not candidate or _NOISE.match(candidate) or _EXHIBIT_LINE.match(candidate)):
            continue
        if len(candidate.split()) > TITLE_LINE_WORDS or candidate[:1].islower() or _TITLE_END.match(candidate):
            break
        if re.match(r"I,\s", candidate) or "___" in candidate:
            break  # "I, Jane Roe, certify that": the exhibit's first sentence; a form's blanks
        if parts and _BODY_START.match(candidate):
            break
        if parts and (not candidate.isupper() or len(" ".join(parts + [candidate]).split()) > TITLE_WORDS):
            break
        parts.append(candidate)
    return _tidy(" ".join(parts)) if parts else ""


def _tidy(title: str) -> str:
    """A title as it reads in a list: a description cut before its date and parties, an
    all-capitals title in title case."""
    title = re.split(r",?\s+(?:dated|made|entered into|by and (?:between|among)|between|among|relating to)\b|\s+\((?:incorporated|as adopted|filed)", title, flags=re.I)[0]
    title = title.strip(" ,.;:*+\u2020\u2021")
    if title.isupper() and len(title) > SHOUTED_CHARS:
        words = title.lower().split()
        title = " ".join(_title_case(word, first=i == 0) for i, word in enumerate(words))
    return title[:TITLE_CHARS]


# Title case: the small words (data/title_words.tsv) stay in lower case; words of ACRONYM_CHARS
# letters or fewer stay in capitals (CEO, CFO, LLC, N.A.) unless they are words (its short words).


def _title_case(word: str, first: bool) -> str:
    """One word of an all-capitals title, as a title prints it."""
    small = title_words("small")
    if word in small and not first:
        return word
    if "." in word.strip(".") or any(c.isdigit() for c in word):
        return word.upper()  # U.S.C., 3M, 364-DAY
    if len(word.strip("(),")) <= ACRONYM_CHARS and word.strip("(),") not in title_words("short") | small:
        return word.upper()
    return "-".join(part[:1].upper() + part[1:] for part in word.split("-"))


def exhibit_index(texts: list[str]) -> dict[str, str]:
    """The descriptions a filing's exhibit index gives its exhibits: {"10.1": "Five-Year Credit
    Agreement, dated as of ..."} (the first description of each number)."""
    found: dict[str, str] = {}
    for text in texts:
        lines = reflow(_lines(text))
        if not _index_rows(lines) or not _INDEX_CUES.search("\n".join(lines)):
            continue
        for number, description in _index_rows(lines):
            found.setdefault(number, description)
    return found


def exhibits(texts: list[str]) -> list[Exhibit]:
    """The exhibits attached to a filing, in page order: each runs from its first page to the
    page before the next exhibit's (a running header repeating the same number on every page
    continues it)."""
    starts: list[tuple[int, str, str]] = []
    for index, text in enumerate(texts):
        found = exhibit_start(text)
        if found is None:
            continue
        number, title = found
        if starts and starts[-1][1] == number:
            continue  # "Exhibit 10.1" printed at the top of every page of the agreement
        starts.append((index, number, title))
    if not starts:
        return []
    listed = exhibit_index(texts[: starts[0][0]])
    result = []
    for position, (index, number, title) in enumerate(starts):
        end = starts[position + 1][0] - 1 if position + 1 < len(starts) else len(texts) - 1
        description = listed.get(number, "")
        kind = exhibit_kind(number, f"{title} {description}")
        if kind == "additional" and release_cues(texts[index]):
            kind = "press_release"  # a dateline and a ticker: a press release, however titled
        result.append(Exhibit(number, _tidy(description) or title, index + 1, end + 1, kind))
    return result


# ---------------------------------------------------------------------------------------------
# Items by the form's own numbering

_ITEM = re.compile(
    r"^(?:part\s+(i{1,3}|iv)\s*[,.:\-\u2013\u2014]?\s*)?item\s*(\d{1,2}(?:\.\d{2})?\s*[a-d]?)\b[\s.:\-\u2013\u2014]*(.*)$",
    re.I,
)
_PART = re.compile(r"^part\s+(i{1,3}|iv)\b\s*(?:[.,:\-\u2013\u2014]\s*)?(.*)$", re.I)


@lru_cache(maxsize=1)
def _form_items() -> dict[str, list[tuple[str, str, str, re.Pattern]]]:
    table: dict[str, list[tuple[str, str, str, re.Pattern]]] = {}
    for form, part, item, label, title in rows("form_items.tsv", 5):
        table.setdefault(form, []).append((part, item, label, re.compile(title)))
    return table


def _item_number(text: str) -> str:
    return re.sub(r"\s+", "", text).upper()


def item_label(form: str, heading: str, part: str | None = None) -> str | None:
    """The section label of an Item heading read by the form's numbering: ("10-Q", "Item 2.",
    part "II") -> market_equity; ("8-K", "ITEM 5.07") -> shareholder_vote; ("10-Q", "Part II,
    Item 1A") -> risk_factors. None when the form has no such Item, or the number leaves a
    choice (a 10-Q Item 1 with no Part) that the title does not settle."""
    found = _read_item(form, heading, part)
    return found[0] if found else None


def item_labels(form: str | None, number: str, part: str | None = None) -> tuple[str, ...]:
    """The section labels an Item a question names by number can mean in a filing of this
    form: ("10-K", "7") -> mdna; ("10-Q", "2", "II") -> market_equity; ("10-Q", "2") -> both of
    the 10-Q's Items 2 (mdna, market_equity), the question having named no Part; () for a form
    without that Item.

    >>> item_labels("8-K", "5.07"), item_labels("10-Q", "1A", "II"), item_labels("10-Q", "2")
    (('shareholder_vote',), ('risk_factors',), ('mdna', 'market_equity'))
    """
    number, part = _item_number(number), (part or "").upper() or None
    return tuple(dict.fromkeys(
        label for row_part, item, label, _ in _form_items().get(form or "", [])
        if item == number and (part is None or not row_part or row_part == part)
    ))


def _read_item(form: str, heading: str, part: str | None) -> tuple[str, str | None] | None:
    """(label, part) of an Item heading. The title decides when it fits exactly one of the
    Items the number can mean, whatever the Part in force (a 10-Q whose body never prints
    "PART I" again after its table of contents); else the Part in force; else the number."""
    match = _ITEM.match(heading.strip())
    if not match:
        return None
    part = (match.group(1) or part or "").upper() or None
    number, title = _item_number(match.group(2)), _words(match.group(3))
    candidates = [
        (row_part or None, label, pattern)
        for row_part, item, label, pattern in _form_items().get(form, [])
        if item == number
    ]
    fitting = [c for c in candidates if title and c[2].search(title)]
    if len({c[1] for c in fitting}) == 1:
        return fitting[0][1], fitting[0][0]
    in_part = [c for c in candidates if part is None or c[0] is None or c[0] == part]
    if len(in_part) == 1 and not (title and fitting and in_part[0] not in fitting):
        return in_part[0][1], in_part[0][0]
    return None


def part_of(line: str) -> str | None:
    """The Part a "PART II" / "Part I - Financial Information" line starts ("I", "II", ...);
    None for other lines, and for a sentence that names a Part ("Part II, Item 1A of our ...")."""
    match = _PART.match(line.strip())
    if not match or len(line.split()) > PART_LINE_WORDS:
        return None
    rest = match.group(2).strip()
    if rest and not (rest[:1].isupper() or re.match(r"\d+$", rest)):
        return None
    if re.match(r"item\b", rest, re.I):
        return match.group(1).upper()  # "Part II, Item 1A. Risk Factors"
    return match.group(1).upper()


# An Item heading line, in words: 10-K and 10-Q Item lines run to 17 words (lines.py's
# ITEM_LINE_WORDS); 8-K Item 5.02's full title runs to 24 ("Departure of Directors or Certain
# Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of
# Certain Officers"), 2.03's to 19. A longer line that starts "Item 5.02" is a sentence.
ITEM_WORDS = {"8-K": 32}


def item_line(form: str, line: str, following: str = "", part: str | None = None) -> tuple[str, str] | None:
    """(label, heading) when a line is an Item heading of the form, read by the form's
    numbering with the Part in force; the heading is the line, or the line and the next when
    the title stands on the next ("Item 2." / "Management's Discussion ..."; "Item" / "1.01
    Entry" as some PDFs extract it). None for other lines and for a sentence that refers to an
    Item ("Item 2.02 of Form 8-K requires ...")."""
    if form not in _form_items():
        return None
    if re.fullmatch(r"item\.?", line, re.I) and following[:1].isdigit():
        line, following = f"{line} {following}", ""
    match = _ITEM.match(line)
    if not match or len(line.split()) > ITEM_WORDS.get(form, ITEM_LINE_WORDS):
        return None
    title, heading = match.group(3).strip(), line
    if not title and following and len(following.split()) <= ITEM_TITLE_WORDS:
        title, heading = following, f"{line} {following}"
    if not capitalised(title):
        return None
    printed = re.sub(r"\s+", " ", heading).strip()
    read = _read_item(form, re.sub(r"\s*\.{3,}.*$|\s+\d{1,3}$", "", printed), part)
    if read is None and rejoin(printed) != printed:  # "Item 2. Management s Discussio n"
        printed = rejoin(printed)
        read = _read_item(form, re.sub(r"\s*\.{3,}.*$|\s+\d{1,3}$", "", printed), part)
    return (read[0], printed) if read else None


def titled_item(form: str, line: str, following: str = "", part: str | None = None) -> tuple[str, str] | None:
    """structure.py's reading of an Item line by its title, held to the form's numbering: the
    title must be one the Item's number can carry. A page header that prints "Item 7" above
    a subheading ("SUMMARY RESULTS OF OPERATIONS", "Business Description") starts no Item:
    those words name Item 16 and Item 1 of a 10-K, not Item 7."""
    found = numbered_item_heading(line, following)
    if found is None:
        return None
    label, heading, number = found
    labels = item_labels(form, number)
    if labels and label not in labels and _RESERVED.search(heading):
        return labels[0], heading  # "ITEM 4. RESERVED" (2010-11), "Item 6. [Reserved]" (from 2021): the number's Item
    # An Item the form does not have ("Item 8.01. Other Events." quoted in a 10-K's Item 9B) is
    # no Item of this filing; one whose title another number carries is a page header's.
    return (label, heading) if label in labels else None


# A reserved Item: Form 10-K Item 4 "(Removed and Reserved)" from SEC Release 33-9089 (2010)
# until Item 4 became Mine Safety Disclosures (Release 33-9286, 2011); Item 6 "[Reserved]" since
# Release 33-10890 (2020).
_RESERVED = re.compile(r"\breserved\b", re.I)


def structure_form(form: str) -> Form:
    """How structure.py reads the Items of a filing of this form: a 10-Q or an 8-K by its own
    numbering (with the Part in force for a 10-Q; an 8-K has no table of contents); a 10-K by
    the Item titles, as structure.py always has, a title held to its Item's number; anything
    else by the Item titles alone."""
    if form == "10-K":
        return Form(form, partial(titled_item, form))
    if form not in ("10-Q", "8-K"):
        return ANY_FORM
    return Form(form, partial(item_line, form), part=part_of, contents=form != "8-K")


# ---------------------------------------------------------------------------------------------
# A filing read whole: structure.py's walk with the form's reading, and the form's sections


@dataclass(frozen=True)
class Reading:
    """A filing read by its form: the form, the exhibits it attaches, each page's structure."""

    form: str
    exhibits: tuple[Exhibit, ...]
    pages: list[PageStructure]


def analyse(texts: list[str], form: str | None = None) -> Reading:
    """Every page's structure, read by the filing's form (``form_of`` unless given): Items by
    the form's numbering; nothing carried from the filing into an exhibit or from one exhibit
    into the next; each exhibit's pages a section "exhibit" and "exhibit_<kind>" of their own
    (headed "Exhibit 10.1 - Five-Year Credit Agreement"); an earnings release's sections on the
    pages of a stand-alone release and of a press release an 8-K attaches."""
    form = form or form_of(texts)
    attached = tuple(exhibits(texts))
    pages = analyse_structure(texts, structure_form(form), starts={e.first_page - 1 for e in attached})
    for exhibit in attached:
        for index in range(exhibit.first_page - 1, exhibit.last_page):
            page = pages[index]
            origin = "title" if index == exhibit.first_page - 1 else "carried"
            page.add("exhibit", exhibit.heading, origin)
            page.add(exhibit.label, exhibit.heading, origin)
            if origin == "title":
                page.heading = _join(exhibit.heading, page.heading)
            if page.section is None:
                page.section, page.section_heading = exhibit.label, exhibit.heading
    spans = [(0, len(texts))] if form == "earnings" else []
    spans += [(e.first_page - 1, e.last_page) for e in attached if e.kind == "press_release"]
    for start, end in spans:
        for page, found in zip(pages[start:end], release_sections(texts[start:end])):
            _add_release_sections(page, found)
    return Reading(form, attached, pages)


def _add_release_sections(page: PageStructure, found: list[tuple[str, str, str]]) -> None:
    for label, heading, origin in found:
        page.add(label, heading, origin)
        if origin != "carried":
            page.heading = _join(page.heading, heading)
    if page.section is None and found:
        page.section, page.section_heading = found[0][0], found[0][1]


def _join(*headings: str) -> str:
    """Headings " | "-joined as structure.py joins them, each once."""
    return " | ".join(dict.fromkeys(h for joined in headings for h in joined.split(" | ") if h))
