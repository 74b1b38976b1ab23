"""HTML ingest speed and memory against lxml's parse of the same file (the floor).

    python benchmarks/html_ingest.py --edgar ../shared/edgar [--rounds 3] [--cache DIR] [--output FILE]
                                     [--against DIR [--against-name NAME]]

Its last output is benchmarks/html_ingest.txt. For each EDGAR filing of the folder, in each
round (a fresh process, the filings one after another): the floor, parsing the file's bytes with lxml's HTML
parser alone (``lxml.etree.fromstring`` with the parser evfind uses), and evfind's ingest of the
file into a fresh database (``evfind.ingest.ingest``: reading the pages, their text, folios and
facts, the structure analysis, the database written and renamed into place). The figure of each
is the fastest of the rounds, wall and CPU time, and the ratio of the two is what to read (the
machine is shared: ratios measured in the same run, not seconds, carry over). ``--against DIR``
measures another checkout (main's, say) in the same rounds, each round of it in its own process
right after this checkout's, and prints its ratios beside these. Peak memory is the maximum resident
set of a fresh process that ingests the file (its ``VmHWM``), one per filing.

Targets (issue 22): ingest within 3x of the parser alone; a 4 MB filing in under 2 s and under
400 MB. Without the folder it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TARGET_RATIO = 3.0
TARGET_SECONDS = 2.0
TARGET_MB = 400


def floor_seconds(path: Path) -> tuple[float, float]:
    """Parsing the file with lxml alone, as evfind's parser is set up: (wall, CPU) seconds."""
    from lxml import etree

    from evfind.htmlread import encoding_of

    data = path.read_bytes()
    started, cpu = time.perf_counter(), time.process_time()
    parser = etree.HTMLParser(encoding=encoding_of(data), huge_tree=True, remove_comments=True, remove_pis=True,
                              no_network=True)
    etree.fromstring(data, parser)
    return time.perf_counter() - started, time.process_time() - cpu


def reader_seconds(path: Path) -> tuple[float, float]:
    """evfind's reading of the file alone (extract.extract: the bytes hashed, parsed, walked
    into pages of text, their folios and facts), before the structure analysis and the write."""
    from evfind.extract import extract

    started, cpu = time.perf_counter(), time.process_time()
    extract(path)
    return time.perf_counter() - started, time.process_time() - cpu


def ingest_seconds(path: Path, folder: Path) -> tuple[float, float]:
    from evfind.ingest import ingest

    db = folder / (path.stem + ".db")
    if db.exists():
        db.unlink()
    started, cpu = time.perf_counter(), time.process_time()
    ingest(path, db)
    return time.perf_counter() - started, time.process_time() - cpu


def one_round(files: list[Path], folder: Path) -> dict[str, list[float]]:
    """One round over the filings in this process (the checkout on sys.path): {name: [floor,
    reader, ingest wall seconds, floor, reader, ingest CPU seconds, page count]}."""
    import sqlite3

    ingest_seconds(files[0], folder)  # the vocabulary and the patterns, once per process
    figures = {}
    for path in files:
        (floor, floor_cpu), (reader, reader_cpu) = floor_seconds(path), reader_seconds(path)
        seconds, cpu = ingest_seconds(path, folder)
        with sqlite3.connect(folder / (path.stem + ".db")) as conn:
            pages = conn.execute("SELECT page_count FROM documents").fetchone()[0]
        conn.close()
        figures[path.name] = [floor, reader, seconds, floor_cpu, reader_cpu, cpu, pages]
    return figures


# The steps of ingest that ``breakdown`` times, as ingest calls them: (module, name, step).
STEPS = (
    ("evfind.ingest", "extract", "reading"),  # the reader (its pages' normalising subtracted)
    ("evfind.ingest", "_Reader.__call__", "normalising"),  # each page normalised, its words read
    ("evfind.ingest", "prepare_pages", "structure"),  # structure analysis, labels, packed raw text
    ("evfind.ingest", "_save", "writing"),  # the new file: schema, pages, FTS5, facts, sync, rename
    ("evfind.writes", "_fsync", "syncing"),  # (part of writing) the file and its directory synced
)


