"""Lines an auditor's report prints in a fixed form: the title of each critical audit matter.

PCAOB AS 3101.14-.17: the auditor's report communicates each critical audit matter by
identifying it, describing the principal considerations and the procedures, and referring to
the accounts or disclosures it relates to. Reports print each one as a short title line
("Revenue Recognition - Refer to Note 1 to the financial statements", "Evaluation of
self-insurance liabilities") followed by its description, which opens by referring to the note
("As discussed in Note 1 ...") or under a fixed caption ("Critical Audit Matter Description",
"Description of the Matter"). The title is what a question asking which critical audit matters
the auditor raised asks for; the report's boilerplate around it says the words, not the matter.

Pure functions over a page's lines; nothing here ranks.
"""

import re

from .text import LazyPattern

# What opens a matter's description: the reference to its note or the description's caption.
_DESCRIPTION = LazyPattern(
    r"\s*(?:As (?:discussed|described|disclosed|more fully described) in Note"
    r"|Critical Audit Matter Description\b|Description of the Matter\b)",
    re.I,
)
_REFERS = LazyPattern(r"\s[-\u2013\u2014]\s*Refer to Notes?\s+\d", re.I)  # "... - Refer to Note 1 to ..."
_CAM = LazyPattern(r"\bcritical audit matters?\b", re.I)
TITLE_WORDS = 16  # a matter's title is a line of at most this many words


def asks_cam(phrases) -> bool:
    """Does one of a question's phrases (Porter stems) say "critical audit matter"?

    >>> asks_cam([("critic", "audit", "matter"), ("kpmg",)]), asks_cam([("audit", "fee")])
    (True, False)
    """
    wanted = ("critic", "audit", "matter")
    return any(tuple(p[i : i + 3]) == wanted for p in phrases for i in range(len(p) - 2))


def cam_titles(lines: list[str]) -> frozenset[int]:
    """The lines (by index) that are the title of a critical audit matter: a short line, not a
    sentence (no closing full stop) and not the report's own heading, that refers to its note
    or is followed by the line opening the matter's description.

    >>> cam_titles(["Critical Audit Matters", "The critical audit matters communicated below are matters",
    ...             "Revenue Recognition - Refer to Note 1 to the financial statements",
    ...             "Critical Audit Matter Description", "The Company recognizes revenue ...",
    ...             "Evaluation of self-insurance liabilities", "As discussed in Note 1 to the financial statements"])
    frozenset({2, 5})
    """
    found = set()
    for i, line in enumerate(lines):
        text = line.strip()
        if not text or len(text.split()) > TITLE_WORDS or text.endswith((".", ",", ";", ":")) or _CAM.search(text):
            continue
        if not text[0].isupper() or _DESCRIPTION.match(text):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if _REFERS.search(text) or _DESCRIPTION.match(following):
            found.add(i)
    return frozenset(found)
