"""Ingest: a source file becomes a revision of pages, in one transaction.

    from evfind import ingest
    result = ingest("3M_2018_10K.pdf")            # -> 3M_2018_10K.db, document id 3M_2018_10K
    print(result.status, result.page_count)       # created 160

The pages are extracted and analysed before the database is touched, so a source that cannot
be read changes nothing. A new database is built beside its final path and moved into place
only when complete; an existing one gets the new revision in a single transaction.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import store
from .errors import DatabaseBusyError, InputError, UsageError
from .extract import Extraction, extract, normalise
from .question import common_words
from .structure import analyse


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


def prepare_pages(extraction: Extraction) -> list[dict]:
    """Normalise and analyse every page: the rows ingest writes."""
    texts = [normalise(raw) for raw in extraction.texts]
    structures = analyse(texts)
    pages = []
    for number, (raw, text, label, info) in enumerate(
        zip(extraction.texts, texts, extraction.labels, structures), start=1
    ):
        pages.append(
            {
                "page_number": number,
                "page_label": label,
                "text": text,
                "raw_text": store.pack_text(raw, text),
                "heading": info.heading,
                "context": info.context,
                "section": info.section,
                "section_heading": info.section_heading,
                "statement": info.statement,
                "sections": info.sections,
            }
        )
    return pages


def ingest(
    source: str | os.PathLike,
    db: str | os.PathLike | None = None,
    document_id: str | None = None,
    *,
    password: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> IngestResult:
    """Add a PDF, JSONL or form-feed text file to a database as a revision of a document."""
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
        with _closing(store.connect_read(db_path)) as conn:
            existing = store.find_revision(conn, document_id, sha)
            if existing is not None:
                return _result(db_path, existing, "unchanged", conn)

    extraction = extract(source, password=password, progress=progress)
    pages = prepare_pages(extraction)
    warnings = []
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
    }
    if not db_path.exists():
        result = _create(db_path, meta, pages)
        if result is not None:
            return _with(result, warnings)
    return _with(_add(db_path, meta, pages), warnings)


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


def _write(conn: sqlite3.Connection, db_path: Path, meta: dict, pages: list[dict]) -> tuple[int, str]:
    """Inside a transaction: the revision and its pages; (revision_id, status)."""
    store.ensure_schema(conn, db_path)
    existing = store.find_revision(conn, meta["document_id"], meta["sha256"])
    if existing is not None:  # another process ingested the same bytes meanwhile
        return existing.revision_id, "unchanged"
    revision_id = store.insert_revision(conn, **meta)
    store.insert_pages(conn, revision_id, pages)
    store.insert_common_words(conn, revision_id, common_words([p["text"] for p in pages]))
    store.optimize_fts(conn)
    return revision_id, "added"


def _create(db_path: Path, meta: dict, pages: list[dict]) -> IngestResult | None:
    """Build a new database beside its final path and move it into place; None if another
    process created the database first (the caller then adds to it)."""
    directory = db_path.parent if str(db_path.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{db_path}: the directory {directory} does not exist")
    temp = directory / f".{db_path.name}.{os.getpid()}.tmp"
    try:
        conn = store.connect_write(temp)
        try:
            # Nobody else sees the temporary file and a crash leaves only it behind, so SQLite
            # need not sync or journal to disk while building it; it is synced once when whole,
            # before it takes its name.
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute("PRAGMA journal_mode = MEMORY")
            conn.execute("BEGIN IMMEDIATE")
            revision_id, _ = _write(conn, db_path, meta, pages)
            conn.execute("COMMIT")
            conn.execute("VACUUM")
        finally:
            conn.close()
        _fsync(temp)
        try:
            os.link(temp, db_path)  # fails if the path exists: never replaces another's file
        except FileExistsError:
            return None
        except OSError:
            if db_path.exists():
                return None
            os.replace(temp, db_path)
    except sqlite3.Error as exc:
        raise DatabaseBusyError(f"{db_path}: cannot write the database ({exc})") from None
    except PermissionError:
        raise DatabaseBusyError(f"{db_path}: cannot write in {directory} (permission denied)") from None
    finally:
        for leftover in (temp, Path(f"{temp}-journal")):
            try:
                leftover.unlink()
            except FileNotFoundError:
                pass
    with _closing(store.connect_read(db_path)) as conn:
        return _result(db_path, store.find_revision(conn, meta["document_id"], meta["sha256"]), "created", conn)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _add(db_path: Path, meta: dict, pages: list[dict]) -> IngestResult:
    """A new revision in an existing database, in one transaction."""
    if not os.access(db_path, os.W_OK) or not os.access(db_path.parent or Path("."), os.W_OK):
        raise DatabaseBusyError(f"{db_path}: the database is read-only here; copy it somewhere writable")
    with _closing(store.connect_read(db_path)):
        pass  # the same checks as a query: an evfind database this version reads
    conn = store.connect_write(db_path)
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
            revision_id, status = _write(conn, db_path, meta, pages)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if "locked" in text or "busy" in text:
            raise DatabaseBusyError(f"{db_path}: the database is locked by another process; try again") from None
        raise DatabaseBusyError(f"{db_path}: cannot write the database ({text})") from None
    finally:
        conn.close()
    with _closing(store.connect_read(db_path)) as conn:
        revision = store.find_revision(conn, meta["document_id"], meta["sha256"])
        return _result(db_path, revision, status, conn)


def _result(db_path: Path, revision: store.Revision, status: str, conn: sqlite3.Connection) -> IngestResult:
    labels = store.labelled_pages(conn, revision.revision_id)
    return IngestResult(
        db_path=db_path,
        document_id=revision.document_id,
        sha256=revision.sha256,
        page_count=revision.page_count,
        status=status,
        revision_id=revision.revision_id,
        blank_pages=tuple(store.blank_pages(conn, revision.revision_id)),
        has_labels=labels > 0,
    )


def reindex(db: str | os.PathLike) -> tuple[int, int, int]:
    """Recompute every page's structure from the text the database stores, and rewrite the
    tables in the current schema: for a database written by an older evfind. One transaction;
    (revisions re-indexed, old schema version, new schema version)."""
    db_path = Path(db)
    if not db_path.is_file():
        store.connect_read(db_path)  # raises the clear error for a missing path or a directory
    conn = store.connect_write(db_path)
    try:
        conn.execute("BEGIN IMMEDIATE")
        app_id, old = store.identify(conn)
        if app_id != store.APPLICATION_ID:
            store.check_schema(conn, db_path)  # raises: not an evfind database
        if old > store.SCHEMA_VERSION:
            store.check_schema(conn, db_path)  # raises: written by a newer evfind
        saved = store.dump_sources(conn)
        store.drop_all(conn)
        store.ensure_schema(conn, db_path)
        for meta, pages in saved:
            extraction = Extraction(
                kind=meta["source_kind"],
                sha256=meta["sha256"],
                texts=[p["raw"] for p in pages],
                labels=[p["page_label"] for p in pages],
            )
            revision_id = store.insert_revision(conn, **meta)
            pages = prepare_pages(extraction)
            store.insert_pages(conn, revision_id, pages)
            store.insert_common_words(conn, revision_id, common_words([p["text"] for p in pages]))
        store.optimize_fts(conn)
        conn.execute("COMMIT")
        conn.execute("VACUUM")
        return len(saved), old, store.SCHEMA_VERSION
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise DatabaseBusyError(f"{db_path}: cannot re-index the database ({exc})") from None
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()
