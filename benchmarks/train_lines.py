"""Train the learned line chooser (evfind/data/evidence_lines.txt): which of a page's candidate
lines is shown first as its evidence line.

    python benchmarks/train_lines.py --financebench ../shared/financebench --edgar ../shared/edgar \
        [--cache DIR] [--vectors FILE] [--write] [--out benchmarks/train_lines.txt]

Each labelled question of the development sets (as benchmarks/evidence_lines.py reads them: the
figure and fact questions of FinanceBench's, the seed-style, forms and taxonomy sets, with their
answer lines in benchmarks/answer_lines.jsonl, and the EDGAR questions with their answer_text,
each in English and Chinese) is asked of its own filing as the CLI asks it (top 5). Every gold,
labelled page among its hits gives one group: the page's candidate lines
(``evidence.line_candidates``) with their signals, each a positive where it holds one of the
page's labelled strings (``evidence_lines.holds``). The hold-out sets are read the same way and
only reported (never trained on); hold-out 7 has no answer lines.

The chooser is a conditional logit: a line's score is a weighted sum of its signals (standardised
here, the scales folded into the weights written), the probability of a page's lines a softmax
of their scores, and training maximises the log of the probability of the page's positive lines
with an L2 penalty (L-BFGS; numpy and scipy, which the ``train`` extra brings). The penalty is
chosen by leave-one-company-out over the development companies (PDF and EDGAR filings of one
company are one company): each company's pages are chosen by weights fitted without it, and the
penalty whose held-out share of right first lines is highest is taken; the weights written are
fitted on every development page with it.

The figure reported is the one benchmarks/evidence_lines.py reports, **first line**: of the
questions whose first page is gold and labelled, the share whose first evidence line holds a
labelled string; here for the rules' order, for the chooser in-sample, and for it held out by
company (LOCO), by language and set. The development questions whose first line is wrong held
out are tallied by cause (``cause``: no candidate holds the label; the rules' tiers hold the
labelled candidates below the first tier; the chooser's order within it): a miss list's classes,
in counts. Only counts are printed.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_lines import DEVELOPMENT, answer_labels, holds, labelled, sets  # noqa: E402

from evfind import __version__, evidence, linechoice  # noqa: E402
from evfind.evaluate import company_of  # noqa: E402

PENALTIES = (0.1, 1.0, 10.0, 30.0, 100.0)
MODEL = REPO / "evfind" / "data" / linechoice.MODEL


def company(record: dict) -> str:
    """A company as one key across the PDF and EDGAR sets ("ADOBE" and "Adobe", "COCACOLA" and
    "Coca-Cola")."""
    return re.sub(r"[^a-z0-9]", "", company_of(record).lower())


def collect(financebench: Path | None, edgar: Path | None, cache: Path) -> list[dict]:
    """Every group: a gold, labelled page among a question's hits, with its candidates."""
    labels = answer_labels()
    seen: dict[str, list] = {}
    original = evidence.line_candidates

    def recording(lines, *args, **kwargs):
        found = original(lines, *args, **kwargs)
        seen["\n".join(lines)] = found
        return found

    evidence.line_candidates = recording
    groups = []
    try:
        for name, path, field, sources, known in sets(financebench, edgar):
            if not path.is_file():
                continue
            for record, pages, finder in labelled(path, field, sources, known, cache, labels):
                seen.clear()
                answer = finder.answer(record[field])
                for hit in answer.results:
                    strings = pages.get(hit.page_number)
                    if hit.page_number not in record["gold_pages"] or not strings:
                        continue
                    text = finder.page(hit.page_number).text
                    lines = text.split("\n")
                    candidates = seen.get(text, [])
                    groups.append({
                        "set": name, "company": company(record), "id": record.get("id", "?"),
                        "first": hit.rank == 1,
                        # the line shown where no candidate is (the passage's own lines)
                        "shown_holds": bool(hit.evidence) and holds(hit.evidence[0][1], strings),
                        "signals": [list(c.signals) for c in candidates],
                        "tiers": [list(c.tier) for c in candidates],
                        "positive": [holds(lines[c.index], strings) for c in candidates],
                    })
    finally:
        evidence.line_candidates = original
    return groups


