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
only here, by ingest and `evfind show --html`, never by a query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .errors import SourceError
from .xbrl import Fact, TextBlock, fact, is_text_block, local, prefixes, read_resources

# The largest HTML file read. The largest of the 18 development filings is 3.9 MB; EDGAR's
# largest primary documents are some tens of megabytes. Peak memory is about 25 times the
# file's size (the parsed tree), so a file at the bound stays near 2.5 GB.
MAX_HTML_BYTES = 100 * 1024 * 1024

_SKIPPED = frozenset({"head", "script", "style", "title", "noscript", "template", "meta", "link", "object", "iframe"})
_BLOCKS = frozenset({
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody", "tfoot",
    "blockquote", "pre", "center", "section", "article", "header", "footer", "nav", "aside", "main",
    "dl", "dt", "dd", "address", "form", "fieldset", "caption", "hr", "figure", "figcaption", "body", "html",
})
_WHITE = re.compile(r"[ \t\n\r\f\v]+")
# What is not displayed, though a character: white space and the zero-width characters.
_INVISIBLE = str.maketrans("", "", "\u00a0\u200b\u200c\u200d\u2060\ufeff\u00ad \t\n\r\f\v")
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)
_BREAK_BEFORE = re.compile(r"(?:^|;)\s*(?:page-break-before\s*:\s*always|break-before\s*:\s*page)\b", re.I)
_BREAK_AFTER = re.compile(r"(?:^|;)\s*(?:page-break-after\s*:\s*always|break-after\s*:\s*page)\b", re.I)
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


@dataclass
class HtmlFiling:
    """An HTML filing read: the raw text of each page (blank pages as ""), its facts, where its
    text blocks run, and whether it is inline XBRL."""

    texts: list[str]
    facts: list[Fact] = field(default_factory=list)
    blocks: list[TextBlock] = field(default_factory=list)
    inline_xbrl: bool = False


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


def parse(data: bytes):
    """The root element of the document, parsed by lxml's HTML parser (tags and attribute
    names in lower case; comments and processing instructions dropped)."""
    from lxml import etree  # only ingest and `evfind show --html` pay for the parser

    try:
        parser = etree.HTMLParser(encoding=encoding_of(data), huge_tree=True, remove_comments=True,
                                  remove_pis=True, no_network=True)
    except LookupError:
        parser = etree.HTMLParser(encoding="windows-1252", huge_tree=True, remove_comments=True,
                                  remove_pis=True, no_network=True)
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        root = None
    return root


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
    root = parse(data)
    if root is None:
        raise SourceError(f"{where}: lxml cannot read the HTML (an empty or damaged document)")
    result = Walk(root).run()
    if not result.texts:
        raise SourceError(f"{where}: the HTML displays nothing: no page to read")
    limits.check_page_count(len(result.texts), where)
    for number, text in enumerate(result.texts, start=1):
        limits.check_page_text(text, f"{where}: page {number}")
    result.inline_xbrl = inline
    return result


# --------------------------------------------------------------------------------------------
# The walk: one pass over the tree, in document order


class _Row:
    """A table row being read: its cells' lines, and the facts shown in it."""

    __slots__ = ("cells", "facts", "cell", "line", "outer")

    def __init__(self, outer: list[str]) -> None:
        self.cells: list[list[str]] = []
        self.facts: list[tuple[Fact, int]] = []  # (fact, the cell it is in)
        self.cell: list[str] | None = None  # the lines of the cell being read
        self.line: list[str] = []  # the cell's line being read
        # Where text goes outside its cells: the line of the cell of the innermost row around
        # it that has one open, else the page's line (it stays so while the row is open: the
        # rows around it change only at their own cells, which lie outside it).
        self.outer = outer


