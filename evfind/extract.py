"""Turn a source file into its physical pages: PDF (pypdfium2), HTML filing (lxml, htmlread.py),
JSONL or form-feed text.

Nothing here knows SQLite. ``extract`` returns the text of every physical page as extracted
(blank pages included, as empty strings), for a PDF its lines as printed (evfind/printed.py:
rebuilt from pdfium's character boxes) and the printed page labels where the PDF has them (for
HTML, the folios printed on the pages: evfind/folios.py); ``evfind.text.normalise`` of
``Extraction.sources`` gives the text that is indexed. An HTML filing's inline-XBRL facts and
text blocks come with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .errors import InputError, PasswordError, SourceError

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Extraction:
    """The pages of one source file, as extracted."""

    kind: str  # pdf | html | jsonl | text
    sha256: str
    texts: list[str]  # as extracted: pdfium's text of each page (kept as the raw text)
    labels: list[str | None]
    # What pdfium says each U+FFFE of a page's ``sources`` text is, one letter each in order
    # (repair.HYPHEN, GLYPH or UNKNOWN); None where a page has none or the source is not a PDF.
    marks: list[str | None] = field(default_factory=list)
    # An HTML filing's inline XBRL: its facts (dicts of factstore.FACT_COLUMNS and ``page``) and
    # where its text blocks run (dicts: concept, first_page, last_page, heading).
    facts: list[dict] = field(default_factory=list)
    blocks: list[dict] = field(default_factory=list)
    # A PDF's pages as printed lines (evfind/printed.py), or pdfium's text where a page is not
    # rebuilt; empty for other sources, whose text is read as it is.
    lines: list[str] = field(default_factory=list)
    # The U+FFFE facts of ``texts`` (pdfium's order) where ``lines`` has its own: for a reading
    # of the page in that order (``reading_texts``).
    text_marks: list[str | None] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return len(self.texts)

    @property
    def sources(self) -> list[str]:
        """The text of each page that the index text is made from: its lines, else its text."""
        return self.lines or self.texts

    @property
    def reading_marks(self) -> list[str | None]:
        """The U+FFFE facts of ``texts``."""
        return self.text_marks if self.lines else self.marks


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_kind(path: Path) -> str:
    """pdf, html, jsonl or text, from the file's first bytes (the extension only breaks ties)."""
    from . import kinds

    head = kinds.read_head(path)
    if not head:
        raise SourceError(f"{path}: an empty file, not a filing")
    if head.startswith(b"SQLite format 3\x00"):
        raise SourceError(f"{path}: an SQLite database, not a filing (to ask it a question: evfind query {path} ...)")
    if kinds.is_pdf_bytes(head):
        return "pdf"
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        raise SourceError(f"{path}: not a PDF file (it does not start with %PDF-)")
    if head.startswith(b"PK\x03\x04"):
        raise SourceError(f"{path}: a zip archive, not a filing (unzip it and ingest the filing inside)")
    if kinds.is_xbrl_instance(head):
        raise SourceError(
            f"{path}: an XBRL instance, facts without pages, not a filing: ingest the filing's HTML "
            "(its inline-XBRL .htm) instead"
        )
    if kinds.is_html_bytes(head):
        return "html"
    if suffix in kinds.HTML_SUFFIXES:
        raise SourceError(f"{path}: not HTML (it does not open with <html>, <!DOCTYPE html> or an EDGAR <DOCUMENT>)")
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return "jsonl"
    return "text"


def identify(path: Path) -> tuple[str, str]:
    """The kind of a source file (``source_kind``) and the SHA-256 of its bytes; a path that is
    missing, a directory or unreadable gets the clear one-line InputError."""
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a file")
    try:
        return source_kind(path), sha256_file(path)
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None


def extract(
    path: str | Path,
    *,
    password: str | None = None,
    progress: Progress | None = None,
    each: Callable[[str], None] | None = None,
) -> Extraction:
    """Read every physical page of a PDF, JSONL or form-feed text file.

    ``each(text)`` is called with every page's text as it is read (its ``sources`` text: a
    PDF's lines), in page order, in the calling thread: for a PDF it runs while pdfium extracts
    the next pages in another thread.
    """
    path = Path(path)
    kind, sha = identify(path)
    marks: list[str | None] = []
    lines: list[str] = []
    text_marks: list[str | None] = []
    if kind == "pdf":
        texts, lines, labels, marks, text_marks = _pdf_pages(path, password, progress, each)
    elif kind == "html":
        return _html_pages(path, sha, progress, each)
    else:
        texts = _jsonl_pages(path) if kind == "jsonl" else _text_pages(path)
        labels = [None] * len(texts)
        for text in texts if each is not None else ():
            each(text)
    if not texts:
        raise SourceError(f"{path}: holds no pages")
    return Extraction(kind=kind, sha256=sha, texts=texts, labels=labels, marks=marks, lines=lines, text_marks=text_marks)


