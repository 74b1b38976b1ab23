"""Issue 11, item 7: `evfind ingest a.pdf b.pdf dir/ --jobs N`: one database per filing, N at a
time in processes of their own, a line per filing as it lands, an error line per failure while
the others still land, and Ctrl-C leaving every database whole. Through the CLI."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evfind import store

from .conftest import REPO, snapshot, write_jsonl
from .filing import LABELS, PAGES
from .hostile import EVFIND, leftovers, long_filing, revised_pages, state
from .pdfgen import make_pdf


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def line_of(db: Path, name: str, pages: int = 12) -> str:
    """The pattern of the line a single ingest prints for a new database."""
    return rf"{re.escape(str(db))}: created {re.escape(name)} sha256 [0-9a-f]{{12}}: {pages} pages.*"


@pytest.fixture
def filings(tmp_path) -> dict[str, Path]:
    """Three PDFs given one by one, and a folder of two more (one named .PDF) with a subfolder."""
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    return {
        "a": make_pdf(tmp_path / "a.pdf", PAGES, LABELS),
        "b": make_pdf(tmp_path / "b.pdf", revised_pages(61), LABELS),
        "c": make_pdf(tmp_path / "c.pdf", revised_pages(62)),
        "folder": folder,
        "d": make_pdf(folder / "d.pdf", revised_pages(63)),
        "e": make_pdf(folder / "E.PDF", revised_pages(64)),
        "deep": make_pdf(folder / "sub" / "deep.pdf", revised_pages(65)),
    }


@pytest.mark.parametrize("jobs", ["2", "1", "0"])
def test_many_filings_each_into_its_own_database(cli, filings, jobs):
    f = filings
    result = cli("ingest", f["a"], f["b"], f["c"], f["folder"], "--jobs", jobs)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no bar: stderr is not a terminal
    expected = {name: f[name].with_suffix(".db") for name in "abcde"}
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    for name, db in expected.items():  # a line each, in the order they landed
        stem = f[name].stem
        assert sum(bool(re.fullmatch(line_of(db, stem), line)) for line in lines) == 1, (name, lines)
        assert state(db) == ((stem, sha256(f[name]), 12),)
    assert not (f["folder"] / "sub" / "deep.db").exists()  # a directory's own PDFs only
    if jobs == "1":  # the line is the one a single ingest prints
        single = cli("ingest", f["a"], "--db", f["a"].parent / "single.db")
        assert lines[0].split(": ", 1)[1] == single.stdout.strip().split(": ", 1)[1]


def test_out_dir(cli, filings, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    result = cli("ingest", filings["a"], filings["folder"], "--out-dir", out, "-j", "2")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["E.db", "a.db", "d.db"]
    assert not filings["a"].with_suffix(".db").exists()
    missing = cli("ingest", filings["a"], filings["b"], "--out-dir", tmp_path / "nowhere")
    assert missing.exit_code == 2
    assert missing.stderr == f"Error: --out-dir {tmp_path / 'nowhere'}: no such directory\n"
    one = cli("ingest", filings["c"], "--out-dir", out)  # one filing may go there too
    assert one.exit_code == 0 and (out / "c.db").is_file()


def test_a_failure_is_reported_and_the_others_land(cli, filings, tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_text("not a PDF\n" * 20)
    result = cli("ingest", filings["a"], bad, filings["b"], "--jobs", "2")
    assert result.exit_code == 3
    assert result.stderr == f"Error: {bad}: not a PDF file (it does not start with %PDF-)\n"
    assert len(result.stdout.splitlines()) == 2
    assert state(filings["a"].with_suffix(".db")) and state(filings["b"].with_suffix(".db"))
    assert not bad.with_suffix(".db").exists()


@pytest.mark.parametrize("order, status", [(["a", "old", "bad"], 4), (["a", "bad", "old"], 3)])
def test_the_exit_status_is_that_of_the_first_failure_in_the_order_given(cli, filings, tmp_path, order, status):
    bad = tmp_path / "bad.pdf"
    bad.write_text("not a PDF\n" * 20)
    old = make_pdf(tmp_path / "old.pdf", revised_pages(70))
    cli("ingest", old)
    with sqlite3.connect(old.with_suffix(".db")) as conn:  # a database of an older evfind beside it
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    conn.close()
    paths = {"a": filings["a"], "bad": bad, "old": old}
    result = cli("ingest", *[paths[name] for name in order], "--jobs", "2")
    assert result.exit_code == status
    errors = result.stderr.splitlines()
    assert len(errors) == 2 and all(line.startswith("Error: ") for line in errors)
    assert f"Error: {old}: {old.with_suffix('.db')}: written by an older evfind" in result.stderr
    assert state(filings["a"].with_suffix(".db"))


def test_a_directory_without_pdfs_is_a_failure_of_its_own(cli, filings, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("ingest", empty, filings["a"])
    assert result.exit_code == 3
    assert result.stderr == f"Error: {empty}: no filings in this directory (*.pdf, *.htm, *.html; subdirectories are not read)\n"
    assert state(filings["a"].with_suffix(".db"))


@pytest.mark.parametrize(
    "options, message",
    [
        (["--db", "x.db"], "--db names the database of one filing; for several, give --out-dir DIR or none (each beside its filing)"),
        (["--document-id", "X"], "--document-id names one filing's document; with several, each is named after its file"),
    ],
)
def test_one_database_or_document_for_several_filings_is_a_usage_error(cli, filings, tmp_path, options, message):
    before = snapshot(tmp_path)
    for sources in ([filings["a"], filings["b"]], [filings["folder"]]):
        result = cli("ingest", *sources, *options)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == f"Error: {message}\n"
    assert snapshot(tmp_path) == before


def test_two_filings_for_one_database_are_a_usage_error(cli, filings, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    twin = make_pdf(other / "a.pdf", revised_pages(66))
    out = tmp_path / "out"
    out.mkdir()
    result = cli("ingest", filings["a"], twin, "--out-dir", out)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {filings['a']} and {twin} would both be written to {out / 'a.db'}; ingest one of them with --db\n"
    assert list(out.iterdir()) == []
    text = write_jsonl(tmp_path / "a.jsonl", PAGES)  # a.pdf and a.jsonl: both a.db
    assert cli("ingest", filings["a"], text).exit_code == 2


def test_a_filing_named_twice_is_ingested_once(cli, filings):
    result = cli("ingest", filings["d"], filings["folder"], filings["d"], "-j", "2")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2  # d and E


@pytest.mark.parametrize("jobs", ["-1", "two"])
def test_jobs_must_be_a_count(cli, filings, jobs):
    result = cli("ingest", filings["a"], filings["b"], "--jobs", jobs)
    assert result.exit_code == 2 and "--jobs" in result.stderr


def test_progress_bar_counts_filings_on_a_terminal(monkeypatch):
    from evfind import cli_ingest

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    bar = cli_ingest._Bar(4, enabled=True)
    bar.show(1.5, 4)
    assert terminal.getvalue().endswith("\rIngesting [###########...................] 1/4 filings")
    with bar.aside():
        sys.stderr.write("Error: a line of its own\n")
    assert "\r" + " " * 70 + "\rError: a line of its own\n\rIngesting [" in terminal.getvalue()
    bar.clear()
    assert terminal.getvalue().endswith("\r")


# ---------------------------------------------------------------------------------------------
# Ctrl-C


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory) -> Path:
    """A filing long enough that the ones being read when the signal is sent are still being
    read when the parent acts on it, however loaded the machine. At 3000 pages they were not
    always: on two loaded cores, reading 3000 pages took 2.3-2.8 s, and up to 2.3 s passed
    between the small filing landing and the parent handling the signal (the first line's
    imports, this process waking to read it), so in 5 runs of 230 a long one had finished
    reading, was being written, and landed. Made once (12000 pages), copied for each test."""
    return make_pdf(tmp_path_factory.mktemp("long") / "long.pdf", long_filing(12000, "long"))


@pytest.mark.parametrize("whom, jobs", [("group", "2"), ("parent", "2"), ("group", "1")])
def test_ctrl_c_stops_the_workers_and_leaves_every_database_whole(tmp_path, long_pdf, whom, jobs):
    """SIGINT as a terminal sends it (to the whole process group), or to the parent alone, once
    a small filing has landed while a long one is being read and the next has started: both
    stop at their next page (neither lands), the queued ones never start, and what is on disk
    is the small filing's database, whole, and nothing else."""
    folder = tmp_path / "many"
    folder.mkdir()
    small = make_pdf(folder / "a_small.pdf", long_filing(60, "small"))
    for i in range(4):
        shutil.copyfile(long_pdf, folder / f"b_long{i}.pdf")
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    process = subprocess.Popen([*EVFIND, "ingest", folder, "--jobs", jobs], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True, cwd=REPO)
    first = process.stdout.readline()  # the small filing has landed; two long ones are being read
    assert re.fullmatch(line_of(small.with_suffix(".db"), "a_small", 60), first.rstrip("\n")), first
    if whom == "group":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    rest, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert rest == ""
    assert stderr == "Error: interrupted; 1 of 5 filings ingested (listed above), the others left as they were\n"
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".pdf")) == ["a_small.db"]
    assert state(small.with_suffix(".db")) == (("a_small", sha256(small), 60),)
    assert leftovers(folder) == []


