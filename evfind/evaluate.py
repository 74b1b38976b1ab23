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
    source = next((p for p in (pdfs / f"{doc_name}{ext}" for ext in (".pdf", ".jsonl", ".txt")) if p.is_file()), None)
    if source is None:
        raise InputError(f"{pdfs}: no {doc_name}.pdf (or .jsonl, .txt) for a labelled question")
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
                )
            )
    finally:
        for finder in finders.values():
            finder.close()
    return report


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