class Walk:
    """One pass over a parsed filing: pages of text, facts and text blocks, by the rules of the
    module's docstring. ``capture`` (a page number) also copies that page's elements into
    ``captured`` (an lxml element), for `evfind show --html`."""

    def __init__(self, root, capture: int | None = None):
        self.root = root
        self.ix = prefixes(root.attrib) if root is not None else {"ix"}
        self.pages: list[str] = []  # the pages closed so far ("" for a blank one)
        self.shown: list[bool] = []  # whether each closed page displays anything
        self.lines: list[str] = []  # the lines of the open page
        self.line: list[str] = []  # the fragments of the open line
        self.cur = self.line  # where text goes: the open line, or the line of the cell being read
        self.displayed = False  # the open page displays something
        self.anything = False  # something has been displayed
        self.rows: list[_Row] = []
        self.facts: list[Fact] = []
        self.pending: list[Fact] = []  # facts waiting for their first displayed content
        self.blocks: list[tuple[str, int, int, str | None, str]] = []  # concept, first, last, continuedat, heading
        self.continuations: dict[str, tuple[int, int, str | None]] = {}
        self.opening: list[list] = []  # text blocks waiting for their first line: [index]
        self.contexts: dict = {}
        self.units: dict = {}
        self._names: dict[str, str] = {}  # an inline-XBRL tag -> its local name
        self.capture = capture
        self.captured = None  # the captured page's copies, in a <div>
        self._path: list = []  # the elements open (capture only)
        self._out: list = []  # their copies, None where not yet made

    # -- the page as it is read

    @property
    def page(self) -> int:
        """The number of the open page."""
        return len(self.pages) + 1

    def show(self) -> None:
        """Something is displayed on the open page."""
        self.displayed = self.anything = True
        if self.pending:
            for waiting in self.pending:
                waiting.page = self.page
            self.pending.clear()

    def newline(self) -> None:
        cur = self.cur
        if not cur:
            return
        joined = "".join(cur).strip()
        cur.clear()
        if joined:
            self.emit(joined)

    def emit(self, line: str) -> None:
        """A finished line: into the cell of the row that holds this table, else onto the page."""
        row = self.rows[-1] if self.rows else None
        if row is not None and row.cell is not None:
            row.cell.append(line)
            return
        self.lines.append(line)
        if self.opening:
            for waiting in self.opening:
                waiting[4] = line
            self.opening.clear()

    def page_break(self) -> None:
        self.newline()
        if not self.anything:
            return  # a break before anything is displayed: no blank first page
        self.pages.append("\n".join(self.lines))
        self.shown.append(self.displayed)
        self.lines = []
        self.displayed = False

    def finish(self) -> HtmlFiling:
        self.newline()
        while self.rows:
            self.row_end()
        if self.displayed:
            self.pages.append("\n".join(self.lines))
            self.shown.append(True)
        while self.shown and not self.shown[-1]:  # breaks with nothing displayed after them
            self.pages.pop()
            self.shown.pop()
        last = len(self.pages)
        for waiting in self.pending:  # a fact that displays nothing: where it stands
            waiting.page = min(waiting.page, last) if last else 1
        blocks = [
            TextBlock(concept, first, self._last_page(last_page, follow, set()), " ".join(heading.split())[:200])
            for concept, first, last_page, follow, heading in self.blocks
        ]
        facts = [f for f in self.facts if 1 <= f.page <= last]
        return HtmlFiling(self.pages, facts, blocks)

    def _last_page(self, last: int, follow: str | None, seen: set[str]) -> int:
        while follow and follow not in seen and follow in self.continuations:
            seen.add(follow)
            _, end, follow = self.continuations[follow]
            last = max(last, end)
        return min(last, len(self.pages)) if self.pages else last

    # -- table rows

    def row_start(self) -> None:
        self.newline()
        outer = self.line
        for row in reversed(self.rows):
            if row.cell is not None:
                outer = row.line
                break
        self.rows.append(_Row(outer))

    def cell_start(self) -> None:
        row = self.rows[-1] if self.rows else None
        if row is None:
            self.newline()
            return
        if row.cell is not None:  # the cell before it was not closed
            self.cell_end()
        if self.cur:  # (text between the row and its cell)
            self.newline()
        row.cell = []
        self.cur = row.line = []

    def cell_end(self) -> None:
        row = self.rows[-1] if self.rows else None
        if row is None:
            self.newline()
            return
        cell = row.cell
        if cell is None:
            return
        if row.line:
            joined = "".join(row.line).strip()
            if joined:
                cell.append(joined)
        row.cells.append(cell)
        row.cell = None
        self.cur = row.outer

    def row_end(self) -> None:
        rows = self.rows
        row = rows[-1]
        self.cell_end()
        self.newline()
        rows.pop()
        self.cur = rows[-1].outer if rows else self.line
        cells = [(index, cell) for index, cell in enumerate(row.cells) if cell]
        if row.facts:
            label = _row_label(cells)
            for found, cell in row.facts:
                if label is not None and cell != label[0] and found.row_label is None:
                    found.row_label = label[1]
        if len(cells) == 1:
            for line in cells[0][1]:
                self.emit(line)
            return
        if not cells:
            return
        parts: list[str] = []
        for _, cell in cells:
            joined = " ".join(cell)
            if parts and joined[:1] in ")%" and len(joined) <= 2 and joined != "%":
                parts[-1] += joined  # "(1,234" ")" -> "(1,234)"
            else:
                parts.append(joined)
        self.emit(" ".join(parts))

    # -- the walk itself

    def run(self) -> HtmlFiling:
        from lxml import etree

        for prefix in self.ix:  # the contexts and units, wherever the header is (often in a hidden <div>)
            for header in self.root.iter(f"{prefix}:header"):
                contexts, units = read_resources(header)
                self.contexts.update(contexts)
                self.units.update(units)
        walker = etree.iterwalk(self.root, events=("start", "end"))
        skip = walker.skip_subtree
        capture = self.capture is not None
        # For each open element: _SKIP, its kind, or (its kind, what to do at its end, breaks after it).
        stack: list = []
        push, pop = stack.append, stack.pop
        kinds: dict = {}  # tag -> its kind (_kind), for the few dozen tags of a document
        names = self._names
        rows = self.rows
        white, invisible, skipped = _WHITE.sub, _INVISIBLE, _SKIP
        for event, element in walker:
            if event == "start":
                tag = element.tag
                kind = kinds.get(tag)
                if kind is None:
                    kind = kinds[tag] = self._kind(tag)
                if kind >= _HIDDEN:
                    if kind == _HIDDEN:
                        skip()
                    push(skipped)
                    continue
                ending = None
                if kind == _XBRL:
                    ending = self._xbrl_start(element, names[tag])
                style = element.get("style")
                breaks_after = False
                if style and ("none" in style or "break" in style):
                    if "none" in style and _DISPLAY_NONE.search(style):
                        skip()
                        push(skipped)
                        continue
                    if "break" in style:
                        if _BREAK_BEFORE.search(style):
                            self.page_break()
                        breaks_after = _BREAK_AFTER.search(style) is not None
                push(kind if ending is None and not breaks_after else (kind, ending, breaks_after))
                if kind:
                    if kind == _BLOCK:
                        if self.cur:
                            self.newline()
                    elif kind == _CELL:
                        if rows:  # (cell_start)
                            row = rows[-1]
                            if row.cell is not None:
                                self.cell_end()
                            if self.cur:
                                self.newline()
                            row.cell = []
                            self.cur = row.line = []
                        else:
                            self.newline()
                    elif kind == _ROW:
                        self.row_start()
                    elif kind == _BR:
                        self.newline()
                    elif kind == _IMG and not self.displayed:
                        self.show()
                if capture:
                    self._copy_start(element)
                text = element.text
                if text:
                    if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                        text = white(" ", text)
                    if not self.displayed and text.translate(invisible):
                        self.show()
                    self.cur.append(text)
                    if capture:
                        self._copy_text(text)
            else:
                item = pop()
                if item is not skipped:
                    if item.__class__ is int:
                        kind, ending = item, None
                    else:
                        kind, ending, breaks_after = item
                    if kind:
                        if kind == _BLOCK:
                            if self.cur:
                                self.newline()
                        elif kind == _CELL:
                            if rows:  # (cell_end)
                                row = rows[-1]
                                cell = row.cell
                                if cell is not None:
                                    if row.line:
                                        joined = "".join(row.line).strip()
                                        if joined:
                                            cell.append(joined)
                                    row.cells.append(cell)
                                    row.cell = None
                                    self.cur = row.outer
                            else:
                                self.newline()
                        elif kind == _ROW:
                            if rows:
                                self.row_end()
                    if item.__class__ is not int:
                        if ending is not None:
                            ending(self)
                        if capture:
                            self._copy_end()
                        if breaks_after:
                            self.page_break()
                    elif capture:
                        self._copy_end()
                tail = element.tail
                if tail and stack:
                    if "\n" in tail or "  " in tail or "\t" in tail or "\r" in tail:
                        tail = white(" ", tail)
                    if not self.displayed and tail.translate(invisible):
                        self.show()
                    self.cur.append(tail)
                    if capture:
                        self._copy_text(tail)
        return self.finish()

    def _kind(self, tag) -> int:
        """What the walk does with an element of this tag (see the kinds below)."""
        if tag.__class__ is not str:
            return _OTHER
        if ":" in tag and tag.rpartition(":")[0] in self.ix:
            name = tag.rpartition(":")[2]
            if name == "header":
                return _HIDDEN
            self._names[tag] = name
            return _XBRL
        if tag in _SKIPPED:
            return _HIDDEN
        if tag in _BLOCKS:
            return _BLOCK
        if tag in _CELLS:
            return _CELL
        return {"tr": _ROW, "br": _BR, "img": _IMG}.get(tag, _INLINE)

    def _xbrl_start(self, element, name: str):
        """A fact, a text block or a continuation begins: note it; what to do at its end."""
        if name in ("nonfraction", "nonnumeric"):
            concept = element.get("name") or ""
            if name == "nonnumeric" and is_text_block(concept):
                self.newline()  # (what came before is no part of its first line)
                record = [concept, self.page, self.page, element.get("continuedat"), ""]
                self.blocks.append(record)
                self.opening.append(record)
                if not self.displayed:
                    self.pending.append(_PageHolder(record, 1))
                return _BlockEnd(record)
            found = fact(element, self.page, self.contexts, self.units, _shown(element), name == "nonfraction")
            self.facts.append(found)
            if not self.displayed:
                self.pending.append(found)  # its page: where its first content is displayed
            if self.rows:
                row = self.rows[-1]
                row.facts.append((found, len(row.cells)))
            return None
        if name == "continuation" and element.get("id"):
            record = [self.page, self.page, element.get("continuedat")]
            if not self.displayed:
                self.pending.append(_PageHolder(record, 0))
            return _ContinuationEnd(element.get("id"), record)
        return None

    def last_shown(self) -> int:
        """The last page something has been displayed on, so far."""
        if self.displayed:
            return self.page
        for index in range(len(self.shown) - 1, -1, -1):
            if self.shown[index]:
                return index + 1
        return 1

    # -- copying one page's elements (show --html): the open elements, and their copies made
    # once the captured page shows something inside them

    def _copy_start(self, element) -> None:
        self._path.append(element)
        self._out.append(None)
        if self.page == self.capture:
            self._materialise()

    def _materialise(self):
        from lxml import etree

        if self.captured is None:
            self.captured = etree.Element("div")
        parent = self.captured
        for index, element in enumerate(self._path):
            copy = self._out[index]
            if copy is None:
                if element.tag in ("html", "body"):
                    copy = parent
                else:  # inline XBRL (ix:...) is transparent: a <span>
                    tag = "span" if ":" in element.tag else element.tag
                    copy = etree.SubElement(parent, tag, {k: v for k, v in element.attrib.items() if ":" not in k})
                self._out[index] = copy
            parent = copy
        return parent

    def _copy_text(self, text: str) -> None:
        if self.page != self.capture:
            return
        node = self._materialise()
        if len(node):
            node[-1].tail = (node[-1].tail or "") + text
        else:
            node.text = (node.text or "") + text

    def _copy_end(self) -> None:
        self._path.pop()
        self._out.pop()

