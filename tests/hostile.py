"""Helpers of the hardening tests: hostile files, fingerprints of a directory, evfind in a
subprocess, and the state of a database (which revisions it holds, whether it is intact)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from .filing import LABELS, PAGES
from .pdfgen import make_pdf

EVFIND = [sys.executable, "-m", "evfind"]


def fingerprint(folder: Path) -> dict[str, tuple[bytes | tuple[str, ...], int, int]]:
    """Every entry of a directory: a file with its bytes, a directory with the names it holds,
    each with its modification time and mode. To prove that a command changed, created,
    removed and left behind nothing."""
    return {
        p.name: (p.read_bytes() if p.is_file() else tuple(sorted(os.listdir(p))), p.stat().st_mtime_ns, p.stat().st_mode)
        for p in sorted(folder.iterdir())
    }


def run(*args, timeout: float = 120, prefix: list[str] | None = None, **kwargs) -> subprocess.CompletedProcess:
    """evfind in a subprocess, with real argv and a real exit status."""
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    return subprocess.run(
        [*(prefix or []), *EVFIND, *[str(a) for a in args]],
        capture_output=True, text=True, timeout=timeout, env=env, **kwargs,
    )


def revised_pages(number: int) -> list[str]:
    """The test filing with its capex figure changed: new bytes, a new revision."""
    pages = list(PAGES)
    pages[9] = pages[9].replace("(52.8) (47.3) (44.1)\nNet cash used", f"({number}.9) (47.3) (44.1)\nNet cash used")
    assert pages != PAGES
    return pages


def revised_pdf(path: Path, number: int) -> Path:
    return make_pdf(path, revised_pages(number), LABELS)


def long_filing(pages: int, marker: str) -> list[str]:
    """A long filing: the test filing repeated, each page with its own marker word."""
    return [PAGES[i % len(PAGES)] + f"\nPage marker {marker} {i + 1}" for i in range(pages)]


def state(db: Path) -> tuple[tuple[str, str, int], ...]:
    """The revisions a database file holds, after checking that the file alone (a copy of its
    bytes, without any journal) and its full-text index are intact."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "copy.db"
        shutil.copyfile(db, copy)
        return _state(copy)


def _state(db: Path) -> tuple[tuple[str, str, int], ...]:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO pages_fts (pages_fts, rank) VALUES ('integrity-check', 1)")
        rows = conn.execute(
            "SELECT d.document_id, d.sha256, count(p.id) FROM documents d "
            "LEFT JOIN pages p ON p.revision_id = d.revision_id GROUP BY d.revision_id ORDER BY d.revision_id"
        ).fetchall()
        for document_id, sha, pages in rows:
            declared = conn.execute("SELECT page_count FROM documents WHERE sha256 = ?", (sha,)).fetchone()[0]
            assert pages == declared, (document_id, sha, pages, declared)
        return tuple(rows)
    finally:
        conn.close()


def leftovers(folder: Path) -> list[str]:
    """Journal files and evfind temporary files in a directory."""
    return sorted(
        p.name for p in folder.iterdir()
        if p.name.endswith(("-journal", "-wal", "-shm", ".evfind-tmp"))
    )
