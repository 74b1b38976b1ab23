"""Hardening (issue 7), part 2: writes killed at any moment, writers and readers at the same
time, and databases on read-only media.

Each write is a new file renamed over the old one (writes.rewrite), so these tests check that a
database file alone (copied without any journal) always holds the old content or the new one,
intact (PRAGMA integrity_check and the FTS5 integrity-check), and that queries never write.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from evfind import Finder, store, writes
from evfind.ingest import ingest

from .hostile import EVFIND, fingerprint, leftovers, long_filing, revised_pdf, run, state
from .pdfgen import make_pdf

CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------------------------
# Atomicity: an ingest killed at each step of its write.

# Runs an ingest that SIGKILLs itself at one step: after (or before) the function named.
_KILL_AT = r"""
import os, signal, sys
import evfind.ingest as ingest_module
import evfind.store as store

step, source, db = sys.argv[1:4]

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def after(module, name, part=None):
    original = getattr(module, name)
    def wrapper(*args, **kwargs):
        if part is not None:  # half of the pages, then die in the middle of the inserts
            args = list(args)
            args[2] = args[2][: len(args[2]) // 2]
        original(*args, **kwargs)
        die()
    setattr(module, name, wrapper)

def before(module, name):
    setattr(module, name, lambda *args, **kwargs: die())

{
    "extracted": lambda: after(ingest_module, "prepare_pages"),
    "schema": lambda: after(store, "ensure_schema"),
    "half-the-pages": lambda: after(store, "insert_pages", part=True),
    "all-the-pages": lambda: after(store, "insert_pages"),
    "indexed": lambda: after(store, "optimize_fts"),
    "synced": lambda: before(os, "replace") or before(os, "link"),
    "moved": lambda: after(os, "replace") or after(os, "link"),
    "done": lambda: after(ingest_module, "_result"),
}[step]()
ingest_module.ingest(source, db)
"""

STEPS_BEFORE = ["extracted", "schema", "half-the-pages", "all-the-pages", "indexed", "synced"]
STEPS_AFTER = ["moved", "done"]


@pytest.mark.parametrize("step", STEPS_BEFORE + STEPS_AFTER)
def test_an_ingest_killed_at_each_step_adds_all_or_nothing(tmp_path, filing_pdf, step):
    db = ingest(filing_pdf).db_path
    old = state(db)
    source = revised_pdf(tmp_path / "revised.pdf", 61)
    killed = subprocess.run([sys.executable, "-c", _KILL_AT, step, str(source), str(db)])
    assert killed.returncode == -signal.SIGKILL
    assert not db.with_name(db.name + "-journal").exists()
    after = state(db)
    if step in STEPS_BEFORE:
        assert after == old
    else:
        assert after == old + (("revised", sha256(source), 12),)
    # The next ingest works, and removes what the killed one left behind.
    again = run("ingest", revised_pdf(tmp_path / "again.pdf", 62), "--db", db)
    assert again.returncode == 0, again.stderr
    assert leftovers(tmp_path) == []
    assert len(state(db)) == len(after) + 1


@pytest.mark.parametrize("step", ["half-the-pages", "synced", "moved"])
def test_a_new_database_killed_while_created_is_not_there_or_whole(tmp_path, filing_pdf, step):
    db = tmp_path / "new.db"
    killed = subprocess.run([sys.executable, "-c", _KILL_AT, step, str(filing_pdf), str(db)])
    assert killed.returncode == -signal.SIGKILL
    if step == "moved":
        assert state(db) == (("ACME_2024_10K", sha256(filing_pdf), 12),)
    else:
        assert not db.exists()
        missing = run("query", db, CAPEX)
        assert missing.returncode == 3 and "no such database" in missing.stderr


def test_sigkill_during_a_large_ingest(tmp_path, filing_pdf):
    """A 1,500-page PDF, killed from outside before, during and after its write."""
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    big = make_pdf(tmp_path / "big.pdf", long_filing(1500, "alpha"))
    old = state(db)
    new = old + (("big", sha256(big), 1500),)
    landed = {}

    def temp_exists() -> bool:
        return any(name.endswith(".evfind-tmp") for name in os.listdir(tmp_path))

    inode = os.stat(db).st_ino
    moments = {
        "before": lambda: True,  # at once: while Python starts and the pages are extracted
        "during": temp_exists,  # the copy is being written
        "after": lambda: os.stat(db).st_ino != inode,  # renamed into place
    }
    for moment, ready in moments.items():
        process = subprocess.Popen([*EVFIND, "ingest", str(big), "--db", str(db), "-q"])
        deadline = time.monotonic() + 60
        while not ready() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        process.send_signal(signal.SIGKILL)
        landed[moment] = process.wait() == -signal.SIGKILL
        current = state(db)
        assert current in (old, new), moment
        if moment == "before":
            assert current == old
        if moment == "after":
            assert current == new
        assert not db.with_name(db.name + "-journal").exists()
        if current == new:
            break
    assert landed["before"] and landed["during"], landed  # the kills that matter did land
    if state(db) != new:  # the process ended before the last kill: the write is whole
        assert run("ingest", big, "--db", db).returncode == 0
    assert state(db) == new and leftovers(tmp_path) == []
    result = run("query", db, "--document", "big", "--format", "json", "--", "Page marker alpha 1499")
    assert result.returncode == 0 and '"page_number": 1499' in result.stdout


# ---------------------------------------------------------------------------------------------
# Concurrency: readers never wait for writers; writers take turns.

_WRITER = r"""
import sys
from evfind.ingest import ingest
db = sys.argv[1]
for source in sys.argv[2:]:
    ingest(source, db)
"""


def test_queries_keep_answering_while_ingests_write(tmp_path, filing_pdf, cli):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    sources = [make_pdf(tmp_path / f"big{i}.pdf", long_filing(800, f"rev{i}")) for i in range(3)]
    held = Finder(db)  # opened before any write: keeps reading the file it opened
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(db), *map(str, sources)])
    answered, during, seen = 0, 0, []
    try:
        while True:
            running = writer.poll() is None
            with Finder(db, document="ACME_2024_10K") as finder:
                answer = finder.query(CAPEX)
                assert answer.results[0].page_number == 10
                seen.append(len(store.revisions(finder.conn)))
            if answered % 5 == 0:
                result = cli("query", db, CAPEX, "--document", "ACME_2024_10K")
                assert result.exit_code == 0 and result.stderr == "", result.output
            assert held.query(CAPEX).results[0].page_number == 10
            answered += 1
            during += running
            if not running:
                break
    finally:
        writer.wait(timeout=120)
        held.close()
    assert writer.returncode == 0
    assert during >= 3, during  # queries ran while the writer wrote
    assert seen == sorted(seen) and seen[-1] == 4  # never a revision lost or half there
    assert len(state(db)) == 4 and leftovers(tmp_path) == []


def _hold_write_lock(db: Path) -> sqlite3.Connection:
    """Another writer, in the middle of its write: holds the database's write lock."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def test_two_ingests_into_one_database_take_turns(tmp_path, filing_pdf):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    first, second = revised_pdf(tmp_path / "r61.pdf", 61), revised_pdf(tmp_path / "r62.pdf", 62)
    lock = _hold_write_lock(db)
    try:
        ingests = [subprocess.Popen([*EVFIND, "ingest", str(p), "--db", str(db), "--document-id", "ACME_2024_10K"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for p in (first, second)]
        time.sleep(1.5)  # both have extracted their pages and wait for the lock
        assert all(p.poll() is None for p in ingests)
        with Finder(db) as finder:  # a writer holding the lock does not stop a reader
            assert finder.query(CAPEX).results[0].page_number == 10
    finally:
        lock.close()
    outputs = [p.communicate(timeout=60) for p in ingests]
    assert [p.returncode for p in ingests] == [0, 0], outputs
    assert all("added revision to ACME_2024_10K" in out for out, _ in outputs)
    assert {sha for _, sha, _ in state(db)} == {sha256(filing_pdf), sha256(first), sha256(second)}
    assert leftovers(tmp_path) == []


def test_the_same_bytes_ingested_twice_at_once_are_added_once(tmp_path, filing_pdf):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    source = revised_pdf(tmp_path / "r61.pdf", 61)
    lock = _hold_write_lock(db)
    try:
        ingests = [subprocess.Popen([*EVFIND, "ingest", str(source), "--db", str(db), "--document-id", "ACME_2024_10K"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        time.sleep(1.5)
    finally:
        lock.close()
    outputs = [p.communicate(timeout=60)[0] for p in ingests]
    assert [p.returncode for p in ingests] == [0, 0], outputs
    assert sum("added revision to ACME_2024_10K" in out for out in outputs) == 1, outputs
    assert sum("is already ingested (12 pages); nothing to do" in out for out in outputs) == 1, outputs
    assert len(state(db)) == 2


def test_two_ingests_creating_one_database_both_land(tmp_path, filing_pdf):
    db = tmp_path / "new.db"
    second = revised_pdf(tmp_path / "revised.pdf", 61)
    ingests = [subprocess.Popen([*EVFIND, "ingest", str(p), "--db", str(db)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for p in (filing_pdf, second)]
    outputs = sorted(p.communicate(timeout=60)[0] for p in ingests)
    assert [p.returncode for p in ingests] == [0, 0], outputs
    assert sorted(out.split(": ")[1].split(" ")[0] for out in outputs) == ["added", "created"]
    assert {sha for _, sha, _ in state(db)} == {sha256(filing_pdf), sha256(second)}
    assert leftovers(tmp_path) == []


def test_a_lock_another_program_holds_too_long_is_reported(cli, tmp_path, filing_pdf, monkeypatch):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    source = revised_pdf(tmp_path / "revised.pdf", 61)
    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(store, "WRITE_TIMEOUT_MS", 200)
    before = fingerprint(tmp_path)
    # Not evfind: a program that writes in place and, while it does, locks out readers too.
    other = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert other.stdout.readline() == "locked\n"
        for args in [("query", db, CAPEX), ("info", db), ("ingest", source, "--db", db)]:
            result = cli(*args)
            assert result.exit_code == 5, result.output
            assert result.stderr == f"Error: {db}: the database is locked by another process; try again\n"
    finally:
        other.communicate("")
    assert fingerprint(tmp_path) == before
    assert cli("query", db, CAPEX).exit_code == 0


# ---------------------------------------------------------------------------------------------
# Queries never write: not the file, not its time stamp, not a journal beside it.


def test_queries_change_nothing_where_they_could_write(cli, tmp_path, filing_pdf):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    old_sha = sha256(filing_pdf)
    assert cli("ingest", revised_pdf(tmp_path / "r.pdf", 61), "--db", db, "--document-id", "ACME_2024_10K").exit_code == 0
    before = fingerprint(tmp_path)
    for args in [
        ("query", db, CAPEX), ("query", db, CAPEX, "--format", "json"), ("query", db, CAPEX, "-f", "markdown"),
        ("query", db, CAPEX, "--explain"), ("query", db, CAPEX, "--sha", old_sha[:8]),
        ("query", db, "zebra"), ("query", db, "the"), ("show", db, "10"), ("show", db, "7", "--raw"),
        ("info", db), ("info", db, "--format", "json"),
    ]:
        result = cli(*args)
        assert result.exit_code in (0, 1, 2), (args, result.output)
        assert fingerprint(tmp_path) == before, args
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# Read-only media. Root (as tests usually run in CI) may write through chmod, so the directory
# is made really read-only: a read-only bind mount in a private mount namespace, the immutable
# attribute, or permissions (with root's override capabilities dropped). Each is skipped, with
# the reason, where the machine cannot provide it.

# Root loses the capabilities that let it write whatever the permissions say, so that the
# permissions of a directory and a file apply to it as to anyone.
_NO_OVERRIDE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner,-linux_immutable",
                "--inh-caps", "-dac_override,-dac_read_search,-fowner,-linux_immutable"]


class ReadOnlyFolder:
    """A directory whose files evfind cannot change, and a way to run evfind on it."""

    def __init__(self, how: str, folder: Path):
        self.how, self.folder = how, folder

    def prefix(self) -> list[str]:
        if self.how == "mount":
            script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
            return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", str(self.folder)]
        if self.how == "permissions" and os.geteuid() == 0:
            return list(_NO_OVERRIDE)
        return []

    def run(self, *args) -> subprocess.CompletedProcess:
        return run(*args, prefix=self.prefix())

    def __enter__(self) -> ReadOnlyFolder:
        if self.how == "immutable":
            for path in [*self.folder.iterdir(), self.folder]:
                subprocess.run(["chattr", "+i", str(path)], check=True, capture_output=True)
        if self.how == "permissions":
            for path in self.folder.iterdir():
                path.chmod(0o444)
            self.folder.chmod(0o555)
        return self

    def __exit__(self, *exc) -> None:
        if self.how == "immutable":
            for path in [self.folder, *self.folder.iterdir()]:
                subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        if self.how == "permissions":
            self.folder.chmod(0o755)
            for path in self.folder.iterdir():
                path.chmod(0o644)

    def writable(self) -> bool:
        """Can the process that runs evfind write in the folder? (the check of the check)"""
        probe = f"open({str(self.folder / 'probe')!r}, 'w')"
        done = subprocess.run([*self.prefix(), sys.executable, "-c", probe], capture_output=True, text=True)
        return done.returncode == 0


def _unavailable(how: str) -> str | None:
    """Why this machine cannot make a read-only folder this way (None when it can)."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "ro"
        folder.mkdir()
        (folder / "file").write_text("x")
        os.chmod(scratch, 0o755)
        if how == "mount":
            if not shutil.which("unshare"):
                return "unshare(1) is not installed"
            done = subprocess.run(ReadOnlyFolder(how, folder).prefix() + ["true"], capture_output=True, text=True)
            if done.returncode != 0:
                return f"no private read-only mount here: {done.stderr.strip()[:120]}"
        elif how == "immutable":
            if not shutil.which("chattr"):
                return "chattr(1) is not installed"
            done = subprocess.run(["chattr", "+i", str(folder / "file")], capture_output=True, text=True)
            if done.returncode != 0:
                return f"the immutable attribute is not available here: {done.stderr.strip()[:120]}"
            subprocess.run(["chattr", "-i", str(folder / "file")], capture_output=True)
        elif how == "permissions" and os.geteuid() == 0:
            if not shutil.which("setpriv"):
                return "setpriv(1) is not installed: root would write through the permissions"
            done = subprocess.run([*_NO_OVERRIDE, "true"], capture_output=True, text=True)
            if done.returncode != 0:
                return f"cannot drop root's capabilities here: {done.stderr.strip()[:120]}"
        with ReadOnlyFolder(how, folder) as readonly:
            if readonly.writable():
                return f"the folder stays writable with {how}"
    return None


@pytest.fixture(params=["mount", "immutable", "permissions"])
def read_only(request, tmp_path_factory):
    reason = _unavailable(request.param)
    if reason:
        pytest.skip(reason)
    # A folder every user can reach (pytest's own are private to their owner).
    scratch = Path(tempfile.mkdtemp(prefix="evfind-ro-"))
    scratch.chmod(0o755)
    folder = scratch / "media"
    folder.mkdir()
    yield ReadOnlyFolder(request.param, folder)
    shutil.rmtree(scratch, ignore_errors=True)


def test_queries_on_read_only_media(read_only, filing_pdf):
    folder = read_only.folder
    db = ingest(filing_pdf, folder / "acme.db").db_path
    revised = revised_pdf(filing_pdf.parent / "revised.pdf", 61)
    shutil.copy(revised, folder.parent / "revised.pdf")  # a source every user can read
    wal = folder / "wal.db"  # a copy another program left in WAL mode
    shutil.copy(db, wal)
    with sqlite3.connect(wal) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    os.utime(db, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    with read_only:
        before = fingerprint(folder)
        assert not read_only.writable()
        for target in (db, wal):
            result = read_only.run("query", target, CAPEX, "--format", "json")
            assert result.returncode == 0, result.stderr
            assert '"page_number": 10' in result.stdout and result.stderr == ""
        shown = read_only.run("show", db, "10")
        assert shown.returncode == 0 and "Purchases of property, plant and equipment (52.8)" in shown.stdout
        assert read_only.run("info", db).returncode == 0
        refused = read_only.run("ingest", folder.parent / "revised.pdf", "--db", db)
        assert refused.returncode == 5, refused.stderr
        assert refused.stderr.startswith(f"Error: {db}: ")
        assert "read-only" in refused.stderr and len(refused.stderr.splitlines()) == 1
        upgrade = read_only.run("upgrade", db)  # current: nothing to write, so no need to
        assert upgrade.returncode == 0 and upgrade.stdout.endswith("nothing to do\n"), upgrade.stderr
        assert fingerprint(folder) == before  # bytes, time stamps, no journal, no temp file
    assert leftovers(folder) == []


def test_a_half_written_database_on_read_only_media_is_refused(read_only, filing_pdf):
    from .test_hardening import _hot_journal

    db = ingest(filing_pdf, read_only.folder / "acme.db").db_path
    _hot_journal(db)
    with read_only:
        before = fingerprint(read_only.folder)
        result = read_only.run("query", db, CAPEX)
        assert result.returncode == 5
        assert result.stderr.startswith(f"Error: {db}: an interrupted write left acme.db-journal beside it")
        assert fingerprint(read_only.folder) == before


# ---------------------------------------------------------------------------------------------
# Writes: where the file lies, what it keeps, what is left behind.


def test_ingest_into_a_directory_that_does_not_exist(cli, tmp_path, filing_pdf):
    db = tmp_path / "nowhere" / "acme.db"
    before = fingerprint(tmp_path)
    result = cli("ingest", filing_pdf, "--db", db)
    assert result.exit_code == 3
    assert result.stderr == f"Error: {db}: the directory {tmp_path / 'nowhere'} does not exist\n"
    assert fingerprint(tmp_path) == before and not (tmp_path / "nowhere").exists()


def test_a_write_goes_through_a_symlink_and_keeps_the_file_mode(cli, tmp_path, filing_pdf):
    real = ingest(filing_pdf, tmp_path / "real.db").db_path
    real.chmod(0o640)
    link = tmp_path / "link.db"
    link.symlink_to(real.name)
    result = cli("ingest", revised_pdf(tmp_path / "revised.pdf", 61), "--db", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and len(state(real)) == 2
    assert real.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_the_next_write_removes_what_a_killed_writer_left(tmp_path, filing_pdf):
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()  # a process id that no process has now
    dead = tmp_path / f".acme.db.{writes._host()}-{finished.pid}-0badf00d.evfind-tmp"
    live = tmp_path / f".acme.db.{writes._host()}-{os.getpid()}-0badf00d.evfind-tmp"
    other = tmp_path / f".acme.db.another-host-{finished.pid}-0badf00d.evfind-tmp"
    for path in (dead, live, other):
        path.write_bytes(b"half a database")
    ingest(revised_pdf(tmp_path / "revised.pdf", 61), db)
    assert not dead.exists()  # its writer is gone
    assert live.exists() and other.exists()  # a writer still running, or on another machine


_OUT_OF_SPACE = r"""
import json, shutil, sqlite3, subprocess, sys
from pathlib import Path
db, source, folder = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
shutil.copy(db, folder / "acme.db")
before = (folder / "acme.db").read_bytes()
done = subprocess.run([sys.executable, "-m", "evfind", "ingest", source, "--db", str(folder / "acme.db")],
                      capture_output=True, text=True)
print(json.dumps({"code": done.returncode, "stderr": done.stderr, "files": sorted(p.name for p in folder.iterdir()),
                  "same": (folder / "acme.db").read_bytes() == before}))
"""


def test_a_write_that_runs_out_of_space_changes_nothing(tmp_path, filing_pdf):
    import json

    if not shutil.which("unshare") or subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "true"], capture_output=True
    ).returncode != 0:
        pytest.skip("no private mount namespace here to mount a small file system in")
    db = ingest(filing_pdf, tmp_path / "acme.db").db_path
    source = make_pdf(tmp_path / "big.pdf", long_filing(300, "beta"))
    folder = tmp_path / "small"
    folder.mkdir()
    size_kb = db.stat().st_size // 1024 + 24  # the database fits; a copy of it does not
    script = f'mount -t tmpfs -o size={size_kb}k tmpfs "$1" && shift && exec "$@"'
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", str(folder),
         sys.executable, "-c", _OUT_OF_SPACE, str(db), str(source), str(folder)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["code"] == 5, report
    assert report["stderr"] == f"Error: {folder / 'acme.db'}: cannot write the database (no space left in {folder})\n"
    assert report["files"] == ["acme.db"] and report["same"]
