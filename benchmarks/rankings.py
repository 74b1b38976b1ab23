"""Every labelled question's ranking, written down and compared: the check that a change which
should not move any ranking (a refactor, a move of vocabulary into data) moved none.

    python benchmarks/rankings.py --financebench ../shared/financebench --out before.json
    ... change the code ...
    python benchmarks/rankings.py --financebench ../shared/financebench --compare before.json

Each question of every set of ``retrieval.sets`` (English and Chinese wordings, the hold-out sets
and the sample filing's own) is asked of its own filing with DEFAULT, and its top 20 pages are
kept, keyed by set and question id. ``--compare`` prints every question whose pages differ from
the file's, with the rank of its first gold page before and after, and exits 1 when any does.
The output holds page numbers only; the questions stay in their own files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval import records_of, sets  # noqa: E402

from evfind.evaluate import evaluate  # noqa: E402
from evfind.rank import DEFAULT  # noqa: E402


def rankings(financebench: Path | None, cache: Path, edgar: Path | None = None) -> dict[str, dict[str, dict]]:
    """set name -> question id -> {"pages": top 20, "gold": gold pages}."""
    found: dict[str, dict[str, dict]] = {}
    for name, labels, field, group, sources, _ in sets(financebench, edgar):
        report = evaluate(records_of(labels, field, sources), pdfs=sources, cache=cache, question_field=field,
                          group_field=group, finder_options={"method": DEFAULT})
        found[name] = {o.id: {"pages": list(o.returned), "gold": list(o.gold)} for o in report.outcomes}
    return found


def first_gold(entry: dict) -> int | None:
    return next((rank for rank, page in enumerate(entry["pages"], start=1) if page in entry["gold"]), None)


def compare(before: dict, after: dict, top: int) -> list[str]:
    """One line per question whose top ``top`` pages differ, with its first gold rank before and after."""
    lines = []
    up = down = 0
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}), after.get(name, {})
        for qid in sorted(set(old) | set(new)):
            a, b = old.get(qid), new.get(qid)
            if a is None or b is None:
                lines.append(f"{name} {qid}: {'new question' if a is None else 'question gone'}")
                continue
            if a["pages"][:top] == b["pages"][:top]:
                continue
            ra, rb = first_gold(a), first_gold(b)
            move = "same gold rank"
            if (ra or 99) > (rb or 99):
                move, up = "up", up + 1
            elif (ra or 99) < (rb or 99):
                move, down = "down", down + 1
            lines.append(f"{name} {qid}: first gold {ra} -> {rb} ({move}); top {top} {a['pages'][:top]} -> {b['pages'][:top]}")
    if lines:
        lines.append(f"{len(lines)} questions changed: first gold rank {up} up, {down} down")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = REPO.parent / "shared" / "financebench"
    parser.add_argument("--financebench", type=Path, default=default if default.is_dir() else None)
    edgar = REPO.parent / "shared" / "edgar"
    parser.add_argument("--edgar", type=Path, default=edgar if edgar.is_dir() else None)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="write the rankings here (JSON)")
    parser.add_argument("--compare", type=Path, help="compare with rankings written before")
    parser.add_argument("--top", type=int, default=20, help="pages compared per question (default 20)")
    args = parser.parse_args()
    found = rankings(args.financebench, args.cache, args.edgar)
    if args.out:
        args.out.write_text(json.dumps(found, indent=0, sort_keys=True), encoding="utf-8")
        print(f"{sum(len(v) for v in found.values())} questions of {len(found)} sets written to {args.out}")
    if args.compare:
        lines = compare(json.loads(args.compare.read_text(encoding="utf-8")), found, args.top)
        print("\n".join(lines) if lines else f"no ranking changed (top {args.top}, {sum(len(v) for v in found.values())} questions)")
        sys.exit(1 if lines else 0)


if __name__ == "__main__":
    main()
