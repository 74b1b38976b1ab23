"""Ingest: a source file becomes a revision of pages, in one transaction.

    >>> from evfind.ingest import ingest
    >>> result = ingest("report.pdf")          # -> report.db, document id report
    >>> result.status, result.document_id, result.page_count
    ('created', 'report', 12)
    >>> ingest("report.pdf").status            # the same bytes again: nothing to do
    'unchanged'

(tests/test_doctests.py runs this beside a 12-page report.pdf.)

The pages are extracted and analysed before the database is touched, so a source that cannot
be read changes nothing. The database is then written as a whole new file, built beside its
path and renamed into place only when complete (``writes.rewrite``): a reader sees the old file
or the new one, and an ingest killed at any moment leaves the old one as it was.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import factstore, reindexing, store, writes
from .errors import (
    DatabaseBusyError,
    IncompatibleDatabaseError,
    InputError,
    NotADatabaseError,
    PasswordError,
    SourceError,
    UsageError,
)
from .extract import Extraction, extract
from .folios import page_labels
from .packing import pack_text
from .forms import analyse, form_of, tickers
from .repair import repair_pages
from .text import common_words, normalise, words_on


@dataclass(frozen=True)
class IngestResult:
    """What an ingest did."""

    db_path: Path
    document_id: str
    sha256: str
    page_count: int
    status: str  # created (a new database) | added (a new revision) | unchanged (same bytes)
    revision_id: int
    blank_pages: tuple[int, ...] = ()
    has_labels: bool = False
    warnings: tuple[str, ...] = field(default=())
    source_path: str | None = None  # where the source PDF or HTML was recorded (page images, --html); None: neither
    embedded: bool = False  # the source's bytes are kept in the database (--embed-source)
    source_updated: bool = False  # unchanged pages, but the source was recorded anew (moved, embedded)
    source_kind: str = "pdf"  # pdf | html | jsonl | text


ONE_PAGE_LINES = 100  # more lines than a printed page holds: a text file without form feeds is many pages


def default_db_path(source: str | os.PathLike) -> Path:
    return Path(source).with_suffix(".db")


def _now() -> str:
    # SOURCE_DATE_EPOCH (reproducible builds) pins the time, so sample.db can be rebuilt exactly.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)
        if epoch and epoch.isdigit()
        else _dt.datetime.now(_dt.timezone.utc)
    )
    return moment.replace(microsecond=0).isoformat()


class _Reader:
    """What ingest computes from each page as it is extracted: the normalised text and the
    distinct words (for the common words), while pdfium reads the next pages."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.words: list[set[str]] = []

    def __call__(self, raw: str) -> None:
        text = normalise(raw)
        self.texts.append(text)
        self.words.append(words_on(text))

    def repair(self, extraction: Extraction) -> None:
        """Once every page is read: the pages whose U+FFFE are ligatures, not hyphens, again
        (a repair needs the whole filing's words)."""
        for index, raw in repair_pages(extraction.sources, extraction.marks).items():
            self.texts[index] = normalise(raw)
            self.words[index] = words_on(self.texts[index])


def index_texts(extraction: Extraction) -> list[str]:
    """Every page's text as indexed: its ``sources`` text (a PDF's lines as printed) normalised,
    each U+FFFE repaired (evfind/repair.py); the raw text is stored as extracted."""
    repaired = repair_pages(extraction.sources, extraction.marks)
    return [normalise(repaired.get(index, raw)) for index, raw in enumerate(extraction.sources)]


def reading_texts(extraction: Extraction, texts: list[str]) -> list[str]:
    """The pages as structure.py and forms.py read them: in pdfium's order, as the PDF draws
    them. Their rules read a page's first lines as its headings, and were built and measured on
    that order, where a title drawn before a table is a line of its own; in a PDF's lines as
    printed it can share its line with the column headings beside it. ``texts`` (the index
    texts) where there are no separate lines."""
    if not extraction.lines:
        return texts
    repaired = repair_pages(extraction.texts, extraction.reading_marks)
    return [normalise(repaired.get(index, raw)) for index, raw in enumerate(extraction.texts)]


