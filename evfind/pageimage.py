"""The page as it looks: one physical page of the source PDF as a PNG, the question's terms boxed.

    >>> from evfind.ingest import ingest
    >>> from evfind.pageimage import page_png, png_size
    >>> db = ingest("report.pdf").db_path              # records where report.pdf is
    >>> png = page_png(db, 10, question="What were capital expenditures?")
    >>> png_size(png)                                  # a US Letter page at 1.5 pixels a point
    (918, 1188)

An image is made only from bytes whose SHA-256 is the revision's: the PDF kept in the database
(``evfind ingest --embed-source``), else the file at the path recorded when it was ingested,
hashed once per process for each (path, size, modification time). Where there are no such
bytes, ``NoPageImageError`` says why in one line ("no page image: the source PDF is not at
/path/report.pdf ...").

pdfium renders the page and gives the boxes of its characters; a box is a rectangle drawn by
pdfium onto the page before it is rendered (a highlighter's yellow, multiplied into the page so
the text stays black, with a thin border), and the PNG is written here with zlib: no imaging
library. pypdfium2 is imported inside the functions that render, so a query never loads it.
Which characters are boxed is decided by ``term_spans``, the one place that finds the terms.
"""

from __future__ import annotations

import hashlib
import math
import os
import struct
import threading
import zlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from . import evidence, store
from .errors import NoPageImageError, UsageError
from .text import normalise

DEFAULT_SCALE = 1.5  # pixels per PDF point (108 dpi): a US Letter page is 918 x 1188 pixels
MIN_SCALE, MAX_SCALE = 0.25, 4.0
# The most pixels one image may have: a PDF page may be 200 inches wide (PDF's limit), which at
# 1.5 pixels per point would be a bitmap of gigabytes. A larger page is rendered at a lower scale.
MAX_PIXELS = 25_000_000
FILL = (255, 226, 0)  # the box's fill, multiplied into the page (white -> yellow, black stays)
BORDER = (214, 66, 0)
BORDER_WIDTH = 0.75  # points
PADDING = 1.5  # points around the characters' tight boxes
KINDS = {"jsonl": "a JSONL file", "text": "a text file", "html": "an HTML filing (its pages as filed: evfind show --html)"}

_PDFIUM = threading.Lock()  # pdfium is not thread-safe: one render at a time in a process


# --------------------------------------------------------------------------------------------
# Where the PDF is


def pdf_bytes_or_path(conn, revision: store.Revision, db_path: str | os.PathLike) -> bytes | Path:
    """The PDF a revision's page images come from: its embedded bytes, or the path of the file
    that has its SHA-256. ``NoPageImageError`` says why there is none."""
    located = locate(conn, revision, db_path)
    if located is not None:
        return located
    return store.source_bytes(conn, revision.revision_id)


def locate(conn, revision: store.Revision, db_path: str | os.PathLike) -> Path | None:
    """The path of the revision's PDF on disk, None when its bytes are embedded (and have its
    SHA-256); ``NoPageImageError`` when neither can be used."""
    if revision.source_kind != "pdf":
        kind = KINDS.get(revision.source_kind, revision.source_kind)
        raise NoPageImageError(f"no page image: the revision was ingested from {kind}, not a PDF")
    recorded = store.source(conn, revision.revision_id)
    if recorded is None:
        raise NoPageImageError(
            "no page image: the database does not record where the source PDF was; ingest the PDF again"
        )
    if recorded.embedded:
        found = _embedded_sha256(conn, db_path, revision.revision_id)
        if found != revision.sha256:
            raise NoPageImageError(
                f"no page image: the PDF embedded in the database has changed (sha256 {found[:12]}, "
                f"the revision's is {revision.sha256[:12]})"
            )
        return None
    path = Path(recorded.path)
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is None or not path.is_file():
        raise NoPageImageError(
            f"no page image: the source PDF is not at {path} (ingest it again from where it is now, "
            "or with --embed-source)"
        )
    try:
        found = file_sha256(str(path), info.st_size, info.st_mtime_ns)
    except OSError as exc:
        raise NoPageImageError(f"no page image: the source PDF at {path} cannot be read ({exc.strerror})") from None
    if found != revision.sha256:
        raise NoPageImageError(
            f"no page image: the file at {path} has changed (sha256 {found[:12]}, the revision's is "
            f"{revision.sha256[:12]})"
        )
    return path


@lru_cache(maxsize=256)
def file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """The SHA-256 of the file at ``path``, computed once per process for each (path, size,
    modification time): a page view checks the file every time it is opened."""
    from .extract import sha256_file

    return sha256_file(Path(path))


_embedded: dict[tuple, str] = {}
_embedded_lock = threading.Lock()