# Ctrl-C while concurrent.futures.wait holds the futures' locks: in the parent, SIGINT can land at
# any bytecode, and the loop of wait() acquires each future's lock in turn. A KeyboardInterrupt
# raised there left the locks it had taken held for ever, so the pool's manager thread could not
# mark a future done or cancelled and executor.shutdown(wait=True) waited on it: the run hung
# (rarely, under load, where the parent is preempted mid-loop). Here the signal lands exactly there.
INSIDE_WAIT = """
import signal, sys, time
from pathlib import Path
import concurrent.futures._base as base
import evfind.many as many

def ingest(source, db, progress=None, **options):  # a long filing: a page every 10 ms
    for page in range(1, 3001):
        time.sleep(0.01)
        progress(page, 3000)

calls = []

def enter(self):  # _AcquireFutures.__enter__, with Ctrl-C after the first lock of the third wait
    calls.append(1)
    for i, future in enumerate(self.futures):
        future._condition.acquire()
        if i == 0 and len(calls) == 3:
            signal.raise_signal(signal.SIGINT)

many.ingest = ingest
base._AcquireFutures.__enter__ = enter
jobs = [many.Job(Path(f"{i}.pdf"), Path(f"{i}.db")) for i in range(4)]
try:
    many.ingest_many(jobs, workers=2, progress=lambda done, total: None)
except many.Interrupted as stopped:
    print(f"{stopped}; waited {len(calls)} times")
"""


