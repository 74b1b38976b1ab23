"""Train the learned last stage: evfind/data/ranker.json, chosen by leave-one-company-out.

    pip install -e '.[train]'
    python -m benchmarks.train_ranker --financebench ../shared/financebench --edgar ../shared/edgar

Reads every labelled development set of ``benchmarks/retrieval.py`` ``sets()`` (FinanceBench's
questions, its seed-style and forms sets, questions_taxonomy, the hold-outs 1 to 6, which are
development data now, and questions_edgar on the EDGAR HTML filings; English and Chinese
wordings; never the sample filing's), asks each question of its own filing through the
product's own pipeline (``Finder.signals``, ``rank.vectors``: the numbers the query path
scores are the numbers trained on), and:

1. chooses the trees' parameters by leave-one-company-out (company = ``evaluate.company_of``; a
   company's English and Chinese wordings are held out together): each setting of ``SETTINGS``
   trained without a company and measured on it (the pooled objective: the mean of hit@1, hit@3
   and the reciprocal rank), and the smallest setting within one standard error of the best
   kept (``smallest_within_noise``: the one-standard-error rule, the standard error of the
   paired per-question difference; fewer trees, a faster query);
2. fits the calibration (a logistic regression, ``learned.Calibration``, its inputs chosen
   among ``CALIBRATIONS`` by the held-out log loss) on the held-out scores of that setting, so
   that a confidence is what the model says of a company it never saw, and measures it by
   leaving each company out of the calibration too (the table before, with the first landing's
   inputs, and after; by set, and for the small filings); with ``--edgar``, asks the questions no
   page answers (``UNANSWERABLE``) too, reports the confidence their first pages get (held out
   by company) and offers each calibration fitted with them as well, kept only where the
   answered questions' held-out log loss is lower;
3. trains the shipped model on every question and writes it (the trees as flat arrays, the
   features, the calibration, the doubt threshold and its provenance: the question files and
   filings used, the date, the parameters and the leave-one-company-out figures) to
   evfind/data/ranker.json, after checking that evfind's pure-Python evaluation of the written
   trees gives LightGBM's own scores;
4. prints, and writes to benchmarks/train_ranker.txt, hit@1/3/5 per set and language before (the
   hand-set rules, ``rank.RULES``, tuned on these questions: in-sample) and after (the learned
   stage, in-sample and held out by company), the ablation (each signal group of
   ``features.GROUPS`` removed in turn, held out by company) and the calibration table.

LightGBM (the ``train`` extra) is imported here only: the product evaluates the written trees in
pure Python (evfind/learned.py). The output holds figures only, never a question or a gold page.
Deterministic: LightGBM on one thread with a fixed seed, the questions and companies in a fixed
order; with ``--vectors FILE`` two runs write the same model byte for byte (its date aside).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import io
import json
import math
import pickle
import sys
import time
from collections import defaultdict
from contextlib import redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from retrieval import records_of, sets  # noqa: E402

from evfind import __version__, features, learned, rank  # noqa: E402
from evfind.errors import NoContentWordsError  # noqa: E402
from evfind.evaluate import company_of, database_for  # noqa: E402
from evfind.finder import Finder  # noqa: E402
from evfind.rank import DEFAULT, RULES  # noqa: E402

OUT = REPO / "evfind" / "data" / "ranker.json"
REPORT = REPO / "benchmarks" / "train_ranker.txt"
# Questions whose filing holds no answer (benchmarks/questions_unanswerable.md): what the
# confidence says of them is measured, and they are in the calibration's fit only where the
# held-out figures of the answered questions say so.
UNANSWERABLE = REPO / "benchmarks" / "questions_unanswerable.jsonl"
# The sets trained on: every development set but the sample filing's (the product's own example),
# financebench-zh-en (the English wording of financebench-zh: FinanceBench's own questions) and
# hold-outs 8 and 9, both halves (unspent: never trained on; retrieval.sets() reads them for their first looks).
# Hold-out 7 is spent (a change answered its misses): development data like the six before it.
SKIPPED = ("sample", "sample-zh", "financebench-zh-en", "holdout8", "holdout8-zh", "holdout8-edgar", "holdout8-edgar-zh",
           "holdout9", "holdout9-zh", "holdout9-edgar", "holdout9-edgar-zh")
# How the sets are reported: the set, and the hold-outs pooled.
HOLDOUTS = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7")  # not holdout8 or holdout9: unspent
REPORTED = ("financebench", "seed-style", "forms", "taxonomy", "holdouts", "edgar")

# LambdaMART (Burges, "From RankNet to LambdaRank to LambdaMART: An Overview", MSR-TR-2010-82):
# a gain of 1 for a gold page, 0 otherwise; the parameters that stay fixed.
BASE = dict(
    objective="lambdarank", label_gain=[0, 1], lambdarank_truncation_level=10, learning_rate=0.05,
    bagging_fraction=0.8, bagging_freq=1, feature_fraction=0.8, min_data_in_leaf=20, verbose=-1,
    num_threads=1, seed=1, deterministic=True, force_row_wise=True,
)
# The settings chosen among by leave-one-company-out: few and far apart (a fine grid over some
# 1,700 questions of 23 companies fits noise).
SETTINGS = {
    f"{rounds} trees of {leaves} leaves": {"num_boost_round": rounds, "num_leaves": leaves}
    for rounds in (100, 250) for leaves in (4, 7, 15)
}
# The setting the candidate depths are compared with (and --quick trains), and the depths.
QUICK_NAME, QUICK = "150 trees of 7 leaves", {"num_boost_round": 150, "num_leaves": 7}
POOLS = (10, 15, 20)
# The confidence thresholds the doubt threshold is chosen among, and the calibration's bins.
DOUBTS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
BINS = ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.0001))
CALIBRATED = 5  # the candidates of each question the calibration is fitted on (the leading ones)
# The calibration: Platt scaling over some of what the ranked scores and the question say of a
# candidate (learned.calibration_inputs); the sets of inputs chosen among by the held-out log
# loss of the first pages. Beside the scores: the candidate's share of the question's candidates
# (the softmax of their scores: what the ranker learned is the differences within a question),
# and generic question-level inputs: the share of the question's ideas no page of the filing
# holds (q_absent, the "Not in this filing" words), what the candidate's or the best candidate's
# passage covers of the question's concepts, the share of its ideas the page holds.
CALIBRATIONS = {
    "score, lead, named": ("score", "lead", "named"),
    "+ share": ("score", "lead", "named", "share"),
    "+ share, absent": ("score", "lead", "named", "share", "q_absent"),
    "+ share, coverage": ("score", "lead", "named", "share", "coverage"),
    "+ share, best coverage": ("score", "lead", "named", "share", "best coverage"),
    "+ share, absent, best coverage": ("score", "lead", "named", "share", "q_absent", "best coverage"),
    "+ share, ideas held": ("score", "lead", "named", "share", "ideas_held"),
}
BEFORE = "score, lead, named"  # the calibration of the model before (issue 21's first landing)
# Each calibration is also fitted with the questions no page answers (UNANSWERABLE) among its
# samples, every leading candidate of theirs a page that does not hold the evidence; that fit is
# kept only where the answered questions' held-out log loss says so.
FITTED_WITH = ", fitted with the unanswerable"
# A small filing, for the calibration table's rows by size: this many pages or fewer (the
# sample filing has 61; earnings releases, 8-Ks and most 10-Qs of the development set are small).
SMALL = 60
# The sign of an input's weight (+1 unless listed): more of the question absent from the filing
# never raises a confidence.
SIGNS = {"q_absent": -1}


# ---------------------------------------------------------------------------------------------
# The questions, through the product's pipeline


def collect(financebench: Path, edgar: Path | None, cache: Path, pool: int) -> tuple[list[dict], list[dict]]:
    """Every labelled question with its candidates' vectors (``features.vectors`` of
    ``Finder.signals``: the fusion's leading ``pool`` pages and those named outright), its gold
    pages and the rules' ranking; and the files read."""
    method = DEFAULT._replace(pool=pool)
    questions, files = [], []
    finders: dict[tuple[str, str], Finder] = {}
    try:
        for name, labels, field, _, sources, _ in sets(financebench, edgar):
            if name in SKIPPED:
                continue
            records = records_of(labels, field, sources)
            files.append({"set": name, "file": labels.name, "field": field, "questions": len(records),
                          "sha256": hashlib.sha256(labels.read_bytes()).hexdigest()})
            questions += ask(records, name, field, sources, cache, method, finders)
    finally:
        for finder in finders.values():
            finder.close()
    return questions, files


