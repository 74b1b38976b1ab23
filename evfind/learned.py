"""The learned last stage's model: gradient-boosted trees, evaluated in pure Python.

The model is a data file, ``evfind/data/ranker.json``, written by ``benchmarks/train_ranker.py``
(LightGBM, trained on the labelled development questions and chosen by leave-one-company-out;
the file says which questions, filings, parameters and figures). Here it is only read and
evaluated: no training library is imported, and a process pays for reading the file once (its
content kept between processes by ``_data.compiled``).

It holds a forest of regression trees and a calibration:

- the **ranker** (LambdaMART: Burges, "From RankNet to LambdaRank to LambdaMART: An Overview",
  MSR-TR-2010-82), over a candidate's signals (``features.vectors``): ``Model.scores``, higher
  for the page more likely to hold the evidence, comparable within one question only;
- the **calibration** (Platt scaling, ``Calibration``), over what the ranked scores say of a
  candidate (``ranked_inputs``: its score, its lead on the next, named outright or not) and
  what the question and the pages say of it (``calibration_inputs``: how much of the question
  the filing lacks, how much of it the best page holds), fitted on scores of companies the
  ranker did not see: ``Model.confidence``, the probability that the page holds the evidence.

A tree is flat arrays (LightGBM's own layout): node ``n`` sends a vector left when
``x[feature[n]] <= threshold[n]``, else right; a child ``c < 0`` is the leaf ``~c``.

    >>> tree = Tree(feature=(0,), threshold=(0.5,), left=(~0,), right=(~1,), value=(-1.0, 2.0))
    >>> Forest(("a",), (tree,)).raw([(0.0,), (1.0,)])
    [-1.0, 2.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

# The confidence under which an answer says no page is likely to hold the evidence, when the
# model file gives none (ranker.json's "doubt" is chosen by leave-one-company-out).
DOUBT = 0.3
# The fusion's leading pages the model scores, when the model file gives no number ("pool").
POOL = 15


class Tree(NamedTuple):
    """One regression tree as flat arrays; a child below 0 is the leaf ``~child``."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]  # the leaves' values

    def leaf(self, x: Sequence[float]) -> float:
        """The value of the leaf ``x`` reaches (a tree of one leaf has no node)."""
        if not self.feature:
            return self.value[0]
        node = 0
        while node >= 0:
            node = self.left[node] if x[self.feature[node]] <= self.threshold[node] else self.right[node]
        return self.value[~node]