def breakdown(files: list[Path], folder: Path) -> dict[str, float]:
    """Where ingest's time goes, one pass over the filings after ``one_round``: wall seconds in
    each of STEPS (those this checkout has), and in the whole of ``ingest``."""
    import importlib

    spent = {step: 0.0 for _, _, step in STEPS}
    spent["whole"] = 0.0

    def timed(step, function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[step] += time.perf_counter() - started
        return wrapper

    for module_name, name, step in STEPS:
        owner = importlib.import_module(module_name)
        *path, attribute = name.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        if owner is not None and hasattr(owner, attribute):
            setattr(owner, attribute, timed(step, getattr(owner, attribute)))
    for path in files:
        spent["whole"] += ingest_seconds(path, folder)[0]
    spent["reading"] -= spent["normalising"]
    return spent


def run_round(checkout: Path, files: list[Path], folder: Path, steps: bool = False) -> dict[str, list[float]]:
    """``one_round`` in a fresh process with ``checkout``'s evfind (``steps``: then ``breakdown``,
    under the name "steps")."""
    folder.mkdir(parents=True, exist_ok=True)
    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(checkout)!r})\n"
        f"sys.path.insert(1, {str(REPO / 'benchmarks')!r})\n"
        "from pathlib import Path\n"
        "from html_ingest import breakdown, one_round\n"
        "files, folder = [Path(p) for p in sys.argv[2:]], Path(sys.argv[1])\n"
        "figures = one_round(files, folder)\n"
        + ("figures['steps'] = breakdown(files, folder)\n" if steps else "")
        + "print(json.dumps(figures))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(folder), *map(str, files)], capture_output=True, text=True,
                          cwd=checkout, env=dict(os.environ, PYTHONPATH=str(checkout)))
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: a round failed: {done.stderr.strip()[-2000:]}")
    import json

    return json.loads(done.stdout.strip().splitlines()[-1])


