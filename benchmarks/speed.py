"""Speed and size of evfind on this machine, each figure next to a floor measured in the same run.

    python benchmarks/speed.py --output benchmarks/speed.txt
    python benchmarks/speed.py --financebench ../shared/financebench --runs 31
    python benchmarks/speed.py --against ../before   # another checkout, timed in the same runs
    python benchmarks/speed.py --only query --cache ../cache/main --output benchmarks/speed_query.txt

Sections: one `evfind query` process against the least a Typer CLI can cost for the same job
(and, with --against DIR, against the `evfind query` of another checkout, before a change);
`Finder.query` in-process, and on a 500-page filing the learned last stage against the rules
(benchmarks/query_speed.py; `--only query` runs the query sections alone); `--questions` batch
throughput; ingest pages per second against raw pypdfium2 extraction of the same files;
database size against the PDF and the raw page text; bm25s and rank_bm25 on the same pages and
questions; and a synthetic filing of 200 and 2,000 pages and a database of 20 revisions, to show
how query and ingest time grow. Timings are
medians over repeated, interleaved runs; a benchmark, never a test. The parts that need the
FinanceBench filings (real PDFs, labelled questions) are skipped when the folder is missing,
and the peers when bm25s or rank_bm25 are not installed (pip install -e '.[bench]').

A query that fails (an evfind error in-process, a process that exits with an error) is never
timed as if it had answered: each is counted and listed under "Failures", the target "every
query answered" fails, and the run exits 1. An exception that is not an evfind error stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import synthetic  # noqa: E402

from evfind import __version__, packing  # noqa: E402
from evfind.errors import EvfindError  # noqa: E402
from evfind.finder import Finder  # noqa: E402
from evfind.ingest import ingest, prepare_pages  # noqa: E402
from evfind.question import parse, stopwords  # noqa: E402

QUERY_FILING = "BOEING_2022_10K"  # 190 pages, the filing with most development questions
INGEST_FILINGS = ["3M_2018_10K", "AMAZON_2019_10K", "ADOBE_2017_10K", "BOEING_2022_10K", "WALMART_2018_10K"]
QUESTION_SETS = ["questions.jsonl", "questions_seedstyle.jsonl"]

FLOOR = """\
import sqlite3, sys
import typer
conn = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
rows = conn.execute(
    "SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rank LIMIT 20", (sys.argv[2],)
).fetchall()
print(rows)
"""

# The floor started as evfind's console script starts (evfind/__main__.py: the collector off
# while the modules are imported, then their objects frozen): shown beside the floor, so that
# what evfind gains from its start-up alone is seen apart from what it gains on typer's import.
FLOOR_FROZEN = "import gc\ngc.disable()\n" + FLOOR.replace(
    "import typer\n", "import typer\ngc.freeze()\ngc.enable()\n"
)


class Report:
    def __init__(self, output: Path | None):
        self.lines: list[str] = []
        self.output = output
        self.targets: list[tuple[str, str, bool | None]] = []
        self.failures: dict[str, int] = {}  # what failed -> how many times

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def section(self, title: str) -> None:
        self("")
        self(title)
        self("-" * len(title))

    def target(self, name: str, figure: str, ok: bool | None) -> None:
        self.targets.append((name, figure, ok))

    def failed(self, what: str) -> None:
        """A query that failed: counted here, listed under Failures at the end."""
        self.failures[what] = self.failures.get(what, 0) + 1

    def close(self) -> None:
        """The Failures section and its target, then the Targets section."""
        count = sum(self.failures.values())
        self.section("Failures")
        self("  none: every query answered" if not count else f"  {count} queries failed:")
        for what, times in self.failures.items():
            self(f"  {times:5}x {what}")
        self.target("every query answered (no evfind error, no process failed)", f"{count} failed", count == 0)
        self.section("Targets")
        for name, figure, ok in self.targets:
            mark = "PASS" if ok else ("FAIL" if ok is not None else "    ")
            self(f"  {mark}  {name}: {figure}")

    def save(self) -> None:
        if self.output is not None:
            self.output.write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def median(values) -> float:
    return statistics.median(values)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from bytecode
    env.update({"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
    return env


def evfind_command() -> list[str]:
    script = Path(sys.executable).parent / "evfind"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "evfind"]


def run(cmd: list[str], env, stdin=None, report: Report | None = None, answers: tuple[int, ...] = (0,)) -> float:
    """Wall time of one process. An exit status outside ``answers`` is a failure, counted in
    ``report`` (or raised without one): its time is not an answer's time."""
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in answers:
        shown = " ".join(cmd[-3:]) if len(cmd) > 3 else " ".join(cmd)
        if report is None:
            raise RuntimeError(f"exit {done.returncode}: {shown}")
        report.failed(f"exit {done.returncode}: ... {shown[:120]}")
    return elapsed