def prepare_pages(extraction: Extraction, texts: list[str] | None = None, form: str | None = None,
                  reading: list[str] | None = None) -> list[dict]:
    """Analyse every page (normalising it, unless ``texts`` has it; structure reads
    ``reading_texts``, unless ``reading`` has them) as a filing of its form (read from its
    cover, unless ``form`` is given): the rows ingest writes."""
    if texts is None:
        texts = index_texts(extraction)
    if reading is None:
        reading = reading_texts(extraction, texts)
    structures = analyse(reading, form).pages
    labels = page_labels(extraction.labels, texts)  # the PDF's page labels, else the printed folios
    pages = []
    for number, (raw, text, label, info) in enumerate(zip(extraction.texts, texts, labels, structures), start=1):
        pages.append(
            {
                "page_number": number,
                "page_label": label,
                "text": text,
                "raw_text": pack_text(raw, text),
                "heading": info.heading,
                "context": info.context,
                "section": info.section,
                "section_heading": info.section_heading,
                "statement": info.statement,
                "sections": info.sections,
            }
        )
    if extraction.blocks:  # an HTML filing's text blocks: where its notes begin and end
        from .xbrl import add_block_sections

        add_block_sections(pages, extraction.blocks)
    return pages


def ingest(
    source: str | os.PathLike,
    db: str | os.PathLike | None = None,
    document_id: str | None = None,
    *,
    password: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    embed_source: bool = False,
) -> IngestResult:
    """Add a PDF, an HTML filing, a JSONL or a form-feed text file to a database as a revision
    of a document.

    For a PDF or an HTML filing, the database records its absolute path, from which page
    images (PDF) and the pages' own HTML are made while the file there has the revision's
    SHA-256; ``embed_source`` keeps its bytes in the database instead, for a self-contained
    file. Ingesting the same bytes again from another place records the new place (and embeds
    them if asked): the pages are not touched. An HTML filing's inline-XBRL facts and text
    blocks are stored with its pages (the facts and text_blocks tables)."""
    source = Path(source)
    db_path = Path(db) if db is not None else default_db_path(source)
    document_id = source.stem if document_id is None else document_id.strip()
    if not document_id:
        raise UsageError("the document id is empty; give one with --document-id")
    if db_path.exists() and db_path.resolve() == source.resolve():
        raise UsageError(f"{db_path}: the database would overwrite the source; give another --db")
    if db_path.is_dir():
        raise InputError(f"{db_path}: is a directory, not a database file")

    if db_path.exists():
        # Same bytes again: a no-op, found without extracting anything.
        from .extract import sha256_file

        if not source.is_file():
            extract(source)  # raises the clear error for a missing path or a directory
        sha = sha256_file(source)
        with _closing(store.connect_read(db_path)) as conn, store.reading(db_path):
            existing = store.find_revision(conn, document_id, sha)
            if existing is not None:
                if embed_source and existing.source_kind not in _RECORDED:
                    raise _not_a_pdf(source)
                recorded = store.source(conn, existing.revision_id)
                if existing.source_kind not in _RECORDED or (
                    recorded is not None
                    and recorded.path == str(source.resolve())
                    and (recorded.embedded or not embed_source)
                ):
                    return _result(db_path, existing, "unchanged", conn)
        if existing is not None:
            # The same PDF from another place, or to embed now: record its source, nothing else.
            data = _pdf_bytes(source, sha) if embed_source else None
            _record_source(db_path, existing, str(source.resolve()), data)
            with _closing(store.connect_read(db_path)) as conn:
                return replace(_result(db_path, existing, "unchanged", conn), source_updated=True)

    reader = _Reader()
    extraction = extract(source, password=password, progress=progress, each=reader)
    reader.repair(extraction)
    reading = reading_texts(extraction, reader.texts)
    form = form_of(reading)
    pages = prepare_pages(extraction, reader.texts, form, reading)
    warnings = []
    if extraction.kind == "text" and extraction.page_count == 1 and extraction.texts[0].count("\n") >= ONE_PAGE_LINES:
        warnings.append(
            f"{source}: no form feed between pages, so all {extraction.texts[0].count(chr(10)) + 1} lines are one page and "
            "every citation will be page 1; separate the pages with form feeds (pdftotext -layout writes them), "
            "or give the PDF"
        )
    if all(not p["text"].strip() for p in pages):
        warnings.append(
            f"{source}: no text could be extracted from any page (scanned images?); the pages are "
            "kept, but OCR is out of scope, so questions will find nothing"
        )
    meta = {
        "document_id": document_id,
        "sha256": extraction.sha256,
        "source_name": source.name,
        "source_kind": extraction.kind,
        "page_count": extraction.page_count,
        "ingested_at": _now(),
        "form": form,
        "tickers": tickers(reading),
    }
    if embed_source and extraction.kind not in _RECORDED:
        raise _not_a_pdf(source)
    recorded = None
    if extraction.kind in _RECORDED:
        recorded = (str(source.resolve()), _pdf_bytes(source, extraction.sha256) if embed_source else None)
    saved = _save(db_path, meta, pages, common_words(reader.words), recorded, extraction.facts, extraction.blocks)
    return _with(saved, warnings)


