"""`Finder.query` in-process on one large filing, the learned last stage against the rules, in
the same run: the figure of issue 21 ("Finder.query stays under 10 ms on a 500-page filing").

    python benchmarks/query_speed.py --cache ../cache/main --output benchmarks/query_speed.txt
    python benchmarks/query_speed.py --profile 25      # where the learned query's time goes
    python benchmarks/query_speed.py --repeat 3        # three measures in a row: their spread

The questions are every labelled question on the filing (each set of ``retrieval.sets``, English
and Chinese, each wording once). Two finders on the same database, one per method, each warmed
by one pass over the questions; then ``--runs`` rounds, each asking every question of both
finders in turn (which goes first alternates), so the machine's noise falls on both alike.
Figures are medians of the per-query times; the ratio is learned over rules in the same rounds.
``--repeat K`` measures K times in a row (the same finders, warmed once) and reports each
measure and their range: on a shared machine the absolute figure moves between runs a minute
apart, the ratio much less.
``--profile N`` runs the learned queries under cProfile instead and prints the N costliest
functions (by own time and by cumulative time). A benchmark, never a test: it needs the
FinanceBench folder and skips without it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from retrieval import records_of, sets  # noqa: E402

from evfind import __version__  # noqa: E402
from evfind.finder import Finder  # noqa: E402
from evfind.ingest import ingest  # noqa: E402
from evfind.rank import DEFAULT, RULES  # noqa: E402

FILING = "PEPSICO_2022_10K"  # 503 pages: the "500-page filing" of issue 21


def questions_on(financebench: Path, filing: str) -> list[str]:
    """Every labelled question on ``filing``, each wording once, in the sets' order."""
    found: dict[str, None] = {}
    for _, labels, field, _, sources, _ in sets(financebench):
        if not labels.is_file():
            continue
        for record in records_of(labels, field, sources):
            if record.get("doc_name") == filing and record.get(field):
                found.setdefault(record[field])
    return list(found)


def database(financebench: Path, filing: str, cache: Path | None, work: Path) -> Path:
    """The filing's database: the cache's (as benchmarks/retrieval.py ingests it), else a new one."""
    if cache is not None and (cache / f"{filing}.db").is_file():
        return cache / f"{filing}.db"
    return ingest(financebench / "pdfs" / f"{filing}.pdf", work / f"{filing}.db").db_path


def timed(finders: dict[str, Finder], questions: list[str], runs: int) -> tuple[dict, dict]:
    """Per-query seconds for each finder, wall and CPU (the process's: what the machine's other
    work moves less): ``runs`` rounds of every question asked of each."""
    for finder in finders.values():  # warm: the vocabulary, the filing's readings, the model
        for q in questions:
            finder.query(q, top=5)
    names = list(finders)
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for run in range(runs):
        for q in questions:
            for name in (names if run % 2 == 0 else names[::-1]):
                start, start_cpu = time.perf_counter(), time.process_time()
                finders[name].query(q, top=5)
                times[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - start_cpu)
    return times, cpu


def profile(finder: Finder, questions: list[str], runs: int, top: int) -> str:
    for q in questions:
        finder.query(q, top=5)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(runs):
        for q in questions:
            finder.query(q, top=5)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_fb = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default_fb,
                        help="the FinanceBench folder (pdfs/, questions*.jsonl)")
    parser.add_argument("--cache", type=Path, help="a folder of ingested databases (FILING.db); default: ingest anew")
    parser.add_argument("--filing", default=FILING, help=f"the filing (default {FILING})")
    parser.add_argument("--runs", type=int, default=15, help="rounds over the questions (default 15)")
    parser.add_argument("--repeat", type=int, default=1, help="measures in a row, each of --runs rounds (default 1)")
    parser.add_argument("--profile", type=int, metavar="N", help="profile the learned queries; print the N costliest")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if not (args.financebench / "pdfs" / f"{args.filing}.pdf").is_file():
        print(f"{args.financebench}/pdfs/{args.filing}.pdf not found: skipped", file=sys.stderr)
        return 0
    questions = questions_on(args.financebench, args.filing)
    with tempfile.TemporaryDirectory(prefix="evfind-qspeed-") as work:
        db = database(args.financebench, args.filing, args.cache, Path(work))
        if args.profile:
            with Finder(db, method=DEFAULT) as finder:
                print(profile(finder, questions, args.runs, args.profile))
            return 0
        with Finder(db, method=DEFAULT) as learned, Finder(db, method=RULES) as rules:
            pages = learned.document.page_count
            load = os.getloadavg()[0]
            measures = [timed({"learned": learned, "rules": rules}, questions, args.runs) for _ in range(args.repeat)]
    lines = [
        "Finder.query in-process: the learned last stage against the rules (benchmarks/query_speed.py)",
        "=" * 94,
        f"evfind {__version__}, Python {sys.version.split()[0]}; load average {load:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at the end (2 shared cores: medians)",
        f"{args.filing}: {pages} pages; {len(questions)} labelled questions (every set, each wording once), "
        f"{args.runs} interleaved rounds, top 5" + (f"; {args.repeat} measures in a row" if args.repeat > 1 else ""),
    ]
    found = []
    for number, (times, cpu) in enumerate(measures, start=1):
        med = {name: statistics.median(values) for name, values in times.items()}
        on_cpu = {name: statistics.median(values) for name, values in cpu.items()}
        found.append((med, on_cpu))
        lines += [
            f"{f'measure {number}' if args.repeat > 1 else '':35s}wall       CPU   (medians per query)",
            f"  Finder.query, learned (default)  {med['learned'] * 1e3:6.2f} ms  {on_cpu['learned'] * 1e3:6.2f} ms",
            f"  Finder.query, --method rules     {med['rules'] * 1e3:6.2f} ms  {on_cpu['rules'] * 1e3:6.2f} ms",
            f"  learned / rules                  {med['learned'] / med['rules']:6.2f}x   "
            f"{on_cpu['learned'] / on_cpu['rules']:6.2f}x",
        ]
    if args.repeat > 1:
        def spread(values, unit):
            return f"{min(values) * (1e3 if unit else 1):6.2f} to {max(values) * (1e3 if unit else 1):.2f}{' ms' if unit else 'x'}"

        lines += [
            "range over the measures                wall",
            f"  learned                          {spread([m['learned'] for m, _ in found], True)}",
            f"  rules                            {spread([m['rules'] for m, _ in found], True)}",
            f"  learned / rules                  {spread([m['learned'] / m['rules'] for m, _ in found], False)}",
        ]
    worst = max(m["learned"] for m, _ in found)
    lines.append(f"  target: learned under 10 ms      {'met' if worst < 0.010 else 'MISSED'}"
                 + (" (in every measure)" if args.repeat > 1 and worst < 0.010 else ""))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
