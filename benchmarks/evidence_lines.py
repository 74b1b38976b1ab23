"""Evidence-line benchmark: how often the first evidence line of a right first page is the line
that holds the answer, as people reading the pages labelled it.

    python benchmarks/evidence_lines.py --financebench ../shared/financebench --edgar ../shared/edgar \
        [--cache DIR] [--out benchmarks/evidence_lines.txt] [--details]

Each question is asked of its own filing (ingested once by `evfind eval`'s machinery, cached under
--cache) as the CLI asks it (top 5), and its first hit is read as a user reads it. The labels:

- the PDF sets (FinanceBench's questions, the seed-style, forms and taxonomy sets, the hold-out
  sets): ``benchmarks/answer_lines.jsonl`` (``answer_lines.md``), for every gold page of the 445
  questions that ask for a figure or a fact, the exact string of the line that holds the answer
  (for a ratio, each input's row; for a reason, the driver's sentence first);
- the EDGAR set (``benchmarks/questions_edgar.jsonl``): ``answer_text``, the row label or sentence
  that holds the answer on the first gold page.

A question counts where its first page is gold and that page has a label: **first line** is the
share whose first evidence line (the one the table and Markdown show) holds one of the page's
labelled strings, whitespace collapsed, case-insensitive (both sides folded as evfind's index
folds text: evfind.text.normalise); **any line** the share where one of the evidence lines does;
**on page** the share whose page text holds the string on one line at all (the ceiling: a line
the PDF reader breaks differently from the labeller's reader cannot be shown whole). Chinese
wordings are measured on the same labels.

Only counts are printed; with --details, each question's outcome and first evidence line go to
stderr (for development: the filings' text stays out of the committed output). Without the
folders the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import Finder, __version__  # noqa: E402
from evfind.evaluate import database_for, load_labels  # noqa: E402
from evfind.text import normalise  # noqa: E402

ANSWER_LINES = REPO / "benchmarks" / "answer_lines.jsonl"
EDGAR_QUESTIONS = REPO / "benchmarks" / "questions_edgar.jsonl"
TAXONOMY = REPO / "benchmarks" / "questions_taxonomy.jsonl"
HOLDOUTS = ("questions_holdout.jsonl", *(f"questions_holdout{i}.jsonl" for i in range(2, 7)))
DEVELOPMENT = ("financebench", "seed-style", "forms", "taxonomy")  # the sets parameters are chosen on


def sets(financebench: Path | None, edgar: Path | None) -> list[tuple[str, Path, str, Path, str]]:
    """(name, question file, question field, folder of sources, the file name answer_lines.jsonl
    knows the questions by; "edgar" for the EDGAR set)."""
    found = []
    if financebench is not None:
        pdfs = financebench / "pdfs"
        english = [
            ("financebench", financebench / "questions.jsonl", "questions.jsonl"),
            ("seed-style", financebench / "questions_seedstyle.jsonl", "questions_seedstyle.jsonl"),
            ("forms", financebench / "questions_forms.jsonl", "questions_forms.jsonl"),
            ("taxonomy", TAXONOMY, "questions_taxonomy.jsonl"),
            *((name.removeprefix("questions_").removesuffix(".jsonl"), REPO / "benchmarks" / name, name) for name in HOLDOUTS),
        ]
        for name, path, known in english:
            found.append((name, path, "question", pdfs, known))
            if name == "financebench":  # its Chinese wordings are a file of their own
                found.append(("financebench-zh", financebench / "questions_zh.jsonl", "question", pdfs, known))
            else:
                found.append((f"{name}-zh", path, "question_zh", pdfs, known))
    if edgar is not None:
        found += [("edgar", EDGAR_QUESTIONS, "question", edgar, "edgar"),
                  ("edgar-zh", EDGAR_QUESTIONS, "question_zh", edgar, "edgar")]
    return found


def answer_labels() -> dict[tuple[str, str], dict[int, tuple[str, ...]]]:
    """(file, question id) -> gold page -> the labelled strings of that page (figure and fact
    questions only: a locate question's page is the answer, not a line of it)."""
    found = {}
    for line in ANSWER_LINES.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["kind"] == "locate":
            continue
        pages = {}
        for page, strings in record["answer_text"].items():
            pages[int(page)] = tuple(strings) if isinstance(strings, list) else (strings,)
        found[record["file"], record["id"]] = pages
    return found


def fold(text: str) -> str:
    """A line or a label as they are compared: as the index folds text, whitespace collapsed,
    lower case."""
    return " ".join(normalise(text).split()).lower()


def holds(line: str, strings: tuple[str, ...]) -> bool:
    """Does the line hold one of the labelled strings? (U+FFFE in a label's page, a ligature the
    PDF lost, stands for any one character: no label contains it.)"""
    folded = fold(line)
    return any(fold(s) in folded for s in strings if s)


class Tally:
    """The counts of one set of questions."""

    def __init__(self):
        self.questions = self.labelled = self.top_gold = self.first = self.any = self.on_page = 0
        self.details: list[str] = []


def labels_of(record: dict, known: str, labels: dict) -> dict[int, tuple[str, ...]] | None:
    if known == "edgar":
        text = record.get("answer_text")
        return {record["gold_pages"][0]: (text,)} if text else None
    source = record.get("source_id") or record["id"]
    return labels.get((known, source))


def labelled(path: Path, field: str, sources: Path, known: str, cache: Path, labels: dict):
    """Each question of a set that has labelled lines and a wording in ``field``: (its record,
    its labels by page, the Finder of its filing), one Finder a filing, closed after."""
    finders: dict[str, Finder] = {}
    try:
        for record in load_labels(path, field):
            pages = labels_of(record, known, labels)
            if not pages or not record.get(field):
                continue
            doc = record["doc_name"]
            if doc not in finders:
                finders[doc] = Finder(database_for(doc, sources, None, cache))
            yield record, pages, finders[doc]
    finally:
        for finder in finders.values():
            finder.close()


def measure(path: Path, field: str, sources: Path, known: str, cache: Path, labels: dict) -> Tally:
    tally = Tally()
    for record, pages, finder in labelled(path, field, sources, known, cache, labels):
        tally.questions += 1
        question = record[field]
        answer = finder.answer(question)
        top = answer.results[0] if answer.results else None
        if top is None or top.page_number not in record["gold_pages"]:
            continue
        tally.top_gold += 1
        strings = pages.get(top.page_number)
        if not strings:
            continue  # (an EDGAR question's label is of its first gold page only)
        tally.labelled += 1
        first = bool(top.evidence) and holds(top.evidence[0][1], strings)
        text = finder.page(top.page_number).text
        tally.first += first
        tally.any += any(holds(line, strings) for _, line in top.evidence)
        tally.on_page += any(holds(line, strings) for line in text.split("\n"))
        outcome = "first" if first else "other" if any(holds(line, strings) for _, line in top.evidence) else "miss"
        shown = f"{top.evidence[0][0]}: {top.evidence[0][1]}" if top.evidence else "-"
        rest = " ## ".join(f"{i}: {line}" for i, line in top.evidence[1:])
        tally.details.append(f"{record.get('id', '?')}\tp.{top.page_number}\t{outcome}\t{question}\n\t{shown}\n\t"
                             f"also: {rest}\n\t|| {' | '.join(strings)}")
    return tally


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.3f})" if whole else "-"


