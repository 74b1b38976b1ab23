"""The store: schema, connections, revisions, pages and every write.

Only this module and queries.py (the SQL a question runs: the full-text pass, the route lists,
the marked pages) write SQL. Queries open the file read-only (``mode=ro``), so a query never
creates, changes or journals the file. Writers never change the file in place either: each
change is made in a copy beside it and renamed over it (``writes.rewrite`` handles the files;
the SQL it runs, the lock, the copy and the transaction, is here). SQLite's errors become
evfind's in ``sqlerrors``; the stored raw text is packed by ``packing``.
"""

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from .errors import (
    DatabaseBusyError,
    IncompatibleDatabaseError,
    InputError,
    NotADatabaseError,
    UsageError,
)

# PRAGMA user_version: bump when the tables change or when what ingest computes per page (the
# structure) changes meaning. Older files are re-indexed by `evfind upgrade`; newer are refused.
# 4: the filing's form (documents.form), exhibits and form Items as sections, the source PDF's
# path and bytes (sources), U+FFFE told apart into hyphens and ligatures in the indexed text.
# 5: HTML filings: their inline-XBRL facts (facts) and text blocks (text_blocks), the notes
# the text blocks mark in page_sections, their printed folios as page labels.
# 6: the filer's trading symbols (documents.tickers), read from the cover at ingest.
SCHEMA_VERSION = 6
# PRAGMA application_id: marks the file as evfind's ("evfd").
APPLICATION_ID = 0x65766664
# How long a query waits for a lock another program holds (evfind's own writers never block
# readers), and how long a writer waits for another writer to finish.
BUSY_TIMEOUT_MS = 10_000
WRITE_TIMEOUT_MS = 120_000
# PRAGMA page_size of the files ingest writes. A page's text is a few kilobytes, more than a
# 4096-byte page holds, so each row ends in a part-filled overflow page; 512-byte pages (the
# smallest SQLite has) waste an eighth as much, which keeps the database smaller than the PDF
# it comes from (see benchmarks/speed.py). Queries measured as fast. Files of other page sizes
# are read the same.
PAGE_SIZE = 512


def schema_sql() -> str:
    """The text of schema.sql: shipped inside the wheel, or at the top of a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "schema.sql", here.parent / "schema.sql"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise RuntimeError("schema.sql is missing from this evfind installation")  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Connections


def check_path(path: Path) -> None:
    """A database path that exists, is a file and can be read; else the clear error."""
    if not path.exists():
        raise InputError(
            f"{path}: no such database (run `evfind ingest REPORT.pdf --db {path}`)", key="no_database", path=path
        )
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a database file")
    if not os.access(path, os.R_OK):
        raise InputError(f"{path}: permission denied")


_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")


def _quote(text: str) -> str:
    """urllib.parse.quote(text), without importing urllib on every query's start-up."""
    return "".join(chr(b) if b in _URI_SAFE else f"%{b:02X}" for b in text.encode("utf-8"))


def check_not_empty(path: Path, shown: Path | None = None) -> None:
    """An empty file is no database (SQLite would take it for a new one)."""
    if os.stat(path).st_size == 0:
        raise NotADatabaseError(f"{path if shown is None else shown}: an empty file, not an evfind database")


