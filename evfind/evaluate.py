"""Measure retrieval on labelled questions: `evfind eval`.

A labels file is JSONL, one question per line, with ``doc_name``, ``question`` (or the field
named by ``question_field``), ``gold_pages`` (physical, from 1) and optionally ``id``,
``question_type`` and ``category``. Each filing is ingested once into a cache directory (or read
from ``--dbs``) and each question is asked of its own filing.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .errors import IncompatibleDatabaseError, InputError, NoContentWordsError, SourceError

DEPTH = 20  # pages retrieved per question; MRR and hit@k are computed on this list
KS = (1, 3, 5, 10)


@dataclass(frozen=True)
class Outcome:
    """One question's result."""

    id: str
    doc_name: str
    question: str
    group: str
    gold: tuple[int, ...]
    returned: tuple[int, ...]
    seconds: float
    company: str = ""  # whose filing: the unit left out by leave-one-company-out

    def hit(self, k: int) -> bool:
        return any(p in self.gold for p in self.returned[:k])

    def recall(self, k: int) -> float:
        return len(set(self.returned[:k]) & set(self.gold)) / len(self.gold)

    @property
    def reciprocal_rank(self) -> float:
        for rank, page in enumerate(self.returned, start=1):
            if page in self.gold:
                return 1.0 / rank
        return 0.0


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    fabricated: int = 0  # cited pages that do not exist in the filing (must stay 0)

    @staticmethod
    def metrics(outcomes: list[Outcome]) -> dict[str, float]:
        n = len(outcomes) or 1
        row = {f"hit@{k}": sum(o.hit(k) for o in outcomes) / n for k in KS}
        row["recall@5"] = sum(o.recall(5) for o in outcomes) / n
        row["mrr"] = sum(o.reciprocal_rank for o in outcomes) / n
        row["n"] = len(outcomes)
        return row

    def table(self) -> dict[str, dict[str, float]]:
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in self.outcomes:
            groups[outcome.group].append(outcome)
        result = {"all": self.metrics(self.outcomes)}
        for name in sorted(groups):
            result[name] = self.metrics(groups[name])
        return result

    def misses(self, k: int = 5) -> list[Outcome]:
        return [o for o in self.outcomes if not o.hit(k)]

    def to_dict(self) -> dict:
        return {
            "metrics": self.table(),
            "fabricated_pages": self.fabricated,
            "median_query_ms": round(1000 * _median([o.seconds for o in self.outcomes]), 3),
            "misses": [
                {"id": o.id, "doc_name": o.doc_name, "question": o.question, "gold_pages": list(o.gold),
                 "returned": list(o.returned[:10])}
                for o in self.misses()
            ],
        }


def _median(values: list[float]) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def load_labels(path: str | os.PathLike, question_field: str = "question") -> list[dict]:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such labels file")
    from ._jsonl import objects

    labels = []
    shape = '{"doc_name": ..., "question": ..., "gold_pages": [...]}'
    for where, _, record in objects(path.read_text(encoding="utf-8"), str(path), shape):
        missing = [k for k in ("doc_name", question_field, "gold_pages") if k not in record]
        if missing:
            raise SourceError(f"{where}: missing field(s) {', '.join(missing)}")
        labels.append(record)
    return labels


def database_for(doc_name: str, pdfs: Path | None, dbs: Path | None, cache: Path) -> Path:
    """The database of one filing: from --dbs as it is, or ingested once from --pdfs."""
    if dbs is not None:
        db = dbs / f"{doc_name}.db"
        if not db.is_file():
            raise InputError(f"{db}: no database for {doc_name} in {dbs}")
        return db
    assert pdfs is not None
    source = next((p for p in (pdfs / f"{doc_name}{ext}" for ext in (".pdf", ".htm", ".html", ".jsonl", ".txt")) if p.is_file()), None)
    if source is None:
        raise InputError(f"{pdfs}: no {doc_name}.pdf (or .htm, .html, .jsonl, .txt) for a labelled question")
    from .ingest import ingest

    cache.mkdir(parents=True, exist_ok=True)
    db = cache / f"{doc_name}.db"
    try:
        ingest(source, db, doc_name)
    except IncompatibleDatabaseError:
        db.unlink()  # a cache written by another evfind version: build it again
        ingest(source, db, doc_name)
    return db