def fit(groups: list[dict], penalty: float, keep: tuple[int, ...] | None = None):
    """The weights (on standardised signals) of a conditional logit fitted to these groups, and
    the standardisation (means, scales): the L2-penalised negative log-likelihood of each
    page's positive lines, minimised by L-BFGS (scipy, with numpy: the ``train`` extra).
    ``keep``: the signals (by index) the chooser reads; the others weigh 0."""
    import numpy as np
    from scipy.optimize import minimize

    usable = [g for g in map(top_tier, groups) if g["signals"] and any(g["positive"]) and not all(g["positive"])]
    x = np.array([s for g in usable for s in g["signals"]], dtype=float)
    if keep is not None:
        x = x * np.isin(np.arange(x.shape[1]), keep)  # (a signal set to 0 everywhere gets weight 0)
    y = np.array([p for g in usable for p in g["positive"]], dtype=float)
    starts = np.cumsum([0] + [len(g["signals"]) for g in usable])[:-1]
    group = np.repeat(np.arange(len(usable)), [len(g["signals"]) for g in usable])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    x = (x - mean) / scale
    n = len(usable)

    def loss(w):
        s = x @ w
        s = s - np.maximum.reduceat(s, starts)[group]
        e = np.exp(s)
        total = np.add.reduceat(e, starts)
        good = np.add.reduceat(e * y, starts)
        value = -np.sum(np.log(good) - np.log(total)) / n + penalty * (w @ w) / (2 * n)
        p = e / total[group]
        q = e * y / good[group]
        gradient = -(x.T @ (q - p)) / n + penalty * w / n
        return value, gradient

    result = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return result.x, mean, scale


TIERS = True  # the chooser orders within the rules' tiers (evidence.LineCandidate.tier); --no-tiers: across them


def top_tier(group: dict) -> dict:
    """The group with only the candidates of its first tier: those the chooser picks among."""
    if not TIERS or not group["signals"]:
        return group
    best = max(map(tuple, group["tiers"]))
    keep = [k for k, tier in enumerate(group["tiers"]) if tuple(tier) == best]
    return {**group, "signals": [group["signals"][k] for k in keep], "positive": [group["positive"][k] for k in keep],
            "tiers": [group["tiers"][k] for k in keep]}


def raw_weights(w, mean, scale) -> list[float]:
    """The weights on the signals as evfind computes them (a constant shift changes no order)."""
    return [float(v) for v in w / scale]


def right(group: dict, weights) -> bool:
    """Is the first line shown, with these weights (None: the rules' order), a labelled one?"""
    if not group["signals"]:
        return group["shown_holds"]
    tiers = [tuple(t) for t in group["tiers"]] if TIERS and weights else None
    first = linechoice.order([tuple(s) for s in group["signals"]], weights=weights, tiers=tiers)[0]
    return group["positive"][first]


def tally(groups: list[dict], choose) -> dict[str, tuple[int, int]]:
    """set -> (right first lines, questions whose first page is gold and labelled), with pooled rows."""
    found: dict[str, list[int]] = {}
    for g in groups:
        if not g["first"]:
            continue
        ok = choose(g)
        name = g["set"]
        lang = "ZH" if name.endswith("-zh") else "EN"
        base = name.removesuffix("-zh")
        pooled = ("development" if base in DEVELOPMENT else "EDGAR" if base == "edgar" else "hold-out") + f" ({lang})"
        for key in (name, pooled):
            found.setdefault(key, [0, 0])
            found[key][0] += ok
            found[key][1] += 1
    return {k: (v[0], v[1]) for k, v in found.items()}


def trained_on(group: dict) -> bool:
    """Development and EDGAR groups are trained on; the hold-outs only reported."""
    return group["set"].removesuffix("-zh") in (*DEVELOPMENT, "edgar")


def loco(groups: list[dict], penalty: float, keep: tuple[int, ...] | None = None,
         fitted: dict[str, list[float]] | None = None) -> dict[int, bool]:
    """Each trained-on group's outcome with weights fitted without its company (by index);
    ``fitted``, if given, gets each company's held-out weights."""
    outcome = {}
    train = [k for k, g in enumerate(groups) if trained_on(g)]
    for held in sorted({groups[k]["company"] for k in train}):
        w, mean, scale = fit([groups[k] for k in train if groups[k]["company"] != held], penalty, keep)
        weights = raw_weights(w, mean, scale)
        if fitted is not None:
            fitted[held] = weights
        for k in train:
            if groups[k]["company"] == held:
                outcome[k] = right(groups[k], weights)
    return outcome