def answers_of(name: str) -> tuple[int, ...]:
    """The exit statuses that are answers: `evfind query` exits 1 when no page matches."""
    return (0, 1) if name.startswith("evfind") else (0,)


def interleaved(commands: dict[str, list[list[str]]], runs: int, env, report: Report,
                cpu: dict[str, float] | None = None) -> dict[str, float]:
    """Median wall time of each command; runs alternate between commands so load hits all alike.
    Each entry is a list of command lines used in turn (one question after another); entries
    named "evfind ..." are evfind queries (exit 0 or 1), the others exit 0. Failures go to
    ``report``. ``cpu``, where given, gets each command's median CPU time (user and system, of
    the process and its children): what the process itself did, which the machine's other work
    moves much less than the wall time."""
    for name, variants in commands.items():  # warm-up: bytecode written, files in the page cache
        for cmd in variants[:2]:
            run(cmd, env, report=report, answers=answers_of(name))
    times: dict[str, list[float]] = {name: [] for name in commands}
    spent: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(runs):
        for name, variants in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[name].append(run(variants[i % len(variants)], env, report=report, answers=answers_of(name)))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            spent[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if cpu is not None:
        cpu.update({name: median(values) for name, values in spent.items()})
    return {name: median(values) for name, values in times.items()}


def ask(finder: Finder, question: str, report: Report, top: int = 5) -> list[int]:
    """The pages of one in-process query; an evfind error is counted in ``report`` (no pages)."""
    try:
        return [hit.page_number for hit in finder.query(question, top=top).results]
    except EvfindError as exc:
        report.failed(f"{type(exc).__name__}: {str(exc)[:100]} ({question[:60]!r})")
        return []


def in_process(finder: Finder, questions: list[str], report: Report, repeat: int = 15) -> tuple[float, float]:
    """(first query of a fresh process's vocabulary, median per query after it)."""
    start = time.perf_counter()
    ask(finder, questions[0], report)
    first = time.perf_counter() - start
    times = []
    for _ in range(repeat):
        for q in questions:
            start = time.perf_counter()
            ask(finder, q, report)
            times.append(time.perf_counter() - start)
    return first, median(times)


def fts_in_process(db: Path, questions: list[str], repeat: int = 15) -> float:
    """The floor's query alone, in-process: FTS5 MATCH ... ORDER BY rank LIMIT 20."""
    matches = [parse(q).match_expression() for q in questions]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    sql = "SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rank LIMIT 20"
    for m in matches:
        conn.execute(sql, (m,)).fetchall()
    times = []
    for _ in range(repeat):
        for m in matches:
            start = time.perf_counter()
            conn.execute(sql, (m,)).fetchall()
            times.append(time.perf_counter() - start)
    conn.close()
    return median(times)


def first_query_cost(db: Path, question: str, env) -> float:
    """Finder.query's first call in a new process (vocabulary loaded on first use)."""
    code = (
        "import sys, time\nfrom evfind import Finder\nf = Finder(sys.argv[1])\n"
        "t = time.perf_counter(); f.query(sys.argv[2]); print(time.perf_counter() - t)"
    )
    values = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", code, str(db), question], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"Finder.query in a new process failed: {out.stderr.strip()[-300:]}")
        values.append(float(out.stdout.strip()))
    return median(values)


def _commit(folder: Path) -> str:
    """The commit a checkout is at (short), or "?" where git cannot say."""
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "?"


# What importing evfind's query path costs a process that has imported the floor's modules: the
# modules `evfind query` imports (tests/test_startup.py holds the list to the same statement).
QUERY_PATH_IMPORTS = "import sqlite3, typer\nimport evfind.cli, evfind.cli_query, evfind.finder, evfind.multi, evfind.render"


def import_cost(env, runs: int) -> tuple[float, list[tuple[str, float]]]:
    """Median over ``runs`` processes of what ``python -X importtime`` reports for the modules
    imported after typer and sqlite3 (evfind's own and any the standard library adds), and the
    costliest of them (name, median self time), most first."""
    totals, selves = [], {}
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", QUERY_PATH_IMPORTS], env=env,
                              capture_output=True, text=True, check=True)
        after_floor, total = False, 0.0
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|(\s*)(\S+)", line)
            if not found:
                continue
            if after_floor:
                total += int(found[1]) / 1e6
                selves.setdefault(found[3], []).append(int(found[1]) / 1e6)
            elif found[3] == "typer" and len(found[2]) <= 2:  # typer itself: the floor is loaded
                after_floor = True
        totals.append(total)
    costliest = sorted(((name, median(v)) for name, v in selves.items()), key=lambda pair: -pair[1])
    return median(totals), costliest


