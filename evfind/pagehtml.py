"""The page as filed: one physical page of an HTML filing as its own HTML, sanitised, the question's
terms marked.

    >>> from evfind.ingest import ingest
    >>> from evfind.pagehtml import page_html
    >>> db = ingest("filing.htm").db_path              # records where filing.htm is
    >>> html = page_html(db, 3, question="What were net sales in 2025?")
    >>> "<table" in html and "<mark>Net</mark> <mark>sales</mark>" in html
    True

**Where the HTML comes from.** Not from the database: it is cut again from the filing itself,
as a PDF's page images are rendered from the PDF: the file at the path recorded when it was
ingested, or its bytes kept in the database (``evfind ingest --embed-source``), used only while
their SHA-256 is the revision's. A page costs a parse and a walk of the file (0.1 to 0.2 s for
a 3 to 4 MB filing, measured in docs/html.md), where keeping every page's HTML, compressed,
would have made the database a fifth larger (0.37 MB more on the 1.7 MB database of a 3.9 MB
10-K) and each ingest some 30 to 60 ms slower; the text of every page, which is what evfind
cites, is always in the database.

**The page** is cut with the reader that counts the pages (htmlread.Walk, ``capture``): the
elements displayed on that page, with copies of the elements around them where the page starts
inside them, so that a table keeps its rows and a cell its style.

**Sanitised** with nh3 (ammonia): no script, no event handler, no link, image, form, frame or
object; only the tags of text and tables, the attributes that lay them out (colspan, rowspan,
align, width...) and inline styles limited to properties that take no URL (text and font,
spacing, borders, widths, alignment), so the page loads nothing from anywhere. The document
written around it forbids any load as well (a Content-Security-Policy of ``default-src 'none'``).
"""

from __future__ import annotations

import hashlib
import html as _html
import os
from collections.abc import Sequence
from pathlib import Path

from . import store
from .errors import NoPageHtmlError

# What the sanitised page keeps (nh3): the tags of text and tables ...
TAGS = frozenset({
    "div", "p", "span", "br", "hr", "b", "strong", "i", "em", "u", "s", "sub", "sup", "small", "font",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre", "center",
    "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col", "mark",
})
# ... the attributes that lay them out ...
ATTRIBUTES = {
    "*": {"style", "align", "valign", "width", "height", "title"},
    "td": {"colspan", "rowspan", "nowrap"},
    "th": {"colspan", "rowspan", "nowrap", "scope"},
    "col": {"span"},
    "colgroup": {"span"},
    "table": {"cellpadding", "cellspacing", "border"},
    "font": {"size", "color", "face"},
    "ol": {"start", "type"},
}
# ... and the style properties that take no URL (no background-image, list-style-image, content,
# cursor, behaviour or position).
STYLES = frozenset({
    "color", "background-color", "font", "font-family", "font-size", "font-style", "font-weight",
    "font-variant", "text-align", "text-decoration", "text-indent", "text-transform", "vertical-align",
    "letter-spacing", "word-spacing", "white-space", "line-height", "width", "min-width", "max-width",
    "height", "min-height", "margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
    "padding", "padding-top", "padding-right", "padding-bottom", "padding-left", "border",
    "border-top", "border-right", "border-bottom", "border-left", "border-width", "border-style",
    "border-color", "border-collapse", "border-spacing", "border-top-width", "border-bottom-width",
    "border-left-width", "border-right-width", "border-top-style", "border-bottom-style",
    "border-left-style", "border-right-style", "border-top-color", "border-bottom-color",
    "border-left-color", "border-right-color", "display", "float", "clear", "overflow",
})
# Tags dropped with their content (what they hold is no text of the page).
DROPPED = frozenset({"script", "style", "title", "noscript", "template", "iframe", "object", "embed", "svg", "math"})
MARK = "mark"
POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def sanitise(fragment: str) -> str:
    """HTML made safe to show (see the module's docstring): nh3 with evfind's allowances."""
    import nh3  # only `evfind show --html` and the Datasette page view pay for it

    return nh3.clean(
        fragment,
        tags=set(TAGS),
        attributes={tag: set(names) for tag, names in ATTRIBUTES.items()},
        clean_content_tags=set(DROPPED),
        filter_style_properties=set(STYLES),
        strip_comments=True,
        link_rel=None,
        url_schemes=set(),
    )


# --------------------------------------------------------------------------------------------
# The filing's bytes


