"""What the Datasette path costs over the library: medians in one run, as ratios to Finder.query.

    python scripts/bench_datasette.py [--db sample.db] [--runs 200]

Measured on the same database and questions (sample/questions.jsonl):
  finder     Finder.query on an open Finder (the floor: the ranking itself)
  function   evfind_query()'s work: open a Finder, query, dump the JSON (what each SQL call does)
  asgi       GET /DB/ask.json through Datasette's in-process client (SQL, JSON, Datasette)
  http       GET /DB/ask.json from `evfind serve` over loopback HTTP
Needs `pip install '.[browse]'`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent


def median_ms(fn, questions, runs: int) -> float:
    for q in questions[:3]:  # warm up
        fn(q)
    times = []
    for i in range(runs):
        q = questions[i % len(questions)]
        start = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=REPO / "sample.db")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    from evfind import Finder
    from evfind.browse import make_datasette
    from evfind.datasette_plugin import ASK_TOP, answer_json

    lines = (REPO / "sample" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines if line.strip()]
    db = args.db.resolve()
    name = db.stem
    figures = {}

    with Finder(db) as finder:
        figures["finder"] = median_ms(lambda q: finder.query(q, top=ASK_TOP), questions, args.runs)
    figures["function"] = median_ms(lambda q: answer_json(db, q, ASK_TOP), questions, args.runs)

    ds = make_datasette([db])
    loop = asyncio.new_event_loop()
    loop.run_until_complete(ds.invoke_startup())

    def asgi(q):
        response = loop.run_until_complete(ds.client.get(f"/{name}/ask.json?" + urlencode({"question": q})))
        assert response.status_code == 200, response.text

    figures["asgi"] = median_ms(asgi, questions, args.runs)
    loop.close()

    server = subprocess.Popen(
        [sys.executable, "-m", "evfind", "serve", str(db), "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        base = server.stdout.readline().rsplit(" at ", 1)[1].strip()

        def http(q):
            with urllib.request.urlopen(f"{base}/ask.json?" + urlencode({"question": q}), timeout=30) as r:
                r.read()

        figures["http"] = median_ms(http, questions, args.runs)
    finally:
        server.terminate()
        server.wait()

    floor = figures["finder"]
    print(f"{db.name}: {len(questions)} questions, {args.runs} runs each, top {ASK_TOP}; medians")
    for label, ms in figures.items():
        print(f"  {label:<9} {ms:8.2f} ms   x{ms / floor:5.2f}")


if __name__ == "__main__":
    main()
