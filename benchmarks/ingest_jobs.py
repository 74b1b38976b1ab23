"""Ingest throughput with 2 jobs against 1: `evfind ingest DIR --out-dir TMP --jobs N`.

    python benchmarks/ingest_jobs.py [--pdfs ../shared/financebench/pdfs] [--rounds 3] [--output FILE]

Its last output is benchmarks/ingest_jobs.txt. Each round runs `evfind ingest` over every PDF of
the folder (a process, as a user runs it) once with --jobs 1 and once with --jobs 2, alternately,
each into a fresh folder; pages per second are pages written over the process's wall time, and
the figure is the median over the rounds. The machine is shared, so what it reports is the ratio
of the two measured in the same run, and for each run the cores it got: the CPU time of the
evfind processes over the wall time (at most 1 for one job, 2 for two), with the load average
when it started. Without the folder (or without PDFs in it) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Beside the repository, as benchmarks/speed.py looks for it; or where EVFIND_FINANCEBENCH says.
DEFAULT_PDFS = next(
    (folder for folder in (REPO.parent / "shared" / "financebench" / "pdfs",
                           Path(os.environ.get("EVFIND_FINANCEBENCH", "")) / "pdfs") if folder.is_dir()),
    REPO.parent / "shared" / "financebench" / "pdfs",
)
JOBS = (1, 2)


def pages_in(folder: Path) -> int:
    """Pages written: the page_count of every revision of every database in the folder."""
    total = 0
    for db in folder.glob("*.db"):
        with sqlite3.connect(db) as conn:
            total += conn.execute("SELECT sum(page_count) FROM documents").fetchone()[0] or 0
        conn.close()
    return total


def run(pdfs: Path, jobs: int) -> tuple[int, float, float]:
    """(pages, wall seconds, CPU seconds of the processes) of one `evfind ingest` of the folder
    with --jobs ``jobs``."""
    with tempfile.TemporaryDirectory(prefix="evfind-jobs-") as out:
        command = [sys.executable, "-m", "evfind", "ingest", str(pdfs), "--out-dir", out, "--jobs", str(jobs), "--quiet"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"evfind ingest --jobs {jobs} failed ({done.returncode}): {done.stderr.strip()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return pages_in(Path(out)), seconds, cpu


def load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS, help="folder of PDFs (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each --jobs value, interleaved")
    parser.add_argument("--limit", type=int, help="only the first N PDFs (by name): shorter runs, more rounds")
    parser.add_argument("--output", type=Path, help="also write the report here")
    args = parser.parse_args()

    pdfs = sorted(p for p in args.pdfs.iterdir() if p.suffix.lower() == ".pdf") if args.pdfs.is_dir() else []
    if not pdfs:
        print(f"skipped: no PDFs in {args.pdfs}")
        return
    from evfind import __version__

    with tempfile.TemporaryDirectory(prefix="evfind-jobs-in-") as chosen:
        if args.limit:  # a folder of links to the first N
            pdfs = pdfs[: args.limit]
            for pdf in pdfs:
                (Path(chosen) / pdf.name).symlink_to(pdf.resolve())
        report = measure(Path(chosen) if args.limit else args.pdfs, pdfs, args, __version__)
    print(report)
    if args.output:
        args.output.write_text(report + "\n", encoding="utf-8")


def measure(folder: Path, pdfs: list[Path], args, version: str) -> str:
    """The report of ``args.rounds`` rounds over the PDFs of ``folder``."""
    header = [
        "evfind ingest --jobs benchmark (benchmarks/ingest_jobs.py)",
        "=" * 58,
        f"evfind {version}, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores (shared with other work)",
    ]
    runs: dict[int, list[tuple[float, float]]] = {jobs: [] for jobs in JOBS}
    lines = ["", "runs, in order (cores used = CPU time of the evfind processes / wall time):"]
    pages = 0
    for _ in range(args.rounds):
        for jobs in JOBS:
            start_load = load()
            pages, seconds, cpu = run(folder, jobs)
            runs[jobs].append((seconds, cpu))
            lines.append(
                f"  --jobs {jobs}  {seconds:6.1f} s  {pages / seconds:5.0f} pages/s  cores used {cpu / seconds:4.2f}  "
                f"load average {start_load:.2f}"
            )
    header += [
        f"files: {len(pdfs)} PDF{'s' if len(pdfs) != 1 else ''}, {pages} pages ({args.pdfs}"
        + (f", the first {args.limit} by name)" if args.limit else ")"),
        f"runs: `evfind ingest DIR --out-dir TMP --jobs N --quiet`, {args.rounds} round{'s' if args.rounds != 1 else ''}, "
        "1 and 2 jobs alternately; medians",
        "",
    ]
    rate = {jobs: pages / statistics.median(s for s, _ in runs[jobs]) for jobs in JOBS}
    used = {jobs: statistics.median(c / s for s, c in runs[jobs]) for jobs in JOBS}
    for jobs in JOBS:
        label = f"{jobs} job" + ("s" if jobs > 1 else "")
        ratio = f"   {rate[jobs] / rate[1]:.2f}x 1 job" if jobs > 1 else " " * 15
        header.append(f"  {label:<7}{rate[jobs]:6.0f} pages/s{ratio}   cores used {used[jobs]:.2f}")
    return "\n".join(header + lines)


if __name__ == "__main__":
    main()
