"""SQLite's errors as evfind's: told apart by the result code SQLite gives, not by its message.

The primary result code (the low byte of ``sqlite3.Error.sqlite_errorcode``) says what went
wrong; the extended code above it only says more (``SQLITE_BUSY_RECOVERY`` is a lock, as
``SQLITE_BUSY`` is). ``database_error`` gives the error of a file evfind reads or locks,
``write_error`` the error of the copy a writer builds.
"""

import os
import sqlite3
from pathlib import Path

from .errors import DatabaseBusyError, EvfindError, NotADatabaseError

# The primary result codes evfind tells apart (https://sqlite.org/rescode.html). The numbers are
# SQLite's stable API; Python 3.11 has them as sqlite3.SQLITE_BUSY ..., 3.10 does not.
BUSY = "SQLITE_BUSY"  # another connection holds a lock longer than the busy timeout
LOCKED = "SQLITE_LOCKED"  # a lock held inside the same connection (or shared cache)
READONLY = "SQLITE_READONLY"  # a write to a file opened read-only, or one that cannot be written
IOERR = "SQLITE_IOERR"  # the operating system failed a read or a write
CORRUPT = "SQLITE_CORRUPT"  # a page that is not what its place in the file says
FULL = "SQLITE_FULL"  # no space left (or PRAGMA max_page_count reached)
CANTOPEN = "SQLITE_CANTOPEN"  # the file (or a journal beside it) cannot be opened
NOTADB = "SQLITE_NOTADB"  # the file does not start with SQLite's header
_PRIMARY = {5: BUSY, 6: LOCKED, 8: READONLY, 10: IOERR, 11: CORRUPT, 13: FULL, 14: CANTOPEN, 26: NOTADB}


def result_code(exc: sqlite3.Error) -> str | None:
    """The primary result code of an SQLite error, by name (``SQLITE_BUSY``); None for the
    codes evfind does not tell apart."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return _code_from_message(str(exc))
    return _PRIMARY.get(code & 0xFF)


# FALLBACK for Python 3.10, whose sqlite3 errors carry no result code (``sqlite_errorcode`` and
# ``sqlite_errorname`` are new in 3.11); also for the few errors the sqlite3 module raises itself,
# which carry none either. The code is read from the message SQLite wrote for it, with the
# substrings evfind matched before it read codes. Delete with Python 3.10.
_MESSAGES = (
    (("locked", "busy"), BUSY),  # "database is locked"; "database table is locked" (LOCKED)
    (("readonly", "read-only"), READONLY),  # "attempt to write a readonly database"
    (("not a database",), NOTADB),  # "file is not a database"
    (("malformed", "corrupt"), CORRUPT),  # "database disk image is malformed"
    (("disk is full",), FULL),  # "database or disk is full"
    (("unable to open",), CANTOPEN),  # "unable to open database file"
    (("disk i/o error",), IOERR),  # "disk I/O error"
)


def _code_from_message(text: str) -> str | None:
    text = text.lower()
    return next((code for words, code in _MESSAGES if any(w in text for w in words)), None)


def database_error(exc: sqlite3.Error, path: Path) -> EvfindError:
    """The error of a database evfind reads, or locks to write."""
    code = result_code(exc)
    if code in (BUSY, LOCKED):
        return DatabaseBusyError(f"{path}: the database is locked by another process; try again")
    if code == READONLY:
        return DatabaseBusyError(f"{path}: the database cannot be written here (read-only)")
    if code == NOTADB:
        return NotADatabaseError(f"{path}: not an evfind database (the file is not SQLite or is damaged)")
    if code == CORRUPT:
        truncated = _truncation(path)
        if truncated:
            return NotADatabaseError(
                f"{path}: the database is damaged (truncated: {truncated[0]} of {truncated[1]} "
                "bytes); ingest the filing again into a new database"
            )
        return NotADatabaseError(
            f"{path}: the database is damaged (corrupt); ingest the filing again into a new database"
        )
    # IOERR, CANTOPEN and the rest: SQLite's own words say the most.
    return NotADatabaseError(f"{path}: cannot read the database ({exc})")


def write_error(exc: sqlite3.Error, path: Path, directory: Path) -> EvfindError:
    """The error of building the new copy of the database at ``path`` in ``directory``: a
    damaged original is reported as a read would report it; anything else is a failed write."""
    code = result_code(exc)
    if code in (CORRUPT, NOTADB):
        return database_error(exc, path)
    if code == FULL:
        return DatabaseBusyError(f"{path}: cannot write the database (no space left in {directory})")
    return DatabaseBusyError(f"{path}: cannot write the database ({exc})")


def _truncation(path: Path) -> tuple[int, int] | None:
    """(size, size the header says) of a file shorter than its header says (a truncated copy),
    else None. Only to explain an error SQLite gave: the file is never opened outside SQLite
    otherwise, because closing another handle on it drops the POSIX locks SQLite holds, and
    the file size alone says nothing while a WAL or an in-place writer is at work."""
    try:
        with open(os.path.realpath(path), "rb") as handle:
            head = handle.read(100)
            size = os.fstat(handle.fileno()).st_size
    except OSError:
        return None
    if len(head) < 100:
        return None
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    expected = page_size * int.from_bytes(head[28:32], "big")
    # The page count is valid when the "version-valid-for" number equals the change counter.
    if head[92:96] == head[24:28] and size < expected:
        return size, expected
    return None