class Forest:
    """Trees over named inputs (``names``: what ``x[i]`` is for a tree's feature ``i``): a
    vector's raw value is the sum of the leaves it reaches."""

    def __init__(self, names: Sequence[str], trees: Sequence[Tree]):
        self.names, self.trees = tuple(names), tuple(trees)
        # each tree as plain tuples; a tree of one leaf as one node whose two children are it
        self._flat = tuple(
            (t.feature, t.threshold, t.left, t.right, t.value) if t.feature else ((0,), (math.inf,), (~0,), (~0,), t.value)
            for t in self.trees
        )

    def raw(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each vector's sum of leaves (its numbers in the order of ``names``)."""
        flat = self._flat
        found = []
        for x in rows:
            total = 0.0
            for feature, threshold, left, right, value in flat:
                node = 0
                while node >= 0:
                    node = left[node] if x[feature[node]] <= threshold[node] else right[node]
                total += value[~node]
            found.append(total)
        return found

    def reading(self, known: Sequence[str]):
        """How to make this forest's vector from a vector of ``known`` names: None when they are
        its own, else each input's column there (None: the code no longer computes it, 0)."""
        where = {name: i for i, name in enumerate(known)}
        columns = tuple(where.get(name) for name in self.names)
        return None if columns == tuple(range(len(known))) else columns


# The calibration's inputs, by name: what the ranked scores say of a candidate (``ranked_inputs``:
# its score, its lead on the next, named outright or not), any of its signals (features.NAMES:
# "coverage", the share of the question's concepts its best passage holds; "q_absent", the share
# of the question's ideas no page of the filing holds...) and, for a signal prefixed BEST, the
# largest value of that signal among the candidates (what the best page holds of the question:
# the same for every candidate). ``calibration_inputs`` reads them.
RANKED_INPUTS = ("score", "lead", "named", "share")
BEST = "best "


def ranked_inputs(scores: Sequence[float], named: Sequence[bool], pool: int = 0) -> list[tuple[float, ...]]:
    """For each candidate in ranked order, the calibration's inputs (``RANKED_INPUTS``): its
    score, its lead on the next candidate (the last one's on nothing: 0), whether it is named
    outright (first whatever its score), and its share of the question's candidates (the
    softmax of the scores, ListNet's top-one probability: Cao et al., "Learning to Rank: From
    Pairwise Approach to Listwise Approach", ICML 2007; a ranker's scores differ by question,
    their differences within a question are what it learned). The share is among ``pool``
    candidates at least: where fewer pages made the candidates, the missing ones count as
    pages scoring as the weakest candidate (the filing's other pages, which matched less), so
    that a page is not surer for having few rivals.

    >>> [tuple(round(x, 3) for x in row) for row in ranked_inputs([2.0, 1.5, -1.0], [False, False, True])]
    [(2.0, 0.5, 0.0, 0.604), (1.5, 2.5, 0.0, 0.366), (-1.0, 0.0, 1.0, 0.03)]
    >>> [round(row[3], 3) for row in ranked_inputs([2.0, 1.5, -1.0], [False, False, True], pool=5)]
    [0.57, 0.345, 0.028]
    """
    top, low = max(scores, default=0.0), min(scores, default=0.0)
    weights = [math.exp(score - top) for score in scores]
    total = (sum(weights) + max(0, pool - len(scores)) * math.exp(low - top)) or 1.0
    found = []
    for i, score in enumerate(scores):
        lead = score - scores[i + 1] if i + 1 < len(scores) else 0.0
        found.append((score, lead, float(named[i]), weights[i] / total))
    return found


def calibration_inputs(inputs: Sequence[str], scores: Sequence[float], named: Sequence[bool],
                       rows: Sequence[Sequence[float]] = (), known: Sequence[str] = (),
                       pool: int = 0) -> list[tuple[float, ...]]:
    """For each candidate in ranked order, the values of ``inputs`` (names: see
    ``RANKED_INPUTS`` and ``BEST``): ``scores``, ``named`` and ``pool`` as ``ranked_inputs``
    takes them, ``rows`` each candidate's signals in the same order, their names ``known`` (a
    signal the rows do not hold reads 0).

    >>> calibration_inputs(("score", "coverage", "best coverage"), [2.0, 1.0], [False, False],
    ...                    [(0.2, 1.0), (0.9, 0.0)], ("coverage", "q_absent"))
    [(2.0, 0.2, 0.9), (1.0, 0.9, 0.9)]
    """
    ranked = ranked_inputs(scores, named, pool)
    where = {name: i for i, name in enumerate(known)}
    columns = []
    for name in inputs:
        if name in RANKED_INPUTS:
            columns.append(("ranked", RANKED_INPUTS.index(name)))
        else:
            signal = name.removeprefix(BEST)
            columns.append(("best" if name.startswith(BEST) else "own", where.get(signal)))
    best = {c: max((row[c] for row in rows), default=0.0) for kind, c in columns if kind == "best" and c is not None}
    found = []
    for i, given in enumerate(ranked):
        values = []
        for kind, c in columns:
            if kind == "ranked":
                values.append(given[c])
            elif c is None or not rows:
                values.append(0.0)
            else:
                values.append(float(best[c] if kind == "best" else rows[i][c]))
        found.append(tuple(values))
    return found


def _sigmoid(z: float) -> float:
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


class Calibration(NamedTuple):
    """Platt scaling (Platt, "Probabilistic Outputs for Support Vector Machines and Comparisons
    to Regularized Likelihood Methods", 1999), over a few inputs: the probability that a
    candidate holds the evidence is 1 / (1 + e^-(bias + sum of weight x input)), the inputs
    named as ``calibration_inputs`` reads them. Fitted by benchmarks/train_ranker.py on scores
    of companies the ranker did not see (leave-one-company-out), each weight's sign the one
    its input's meaning gives (a higher score, a wider lead, more of the question covered
    never lower a confidence; more of the question absent from the filing never raises it).

    >>> Calibration(("score",), (2.0,), -1.0).probabilities([(1.0,), (0.5,)])
    [0.731, 0.5]
    """

    inputs: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def probabilities(self, given: Sequence[Sequence[float]]) -> list[float]:
        """Each candidate's probability, rounded to three decimals, from its values of
        ``inputs`` (``calibration_inputs``); in ranked order, a candidate's is never above the
        one's before it (a page ranked below another is not more likely the evidence)."""
        found, ceiling = [], 1.0
        for row in given:
            p = _sigmoid(self.bias + sum(w * x for w, x in zip(self.weights, row)))
            ceiling = min(ceiling, p)
            found.append(round(ceiling, 3))
        return found


class Model:
    """A trained last stage: the ranker (a ``Forest``), its ``Calibration``, the confidence under
    which an answer is doubtful, and where it comes from. ``known``: the signals the running
    code computes (features.NAMES), in their order; a signal the forest was not trained on is
    left out, one it was and the code no longer computes reads 0."""

    def __init__(self, ranker: Forest, known: Sequence[str], calibration: Calibration | None = None,
                 doubt: float = DOUBT, provenance: dict | None = None, pool: int = POOL):
        self.ranker, self.known, self.calibration = ranker, tuple(known), calibration
        self.doubt, self.provenance, self.pool = doubt, provenance, pool
        self._ranker_columns = ranker.reading(self.known)

    def scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each candidate's score (higher: more likely the evidence) from its signals."""
        columns = self._ranker_columns
        if columns is not None:
            rows = [[0.0 if c is None else row[c] for c in columns] for row in rows]
        return self.ranker.raw(rows)

    def confidence(self, scores: Sequence[float], named: Sequence[bool],
                   rows: Sequence[Sequence[float]] = ()) -> list[float]:
        """The probability that each candidate holds the evidence, the candidates in ranked
        order (``scores`` their scores, ``named``: named outright, ``rows``: their signals,
        in the order of ``known``). Without a calibration, none (an empty list)."""
        if not scores or self.calibration is None:
            return []
        given = calibration_inputs(self.calibration.inputs, scores, named, rows, self.known, self.pool)
        return self.calibration.probabilities(given)


def flat_tree(info: dict) -> dict:
    """One tree of LightGBM's model dump (``Booster.dump_model()["tree_info"][i]``: nested
    nodes) as the flat arrays of the ranker file: node n's feature, threshold and children, a
    child below 0 the leaf ~child, and the leaves' values. Raises ValueError for a split this
    evaluator does not follow (a category, or zeros read as missing: evfind's signals are
    finite numbers, so a split that sends only NaN by default is followed as a plain one).

    >>> flat_tree({"num_leaves": 1, "tree_structure": {"leaf_value": 0.5}})
    {'feature': [], 'threshold': [], 'left': [], 'right': [], 'value': [0.5]}
    """
    root = info["tree_structure"]
    if "split_index" not in root:  # a tree of one leaf
        return {"feature": [], "threshold": [], "left": [], "right": [], "value": [root["leaf_value"]]}
    size = info["num_leaves"] - 1
    tree = {"feature": [0] * size, "threshold": [0.0] * size, "left": [0] * size, "right": [0] * size,
            "value": [0.0] * info["num_leaves"]}

    def walk(node) -> int:
        if "split_index" not in node:
            tree["value"][node["leaf_index"]] = node["leaf_value"]
            return ~node["leaf_index"]
        if node["decision_type"] != "<=" or node.get("missing_type") not in (None, "None", "NaN"):
            raise ValueError(f"a split evfind cannot evaluate: {node['decision_type']}, {node.get('missing_type')}")
        n = node["split_index"]
        tree["feature"][n], tree["threshold"][n] = node["split_feature"], float(node["threshold"])
        tree["left"][n], tree["right"][n] = walk(node["left_child"]), walk(node["right_child"])
        return n

    walk(root)
    return tree


def forest_of(data: dict) -> Forest:
    """The ``Forest`` of a ranker file's part: {"inputs": names, "trees": [flat trees]}."""
    return Forest(data["inputs"], [Tree(tuple(t["feature"]), tuple(t["threshold"]), tuple(t["left"]), tuple(t["right"]),
                                        tuple(t["value"])) for t in data["trees"]])


def calibration_of(data: dict) -> Calibration:
    """The ``Calibration`` of a ranker file's part: {"inputs": names, "weights": [...], "bias": b}."""
    return Calibration(tuple(data["inputs"]), tuple(float(w) for w in data["weights"]), float(data["bias"]))


def model_of(data: dict, known: Sequence[str]) -> Model:
    """The ``Model`` of a ranker file's content (``known``: the signals the code computes)."""
    calibration = calibration_of(data["calibration"]) if data.get("calibration") else None
    return Model(forest_of(data["ranker"]), known, calibration, float(data.get("doubt", DOUBT)), data.get("provenance"),
                 int(data.get("pool", POOL)))


RANKER = "ranker.json"
_SHIPPED: list = []


def shipped() -> Model:
    """The model shipped in evfind/data/ranker.json, read once per process (its content kept
    between processes by ``_data.compiled``: no JSON parse on a query's path)."""
    if not _SHIPPED:
        from . import features
        from ._data import compiled

        _SHIPPED.append(model_of(compiled("ranker", (RANKER,), _read_shipped), features.NAMES))
    return _SHIPPED[0]


def shipped_provenance() -> dict:
    """Where the shipped model comes from (ranker.json's ``provenance``: the questions, filings,
    parameters and the leave-one-company-out figures of its training), read from the file."""
    import json

    from ._data import DATA

    return json.loads((DATA / RANKER).read_text(encoding="utf-8")).get("provenance") or {}


def _read_shipped() -> dict:
    """The ranker file's forest, calibration, doubt threshold and candidate depth as plain values (its provenance, for
    people, is left out of what the cache keeps)."""
    import json

    from ._data import DATA

    data = json.loads((DATA / RANKER).read_text(encoding="utf-8"))
    return {key: data[key] for key in ("ranker", "calibration", "doubt", "pool") if key in data}
