"""Read an EDGAR HTML filing: its pages at the filer's page breaks, their text, its inline XBRL.

**What is a filing.** HTML is read as a filing when it is one of the documents EDGAR holds:
it carries inline XBRL (an ``ix:header``), or it comes in EDGAR's SGML ``<DOCUMENT>`` wrapper
(``<TYPE>``), or its text names the SEC or an SEC form ("Securities and Exchange Commission",
"Form 10-K", "Form 8-K", ...). An ordinary web page has none of these and is refused, as are a
document cut short (no ``</html>`` at its end), a zip and an XBRL instance without HTML
(extract.py tells those from their first bytes).

**Pages** (``/work/shared/edgar/README.md``): an element whose inline style says
``page-break-before: always`` (or ``break-before: page``) starts a new page, one that says
``page-break-after: always`` (``break-after: page``) ends one, counted from 1 in document order.
Content that is not displayed (``<head>``, scripts and styles, the inline-XBRL header
``ix:header``, an element styled ``display: none``) is on no page. A break with nothing displayed
after it adds no page; a break before anything is displayed makes no blank first page; between
two breaks with nothing displayed in between, a blank page. Displayed is text other than
white space (a no-break space and the zero-width characters are white space here) or an image.
Only inline styles are read: the filings EDGAR accepts style their page breaks inline.

**Text**, laid out as a reader sees the page, in document order: a block (paragraph, division,
heading, list item, line break) on a line of its own; a table row on one line, its cells
apart, one space between them as the PDF text has it ("Net sales $ 1,234 $ 1,100"); a cell
that is only a closing bracket or a row of one cell keeps its own lines. White space runs are
one space (HTML's rule); entities are decoded; no-break spaces, soft hyphens and zero-width
characters are kept in this raw text, and ``text.normalise`` folds them as for a PDF.
Inline-XBRL elements are transparent to the text.

**Facts**: every ``ix:nonFraction`` and ``ix:nonNumeric`` shown on a page, with its context's
period and dimensions and its unit (xbrl.py), on the page where it is first displayed; text
blocks (``...TextBlock``) are kept as where each runs, through its ``ix:continuation`` chain.
Facts in the hidden header (``ix:hidden``) are on no page and not kept.

The parser is lxml's (libxml2's HTML parser, in C): a 4 MB filing parses in about 60 ms and
stays well under 400 MB, it recovers from the markup EDGAR documents hold (XHTML with
namespaces, SGML wrappers, unclosed tags of older filings) without failing, and it is imported
only here, by ingest and `evfind show --html`, never by a query. Ingest reads the document as
the parser's target (``walk``: the walk of htmlwalk.py is called with each element as libxml2
reads it, and no tree is built); `evfind show --html` parses the tree (``parse``) and walks it
with the same rules.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import limits
from .errors import SourceError
from .htmlwalk import HtmlFiling, Walk  # noqa: F401 (the walk's home is htmlwalk.py; kept importable here)

# The largest HTML file read. The largest of the 18 development filings is 3.9 MB; EDGAR's
# largest primary documents are some tens of megabytes. A parsed tree is about 25 times the
# file's size (`show --html` parses one), so a file at the bound stays near 2.5 GB; ingest
# builds no tree.
MAX_HTML_BYTES = 100 * 1024 * 1024

# What makes HTML a filing (see the module's docstring).
_INLINE_XBRL = re.compile(rb"<[a-z][\w.-]*:header[\s/>]", re.I)
_SEC_MARKER = re.compile(
    rb"securities\s+and\s+exchange\s+commission|\bform\s+(?:10-k|10-q|8-k|20-f|40-f|6-k|10-kt|10-qt|s-1|s-3|s-4|f-1|n-csr)\b",
    re.I,
)
_SGML = re.compile(rb"^\s*<document>\s*<type>[^\n<]*", re.I)
_SGML_TEXT = re.compile(rb"<text>", re.I)
_SGML_END = re.compile(rb"</text>", re.I)
_HTML_END = re.compile(rb"</html\s*>\s*$", re.I)
_XML_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", re.I)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?([A-Za-z0-9._-]+)", re.I)


# --------------------------------------------------------------------------------------------
# Bytes -> a parsed document


def html_bytes(path: Path) -> bytes:
    """The file's bytes, within MAX_HTML_BYTES."""
    size = path.stat().st_size
    if size > MAX_HTML_BYTES:
        raise SourceError(f"{path}: {size} bytes of HTML; evfind reads HTML files of at most {MAX_HTML_BYTES} bytes")
    return path.read_bytes()