# The kinds of source whose file is recorded (and embedded with --embed-source): page images
# are rendered from a PDF, the pages' own HTML cut from an HTML filing.
_RECORDED = ("pdf", "html")


def _not_a_pdf(source: Path) -> UsageError:
    return UsageError(f"{source}: not a PDF or an HTML filing; --embed-source keeps one of those in the database")


def _pdf_bytes(source: Path, sha256: str) -> bytes:
    """The PDF's bytes, to embed: those whose SHA-256 the revision records, or an error."""
    import hashlib

    data = source.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise SourceError(f"{source}: the file changed while it was being ingested; ingest it again")
    return data


def _record_source(db_path: Path, revision: store.Revision, path: str, data: bytes | None) -> None:
    """Record where an ingested revision's PDF now is (and embed its bytes when given)."""

    def build(conn: sqlite3.Connection) -> tuple[None, bool]:
        store.ensure_schema(conn, db_path)
        store.set_source(conn, revision.revision_id, path, data)
        return None, True

    writes.rewrite(db_path, build, must_exist=True)


# --------------------------------------------------------------------------------------------
# Asking a PDF directly: the database beside it


@dataclass(frozen=True)
class PdfDatabase:
    """The database that answers for a PDF, and the revision in it that holds the PDF's bytes
    as they are now (``sha256``; the revision to read, which may be an older one)."""

    pdf: Path
    db_path: Path
    document_id: str
    sha256: str
    status: str  # current | older (an older revision's bytes) | created | added (a new revision)
    warnings: tuple[str, ...] = ()


Notify = Callable[[str], None]


def ensure_database(
    pdf: str | os.PathLike,
    *,
    password: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    notify: Notify | None = None,
) -> PdfDatabase:
    """The database beside a PDF or an HTML filing (report.pdf -> report.db, filing.htm ->
    filing.db), ingesting the file into it on first use and again, as a new revision, when its
    bytes change. Whether it must is told by the file's SHA-256 against the revisions the
    database holds: hashing is cheap, extraction is not. ``notify(line)`` hears, before the work starts, why an ingest is needed.

    A file at report.db that is not an evfind database is never written; nor is anything where
    the directory cannot be written (the error says how to ingest elsewhere, with --db).

        >>> ensure_database("report.pdf").status      # first use: ingested into report.db
        'created'
        >>> found = ensure_database("report.pdf")     # the same bytes: read as they are
        >>> found.status, found.db_path.name, found.document_id
        ('current', 'report.db', 'report')
    """
    found = _find(pdf)
    if found.match is not None:
        return _matched(found, notify)
    pdf, db_path = found.pdf, found.db_path
    if found.kind == "html":  # a web page or a truncated file: said before "ingesting" is
        from .htmlread import check

        check(pdf)
    if not os.access(db_path.parent, os.W_OK):
        raise DatabaseBusyError(
            f"{pdf}: cannot write {db_path.name} beside it ({db_path.parent} is read-only); ingest it "
            f"somewhere writable: evfind ingest {pdf} --db SOMEWHERE.db"
        )
    previous = found.newest.get(found.document_id)
    if notify is not None:
        if previous is None:
            notify(f"{pdf}: ingesting into {db_path} (first use)")
        elif previous.source_name != pdf.name:
            notify(f"{pdf}: ingesting into {db_path} as a new revision of {previous.document_id} (first use)")
        else:
            notify(
                f"{pdf}: changed since it was ingested into {db_path} (sha256 {found.sha256[:12]}, "
                f"was {previous.sha256[:12]}); ingesting a new revision"
            )
    try:
        result = ingest(pdf, db_path, found.document_id, password=password, progress=progress)
    except NotADatabaseError as exc:  # another file took the name meanwhile
        raise _not_ours(exc, pdf) from None
    except PasswordError:
        if password is not None:
            raise
        raise PasswordError(
            f"{pdf}: the PDF is password-protected; ingest it with `evfind ingest {pdf} --password PW`, "
            f"then ask {db_path}"
        ) from None
    status = "added" if previous is not None else "created"
    return PdfDatabase(pdf, db_path, result.document_id, result.sha256, status, result.warnings)


def locate_database(pdf: str | os.PathLike, *, notify: Notify | None = None) -> PdfDatabase:
    """The database beside a PDF and the revision holding its bytes, where it has been ingested
    (by ``ensure_database`` or `evfind ingest`); read only. Otherwise an error that says how to
    ask it or ingest it."""
    found = _find(pdf)
    if found.match is not None:
        return _matched(found, notify)
    pdf, db_path = found.pdf, found.db_path
    how = f"ask it with `evfind query {pdf} \"...\"`, which ingests it, or run `evfind ingest {pdf}`"
    if found.document_id not in found.newest:
        raise InputError(f"{pdf} is a{'n' if found.kind == 'html' else ''} {_NOUNS[found.kind]}, not yet ingested into {db_path}: {how}")
    raise InputError(f"{pdf} has changed since it was ingested into {db_path}: {how}")