def filing_bytes(conn, revision: store.Revision, db_path: str | os.PathLike) -> bytes:
    """The bytes of a revision's HTML filing: kept in the database, else the file at the
    recorded path; only bytes whose SHA-256 is the revision's. ``NoPageHtmlError`` says why
    there are none."""
    if revision.source_kind != "html":
        kind = {"pdf": "a PDF (its page as it looks: evfind show --png)", "jsonl": "a JSONL file",
                "text": "a text file"}.get(revision.source_kind, revision.source_kind)
        raise NoPageHtmlError(f"no page HTML: the revision was ingested from {kind}, not an HTML filing", key="not_html")
    recorded = store.source(conn, revision.revision_id)
    if recorded is None:
        raise NoPageHtmlError("no page HTML: the database does not record where the HTML filing was; ingest it again")
    if recorded.embedded:
        data = store.source_bytes(conn, revision.revision_id) or b""
        where = "the HTML filing embedded in the database"
    else:
        path = Path(recorded.path)
        try:
            data = path.read_bytes()
        except OSError:
            raise NoPageHtmlError(
                f"no page HTML: the HTML filing is not at {path} (ingest it again from where it is now, "
                "or with --embed-source)"
            ) from None
        where = f"the file at {path}"
    found = hashlib.sha256(data).hexdigest()
    if found != revision.sha256:
        raise NoPageHtmlError(
            f"no page HTML: {where} has changed (sha256 {found[:12]}, the revision's is {revision.sha256[:12]})"
        )
    return data


# --------------------------------------------------------------------------------------------
# One page


def cut_page(data: bytes, page_number: int, phrases: Sequence[str] = ()) -> str:
    """Page ``page_number`` of an HTML filing's bytes as an HTML fragment, sanitised, each
    occurrence of the phrases in ``<mark>`` (``pageimage.term_spans``: matched as the index
    matches them)."""
    from lxml import etree

    from .htmlread import Walk, document_bytes, parse

    root = parse(document_bytes(data, "the HTML filing"))
    if root is None:
        raise NoPageHtmlError("no page HTML: lxml cannot read the HTML filing")
    walk = Walk(root, capture=page_number)
    pages = walk.run().texts
    captured = walk.captured
    if captured is None or not 1 <= page_number <= len(pages):
        return ""  # (what follows the last break, displaying nothing, is no page)
    if phrases:
        mark_terms(captured, phrases)
    fragment = etree.tostring(captured, method="html", encoding="unicode")
    return sanitise(fragment[len("<div>"): -len("</div>")])  # (the reader's wrapper around the page)


def mark_terms(element, phrases: Sequence[str]) -> None:
    """Put ``<mark>`` around every occurrence of the phrases in the text of an lxml tree (within
    one text node: a phrase split across elements is not marked)."""
    from lxml import etree

    from .pageimage import term_spans

    def split(text: str):
        clean = text.replace("\x02", " ").replace("\x03", " ")
        spans = term_spans(clean, phrases)
        if not spans:
            return None
        parts, last = [], 0
        for start, end in spans:
            parts.append((text[last:start], text[start:end]))
            last = end
        return parts, text[last:]

    for node in list(element.iter()):
        if not isinstance(node.tag, str) or node.tag == MARK:
            continue
        if node.text:
            found = split(node.text)
            if found:
                parts, rest = found
                node.text = parts[0][0]
                for index, (before, term) in enumerate(parts):
                    mark = etree.Element(MARK)
                    mark.text = term
                    following = parts[index + 1][0] if index + 1 < len(parts) else rest
                    mark.tail = following
                    node.insert(index, mark)
        if node.tail and node.getparent() is not None:
            found = split(node.tail)
            if found:
                parts, rest = found
                node.tail = parts[0][0]
                parent = node.getparent()
                position = parent.index(node) + 1
                for index, (before, term) in enumerate(parts):
                    mark = etree.Element(MARK)
                    mark.text = term
                    mark.tail = parts[index + 1][0] if index + 1 < len(parts) else rest
                    parent.insert(position + index, mark)


def page_html(
    db: str | os.PathLike,
    page_number: int,
    *,
    document: str | None = None,
    sha: str | None = None,
    question: str | None = None,
) -> str:
    """One physical page of a revision (the newest, or ``sha``'s) as its own HTML, a fragment
    (``cut_page``). Raises ``NoPageHtmlError`` (why there is none) and the Finder's errors."""
    from .finder import Finder

    with Finder(db, document=document, sha=sha) as finder:
        finder.page(page_number)  # the clear error for a page the revision does not have
        with store.reading(db):
            data = filing_bytes(finder.conn, finder.revision, db)
        phrases = finder.match_terms(question) if question and question.strip() else ()
    return cut_page(data, page_number, phrases)


def document(pages: Sequence[tuple[int, str | None, str]], title: str, sha256: str) -> str:
    """A whole HTML document around page fragments ((page number, printed folio, fragment)):
    UTF-8, nothing loaded from anywhere (its Content-Security-Policy), marks highlighted."""
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
        f"<title>{_html.escape(title)}</title>",
        "<style>mark { background: #ffe200 } .evfind-page { margin: 1em auto; max-width: 60em } "
        "hr.evfind-break { border: 0; border-top: 2px dashed #999; margin: 2em 0 }</style>",
        "</head><body>",
    ]
    for index, (number, label, fragment) in enumerate(pages):
        if index:
            parts.append('<hr class="evfind-break">')
        printed = f" (printed {_html.escape(label)})" if label else ""
        parts.append(f"<!-- {_html.escape(title)}: page {number}{printed}, sha256 {sha256} -->")
        parts.append(f'<div class="evfind-page" data-page="{number}">{fragment}</div>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
