"""Retrieval benchmark: evfind's method, the design's plain method and each lever, in one run.

    python benchmarks/retrieval.py --financebench ../shared/financebench [--out benchmarks/retrieval.txt]

Runs `evfind eval` (the library behind it) on the development sets: FinanceBench's questions,
the seed-style "where is X" questions, their Chinese versions, and the sample filing's own
questions. Each question is asked of its own filing, ingested from its PDF (cached under
--cache). Prints the tables by question type and category, the plain method's figures, and an
ablation table with every lever of the method switched off in turn.
Without the FinanceBench folder only the sample filing is measured.
"""

from __future__ import annotations

import argparse
import io
import platform
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import __version__  # noqa: E402
from evfind.evaluate import Report, evaluate, format_report, load_labels  # noqa: E402
from evfind.rank import DEFAULT, LEVERS, PLAIN  # noqa: E402


def sets(financebench: Path | None) -> list[tuple[str, Path, str, str | None, Path]]:
    """(name, labels, question field, group field, folder of sources)."""
    found = []
    if financebench is not None:
        pdfs = financebench / "pdfs"
        found += [
            ("financebench", financebench / "questions.jsonl", "question", None, pdfs),
            ("seed-style", financebench / "questions_seedstyle.jsonl", "question", "category", pdfs),
            ("financebench zh", financebench / "questions_zh.jsonl", "question", None, pdfs),
            ("financebench zh, English", financebench / "questions_zh.jsonl", "question_en", None, pdfs),
            ("seed-style zh", financebench / "questions_seedstyle.jsonl", "question_zh", "category", pdfs),
        ]
    found += [
        ("sample", REPO / "sample" / "questions.jsonl", "question", "category", REPO / "sample"),
        ("sample zh", REPO / "sample" / "questions.jsonl", "question_zh", "category", REPO / "sample"),
    ]
    return found


def run(labels: Path, field: str, group: str | None, sources: Path, cache: Path, method) -> Report:
    records = load_labels(labels, field)
    if sources == REPO / "sample":  # the sample filing's source is the text sample.db is built from
        for record in records:
            record["doc_name"] = "halden_2025_10k"
    return evaluate(
        records, pdfs=sources, cache=cache, question_field=field, group_field=group,
        finder_options={"method": method},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default if default.is_dir() else None)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    args = parser.parse_args()

    out = io.StringIO()
    started = time.perf_counter()
    with redirect_stdout(out):
        print(f"evfind {__version__} retrieval benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}")
        print("Each question is asked of its own filing; hit@k: a gold page in the top k; recall@5: mean")
        print("share of a question's gold pages in the top 5; MRR over the top 20. 'fabricated' counts")
        print("cited pages that do not exist in the filing.\n")
        measured = sets(args.financebench)
        summary: dict[str, dict[str, dict]] = {}
        for name, labels, field, group, sources in measured:
            report = run(labels, field, group, sources, args.cache, DEFAULT)
            summary.setdefault("evfind", {})[name] = report.table()["all"]
            # The development set's questions and gold pages stay out of the output (it is
            # committed): its misses are not listed; the sample filing's own questions' are.
            print(format_report(report, title=f"== {name}: {labels.name} ({field}), evfind's method",
                                show_misses=sources == REPO / "sample"))
            print()
        print("== The design's plain method, same run (bm25 + first-lines heading routing + RRF k=60)")
        for name, labels, field, group, sources in measured:
            report = run(labels, field, group, sources, args.cache, PLAIN)
            summary.setdefault("plain", {})[name] = report.table()["all"]
            print(format_report(report, title=f"-- {name}", show_misses=False))
        print()
        variants = [("evfind", DEFAULT)] + [(f"without {lever}", DEFAULT.without(lever)) for lever in LEVERS]
        focus = [m for m in measured if m[0] in ("financebench", "seed-style", "sample")]
        for label, method in variants[1:]:
            for name, labels, field, group, sources in focus:
                summary.setdefault(label, {})[name] = run(labels, field, group, sources, args.cache, method).table()["all"]
        print("== Ablation: each lever switched off in turn (recall@5 / hit@5 / hit@1)")
        header = f"{'method':<24}" + "".join(f"{name:>26}" for name, *_ in focus)
        print(header)
        for label in ["plain"] + [v[0] for v in variants]:
            cells = []
            for name, *_ in focus:
                row = summary[label][name]
                cells.append(f"{row['recall@5']:.3f} / {row['hit@5']:.3f} / {row['hit@1']:.3f}")
            print(f"{label:<24}" + "".join(f"{c:>26}" for c in cells))
        print(f"\nbenchmark wall time {time.perf_counter() - started:.0f} s")
    text = out.getvalue()
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
