"""Check benchmarks/questions_unanswerable.jsonl against its filings: no page holds the answer.

    python benchmarks/check_unanswerable.py --edgar ../shared/edgar

Each question lists under ``absent`` the expressions (regular expressions, case-insensitive) of
what its answer would have to say (the measure it asks for, the Item it names); a page of the
filing that matches one of them is printed, and the exit code is 1. The pages read are those of
the product's own ingest (``evaluate.database_for``, the ingest cache of ``--cache``): the pages
a query ranks. It also checks that no question is on a filing of hold-out 7 (the FinanceBench
filings, kept free of these questions while hold-out 7 was unspent).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind.evaluate import database_for  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "questions_unanswerable.jsonl"
HOLDOUT7 = REPO / "benchmarks" / "questions_holdout7.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edgar", type=Path, required=True, help="the EDGAR HTML development filings (../shared/edgar)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    args = parser.parse_args()
    records = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    spent = {json.loads(line)["doc_name"] for line in HOLDOUT7.read_text(encoding="utf-8").splitlines() if line.strip()}
    failed = 0
    for record in records:
        db = sqlite3.connect(database_for(record["doc_name"], args.edgar, None, args.cache))
        try:
            pages = db.execute("SELECT page_number, text FROM pages ORDER BY page_number").fetchall()
        finally:
            db.close()
        found = [(pattern, number) for pattern in record["absent"] for number, text in pages
                 if re.search(pattern, text, re.IGNORECASE)]
        problems = [f"page {number} matches {pattern!r}" for pattern, number in found]
        if record["gold_pages"]:
            problems.append("has gold pages")
        if record["doc_name"] in spent:
            problems.append("is on a filing of hold-out 7")
        failed += bool(problems)
        print(f"{'FAIL' if problems else 'ok  '} {record['id']}: {record['question']}" + "".join(f"\n     {p}" for p in problems))
    print(f"{len(records) - failed} of {len(records)} questions: no page of their filing matches what the answer would say")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