@dataclass(frozen=True)
class _Found:
    """A PDF or an HTML filing, the database beside it and what that holds of it."""

    pdf: Path
    db_path: Path
    sha256: str
    match: store.Revision | None  # the revision holding the PDF's bytes
    document_id: str  # the document new bytes become a revision of
    newest: dict[str, store.Revision]  # the newest revision of each document in the database
    kind: str = "pdf"  # pdf | html


_NOUNS = {"pdf": "PDF", "html": "HTML filing"}


def _find(pdf: str | os.PathLike) -> _Found:
    from .extract import identify

    pdf = Path(pdf)
    kind, sha = identify(pdf)
    if kind not in _RECORDED:
        raise SourceError(f"{pdf}: not a PDF file (it does not start with %PDF-) nor an HTML filing")
    db_path = default_db_path(pdf)
    if db_path.resolve() == pdf.resolve():
        raise UsageError(f"{pdf}: a {_NOUNS[kind]} named like a database; ingest it with `evfind ingest {pdf} --db OTHER.db`")
    if not db_path.exists() and not db_path.is_symlink():
        return _Found(pdf, db_path, sha, None, pdf.stem, {}, kind)
    try:
        conn = store.connect_read(db_path)
    except NotADatabaseError as exc:
        raise _not_ours(exc, pdf) from None
    try:
        with store.reading(db_path):
            revisions = store.revisions(conn)
    finally:
        conn.close()
    newest = {r.document_id: r for r in revisions}  # in revision order: the last one wins
    # The revision of these bytes (one ingested from a file of this name first).
    same = [r for r in revisions if r.sha256 == sha]
    match = max(same, key=lambda r: (r.source_name == pdf.name, r.revision_id), default=None)
    # New bytes: a revision of the document last ingested from a file of this name, else of the
    # document named after the file, as `evfind ingest` names it.
    named = [r for r in revisions if r.source_name == pdf.name]
    document_id = named[-1].document_id if named else pdf.stem
    return _Found(pdf, db_path, sha, match, document_id, newest, kind)


def _matched(found: _Found, notify: Notify | None) -> PdfDatabase:
    match = found.match
    newest = found.newest[match.document_id]
    status = "current" if newest.revision_id == match.revision_id else "older"
    if status == "older" and notify is not None:
        notify(
            f"{found.pdf}: its bytes are those of an older revision in {found.db_path} (sha256 "
            f"{match.sha256[:12]}; the newest is {newest.sha256[:12]}); reading that revision"
        )
    return PdfDatabase(found.pdf, found.db_path, match.document_id, match.sha256, status)


def _not_ours(exc: NotADatabaseError, pdf: Path) -> NotADatabaseError:
    return NotADatabaseError(
        f"{exc}; it is left as it is: ingest {pdf} elsewhere with `evfind ingest {pdf} --db SOMEWHERE.db`"
    )


def _with(result: IngestResult, warnings: list[str]) -> IngestResult:
    if not warnings:
        return result
    return IngestResult(**{**result.__dict__, "warnings": tuple(warnings)})


class _closing:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc) -> None:
        self.conn.close()


def _save(db_path: Path, meta: dict, pages: list[dict], common: list[str],
          source: tuple[str, bytes | None] | None = None, facts: list[dict] = (),
          blocks: list[dict] = ()) -> IngestResult:
    """The revision and its pages (and where its source file is: ``source``, a path and the
    bytes to embed, or None; an HTML filing's facts and text blocks), in a new version of the
    database file."""

    def build(conn: sqlite3.Connection) -> tuple[str, bool]:
        store.ensure_schema(conn, db_path)
        if store.find_revision(conn, meta["document_id"], meta["sha256"]) is not None:
            return "unchanged", False  # another process ingested the same bytes meanwhile
        revision_id = store.insert_revision(conn, **meta)
        store.insert_pages(conn, revision_id, pages)
        store.insert_common_words(conn, revision_id, common)
        if facts:
            with store.indexes_after(conn, "facts"):
                factstore.insert_facts(conn, revision_id, facts)
        if blocks:
            factstore.insert_text_blocks(conn, revision_id, blocks)
        if source is not None:
            store.set_source(conn, revision_id, *source)
        store.optimize_fts(conn)
        return "added", True

    status, how = writes.rewrite(db_path, build)
    if how == "created":
        status = "created"
    with _closing(store.connect_read(db_path)) as conn:
        revision = store.find_revision(conn, meta["document_id"], meta["sha256"])
        return _result(db_path, revision, status, conn)


