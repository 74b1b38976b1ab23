"""Writing a database: every change is a new file, built beside the old one and renamed over it.

A writer never changes the file readers have open. It takes the file's write lock (SQLite's
RESERVED lock: readers go on reading), so writers take turns; copies the database into a
private file in the same directory; changes the copy in one transaction; syncs it; and
renames it over the original. So a reader sees the old file or the new one, never a mix, and
never waits; a writer killed at any moment leaves the old file as it was (and at most a
hidden temporary file, which the next writer on this machine removes); the file at rest is
always one file in rollback-journal mode, which a query opens read-only anywhere.

This module handles the files: their names, locks, syncs and renames. The SQL it runs (the
lock, the copy, the transaction) is in ``store``.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from . import sqlerrors, store
from .errors import DatabaseBusyError, InputError

_TEMP_SUFFIX = ".evfind-tmp"


def _host() -> str:
    import socket  # (writes only: a query's start-up stays small)

    return socket.gethostname().replace("/", "_") or "localhost"


def rewrite(path: str | os.PathLike, build: store.Build, *, must_exist: bool = False,
            older_ok: bool = False) -> tuple[Any, str]:
    """Run ``build(conn)`` inside a transaction on a private copy of the database at ``path``
    (a new, empty file when there is none) and, when it returns ``(value, True)``, move the
    copy into place. Returns ``(value, how)``, how being ``created`` (a new file),
    ``replaced`` or ``unchanged`` (build returned ``(value, False)``; nothing was written).

    ``must_exist`` refuses to create a file; ``older_ok`` accepts a database of an older schema
    (for `evfind upgrade`). A symbolic link is written through, not replaced.
    """
    shown = Path(path)
    target = Path(os.path.realpath(shown))
    if target.is_dir():
        raise InputError(f"{shown}: is a directory, not a database file")
    directory = target.parent
    if not directory.is_dir():
        raise InputError(f"{shown}: the directory {directory} does not exist")
    while True:
        lock = _lock(target, shown, older_ok) if target.exists() else None
        if lock is None and must_exist:
            store.check_path(shown)  # raises: no such database
        try:
            done = _build_and_move(target, shown, lock, build)
        finally:
            if lock is not None:
                lock.close()  # releases the write lock (after the rename, so waiters see it)
        if done is not None:
            return done
        # Another process created the database meanwhile: take its lock and build again.


def create_empty(path: str | os.PathLike) -> None:
    """A new evfind database with no documents (ingest creates databases itself)."""
    path = Path(path)
    if path.exists() or path.is_symlink():
        raise InputError(f"{path}: already exists")
    rewrite(path, lambda conn: (store.ensure_schema(conn, path), True))


def _lock(target: Path, shown: Path, older_ok: bool) -> sqlite3.Connection | None:
    """A connection holding the write lock of the file now at ``target``; None if there is no
    file any more. If another writer renamed a new file into place while this one waited for
    the lock, the lock of the new file is taken instead."""
    while True:
        before = file_identity(target)
        if before is None:
            return None
        store.check_not_empty(target, shown)
        if not os.access(target, os.W_OK):
            raise DatabaseBusyError(f"{shown}: the database is read-only here; copy it somewhere writable")
        try:
            conn = store.begin_write(target)
        except sqlite3.Error as exc:
            raise sqlerrors.database_error(exc, shown) from None
        try:
            if file_identity(target) == before:
                store.check_schema(conn, shown, older_ok=older_ok)
                return conn
        except sqlite3.Error as exc:
            conn.close()
            raise sqlerrors.database_error(exc, shown) from None
        except BaseException:
            conn.close()
            raise
        conn.close()  # the file was replaced while we waited: lock the new one


def file_identity(path) -> tuple[int, int] | None:
    """(device, inode) of the file at a path, None where there is none to see: which file it
    is, across renames over it."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _build_and_move(target: Path, shown: Path, lock: sqlite3.Connection | None,
                    build: store.Build) -> tuple[Any, str] | None:
    directory = target.parent
    _sweep(target)
    temp = directory / f".{target.name}.{_host()}-{os.getpid()}-{os.urandom(4).hex()}{_TEMP_SUFFIX}"
    try:
        os.close(os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except OSError as exc:
        raise _os_error(exc, shown, directory) from None
    try:
        value, changed = store.build_file(temp, target if lock is not None else None, build)
        if not changed:
            return value, "unchanged"
        _fsync(temp)
        if lock is None:
            try:
                os.link(temp, target)  # fails if the path exists: never replaces another's file
            except FileExistsError:
                return None
            except OSError:  # a file system without hard links
                if target.exists():
                    return None
                os.replace(temp, target)
            how = "created"
        else:
            _keep_mode_and_owner(target, temp)
            os.replace(temp, target)
            how = "replaced"
        _fsync(directory)
        return value, how
    except sqlite3.Error as exc:
        raise sqlerrors.write_error(exc, shown, directory) from None
    except OSError as exc:
        raise _os_error(exc, shown, directory) from None
    finally:
        try:
            temp.unlink()
        except FileNotFoundError:
            pass


def _os_error(exc: OSError, shown: Path, directory: Path) -> DatabaseBusyError:
    import errno

    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return DatabaseBusyError(f"{shown}: cannot write in {directory} (read-only); copy the database somewhere writable")
    if exc.errno == errno.ENOSPC:
        return DatabaseBusyError(f"{shown}: cannot write the database (no space left in {directory})")
    return DatabaseBusyError(f"{shown}: cannot write the database ({exc.strerror or exc})")


def _keep_mode_and_owner(original: Path, new: Path) -> None:
    import stat

    info = os.stat(original)
    os.chmod(new, stat.S_IMODE(info.st_mode))
    if hasattr(os, "chown"):
        try:
            os.chown(new, info.st_uid, info.st_gid)
        except OSError:
            pass  # not allowed to give it away: the new file is the writer's


def _fsync(path: Path) -> None:
    """Make a file (or a directory's entries) durable; best effort where the OS cannot."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _sweep(target: Path) -> None:
    """Remove the temporary files of writers on this machine that were killed."""
    if os.name != "posix":
        return
    prefix = f".{target.name}.{_host()}-"
    for leftover in target.parent.iterdir() if target.parent.is_dir() else ():
        name = leftover.name
        if not (name.startswith(prefix) and name.endswith(_TEMP_SUFFIX)):
            continue
        pid = name[len(prefix):-len(_TEMP_SUFFIX)].split("-")[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            leftover.unlink()
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