def report(results: list[tuple[str, Tally]]) -> str:
    header = ("set", "labelled", "first page right, labelled", "first line", "any line", "on page")
    rows = [header]
    for name, t in results:
        rows.append((name, str(t.questions), str(t.labelled), share(t.first, t.labelled), share(t.any, t.labelled),
                     share(t.on_page, t.labelled)))
    pooled = [("development (EN)", [t for n, t in results if n in DEVELOPMENT]),
              ("development (ZH)", [t for n, t in results if n.removesuffix("-zh") in DEVELOPMENT and n.endswith("-zh")]),
              ("hold-out (EN)", [t for n, t in results if n.startswith("holdout") and not n.endswith("-zh")]),
              ("hold-out (ZH)", [t for n, t in results if n.startswith("holdout") and n.endswith("-zh")])]
    for name, tallies in pooled:
        if tallies:
            total = lambda key: sum(getattr(t, key) for t in tallies)  # noqa: E731
            rows.append((name, str(total("questions")), str(total("labelled")), share(total("first"), total("labelled")),
                         share(total("any"), total("labelled")), share(total("on_page"), total("labelled"))))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = REPO.parent / "shared"
    parser.add_argument("--financebench", type=Path, default=shared / "financebench",
                        help="FinanceBench's folder (pdfs/ and questions*.jsonl)")
    parser.add_argument("--edgar", type=Path, default=shared / "edgar", help="the EDGAR filings' folder")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--only", help="only the sets whose name starts with this")
    parser.add_argument("--details", action="store_true", help="each question's outcome and first evidence line, on stderr")
    args = parser.parse_args()
    args.financebench = args.financebench if args.financebench and args.financebench.is_dir() else None
    args.edgar = args.edgar if args.edgar and args.edgar.is_dir() else None
    if args.financebench is None and args.edgar is None:
        print("skipped: no FinanceBench or EDGAR folder (give them with --financebench, --edgar)")
        return 0
    started = time.perf_counter()
    labels = answer_labels()
    results = []
    for name, path, field, sources, known in sets(args.financebench, args.edgar):
        if args.only and not name.startswith(args.only):
            continue
        if not path.is_file():
            print(f"skipped {name}: no {path}", file=sys.stderr)
            continue
        tally = measure(path, field, sources, known, args.cache, labels)
        results.append((name, tally))
        if args.details:
            print(f"== {name}", *tally.details, sep="\n", file=sys.stderr)
    lines = [
        f"evfind {__version__} evidence-line benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "Each question asked of its own filing (top 5, the CLI's default). labelled: the figure and fact questions",
        "with an answer line (benchmarks/answer_lines.jsonl; EDGAR: answer_text of questions_edgar.jsonl). Of those",
        "whose first page is gold and labelled, the share whose first evidence line (the one shown), or any of",
        "them, holds a labelled string of that page (whitespace collapsed, case-insensitive), and whose page text",
        "holds it on one line at all (the ceiling).",
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