def ask(records: list[dict], name: str, field: str, sources: Path, cache: Path, method,
        finders: dict[tuple[str, str], Finder]) -> list[dict]:
    """Each labelled record asked of its filing (``Finder.signals``, ``rank.vectors``; the rules'
    ranking beside), as ``collect`` keeps it; ``finders`` are opened as needed (the caller
    closes them)."""
    questions = []
    for record in records:
        doc = record["doc_name"]
        for asked, key in ((method, "learned"), (RULES, "rules")):
            if (doc, key) not in finders:
                finders[doc, key] = Finder(database_for(doc, sources, None, cache), method=asked)
        learned_finder, rules_finder = finders[doc, "learned"], finders[doc, "rules"]
        try:
            signals = learned_finder.signals(record[field])
            rules = [hit.page_number for hit in rules_finder.query(record[field], top=20).results]
        except NoContentWordsError:
            continue
        pages, rows = rank.vectors(signals, method)
        named = set(rank.stages(signals, method).made.named)
        questions.append({
            "set": name, "id": str(record.get("id")), "doc": doc, "company": company_of(record),
            "question": record[field],
            "zh": name.endswith("-zh"), "gold": set(record["gold_pages"]),
            "pages": [signals.pages[p].number for p in pages], "rows": [list(r) for r in rows],
            "named": [p in named for p in pages], "rules": rules,
        })
    return questions


def collect_unanswerable(edgar: Path | None, cache: Path, pool: int) -> list[dict]:
    """The questions of ``UNANSWERABLE`` (English and Chinese wordings; no gold page: their
    filing does not hold the answer) asked as ``collect`` asks the labelled ones; none without
    the EDGAR folder their filings are in."""
    if edgar is None or not UNANSWERABLE.is_file():
        return []
    method = DEFAULT._replace(pool=pool)
    finders: dict[tuple[str, str], Finder] = {}
    try:
        return [q for name, field in (("unanswerable", "question"), ("unanswerable-zh", "question_zh"))
                for q in ask(records_of(UNANSWERABLE, field, edgar), name, field, edgar, cache, method, finders)]
    finally:
        for finder in finders.values():
            finder.close()


def filings_of(questions: list[dict], financebench: Path, edgar: Path | None) -> list[dict]:
    """The filings the questions are asked of: name and SHA-256 of each source file."""
    found = []
    for doc in sorted({q["doc"] for q in questions}):
        for folder in (financebench / "pdfs", edgar):
            if folder is None:
                continue
            source = next((p for p in (folder / f"{doc}{ext}" for ext in (".pdf", ".htm", ".html")) if p.is_file()), None)
            if source is not None:
                found.append({"filing": source.name, "sha256": hashlib.sha256(source.read_bytes()).hexdigest()})
                break
    return found


# ---------------------------------------------------------------------------------------------
# Training and leave-one-company-out


def matrix(questions: list[dict], columns: list[int]):
    import numpy as np

    X = np.array([[row[c] for c in columns] for q in questions for row in q["rows"]], dtype=float)
    y = np.array([int(p in q["gold"]) for q in questions for p in q["pages"]])
    return X, y, [len(q["rows"]) for q in questions]


def train(questions: list[dict], setting: dict, columns: list[int]):
    """A LightGBM ranker on these questions (those whose candidates hold a gold page)."""
    import lightgbm

    useful = [q for q in questions if q["rows"] and any(p in q["gold"] for p in q["pages"])]
    X, y, groups = matrix(useful, columns)
    params = {**BASE, "num_leaves": setting["num_leaves"]}
    data = lightgbm.Dataset(X, y, group=groups, feature_name=[features.NAMES[c] for c in columns],
                            params={"verbose": -1})
    return lightgbm.train(params, data, num_boost_round=setting["num_boost_round"])


