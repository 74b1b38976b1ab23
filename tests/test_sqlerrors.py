"""SQLite's errors become evfind's by result code (evfind/sqlerrors.py).

Real SQLite makes each code where a test can make it happen (a lock, a read-only connection, a
file that is not a database, a damaged page, a full database, a file that cannot be opened);
each code then maps to one evfind error, exit code and message. The Python 3.10 fallback (no
``sqlite_errorcode``: the code read from the message) is checked on the same real errors.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from evfind import sqlerrors
from evfind.errors import EXIT_BUSY, EXIT_INPUT, DatabaseBusyError, NotADatabaseError


def _small_db(path: Path, rows: int = 200) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA page_size = 512")
    conn.execute("CREATE TABLE t (x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("row %d " % i * 20,) for i in range(rows)])
    conn.commit()
    conn.close()
    return path


def _raised(action) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as caught:
        action()
    return caught.value


def _busy(tmp: Path) -> sqlite3.Error:
    db = _small_db(tmp / "busy.db")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another connection's lock: readers wait, then give up
    try:
        waiter = sqlite3.connect(db, timeout=0)
        try:
            return _raised(lambda: waiter.execute("SELECT count(*) FROM t").fetchone())
        finally:
            waiter.close()
    finally:
        holder.close()


def _locked(tmp: Path) -> sqlite3.Error:
    conn = sqlite3.connect(_small_db(tmp / "locked.db"), isolation_level=None)
    try:
        reading = conn.execute("SELECT x FROM t")
        reading.fetchone()  # a statement still reading the table ...
        return _raised(lambda: conn.execute("DROP TABLE t"))  # ... which its own connection drops
    finally:
        conn.close()


def _readonly(tmp: Path) -> sqlite3.Error:
    db = _small_db(tmp / "readonly.db")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return _raised(lambda: conn.execute("INSERT INTO t VALUES (1)"))
    finally:
        conn.close()


def _notadb(tmp: Path) -> sqlite3.Error:
    path = tmp / "notes.db"
    path.write_text("Revenue was $5 billion.\n" * 200)
    conn = sqlite3.connect(path)
    try:
        return _raised(lambda: conn.execute("SELECT * FROM sqlite_master").fetchall())
    finally:
        conn.close()


def _corrupt(tmp: Path) -> sqlite3.Error:
    path = _small_db(tmp / "corrupt.db")
    data = bytearray(path.read_bytes())
    data[512:] = bytes((i * 131) % 251 for i in range(len(data) - 512))  # every page but the first
    path.write_bytes(bytes(data))
    conn = sqlite3.connect(path)
    try:
        return _raised(lambda: conn.execute("SELECT count(*) FROM t").fetchone())
    finally:
        conn.close()


def _full(tmp: Path) -> sqlite3.Error:
    conn = sqlite3.connect(_small_db(tmp / "full.db"))
    try:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # a disk with two pages left
        return _raised(lambda: conn.execute("INSERT INTO t SELECT randomblob(4000) FROM t"))
    finally:
        conn.close()


def _cantopen(tmp: Path) -> sqlite3.Error:
    return _raised(lambda: sqlite3.connect(f"file:{tmp / 'nowhere' / 'x.db'}?mode=ro", uri=True).execute("SELECT 1"))


REAL = {
    sqlerrors.BUSY: _busy,
    sqlerrors.LOCKED: _locked,
    sqlerrors.READONLY: _readonly,
    sqlerrors.NOTADB: _notadb,
    sqlerrors.CORRUPT: _corrupt,
    sqlerrors.FULL: _full,
    sqlerrors.CANTOPEN: _cantopen,
}


@pytest.mark.parametrize("code", sorted(REAL))
def test_real_sqlite_errors_are_told_apart_by_code(tmp_path, code):
    exc = REAL[code](tmp_path)
    if getattr(exc, "sqlite_errorcode", None) is None:
        pytest.skip("Python 3.10: sqlite3 errors carry no result code (the fallback is tested below)")
    assert sqlerrors.result_code(exc) == code, (exc, exc.sqlite_errorname)


@pytest.mark.parametrize("code", sorted(REAL))
def test_the_310_fallback_reads_the_same_code_from_the_message(tmp_path, code):
    """Python 3.10 raises these errors without a code: the message alone must say as much."""
    message = str(REAL[code](tmp_path))
    without_code = sqlite3.OperationalError(message)  # as 3.10 raises it (3.11+ sets the code)
    assert getattr(without_code, "sqlite_errorcode", None) is None
    # SQLITE_LOCKED's message reads as a lock like SQLITE_BUSY's; evfind treats both alike.
    expected = sqlerrors.BUSY if code == sqlerrors.LOCKED else code
    assert sqlerrors.result_code(without_code) == expected, message


def _coded(code: int, message: str = "what SQLite said") -> sqlite3.Error:
    """An error as Python 3.11+ raises it, with its (extended) result code."""
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code
    return exc


def test_extended_codes_are_read_by_their_primary_code():
    assert sqlerrors.result_code(_coded(5 | (1 << 8))) == sqlerrors.BUSY  # SQLITE_BUSY_RECOVERY
    assert sqlerrors.result_code(_coded(10 | (3 << 8))) == sqlerrors.IOERR  # SQLITE_IOERR_WRITE
    assert sqlerrors.result_code(_coded(14 | (2 << 8))) == sqlerrors.CANTOPEN  # SQLITE_CANTOPEN_ISDIR
    assert sqlerrors.result_code(_coded(11 | (1 << 8))) == sqlerrors.CORRUPT  # SQLITE_CORRUPT_VTAB
    assert sqlerrors.result_code(_coded(1)) is None  # SQLITE_ERROR: not one evfind tells apart
    # the code decides, not the words: a lock whose message says nothing of one
    assert sqlerrors.result_code(_coded(5, "cannot commit transaction")) == sqlerrors.BUSY
    assert sqlerrors.result_code(_coded(1, "no such table: locked")) is None


# code -> (error class, exit code, message after "DB: ") of a database read (or locked to write)
READ = {
    5: (DatabaseBusyError, EXIT_BUSY, "the database is locked by another process; try again"),
    6: (DatabaseBusyError, EXIT_BUSY, "the database is locked by another process; try again"),
    8: (DatabaseBusyError, EXIT_BUSY, "the database cannot be written here (read-only)"),
    26: (NotADatabaseError, EXIT_INPUT, "not an evfind database (the file is not SQLite or is damaged)"),
    11: (NotADatabaseError, EXIT_INPUT,
         "the database is damaged (corrupt); ingest the filing again into a new database"),
    10: (NotADatabaseError, EXIT_INPUT, "cannot read the database (what SQLite said)"),
    14: (NotADatabaseError, EXIT_INPUT, "cannot read the database (what SQLite said)"),
    13: (NotADatabaseError, EXIT_INPUT, "cannot read the database (what SQLite said)"),
    1: (NotADatabaseError, EXIT_INPUT, "cannot read the database (what SQLite said)"),
}
# ... and of the copy a writer builds, in DIR
WRITE = {
    13: (DatabaseBusyError, EXIT_BUSY, "cannot write the database (no space left in DIR)"),
    11: READ[11],
    26: READ[26],
    5: (DatabaseBusyError, EXIT_BUSY, "cannot write the database (what SQLite said)"),
    8: (DatabaseBusyError, EXIT_BUSY, "cannot write the database (what SQLite said)"),
    10: (DatabaseBusyError, EXIT_BUSY, "cannot write the database (what SQLite said)"),
    1: (DatabaseBusyError, EXIT_BUSY, "cannot write the database (what SQLite said)"),
}


@pytest.mark.parametrize("code", sorted(READ))
def test_each_code_of_a_read_is_one_evfind_error(tmp_path, code):
    path = tmp_path / "acme.db"  # no such file: a damaged one is not told from a truncated one
    error = sqlerrors.database_error(_coded(code), path)
    kind, exit_code, message = READ[code]
    assert type(error) is kind and error.exit_code == exit_code
    assert str(error) == f"{path}: {message}"


@pytest.mark.parametrize("code", sorted(WRITE))
def test_each_code_of_a_write_is_one_evfind_error(tmp_path, code):
    path, directory = tmp_path / "acme.db", tmp_path / "DIR"
    error = sqlerrors.write_error(_coded(code), path, directory)
    kind, exit_code, message = WRITE[code]
    assert type(error) is kind and error.exit_code == exit_code
    assert str(error) == f"{path}: {message.replace('DIR', str(directory))}"


def test_a_truncated_database_says_how_much_is_missing(tmp_path):
    whole = _small_db(tmp_path / "whole.db")
    cut = tmp_path / "cut.db"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    conn = sqlite3.connect(cut)
    try:
        exc = _raised(lambda: conn.execute("SELECT count(*) FROM t").fetchone())
    finally:
        conn.close()
    assert sqlerrors.result_code(exc) == sqlerrors.CORRUPT
    error = sqlerrors.database_error(exc, cut)
    size = whole.stat().st_size
    assert str(error) == (
        f"{cut}: the database is damaged (truncated: {size // 2} of {size} bytes); "
        "ingest the filing again into a new database"
    )


def test_real_errors_end_to_end(tmp_path):
    """The errors SQLite really raised, through the mapping: the message a user reads."""
    for code, (kind, exit_code, message) in {
        sqlerrors.BUSY: READ[5], sqlerrors.LOCKED: READ[6], sqlerrors.READONLY: READ[8],
        sqlerrors.NOTADB: READ[26], sqlerrors.CORRUPT: READ[11],
    }.items():
        error = sqlerrors.database_error(REAL[code](tmp_path), tmp_path / "x.db")
        assert (type(error), error.exit_code, str(error)) == (kind, exit_code, f"{tmp_path / 'x.db'}: {message}"), code
    full = sqlerrors.write_error(_full(tmp_path), tmp_path / "x.db", tmp_path)
    assert (type(full), full.exit_code) == (DatabaseBusyError, EXIT_BUSY)
    assert str(full) == f"{tmp_path / 'x.db'}: cannot write the database (no space left in {tmp_path})"
