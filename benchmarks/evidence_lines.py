"""Evidence-line benchmark: how often the top hit's evidence lines hold the line a user needs.

    python benchmarks/evidence_lines.py [--pdfs ../shared/financebench/pdfs] [--cache DIR] [--out benchmarks/evidence_lines.txt]

On the development sets (FinanceBench's questions*.jsonl beside the PDFs folder, and
benchmarks/questions_taxonomy.jsonl), each question is asked of its own filing, ingested from
its PDF once by `evfind eval`'s machinery (cached under --cache), and the top hit is read as a
user reads it:

- top hit gold: the share of questions whose first page is a gold page;
- with evidence: among those, the share whose hit has evidence lines at all;
- for fact questions (question_type fact in the forms and taxonomy sets, metrics-generated in
  FinanceBench's), among those whose first page is gold: the share whose first evidence line
  carries a figure (evidence.has_figure) and holds one of the question's line-item concepts
  (evfind.evidence.Concept.line_item, matched as the evidence matches them), and the share
  where any of the evidence lines does.

Only counts are printed (with --details, each fact question's outcome goes to stderr, for
development: the filings' text stays out of the committed output). Without the PDFs folder
the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import Finder, __version__, evidence  # noqa: E402
from evfind.evaluate import database_for, load_labels  # noqa: E402

FINANCEBENCH_FACT = {"metrics-generated"}
FORMS_FACT = {"fact"}


def sets(pdfs: Path) -> list[tuple[str, Path, str, set[str]]]:
    """(name, labels, question field, the question types counted as fact questions)."""
    folder = pdfs.parent
    taxonomy = REPO / "benchmarks" / "questions_taxonomy.jsonl"
    return [
        ("financebench", folder / "questions.jsonl", "question", FINANCEBENCH_FACT),
        ("financebench zh", folder / "questions_zh.jsonl", "question", FINANCEBENCH_FACT),
        ("seed-style", folder / "questions_seedstyle.jsonl", "question", set()),
        ("forms", folder / "questions_forms.jsonl", "question", FORMS_FACT),
        ("forms zh", folder / "questions_forms.jsonl", "question_zh", FORMS_FACT),
        ("taxonomy", taxonomy, "question", FORMS_FACT),
        ("taxonomy zh", taxonomy, "question_zh", FORMS_FACT),
    ]


class Tally:
    """The counts of one set of questions."""

    def __init__(self):
        self.questions = self.top_gold = self.with_evidence = 0
        self.fact = self.fact_top_gold = 0
        self.first_line = 0  # fact, top gold: the first evidence line has a line item and a figure
        self.any_line = 0  # fact, top gold: one of the evidence lines has
        self.details: list[str] = []  # each fact question with a gold top hit: id, page, outcome, lines


def item_and_figure(line: str, concepts: tuple[evidence.Concept, ...]) -> bool:
    """Does the line carry a figure and hold one of the question's line-item concepts?"""
    if not evidence.has_figure(line):
        return False
    _, held = evidence.read_lines(evidence.mark(line, concepts), concepts)
    return any(concepts[i].line_item for i in held.get(0, ()))


def measure(labels: Path, question_field: str, fact_types: set[str], pdfs: Path, cache: Path) -> Tally:
    tally = Tally()
    finders: dict[str, Finder] = {}
    try:
        for record in load_labels(labels, question_field):
            doc_name = record["doc_name"]
            if doc_name not in finders:
                finders[doc_name] = Finder(database_for(doc_name, pdfs, None, cache))
            finder = finders[doc_name]
            question = record[question_field]
            answer = finder.answer(question)
            tally.questions += 1
            fact = record.get("question_type") in fact_types
            tally.fact += fact
            top = answer.results[0] if answer.results else None
            if top is None or top.page_number not in record["gold_pages"]:
                continue
            tally.top_gold += 1
            tally.with_evidence += bool(top.evidence)
            if not fact:
                continue
            tally.fact_top_gold += 1
            concepts = finder.concepts(question)
            found = [item_and_figure(text, concepts) for _, text in top.evidence]
            tally.first_line += bool(found and found[0])
            tally.any_line += any(found)
            outcome = "first" if found and found[0] else "other" if any(found) else "none"
            tally.details.append(f"{record.get('id', '?')}\tp.{top.page_number}\t{outcome}\t"
                                 + " | ".join(f"{line}: {text}" for line, text in top.evidence))
    finally:
        for finder in finders.values():
            finder.close()
    return tally


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.3f})" if whole else "-"


def report(results: list[tuple[str, Tally]]) -> str:
    header = ("set", "questions", "top hit gold", "with evidence", "fact", "fact, top gold",
              "first line: item+figure", "any line: item+figure")
    rows = [header]
    for name, t in results:
        rows.append((
            name, str(t.questions), share(t.top_gold, t.questions), share(t.with_evidence, t.top_gold),
            str(t.fact), share(t.fact_top_gold, t.fact), share(t.first_line, t.fact_top_gold),
            share(t.any_line, t.fact_top_gold),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = REPO.parent / "shared" / "financebench" / "pdfs"
    parser.add_argument("--pdfs", type=Path, default=default, help="the filings' PDFs, DOC_NAME.pdf (questions*.jsonl beside it)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--details", action="store_true", help="each fact question's outcome and evidence lines, on stderr")
    args = parser.parse_args()
    if not args.pdfs.is_dir():
        print(f"skipped: no PDFs folder at {args.pdfs} (give it with --pdfs)")
        return 0
    started = time.perf_counter()
    results = []
    for name, labels, question_field, fact_types in sets(args.pdfs):
        if not labels.is_file():
            print(f"skipped {name}: no {labels}", file=sys.stderr)
            continue
        tally = measure(labels, question_field, fact_types, args.pdfs, args.cache)
        results.append((name, tally))
        if args.details:
            print(f"== {name}", *tally.details, sep="\n", file=sys.stderr)
    lines = [
        f"evfind {__version__} evidence-line benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "Each question asked of its own filing (top 5, the CLI's default); the top hit is its first page.",
        "top hit gold: share of questions whose top hit is a gold page. with evidence: of those, share",
        "whose hit has evidence lines. fact: fact questions (forms, taxonomy: question_type fact;",
        "FinanceBench: metrics-generated). Of the fact questions whose top hit is gold, the share whose",
        "first evidence line (or any of them) has a figure and holds one of the question's line items.",
        "",
        report(results),
        "",
        f"({time.perf_counter() - started:.0f} s)",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