APART = [features.NAMES.index(name) for name in rank.SET_APART]


def ranked(question: dict, scores) -> list[tuple[int, float, bool]]:
    """A question's candidates as the learned stage orders them (``rank.learned_order``): by
    score (ties in the fusion's order), those ``rank.SET_APART`` after the others, the pages
    named outright first: (page, score, named) best first."""
    scores = [float(s) for s in scores]
    span = max(scores, default=0.0) - min(scores, default=0.0) + 1.0
    scores = [s - span if any(row[c] for c in APART) else s for s, row in zip(scores, question["rows"])]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    named = [i for i in range(len(scores)) if question["named"][i]]
    order = named + [i for i in order if i not in named]
    return [(question["pages"][i], scores[i], question["named"][i]) for i in order]


def loco_scores(questions: list[dict], setting: dict, columns: list[int]) -> dict[int, list]:
    """Each question's candidates scored by a model trained without its company: index ->
    ``ranked``."""
    import numpy as np

    found = {}
    for company in sorted({q["company"] for q in questions}):
        model = train([q for q in questions if q["company"] != company], setting, columns)
        for i, q in enumerate(questions):
            if q["company"] == company and q["rows"]:
                X = np.array([[row[c] for c in columns] for row in q["rows"]], dtype=float)
                found[i] = ranked(q, model.predict(X))
    return found


def hits(pages: list[int], gold: set, k: int) -> bool:
    return any(p in gold for p in pages[:k])


def reciprocal(pages: list[int], gold: set) -> float:
    return next((1.0 / r for r, p in enumerate(pages[:20], start=1) if p in gold), 0.0)


def objective(questions: list[dict], orders: dict[int, list]) -> float:
    """What a setting is chosen by: the mean of hit@1, hit@3 and the reciprocal rank."""
    total = 0.0
    for i, q in enumerate(questions):
        pages = [p for p, _, _ in orders.get(i, [])]
        total += hits(pages, q["gold"], 1) + hits(pages, q["gold"], 3) + reciprocal(pages, q["gold"])
    return total / (3 * len(questions))


def per_question(questions: list[dict], orders: dict[int, list]) -> list[float]:
    """Each question's part of ``objective``: the mean of its hit@1, hit@3 and reciprocal rank."""
    found = []
    for i, q in enumerate(questions):
        pages = [p for p, _, _ in orders.get(i, [])]
        found.append((hits(pages, q["gold"], 1) + hits(pages, q["gold"], 3) + reciprocal(pages, q["gold"])) / 3)
    return found


def size(setting: dict) -> tuple[int, int]:
    """How big a setting's forest is: its leaves in all, then its trees (a query walks every tree)."""
    return setting["num_boost_round"] * setting["num_leaves"], setting["num_boost_round"]


def smallest_within_noise(questions: list[dict], settings: dict, held: dict) -> tuple[str, str, str]:
    """The setting kept: the smallest (``size``) whose held-out objective is within one
    standard error of the best's, the standard error that of the paired per-question
    difference between the two (the one-standard-error rule: Breiman, Friedman, Olshen and
    Stone, "Classification and Regression Trees", 1984, section 3.4.3; Hastie, Tibshirani and
    Friedman, "The Elements of Statistical Learning", section 7.10). A setting is only
    preferred to the best when the held-out figures cannot tell them apart. Returns (chosen,
    best, the band of each setting as text)."""
    import statistics

    value = {name: per_question(questions, orders) for name, orders in held.items()}
    mean = {name: sum(v) / len(v) for name, v in value.items()}
    best = max(settings, key=lambda name: (mean[name], [-x for x in size(settings[name])]))
    bands, within = [], []
    for name in settings:
        differences = [b - x for b, x in zip(value[best], value[name])]
        error = statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
        if mean[best] - mean[name] <= error:
            within.append(name)
        if name != best:
            bands.append(f"{name}: {mean[best] - mean[name]:.4f} below, standard error {error:.4f}")
    chosen = min(within, key=lambda name: size(settings[name]))
    return chosen, best, "; ".join(bands) or "one setting"


def gain_beyond_noise(questions: list[dict], without: dict, together: dict) -> tuple[float, float]:
    """hit@1 held out without a group less with every group, per question over all of them
    (English and Chinese): the mean difference and its standard error (paired)."""
    import statistics

    differences = [hits(without.get(i, []), q["gold"], 1) - hits(together.get(i, []), q["gold"], 1)
                   for i, q in enumerate(questions)]
    error = statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
    return sum(differences) / len(differences), error


def family(name: str) -> str:
    base = name.removesuffix("-zh")
    return "holdouts" if base in HOLDOUTS else base


def table(questions: list[dict], orders: dict[str, dict[int, list[int]]]) -> list[str]:
    """hit@1 / hit@3 / hit@5 per set and language, one column per ordering."""
    lines = [f"{'set':<16}{'lang':>5}{'n':>6}" + "".join(f"{name:>22}" for name in orders)]
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, q in enumerate(questions):
        lang = "zh" if q["zh"] else "en"
        groups[family(q["set"]), lang].append(i)
        groups["all", lang].append(i)
    for name in (*REPORTED, "all"):
        for lang in ("en", "zh"):
            members = groups.get((name, lang))
            if not members:
                continue
            cells = []
            for order in orders.values():
                figures = [sum(hits(order.get(i, []), questions[i]["gold"], k) for i in members) / len(members)
                           for k in (1, 3, 5)]
                cells.append(" / ".join(f"{f:.3f}" for f in figures))
            lines.append(f"{name:<16}{lang:>5}{len(members):>6}" + "".join(f"{c:>22}" for c in cells))
    return lines


def figures(questions: list[dict], order: dict[int, list[int]]) -> dict:
    """hit@1/3/5 per reported set and language, for the provenance."""
    found: dict = {}
    for name in (*REPORTED, "all"):
        for lang in ("en", "zh"):
            members = [i for i, q in enumerate(questions)
                       if (name == "all" or family(q["set"]) == name) and q["zh"] == (lang == "zh")]
            if members:
                found[f"{name}/{lang}"] = {
                    "n": len(members),
                    **{f"hit@{k}": round(sum(hits(order.get(i, []), questions[i]["gold"], k) for i in members)
                                         / len(members), 3) for k in (1, 3, 5)},
                }
    return found