def document_bytes(data: bytes, where: str) -> bytes:
    """The HTML of a file: inside EDGAR's SGML wrapper (<DOCUMENT><TYPE>...<TEXT> ... </TEXT>)
    where it has one, else the file. A document cut short (no </html> at its end) is refused."""
    if _SGML.match(data):
        opening = _SGML_TEXT.search(data)
        if opening is None:
            raise SourceError(f"{where}: an EDGAR <DOCUMENT> without its <TEXT>: not a filing's HTML")
        closing = _SGML_END.search(data, opening.end())
        data = data[opening.end(): closing.start() if closing else len(data)]
    if not _HTML_END.search(data[-4096:]):
        raise SourceError(f"{where}: the HTML ends before </html>: a truncated file? (download it again)")
    return data


def is_filing(data: bytes) -> tuple[bool, bool]:
    """(is it a filing, does it carry inline XBRL): the test of the module's docstring, on the
    document's bytes (and ``wrapped``, its SGML wrapper, by the caller)."""
    inline = _INLINE_XBRL.search(data) is not None
    return inline or _SEC_MARKER.search(data) is not None, inline


def encoding_of(data: bytes) -> str:
    """The document's encoding: its XML declaration's, its <meta> charset, else UTF-8 where the
    bytes are UTF-8, else Windows-1252 (what older EDGAR HTML is written in)."""
    head = data[:4096]
    found = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
    if found:
        name = found.group(1).decode("ascii").lower()
        if name in ("ascii", "us-ascii", "iso-8859-1", "latin-1", "latin1"):
            return "windows-1252"  # (a superset, as browsers read them)
        return name
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "windows-1252"


def _parser(data: bytes, target=None):
    """lxml's HTML parser for the document (tags and attribute names in lower case; comments and
    processing instructions dropped), building a tree, or calling ``target``'s events."""
    from lxml import etree  # only ingest and `evfind show --html` pay for the parser

    options = {"huge_tree": True, "remove_comments": True, "remove_pis": True, "no_network": True, "target": target}
    try:
        return etree.HTMLParser(encoding=encoding_of(data), **options)
    except LookupError:
        return etree.HTMLParser(encoding="windows-1252", **options)


def parse(data: bytes):
    """The root element of the document, parsed by lxml's HTML parser; None where it holds none."""
    from lxml import etree

    try:
        root = etree.fromstring(data, _parser(data))
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        root = None
    return root


def walk(data: bytes) -> HtmlFiling | None:
    """The pages of the document (``Walk``), read as lxml's HTML parser reads it: the walk is its
    target, so no tree is built; None where the document holds no element (where ``parse``
    finds no root)."""
    from lxml import etree

    walker = Walk()
    try:
        filing = etree.fromstring(data, _parser(data, walker))
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    return filing if walker.ix is not None else None


def check(path: str | Path) -> tuple[bytes, bool]:
    """The document's bytes (inside an SGML wrapper) and whether it carries inline XBRL, where
    the file is a whole HTML filing (see the module's docstring); else the SourceError that says
    why not. Cheap: no parse (ask-a-file checks a file with it before it says it ingests it)."""
    path = Path(path)
    where = str(path)
    data = html_bytes(path)
    wrapped = _SGML.match(data) is not None
    data = document_bytes(data, where)
    filing, inline = is_filing(data)
    if not (filing or wrapped):
        raise SourceError(
            f"{where}: an HTML page, not a filing: it has no inline XBRL, no EDGAR <DOCUMENT> wrapper and "
            "names no SEC form (give the filing's own document, e.g. the 10-K's .htm from EDGAR)"
        )
    return data, inline


def read(path: str | Path) -> HtmlFiling:
    """Every page of an HTML filing (see the module's docstring), or the one-line SourceError
    that says why the file is not one."""
    where = str(path)
    data, inline = check(path)
    result = walk(data)
    if result is None:
        raise SourceError(f"{where}: lxml cannot read the HTML (an empty or damaged document)")
    if not result.texts:
        raise SourceError(f"{where}: the HTML displays nothing: no page to read")
    limits.check_page_count(len(result.texts), where)
    for number, text in enumerate(result.texts, start=1):
        limits.check_page_text(text, f"{where}: page {number}")
    result.inline_xbrl = inline
    return result
