"""Hardening benchmark: long questions, and how a database is written, with figures from one run.

    python benchmarks/hardening.py [--pages 1500] [--financebench ../shared/financebench]

Its last output is benchmarks/hardening.txt.

1. Questions: a normal question, a 50,000-character one (bounded to question.MAX_WORDS content
   words and MAX_TERMS terms, as evfind reads it) and the same one unbounded; median query
   times and their ratio to the normal question, on a synthetic filing of --pages pages whose
   pages all share one vocabulary (the worst case: every word matches most pages) and, given
   the FinanceBench folder, on its longest filing.
2. Writes: three ways to add a revision to an existing database, each measured the same way:
     replace   evfind: a copy beside the file, changed in one transaction, renamed over it
     rollback  in place, one transaction, rollback journal (evfind before this change)
     wal       in place, one transaction, WAL
   For each: the time to write one revision whose pages are ready (ratio to rollback); queries
   run in a loop while another process writes three revisions (count, median and slowest,
   errors); the files left beside the database after those queries end; and, after the writer
   is SIGKILLed with every page written just before its COMMIT, what a copy of the .db file
   alone holds, which files lie beside it, and what a query of it says.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import Finder, __version__, question, store  # noqa: E402
from evfind.ingest import ingest  # noqa: E402
from evfind.writes import rewrite  # noqa: E402  (the module name is taken by writes() below)
from tests.filing import PAGES  # noqa: E402

QUESTION = "What were capital expenditures in 2024? Use the cash flow statement."


def filing(path: Path, pages: int, marker: str) -> Path:
    """A JSONL filing of ``pages`` pages of about 3 KB (a real 10-K page holds 2 to 5 KB of
    text): the test filing's pages repeated, each page with a marker."""
    with open(path, "w", encoding="utf-8") as out:
        for i in range(pages):
            text = "\n".join(PAGES[(i + k) % len(PAGES)] for k in range(5)) + f"\nPage marker {marker} {i + 1}"
            out.write(json.dumps({"page_number": i + 1, "text": text}) + "\n")
    return path


def long_question(vocabulary: list[str]) -> str:
    words = " ".join(vocabulary[i % len(vocabulary)] + f" w{i}x" for i in range(8000))
    return ("Please answer from the filing: " + words)[:50_000]


