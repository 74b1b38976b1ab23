"""Several documents in one database: how the per-document rankings are merged (merge.merge).

    python benchmarks/multidoc.py --financebench ../shared/financebench [--out benchmarks/multidoc.txt]

Puts the development filings into databases of two or three filings each (one company's filings
in date order, three at a time; a company's lone filing with another's), asks every labelled
question of the database holding its filing, without --document, and counts a hit when a page
listed is a gold page of the question's own filing. Prints hit@1, hit@3, hit@5, MRR@10 and how
often the first page is in the right filing (for all questions, then for each set), for the
merge evfind uses (`evfind query`, through
``MultiFinder``) and for the alternatives it was chosen over, computed from the same
per-document answers. The databases are built once under --cache.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evfind import merge, store  # noqa: E402
from evfind.multi import MultiFinder, open_finder  # noqa: E402

SETS = ("questions.jsonl", "questions_forms.jsonl", "questions_seedstyle.jsonl")
DEPTH = 10  # pages listed per question


def groups(doc_names: set[str]) -> list[list[str]]:
    """The filings of each database: a company's filings in date order, three at a time (a last
    lone one joins the chunk before it as a pair), and lone filings two by two (an odd one out
    with the last filing of the last group of three)."""
    by_company: dict[str, list[str]] = defaultdict(list)
    for name in sorted(doc_names):
        by_company[name.split("_")[0].replace("ACTIVSION", "ACTIVISION")].append(name)
    found, lone = [], []
    for names in by_company.values():
        names.sort(key=lambda name: name.split("_")[1])
        chunks = [names[i : i + 3] for i in range(0, len(names), 3)]
        if len(chunks) > 1 and len(chunks[-1]) == 1:
            chunks[-2:] = [chunks[-2][:2], chunks[-2][2:] + chunks[-1]]
        for chunk in chunks:
            if len(chunk) > 1:
                found.append(chunk)
            else:
                lone.append(chunk[0])
    if len(lone) % 2:  # the odd one out pairs with the last filing of the last group of three
        last = max(i for i, chunk in enumerate(found) if len(chunk) == 3)
        lone.insert(len(lone) - 1, found[last].pop())
    found += [lone[i : i + 2] for i in range(0, len(lone), 2)]
    return found


def database(names: list[str], pdfs: Path, cache: Path, number: int) -> Path:
    from evfind.ingest import ingest

    db = cache / f"G{number:02d}.db"
    held = set()
    if db.exists():
        conn = store.connect_read(db)
        held = {r.document_id for r in store.revisions(conn)}
        conn.close()
    for name in names:
        if name not in held:
            ingest(pdfs / f"{name}.pdf", db)
    return db


def by_score(lists, weights=None):
    """Each list's order kept, the best next score first: a merge by (weighted) fused score."""
    weights = weights or [1.0] * len(lists)
    heads, merged = [0] * len(lists), []
    while True:
        waiting = [i for i in range(len(lists)) if heads[i] < len(lists[i])]
        if not waiting:
            return merged
        best = max(waiting, key=lambda i: (lists[i][heads[i]][1] * weights[i], -i))
        merged.append((best, *lists[best][heads[best]]))
        heads[best] += 1


def measure(financebench: Path, cache: Path) -> str:
    records = []
    for name in SETS:
        lines = (financebench / name).read_text().splitlines()
        records += [{**json.loads(line), "set": name} for line in lines if line.strip()]
    made = groups({r["doc_name"] for r in records})
    where = {name: i for i, names in enumerate(made) for name in names}
    cache.mkdir(parents=True, exist_ok=True)
    finders: dict[int, MultiFinder] = {}
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    by_set: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for record in records:
        doc, number = record["doc_name"], where[record["doc_name"]]
        if number not in finders:
            finders[number] = open_finder(database(made[number], financebench / "pdfs", cache, number))
        several = finders[number]
        answers = [finder.answer(record["question"], top=DEPTH) for finder in several.finders]
        ids = [finder.document.document_id for finder in several.finders]
        lists = [[(hit.page_number, hit.score) for hit in answer.results] for answer in answers]
        fits = several.fits(answers)
        years_only = [  # coverage and years, without the lexical strength
            merge.document_fit([(i.year, n) for i, n in zip(a.parsed.ideas, f.held(a.parsed))], f.document.page_count, -1.0, -1.0)
            for f, a in zip(several.finders, answers)
        ]
        evfind = several.answer(record["question"], top=DEPTH).results
        ranked = {
            "each question asked of its own filing alone": [(doc, p) for p, _ in lists[ids.index(doc)]],
            "merged by fused score": [(ids[i], p) for i, p, _ in by_score(lists)],
            "round-robin, best first page first": [(ids[i], p) for i, p, _ in merge.merge(lists)],
            "by fused score x document_fit": [(ids[i], p) for i, p, _ in by_score(lists, fits)],
            "round-robin, documents by coverage x years": [(ids[i], p) for i, p, _ in merge.merge(lists, years_only)],
            "round-robin, documents by document_fit (evfind)": [(h.document_id, h.page_number) for h in evfind],
        }
        gold = {(doc, page) for page in record["gold_pages"]}
        for name, pages in ranked.items():
            first = next((k for k, key in enumerate(pages[:DEPTH], 1) if key in gold), None)
            for row in (scores[name], by_set[record["set"]][name]):
                for k in (1, 3, 5):
                    row[f"hit@{k}"].append(bool(first and first <= k))
                row["MRR@10"].append(1 / first if first else 0.0)
                row["right filing first"].append(bool(pages) and pages[0][0] == doc)
    lines = [
        f"{len(records)} questions ({', '.join(SETS)}) asked of {len(made)} databases of "
        f"{min(map(len, made))} to {max(map(len, made))} filings each, without --document",
    ]
    for title, table in [("all questions", scores)] + [(f"{name} only", by_set[name]) for name in SETS]:
        count = len(next(iter(table.values()))["MRR@10"])
        lines += ["", f"{title} ({count})", f"{'merge':50} hit@1  hit@3  hit@5  MRR@10  right filing first"]
        for name, row in table.items():
            keys = ("hit@1", "hit@3", "hit@5", "MRR@10", "right filing first")
            figures = [sum(row[key]) / len(row[key]) for key in keys]
            lines.append(f"{name:50} " + "  ".join(f"{f:.3f}" for f in figures[:4]) + f"   {figures[4]:.3f}")
    for several in finders.values():
        several.close()
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--financebench", type=Path, default=REPO.parent / "shared" / "financebench")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "multidoc")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = measure(args.financebench, args.cache)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