_SKIP = object()
_CELLS = frozenset({"td", "th"})
# The kinds of element: inline (transparent), a block (a line of its own), a table cell, a
# table row, a line break, an image (displayed), an inline-XBRL element (transparent; a fact,
# a text block or a continuation begins), one whose content is not displayed (its subtree is
# skipped), anything else lxml gives (a comment, an entity: only its tail is read).
_INLINE, _BLOCK, _CELL, _ROW, _BR, _IMG, _XBRL, _HIDDEN, _OTHER = range(9)


class _BlockEnd:
    """At a text block's end: its last page, and its first where it displayed nothing."""

    __slots__ = ("record",)

    def __init__(self, record: list):
        self.record = record

    def __call__(self, walk: "Walk") -> None:
        record = self.record
        record[2] = max(walk.last_shown(), record[1]) if walk.anything else record[1]
        if record in walk.opening:  # a block within a line: the line so far is its first
            walk.opening.remove(record)
            record[4] = "".join(walk.cur).strip()


class _ContinuationEnd:
    __slots__ = ("ident", "record")

    def __init__(self, ident: str, record: list):
        self.ident, self.record = ident, record

    def __call__(self, walk: "Walk") -> None:
        first = self.record[0]
        walk.continuations[self.ident] = (first, max(walk.last_shown(), first), self.record[2])


class _PageHolder:
    """Stands in the pending list for a record whose page is set at its first displayed content."""

    __slots__ = ("record", "index")

    def __init__(self, record: list, index: int):
        self.record, self.index = record, index

    @property
    def page(self) -> int:
        return self.record[self.index]

    @page.setter
    def page(self, value: int) -> None:
        self.record[self.index] = value


def _shown(element) -> str:
    """A fact's value as shown: its displayed text, white space made single."""
    text = element.text or "" if not len(element) else "".join(element.itertext())
    if "\n" in text or "  " in text or "\t" in text or "\r" in text:
        text = _WHITE.sub(" ", text)
    return text.strip()


def _row_label(cells: list[tuple[int, list[str]]]) -> tuple[int, str] | None:
    """(index, text) of a row's first cell, where it holds words: the label beside its figures."""
    if not cells:
        return None
    index, lines = cells[0]
    label = " ".join(lines).strip()
    if not any(ch.isalpha() for ch in label):
        return None
    return index, label