@pytest.mark.skipif(__import__("multiprocessing").get_start_method() != "fork",
                    reason="the stand-in ingest reaches the workers by fork")
def test_ctrl_c_while_the_pool_holds_its_locks_still_stops_the_run():
    process = subprocess.Popen([sys.executable, "-c", INSIDE_WAIT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=REPO, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=60)
    finally:  # a hung run leaves no workers behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, stderr
    assert re.fullmatch(r"interrupted after 0 of 4 filings; waited \d+ times\n", stdout), stdout


# ---------------------------------------------------------------------------------------------
# The benchmark script


def test_the_benchmark_measures_one_and_two_jobs_on_a_folder(tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    for i in range(2):
        make_pdf(folder / f"f{i}.pdf", long_filing(30, f"b{i}"))
    done = subprocess.run([sys.executable, "benchmarks/ingest_jobs.py", "--pdfs", folder, "--rounds", "1"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "files: 2 PDFs, 60 pages" in done.stdout
    assert re.search(r"^  1 job  +\d+ pages/s +cores used \d\.\d\d$", done.stdout, re.M), done.stdout
    assert re.search(r"^  2 jobs +\d+ pages/s +\d+\.\d\dx 1 job +cores used \d\.\d\d$", done.stdout, re.M), done.stdout
    assert len(re.findall(r"^  --jobs [12] ", done.stdout, re.M)) == 2  # one run of each, listed
    first = subprocess.run([sys.executable, "benchmarks/ingest_jobs.py", "--pdfs", folder, "--rounds", "1", "--limit", "1"],
                           capture_output=True, text=True, cwd=REPO, timeout=300)
    assert f"files: 1 PDF, 30 pages ({folder}, the first 1 by name)" in first.stdout, first.stdout + first.stderr


def test_the_benchmark_skips_without_pdfs(tmp_path):
    done = subprocess.run([sys.executable, "benchmarks/ingest_jobs.py", "--pdfs", tmp_path / "none"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f"skipped: no PDFs in {tmp_path / 'none'}")


@pytest.mark.skipif(__import__("multiprocessing").get_start_method() != "fork",
                    reason="the stand-in ingest reaches the workers by fork")
def test_jobs_run_in_processes_of_their_own(monkeypatch, tmp_path):
    """Two jobs at once, in two worker processes, neither of them this one."""
    import evfind.many as many

    def ingest(source, db, progress=None, **options):
        time.sleep(0.5)  # long enough for the second worker to take the second job
        return os.getpid()

    monkeypatch.setattr(many, "ingest", ingest)
    jobs = [many.Job(tmp_path / f"{i}.pdf", tmp_path / f"{i}.db") for i in range(4)]
    outcomes = many.ingest_many(jobs, workers=2)
    pids = {outcome.result for outcome in outcomes}
    assert len(outcomes) == 4 and len(pids) == 2 and os.getpid() not in pids
    one = many.ingest_many(jobs, workers=1)
    assert {outcome.result for outcome in one} == {os.getpid()}