# The signals of the first chooser (session 3); those after it are added one by one, each where it
# raises the held-out right first lines (``select``).
BASE = linechoice.SIGNALS.index("why_explains") + 1
SELECT_PENALTY = 30.0


def select(groups: list[dict]) -> tuple[tuple[int, ...], list[str]]:
    """The signals the chooser reads, chosen by leave-one-company-out: the first chooser's, then,
    greedily, the added signal whose inclusion raises the held-out right first lines most (at
    the penalty ``SELECT_PENALTY``), while one does by at least one page; and the steps taken."""
    keep = tuple(range(BASE))
    best = sum(loco(groups, SELECT_PENALTY, keep).values())
    steps = [f"first chooser's {BASE} signals: {best}"]
    left = list(range(BASE, len(linechoice.SIGNALS)))
    while left:
        tried = {k: sum(loco(groups, SELECT_PENALTY, keep + (k,)).values()) for k in left}
        k = max(left, key=lambda k: (tried[k], -k))
        steps.append("  ".join(f"+{linechoice.SIGNALS[j]} {tried[j]}" for j in left))
        if tried[k] <= best:
            break
        keep, best = keep + (k,), tried[k]
        left.remove(k)
        steps.append(f"added {linechoice.SIGNALS[k]}: {best}")
    return keep, steps


TIER_RULES = ("named", "title for where", "before a footnote")  # evidence.LineCandidate.tier, in order


def cause(group: dict, weights) -> str | None:
    """Why a question's first line is wrong with these weights (None: it is right): no
    candidate holds a labelled string; the rules' tiers hold every labelled candidate below the
    first tier (which of ``TIER_RULES`` puts the shown line first); or the chooser's order
    within the first tier."""
    if right(group, weights):
        return None
    if not group["signals"] or not any(group["positive"]):
        return "no candidate holds the label"
    tiers = [tuple(t) for t in group["tiers"]]
    best = max(tiers)
    held = max(t for t, p in zip(tiers, group["positive"]) if p)
    if TIERS and held < best:
        rule = next(name for name, a, b in zip(TIER_RULES, best, held) if a != b)
        return f"tier: {rule}"
    return "the chooser's order in the first tier"


def causes(groups: list[dict], outcome: dict[int, bool], weights_of) -> list[str]:
    """The wrong first lines of the development questions held out (``outcome``), by cause and
    language: a miss list's classes, in counts."""
    found: dict[tuple[str, str], int] = {}
    for k, g in enumerate(groups):
        if k not in outcome or outcome[k] or not g["first"] or g["set"].removesuffix("-zh") not in DEVELOPMENT:
            continue
        key = (cause(g, weights_of(g)) or "?", "ZH" if g["set"].endswith("-zh") else "EN")
        found[key] = found.get(key, 0) + 1
    names = sorted({c for c, _ in found}, key=lambda c: -sum(v for (n, _), v in found.items() if n == c))
    width = max(map(len, names), default=0)
    return [f"  {name.ljust(width)}  EN {found.get((name, 'EN'), 0):>3}  ZH {found.get((name, 'ZH'), 0):>3}" for name in names]


