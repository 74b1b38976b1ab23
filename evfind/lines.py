"""A page's lines as a reader sees them: one home for the line primitives of structure.py and forms.py.

Pure functions over index text (``text.normalise``: one string per physical page, lines split by
``\\n``). Nothing here knows SQLite, questions or a form's Items; structure.py (headings,
sections, statements) and forms.py (the form, exhibits, release sections) both read a page
through these, so a "page number", a "running header" and "the top of a page" mean the same
thing to both.

- ``lines``: the page's non-blank lines, stripped;
- ``boilerplate``: a page number, a running header ("Table of Contents", "Index"), a Part line
  or the notes' running head: not the page's own content;
- ``top`` and ``top_end``: the first ``TOP_LINES`` lines of content, and where they end;
- ``reflow``: a sentence that a PDF extracted a word or two per line, joined back;
- ``short`` and ``numbers``: a line short enough to be a heading; the figures a line prints;
- ``tickers``: the trading symbols a cover page or a press release's dateline prints;
- ``title_words``: the words Title Case leaves in lower case (data/title_words.tsv).

Light at import (no pattern is compiled before it is used): the query side may import it too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ._data import rows
from .text import LazyPattern

# ---------------------------------------------------------------------------------------------
# Thresholds shared by structure.py and forms.py. The figures quoted were counted on the
# development filings (50 10-Ks, 10-Qs, 8-Ks and earnings releases).

# Where a page's top ends: the first TOP_LINES lines that are not boilerplate. A statement's
# title, with the company name, "(In millions ...)" and the period above the columns, sits within
# them, and so do an exhibit's "Exhibit 10.1" line and its title, and an earnings release's section
# heading; below them a statement's name is a caption or a reference in running text, and a
# heading there starts a section mid-page ("started", not "title").
TOP_LINES = 8
# An Item heading line, in words: the longest 10-K Item (Item 12, "Security Ownership of Certain
# Beneficial Owners and Management and Related Stockholder Matters") is 14 words, 17 with "Part
# III" before it and a table of contents' page number after; a longer line that starts "Item 7" is
# a sentence referring to it.
ITEM_LINE_WORDS = 18
# The title on the line after a bare "Item 7." line: Item 12's title is 12 words, 13 with a page
# number; a longer line is the Item's first paragraph.
ITEM_TITLE_WORDS = 16
# Any heading line, in characters: a paragraph extracted without its spaces has few "words" but
# many characters, and is no heading.
HEADING_CHARS = 140
# The pages where a filing's cover page is looked for (its form, its trading symbols): the cover
# is the first page, after at most a wrapper's title page and a page of notices.
COVER_PAGES = 3
# A sentence some PDFs extract a word or two per line ("Item" / "1.01 Entry" / "into" / "a" ...):
# a run of REFLOW_RUN or more lines, the first of one word and the others of at most REFLOW_WORDS,
# is joined back into one line. Two short lines are a heading and its number, not a sentence.
REFLOW_RUN = 3
REFLOW_WORDS = 2
# A word's last letters that an extraction may split off ("Busines s", "Summ ary", "Informatio
# n"): up to REJOIN_TAIL letters; a longer second part is a word of its own.
REJOIN_TAIL = 4


@lru_cache(maxsize=4)
def title_words(kind: str) -> frozenset[str]:
    """The words of data/title_words.tsv of one kind: "small" (Title Case leaves them in lower
    case: a, of, the ...), "short" (three letters or fewer, yet words, not acronyms: act, tax)."""
    return frozenset(word for found, word in rows("title_words.tsv", 2) if found == kind)


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The ordinary English words (data/english_words.txt.gz: SCOWL size 35), read on first use."""
    import gzip

    from ._data import DATA

    with gzip.open(DATA / "english_words.txt.gz", "rt", encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip() and not line.startswith("#"))


def rejoin(text: str) -> str:
    """A heading with the words its extraction split rejoined ("Item 1. Busines s." -> "Item 1.
    Business.", "Form 10-K Summ ary", "Selected Financial Dat a"): two fragments are joined
    where together they are an English word (data/english_words.txt.gz) and the first alone is
    not, or the second is a lone letter ("Comment s")."""
    english = english_words()
    words = text.split(" ")
    result: list[str] = []
    for word in words:
        if result:
            first, second = result[-1], re.sub(r"[^A-Za-z]+$", "", word)
            joined = (first + second).lower()
            if (first.isalpha() and len(first) > 1 and second.isalpha() and len(second) <= REJOIN_TAIL
                    and joined in english and (first.lower() not in english or len(second) == 1)):
                result[-1] = first + word
                continue
        result.append(word)
    return " ".join(result)


# A line that stops in mid-sentence: it ends with a word that cannot end a sentence or a heading
# (an article, a preposition, a conjunction: data/title_words.tsv's small words; or the "see"
# of a cross-reference), so the next line goes on with it ("... See" / "Part II - Item 3. Legal
# Proceedings for a discussion of ...").
_REFERRING = frozenset({"see", "refer"})


def runs_on(line: str) -> bool:
    """The line stops in mid-sentence: the next line continues it, whatever it starts with."""
    words = line.split()
    return bool(words) and words[-1].lower() in _ending_words()


@lru_cache(maxsize=1)
def _ending_words() -> frozenset[str]:
    """The words a line cannot end a sentence or a heading with (``runs_on``)."""
    return title_words("small") | _REFERRING


def lines(text: str) -> list[str]:
    """The page's non-blank lines, each stripped: what every reader of a page walks."""
    return [line.strip() for line in text.split("\n") if line.strip()]