# ---------------------------------------------------------------------------------------------
# Pages


def raw_pdf_texts(pdf: Path) -> list[str]:
    """The floor of ingest: pypdfium2 text extraction of every page, nothing else."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    texts = []
    try:
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        doc.close()
    return texts


def write_jsonl(path: Path, texts: list[str]) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for number, text in enumerate(texts, start=1):
            handle.write(json.dumps({"page_number": number, "text": text}, ensure_ascii=False) + "\n")
    return path


def page_texts(db: Path) -> list[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        revision = conn.execute("SELECT max(revision_id) FROM documents").fetchone()[0]
        return [t for (t,) in conn.execute(
            "SELECT text FROM pages WHERE revision_id = ? ORDER BY page_number", (revision,))]


def fresh(path: Path) -> Path:
    if path.exists():
        path.unlink()
    return path


def load_questions(folder: Path, name: str) -> list[dict]:
    path = folder / name
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# Sections


def header(report: Report, fb: Path | None, args) -> None:
    import typer

    try:
        import pypdfium2

        pdfium_version = pypdfium2.version.PYPDFIUM_INFO
    except (ImportError, AttributeError):  # an older pypdfium2 names its version elsewhere
        pdfium_version = "?"
    report("evfind speed and size benchmark (benchmarks/speed.py)")
    report("=" * 54)
    report(f"evfind {__version__}, Python {platform.python_version()}, typer {typer.__version__}, "
           f"SQLite {sqlite3.sqlite_version}, pypdfium2 {pdfium_version}")
    report(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    report(f"runs: {args.runs} interleaved process runs per figure, {args.rounds} ingest rounds; medians")
    report(f"FinanceBench: {fb if fb else 'not found: real-filing parts skipped'}")


# `evfind query` of another checkout (--against): its console script's code, run with this Python
# and its package first on the path, so that only evfind's code differs between the two.
AGAINST = """\
import sys
sys.path.insert(0, sys.argv.pop(1))
sys.argv[0] = "evfind"
from evfind.__main__ import main
sys.exit(main())
"""


def query_section(report: Report, db: Path, label: str, questions: list[str], runs: int, env,
                  against: Path | None = None) -> dict:
    report.section(f"Query: one `evfind query` process, {label}")
    floor_path = db.parent / "floor.py"
    floor_path.write_text(FLOOR, encoding="utf-8")
    frozen_path = db.parent / "floor_frozen.py"
    frozen_path.write_text(FLOOR_FROZEN, encoding="utf-8")
    matches = [parse(q).match_expression() for q in questions]
    evfind = evfind_command()
    commands = {
        "python -c pass": [[sys.executable, "-c", "pass"]],
        "python -c 'import typer'": [[sys.executable, "-c", "import typer"]],
        "floor": [[sys.executable, str(floor_path), str(db), m] for m in matches],
        "floor, collector as evfind": [[sys.executable, str(frozen_path), str(db), m] for m in matches],
        "evfind query": [[*evfind, "query", str(db), q] for q in questions],
        "evfind query --format json": [[*evfind, "query", str(db), q, "--format", "json"] for q in questions],
    }
    if against is not None:
        commands["evfind query, --against"] = [[sys.executable, "-c", AGAINST, str(against), "query", str(db), q]
                                               for q in questions]
    cpu: dict[str, float] = {}
    result = interleaved(commands, runs, env, report, cpu)
    floor = result["floor"]
    report("floor = python, import typer, sqlite3 opens the database, one FTS5 MATCH ... ORDER BY rank LIMIT 20")
    report(f"questions: {len(questions)} in turn, the same for floor (its content words) and evfind; wall time, "
           "and CPU time (user and system: what the machine's other work moves less)")
    for name, value in result.items():
        report(f"  {name:<28} {ms(value):>10}   {value / floor:5.2f}x floor   CPU {ms(cpu[name]):>9} "
               f"{cpu[name] / cpu['floor']:5.2f}x")
    frozen = result["floor, collector as evfind"]
    report(f"  (against the floor started as evfind starts, collector off while importing: "
           f"{result['evfind query'] / frozen:.2f}x)")
    if against is not None:
        before = result["evfind query, --against"]
        now_cpu, before_cpu = cpu["evfind query"], cpu["evfind query, --against"]
        report(f"  (--against: {against} at {_commit(against)}, the same questions in the same runs: "
               f"{before / floor:.2f}x the floor before, {result['evfind query'] / floor:.2f}x now, "
               f"now {result['evfind query'] / before:.2f}x before; CPU time {before_cpu / cpu['floor']:.2f}x "
               f"before, {now_cpu / cpu['floor']:.2f}x now, now {now_cpu / before_cpu:.2f}x before)")
    ratio = result["evfind query"] / floor
    report.target("evfind query process within 1.3x of the floor", f"{ratio:.2f}x", ratio <= 1.3)
    report.target("evfind query process under 150 ms (100+ pages)", ms(result["evfind query"]), result["evfind query"] < 0.150)

    with Finder(db) as finder:
        first, warm = in_process(finder, questions, report)
    cold = first_query_cost(db, questions[0], env)
    report(f"  Finder.query in-process       {ms(warm):>10}   median per question, vocabulary loaded")
    report(f"  Finder.query, first in a process {ms(cold):>7}   loads the question vocabulary (evfind/data)")
    report.target("Finder.query in-process under 10 ms", ms(warm), warm < 0.010)
    imports, costliest = import_cost(env, runs)
    typer_import = result["python -c 'import typer'"] - result["python -c pass"]
    report(f"  evfind's imports (query path)  {ms(imports):>8}   python -X importtime, after typer and sqlite3 "
           f"({imports / typer_import:.2f}x typer's own import); most: "
           + ", ".join(f"{name} {seconds * 1000:.1f}" for name, seconds in costliest[:4]))
    report.target("evfind's own imports on the query path under 10 ms", ms(imports), imports < 0.010)
    return {"floor": floor, "process": result["evfind query"], "warm": warm, "cold": cold}


def learned_section(report: Report, fb: Path, work: Path, cache: Path | None, runs: int) -> None:
    """Finder.query in-process on a 500-page filing, the learned last stage against the rules in
    the same rounds (benchmarks/query_speed.py: issue 21's "under 10 ms on a 500-page filing")."""
    import query_speed
    from evfind.rank import DEFAULT, RULES

    filing = query_speed.FILING
    if not (fb / "pdfs" / f"{filing}.pdf").is_file():
        report.section(f"Finder.query, learned against rules: skipped ({filing}.pdf not found)")
        return
    db = query_speed.database(fb, filing, cache, work)
    questions = query_speed.questions_on(fb, filing)
    with Finder(db, method=DEFAULT) as learned, Finder(db, method=RULES) as rules:
        pages = learned.document.page_count
        report.section(f"Finder.query in-process, the learned last stage against the rules: {filing} ({pages} pages)")
        times, cpu = query_speed.timed({"learned": learned, "rules": rules}, questions, runs)
    wall = {name: median(values) for name, values in times.items()}
    spent = {name: median(values) for name, values in cpu.items()}
    report(f"{len(questions)} labelled questions (every set, each wording once), {runs} rounds, "
           "the two finders in turn")
    report(f"  learned (default)   {ms(wall['learned']):>9}   CPU {ms(spent['learned']):>9}")
    report(f"  --method rules      {ms(wall['rules']):>9}   CPU {ms(spent['rules']):>9}")
    report(f"  learned / rules     {wall['learned'] / wall['rules']:8.2f}x   "
           f"CPU {spent['learned'] / spent['rules']:8.2f}x")
    report.target(f"Finder.query under 10 ms on {filing}, learned", ms(wall["learned"]), wall["learned"] < 0.010)


def batch_section(report: Report, db: Path, questions: list[str], single: float, runs: int, env) -> None:
    report.section("Batch: `evfind query DB --questions FILE` (one JSON line per question)")
    count = 200
    source = db.parent / "batch.jsonl"
    with open(source, "w", encoding="utf-8") as handle:
        for i in range(count):
            handle.write(json.dumps({"id": i, "question": questions[i % len(questions)]}) + "\n")
    cmd = [*evfind_command(), "query", str(db), "--questions", str(source)]
    run(cmd, env, report=report)
    times = [run(cmd, env, report=report) for _ in range(max(3, runs // 4))]
    total = median(times)
    report(f"  {count} questions in one process: {ms(total)}, {count / total:.0f} questions/s, "
           f"{total / count * 1000:.2f} ms per question")
    report(f"  the same as {count} `evfind query` processes: about {single * count:.1f} s "
           f"({single * count / total:.0f}x slower)")


def ingest_section(report: Report, fb: Path, work: Path, rounds: int) -> None:
    report.section("Ingest: pages per second from PDF, next to raw pypdfium2 extraction of the same files")
    pdfs = [fb / "pdfs" / f"{name}.pdf" for name in INGEST_FILINGS if (fb / "pdfs" / f"{name}.pdf").is_file()]
    counts = {pdf: len(raw_pdf_texts(pdf)) for pdf in pdfs}
    pages = sum(counts.values())
    report(f"files: {', '.join(p.stem for p in pdfs)} ({pages} pages); in-process, {rounds} rounds interleaved")
    raw_times, ingest_times = [], []
    for _ in range(rounds):
        raw_total = ingest_total = 0.0
        for pdf in pdfs:
            start = time.perf_counter()
            raw_pdf_texts(pdf)
            raw_total += time.perf_counter() - start
            start = time.perf_counter()
            ingest(pdf, fresh(work / f"{pdf.stem}.ingest.db"))
            ingest_total += time.perf_counter() - start
        raw_times.append(raw_total)
        ingest_times.append(ingest_total)
    ratios = [r / i for r, i in zip(raw_times, ingest_times)]
    raw_rate, ingest_rate = pages / median(raw_times), pages / median(ingest_times)
    report(f"  raw pypdfium2 extraction   {raw_rate:7.0f} pages/s")
    report(f"  evfind ingest (PDF)        {ingest_rate:7.0f} pages/s   {median(ratios):.2f}x raw extraction")
    report.target("ingest from PDF at least 0.8x raw pypdfium2 pages/s", f"{median(ratios):.2f}x", median(ratios) >= 0.8)

    # where the time goes, one pass: ingest() itself, with its steps timed as it calls them
    import evfind.ingest as ingest_module

    spent = {"extract": 0.0, "prepare": 0.0, "normalise": 0.0, "analyse": 0.0, "whole": 0.0}

    def timed(name, function):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start
        return wrapper

    originals = {name: getattr(ingest_module, name) for name in ("extract", "prepare_pages", "normalise", "analyse")}
    ingest_module.extract = timed("extract", originals["extract"])
    ingest_module.prepare_pages = timed("prepare", originals["prepare_pages"])
    ingest_module.normalise = timed("normalise", originals["normalise"])
    ingest_module.analyse = timed("analyse", originals["analyse"])  # forms.analyse: the structure, by the form
    try:
        for pdf in pdfs:
            start = time.perf_counter()
            ingest(pdf, fresh(work / f"{pdf.stem}.phase.db"))
            spent["whole"] += time.perf_counter() - start
    finally:
        for name, function in originals.items():
            setattr(ingest_module, name, function)
    phases = {
        "extract (pypdfium2 text, page labels, sha256)": spent["extract"],
        "normalise": spent["normalise"],
        "analyse (structure, by the filing's form)": spent["analyse"],
        "rows (raw text packing, page dicts)": spent["prepare"] - spent["normalise"] - spent["analyse"],
        "write (temp file, inserts, FTS5, optimize, VACUUM, rename)": spent["whole"] - spent["extract"] - spent["prepare"],
    }
    report("  where ingest time goes (ms per page, one pass):")
    for name, seconds in phases.items():
        report(f"    {name:<58} {seconds * 1000 / pages:6.3f}")
    rest = spent["whole"] - spent["analyse"]
    report(f"  without analyse: {pages / rest:.0f} pages/s, {(pages / rest) / raw_rate:.2f}x raw extraction")

    # JSONL: the same pages, no PDF to parse
    jsonls = [write_jsonl(work / f"{pdf.stem}.jsonl", raw_pdf_texts(pdf)) for pdf in pdfs]
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for source in jsonls:
            ingest(source, fresh(work / f"{source.stem}.jsonl.db"))
        times.append(time.perf_counter() - start)
    report(f"  evfind ingest (JSONL)      {pages / median(times):7.0f} pages/s   the same pages as JSONL")


def size_section(report: Report, fb: Path, work: Path) -> dict[str, Path]:
    report.section("Size: every FinanceBench filing ingested once")
    folder = work / "fb"
    folder.mkdir(exist_ok=True)
    dbs: dict[str, Path] = {}
    rows = []
    pages = 0
    start = time.perf_counter()
    for pdf in sorted((fb / "pdfs").glob("*.pdf")):
        db = ingest(pdf, fresh(folder / f"{pdf.stem}.db")).db_path
        dbs[pdf.stem] = db
    elapsed = time.perf_counter() - start
    stat: dict[str, int] = {}
    for name, db in dbs.items():
        pdf = fb / "pdfs" / f"{name}.pdf"
        with sqlite3.connect(db) as conn:
            raw = 0
            for text, packed in conn.execute("SELECT text, raw_text FROM pages"):
                raw += len(packing.unpack_text(packed, text).encode("utf-8"))
            n = conn.execute("SELECT count(*) FROM pages").fetchone()[0]
            for table, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
                stat[table] = stat.get(table, 0) + size
        pages += n
        rows.append((db.stat().st_size / pdf.stat().st_size, name, n, pdf.stat().st_size, db.stat().st_size, raw))
    rows.sort()
    total_pdf = sum(r[3] for r in rows)
    total_db = sum(r[4] for r in rows)
    total_raw = sum(r[5] for r in rows)
    report(f"{len(rows)} filings, {pages} pages, ingested in {elapsed:.1f} s ({pages / elapsed:.0f} pages/s with "
           f"extraction)")
    report(f"  database / PDF:            {total_db / total_pdf:.2f} in total; "
           f"median {median(r[0] for r in rows):.2f}, largest {rows[-1][0]:.2f} ({rows[-1][1]}); "
           f"{sum(r[0] > 1 for r in rows)} of {len(rows)} larger than their PDF")
    report(f"  database / raw page text:  {total_db / total_raw:.2f} in total "
           f"(raw text = UTF-8 bytes of the extracted pages)")
    report("  largest ratios: " + ", ".join(f"{r[1]} {r[0]:.2f}" for r in rows[-3:]))
    report("  where the bytes are (dbstat, all files): " + ", ".join(
        f"{name} {size / total_db:.0%}" for name, size in sorted(stat.items(), key=lambda kv: -kv[1])[:5]))
    worst = rows[-1][0]
    report.target("database at most the size of its PDF (every FinanceBench filing)", f"largest {worst:.2f}x", worst <= 1.0)
    return dbs


def tokens(text: str, stop: frozenset[str]) -> list[str]:
    return [t for t in re.findall(r"(?u)\b\w\w+\b", text.lower()) if t not in stop]


def peers_section(report: Report, fb: Path, dbs: dict[str, Path], work: Path) -> None:
    report.section("Peers on the same pages and questions: hit@5 and time")
    try:
        import bm25s
    except ImportError:
        bm25s = None
    try:
        from rank_bm25 import BM25Okapi
    except ImportError:
        BM25Okapi = None
    sets = {name: load_questions(fb, name) for name in QUESTION_SETS}
    sets = {name: rows for name, rows in sets.items() if rows}
    docs = sorted({row["doc_name"] for rows in sets.values() for row in rows if row["doc_name"] in dbs})
    stop = stopwords()
    texts = {doc: page_texts(dbs[doc]) for doc in docs}
    report(f"{len(docs)} filings, pages as evfind stores them (normalised text); peers get the question's words "
           "(lower-case, \\w\\w+, evfind's stopwords), evfind the question")
    systems: dict[str, dict] = {}

    # evfind: build = ingest of the same page texts from JSONL (normalise, structure, index)
    build, query_times, hits = [], [], {name: 0 for name in sets}
    finders = {}
    for doc in docs:
        source = write_jsonl(work / f"peer-{doc}.jsonl", texts[doc])
        start = time.perf_counter()
        db = ingest(source, fresh(work / f"peer-{doc}.db")).db_path
        build.append(time.perf_counter() - start)
        finders[doc] = Finder(db)
    for name, rows in sets.items():
        for row in rows:
            if row["doc_name"] not in finders:
                continue
            start = time.perf_counter()
            pages = ask(finders[row["doc_name"]], row["question"], report)
            query_times.append(time.perf_counter() - start)
            hits[name] += bool(set(pages) & set(row["gold_pages"]))
    for finder in finders.values():
        finder.close()
    systems["evfind"] = {"build": median(build), "query": median(query_times), "hits": hits}

    def measure(label, make, search):
        build, query_times, hits = [], [], {name: 0 for name in sets}
        indexes = {}
        for doc in docs:
            start = time.perf_counter()
            indexes[doc] = make([tokens(t, stop) for t in texts[doc]])
            build.append(time.perf_counter() - start)
        for name, rows in sets.items():
            for row in rows:
                if row["doc_name"] not in indexes:
                    continue
                start = time.perf_counter()
                pages = search(indexes[row["doc_name"]], tokens(row["question"], stop), len(texts[row["doc_name"]]))
                query_times.append(time.perf_counter() - start)
                hits[name] += bool(set(pages) & set(row["gold_pages"]))
        systems[label] = {"build": median(build), "query": median(query_times), "hits": hits}

    if bm25s is not None:
        def bm25s_make(corpus):
            retriever = bm25s.BM25()
            retriever.index(corpus, show_progress=False)
            return retriever

        def bm25s_search(retriever, query, n):
            if not query:
                return []
            ids, _ = retriever.retrieve([query], k=min(5, n), show_progress=False)
            return [int(i) + 1 for i in ids[0]]

        measure(f"bm25s {bm25s.__version__}", bm25s_make, bm25s_search)
    else:
        report("  bm25s: skipped (not installed; pip install -e '.[bench]')")
    if BM25Okapi is not None:
        import numpy

        def rank_make(corpus):
            return BM25Okapi([doc or [""] for doc in corpus])

        def rank_search(index, query, n):
            if not query:
                return []
            scores = index.get_scores(query)
            return [int(i) + 1 for i in numpy.argsort(-scores, kind="stable")[:5]]

        measure("rank_bm25", rank_make, rank_search)
    else:
        report("  rank_bm25: skipped (not installed; pip install -e '.[bench]')")

    names = list(sets)
    report(f"  {'':<14} {'build/filing':>13} {'per query':>10}   " + "   ".join(f"hit@5 {n}" for n in names))
    for label, data in systems.items():
        cells = "   ".join(
            f"{data['hits'][n]:>3}/{len(sets[n]):<3} ({data['hits'][n] / len(sets[n]):.0%})".ljust(len(f"hit@5 {n}"))
            for n in names)
        report(f"  {label:<14} {ms(data['build']):>13} {ms(data['query']):>10}   {cells}")
    report("  evfind's build is a whole ingest from JSONL (normalise, structure, SQLite, FTS5 index, file on disk);")
    report("  the peers build in memory. Per query is in-process for all three.")


def scale_section(report: Report, work: Path, runs: int, env) -> None:
    report.section("Scale: a synthetic filing of 200 and 2,000 pages, and a database of 20 revisions")
    from tests.pdfgen import make_pdf

    questions = synthetic.QUESTIONS
    results = {}
    for count in (200, 2000):
        texts = synthetic.pages(count)
        pdf = make_pdf(work / f"synthetic-{count}.pdf", texts)
        raw_times, ingest_times = [], []
        for _ in range(2):
            start = time.perf_counter()
            raw_pdf_texts(pdf)
            raw_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            db = ingest(pdf, fresh(work / f"synthetic-{count}.db")).db_path
            ingest_times.append(time.perf_counter() - start)
        jsonl = write_jsonl(work / f"synthetic-{count}.jsonl", texts)
        start = time.perf_counter()
        ingest(jsonl, fresh(work / f"synthetic-{count}-jsonl.db"))
        jsonl_time = time.perf_counter() - start
        with Finder(db) as finder:
            _, warm = in_process(finder, questions, report)
        results[count] = {"db": db, "ingest": median(ingest_times), "raw": median(raw_times), "jsonl": jsonl_time,
                          "warm": warm, "fts": fts_in_process(db, questions), "size": db.stat().st_size,
                          "text": sum(len(t.encode()) for t in texts)}
    floor_path = work / "floor.py"
    floor_path.write_text(FLOOR, encoding="utf-8")
    evfind = evfind_command()
    matches = [parse(q).match_expression() for q in questions]
    commands = {}
    for count in (200, 2000):
        db = results[count]["db"]
        commands[f"floor {count}"] = [[sys.executable, str(floor_path), str(db), m] for m in matches]
        commands[f"evfind {count}"] = [[*evfind, "query", str(db), q] for q in questions]
    process = interleaved(commands, runs, env, report)
    report("synthetic: fictional 10-K pages (benchmarks/synthetic.py) written as PDF with tests/pdfgen.py;")
    report("its PDFs are simple (one font, no images), so extraction is faster than for real filings")
    report(f"  {'pages':>6} {'ingest PDF':>11} {'raw extract':>12} {'ingest JSONL':>13} {'db/text':>8} "
           f"{'Finder.query':>13} {'FTS5 rank':>10} {'process':>9} {'floor':>9}")
    for count in (200, 2000):
        r = results[count]
        report(f"  {count:>6} {count / r['ingest']:>7.0f} p/s {count / r['raw']:>8.0f} p/s {count / r['jsonl']:>9.0f} p/s "
               f"{r['size'] / r['text']:>8.2f} {ms(r['warm']):>13} {ms(r['fts']):>10} {ms(process[f'evfind {count}']):>9} "
               f"{ms(process[f'floor {count}']):>9}")
    report("  (FTS5 rank: the floor's query alone, in-process: MATCH ... ORDER BY rank LIMIT 20)")
    growth = results[2000]["warm"] / results[200]["warm"]
    growth_fts = results[2000]["fts"] / results[200]["fts"]
    growth_process = process["evfind 2000"] / process["evfind 200"]
    report(f"  2,000 pages against 200: process {growth_process:.2f}x (floor {process['floor 2000'] / process['floor 200']:.2f}x); "
           f"Finder.query {growth:.2f}x (FTS5 rank alone {growth_fts:.2f}x: bm25 scores every matching page); "
           f"ingest time {results[2000]['ingest'] / results[200]['ingest']:.1f}x for 10x the pages")
    report.target("query time at 2,000 pages at most 3x that at 200 (evfind query process)", f"{growth_process:.2f}x",
                  growth_process <= 3)
    report.target("query time at 2,000 pages at most 3x that at 200 (Finder.query in-process)",
                  f"{growth:.2f}x; FTS5's own bm25 ranking {growth_fts:.2f}x", growth <= 3)

    # 20 revisions of the 200-page filing in one database
    texts = synthetic.pages(200)
    db = fresh(work / "revisions.db")
    times = []
    for revision in range(1, 21):
        source = write_jsonl(work / f"revision-{revision}.jsonl", synthetic.revise(texts, revision) if revision > 1 else texts)
        start = time.perf_counter()
        ingest(source, db, "NORTHWIND_2024_10K")
        times.append(time.perf_counter() - start)
    with Finder(db) as finder:
        _, warm = in_process(finder, questions, report)
    process = interleaved({
        "evfind 1 revision": [[*evfind, "query", str(results[200]["db"]), q] for q in questions],
        "evfind 20 revisions": [[*evfind, "query", str(db), q] for q in questions],
    }, runs, env, report)
    report(f"  20 revisions of 200 pages: ingest of revision 1 {ms(times[0])}, 2 {ms(times[1])}, 10 {ms(times[9])}, "
           f"20 {ms(times[19])}")
    report(f"    Finder.query on the newest {ms(warm)} ({warm / results[200]['warm']:.2f}x one revision), process "
           f"{ms(process['evfind 20 revisions'])} ({process['evfind 20 revisions'] / process['evfind 1 revision']:.2f}x); "
           f"file {db.stat().st_size / 1e6:.1f} MB ({db.stat().st_size / results[200]['size']:.1f}x one revision)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_fb = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default_fb if default_fb.is_dir() else None,
                        help="the FinanceBench folder (pdfs/, questions*.jsonl); default ../shared/financebench")
    parser.add_argument("--runs", type=int, default=21, help="interleaved runs per process timing (default 21)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the ingest timing (default 3)")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    parser.add_argument("--keep", type=Path, help="build in this directory and keep it (default: a temporary one)")
    parser.add_argument("--only", choices=["query"], help="only the query sections (the `evfind query` process, "
                        "Finder.query, learned against rules): no batch, ingest, size, peers or scale")
    parser.add_argument("--cache", type=Path, help="a folder of ingested FinanceBench databases (FILING.db), "
                        "for the learned-against-rules section; default: ingest the filing anew")
    parser.add_argument("--against", type=Path, help="another checkout of evfind (its repository's folder): its "
                        "`evfind query` is timed in the same interleaved runs, for a ratio before and after a change")
    args = parser.parse_args()
    if args.against is not None:
        args.against = args.against.resolve()
        if not (args.against / "evfind" / "__main__.py").is_file():
            parser.error(f"--against {args.against}: not a checkout of evfind (no evfind/__main__.py)")
    fb = args.financebench if args.financebench and (args.financebench / "pdfs").is_dir() else None
    if args.financebench and not fb:
        print(f"{args.financebench}/pdfs not found: real-filing parts skipped", file=sys.stderr)
    work = args.keep or Path(tempfile.mkdtemp(prefix="evfind-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    env = child_env()
    report = Report(args.output)
    try:
        header(report, fb, args)
        if fb and (fb / "pdfs" / f"{QUERY_FILING}.pdf").is_file():
            pdf = fb / "pdfs" / f"{QUERY_FILING}.pdf"
            db = ingest(pdf, fresh(work / f"{QUERY_FILING}.db")).db_path
            questions = [r["question"] for name in QUESTION_SETS for r in load_questions(fb, name)
                         if r["doc_name"] == QUERY_FILING]
            label = f"{QUERY_FILING} ({pdf.stat().st_size / 1e6:.1f} MB PDF, {Finder(db).document.page_count} pages)"
        else:
            from tests.pdfgen import make_pdf

            pdf = make_pdf(work / "synthetic-query.pdf", synthetic.pages(200))
            db = ingest(pdf, fresh(work / "synthetic-query.db")).db_path
            questions = synthetic.QUESTIONS
            label = "a synthetic 200-page filing"
        figures = query_section(report, db, label, questions, args.runs, env, args.against)
        if fb:
            learned_section(report, fb, work, args.cache, args.runs)
        if args.only is None:
            batch_section(report, db, questions, figures["process"], args.runs, env)
            if fb:
                ingest_section(report, fb, work, args.rounds)
                dbs = size_section(report, fb, work)
                peers_section(report, fb, dbs, work)
            else:
                report.section("Ingest, size and peers: skipped (they need the FinanceBench folder: --financebench DIR)")
            scale_section(report, work, args.runs, env)
        report.close()
        report("")
        report(f"load average at the end {os.getloadavg()[0]:.2f} (2 shared cores: the figures are medians)")
    finally:
        report.save()
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok is not False for _, _, ok in report.targets) else 1


if __name__ == "__main__":
    sys.exit(main())
