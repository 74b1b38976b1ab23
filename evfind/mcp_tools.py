"""What `evfind mcp`'s tools promise: their names, the descriptions an agent decides by, and
the JSON schemas of their input and output (``TOOLS``), with the instructions the server gives
at the handshake. Data only: evfind/mcp_server.py does the work.

ANSWER is the answer object of `evfind query --format json`: every object allows fields it does
not list (a field the CLI's JSON adds reaches the agent as it is), and tests/test_mcp_schema.py
checks, against the objects ``Answer.to_dict()`` really gives, that each field given is listed
here with its type and each required one is always given.
"""

from __future__ import annotations

from .limits import MAX_QUESTION_CHARS
from .rank import TOP_DEFAULT, TOP_MAX

_NULLABLE_TEXT = {"type": ["string", "null"]}
DOCUMENT = {
    "type": "object",
    "description": "A revision of a document: its id, the SHA-256 of its source file, its physical pages.",
    "properties": {
        "document_id": {"type": "string"},
        "document_sha256": {"type": "string", "description": "SHA-256 of the source file: the revision's identity."},
        "page_count": {"type": "integer", "minimum": 0},
    },
    "required": ["document_id", "document_sha256", "page_count"],
    "additionalProperties": True,
}
EVIDENCE_LINE = {
    "type": "object",
    "properties": {
        "line": {"type": "integer", "minimum": 1, "description": "Line number on the page, from 1, as read_page numbers it."},
        "text": {"type": "string", "description": "That line exactly."},
        "marks": {
            "type": "array",
            "description": "[start, end) character offsets in text where a term of the question matched.",
            "items": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2},
        },
        "columns": {
            "type": "array",
            "description": "The column headings of the line's table that say which figure is which period: header lines above it.",
            "items": {
                "type": "object",
                "properties": {"line": {"type": "integer", "minimum": 1}, "text": {"type": "string"}},
                "required": ["line", "text"],
                "additionalProperties": True,
            },
        },
    },
    "required": ["line", "text", "marks"],
    "additionalProperties": True,
}
HIT = {
    "type": "object",
    "properties": {
        "rank": {"type": "integer", "minimum": 1},
        "page_number": {"type": "integer", "minimum": 1, "description": "Physical page, from 1 in the file, blank pages included: cite this."},
        "page_label": {**_NULLABLE_TEXT, "description": "The folio printed on the page, where known; not the physical page."},
        "document_id": {"type": "string"},
        "document_sha256": {"type": "string"},
        "score": {"type": "number", "description": "Fused ranking score, comparable within one answer only."},
        "confidence": {
            "type": "number", "minimum": 0, "maximum": 1,
            "description": "Probability that the page holds the evidence (where evfind's ranking gives one).",
        },
        "heading": {"type": "string"},
        "section": _NULLABLE_TEXT,
        "statement": {**_NULLABLE_TEXT, "description": "The primary statement the page is, if any."},
        "matched_terms": {"type": "array", "items": {"type": "string"}},
        "note": {"type": "string", "description": "What on this page matched."},
        "evidence": {"type": "array", "items": EVIDENCE_LINE, "description": "The lines where the question's concepts meet, best first."},
        "facts": {
            "type": "array",
            "description": "Inline-XBRL facts on the page that match the question, else the figures it prints that match, best first (HTML filings; empty otherwise): the figure as the page shows it.",
            "items": {
                "type": "object",
                "properties": {
                    "concept": {"type": ["string", "null"], "description": "Null for a figure the page prints and no page tags."},
                    "period": {"type": ["string", "null"], "description": "start/end of a duration, or an instant; for a printed figure, as the page names it."},
                    "value": {"type": "string", "description": "As shown on the page."},
                    "unit": _NULLABLE_TEXT,
                    "row_label": _NULLABLE_TEXT,
                    "dimensions": {"type": ["object", "null"]},
                    "tagged_on": {"type": ["integer", "null"], "description": "The physical page that tags the fact: this page, or another where this page prints the figure untagged; null for a figure no page tags."},
                    "line": {"type": ["integer", "null"], "description": "The line of this page that prints a fact another page tags, or a figure no page tags; null for one tagged here."},
                    "tagged": {"type": "boolean", "description": "False for a figure the page prints and no page tags (HTML filings)."},
                    "scale": _NULLABLE_TEXT,
                },
                "required": ["concept", "period", "value"],
                "additionalProperties": True,
            },
        },
    },
    "required": [
        "rank", "page_number", "page_label", "document_id", "document_sha256", "score", "heading", "section",
        "statement", "matched_terms", "note", "evidence",
    ],
    "additionalProperties": True,
}
ANSWER = {
    "type": "object",
    "description": "The answer object of `evfind query --format json`.",
    "properties": {
        "question": {"type": "string"},
        "document": {**DOCUMENT, "type": ["object", "null"], "description": "The revision read; null when several were."},
        "documents": {"type": "array", "items": DOCUMENT, "description": "The revisions read, when several documents were asked."},
        "results": {"type": "array", "items": HIT, "description": "Ranked pages, best first; empty when none was found."},
        "message": {
            **_NULLABLE_TEXT,
            "description": "Why there are no results or only weak ones, what of the question was not read, or why it could not be asked.",
        },
    },
    "required": ["question", "document", "results", "message"],
    "additionalProperties": True,
}
PAGE = {
    "type": "object",
    "properties": {
        "document": DOCUMENT,
        "page_number": {"type": "integer", "minimum": 1},
        "page_label": {**_NULLABLE_TEXT, "description": "The folio printed on the page, where known."},
        "heading": {"type": "string", "description": "Headings seen on the page, ' | '-joined (\"\" when none)."},
        "section": _NULLABLE_TEXT,
        "section_heading": {**_NULLABLE_TEXT, "description": "The heading of the section the page continues."},
        "statement": _NULLABLE_TEXT,
        "line_count": {"type": "integer", "minimum": 0, "description": "Lines on the whole page."},
        "lines": {
            "type": "array",
            "description": "The page's lines (or those asked for), numbered from 1 as evidence lines are.",
            "items": {
                "type": "object",
                "properties": {"line": {"type": "integer", "minimum": 1}, "text": {"type": "string"}},
                "required": ["line", "text"],
            },
        },
    },
    "required": [
        "document", "page_number", "page_label", "heading", "section", "section_heading", "statement", "line_count",
        "lines",
    ],
    "additionalProperties": True,
}
SERVED_DOCUMENT = {
    "type": "object",
    "properties": {
        "document_id": {"type": "string"},
        "document_sha256": {"type": "string", "description": "The revision find_evidence and read_page read."},
        "form": {**_NULLABLE_TEXT, "description": "10-K, 10-Q, 8-K, earnings, annual or other."},
        "period": {
            "type": ["object", "null"],
            "description": "The period the cover page prints, and the page it is on; null when none is printed.",
            "properties": {"text": {"type": "string"}, "page_number": {"type": "integer", "minimum": 1}},
            "required": ["text", "page_number"],
        },
        "page_count": {"type": "integer", "minimum": 0},
        "labelled_pages": {"type": "integer", "minimum": 0, "description": "Pages with a printed folio known."},
        "blank_pages": {"type": "array", "items": {"type": "integer"}},
        "source_name": {"type": "string"},
        "source_kind": {"type": "string"},
        "ingested_at": {"type": "string"},
        "database": {"type": "string", "description": "The evfind database (.db) holding it."},
        "revisions": {
            "type": "array",
            "description": "Every revision of the document in its database, oldest first.",
            "items": {
                "type": "object",
                "properties": {
                    "document_sha256": {"type": "string"},
                    "page_count": {"type": "integer", "minimum": 0},
                    "ingested_at": {"type": "string"},
                    "served": {"type": "boolean"},
                },
                "required": ["document_sha256", "page_count", "ingested_at", "served"],
            },
        },
    },
    "required": [
        "document_id", "document_sha256", "form", "period", "page_count", "labelled_pages", "blank_pages",
        "source_name", "source_kind", "ingested_at", "database", "revisions",
    ],
    "additionalProperties": True,
}
DOCUMENTS = {
    "type": "object",
    "properties": {
        "documents": {"type": "array", "items": SERVED_DOCUMENT},
        "not_served": {
            "type": "array",
            "description": "Files named that are not served, and why.",
            "items": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "reason": {"type": "string"}},
                "required": ["path", "reason"],
            },
        },
    },
    "required": ["documents", "not_served"],
    "additionalProperties": True,
}