# The counts inside the patterns are shapes, not thresholds: a page number has up to five digits
# or roman letters ("Page 12", "xiv"), or a letter or two, a hyphen and up to three digits
# ("F-12", "A-3", "MD-4"); the running headers are the words a page prints above its content to
# say where it sits; a stray ".00" above a cover's first line is an EDGAR rendering's leftover
# (AMCOR's 8-K of 2022-04-26 prints one before "UNITED STATES").
_PAGE_NUMBER = LazyPattern(r"^(?:page\s*)?[\divxlc]{1,5}$|^[a-z]{1,2}-\d{1,3}$", re.I)
_RUNNING = LazyPattern(r"^(?:table of contents|contents|index|\.\d\d)$", re.I)
# A Part line ("PART II", "Part I - Financial Information") and the notes' running head ("Notes
# to Consolidated Financial Statements (continued)") stand above a page's content as a header.
_PART = LazyPattern(
    r"^part\s+[ivx]+\.?(?:\s*[-\u2013\u2014.:,]?\s*(?:financial|other) information)?$|^notes to (the )?(consolidated |condensed |combined )*financial statements"
    r"( \(continued\))?$",
    re.I,
)


def short(line: str, words: int) -> bool:
    """A line short enough to be a heading: at most ``words`` words and HEADING_CHARS characters."""
    return len(line) <= HEADING_CHARS and len(line.split()) <= words


_NUMBER = LazyPattern(r"\(?\$?\d[\d,.]*\)?%?")  # a figure as printed: 1,234, (56), $7.8, 9%


def numbers(text: str) -> int:
    """How many figures a line or a page prints."""
    return len(_NUMBER.findall(text))


def page_number(line: str) -> bool:
    """A line that is only a page number: "12", "Page 12", "xiv", "F-12"."""
    return bool(_PAGE_NUMBER.match(line))


@lru_cache(maxsize=8192)
def boilerplate(line: str) -> bool:
    """A page number, a running header ("Table of Contents", "Index"), a Part line or the notes'
    running head ("Notes to Consolidated Financial Statements"): not the page's own content.
    Cached: the readers of a page ask it of the page's top lines several times."""
    return bool(_PAGE_NUMBER.match(line) or _RUNNING.match(line) or _PART.match(line))


def top(page_lines: list[str], count: int = TOP_LINES) -> list[str]:
    """The first ``count`` lines of a page that are not boilerplate."""
    return [line for line in page_lines if not boilerplate(line)][:count]


def top_end(page_lines: list[str], count: int = TOP_LINES) -> int:
    """The index after which a line is no longer at the top of the page: past the ``count``-th
    line that is not boilerplate (the boilerplate among them counted in)."""
    seen = 0
    for index, line in enumerate(page_lines):
        if boilerplate(line):
            continue
        seen += 1
        if seen >= count:
            return index + 1
    return len(page_lines)


def first_content(page_lines: list[str]) -> int:
    """The index of the first line that is not boilerplate (0 when every line is)."""
    return next((i for i, line in enumerate(page_lines) if not boilerplate(line)), 0)


def reflow(page_lines: list[str]) -> list[str]:
    """Lines with the runs of one- and two-word lines that some PDFs extract a sentence as
    ("Item" / "1.01 Entry" / "into" / "a" / "Material" ...) joined back into one line. A run
    starts at a one-word line and is joined only when it has REFLOW_RUN lines or more."""
    result: list[str] = []
    index = 0
    while index < len(page_lines):
        end = index
        if len(page_lines[index].split()) == 1:
            while end + 1 < len(page_lines) and len(page_lines[end + 1].split()) <= REFLOW_WORDS:
                end += 1
        if end - index + 1 >= REFLOW_RUN:
            result.append(" ".join(page_lines[index : end + 1]))
        else:
            result.extend(page_lines[index : end + 1])
        index = end + 1
    return result


# ---------------------------------------------------------------------------------------------
# Trading symbols: the cover page of a 10-K, 10-Q or 8-K lists them beside their exchange (the
# "Trading Symbol(s)" column the cover has had since 2019: SEC Release 33-10618), and a press
# release's dateline gives them in brackets ("(NYSE: PEP)", "(Nasdaq: COST)"). The symbol is one
# to five capitals with an optional class letter ("BRK.B"); the exchanges are the US national
# securities exchanges that list most filers, and the foreign ones a dual-listed filer's dateline
# names beside them.
_EXCHANGES = r"nyse|nasdaq|asx|lse|tsx|otc\w*"
DATELINE_TICKER = LazyPattern(rf"\((?:{_EXCHANGES})[^:)]{{0,20}}:\s*([a-z]{{1,5}}(?:\.[a-z])?)\)", re.I)
_LISTED = LazyPattern(
    r"\b([A-Z]{1,5}(?:\.[A-Z])?)\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|NASDAQ|Chicago Stock Exchange)"
)


def tickers(text: str) -> tuple[str, ...]:
    """The trading symbols a page prints, in capitals, in order, each once: beside their exchange
    on a cover page ("Common Stock MMM New York Stock Exchange") or in a dateline's brackets
    ("(NYSE: PEP)").

    >>> tickers("Common Stock, Par Value $.01 MMM New York Stock Exchange\\nPURCHASE, N.Y. (Nasdaq: PEP) -- today")
    ('MMM', 'PEP')
    """
    found = [(m.start(), m.group(1)) for m in _LISTED.finditer(text)]
    found += [(m.start(), m.group(1)) for m in DATELINE_TICKER.finditer(text) if m.group(1).isupper()]
    return tuple(dict.fromkeys(symbol for _, symbol in sorted(found)))