def _html_pages(path: Path, sha: str, progress: Progress | None, each: Callable[[str], None] | None) -> Extraction:
    """An HTML filing's pages (htmlread.py), their printed folios (folios.py) and its facts."""
    from .folios import printed_folios
    from .htmlread import read

    filing = read(path)
    texts = filing.texts
    for done, text in enumerate(texts, start=1):
        if each is not None:
            each(text)
        if progress is not None:
            progress(done, len(texts))
    labels = printed_folios([_edges(text) for text in texts])
    facts = [fact.row() for fact in filing.facts]
    blocks = [
        {"concept": b.concept, "first_page": b.first_page, "last_page": b.last_page, "heading": b.heading}
        for b in filing.blocks
    ]
    return Extraction(kind="html", sha256=sha, texts=texts, labels=labels, facts=facts, blocks=blocks)


def _edges(text: str) -> str:
    """The lines of a page where a folio is printed (its first two and last two), normalised:
    what folios.py reads, without normalising the whole page twice (ingest does it once)."""
    from .text import normalise

    lines = [line for line in text.split("\n") if line.strip()]
    return normalise("\n".join(lines[:2] + lines[-2:] if len(lines) > 4 else lines))


_DONE = object()


def _pdf_pages(
    path: Path, password: str | None, progress: Progress | None, each: Callable[[str], None] | None
) -> tuple[list[str], list[str], list[str | None], list[str | None], list[str | None]]:
    """Every page's text, its lines as printed, printed label and U+FFFE facts (``_marks``, of
    the lines). pdfium runs in a thread of its own (its ctypes calls release the GIL), so the
    caller's work on a page (reading its words into lines, then ``each``) overlaps the
    extraction of the next; only that thread ever touches the document."""
    import queue
    import threading

    from .printed import lines_text

    pages: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()

    def produce() -> None:
        try:
            for item in _read_pdf(path, password, stop):
                pages.put(item)
            pages.put(_DONE)
        except BaseException as exc:  # handed to the caller's thread, raised there
            pages.put(exc)

    worker = threading.Thread(target=produce, name="evfind-pdf", daemon=True)
    worker.start()
    texts: list[str] = []
    lines: list[str] = []
    labels: list[str | None] = []
    marks: list[str | None] = []
    text_marks: list[str | None] = []
    try:
        while (item := pages.get()) is not _DONE:
            if isinstance(item, BaseException):
                raise item
            text, words, label, total, text_kinds = item
            # the lines are read here, while pdfium goes on to the next page in its thread
            printed, kinds = (text, text_kinds) if words is None else lines_text(text, words, text_kinds)
            text_marks.append(text_kinds)
            texts.append(text)
            lines.append(printed)
            labels.append(label)
            marks.append(kinds)
            if each is not None:
                each(printed)
            if progress is not None:
                progress(len(texts), total)
    finally:
        stop.set()
        while worker.is_alive():  # let a stopped worker finish its page and close the file
            try:
                pages.get(timeout=0.05)
            except queue.Empty:
                pass
    return texts, lines, labels, marks, text_marks


def _read_pdf(path: Path, password: str | None, stop) -> Iterator[tuple[str, list | None, str | None, int, str | None]]:
    """Each page's text, its words placed by their boxes (``printed.page_words``; None where
    its text is not rebuilt), its printed label, the page count and the U+FFFE facts of the
    text."""
    import pypdfium2 as pdfium  # only ingest pays for the PDF library

    try:
        pdf = pdfium.PdfDocument(str(path), password=password)
    except pdfium.PdfiumError as exc:
        message = str(exc).lower()
        if "password" in message:
            if password is None:
                raise PasswordError(f"{path}: the PDF is password-protected; give it with --password") from None
            raise PasswordError(f"{path}: wrong password for this PDF") from None
        raise SourceError(f"{path}: cannot read the PDF ({_pdfium_reason(exc)})") from None
    try:
        total = len(pdf)
        limits.check_page_count(total, str(path))  # a PDF may claim any number of pages
        for index in range(total):
            if stop.is_set():
                return
            page = pdf[index]
            try:
                textpage = page.get_textpage()
                try:
                    text = textpage.get_text_range()
                    text_kinds = _marks(textpage, text) if _MARK in text else None
                    words = _page_words(textpage, text)
                finally:
                    textpage.close()
            finally:
                page.close()
            limits.check_page_text(text, f"{path}: page {index + 1}")
            yield text, words, pdf.get_page_label(index) or None, total, text_kinds
    except pdfium.PdfiumError as exc:
        raise SourceError(f"{path}: cannot read the PDF ({_pdfium_reason(exc)})") from None
    finally:
        pdf.close()


_MARK = "\ufffe"