# ---------------------------------------------------------------------------------------------
# Calibration


def calibration_rows(question: dict, order: list, inputs: tuple[str, ...], pool: int,
                     places: int = CALIBRATED) -> list[tuple[tuple[float, ...], int]]:
    """(inputs, right) of a question's leading candidates, ranked as ``order``: the values of
    ``inputs`` (``learned.calibration_inputs``, read over all its candidates as the query path
    reads them) and whether it is a gold page."""
    row_of = {page: i for i, page in enumerate(question["pages"])}
    rows = [question["rows"][row_of[page]] for page, _, _ in order]
    apart = [any(row[c] for c in APART) for row in rows]
    given = learned.calibration_inputs(inputs, [s for _, s, _ in order], [n for _, _, n in order], rows, features.NAMES,
                                       pool, apart)
    return [(values, int(page in question["gold"])) for (page, _, _), values in zip(order[:places], given)]


def sign_of(name: str) -> int:
    """The sign a calibration input's weight must have (``SIGNS``; +1 unless listed)."""
    return SIGNS.get(name.removeprefix(learned.BEST), 1)


def fit_platt(samples: list[tuple[tuple[float, ...], int]], inputs: tuple[str, ...]) -> learned.Calibration:
    """Platt scaling: a logistic regression of whether a candidate holds the evidence on these
    inputs (Newton's method on the log loss, a small ridge to keep it finite; Platt's targets,
    (n+ + 1) / (n+ + 2) and 1 / (n- + 2), against overconfidence). A weight whose sign is not
    its input's (``sign_of``: a higher score never lowers a confidence, more of the question
    absent from the filing never raises it) is dropped and the rest refitted."""
    import numpy as np

    X = np.array([s[0] for s in samples], dtype=float).reshape(len(samples), len(inputs))
    y = np.array([s[1] for s in samples], dtype=float)
    positive, negative = y.sum(), len(y) - y.sum()
    t = np.where(y > 0, (positive + 1) / (positive + 2), 1 / (negative + 2))
    kept = list(range(len(inputs)))
    while True:
        A = np.hstack([X[:, kept], np.ones((len(X), 1))])
        w = np.zeros(A.shape[1])
        for _ in range(100):
            p = 1 / (1 + np.exp(-(A @ w)))
            gradient = A.T @ (p - t) + 1e-4 * w
            hessian = (A * (p * (1 - p))[:, None]).T @ A + 1e-4 * np.eye(A.shape[1])
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.abs(step).max() < 1e-10:
                break
        wrong = [i for i, value in enumerate(w[:-1]) if value * sign_of(inputs[kept[i]]) < 0]
        if not wrong:
            break
        kept = [c for i, c in enumerate(kept) if i not in wrong]
    return learned.Calibration(tuple(inputs[c] for c in kept), tuple(float(w[i]) for i in range(len(kept))), float(w[-1]))


def calibrated_loco(questions: list[dict], orders: dict[int, list], inputs: tuple[str, ...],
                    pool: int, unanswerable: list[dict] = (), unanswered: dict[int, list] | None = None,
                    fit_unanswerable: bool = False) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """Each question's leading candidates' confidence from a calibration fitted without its
    company (on the held-out scores of the others), and the same for the questions no page
    answers (``unanswerable``, ranked as ``unanswered``: by a ranker trained without their
    company); with ``fit_unanswerable``, those of the other companies are in the fit too (each
    leading candidate a page that does not hold the evidence)."""
    rows = {i: calibration_rows(q, orders[i], inputs, pool) for i, q in enumerate(questions) if i in orders}
    extra = {j: calibration_rows(q, unanswered[j], inputs, pool) for j, q in enumerate(unanswerable)
             if unanswered and j in unanswered}
    found, found_extra = {}, {}
    for company in sorted({q["company"] for q in [*questions, *unanswerable]}):
        samples = [row for i, q in enumerate(questions) if q["company"] != company and i in rows for row in rows[i]]
        if fit_unanswerable:
            samples += [row for j, q in enumerate(unanswerable) if q["company"] != company and j in extra
                        for row in extra[j]]
        calibration = fit_platt(samples, inputs)
        kept = [inputs.index(name) for name in calibration.inputs]
        for group, into, members in ((questions, found, rows), (unanswerable, found_extra, extra)):
            for i, q in enumerate(group):
                if q["company"] == company and i in members:
                    into[i] = calibration.probabilities([[r[0][c] for c in kept] for r in members[i]])
    return found, found_extra


def calibrated_in_sample(questions: list[dict], orders: dict[int, list], inputs: tuple[str, ...], pool: int,
                         unanswerable: list[dict] = (), unanswered: dict[int, list] | None = None,
                         fit_unanswerable: bool = False) -> dict[int, list[float]]:
    """Each question's leading candidates' confidence from one calibration fitted on every
    company (the shipped calibration's fit, on the held-out scores): the in-sample figure beside
    ``calibrated_loco``'s."""
    rows = {i: calibration_rows(q, orders[i], inputs, pool) for i, q in enumerate(questions) if i in orders}
    samples = [row for members in rows.values() for row in members]
    if fit_unanswerable and unanswered:
        samples += [row for j, q in enumerate(unanswerable) if j in unanswered
                    for row in calibration_rows(q, unanswered[j], inputs, pool)]
    calibration = fit_platt(samples, inputs)
    kept = [inputs.index(name) for name in calibration.inputs]
    return {i: calibration.probabilities([[r[0][c] for c in kept] for r in members]) for i, members in rows.items()}