_DOCUMENT_ARGUMENT = (
    "A document id (any case, or a unique prefix of it) or the SHA-256 of a revision (or a prefix of it), "
    "as list_documents and the hits give them."
)
TOOLS: tuple[dict, ...] = (
    {
        "name": "find_evidence",
        "title": "Find the pages that hold the evidence",
        "description": (
            "Which physical pages of a served filing (10-K, 10-Q, 8-K, earnings release) hold the evidence for a "
            "question about it: 'which page states X', 'where is the cash flow statement', 'where does the "
            "filing give X' (English or Chinese: 哪一页, 出自哪页). Returns ranked pages, best first, each with "
            "page_number (the physical page counted from 1 in the file: cite it), page_label (the folio printed "
            "on the page, where known: it may differ), document_id and document_sha256 (the exact revision), a "
            "note and its evidence lines (numbered as read_page numbers them). It never computes a figure and "
            "never compares documents. Empty results, or a message, mean nothing reliable was found: say so "
            "rather than cite a page it did not return. Omit document to search every served document."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "question": {
                    "type": "string", "maxLength": MAX_QUESTION_CHARS,
                    "description": "The question in plain words, with the filing's own terms where you know them.",
                },
                "document": {"type": "string", "description": _DOCUMENT_ARGUMENT + " Omit to search all."},
                "top": {"type": "integer", "minimum": 1, "maximum": TOP_MAX, "default": TOP_DEFAULT, "description": "How many pages to list."},
                "lang": {"type": "string", "enum": ["en", "zh"], "description": "Language of notes and messages (default: the question's)."},
            },
            "required": ["question"],
            "additionalProperties": False,
        },
        "output_schema": ANSWER,
    },
    {
        "name": "read_page",
        "title": "Read a page to check a citation",
        "description": (
            "The stored text of one physical page of a served document, its lines numbered from 1 exactly as "
            "find_evidence's evidence lines are, with its printed folio (page_label) and headings: read it to "
            "check a citation before you rely on it. A SHA-256 as document reads that exact revision, even an "
            "older one a citation names."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "document": {"type": "string", "description": _DOCUMENT_ARGUMENT},
                "page": {"type": "integer", "minimum": 1, "description": "Physical page number, from 1 (not the printed folio)."},
                "lines": {
                    "type": ["integer", "string"],
                    "description": "Only these lines: one (29) or a range (\"27-31\"); omit for the whole page.",
                },
            },
            "required": ["document", "page"],
            "additionalProperties": False,
        },
        "output_schema": PAGE,
    },
    {
        "name": "list_documents",
        "title": "List the documents served",
        "description": (
            "The documents this server serves: document_id, document_sha256 of the revision read, form (10-K, "
            "10-Q, 8-K, earnings, annual, other), the period its cover page prints, page_count, and its "
            "revisions. Call it first when you must choose a document."
        ),
        "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
        "output_schema": DOCUMENTS,
    },
)

INSTRUCTIONS = (
    "evfind locates evidence in financial filings: for a question about a served filing it returns the physical "
    "pages that hold the evidence, ranked, with the document's SHA-256, the printed folio and the evidence lines. "
    "It never computes answers or compares filings. Cite only pages find_evidence returned, by physical page and "
    "document_sha256; check a page with read_page when the evidence lines do not settle it."
)