def _marks(textpage, text: str) -> str:
    """What pdfium says each U+FFFE of a page's text is, in order, one letter each (see
    evfind/repair.py): h, a hyphen joining a word across a line break (``FPDFText_IsHyphen``);
    g, a glyph with no Unicode mapping (``FPDFText_GetUnicode`` is 0: pdfium writes U+FFFE for
    it); ? where pdfium's character at that place is neither. Asked only on pages that hold a
    U+FFFE, three calls for each.

    The text's positions are UTF-16 units (pypdfium2 decodes them to one character each, two
    for a character beyond U+FFFF); ``FPDFText_GetCharIndexFromTextIndex`` turns them into
    pdfium's character indices, which also count characters left out of the text. A character
    pdfium cannot map at all (``FPDFText_HasUnicodeMapError``) is written as its character code,
    never as U+FFFE, so that flag says nothing here."""
    import pypdfium2.raw as pdfium_c

    from .repair import GLYPH, HYPHEN, UNKNOWN

    handle = textpage.raw
    wide = len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)  # a character beyond U+FFFF
    kinds = []
    position = text.find(_MARK)
    while position >= 0:
        unit = position + (sum(ch > "\uffff" for ch in text[:position]) if wide else 0)
        index = pdfium_c.FPDFText_GetCharIndexFromTextIndex(handle, unit)
        if index < 0:
            kinds.append(UNKNOWN)
        elif pdfium_c.FPDFText_IsHyphen(handle, index) == 1:
            kinds.append(HYPHEN)
        elif pdfium_c.FPDFText_GetUnicode(handle, index) == 0:
            kinds.append(GLYPH)
        else:
            kinds.append(UNKNOWN)
        position = text.find(_MARK, position + 1)
    return "".join(kinds)


def _page_words(textpage, text: str) -> list | None:
    """The page's words for its lines as printed (``printed.page_words``), placed by pdfium's
    loose character boxes (``FPDFText_GetLooseCharBox``: the font's full height, the same for
    every character of a line); None where the page is not rebuilt."""
    import pypdfium2.raw as pdfium_c

    from .printed import page_words

    handle, rect = textpage.raw, pdfium_c.FS_RECTF()
    get_box, char_index = pdfium_c.FPDFText_GetLooseCharBox, pdfium_c.FPDFText_GetCharIndexFromTextIndex
    if len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):
        def box(position: int) -> tuple[float, float, float, float]:
            get_box(handle, position, rect)
            return rect.left, rect.bottom, rect.right, rect.top
    else:  # a character beyond U+FFFF is two of pdfium's text units
        units = [0] * len(text)
        for position in range(1, len(text)):
            units[position] = units[position - 1] + (2 if text[position - 1] > "\uffff" else 1)

        def box(position: int) -> tuple[float, float, float, float]:
            get_box(handle, char_index(handle, units[position]), rect)
            return rect.left, rect.bottom, rect.right, rect.top

    return page_words(text, box)


def _pdfium_reason(exc: Exception) -> str:
    text = str(exc).strip().rstrip(".")
    return text.split("\n")[0] or "damaged or unsupported file"


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text (byte {exc.start}); convert it or give a PDF") from None


def _jsonl_pages(path: Path) -> list[str]:
    from ._jsonl import objects

    pages: dict[int, str] = {}
    for where, _, record in objects(_read_text(path), str(path), '{"page_number": n, "text": "..."}'):
        number, text = record.get("page_number"), record.get("text")
        if isinstance(number, bool) or not isinstance(number, int):
            raise SourceError(f"{where}: page_number must be an integer")
        limits.check_page_number(number, where)  # so no more than MAX_PAGES distinct pages
        if not isinstance(text, str):
            raise SourceError(f"{where}: text must be a string")
        limits.check_page_text(text, where)
        if number in pages:
            raise SourceError(f"{where}: page {number} appears twice")
        pages[number] = text
    if not pages:
        return []
    expected = list(range(1, len(pages) + 1))
    if sorted(pages) != expected:  # every number is in 1..MAX_PAGES: some below the largest are missing
        missing = sorted(set(range(1, max(pages) + 1)) - set(pages))
        raise SourceError(f"{path}: page numbers must run 1..N without gaps (missing {_short(missing)})")
    return [pages[n] for n in expected]


def _short(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:5])
    return shown + (", ..." if len(numbers) > 5 else "")


def _text_pages(path: Path) -> list[str]:
    text = _read_text(path)
    if "\x00" in text:
        raise SourceError(f"{path}: a binary file, not text with form feeds between pages")
    pages = text.split("\f")
    # pdftotext ends the last page with a form feed: that is not an extra page.
    if len(pages) > 1 and not pages[-1].strip():
        pages.pop()
    limits.check_page_count(len(pages), str(path))
    for number, page in enumerate(pages, start=1):
        limits.check_page_text(page, f"{path}: page {number}")
    return pages