def loco_unanswered(questions: list[dict], unanswerable: list[dict], setting: dict, columns: list[int]) -> dict[int, list]:
    """Each unanswerable question's candidates scored by a ranker trained without its company
    (on the labelled questions): index -> ``ranked``."""
    import numpy as np

    found = {}
    for company in sorted({q["company"] for q in unanswerable}):
        model = train([q for q in questions if q["company"] != company], setting, columns)
        for j, q in enumerate(unanswerable):
            if q["company"] == company and q["rows"]:
                found[j] = ranked(q, model.predict(np.array([[row[c] for c in columns] for row in q["rows"]], dtype=float)))
    return found


def log_loss(questions: list[dict], orders: dict[int, list], confidence: dict[int, list[float]]) -> float:
    """The mean log loss of the first pages' confidence (what a calibration is chosen by)."""
    total = 0.0
    for i, values in confidence.items():
        p = min(max(values[0], 1e-6), 1 - 1e-6)
        total -= math.log(p) if orders[i][0][0] in questions[i]["gold"] else math.log(1 - p)
    return total / len(confidence)


def filing_pages(question: dict) -> int:
    """The pages of a question's filing (its ``q_log_pages`` signal, the log of their count)."""
    return round(math.exp(question["rows"][0][features.NAMES.index("q_log_pages")])) if question["rows"] else 0


def in_group(question: dict, name: str, pool: int) -> bool:
    """Is the question in a row of the calibration table: "all", a set (``family``), the small
    filings (``SMALL`` pages or fewer) or those with fewer candidates than the pool."""
    if name == "all":
        return True
    if name == f"<={SMALL} pages":
        return filing_pages(question) <= SMALL
    if name == "few candidates":
        return len(question["pages"]) < pool
    return family(question["set"]) == name


def calibration_table(questions: list[dict], orders: dict[int, list], confidence: dict[int, list[float]],
                      pool: int = learned.POOL) -> list[str]:
    """The first page's confidence in bins against the share right, per language and set, and for
    the small filings and those with fewer candidates than the pool."""
    lines = [f"{'set':<16}{'lang':>5}{'n':>6}   " + "".join(f"{f'[{a:.1f},{min(b, 1):.1f})':>14}" for a, b in BINS)
             + f"{'>=0.7: share, right':>22}{'<0.3: share, right':>21}",
             " " * 30 + "   (in each bin: questions / share right)"]
    for name in (*REPORTED, f"<={SMALL} pages", "few candidates", "all"):
        for lang in ("en", "zh"):
            members = [i for i, q in enumerate(questions) if i in confidence and q["zh"] == (lang == "zh")
                       and in_group(q, name, pool)]
            if not members:
                continue
            first = [(confidence[i][0], orders[i][0][0] in questions[i]["gold"]) for i in members]
            cells = []
            for a, b in BINS:
                inside = [right for c, right in first if a <= c < b]
                cells.append(f"{len(inside):>5} / {sum(inside) / len(inside):.2f}" if inside else f"{len(inside):>5} /  -  ")
            high = [right for c, right in first if c >= 0.7]
            low = [right for c, right in first if c < 0.3]

            def said(part):
                return f"{len(part) / len(first):.2f}, {sum(part) / len(part):.2f}" if part else f"{0:.2f},  -  "

            lines.append(f"{name:<16}{lang:>5}{len(members):>6}   " + "".join(f"{c:>14}" for c in cells)
                         + f"{said(high):>22}{said(low):>21}")
    return lines


def under(confidence: dict[int, list[float]], threshold: float) -> float:
    """The share of questions whose first page's confidence is under ``threshold``."""
    return sum(values[0] < threshold for values in confidence.values()) / len(confidence) if confidence else 0.0


def unanswered_table(unanswerable: list[dict], confidences: dict[str, dict[int, list[float]]]) -> str:
    """The questions no page answers: per language, the share of first pages under 0.3 and 0.5
    and the mean confidence, one column per way of scoring them."""
    lines = [f"{'':<10}{'n':>4}" + "".join(f"{name:>28}" for name in confidences)]
    for lang in ("en", "zh", "all"):
        cells = []
        for values in confidences.values():
            part = {j: v for j, v in values.items() if lang == "all" or unanswerable[j]["zh"] == (lang == "zh")}
            mean = sum(v[0] for v in part.values()) / len(part) if part else 0.0
            cells.append(f"{under(part, 0.3):.2f} / {under(part, 0.5):.2f} / {mean:.2f}")
        n = sum(1 for q in unanswerable if lang == "all" or q["zh"] == (lang == "zh"))
        lines.append(f"{lang:<10}{n:>4}" + "".join(f"{c:>28}" for c in cells))
    return "\n".join(lines)


def choose_doubt(questions: list[dict], orders: dict[int, list], confidence: dict[int, list[float]]) -> float:
    """The doubt threshold: the largest of ``DOUBTS`` under which the first pages (held out by
    company, calibrated without their company) are right at most half the time, so that a
    doubtful answer is more likely wrong than right."""
    first = [(confidence[i][0], orders[i][0][0] in questions[i]["gold"]) for i in confidence]
    chosen = DOUBTS[0]
    for doubt in DOUBTS:
        under = [right for c, right in first if c < doubt]
        if under and sum(under) / len(under) <= 0.5:
            chosen = doubt
    return chosen


# ---------------------------------------------------------------------------------------------
# The model file


def flat_trees(booster) -> list[dict]:
    """LightGBM's trees as flat arrays (``learned.flat_tree`` of each tree of its dump)."""
    return [learned.flat_tree(info) for info in booster.dump_model()["tree_info"]]


def write_model(ranker, calibration, doubt: float, pool: int, provenance: dict, path: Path, columns: list[int]) -> dict:
    names = [features.NAMES[c] for c in columns]
    data = {
        "format": "evfind ranker 4: a forest of LightGBM trees as flat arrays over named inputs, whose sum is "
                  "a candidate's score, and Platt scaling of what the ranked scores and the candidate's signals "
                  "say of it (learned.calibration_inputs), the log-odds that a candidate holds the evidence "
                  "(evfind/learned.py)",
        "ranker": {"inputs": names, "trees": flat_trees(ranker)},
        "calibration": {"inputs": list(calibration.inputs), "weights": list(calibration.weights),
                        "bias": calibration.bias},
        "doubt": doubt,
        "pool": pool,
        "provenance": provenance,
    }
    text = json.dumps(data, indent=None, separators=(",", ":"), ensure_ascii=False)
    # one line a tree, so that a change reads in a diff
    text = text.replace('},{"feature"', '},\n{"feature"').replace('"trees":[', '"trees":[\n')
    path.write_text(text + "\n", encoding="utf-8")
    return data