def peak_mb(path: Path, folder: Path) -> float:
    """The peak resident set of one process that ingests the file, in MB: its VmHWM (ru_maxrss
    would carry over the parent's peak through fork and exec)."""
    db = folder / (path.stem + ".rss.db")
    if db.exists():
        db.unlink()
    code = (
        "import resource, sys\n"
        "from evfind.ingest import ingest\n"
        "ingest(sys.argv[1], sys.argv[2])\n"
        "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path), str(db)], capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"ingest of {path} failed: {done.stderr.strip()}")
    return int(done.stdout.strip().splitlines()[-1]) / 1024  # VmHWM is in kB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=None, help="where the databases are written (default: a temporary folder)")
    parser.add_argument("--against", type=Path, default=None, help="another checkout of evfind, measured in the same rounds")
    parser.add_argument("--against-name", default=None, help="what to call it in the output (default: its path)")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    files = sorted(p for p in args.edgar.glob("*") if p.suffix.lower() in (".htm", ".html")) if args.edgar.is_dir() else []
    if not files:
        print(f"no EDGAR HTML filings in {args.edgar}: nothing to measure (give --edgar DIR)")
        return
    import lxml

    from evfind import __version__

    checkouts = [REPO] + ([args.against.resolve()] if args.against else [])
    with tempfile.TemporaryDirectory(prefix="evfind-html-") as temporary:
        folder = args.cache or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        best: list[dict[str, list[float]]] = [{} for _ in checkouts]
        steps: dict[str, float] = {}
        for _ in range(args.rounds):
            for index, checkout in enumerate(checkouts):
                figures_of = run_round(checkout, files, folder / str(index), steps=index == 0)
                for step, seconds in figures_of.pop("steps", {}).items():
                    steps[step] = min(steps.get(step, seconds), seconds)
                for name, figures in figures_of.items():
                    kept = best[index].setdefault(name, figures)
                    best[index][name] = [min(a, b) for a, b in zip(kept, figures)]
        memory = {p: peak_mb(p, folder) for p in files}

    load = os.getloadavg()[0]
    lines = [
        "evfind HTML ingest benchmark (benchmarks/html_ingest.py)",
        "=========================================================",
        f"evfind {__version__}, Python {platform.python_version()}, lxml {lxml.__version__}",
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load:.2f} at the end",
        f"runs: {args.rounds} rounds, a fresh process each, checkouts interleaved; the fastest of each figure; "
        "memory: one process per filing",
        "floor = lxml.etree.fromstring(bytes, HTMLParser) alone; reader = evfind.extract.extract (hash, parse,",
        "pages of text, folios, facts); ingest = evfind.ingest.ingest into a new database (the reader, then the",
        "normalising, structure analysis and write that every source kind goes through)",
        "",
        f"{'filing':34} {'MB':>4} {'pages':>5} {'floor ms':>8} {'reader ms':>9} {'ratio':>6} {'ingest ms':>9} {'ratio':>6} {'peak MB':>7}",
    ]
    ours = best[0]
    ratios, reader_ratios = [], []
    for path in files:
        floor, reader, seconds, _, _, _, pages = ours[path.name]
        ratios.append(seconds / floor)
        reader_ratios.append(reader / floor)
        size = path.stat().st_size / 1e6
        lines.append(
            f"{path.name:34} {size:4.1f} {pages:5} {floor * 1000:8.1f} {reader * 1000:9.1f} {reader / floor:5.2f}x "
            f"{seconds * 1000:9.1f} {seconds / floor:5.2f}x {memory[path]:7.0f}"
        )

    def total(figures: dict[str, list[float]], column: int) -> float:
        return sum(row[column] for row in figures.values())

    largest = max(files, key=lambda p: p.stat().st_size)
    total_floor, total_reader, total_ingest = total(ours, 0), total(ours, 1), total(ours, 2)
    total_pages = int(total(ours, 6))
    lines += [
        "",
        f"all {len(files)} filings: the reader {total_reader:.2f} s against the floor's {total_floor:.2f} s: "
        f"{total_reader / total_floor:.2f}x (per filing: median {sorted(reader_ratios)[len(reader_ratios) // 2]:.2f}x, "
        f"worst {max(reader_ratios):.2f}x)",
        f"the rest of ingest (normalise, analyse, write: as for a PDF's pages): {total_ingest - total_reader:.2f} s, "
        f"{(total_ingest - total_reader) / total_pages * 1000:.2f} ms a page over {total_pages} pages",
        f"all {len(files)} filings: ingest {total_ingest:.2f} s against the floor's {total_floor:.2f} s: "
        f"{total_ingest / total_floor:.2f}x (per filing: median {sorted(ratios)[len(ratios) // 2]:.2f}x, "
        f"worst {max(ratios):.2f}x; target within {TARGET_RATIO:.0f}x)",
        f"in CPU time: the reader {total(ours, 4) / total(ours, 3):.2f}x, ingest {total(ours, 5) / total(ours, 3):.2f}x "
        f"the floor's",
        f"largest: {largest.name} ({largest.stat().st_size / 1e6:.1f} MB) ingests in {ours[largest.name][2]:.2f} s "
        f"(target under {TARGET_SECONDS:.0f} s), peak {memory[largest]:.0f} MB (target under {TARGET_MB} MB); "
        f"peak of all: {max(memory.values()):.0f} MB",
    ]
    if steps:
        parts = [(label, steps[step]) for step, label in (
            ("reading", "reading (the reader)"), ("normalising", "normalising the pages and reading their words"),
            ("structure", "structure analysis, labels, packing"), ("writing", "writing the file"))]
        other = steps["whole"] - sum(seconds for _, seconds in parts)
        lines += [
            f"where ingest's time goes (one timed pass after each round, the fastest; of {steps['whole']:.2f} s, "
            f"{steps['whole'] / total_floor:.2f}x the floor):",
            *(f"  {label:50} {seconds:5.2f} s  {seconds / total_floor:5.2f}x the floor" for label, seconds in parts),
            f"  {'  of which syncing the file and its directory':50} {steps['syncing']:5.2f} s",
            f"  {'the rest (hashing, form, tickers, common words)':50} {other:5.2f} s",
        ]
    if args.against:
        theirs = best[1]
        name = args.against_name or str(args.against)
        lines += [
            "",
            f"in the same rounds, {name}: the reader {total(theirs, 1) / total(theirs, 0):.2f}x, ingest "
            f"{total(theirs, 2) / total(theirs, 0):.2f}x its floor (CPU time: {total(theirs, 4) / total(theirs, 3):.2f}x, "
            f"{total(theirs, 5) / total(theirs, 3):.2f}x); here: {total_reader / total_floor:.2f}x, "
            f"{total_ingest / total_floor:.2f}x (CPU time: {total(ours, 4) / total(ours, 3):.2f}x, "
            f"{total(ours, 5) / total(ours, 3):.2f}x)",
        ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output:
        args.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