def _embedded_sha256(conn, db_path, revision_id: int) -> str:
    """The SHA-256 of a revision's embedded PDF, once per process for each database file (evfind
    writes a database as a new file, so its identity changes with every write)."""
    info = os.stat(db_path)
    key = (os.path.realpath(db_path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, revision_id)
    with _embedded_lock:
        if key not in _embedded:
            data = store.source_bytes(conn, revision_id) or b""
            _embedded[key] = hashlib.sha256(data).hexdigest()
        return _embedded[key]


# --------------------------------------------------------------------------------------------
# The image of a page of a database


def page_png(
    db: str | os.PathLike,
    page_number: int,
    *,
    document: str | None = None,
    sha: str | None = None,
    question: str | None = None,
    scale: float = DEFAULT_SCALE,
) -> bytes:
    """The PNG of one physical page of a revision (the newest, or ``sha``'s), with the terms a
    query for ``question`` matches boxed. Raises ``NoPageImageError`` (why there is none) and
    the Finder's errors (no such database, revision or page)."""
    from .finder import Finder

    with Finder(db, document=document, sha=sha) as finder:
        finder.page(page_number)  # the clear error for a page the revision does not have
        with store.reading(db):
            pdf = pdf_bytes_or_path(finder.conn, finder.revision, db)
        phrases = finder.match_terms(question) if question and question.strip() else ()
    return render_png(pdf, page_number, scale=scale, phrases=phrases)


def unavailable(db: str | os.PathLike, *, sha: str | None = None, document: str | None = None) -> str | None:
    """Why the pages of a revision have no image (one line), or None when they can be rendered."""
    from .finder import Finder

    with Finder(db, document=document, sha=sha) as finder:
        try:
            finder.document  # noqa: B018  (raises when the database holds no pages)
            with store.reading(db):
                locate(finder.conn, finder.revision, db)
        except NoPageImageError as exc:
            return str(exc)
    return None


# --------------------------------------------------------------------------------------------
# Rendering (pdfium)


def render_png(pdf: bytes | str | os.PathLike, page_number: int, *, scale: float = DEFAULT_SCALE,
               phrases: Sequence[str] = ()) -> bytes:
    """Page ``page_number`` (physical, from 1) of a PDF (its bytes or its path) as a PNG, at
    ``scale`` pixels per point (the image is ceil(width x scale) by ceil(height x scale)
    pixels), each occurrence of the phrases boxed (``term_spans``)."""
    import pypdfium2 as pdfium

    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise UsageError(f"scale must be between {MIN_SCALE} and {MAX_SCALE}")
    with _PDFIUM:
        try:
            document = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
        except pdfium.PdfiumError as exc:
            if "password" in str(exc).lower():
                raise NoPageImageError("no page image: the PDF is password-protected, and evfind keeps no password") from None
            raise NoPageImageError(f"no page image: pdfium cannot read the PDF ({str(exc).splitlines()[0]})") from None
        try:
            if not 1 <= page_number <= len(document):
                raise UsageError(f"page {page_number} does not exist: the PDF has pages 1 to {len(document)}")
            page = document[page_number - 1]
            try:
                for rect in _term_rects(page, phrases) if phrases else ():
                    _draw_box(page, rect)
                width, height = page.get_width(), page.get_height()
                scale = min(scale, math.sqrt(MAX_PIXELS / max(width * height, 1.0)))
                bitmap = page.render(scale=scale, rev_byteorder=True)  # RGB, 3 bytes a pixel
                try:
                    return encode_png(bitmap.width, bitmap.height, bitmap.stride, bytes(bitmap.buffer))
                finally:
                    bitmap.close()
            finally:
                page.close()
        finally:
            document.close()


def _term_rects(page, phrases: Sequence[str]) -> list[tuple[float, float, float, float]]:
    """The rectangles (left, bottom, right, top, in page points) of the phrases on the page: one
    per line of each occurrence (``line_boxes``)."""
    import pypdfium2.raw as pdfium_c

    textpage = page.get_textpage()
    try:
        codes = [pdfium_c.FPDFText_GetUnicode(textpage, i) for i in range(textpage.count_chars())]
        for index, code in enumerate(codes):  # a hyphen joining a word across a line break
            if code in (0, 2, 0xFFFE) and pdfium_c.FPDFText_IsHyphen(textpage, index) == 1:
                codes[index] = ord("-")
        text, owners = matching_text(codes)
        rects = []
        for start, end in term_spans(text, phrases):
            first, last = owners[start], owners[end - 1]
            count = textpage.count_rects(first, last - first + 1)
            rects.extend(line_boxes([textpage.get_rect(i) for i in range(count)]))
        return rects
    finally:
        textpage.close()


def _draw_box(page, rect: tuple[float, float, float, float]) -> None:
    """A filled, bordered rectangle added to the page's objects (never saved): pdfium draws it."""
    import pypdfium2.raw as pdfium_c

    left, bottom, right, top = rect
    box = pdfium_c.FPDFPageObj_CreateNewRect(
        left - PADDING, bottom - PADDING, right - left + 2 * PADDING, top - bottom + 2 * PADDING
    )
    pdfium_c.FPDFPageObj_SetFillColor(box, *FILL, 255)
    pdfium_c.FPDFPageObj_SetStrokeColor(box, *BORDER, 255)
    pdfium_c.FPDFPageObj_SetStrokeWidth(box, BORDER_WIDTH)
    pdfium_c.FPDFPath_SetDrawMode(box, pdfium_c.FPDF_FILLMODE_WINDING, 1)
    pdfium_c.FPDFPageObj_SetBlendMode(box, b"Multiply")
    pdfium_c.FPDFPage_InsertObject(page.raw, box)  # the page owns it from here


# --------------------------------------------------------------------------------------------
# Finding the terms (pure)


def matching_text(codes: Sequence[int]) -> tuple[str, list[int]]:
    """The characters of a page (pdfium's Unicode values, one per character index) as text to
    match, and for each character of that text the index of the page character it comes from.
    Characters are folded as ingest folds the index text: a ligature becomes its letters, and a
    glyph pdfium cannot map (code 0, which it extracts as U+FFFE) is restored as ingest restores
    it (``repair``: the ligature that makes a known word, "cash \\ufffeows" -> "cash flows", else
    a hyphen). Line breaks, controls and the markers ``term_spans`` uses become spaces, so words
    stay apart."""
    from . import repair

    pieces: list[str] = []
    for code in codes:
        ch = chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else " "
        if code == 0:
            folded = repair.MARK
        elif ch < " " or ch == "\x7f":
            folded = " "
        elif ch.isascii():
            folded = ch
        else:
            folded = normalise(ch) or " "
        pieces.append(folded)
    marks = [index for index, piece in enumerate(pieces) if piece == repair.MARK]
    if marks:
        for index, restored in zip(marks, _restored("".join(pieces), len(marks))):
            pieces[index] = restored
    owners = [index for index, piece in enumerate(pieces) for _ in piece]
    return "".join(pieces), owners


def _restored(text: str, count: int) -> list[str]:
    """What each of the ``count`` U+FFFE of a page's text (unmapped glyphs) becomes, in order:
    the repaired text, which differs from ``text`` only there, read back piece by piece."""
    from . import repair

    repaired = repair.repair_pages([text], [repair.GLYPH * count]).get(0)
    if repaired is None:
        return ["-"] * count
    parts = text.split(repair.MARK)
    found, position = [], len(parts[0])
    for part in parts[1:]:
        for size in range(1, 4):  # a hyphen, or a ligature of two or three letters
            if repaired.startswith(part, position + size):
                break
        found.append(repaired[position : position + size])
        position += size + len(part)
    return found


def line_boxes(rects: Sequence[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """The rectangles pdfium gives for one occurrence of a term, merged line by line: pdfium
    groups characters into runs as the PDF draws them, which in many filings is a rectangle per
    character. A rectangle joins the one before it when they share most of their height and it
    starts at most a line's height to the right of it (the next word of the line); empty ones
    (spaces) are dropped."""
    boxes: list[tuple[float, float, float, float]] = []
    for left, bottom, right, top in rects:
        if right <= left or top <= bottom:
            continue
        if boxes:
            b_left, b_bottom, b_right, b_top = boxes[-1]
            shared = min(top, b_top) - max(bottom, b_bottom)
            line = b_top - b_bottom
            if shared >= 0.5 * min(top - bottom, line) and b_left - line <= left <= b_right + line:
                boxes[-1] = (min(left, b_left), min(bottom, b_bottom), max(right, b_right), max(top, b_top))
                continue
        boxes.append((left, bottom, right, top))
    return boxes


def term_spans(text: str, phrases: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) offsets in ``text`` of every occurrence of the phrases, in order, matched
    as the index matches them and as the evidence lines mark them (``evidence.mark``: unicode61
    words, Porter stems, so "purchases of property, plant" is the phrase "purchase of property
    plant"). ``text`` must not hold the characters \\x02 and \\x03 (``matching_text`` makes
    them spaces)."""
    stemmed = tuple(p for p in (evidence.stems(phrase) for phrase in phrases) if p)
    marked = evidence.mark(text, (evidence.Concept("terms", stemmed),)) if stemmed else text
    spans: list[tuple[int, int]] = []
    position = start = 0
    for ch in marked:
        if ch == evidence.START:
            start = position
        elif ch == evidence.END:
            spans.append((start, position))
        else:
            position += 1
    return spans


# --------------------------------------------------------------------------------------------
# PNG (pure)


def encode_png(width: int, height: int, stride: int, rgb: bytes) -> bytes:
    """A PNG (8-bit RGB, no interlace) of rows of ``width`` RGB pixels, ``stride`` bytes apart."""
    row = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : y * stride + row] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])