def check_pure_python(data: dict, ranker, questions: list[dict], columns: list[int]) -> float:
    """The largest difference between LightGBM's scores and evfind's pure-Python evaluation of
    the written trees, over every candidate trained on (stops the run above 1e-9)."""
    import numpy as np

    model = learned.model_of(json.loads(json.dumps(data)), features.NAMES)
    worst = 0.0
    for q in questions:
        if q["rows"]:
            theirs = ranker.predict(np.array(q["rows"], dtype=float)[:, columns])
            worst = max(worst, float(np.abs(np.array(model.scores(q["rows"])) - theirs).max()))
    if worst > 1e-9:
        raise SystemExit(f"the pure-Python trees differ from LightGBM's by {worst:g}")
    return worst


# The seed example of issue 21: its pages 4 and 5 hold the evidence.
SEED = ("PEPSICO_2022_10K", "What are the geographies that Pepsico primarily operates in?")


def seed_and_speed(financebench: Path, cache: Path, asked: list[dict], runs: int = 15) -> None:
    """The seed example's first pages by the model just written and by the rules, and
    ``Finder.query`` timed on its filing for every question labelled on it, the two methods in
    turn (interleaved, the same process: a ratio against the rules measured in the same run)."""
    import statistics

    learned._SHIPPED.clear()  # the model just written
    db = database_for(SEED[0], financebench / "pdfs", None, cache)
    finders = {name: Finder(db, method=method) for name, method in rank.METHODS.items()}
    try:
        print(f"== The seed example ({SEED[0]}, \"{SEED[1]}\"; evidence on pages 4 and 5)")
        for name, finder in finders.items():
            hits = finder.query(SEED[1]).results
            print(f"  {name:<8} " + "  ".join(f"{h.page_number}" + ("" if h.confidence is None else f" ({h.confidence:.2f})")
                                              for h in hits))
        questions = sorted({q["question"] for q in asked if q.get("question")}) or [SEED[1]]
        times = {name: [] for name in finders}
        for name, finder in finders.items():
            for question in questions:
                finder.query(question)  # warm: the first query in a process reads the filing's own data
        for _ in range(runs):
            for name, finder in finders.items():
                for question in questions:
                    begun = time.perf_counter()
                    finder.query(question)
                    times[name].append(time.perf_counter() - begun)
        medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
        print(f"== Finder.query on {SEED[0]} (the {len(questions)} questions labelled on it x {runs} runs, the "
              "methods interleaved; median)")
        print(f"  learned {medians['learned']:.2f} ms, rules {medians['rules']:.2f} ms: "
              f"{medians['learned'] / medians['rules']:.2f}x the rules")
    finally:
        for finder in finders.values():
            finder.close()


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--financebench", type=Path, required=True, help="the FinanceBench folder (../shared/financebench)")
    parser.add_argument("--edgar", type=Path, help="the EDGAR HTML development filings (../shared/edgar)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the model file (default {OUT.relative_to(REPO)})")
    parser.add_argument("--report", type=Path, default=REPORT, help="also write the report here")
    parser.add_argument("--vectors", type=Path, help="keep the questions' vectors in this file and read them from it "
                        "when it exists (to train again without asking every question again)")
    parser.add_argument("--quick", action="store_true", help="one setting, no ablation (to try a change)")
    parser.add_argument("--pools", default=",".join(map(str, POOLS)),
                        help="the candidate depths chosen among (the fusion's leading pages scored), comma-separated")
    args = parser.parse_args()
    import lightgbm

    started = time.perf_counter()
    pools = [int(p) for p in args.pools.split(",")]
    asked = {}
    for pool in pools:
        kept = None if args.vectors is None else args.vectors.with_name(f"{args.vectors.stem}-{pool}{args.vectors.suffix}")
        if kept is not None and kept.is_file():
            questions, files = pickle.loads(kept.read_bytes())  # (a file kept before a set was skipped: not read)
            asked[pool] = ([q for q in questions if q["set"] not in SKIPPED], [f for f in files if f["set"] not in SKIPPED])
        else:
            asked[pool] = collect(args.financebench, args.edgar, args.cache, pool)
            if kept is not None:
                kept.write_bytes(pickle.dumps(asked[pool]))
    collected = time.perf_counter() - started
    columns = list(range(len(features.NAMES)))
    out = io.StringIO()
    with redirect_stdout(out):
        print("== Candidate depth chosen by leave-one-company-out (the fusion's leading pages scored; "
              f"{QUICK_NAME}; objective: mean of hit@1, hit@3, reciprocal rank)")
        by_pool = {}
        for pool in pools:
            questions = asked[pool][0]
            orders = loco_scores(questions, QUICK, columns) if len(pools) > 1 else {}
            by_pool[pool] = objective(questions, orders) if orders else 0.0
            inside = sum(any(p in q["gold"] for p in q["pages"]) for q in questions) / len(questions)
            en = [i for i, q in enumerate(questions) if not q["zh"]]
            h1 = (sum(hits([p for p, _, _ in orders.get(i, [])], questions[i]["gold"], 1) for i in en) / len(en)
                  if orders else 0.0)
            print(f"  {pool:>3} pages: a gold page among them {inside:.3f}   objective {by_pool[pool]:.4f}   "
                  f"hit@1 (English) {h1:.3f}")
        pool = max(pools, key=lambda p: by_pool[p])
        print(f"  chosen: {pool}\n")
        questions, files = asked[pool]
        companies = sorted({q["company"] for q in questions})
        print(f"evfind {__version__} learned last stage (benchmarks/train_ranker.py), LightGBM {lightgbm.__version__}, "
              f"{datetime.date.today().isoformat()}")
        print(f"{len(questions)} questions ({sum(not q['zh'] for q in questions)} English, "
              f"{sum(q['zh'] for q in questions)} Chinese) of {len({q['doc'] for q in questions})} filings of "
              f"{len(companies)} companies; {len(features.NAMES)} signals in {len(features.GROUPS)} groups; "
              f"candidates: the fusion's leading {pool} and the pages named outright")
        inside = sum(any(p in q["gold"] for p in q["pages"]) for q in questions) / len(questions)
        print(f"a gold page among the candidates: {inside:.3f} of the questions\n")

        settings = {QUICK_NAME: QUICK} if args.quick else SETTINGS
        held: dict[str, dict[int, list]] = {}
        print("== Parameters chosen by leave-one-company-out (objective: mean of hit@1, hit@3, reciprocal rank)")
        for name, setting in settings.items():
            held[name] = loco_scores(questions, setting, columns)
            en = [i for i, q in enumerate(questions) if not q["zh"]]
            h1 = sum(hits([p for p, _, _ in held[name].get(i, [])], questions[i]["gold"], 1) for i in en) / len(en)
            print(f"  {name:<24} objective {objective(questions, held[name]):.4f}   hit@1 (English) {h1:.3f}")
        chosen, best, band = smallest_within_noise(questions, settings, held)
        if len(settings) > 1:
            print(f"  best: {best}; noise band: one standard error of the paired per-question difference from it "
                  f"({band}); rule: the smallest setting (fewest leaves in all, then fewest trees) within one "
                  "standard error of the best")
        print(f"  chosen: {chosen}\n")
        setting, orders = settings[chosen], held[chosen]

        ablation, dropped = {}, []
        if not args.quick:
            print("== Ablation: each signal group removed in turn (held out by company; hit@1 / hit@3 / hit@5)")
            variants = {"all signals": {i: [p for p, _, _ in o] for i, o in orders.items()}}
            for group, names in features.GROUPS.items():
                kept = [c for c in columns if features.NAMES[c] not in names]
                removed = loco_scores(questions, setting, kept)
                variants[f"without {group}"] = {i: [p for p, _, _ in o] for i, o in removed.items()}
            en = [i for i, q in enumerate(questions) if not q["zh"]]
            zh = [i for i, q in enumerate(questions) if q["zh"]]
            print(f"{'signals':<24}{'English':>24}{'Chinese':>24}")
            first = {}
            for name, order in variants.items():
                cells = []
                for members in (en, zh):
                    cells.append(" / ".join(
                        f"{sum(hits(order.get(i, []), questions[i]['gold'], k) for i in members) / len(members):.3f}"
                        for k in (1, 3, 5)))
                ablation[name] = cells
                first[name] = [sum(hits(order.get(i, []), questions[i]["gold"], 1) for i in members) for members in (en, zh)]
                print(f"{name:<24}{cells[0]:>24}{cells[1]:>24}")
            # a group the held-out figures do better without, in both languages and by more than
            # noise (one standard error of the paired per-question difference in hit@1), only paid
            # in-sample: dropped. A gain of a question or two is noise (the brief), and a group whose
            # removal is noise-sized keeps the rule it stands for weighed by the model.
            gains = {group: gain_beyond_noise(questions, variants[f"without {group}"], variants["all signals"])
                     for group in features.GROUPS}
            print("gain in hit@1 without each group (all questions) against one standard error: " + ", ".join(
                f"{group} {gain:+.4f} ({error:.4f})" for group, (gain, error) in gains.items()))
            dropped = [group for group in features.GROUPS
                       if all(w > a for w, a in zip(first[f"without {group}"], first["all signals"]))
                       and gains[group][0] > gains[group][1]]
            if dropped:
                columns = [c for c in columns if not any(features.NAMES[c] in features.GROUPS[g] for g in dropped)]
                orders = loco_scores(questions, setting, columns)
                together = [sum(hits([p for p, _, _ in orders.get(i, [])], questions[i]["gold"], 1) for i in members)
                            / len(members) for members in (en, zh)]
                print(f"dropped (held out better without them in both languages, beyond noise): {', '.join(dropped)}; "
                      f"without them all at once, held out hit@1 {together[0]:.3f} (English), {together[1]:.3f} (Chinese)")
            else:
                print("dropped: none (no group the held-out figures do better without in both languages by more than one standard error)")
            print()

        final = train(questions, setting, columns)
        import numpy as np

        in_sample = {i: ranked(q, final.predict(np.array(q["rows"], dtype=float)[:, columns]))
                     for i, q in enumerate(questions) if q["rows"]}
        pure_rrf = {i: q["pages"] for i, q in enumerate(questions)}
        pages_of = {i: [p for p, _, _ in order] for i, order in orders.items()}
        print("== hit@1 / hit@3 / hit@5: before (the fusion alone; the hand-set rules, tuned on these questions,")
        print("   in-sample) and after (the learned stage, in-sample; held out by company)")
        for line in table(questions, {
            "fusion alone": pure_rrf,
            "rules (in-sample)": {i: q["rules"] for i, q in enumerate(questions)},
            "learned, in-sample": {i: [p for p, _, _ in o] for i, o in in_sample.items()},
            "learned, held out": pages_of,
        }):
            print(line)
        print()

        unanswerable = collect_unanswerable(args.edgar, args.cache, pool)
        unanswered = loco_unanswered(questions, unanswerable, setting, columns) if unanswerable else {}
        print("== Calibration chosen by leave-one-company-out (the held-out log loss of the first pages' confidence,")
        print("   answered questions only; in-sample beside it: one calibration fitted on every company's held-out")
        print(f"   scores); then the {len(unanswerable)} questions no page answers "
              f"({UNANSWERABLE.name}): the share whose first page is under 0.3 and 0.5 (held out by company)")
        confidences, unsure = {}, {}
        fits = [(name, False) for name in CALIBRATIONS] + ([(name, True) for name in CALIBRATIONS] if unanswered else [])
        for name, with_unanswerable in fits:
            key = f"{name}{FITTED_WITH if with_unanswerable else ''}"
            confidences[key], unsure[key] = calibrated_loco(questions, orders, CALIBRATIONS[name], pool, unanswerable,
                                                            unanswered, with_unanswerable)
            print(f"  {key:<62} log loss {log_loss(questions, orders, confidences[key]):.4f} "
                  f"(in-sample {log_loss(questions, orders, calibrated_in_sample(questions, orders, CALIBRATIONS[name], pool, unanswerable, unanswered, with_unanswerable)):.4f})"
                  + (f"   no answer: {under(unsure[key], 0.3):.2f} under 0.3, {under(unsure[key], 0.5):.2f} under 0.5"
                     if unsure[key] else ""))
        calibration_name = min(confidences, key=lambda key: log_loss(questions, orders, confidences[key]))
        print(f"  chosen: {calibration_name}\n")
        fit_unanswerable = calibration_name.endswith(FITTED_WITH)
        inputs = CALIBRATIONS[calibration_name.removesuffix(FITTED_WITH)]
        confidence = confidences[calibration_name]
        doubt = choose_doubt(questions, orders, confidence)
        shown = {f"before ({BEFORE})": confidences[BEFORE]} if calibration_name != BEFORE else {}
        shown[f"chosen ({calibration_name})"] = confidence
        print("== Calibration: the first page's confidence (held out by company twice: the ranker's scores and the")
        print("   calibration both fitted without the company) against the share of first pages right; by set, and")
        print(f"   by the filing's size (of {SMALL} pages or fewer; fewer candidates than the {pool} of the pool)")
        for title, values in shown.items():
            print(f"-- {title}")
            for line in calibration_table(questions, orders, values, pool):
                print(line)
        print(f"doubt threshold (chosen by the same held-out confidences: the largest of {', '.join(map(str, DOUBTS))} "
              f"under which first pages are right at most half the time): {doubt}")
        print()

        samples = [row for i, q in enumerate(questions) if i in orders for row in calibration_rows(q, orders[i], inputs, pool)]
        if fit_unanswerable:
            samples += [row for j, q in enumerate(unanswerable) if j in unanswered
                        for row in calibration_rows(q, unanswered[j], inputs, pool)]
        calibration = fit_platt(samples, inputs)
        if unanswerable:
            kept = [inputs.index(name) for name in calibration.inputs]
            print(f"== The {len(unanswerable)} questions no page answers ({UNANSWERABLE.name}): the first page's "
                  "confidence, under 0.3 / under 0.5 / the mean")
            print("  " + unanswered_table(unanswerable, {
                "held out twice": unsure[calibration_name],
                "calibration in-sample": {j: calibration.probabilities([[r[0][c] for c in kept] for r in
                                                                        calibration_rows(q, unanswered[j], inputs, pool)])
                                          for j, q in enumerate(unanswerable) if j in unanswered},
                "the shipped model": {j: calibration.probabilities([[r[0][c] for c in kept] for r in calibration_rows(
                    q, ranked(q, final.predict(np.array(q["rows"], dtype=float)[:, columns])), inputs, pool)])
                    for j, q in enumerate(unanswerable) if q["rows"]},
            }).replace("\n", "\n  "))
            print()
        provenance = {
            "trained": datetime.date.today().isoformat(),
            "command": "python -m benchmarks.train_ranker --financebench DIR --edgar DIR",
            "evfind": __version__,
            "lightgbm": lightgbm.__version__,
            "questions": files,
            "filings": filings_of(questions, args.financebench, args.edgar),
            "companies": companies,
            "candidates": f"the fusion's leading {pool} pages and the pages named outright",
            "pool_chosen_among": pools,
            "parameters": {**{k: v for k, v in BASE.items() if k not in ("verbose", "num_threads")}, **setting},
            "chosen_among": list(settings),
            "chosen_by": "the smallest setting (leaves in all, then trees) whose leave-one-company-out objective "
                         "(mean of hit@1, hit@3, reciprocal rank) is within one standard error (of the paired "
                         "per-question difference) of the best's",
            "calibration": {"method": "Platt scaling", "on": f"the held-out scores of the leading {CALIBRATED} "
                            "candidates of each question", "chosen_among": {k: list(v) for k, v in CALIBRATIONS.items()},
                            "chosen": calibration_name,
                            "chosen_by": "the held-out log loss of the first pages of the answered questions",
                            "loco_log_loss": {name: round(log_loss(questions, orders, confidences[name]), 4)
                                              for name in confidences},
                            "unanswerable": {"file": UNANSWERABLE.name, "questions": len(unanswerable),
                                             "in_the_fit": fit_unanswerable,
                                             "loco_under_0.3": round(under(unsure[calibration_name], 0.3), 3)
                                             if unsure.get(calibration_name) else None}},
            "loco": figures(questions, pages_of),
            "in_sample": figures(questions, {i: [p for p, _, _ in o] for i, o in in_sample.items()}),
            "rules_in_sample": figures(questions, {i: q["rules"] for i, q in enumerate(questions)}),
            "ablation_loco_hit@1/3/5_en_zh": ablation,
            "groups_dropped": dropped,
        }
        data = write_model(final, calibration, doubt, pool, provenance, args.out, columns)
        worst = check_pure_python(data, final, questions, columns)
        size = args.out.stat().st_size
        print(f"written: {args.out.relative_to(REPO) if args.out.is_relative_to(REPO) else args.out} "
              f"({len(data['ranker']['trees'])} trees, {size / 1024:.0f} KB; calibration: "
              f"{', '.join(f'{w:.3f} x {n}' for n, w in zip(calibration.inputs, calibration.weights))}, bias "
              f"{calibration.bias:.3f}); evfind's pure-Python scores equal LightGBM's "
              f"(largest difference {worst:.1e})")
        if args.out.resolve() == OUT.resolve():
            print()
            seed_and_speed(args.financebench, args.cache, [q for q in questions if q["doc"] == SEED[0]])
        importance = sorted(zip(final.feature_importance("gain"), [features.NAMES[c] for c in columns]), reverse=True)
        print("signals by gain in the shipped model: " + ", ".join(f"{n} {v:.0f}" for v, n in importance[:20]))
        print(f"\nquestions asked in {collected:.0f} s; wall time {time.perf_counter() - started:.0f} s")
    text = out.getvalue()
    print(text, end="")
    if args.report:
        args.report.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
