"""Facts benchmark: what the inline-XBRL facts list adds to the ranking of the EDGAR questions, and
how often a right first page's hit lists the facts and shows the figure's line.

    python benchmarks/facts.py --edgar ../shared/edgar [--cache DIR] [--out benchmarks/facts.txt]

The EDGAR questions (``benchmarks/questions_edgar.jsonl``, in English and in Chinese) are asked of
their own filings (ingested once, cached under --cache) with DEFAULT and with the pages tagging
the asked concepts (``Signals.facts``, concepts.lookup) fused as a list of their own, at each
weight of ``WEIGHTS``, for questions asking a figure (``facts_for="fact"``) or for all:

- in-sample: hit@1, hit@3 and hit@5 of each setting, English and Chinese;
- leave-one-company-out (``evaluate.company_of``): each company's questions ranked with the setting
  that scores best (``evaluate.objective``, both languages pooled) on the other companies';
- with DEFAULT: of the questions whose first page is gold, the share whose hit lists facts of that
  page (``Hit.facts``), for the fact questions and for all; the share whose page tags any fact at
  all (the ceiling: a page of the Business or MD&A items, or of a filing without inline XBRL, tags
  none); the share of those whose listed facts
  include one beside the labelled answer (its row label is the labelled line's, or in it); and the
  share whose first evidence line holds the labelled answer (``answer_text``, as
  benchmarks/evidence_lines.py reads it).

Only figures are printed. Without the EDGAR folder the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_lines import fold  # noqa: E402

from evfind import Finder, __version__, factstore  # noqa: E402
from evfind.evaluate import company_of, database_for, evaluate, leave_one_company_out, load_labels  # noqa: E402
from evfind.rank import DEFAULT  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "questions_edgar.jsonl"
WEIGHTS = (0.3, 0.5, 1.0)
FIELDS = {"en": "question", "zh": "question_zh"}


def settings() -> dict[str, object]:
    """Every setting measured, by name: DEFAULT, and the facts list at each weight and scope."""
    found = {"no facts list": DEFAULT._replace(facts_weight=0.0, facts_for="fact")}
    for scope in ("fact", "all"):
        for weight in WEIGHTS:
            found[f"facts {weight} ({scope})"] = DEFAULT._replace(facts_weight=weight, facts_for=scope)
    return found


def ranked(records: list[dict], edgar: Path, cache: Path) -> dict[str, dict[str, object]]:
    """setting -> language -> Report."""
    return {
        name: {lang: evaluate(records, pdfs=edgar, cache=cache, question_field=field, group_field="question_type",
                              finder_options={"method": method})
               for lang, field in FIELDS.items()}
        for name, method in settings().items()
    }


def row(report) -> str:
    t = report.table()["all"]
    return f"{t['hit@1']:.3f} / {t['hit@3']:.3f} / {t['hit@5']:.3f}"


def beside(fact: dict, answer: str) -> bool:
    """Is a listed fact beside the labelled answer: its row label the labelled line's, or in it?"""
    label = fold(fact.get("row_label") or "")
    return bool(label) and (label in fold(answer) or fold(answer) in label)


class Listed:
    def __init__(self):
        self.right = self.listed = self.beside = self.labelled = self.line = 0
        self.fact_right = self.fact_listed = self.fact_beside = 0
        self.tags = self.fact_tags = 0  # right first pages that tag any fact at all (the ceiling)


def listed(records: list[dict], edgar: Path, cache: Path, field: str) -> Listed:
    """With DEFAULT: the right first pages, the facts their hits list, their evidence lines."""
    tally = Listed()
    finders: dict[str, Finder] = {}
    try:
        for record in records:
            doc = record["doc_name"]
            if doc not in finders:
                finders[doc] = Finder(database_for(doc, edgar, None, cache))
            answer = finders[doc].answer(record[field])
            top = answer.results[0] if answer.results else None
            if top is None or top.page_number not in record["gold_pages"]:
                continue
            fact = record["question_type"] == "fact"
            facts = [f.to_dict() for f in top.facts]
            text = record.get("answer_text")
            near = bool(text) and any(beside(f, text) for f in facts)
            tally.right += 1
            tags = bool(factstore.facts_on_pages(finders[doc].conn, [page_id(finders[doc], top.page_number)]))
            tally.tags += tags
            tally.fact_tags += fact and tags
            tally.listed += bool(facts)
            tally.beside += near
            tally.fact_right += fact
            tally.fact_listed += fact and bool(facts)
            tally.fact_beside += fact and near
            if text and top.page_number == record["gold_pages"][0]:
                tally.labelled += 1
                tally.line += bool(top.evidence) and fold(text) in fold(top.evidence[0][1])
    finally:
        for finder in finders.values():
            finder.close()
    return tally


def page_id(finder: Finder, number: int) -> int:
    row = finder.conn.execute("SELECT id FROM pages WHERE revision_id = ? AND page_number = ?",
                              (finder.revision.revision_id, number)).fetchone()
    return row[0]


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.3f})" if whole else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar", help="the EDGAR filings' folder")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if not args.edgar.is_dir():
        print(f"skipped: no EDGAR folder at {args.edgar} (give it with --edgar)")
        return 0
    started = time.perf_counter()
    records = load_labels(QUESTIONS)
    results = ranked(records, args.edgar, args.cache)
    default = next(name for name, method in settings().items() if method == DEFAULT)
    loco = leave_one_company_out(results, default)
    lines = [
        f"evfind {__version__} facts benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        f"{len(records)} EDGAR questions of {len({company_of(r) for r in records})} companies, each in English and Chinese.",
        f"DEFAULT: facts_weight={DEFAULT.facts_weight}, facts_for={DEFAULT.facts_for}.",
        "",
        "hit@1 / hit@3 / hit@5, in-sample:",
        f"{'setting':<22}  {'English':<21}  Chinese",
    ]
    for name, reports in results.items():
        lines.append(f"{name:<22}  {row(reports['en']):<21}  {row(reports['zh'])}")
    lines += [
        "",
        f"leave-one-company-out: {row(loco.held_out['en'])} (English), {row(loco.held_out['zh'])} (Chinese);"
        f" chosen on every company at once: {loco.in_sample}",
        "chosen without each company: " + ", ".join(f"{c}: {s}" for c, s in sorted(loco.chosen.items())),
        "",
        "With DEFAULT, of the questions whose first page is gold (fact questions, all):",
    ]
    for lang, field in FIELDS.items():
        t = listed(records, args.edgar, args.cache, field)
        lines += [
            f"  {lang}: the hit lists facts of that page: {share(t.fact_listed, t.fact_right)}, {share(t.listed, t.right)};"
            f" one beside the labelled answer: {share(t.fact_beside, t.fact_right)}, {share(t.beside, t.right)}",
            f"  {lang}: the page tags any fact at all (the ceiling): {share(t.fact_tags, t.fact_right)}, {share(t.tags, t.right)}",
            f"  {lang}: first evidence line holds the labelled answer (first gold page): {share(t.line, t.labelled)}",
        ]
    lines += ["", f"({time.perf_counter() - started:.0f} s)"]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
