"""The sections of an earnings release, read from page texts: computed once at ingest.

A stand-alone press release reporting results (form ``earnings``), or one an 8-K attaches as
Exhibit 99.1, prints no Items: its sections are headings the custom of such releases gives
them: highlights, outlook, segment tables, non-GAAP reconciliations (Reg G), the conference
call. The condensed statements it carries are recognised by structure.py, like any primary
statement. Pure functions over page texts; forms.py adds what they find to the pages.
"""

from __future__ import annotations

import re

from .lines import TOP_LINES, boilerplate as _boilerplate, lines as _lines, reflow
from .statements import STATEMENT_TITLE_WORDS

# ---------------------------------------------------------------------------------------------
# Thresholds, each with what it guards against. The lines of a page and its top (TOP_LINES)
# are evfind/lines.py's; a statement title's length is statements.py's STATEMENT_TITLE_WORDS.

# Earnings-release sections (release_sections, _release_heading, _headline_lines)
RELEASE_CARRY = 2  # pages an earnings release's section runs on without a heading of its own
RELEASE_HEADING_WORDS = 14  # "Reconciliation of Adjusted EBIT by Reporting Segment" is seven; a longer line is text
RELEASE_HEADING_CHARS = 120  # the same in characters, for lines extracted without their spaces
RELEASE_HEADING_NUMBERS = 2  # "Fiscal 2024 Outlook" holds one number, "Q4 2023 Highlights" two; more is a table row
HEADLINE_START = 3  # the headline's reporting verb is on one of the first lines of the release's first page
HEADLINE_RUN = 2  # a headline runs on to at most two more lines ("... Reports Results;" / "Raises Guidance")
HEADLINE_LINE_WORDS = 12  # a line the headline runs on to; a longer one is the lead paragraph
HEADLINE_TAIL_WORDS = 3  # after a line that does not end open (";", ",", "and"), a longer line starts the lead

# A statement's title as a release prints it (the condensed statements after the text): what
# ends a release section's carry, and (forms.form_of) what tells a release from a letter.
STATEMENT_TITLE = re.compile(
    r"\b(?:condensed )?(?:consolidated )?(?:statements? of (?:income|operations|earnings|cash flows?)|balance sheets?)\b",
    re.I,
)
_STATEMENT_TITLE = STATEMENT_TITLE


def _words(text: str) -> str:
    """Lower-case words only: "Reconciliation of Adjusted EBIT" -> "reconciliation of adjusted ebit"."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


# ---------------------------------------------------------------------------------------------
# Headings and sections

# (label, pattern in the heading's lower-case words, the cue as a heading prints it or None).
# Highlights and outlook headings print their cue capitalised ("Fiscal 2024 Outlook"); a
# sentence-case "2023 guidance" is a paragraph's lead-in. Table titles are often in sentence
# case ("Reconciliation of adjusted EBIT by reporting segment"): no such condition.
_RELEASE_HEADINGS = (
    ("highlights", re.compile(r"(?:^|\b)highlights$|^highlights\b|^key (?:figures|metrics)$"),
     re.compile(r"\b(?:Highlights|HIGHLIGHTS|Key)\b")),
    ("outlook_guidance", re.compile(r"\b(?:outlook|guidance)$|^(?:outlook|guidance)\b|^full year \d{4} (?:outlook|guidance)"),
     re.compile(r"\b(?:Outlook|OUTLOOK|Guidance|GUIDANCE)\b")),
    ("non_gaap", re.compile(r"\breconciliations?\b|^non gaap (?:financial )?(?:measures?|information)\b|\bgaap to\b"), None),
    ("segment_information", re.compile(r"\bsegments?\b|\bdivisions?\b|\bby (?:business|region|geography)\b"), None),
    ("conference_call", re.compile(r"\bconference call\b|\bwebcast\b|\bearnings call\b"), None),
)


def _release_heading(line: str) -> list[str]:
    """The release sections a short heading line names (a line may name two: "Reconciliation
    of adjusted EBIT by reporting segment")."""
    if len(line.split()) > RELEASE_HEADING_WORDS or len(line) > RELEASE_HEADING_CHARS or line.endswith((".", ",", ";")):
        return []
    if len(re.findall(r"\d[\d,.]*", line)) > RELEASE_HEADING_NUMBERS or "$" in line or not line[:1].isalnum() or line[:1].islower():
        return []
    words = _words(line)
    return [
        label
        for label, pattern, printed in _RELEASE_HEADINGS
        if pattern.search(words) and (printed is None or printed.search(line))
    ]


def release_sections(texts: list[str]) -> list[list[tuple[str, str, str]]]:
    """The sections of each page of an earnings release: (label, heading, origin) with origin
    "title" for a heading at the page's top, "started" for one further down, "carried" for the
    section in force at the end of an earlier page, running on while no heading opens the page
    (at most ``RELEASE_CARRY`` pages after its heading, and never onto a condensed statement,
    which is a section of its own). The release's headline ("... Reports Results; Raises
    Guidance") is no heading."""
    result: list[list[tuple[str, str, str]]] = []
    carried: list[tuple[str, str]] = []
    carried_from = 0
    for index, text in enumerate(texts):
        lines = [line for line in reflow(_lines(text)) if not _boilerplate(line)]
        skip = _headline_lines(lines) if index == 0 else 0
        seen = [
            (label, line, position)
            for position, line in enumerate(lines)
            if position >= skip
            for label in _release_heading(line)
        ]
        page: list[tuple[str, str, str]] = []
        statement = any(_STATEMENT_TITLE.search(line) and len(line.split()) <= STATEMENT_TITLE_WORDS for line in lines[:TOP_LINES])
        opens = bool(seen) and seen[0][2] == 0
        if statement:
            carried = []
        elif carried and not opens and index - carried_from <= RELEASE_CARRY:
            page.extend((label, heading, "carried") for label, heading in carried)
        for label, heading, position in seen:
            if all(existing[0] != label for existing in page):
                page.append((label, heading, "title" if position < TOP_LINES else "started"))
        if seen:
            last = seen[-1][2]
            carried = [(label, heading) for label, heading, position in seen if position == last]
            carried_from = index
        result.append(page)
    return result


def _headline_lines(lines: list[str]) -> int:
    """How many lines a release's headline takes at the top of its first page: the first line
    that reports or announces, and the lines it runs on to (it ends with no full stop)."""
    for index, line in enumerate(lines[:HEADLINE_START]):
        if re.search(r"\b(?:reports?|announces?|posts?|delivers?)\b", line, re.I):
            end = index
            while end + 1 < len(lines) and end - index < HEADLINE_RUN and not lines[end].rstrip().endswith((".", ":")):
                if len(lines[end + 1].split()) > HEADLINE_LINE_WORDS:
                    break
                end += 1
                if not lines[end - 1].rstrip().endswith((";", ",", "-", "and")) and len(lines[end].split()) > HEADLINE_TAIL_WORDS:
                    end -= 1
                    break
            return end + 1
    return 0