def median_ms(db: Path, text: str, runs: int) -> float:
    times = []
    with Finder(db) as finder:
        for _ in range(runs):
            start = time.perf_counter()
            finder.query(text)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def questions(db: Path, label: str, runs: int) -> list[str]:
    import re

    with Finder(db) as finder:
        text = " ".join(finder.page(n).text for n in range(1, min(finder.document.page_count, 40) + 1))
    vocabulary = sorted(set(re.findall(r"[A-Za-z]{4,}", text)))
    longest = long_question(vocabulary)
    normal = median_ms(db, QUESTION, runs)
    bounded = median_ms(db, longest, runs)
    saved = question.MAX_WORDS, question.MAX_TERMS
    question.MAX_WORDS = question.MAX_TERMS = 10**9
    try:
        unbounded = median_ms(db, longest, max(1, runs // 10))
    finally:
        question.MAX_WORDS, question.MAX_TERMS = saved
    return [
        f"{label}",
        f"  normal question             {normal:9.1f} ms   1.0x",
        f"  50,000 characters, bounded  {bounded:9.1f} ms  {bounded / normal:5.1f}x",
        f"  50,000 characters, unbounded{unbounded:9.1f} ms  {unbounded / normal:5.1f}x",
    ]


# ---------------------------------------------------------------------------------------------
# The three ways to write

_IN_PLACE = r"""
import os, signal, sqlite3, sys
from evfind import store
from evfind.extract import extract
from evfind.ingest import prepare_pages, _now
from evfind.question import common_words
from evfind.text import words_on
mode, db = sys.argv[1], sys.argv[2]
for source in sys.argv[3:]:
    extraction = extract(source)
    pages = prepare_pages(extraction)
    common = common_words([words_on(p["text"]) for p in pages])  # each page's set of words, as ingest does
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {store.WRITE_TIMEOUT_MS}")
    conn.execute(f"PRAGMA journal_mode = {mode}")
    conn.execute("BEGIN IMMEDIATE")
    revision = store.insert_revision(conn, document_id="bench", sha256=extraction.sha256, source_name=source,
                                     source_kind="jsonl", page_count=len(pages), ingested_at=_now())
    store.insert_pages(conn, revision, pages)
    store.insert_common_words(conn, revision, common)
    store.optimize_fts(conn)
    if os.environ.get("BENCH_KILL_BEFORE_COMMIT"):
        os.kill(os.getpid(), signal.SIGKILL)
    conn.execute("COMMIT")
    conn.close()
"""
_REPLACE = r"""
import os, signal, sys
from evfind import store
from evfind.ingest import ingest
if os.environ.get("BENCH_KILL_BEFORE_COMMIT"):
    optimize = store.optimize_fts
    store.optimize_fts = lambda conn: (optimize(conn), os.kill(os.getpid(), signal.SIGKILL))
for source in sys.argv[3:]:
    ingest(source, sys.argv[2], "bench")
"""


def writer(way: str, db: Path, sources: list[Path]) -> list[str]:
    """The command that writes these sources into db, one revision each, in this way."""
    code = _REPLACE if way == "replace" else _IN_PLACE
    mode = {"replace": "delete", "rollback": "delete", "wal": "wal"}[way]
    return [sys.executable, "-c", code, mode, str(db), *map(str, sources)]


def write_seconds(way: str, db: Path, source: Path) -> float:
    """The time to write one revision whose pages are already extracted and analysed (the
    same statements each way: the revision, its pages, its common words, the FTS5 merge)."""
    import evfind.ingest as ingest_module
    from evfind.extract import extract
    from evfind.question import common_words
    from evfind.text import words_on

    extraction = extract(source)
    pages = ingest_module.prepare_pages(extraction)
    common = common_words([words_on(p["text"]) for p in pages])  # each page's set of words, as ingest does
    meta = {"document_id": "bench", "sha256": extraction.sha256, "source_name": source.name,
            "source_kind": "jsonl", "page_count": len(pages), "ingested_at": ingest_module._now()}

    def build(conn: sqlite3.Connection) -> tuple[None, bool]:
        revision = store.insert_revision(conn, **meta)
        store.insert_pages(conn, revision, pages)
        store.insert_common_words(conn, revision, common)
        store.optimize_fts(conn)
        return None, True

    start = time.perf_counter()
    if way == "replace":
        rewrite(db, build)
    else:
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute(f"PRAGMA journal_mode = {'wal' if way == 'wal' else 'delete'}")
        conn.execute("BEGIN IMMEDIATE")
        build(conn)
        conn.execute("COMMIT")
        conn.close()
    return time.perf_counter() - start


def writing(folder: Path) -> bool:
    """Has a write begun in this folder (a journal, a WAL or evfind's copy beside the file)?"""
    return any(p.name.endswith(("-journal", ".evfind-tmp")) or (p.name.endswith("-wal") and p.stat().st_size)
               for p in folder.iterdir())


def fresh(base: Path, folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    return Path(shutil.copy(base, folder / "filing.db"))


def file_alone(db: Path) -> str:
    """What a copy of the .db file alone holds: intact or not, and how many revisions."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(shutil.copy(db, Path(scratch) / "copy.db"))
        try:
            conn = sqlite3.connect(copy)
            check = conn.execute("PRAGMA integrity_check").fetchone()[0]
            revisions = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
            conn.close()
        except sqlite3.Error as exc:
            return f"unreadable ({exc})"
        return f"{'intact' if check == 'ok' else 'DAMAGED'}, {revisions} revision(s)"


def writes(base: Path, big: Path, sources: list[Path], work: Path) -> list[str]:
    rows, into_big = {}, {}
    for way in ("replace", "rollback", "wal"):
        folder = work / way
        into_big[way] = write_seconds(way, fresh(big, folder), sources[0])
        seconds = write_seconds(way, fresh(base, folder), sources[0])
        # Queries in this process while another process writes three revisions.
        db = fresh(base, folder)
        process = subprocess.Popen(writer(way, db, sources))
        latencies, errors = [], {}
        while process.poll() is None:
            start = time.perf_counter()
            try:
                with Finder(db, document="ACME") as finder:
                    finder.query(QUESTION)
            except Exception as exc:  # noqa: BLE001 (counted: what a user would have seen)
                errors[str(exc)] = errors.get(str(exc), 0) + 1
            latencies.append((time.perf_counter() - start) * 1000)
        process.wait()
        left = sorted(p.name for p in folder.iterdir() if p.name != "filing.db") or ["-"]
        # SIGKILL with every page written, just before COMMIT; then read the .db file alone
        # (as it would be carried away) and ask the database where it lies.
        db = fresh(base, folder)
        killed = subprocess.run(writer(way, db, sources[:1]), env={**os.environ, "BENCH_KILL_BEFORE_COMMIT": "1"})
        assert killed.returncode == -signal.SIGKILL
        beside = sorted(p.name for p in folder.iterdir() if p.name != "filing.db") or ["-"]
        try:
            with Finder(db, document="ACME") as finder:
                asked = f"answers (page {finder.query(QUESTION).results[0].page_number})"
        except Exception as exc:  # noqa: BLE001
            asked = f"Error: {str(exc).replace(str(db), 'DB')}"
        rows[way] = (seconds, latencies, errors, left, (file_alone(db), ", ".join(beside), asked))
    size = big.stat().st_size / 2**20
    lines = [f"way       write one revision   into a {size:.0f} MB database   queries  median  slowest  failed  "
             "left beside the file"]
    for way, (seconds, latencies, errors, left, _) in rows.items():
        lines.append(
            f"{way:9} {seconds:6.2f} s {seconds / rows['rollback'][0]:5.2f}x   "
            f"{into_big[way]:6.2f} s {into_big[way] / into_big['rollback']:5.2f}x       {len(latencies):10}"
            f" {statistics.median(latencies):5.1f} ms {max(latencies):6.0f} ms {sum(errors.values()):6}  {', '.join(left)}"
        )
    lines += ["", "after kill -9 just before COMMIT: the .db file alone; the files beside it; a query of it"]
    for way, (*_, (alone, beside, asked)) in rows.items():
        lines.append(f"{way:9} {alone}; {beside}; {asked}")
    failures = [(way, message, n) for way, row in rows.items() for message, n in row[2].items()]
    if failures:
        lines += ["", "what the failed queries said"]
        lines += [f"{way:9} {n}x {message}" for way, message, n in failures]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1500, help="pages of the synthetic filing")
    parser.add_argument("--runs", type=int, default=20, help="query repetitions for the medians")
    parser.add_argument("--financebench", type=Path, help="the FinanceBench folder (optional)")
    args = parser.parse_args()
    print(f"evfind {__version__}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
          f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        base = ingest(filing(work / "ACME.jsonl", 12, "base"), work / "base.db", "ACME").db_path
        big = ingest(filing(work / "big.jsonl", args.pages, "big"), work / "big.db").db_path
        print()
        print(f"Questions (median of {args.runs} runs; ratio to the normal question)")
        for line in questions(big, f"synthetic filing, {args.pages} pages", args.runs):
            print(line)
        if args.financebench:
            import pypdfium2

            pdfs = sorted((args.financebench / "pdfs").glob("*.pdf"), key=lambda p: len(pypdfium2.PdfDocument(p)))
            if pdfs:  # the filing with the most pages
                real = ingest(pdfs[-1], work / "real.db")
                for line in questions(real.db_path, f"{pdfs[-1].name}, {real.page_count} pages", args.runs):
                    print(line)
        sources = [filing(work / f"rev{i}.jsonl", args.pages, f"rev{i}") for i in range(3)]
        print()
        print(f"Writes: a {args.pages}-page revision added to a 12-page database "
              "(queries run in this process while another writes three revisions)")
        for line in writes(base, big, sources, work):
            print(line)


if __name__ == "__main__":
    main()
