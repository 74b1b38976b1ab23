"""The walk over an HTML filing, in document order: its pages, their text, its facts and where
its text blocks run, by the rules of htmlread.py's docstring.

The walk is driven by the parser's events (``start(tag, attrib)``, ``data(text)``,
``end(tag)``, ``close()``: lxml's parser target interface). Ingest hands it to lxml's HTML
parser as its target, so the document is read in one pass and no tree is built: the parser
calls the walk as it reads (libxml2's own events, the same the tree is built from). `evfind
show --html` walks a parsed tree instead (``run``: the same events, from the tree), because it
copies the elements of one page (``capture``).

Content that is not displayed still comes as events: it is counted (``_hidden``: the depth of
the element that hides it) and passed over, but for two readers: the inline-XBRL header, whose
contexts and units are read from its events (``_header``: xbrl.Resources), and the text of a
fact, which is all the text inside its element, displayed or not (``_values``).

Ingest side; nothing here knows SQLite or questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .xbrl import Fact, Resources, TextBlock, fact, is_text_block, prefixes, resolve, shown_value

_SKIPPED = frozenset({"head", "script", "style", "title", "noscript", "template", "meta", "link", "object", "iframe"})
_BLOCKS = frozenset({
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody", "tfoot",
    "blockquote", "pre", "center", "section", "article", "header", "footer", "nav", "aside", "main",
    "dl", "dt", "dd", "address", "form", "fieldset", "caption", "hr", "figure", "figcaption", "body", "html",
})
_CELLS = frozenset({"td", "th"})
WHITE = re.compile(r"[ \t\n\r\f\v]+")
_HTML_WHITE = " \t\n\r\f\v"  # (WHITE's characters)
# What is not displayed, though a character: white space and the zero-width characters.
_INVISIBLE = str.maketrans("", "", "\u00a0\u200b\u200c\u200d\u2060\ufeff\u00ad \t\n\r\f\v")
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)
_BREAK_BEFORE = re.compile(r"(?:^|;)\s*(?:page-break-before\s*:\s*always|break-before\s*:\s*page)\b", re.I)
_BREAK_AFTER = re.compile(r"(?:^|;)\s*(?:page-break-after\s*:\s*always|break-after\s*:\s*page)\b", re.I)

# The kinds of element: inline (transparent), a block (a line of its own), a table cell, a
# table row, a line break, an image (displayed), an inline-XBRL element (transparent; a fact,
# a text block or a continuation begins), one whose content is not displayed, the inline-XBRL
# header (not displayed; its contexts and units are read).
_INLINE, _BLOCK, _CELL, _ROW, _BR, _IMG, _XBRL, _HIDDEN, _HEADER = range(9)
_SKIP = object()  # on the stack for an element whose content is not displayed


@dataclass
class HtmlFiling:
    """An HTML filing read: the raw text of each page (blank pages as ""), its facts, where its
    text blocks run, and whether it is inline XBRL."""

    texts: list[str]
    facts: list[Fact] = field(default_factory=list)
    blocks: list[TextBlock] = field(default_factory=list)
    inline_xbrl: bool = False


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
    """One pass over a filing's events: pages of text, facts and text blocks. ``capture`` (a
    page number; with ``run`` over a parsed tree) also copies that page's elements into
    ``captured`` (an lxml element), for `evfind show --html`."""

    def __init__(self, root=None, capture: int | None = None):
        self.root = root
        self.ix: set[str] | None = None  # the inline-XBRL prefixes: read off the first element
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
        self.capture = capture
        self.captured = None  # the captured page's copies, in a <div>
        self._path: list = []  # the elements open (capture only): (tag, attributes)
        self._out: list = []  # their copies, None where not yet made
        # For each open displayed element: _SKIP (the one that hides its content), its kind, or
        # (its kind, what to do at its end, whether a page break follows it).
        self._stack: list = []
        self._kinds: dict = {}  # tag -> its kind (_kind), for the few dozen tags of a document
        self._names: dict[str, str] = {}  # an inline-XBRL tag -> its local name
        self._text: list[str] = []  # the text come since the last start or end (one text node)
        self._copying = capture is not None
        # The elements open inside (and with) the one whose content is not displayed; 0: none.
        self._hidden = 0
        self._header: Resources | None = None  # the inline-XBRL header being read
        # The open facts: (their element's place on the stack, the fact, the text inside it).
        self._values: list[tuple[int, Fact, list[str]]] = []

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
        resolve(facts, self.contexts, self.units)
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

    # -- the events (lxml's parser target interface)

    def start(self, tag: str, attrib) -> None:
        kind = self._kinds.get(tag)
        if kind is None:
            kind = self._kind(tag, attrib)
        if self._hidden:
            self._hidden += 1
            if self._header is not None:
                self._header.start(tag, attrib, kind == _HEADER)
            elif kind == _HEADER:
                self._open_header(tag, attrib)
            return
        if self._text:
            self._flush()
        stack = self._stack
        if kind >= _HIDDEN:
            if kind == _HEADER:
                self._open_header(tag, attrib)
            self._hidden = 1
            stack.append(_SKIP)
            return
        ending = None
        if kind == _XBRL:
            ending = self._xbrl_start(attrib, self._names[tag], len(stack) + 1)
        style = attrib.get("style")
        if style and ("none" in style or "break" in style):
            breaks_after = False
            if "none" in style and _DISPLAY_NONE.search(style):
                self._hidden = 1
                stack.append(_SKIP)
                return
            if "break" in style:
                if _BREAK_BEFORE.search(style):
                    self.page_break()
                breaks_after = _BREAK_AFTER.search(style) is not None
            stack.append(kind if ending is None and not breaks_after else (kind, ending, breaks_after))
        else:
            stack.append(kind if ending is None else (kind, ending, False))
        if kind:
            if kind == _CELL:
                rows = self.rows
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
            elif kind == _BLOCK:
                if self.cur:
                    self.newline()
            elif kind == _ROW:
                self.row_start()
            elif kind == _BR:
                self.newline()
            elif kind == _IMG and not self.displayed:
                self.show()
        if self._copying:
            self._copy_start(tag, attrib)

    def data(self, text: str) -> None:
        if self._values:
            for _, _, value in self._values:
                value.append(text)
        if self._hidden:
            if self._header is not None:
                self._header.data(text)
            return
        self._text.append(text)

    def end(self, tag: str) -> None:
        if self._hidden:
            self._hidden -= 1
            if self._header is not None:
                if self._header.end():
                    self._close_header()
            if not self._hidden:  # the element that hid its content ends
                if self._values and self._values[-1][0] == len(self._stack):
                    self._close_value()
                self._stack.pop()
            return
        if self._text:
            self._flush()
        stack = self._stack
        if self._values and self._values[-1][0] == len(stack):
            self._close_value()
        item = stack.pop()
        if not item:  # an inline element (the most)
            if self._copying:
                self._copy_end()
            return
        if item == _CELL:  # a plain table cell (the most of the rest): cell_end, inline
            rows = self.rows
            if not rows:
                self.newline()
            elif (cell := (row := rows[-1]).cell) is not None:
                if row.line and (joined := "".join(row.line).strip()):
                    cell.append(joined)
                row.cells.append(cell)
                row.cell = None
                self.cur = row.outer
            if self._copying:
                self._copy_end()
            return
        if item.__class__ is int:
            kind, ending, breaks_after = item, None, False
        else:
            kind, ending, breaks_after = item
        if kind == _BLOCK:
            if self.cur:
                self.newline()
        elif kind == _CELL:
            self.cell_end()
        elif kind == _ROW:
            if self.rows:
                self.row_end()
        if ending is not None:
            ending(self)
        if self._copying:
            self._copy_end()
        if breaks_after:
            self.page_break()

    def close(self) -> HtmlFiling:
        if self._text:
            self._flush()  # (text after the document's last element is on no page)
        return self.finish()

    def _flush(self) -> None:
        """The text come since the last event: one text node, as the tree holds it."""
        chunks = self._text
        text = chunks[0] if len(chunks) == 1 else "".join(chunks)
        chunks.clear()
        if not text or not self._stack:
            return  # (after the document's last element)
        if not text.strip(_HTML_WHITE):  # (the most: the white space between two tags)
            text = " "
        else:
            if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                text = WHITE.sub(" ", text)
            if not self.displayed and text.translate(_INVISIBLE):
                self.show()
        self.cur.append(text)
        if self._copying:
            self._copy_text(text)

    def run(self) -> HtmlFiling:
        """Walk the parsed tree ``root``: its events, as the parser gives them."""
        from lxml import etree

        start, end, data = self.start, self.end, self.data
        for event, element in etree.iterwalk(self.root, events=("start", "end")):
            tag = element.tag
            if event == "start":
                if tag.__class__ is str:
                    start(tag, element.attrib)
                    if element.text:
                        data(element.text)
            else:
                if tag.__class__ is str:
                    end(tag)
                if element.tail and element is not self.root:
                    data(element.tail)
        return self.close()

    def _kind(self, tag, attrib) -> int:
        """What the walk does with an element of this tag (see the kinds above)."""
        if self.ix is None:  # the first element: the document's root
            self.ix = prefixes(attrib)
        kind = _INLINE
        if ":" in tag and tag.rpartition(":")[0] in self.ix:
            name = tag.rpartition(":")[2]
            if name == "header":
                kind = _HEADER
            else:
                self._names[tag] = name
                kind = _XBRL
        elif tag in _SKIPPED:
            kind = _HIDDEN
        elif tag in _BLOCKS:
            kind = _BLOCK
        elif tag in _CELLS:
            kind = _CELL
        else:
            kind = {"tr": _ROW, "br": _BR, "img": _IMG}.get(tag, _INLINE)
        self._kinds[tag] = kind
        return kind

    # -- inline XBRL

    def _open_header(self, tag: str, attrib) -> None:
        self._header = Resources()
        self._header.start(tag, attrib, True)

    def _close_header(self) -> None:
        """The contexts and units of the header read (those of a header inside it too)."""
        self.contexts.update(self._header.contexts)
        self.units.update(self._header.units)
        self._header = None

    def _close_value(self) -> None:
        _, found, value = self._values.pop()
        found.value = shown_value("".join(value), found.kind == "numeric")

    def _xbrl_start(self, attrib, name: str, place: int):
        """A fact, a text block or a continuation begins: note it; what to do at its end."""
        if name in ("nonfraction", "nonnumeric"):
            concept = attrib.get("name") or ""
            if name == "nonnumeric" and is_text_block(concept):
                self.newline()  # (what came before is no part of its first line)
                record = [concept, self.page, self.page, attrib.get("continuedat"), ""]
                self.blocks.append(record)
                self.opening.append(record)
                if not self.displayed:
                    self.pending.append(_PageHolder(record, 1))
                return _BlockEnd(record)
            found = fact(attrib, self.page, name == "nonfraction")
            self._values.append((place, found, []))
            self.facts.append(found)
            if not self.displayed:
                self.pending.append(found)  # its page: where its first content is displayed
            if self.rows:
                row = self.rows[-1]
                row.facts.append((found, len(row.cells)))
            return None
        if name == "continuation" and attrib.get("id"):
            record = [self.page, self.page, attrib.get("continuedat")]
            if not self.displayed:
                self.pending.append(_PageHolder(record, 0))
            return _ContinuationEnd(attrib.get("id"), record)
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

    def _copy_start(self, tag: str, attrib) -> None:
        self._path.append((tag, attrib))
        self._out.append(None)
        if self.page == self.capture:
            self._materialise()

    def _materialise(self):
        from lxml import etree

        if self.captured is None:
            self.captured = etree.Element("div")
        parent = self.captured
        for index, (tag, attrib) in enumerate(self._path):
            copy = self._out[index]
            if copy is None:
                if tag in ("html", "body"):
                    copy = parent
                else:  # inline XBRL (ix:...) is transparent: a <span>
                    copy = etree.SubElement(parent, "span" if ":" in tag else tag,
                                            {k: v for k, v in attrib.items() if ":" not in k})
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


class _BlockEnd:
    """At a text block's end: its last page, and its first where it displayed nothing."""

    __slots__ = ("record",)

    def __init__(self, record: list):
        self.record = record

    def __call__(self, walk: Walk) -> None:
        record = self.record
        record[2] = max(walk.last_shown(), record[1]) if walk.anything else record[1]
        if record in walk.opening:  # a block within a line: the line so far is its first
            walk.opening.remove(record)
            record[4] = "".join(walk.cur).strip()


class _ContinuationEnd:
    __slots__ = ("ident", "record")

    def __init__(self, ident: str, record: list):
        self.ident, self.record = ident, record

    def __call__(self, walk: Walk) -> None:
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


def _row_label(cells: list[tuple[int, list[str]]]) -> tuple[int, str] | None:
    """(index, text) of a row's first cell, where it holds words: the label beside its figures."""
    if not cells:
        return None
    index, lines = cells[0]
    label = " ".join(lines).strip()
    if not any(ch.isalpha() for ch in label):
        return None
    return index, label