def evaluate(
    labels: list[dict],
    *,
    pdfs: Path | None = None,
    dbs: Path | None = None,
    cache: Path | None = None,
    question_field: str = "question",
    group_field: str | None = None,
    finder_options: dict | None = None,
) -> Report:
    """Ask every labelled question of its own filing and collect the outcomes."""
    from .finder import Finder

    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "evfind" / "eval"
    report = Report()
    finders: dict[str, Finder] = {}
    try:
        for record in labels:
            doc_name = record["doc_name"]
            if doc_name not in finders:
                finders[doc_name] = Finder(database_for(doc_name, pdfs, dbs, cache), **(finder_options or {}))
            finder = finders[doc_name]
            text = record[question_field]
            started = time.perf_counter()
            try:
                answer = finder.query(text, top=DEPTH)
                returned = tuple(hit.page_number for hit in answer.results)
            except NoContentWordsError:
                returned = ()
            seconds = time.perf_counter() - started
            page_count = finder.document.page_count
            report.fabricated += sum(1 for p in returned if not 1 <= p <= page_count)
            group = record.get(group_field) if group_field else None
            group = group or record.get("question_type") or "all"
            report.outcomes.append(
                Outcome(
                    id=str(record.get("id", len(report.outcomes) + 1)),
                    doc_name=doc_name,
                    question=text,
                    group=str(group),
                    gold=tuple(record["gold_pages"]),
                    returned=returned,
                    seconds=seconds,
                    company=company_of(record),
                )
            )
    finally:
        for finder in finders.values():
            finder.close()
    return report


def company_of(record: dict) -> str:
    """The company a labelled question is about: its ``company`` field, else the first part of
    its document name (3M_2018_10K -> 3M)."""
    return str(record.get("company") or record["doc_name"].split("_")[0])


# ---------------------------------------------------------------------------------------------
# Leave-one-company-out: parameters chosen without the company they are measured on


def objective(outcomes: list[Outcome]) -> float:
    """What a choice of parameters is judged by: the mean of hit@1, hit@5 and the reciprocal
    rank over the questions (the first page first, the right page near the top)."""
    if not outcomes:
        return 0.0
    return sum(o.hit(1) + o.hit(5) + o.reciprocal_rank for o in outcomes) / (3 * len(outcomes))


@dataclass
class Loco:
    """Leave-one-company-out over a grid of settings: for each company, the setting that scores
    best on every other company's questions, and its outcomes on that company's own."""

    chosen: dict[str, str]  # company -> name of the setting chosen without it
    held_out: dict[str, Report]  # labels name -> its questions' outcomes under those choices
    in_sample: str  # the setting chosen on every company at once

    def to_dict(self) -> dict:
        return {
            "in_sample_choice": self.in_sample,
            "chosen": dict(sorted(self.chosen.items())),
            "metrics": {name: report.table() for name, report in self.held_out.items()},
        }


def leave_one_company_out(results: dict[str, dict[str, Report]], default: str) -> Loco:
    """``results``: setting name -> labels name -> the report of that setting on those labels
    (every setting over the same questions, in the same order). The choice without a company
    is the best ``objective`` over the other companies' questions of every labels file,
    pooled; ties go to ``default``, then to the order of the settings."""
    names = list(results)
    sets = list(results[names[0]])
    pooled = {name: [o for label in sets for o in results[name][label].outcomes] for name in names}
    companies = sorted({o.company for o in pooled[names[0]]})

    def best(excluded: str | None) -> str:
        scores = {name: objective([o for o in pooled[name] if o.company != excluded]) for name in names}
        top = max(scores.values())
        return default if scores.get(default) == top else next(n for n in names if scores[n] == top)

    chosen = {company: best(company) for company in companies}
    held_out = {}
    for label in sets:
        report = Report()
        for i, outcome in enumerate(results[names[0]][label].outcomes):
            report.outcomes.append(results[chosen[outcome.company]][label].outcomes[i])
        held_out[label] = report
    return Loco(chosen, held_out, best(None))


def evaluate_grid(
    labels: dict[str, tuple[list[dict], str]],
    methods: dict[str, object],
    *,
    pdfs: Path | None = None,
    dbs: Path | None = None,
    cache: Path | None = None,
    group_field: str | None = None,
) -> dict[str, dict[str, Report]]:
    """Every setting of ``methods`` (name -> rank.Method) on every labels file (name ->
    (records, question field)): setting name -> labels name -> report."""
    return {
        name: {
            label: evaluate(records, pdfs=pdfs, dbs=dbs, cache=cache, question_field=field,
                            group_field=group_field, finder_options={"method": method})
            for label, (records, field) in labels.items()
        }
        for name, method in methods.items()
    }