def share(counts: tuple[int, int] | None) -> str:
    return f"{counts[0]}/{counts[1]} ({counts[0] / counts[1]:.3f})" if counts and counts[1] else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = REPO.parent / "shared"
    parser.add_argument("--financebench", type=Path, default=shared / "financebench")
    parser.add_argument("--edgar", type=Path, default=shared / "edgar")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--vectors", type=Path, help="read the groups from this file if it exists, else write them to it")
    parser.add_argument("--write", action="store_true", help=f"write the chooser to {MODEL.relative_to(REPO)}")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--no-tiers", action="store_true", help="order across the rules' tiers (for comparison)")
    args = parser.parse_args()
    global TIERS
    TIERS = not args.no_tiers
    financebench = args.financebench if args.financebench.is_dir() else None
    edgar = args.edgar if args.edgar.is_dir() else None
    if financebench is None or edgar is None:
        print("skipped: needs the FinanceBench and EDGAR folders (--financebench, --edgar)")
        return 0
    started = time.perf_counter()
    if args.vectors and args.vectors.is_file():
        groups = json.loads(args.vectors.read_text())
    else:
        linechoice.shipped.cache_clear()
        saved = linechoice.shipped
        linechoice.shipped = lambda: None  # the candidates' signals read in the rules' order
        try:
            groups = collect(financebench, edgar, args.cache)
        finally:
            linechoice.shipped = saved
        if args.vectors:
            args.vectors.write_text(json.dumps(groups))
    train = [g for g in groups if trained_on(g)]
    keep, steps = select(groups)
    by_penalty, held_out = {}, {}
    for penalty in PENALTIES:
        fitted: dict[str, list[float]] = {}
        by_penalty[penalty] = loco(groups, penalty, keep, fitted)
        held_out[penalty] = fitted
    # The penalty whose held-out first lines are right most often (the larger one on a tie: the
    # simpler weights).
    chosen = max(PENALTIES, key=lambda p: (sum(by_penalty[p].values()), p))
    w, mean, scale = fit(train, chosen, keep)
    weights = raw_weights(w, mean, scale)
    index = {id(g): k for k, g in enumerate(groups)}
    columns = {
        "rules": tally(groups, lambda g: right(g, None)),
        "learned, in-sample": tally(groups, lambda g: right(g, weights)),
        **{f"LOCO, penalty {p}": tally([g for g in groups if trained_on(g)],
                                       lambda g, p=p: by_penalty[p][index[id(g)]]) for p in PENALTIES},
    }
    names = sorted({k for c in columns.values() for k in c}, key=lambda k: (k.startswith(("development", "EDGAR", "hold-out")), k))
    lines = [
        f"evfind {__version__} line chooser training, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        f"{len(train)} gold labelled pages among the hits of the development and EDGAR questions (EN and ZH) trained on,"
        f" {len({g['company'] for g in train})} companies; {len(groups) - len(train)} of the hold-outs only reported.",
        "First line right: of the questions whose first page is gold and labelled, the share whose first evidence line",
        "holds a labelled string (as benchmarks/evidence_lines.py counts it).",
        f"Penalty chosen by leave-one-company-out: {chosen} (held-out right first lines by penalty: "
        + ", ".join(f"{p}: {sum(o.values())}" for p, o in by_penalty.items()) + ")",
        "",
    ]
    header = ["set", *columns]
    rows = [header] + [[name, *(share(c.get(name)) for c in columns.values())] for name in names]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines += ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]
    lines += ["", f"Signals chosen by leave-one-company-out (held-out right first lines at penalty {SELECT_PENALTY}):",
              *("  " + step for step in steps)]
    lines += ["", f"Wrong first lines of the development questions held out (LOCO, penalty {chosen}), by cause:",
              *causes(groups, by_penalty[chosen], lambda g: held_out[chosen][g["company"]])]
    lines += ["", "weights (on the signals as evfind computes them):",
              "  " + ", ".join(f"{n} {v:+.3f}" for n, v in zip(linechoice.SIGNALS, weights)),
              "", f"({time.perf_counter() - started:.0f} s)"]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.write:
        header = [
            "# The learned line chooser (evfind/linechoice.py): one signal and its weight a line, in the order of",
            "# linechoice.SIGNALS; a candidate line's score is the sum of weight times signal, the highest shown first.",
            f"# Source: benchmarks/train_lines.py (evfind {__version__}, {time.strftime('%Y-%m-%d')}): a conditional logit over",
            f"# the candidate lines of {len(train)} gold labelled pages of {len({g['company'] for g in train})} companies: the"
            " hand-labelled answer lines",
            "# of benchmarks/answer_lines.jsonl (sets " + ", ".join(DEVELOPMENT) + ", English and Chinese wordings) and the",
            "# answer_text of benchmarks/questions_edgar.jsonl (English and Chinese); the hold-out sets not trained on.",
            f"# L2 penalty {chosen}, chosen by leave-one-company-out over " + ", ".join(map(str, PENALTIES)) + ";",
            "# signals after why_explains added one by one where they raised the held-out right first lines"
            " (weight 0: not chosen).",
        ]
        body = [f"{name}\t{weight:.6f}" for name, weight in zip(linechoice.SIGNALS, weights)]
        MODEL.write_text("\n".join(header + body) + "\n", encoding="utf-8")
        print(f"wrote {MODEL.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
