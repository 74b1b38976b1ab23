"""What a source file holds, told from its name and first bytes: a PDF, an HTML filing, or neither.

Pure and light (no parser, no dataclass): the CLI asks it of every path given where a database
may go (`evfind query report.pdf ...`, `evfind query filing.htm ...`), and a query on a .db
must not pay for more than a look at the file's first bytes.
"""

from __future__ import annotations

import re

from .text import LazyPattern

PDF_SUFFIXES = (".pdf",)
HTML_SUFFIXES = (".htm", ".html", ".xhtml")
# How far into a file its HTML start is looked for: EDGAR documents may open with an XML
# declaration, comments of the software that wrote them (a few hundred bytes) or an SGML
# <DOCUMENT> header (<TYPE>, <SEQUENCE>, <FILENAME>, <DESCRIPTION>, <TEXT>) before <html>.
HEAD_BYTES = 8192

_BOM = b"\xef\xbb\xbf"
# compiled on first use: a query on a .db reads its first bytes and needs none of them
_HTML_START = LazyPattern(rb"<(?:!doctype\s+html|html|head|body)[\s>/]", re.IGNORECASE)
_SGML_DOCUMENT = LazyPattern(rb"^<document>\s*<type>", re.IGNORECASE)
_XBRL_INSTANCE = LazyPattern(rb"<(?:[a-z][\w.-]*:)?xbrl[\s>]", re.IGNORECASE)


def is_pdf_bytes(head: bytes) -> bool:
    return head.lstrip(_BOM + b" \t\r\n").startswith(b"%PDF-")


def is_html_bytes(head: bytes) -> bool:
    """Do these first bytes of a file open an HTML document: <html>, <!DOCTYPE html>, <head>
    or <body> near the start (after an XML declaration and comments), or an EDGAR SGML
    <DOCUMENT> wrapper?"""
    start = head.lstrip(_BOM + b" \t\r\n")
    if not start.startswith(b"<"):
        return False
    if _SGML_DOCUMENT.match(start):
        return True
    return _HTML_START.search(start) is not None


def is_xbrl_instance(head: bytes) -> bool:
    """An XBRL instance document (<xbrli:xbrl> or <xbrl>), which holds facts but no pages."""
    start = head.lstrip(_BOM + b" \t\r\n")
    return start.startswith(b"<") and _XBRL_INSTANCE.search(start) is not None and not is_html_bytes(start)


def read_head(path, size: int = HEAD_BYTES) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(size)


def looks_like_source(path) -> bool:
    """A source file given where a database goes: a PDF or an HTML file (named .pdf/.htm/.html,
    or starting as one does), or what a filing is mistaken for (a zip, an XBRL instance), which
    ingest then refuses with its own reason. (An SQLite file starts as none of these.)"""
    from pathlib import Path

    suffix = Path(path).suffix.lower()
    if suffix in PDF_SUFFIXES or suffix in HTML_SUFFIXES:
        return True
    try:
        head = read_head(path, HEAD_BYTES)
    except OSError:
        return False
    if head.startswith(b"SQLite format 3\x00"):
        return False
    return is_pdf_bytes(head) or is_html_bytes(head) or head.startswith(b"PK\x03\x04") or is_xbrl_instance(head)