def _result(db_path: Path, revision: store.Revision, status: str, conn: sqlite3.Connection) -> IngestResult:
    labels = store.labelled_pages(conn, revision.revision_id)
    recorded = store.source(conn, revision.revision_id)
    return IngestResult(
        db_path=db_path,
        document_id=revision.document_id,
        sha256=revision.sha256,
        page_count=revision.page_count,
        status=status,
        revision_id=revision.revision_id,
        blank_pages=tuple(store.blank_pages(conn, revision.revision_id)),
        has_labels=labels > 0,
        source_path=None if recorded is None else recorded.path,
        embedded=recorded is not None and recorded.embedded,
        source_kind=revision.source_kind,
    )


def reindex(db: str | os.PathLike) -> tuple[int, int, int]:
    """Recompute every page's structure from the text the database stores, and rewrite the
    tables in the current schema: for a database written by an older evfind. Written as a new
    file like an ingest; (revisions re-indexed, old schema version, new schema version)."""
    db_path = Path(db)
    if not db_path.is_file():
        store.connect_read(db_path)  # raises the clear error for a missing path or a directory

    def build(conn: sqlite3.Connection) -> tuple[tuple[int, int], bool]:
        _, old = store.identify(conn)
        saved = reindexing.dump_sources(conn)
        pdfs = store.all_sources(conn)
        # An HTML filing's facts and text blocks cannot be read again from its page text: kept.
        xbrl = {
            (r.document_id, r.sha256): (factstore.dump_facts(conn, r.revision_id), factstore.text_blocks(conn, r.revision_id))
            for r in store.revisions(conn) if r.source_kind == "html"
        }
        reindexing.drop_all(conn)
        store.ensure_schema(conn, db_path)
        for meta, pages in saved:
            facts, blocks = xbrl.get((meta["document_id"], meta["sha256"]), ([], []))
            extraction = Extraction(
                kind=meta["source_kind"],
                sha256=meta["sha256"],
                texts=[p["raw"] for p in pages],
                labels=[p["page_label"] for p in pages],
                facts=facts,
                blocks=blocks,
                # a PDF's lines as printed are not in its raw text: re-index the stored text
                lines=[p["text"] for p in pages] if meta["source_kind"] == "pdf" else [],
            )
            texts = index_texts(extraction)
            reading = reading_texts(extraction, texts)
            form = form_of(reading)
            revision_id = store.insert_revision(conn, **meta, form=form, tickers=tickers(reading))
            if (meta["document_id"], meta["sha256"]) in pdfs:
                store.set_source(conn, revision_id, *pdfs[(meta["document_id"], meta["sha256"])])
            pages = prepare_pages(extraction, texts, form, reading)
            store.insert_pages(conn, revision_id, pages)
            store.insert_common_words(conn, revision_id, common_words([words_on(p["text"]) for p in pages]))
            if facts:
                factstore.insert_facts(conn, revision_id, facts)
            if blocks:
                factstore.insert_text_blocks(conn, revision_id, blocks)
        store.optimize_fts(conn)
        return (len(saved), old), True

    (count, old), _ = writes.rewrite(db_path, build, must_exist=True, older_ok=True)
    return count, old, store.SCHEMA_VERSION


@dataclass(frozen=True)
class Upgrade:
    """What `evfind upgrade` did: ``reindexed`` revisions (None: the database was current and
    was left untouched), from schema ``old`` to ``new``."""

    reindexed: int | None
    old: int
    new: int


def upgrade(db: str | os.PathLike) -> Upgrade:
    """Re-index a database of an older schema (``reindex``); one of the current schema, intact,
    is left as it is, not a byte or a time stamp changed. A file an interrupted write left
    half-written (a hot journal beside it) is rolled back and re-indexed; a damaged one is
    re-indexed where its page text can be read, and otherwise reported."""
    db_path = Path(db)
    try:
        conn = store.connect_read(db_path)
    except (IncompatibleDatabaseError, DatabaseBusyError):
        pass  # older (or newer, or half-written, or locked): the rewrite sorts it out or says why
    else:
        try:
            with store.reading(db_path):
                _, version = store.identify(conn)
                current = reindexing.intact(conn)
        except DatabaseBusyError:
            current = False
        finally:
            conn.close()
        if current:
            return Upgrade(None, version, version)
    count, old, new = reindex(db_path)
    return Upgrade(count, old, new)