def _uri(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{_quote(str(path.resolve()))}?{query}"


def _journal(path: Path) -> Path:
    return path.with_name(path.name + "-journal")


def _hot_journal_error(path: Path) -> DatabaseBusyError:
    return DatabaseBusyError(
        f"{path}: an interrupted write left {_journal(path).name} beside it; run "
        f"`evfind upgrade {path}` where the file can be written, to roll it back"
    )


def connect_read(path: str | os.PathLike) -> sqlite3.Connection:
    """Open an evfind database read-only; raise a clear error for anything else.

    The file is never created or modified, and no journal is written beside it. On read-only
    media, where SQLite cannot open a file another program left in WAL mode, the file is
    opened as immutable. A file left in the middle of a write (a hot journal beside it) is
    refused rather than read half-written.
    """
    path = Path(path)
    check_path(path)
    check_not_empty(path)
    try:
        return _open_checked(path, mode="ro")
    except sqlite3.Error as exc:
        from . import sqlerrors  # on an error only: a query that reads fine never loads it

        if sqlerrors.result_code(exc) not in (sqlerrors.CANTOPEN, sqlerrors.READONLY):
            raise sqlerrors.database_error(exc, path) from None
        if _journal(path).exists():
            raise _hot_journal_error(path) from None
    # Read-only directory or medium: no lock files can be made; nobody can be writing.
    try:
        return _open_checked(path, mode="ro", immutable="1")
    except sqlite3.Error as exc:
        from . import sqlerrors  # on an error only: a query that reads fine never loads it

        raise sqlerrors.database_error(exc, path) from None


def _open_checked(path: Path, **params: str) -> sqlite3.Connection:
    """A read connection to an evfind database this version reads; closed again on failure."""
    conn = sqlite3.connect(_uri(path, **params), uri=True, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        check_schema(conn, path)
        return conn
    except BaseException:
        conn.close()
        raise


@contextmanager
def reading(path: str | os.PathLike) -> Iterator[None]:
    """SQLite errors met while reading (a damaged page, a lock held too long by another
    program) become evfind errors, with the database's path."""
    try:
        yield
    except sqlite3.Error as exc:
        from . import sqlerrors  # on an error only: a query that reads fine never loads it

        raise sqlerrors.database_error(exc, Path(path)) from None


def check_schema(conn: sqlite3.Connection, path: Path | str, *, older_ok: bool = False) -> int:
    """Check the file is an evfind database this version can read; return its schema version.
    ``older_ok`` accepts an older schema (for `evfind upgrade`)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if not names:
            raise NotADatabaseError(f"{path}: empty database, not an evfind database")
        raise NotADatabaseError(
            f"{path}: an SQLite database of another application, not an evfind database"
        )
    if version > SCHEMA_VERSION:
        raise IncompatibleDatabaseError(
            f"{path}: written by a newer evfind (schema {version}, this evfind reads "
            f"{SCHEMA_VERSION}); upgrade evfind: pip install -U evfind"
        )
    if version < SCHEMA_VERSION and not older_ok:
        raise IncompatibleDatabaseError(
            f"{path}: written by an older evfind (schema {version}, this evfind reads "
            f"{SCHEMA_VERSION}); re-index it with `evfind upgrade {path}`"
        )
    return version


def ensure_schema(conn: sqlite3.Connection, path: Path | str) -> None:
    """Inside an open write transaction: create the tables in a new file, or check an old one
    (and add the tables of schema.sql it lacks: every statement there is IF NOT EXISTS)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    if app_id == 0 and not names:
        for statement in _statements(schema_sql()):
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    check_schema(conn, path)
    if "sources" not in names or "fact_labels" not in names:  # written before evfind kept its sources, or
        # the facts' pairs (same schema version): the tables it lacks are added
        for statement in _statements(schema_sql()):
            conn.execute(statement)


def _statements(script: str) -> list[str]:
    """Split schema.sql into statements (no statement in it contains a semicolon in a literal)."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    parts = "\n".join(lines).split(";")
    return [p.strip() for p in parts if p.strip()]


# --------------------------------------------------------------------------------------------
# The write lock and the new file of a write (writes.rewrite names, syncs and renames it)

Build = Callable[[sqlite3.Connection], "tuple[Any, bool]"]


def begin_write(path: Path) -> sqlite3.Connection:
    """A connection holding the write lock of the database at ``path`` (SQLite's RESERVED lock:
    readers go on reading), waiting up to WRITE_TIMEOUT_MS for another writer. A hot journal
    another program left is rolled back first. SQLite's errors are raised as they are."""
    conn = sqlite3.connect(_uri(path, mode="rw"), uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {WRITE_TIMEOUT_MS}")
        conn.execute("BEGIN IMMEDIATE")
        return conn
    except BaseException:
        conn.close()
        raise


def build_file(path: Path, source: Path | None, build: Build) -> tuple[Any, bool]:
    """Fill the new, private, empty file at ``path``: a copy of the database at ``source``
    (None: a new database), changed by ``build(conn)`` in one transaction, committed (and the
    file compacted where that pays) when build returns ``(value, True)``, rolled back when it
    returns ``(value, False)``. Returns build's pair. SQLite's errors are raised as they are."""
    if source is None and IN_MEMORY:
        return _build_new(path, build)
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        # A private file: a failed build is deleted, never rolled back, and the whole file
        # is synced once before the rename. No journal is written for it.
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        # In a new file at once; in a copy of an older file at the VACUUM below (_worth_a_vacuum).
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        if source is not None:
            original = sqlite3.connect(_uri(source, mode="ro"), uri=True)
            try:
                original.backup(conn)
            finally:
                original.close()
            conn.execute("PRAGMA journal_mode = DELETE")  # rollback mode at rest, always
            conn.execute("PRAGMA journal_mode = OFF")
        value, changed = _in_transaction(conn, build)
        if changed and _worth_a_vacuum(conn):
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # (a copy has the source's)
            conn.execute("VACUUM")
        return value, changed
    finally:
        conn.close()


def _in_transaction(conn: sqlite3.Connection, build: Build) -> tuple[Any, bool]:
    """``build`` in one transaction: committed where it changed something, else rolled back."""
    conn.execute("BEGIN IMMEDIATE")
    value, changed = build(conn)
    conn.execute("COMMIT" if changed else "ROLLBACK")
    return value, changed


def _build_new(path: Path, build: Build) -> tuple[Any, bool]:
    """``build_file`` of a new database: built in memory from the empty schema's image, then
    written to the empty file at ``path`` in one write, not a page at a time (a 10-K's database
    is some 4,000 pages of 512 bytes) after the schema's statements. The same rows and index."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        conn.deserialize(_empty_image())
        value, changed = _in_transaction(conn, build)
        if not changed:
            return value, False
        image = conn.serialize()
    finally:
        conn.close()
    with open(path, "wb") as file:
        file.write(image)
    return value, True


IN_MEMORY = hasattr(sqlite3.Connection, "serialize")  # (Python 3.11 and later): _build_new
_EMPTY: list[bytes] = []


def _empty_image() -> bytes:
    """The image of a new database with evfind's empty schema (``ensure_schema``), in pages of
    PAGE_SIZE: made once per process, where every new database starts."""
    if not _EMPTY:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            conn.execute("BEGIN IMMEDIATE")
            ensure_schema(conn, ":memory:")
            conn.execute("COMMIT")
            _EMPTY[:] = [conn.serialize()]
        finally:
            conn.close()
    return _EMPTY[0]


def _worth_a_vacuum(conn: sqlite3.Connection) -> bool:
    """Rebuild a file only where it pays: a page size other than evfind's, or a quarter or more
    of its pages free (the FTS5 segments a merge left). A copy is otherwise compact already,
    and rebuilding it would cost a write as long as the whole database, for every revision; so
    is a new file (no free page: a VACUUM made the 18 EDGAR filings' databases 0-2% smaller,
    for a tenth of their ingest time)."""
    if conn.execute("PRAGMA page_size").fetchone()[0] != PAGE_SIZE:
        return True
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    return free * 4 >= conn.execute("PRAGMA page_count").fetchone()[0]


# --------------------------------------------------------------------------------------------
# Reading


class Revision(NamedTuple):
    """One ingested revision of a document."""

    revision_id: int
    document_id: str
    sha256: str
    source_name: str
    source_kind: str
    page_count: int
    ingested_at: str


_REVISION_COLUMNS = (
    "revision_id, document_id, sha256, source_name, source_kind, page_count, ingested_at"
)


def revisions(conn: sqlite3.Connection) -> list[Revision]:
    rows = conn.execute(f"SELECT {_REVISION_COLUMNS} FROM documents ORDER BY revision_id")
    return [Revision(*row) for row in rows]


def select_revision(
    conn: sqlite3.Connection, document_id: str | None = None, sha: str | None = None
) -> Revision | None:
    """The revision a query reads: the newest of the document, or the one whose SHA-256 starts
    with ``sha``. None when the store holds no documents. Ambiguity is a usage error; several
    documents and neither ``document_id`` nor ``sha`` is one whose key is "several_documents",
    with the newest revision of each document as its ``revisions`` (``select_revisions``)."""
    all_revisions = revisions(conn)
    if not all_revisions:
        return None
    chosen = all_revisions
    if document_id is not None:
        chosen = _of_document(all_revisions, document_id)
    if sha is not None:
        prefix = sha.strip().lower()
        if not prefix or any(c not in "0123456789abcdef" for c in prefix):
            raise UsageError(f"--sha {sha!r} is not a hexadecimal SHA-256 prefix")
        chosen = [r for r in chosen if r.sha256.startswith(prefix)]
        if not chosen:
            raise UsageError(f"no revision whose SHA-256 starts with {prefix!r} (see `evfind info`)")
        if len(chosen) > 1:
            raise UsageError(f"--sha {prefix!r} matches {len(chosen)} revisions; give more digits")
        return chosen[0]
    newest: dict[str, Revision] = {}
    for r in sorted(chosen, key=lambda r: (r.document_id, r.revision_id)):
        newest[r.document_id] = r
    if len(newest) > 1:
        names = ", ".join(newest)
        raise UsageError(
            f"this database holds several documents ({names}); choose one with --document",
            key="several_documents",
            names=names,
            revisions=tuple(newest.values()),
        )
    return next(iter(newest.values()))


def select_revisions(
    conn: sqlite3.Connection, document_id: str | None = None, sha: str | None = None
) -> list[Revision]:
    """The revisions a query reads: the one ``select_revision`` picks, or, when the database
    holds several documents and neither ``document_id`` nor ``sha`` picks one, the newest
    revision of each document, by document id. Empty when the store holds no documents."""
    try:
        chosen = select_revision(conn, document_id, sha)
    except UsageError as exc:
        if exc.key != "several_documents":
            raise
        return list(exc.params["revisions"])
    return [] if chosen is None else [chosen]


def _of_document(all_revisions: list[Revision], document_id: str) -> list[Revision]:
    """The revisions of the document ``document_id`` names: its id exactly, else the one id it
    is a prefix of, case-insensitive (an id differing only in case counts as that prefix's one
    match before longer ids do). Unknown or ambiguous: a usage error naming the ids."""
    ids = sorted({r.document_id for r in all_revisions})
    if document_id in ids:
        found = document_id
    else:
        wanted = document_id.strip().casefold()
        same = [d for d in ids if d.casefold() == wanted]
        candidates = same or [d for d in ids if wanted and d.casefold().startswith(wanted)]
        if not candidates:
            raise UsageError(f"no document {document_id!r} in this database (it holds: {', '.join(ids)})")
        if len(candidates) > 1:
            raise UsageError(
                f"--document {document_id!r} matches {len(candidates)} documents "
                f"({', '.join(candidates)}); give more of the id"
            )
        found = candidates[0]
    return [r for r in all_revisions if r.document_id == found]


class PageRow(NamedTuple):
    page_id: int
    page_number: int
    page_label: str | None
    text: str
    heading: str
    section: str | None
    section_heading: str | None
    statement: str | None


def page_rows(conn: sqlite3.Connection, page_ids: list[int]) -> dict[int, PageRow]:
    if not page_ids:
        return {}
    marks = ",".join("?" * len(page_ids))
    rows = conn.execute(
        "SELECT id, page_number, page_label, text, heading, section, section_heading, statement "
        f"FROM pages WHERE id IN ({marks})",
        page_ids,
    )
    return {row[0]: PageRow(*row) for row in rows}


def page_by_number(conn: sqlite3.Connection, revision_id: int, page_number: int) -> tuple | None:
    return conn.execute(
        "SELECT id, page_number, page_label, text, raw_text, heading, section, section_heading, "
        "statement FROM pages WHERE revision_id = ? AND page_number = ?",
        (revision_id, page_number),
    ).fetchone()


def pages_labelled(conn: sqlite3.Connection, revision_id: int, label: str) -> list[int]:
    """The physical pages whose printed folio is ``label`` (case and spaces ignored: "a - 1" is
    A-1), in page order."""
    key = "".join(label.split()).upper()
    return [
        row[0]
        for row in conn.execute(
            "SELECT page_number FROM pages WHERE revision_id = ? AND replace(upper(page_label), ' ', '') = ? "
            "ORDER BY page_number",
            (revision_id, key),
        )
    ]


def terms_containing(conn: sqlite3.Connection, fragments: list[str]) -> list[tuple[str, int]]:
    """(token, pages) of the index's vocabulary for every token holding one of the fragments
    (lower-case letters and digits), read through a temporary fts5vocab table over pages_fts:
    nothing is written to the database. One scan of the vocabulary for all the fragments."""
    if not fragments:
        return []
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.evfind_vocab USING fts5vocab(main, pages_fts, row)")
    where = " OR ".join("term GLOB ?" for _ in fragments)
    return conn.execute(f"SELECT term, doc FROM temp.evfind_vocab WHERE {where}", [f"*{f}*" for f in fragments]).fetchall()


def page_sections(conn: sqlite3.Connection, revision_id: int) -> list[tuple]:
    """(page_number, label, heading, origin) for every page of a revision, in page order."""
    return conn.execute(
        "SELECT p.page_number, s.label, s.heading, s.origin FROM page_sections s "
        "JOIN pages p ON p.id = s.page_id WHERE p.revision_id = ? "
        "ORDER BY p.page_number, s.origin, s.label",
        (revision_id,),
    ).fetchall()


def blank_pages(conn: sqlite3.Connection, revision_id: int) -> list[int]:
    rows = conn.execute(
        "SELECT page_number FROM pages WHERE revision_id = ? AND trim(text) = '' "
        "ORDER BY page_number",
        (revision_id,),
    )
    return [r[0] for r in rows]


def count_pages(conn: sqlite3.Connection, revision_id: int | None = None) -> int:
    if revision_id is None:
        return conn.execute("SELECT count(*) FROM pages").fetchone()[0]
    return conn.execute(
        "SELECT count(*) FROM pages WHERE revision_id = ?", (revision_id,)
    ).fetchone()[0]


# --------------------------------------------------------------------------------------------
# Writing (always inside a transaction opened by the caller)


def find_revision(conn: sqlite3.Connection, document_id: str, sha256: str) -> Revision | None:
    row = conn.execute(
        f"SELECT {_REVISION_COLUMNS} FROM documents WHERE document_id = ? AND sha256 = ?",
        (document_id, sha256),
    ).fetchone()
    return Revision(*row) if row else None


def insert_revision(
    conn: sqlite3.Connection,
    *,
    document_id: str,
    sha256: str,
    source_name: str,
    source_kind: str,
    page_count: int,
    ingested_at: str,
    form: str | None = None,
    tickers: tuple[str, ...] = (),
) -> int:
    cursor = conn.execute(
        "INSERT INTO documents (document_id, sha256, source_name, source_kind, page_count, "
        "ingested_at, form, tickers) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (document_id, sha256, source_name, source_kind, page_count, ingested_at, form, " ".join(tickers)),
    )
    return cursor.lastrowid


def revision_form(conn: sqlite3.Connection, revision_id: int) -> str | None:
    """The form a revision was read as (10-K, 10-Q, 8-K, earnings, annual, other)."""
    row = conn.execute("SELECT form FROM documents WHERE revision_id = ?", (revision_id,)).fetchone()
    return row[0] if row else None


def revision_tickers(conn: sqlite3.Connection, revision_id: int) -> tuple[str, ...]:
    """The filer's trading symbols, as ingest read them from the revision's cover."""
    row = conn.execute("SELECT tickers FROM documents WHERE revision_id = ?", (revision_id,)).fetchone()
    return tuple(row[0].split()) if row else ()


def insert_pages(conn: sqlite3.Connection, revision_id: int, pages: list[dict]) -> None:
    """Insert a revision's pages (dicts of page_number, page_label, text, raw_text, heading,
    section, section_heading, statement and sections, a list of (label, heading, origin)), their
    sections and their pages_fts index, in three statements, not three a page (the index by
    ``INSERT ... SELECT`` over the same rows in the same order, so the same index)."""
    conn.executemany(
        "INSERT INTO pages (revision_id, page_number, page_label, text, raw_text, heading, "
        "context, section, section_heading, statement) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                revision_id,
                page["page_number"],
                page["page_label"],
                page["text"],
                page["raw_text"],
                page["heading"],
                page["context"],
                page["section"],
                page["section_heading"],
                page["statement"],
            )
            for page in pages
        ],
    )
    conn.execute(
        "INSERT INTO pages_fts (rowid, text, heading, context) "
        "SELECT id, text, heading, context FROM pages WHERE revision_id = ? ORDER BY id",
        (revision_id,),
    )
    ids = dict(conn.execute("SELECT page_number, id FROM pages WHERE revision_id = ?", (revision_id,)))
    conn.executemany(
        "INSERT OR IGNORE INTO page_sections (page_id, label, heading, origin) VALUES (?, ?, ?, ?)",
        [
            (ids[page["page_number"]], label, heading, origin)
            for page in pages
            for label, heading, origin in page["sections"]
        ],
    )


@contextmanager
def indexes_after(conn: sqlite3.Connection, table: str) -> Iterator[None]:
    """Drop ``table``'s indexes for the rows inserted inside, and create them again from their
    own SQL after: one sort per index instead of a B-tree insert per row (the facts of a
    filing: a third of their write). The same indexes at the end, in the same transaction."""
    made = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                        "AND sql IS NOT NULL ORDER BY name", (table,)).fetchall()
    for name, _ in made:
        conn.execute('DROP INDEX "{}"'.format(name.replace('"', '""')))
    yield
    for _, sql in made:
        conn.execute(sql)


def insert_common_words(conn: sqlite3.Connection, revision_id: int, words: list[str]) -> None:
    conn.executemany(
        "INSERT OR IGNORE INTO common_words (revision_id, word) VALUES (?, ?)",
        [(revision_id, word) for word in words],
    )


def common_words(conn: sqlite3.Connection, revision_id: int) -> frozenset[str]:
    rows = conn.execute("SELECT word FROM common_words WHERE revision_id = ?", (revision_id,))
    return frozenset(row[0] for row in rows)


def optimize_fts(conn: sqlite3.Connection) -> None:
    """Merge the index's segments: a smaller file and faster queries."""
    conn.execute("INSERT INTO pages_fts (pages_fts) VALUES ('optimize')")


def labelled_pages(conn: sqlite3.Connection, revision_id: int) -> int:
    return conn.execute(
        "SELECT count(*) FROM pages WHERE revision_id = ? AND page_label IS NOT NULL", (revision_id,)
    ).fetchone()[0]


# --------------------------------------------------------------------------------------------
# Sources: where a revision's PDF was, and its bytes when they are embedded (page images)


class Source(NamedTuple):
    """Where a revision's source PDF was when it was ingested, and whether its bytes are kept."""

    path: str  # absolute
    embedded: bool


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


def source(conn: sqlite3.Connection, revision_id: int) -> Source | None:
    """The recorded source PDF of a revision; None for one ingested from JSONL or text, or by an
    evfind that did not record it (a file without the sources table)."""
    if not _has_table(conn, "sources"):
        return None
    row = conn.execute(
        "SELECT path, bytes IS NOT NULL FROM sources WHERE revision_id = ?", (revision_id,)
    ).fetchone()
    return Source(row[0], bool(row[1])) if row else None


def source_bytes(conn: sqlite3.Connection, revision_id: int) -> bytes | None:
    """The embedded bytes of a revision's source PDF (``evfind ingest --embed-source``), or None."""
    if not _has_table(conn, "sources"):
        return None
    row = conn.execute("SELECT bytes FROM sources WHERE revision_id = ?", (revision_id,)).fetchone()
    return None if row is None or row[0] is None else bytes(row[0])


def set_source(conn: sqlite3.Connection, revision_id: int, path: str, data: bytes | None) -> None:
    """Record where a revision's PDF is (and embed its bytes when given); bytes embedded before
    are kept when none are given."""
    conn.execute(
        "INSERT INTO sources (revision_id, path, bytes) VALUES (?, ?, ?) "
        "ON CONFLICT (revision_id) DO UPDATE SET path = excluded.path, "
        "bytes = coalesce(excluded.bytes, sources.bytes)",
        (revision_id, path, data),
    )


def all_sources(conn: sqlite3.Connection) -> dict[tuple[str, str], tuple[str, bytes | None]]:
    """{(document_id, sha256): (path, bytes)} of every revision with a recorded source: what a
    re-index carries over."""
    if not _has_table(conn, "sources"):
        return {}
    rows = conn.execute(
        "SELECT documents.document_id, documents.sha256, sources.path, sources.bytes FROM sources "
        "JOIN documents ON documents.revision_id = sources.revision_id"
    )
    return {(doc, sha): (path, data) for doc, sha, path, data in rows}


# --------------------------------------------------------------------------------------------
# What a file is (its re-indexing, `evfind upgrade`, is reindexing.py's)


def identify(conn: sqlite3.Connection) -> tuple[int, int]:
    """(application_id, user_version) of an open database."""
    return (
        conn.execute("PRAGMA application_id").fetchone()[0],
        conn.execute("PRAGMA user_version").fetchone()[0],
    )


# How evfind's queries restrict FTS5 to some pages. FTS5 is handed rowid ranges: the pages of
# a revision are inserted in one transaction, so their rowids form a range, and it then skips
# the other revisions' entries instead of scoring them for the join to drop (with 20 revisions:
# 1 ms instead of 3.5). A page list is never handed over as `rowid IN (...)`: FTS5 would start
# the full-text query over for every page in it (16 ms instead of 2 at 2,000 pages); a list is
# checked after the range, and `+rowid` keeps SQLite from handing it to FTS5. bm25() takes its
# statistics from the whole table whatever the constraints, so the scores are the same.
def in_revision(column: str) -> str:
    """The condition that a page id (``column``) is one of the revision :revision's: its
    pages' ids are a range."""
    return (f"{column} BETWEEN (SELECT min(id) FROM pages WHERE revision_id = :revision) "
            "AND (SELECT max(id) FROM pages WHERE revision_id = :revision)")