def format_report(report: Report, title: str = "", show_misses: bool = True) -> str:
    lines = []
    if title:
        lines.append(title)
    header = f"{'group':<26} {'n':>3} " + " ".join(f"{name:>8}" for name in ("hit@1", "hit@3", "hit@5", "hit@10", "recall@5", "MRR"))
    lines.append(header)
    for name, row in report.table().items():
        values = [row["hit@1"], row["hit@3"], row["hit@5"], row["hit@10"], row["recall@5"], row["mrr"]]
        lines.append(f"{name:<26} {row['n']:>3} " + " ".join(f"{v:>8.3f}" for v in values))
    lines.append(
        f"fabricated pages: {report.fabricated}    median query: "
        f"{1000 * _median([o.seconds for o in report.outcomes]):.2f} ms"
    )
    if show_misses and report.misses():
        lines.append("")
        lines.append("misses (no gold page in the top 5):")
        for o in report.misses():
            lines.append(f"  {o.id} [{o.doc_name}] gold {list(o.gold)} returned {list(o.returned[:5])}")
            lines.append(f"    {o.question[:150]}")
    return "\n".join(lines)


def format_loco(in_sample: dict[str, Report], loco: Loco, default: str) -> str:
    """The rules' in-sample figures (their default setting on every question) beside the
    leave-one-company-out ones (each company with the setting chosen without it)."""
    metrics = ("hit@1", "hit@3", "hit@5", "recall@5", "mrr")
    lines = ["the hand-set rules (--method rules), their parameters (rank.GRID) chosen by leaving one company out:",
             f"in-sample: every company ranked with the default setting ({default})",
             "leave-one-company-out: each company ranked with the setting that scored best on the others", ""]
    header = f"{'labels':<36} {'n':>4}   " + "  ".join(f"{m:>17}" for m in metrics)
    lines += [header, " " * 44 + "  ".join(f"{'in-sample / LOCO':>17}" for _ in metrics)]
    for name, report in in_sample.items():
        mine, held = report.table()["all"], loco.held_out[name].table()["all"]
        cells = "  ".join(f"{mine[m]:>8.3f} / {held[m]:.3f}" for m in metrics)
        lines.append(f"{Path(name).name[:36]:<36} {mine['n']:>4}   {cells}")
    lines += ["", f"chosen on all companies at once: {loco.in_sample}"
              + ("" if loco.in_sample == default else "  (DEFAULT differs: update rank.py)")]
    counts: dict[str, list[str]] = defaultdict(list)
    for company, setting in sorted(loco.chosen.items()):
        counts[setting].append(company)
    for setting, companies in sorted(counts.items(), key=lambda pair: -len(pair[1])):
        lines.append(f"  chosen without {len(companies):>2} of {len(loco.chosen)} companies: {setting}  ({', '.join(companies)})")
    return "\n".join(lines)


def format_learned(in_sample: dict[str, Report], trained: dict) -> str:
    """The learned last stage under ``evfind eval --loco``: its figures on these questions
    (in-sample: the model is not retrained here) and its leave-one-company-out figures from
    its training (``trained``: the model file's provenance)."""
    metrics = ("hit@1", "hit@3", "hit@5", "recall@5", "mrr")
    lines = ["the learned last stage (the default, --method learned): chosen and trained by leaving one company out of",
             "the development questions (benchmarks/train_ranker.py); this command does not retrain it, so on these",
             "questions its figures are in-sample (it may have been trained on them):", ""]
    lines.append(f"{'labels':<36} {'n':>4}   " + "  ".join(f"{m:>8}" for m in metrics))
    for name, report in in_sample.items():
        row = report.table()["all"]
        lines.append(f"{Path(name).name[:36]:<36} {row['n']:>4}   " + "  ".join(f"{row[m]:>8.3f}" for m in metrics))
    held = trained.get("loco") or {}
    if held:
        lines += ["", f"held out by company when it was trained ({trained.get('trained', '?')}; "
                  "the development questions, hit@1 / hit@3 / hit@5):"]
        for key in ("all/en", "all/zh"):
            if key in held:
                figures = held[key]
                lines.append(f"  {key:<8} {figures['n']:>5} questions   " + " / ".join(
                    f"{figures[f'hit@{k}']:.3f}" for k in (1, 3, 5)))
    return "\n".join(lines)
