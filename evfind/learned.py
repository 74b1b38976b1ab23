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
import sys
from collections.abc import Iterable, Sequence
from functools import reduce
from operator import add
from typing import NamedTuple

_BIG_ENDIAN = sys.byteorder == "big"
# The lanes a forest's integer is cut into: memoryview's type codes and their bits (those of
# this machine whose size is the usual one).
_LANES = {code: bits for code, bits in (("B", 8), ("H", 16), ("I", 32), ("Q", 64))
          if memoryview(bytes(8)).cast(code).itemsize * 8 == bits}
MET = 4096  # the values of a feature whose masks a forest keeps (then it forgets them and starts again)


def sum_in_order(values: Iterable[float]) -> float:
    """The values added one by one from 0.0, in order (``sum`` of floats may add them otherwise:
    Python 3.12 compensates the rounding), as LightGBM adds its trees' leaves."""
    total = 0.0
    for value in values:
        total += value
    return total


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
    vector's raw value is the sum of the leaves it reaches, tree by tree in the forest's order
    (as LightGBM sums them: the same float, bit for bit).

    ``raw`` does not walk the trees: it follows QuickScorer (Lucchese et al., "QuickScorer: a
    Fast Algorithm to Rank Documents with Additive Ensembles of Regression Trees", SIGIR 2015).
    Each tree's leaves are numbered left to right and kept as bits of one lane of a single
    integer, every tree's lane side by side. A node whose test fails (``x > threshold``: the
    vector goes right) rules out the leaves of its left subtree; the leaf a vector reaches is
    the leftmost one no failed node ruled out. A feature's nodes are sorted by threshold, so the
    nodes that fail for a value are the first k of them (k by bisection), and what
    they rule out together is one precomputed mask: a vector costs one bisection and one AND of
    integers per feature, a few operations on the whole integer that turn each lane's lowest
    bit into its leaf's place, and one look-up per tree, instead of a walk of Python steps per
    node. The masks are made once (``plan``) and kept between processes with the shipped model."""

    def __init__(self, names: Sequence[str], trees, plan: dict | None = None):
        """``trees``: the trees, or a function that returns them (read when first asked for:
        ``raw`` reads only ``plan``, when given)."""
        self.names = tuple(names)
        self._trees = trees if callable(trees) else tuple(trees)
        self._plan = plan  # ``plan()``, made on the first ``raw`` unless given (kept between processes)
        self._run: tuple | None = None  # what ``raw`` reads, made of the plan on its first call
        self._masks: list = []  # the plan's masks as integers, each made when first read
        self._splits: dict = {}  # feature -> (its thresholds, where its masks start, {value met: mask})
        self._wide: dict = {}  # count -> the run's constants for that many vectors side by side

    def raw(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each vector's sum of leaves (its numbers in the order of ``names``)."""
        return self.raw_columns(list(zip(*rows)), len(rows)) if rows else []

    def raw_columns(self, columns: Sequence[Sequence[float]], count: int) -> list[float]:
        """``raw`` of ``count`` vectors given column by column: ``columns[i]``, input ``i`` of
        every vector in turn (a question's candidates share many: the question's own signals).
        A column of one value rules out the same leaves for all: its mask is looked up once.
        The vectors' integers then stand side by side in one integer, so that the few operations
        that turn each lane's lowest bit into its leaf's place run once for all of them (no lane
        borrows or carries into the next: a tree's last leaf is never ruled out)."""
        run = self._run or self._start()
        if not count:
            return []
        if run[0] is None:  # trees too wide for lanes of 64 bits: walked node by node
            return [sum_in_order(tree.leaf(x) for tree in self.trees) for x in zip(*columns)]
        code, every, _, size, features, _, values, _, _, top, _ = run
        shared, alive = every, [every] * count
        for f, met in features:
            column = columns[f]
            value = column[0]
            if column.count(value) == count:  # (a NaN: its own mask, as below)
                mask = met.get(value)  # the values met so far on f, each with its mask
                shared &= self._mask(f, value) if mask is None else mask
                continue
            for i, value in enumerate(column):
                mask = met.get(value)
                alive[i] &= self._mask(f, value) if mask is None else mask
        lowest, rounds, carry, offsets = self._side_by_side(count)
        together = int.from_bytes(b"".join((vector & shared).to_bytes(size, "little") for vector in alive), "little")
        low = together & ~(together - lowest)  # each lane's lowest bit: its tree's leaf, 1 << place
        index = offsets  # each lane's place, bit by bit, after its tree's first value
        for k, bits in enumerate(rounds):
            index += ((((low & bits) + carry) >> top) & lowest) << k
        lanes = memoryview(index.to_bytes(size * count, sys.byteorder)).cast(code)
        if _BIG_ENDIAN:  # (the last vector's last tree's lane comes first)
            lanes = lanes.tolist()[::-1]
        trees = len(lanes) // count
        return [reduce(add, map(values.__getitem__, lanes[i * trees:(i + 1) * trees]), 0.0) for i in range(count)]

    def _side_by_side(self, count: int) -> tuple[int, tuple[int, ...], int, int]:
        """The run's per-lane constants (lowest bits, the rounds' bits, carry, offsets) repeated
        for ``count`` vectors side by side, made once for each count."""
        found = self._wide.get(count)
        if found is None:
            _, _, lowest, size, _, _, _, rounds, carry, _, offsets = self._run

            def repeated(number: int) -> int:
                return int.from_bytes(number.to_bytes(size, "little") * count, "little")

            found = self._wide[count] = (repeated(lowest), tuple(map(repeated, rounds)), repeated(carry),
                                         repeated(offsets))
        return found

    def _mask(self, f: int, value: float) -> int:
        """The leaves still possible once the nodes on feature ``f`` that ``value`` fails failed:
        those whose threshold is under it (a value on a threshold goes left; NaN fails them all),
        found by bisection (the standard library's bisect is not imported on a query's path)."""
        thresholds, first, met = self._splits[f]
        low, high = 0, len(thresholds)
        if value != value:
            low = high
        while low < high:
            middle = (low + high) // 2
            if thresholds[middle] < value:
                low = middle + 1
            else:
                high = middle
        at = first + low
        mask = self._masks[at]
        if mask is None:
            size = self._run[3]
            mask = self._masks[at] = int.from_bytes(self._run[5][at * size:(at + 1) * size], "little")
        if len(met) >= MET:
            met.clear()
        met[value] = mask
        return mask

    @property
    def trees(self) -> tuple[Tree, ...]:
        if callable(self._trees):
            self._trees = tuple(self._trees())
        return self._trees

    def _start(self) -> tuple:
        plan = self._plan or self.plan()
        if plan["lane"] is None:
            self._run = (None,)
            return self._run
        code, values = plan["lane"], plan["values"]
        lane = _LANES[code]
        count = len(values) // lane
        size = (lane * count + 7) // 8

        def each_lane(number: int) -> int:  # the number in every lane
            return int.from_bytes(number.to_bytes(lane // 8, "little") * count, "little")

        every = (1 << lane * count) - 1
        lowest = each_lane(1)
        rounds = tuple(each_lane(sum(1 << b for b in range(lane) if b >> k & 1)) for k in range(lane.bit_length() - 1))
        offsets = int.from_bytes(b"".join((lane * t).to_bytes(lane // 8, "little") for t in range(count)), "little")
        self._masks = [None] * (len(plan["masks"]) // size)
        for _, _, first in plan["features"]:  # no node failed: every leaf possible
            self._masks[first] = every
        self._splits = {f: (thresholds, first, {}) for f, thresholds, first in plan["features"]}
        features = tuple((f, met) for f, (_, _, met) in self._splits.items())
        self._run = (code, every, lowest, size, features, plan["masks"], values, rounds,
                     each_lane((1 << lane - 1) - 1), lane - 1, offsets)
        return self._run

    def plan(self) -> dict:
        """The forest as QuickScorer reads it, as plain values (kept between processes with the
        model: ``shipped``): "lane", the array type code of a tree's lane, of ``lane`` bits,
        enough for its leaves and for ``lane`` x the trees (None: no such lane, the trees are
        walked instead); "values", each tree's leaves' values left to right, ``lane`` places a
        tree (tree t's leaf at place p: ``values[lane * t + p]``); "features", for each
        feature split on (feature, its thresholds ascending, where its masks start); "masks",
        bytes: for each feature and each k from 0 to its thresholds, the bits of every leaf
        still possible once its nodes of the first k thresholds failed (little-endian, tree t's
        lane at bit lane x t)."""
        widest, count = max((len(t.value) for t in self.trees), default=1), len(self.trees)
        code = next((c for c, bits in _LANES.items() if bits >= widest and bits * count < 1 << bits), None)
        if code is None:
            return {"lane": None, "values": (), "features": (), "masks": b""}
        lane = _LANES[code]
        size = (lane * count + 7) // 8
        every = (1 << (lane * count)) - 1
        splits: dict[tuple[int, float], int] = {}  # (feature, threshold) -> the leaves its failing nodes rule out
        values: list[float] = []
        for t, tree in enumerate(self.trees):
            if not tree.feature:  # one leaf: nothing to rule out
                values += [tree.value[0]] + [0.0] * (lane - 1)
                continue
            place, under = _leaf_order(tree)
            for node, feature in enumerate(tree.feature):
                key = (feature, tree.threshold[node])
                splits[key] = splits.get(key, 0) | under[node] << (lane * t)
            values += [tree.value[leaf] for leaf in sorted(place, key=place.get)] + [0.0] * (lane - len(place))
        by_feature: dict[int, list[tuple[float, int]]] = {}
        for (feature, threshold), out in sorted(splits.items()):
            by_feature.setdefault(feature, []).append((threshold, out))
        features, masks = [], []
        for f, nodes in by_feature.items():
            features.append((f, tuple(threshold for threshold, _ in nodes), len(masks)))
            dead = 0
            masks.append(every)
            for _, out in nodes:
                dead |= out
                masks.append(every ^ dead)
        return {"lane": code, "values": tuple(values), "features": tuple(features),
                "masks": b"".join(m.to_bytes(size, "little") for m in masks)}

    def reading(self, known: Sequence[str]):
        """How to make this forest's vector from a vector of ``known`` names: None when they are
        its own, else each input's column there (None: the code no longer computes it, 0)."""
        where = {name: i for i, name in enumerate(known)}
        columns = tuple(where.get(name) for name in self.names)
        return None if columns == tuple(range(len(known))) else columns


def _leaf_order(tree: Tree) -> tuple[dict[int, int], list[int]]:
    """A tree's leaves numbered left to right ({leaf: place}), and for each node the bits (by
    place) of the leaves of its left subtree: those a vector that goes right cannot reach."""
    place: dict[int, int] = {}
    under = [0] * len(tree.feature)
    left, right = tree.left, tree.right

    def leaves(child: int) -> int:  # the bits of the leaves under a child
        if child < 0:
            place[~child] = at = len(place)
            return 1 << at
        on_left = leaves(left[child])
        under[child] = on_left
        return on_left | leaves(right[child])

    leaves(0)
    return place, under


# The calibration's inputs, by name: what the ranked scores say of a candidate (``ranked_inputs``:
# its score, its lead on the next, named outright or not), any of its signals (features.NAMES:
# "coverage", the share of the question's concepts its best passage holds; "q_absent", the share
# of the question's ideas no page of the filing holds...) and, for a signal prefixed BEST, the
# largest value of that signal among the candidates (what the best page holds of the question:
# the same for every candidate). ``calibration_inputs`` reads them.
RANKED_INPUTS = ("score", "lead", "named", "share")
BEST = "best "


def ranked_inputs(scores: Sequence[float], named: Sequence[bool], pool: int = 0,
                  apart: Sequence[bool] = ()) -> list[tuple[float, ...]]:
    """For each candidate in ranked order, the calibration's inputs (``RANKED_INPUTS``): its
    score, its lead on the next candidate (the last one's on nothing: 0), whether it is named
    outright (first whatever its score), and its share of the question's candidates (the
    softmax of the scores, ListNet's top-one probability: Cao et al., "Learning to Rank: From
    Pairwise Approach to Listwise Approach", ICML 2007; a ranker's scores differ by question,
    their differences within a question are what it learned). The share is among ``pool``
    candidates at least: where fewer pages made the candidates, the missing ones count as
    pages scoring as the weakest candidate (the filing's other pages, which matched less), so
    that a page is not surer for having few rivals; a candidate set ``apart`` (a contents
    page, an exhibit not asked: moved below the others) is not the weakest candidate, lest one
    such rival far below make the first page surer.

    >>> [tuple(round(x, 3) for x in row) for row in ranked_inputs([2.0, 1.5, -1.0], [False, False, True])]
    [(2.0, 0.5, 0.0, 0.604), (1.5, 2.5, 0.0, 0.366), (-1.0, 0.0, 1.0, 0.03)]
    >>> [round(row[3], 3) for row in ranked_inputs([2.0, 1.5, -1.0], [False, False, True], pool=5)]
    [0.57, 0.345, 0.028]
    >>> [round(row[3], 3) for row in ranked_inputs([2.0, 1.5, -9.0], [False] * 3, pool=5, apart=[0, 0, 1])]
    [0.355, 0.215, 0.0]
    """
    top = max(scores, default=0.0)
    low = min((score for i, score in enumerate(scores) if not (i < len(apart) and apart[i])), default=top)
    weights = [math.exp(score - top) for score in scores]
    total = (sum(weights) + max(0, pool - len(scores)) * math.exp(low - top)) or 1.0
    found = []
    for i, score in enumerate(scores):
        lead = score - scores[i + 1] if i + 1 < len(scores) else 0.0
        found.append((score, lead, float(named[i]), weights[i] / total))
    return found


def calibration_inputs(inputs: Sequence[str], scores: Sequence[float], named: Sequence[bool],
                       rows: Sequence[Sequence[float]] = (), known: Sequence[str] = (),
                       pool: int = 0, apart: Sequence[bool] = ()) -> list[tuple[float, ...]]:
    """For each candidate in ranked order, the values of ``inputs`` (names: see
    ``RANKED_INPUTS`` and ``BEST``): ``scores``, ``named``, ``pool`` and ``apart`` as ``ranked_inputs``
    takes them, ``rows`` each candidate's signals in the same order, their names ``known`` (a
    signal the rows do not hold reads 0).

    >>> calibration_inputs(("score", "coverage", "best coverage"), [2.0, 1.0], [False, False],
    ...                    [(0.2, 1.0), (0.9, 0.0)], ("coverage", "q_absent"))
    [(2.0, 0.2, 0.9), (1.0, 0.9, 0.9)]
    """
    ranked = ranked_inputs(scores, named, pool, apart)
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
        if columns is None or not rows:
            return self.ranker.raw(rows)
        given, zeros = list(zip(*rows)), (0.0,) * len(rows)
        return self.ranker.raw_columns([zeros if c is None else given[c] for c in columns], len(rows))

    def confidence(self, scores: Sequence[float], named: Sequence[bool],
                   rows: Sequence[Sequence[float]] = (), apart: Sequence[bool] = ()) -> list[float]:
        """The probability that each candidate holds the evidence, the candidates in ranked
        order (``scores`` their scores, ``named``: named outright, ``rows``: their signals,
        in the order of ``known``, ``apart``: set apart, below the others). Without a
        calibration, none (an empty list)."""
        if not scores or self.calibration is None:
            return []
        given = calibration_inputs(self.calibration.inputs, scores, named, rows, self.known, self.pool, apart)
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


def forest_of(data: dict, trees=None) -> Forest:
    """The ``Forest`` of a ranker file's part: {"inputs": names, "trees": [flat trees]}, and
    "plan" (its ``Forest.plan()``) where one was kept; without "trees", ``trees`` (a function
    that returns the forest's trees) reads them when they are asked for."""
    if "trees" in data:
        trees = [Tree(tuple(t["feature"]), tuple(t["threshold"]), tuple(t["left"]), tuple(t["right"]),
                      tuple(t["value"])) for t in data["trees"]]
    return Forest(data["inputs"], trees, data.get("plan"))


def calibration_of(data: dict) -> Calibration:
    """The ``Calibration`` of a ranker file's part: {"inputs": names, "weights": [...], "bias": b}."""
    return Calibration(tuple(data["inputs"]), tuple(float(w) for w in data["weights"]), float(data["bias"]))


def model_of(data: dict, known: Sequence[str], trees=None) -> Model:
    """The ``Model`` of a ranker file's content (``known``: the signals the code computes;
    ``trees``: see ``forest_of``)."""
    calibration = calibration_of(data["calibration"]) if data.get("calibration") else None
    return Model(forest_of(data["ranker"], trees), known, calibration, float(data.get("doubt", DOUBT)),
                 data.get("provenance"), int(data.get("pool", POOL)))


RANKER = "ranker.json"
_SHIPPED: list = []


def shipped() -> Model:
    """The model shipped in evfind/data/ranker.json, read once per process (its content kept
    between processes by ``_data.compiled``: no JSON parse on a query's path)."""
    if not _SHIPPED:
        from . import features
        from ._data import compiled

        _SHIPPED.append(model_of(compiled("ranker", (RANKER,), _read_shipped), features.NAMES, _shipped_trees))
    return _SHIPPED[0]


def _shipped_trees() -> tuple[Tree, ...]:
    """The shipped forest's trees, read from its file (a query scores by the plan kept)."""
    return forest_of(_read_file()["ranker"]).trees


def shipped_provenance() -> dict:
    """Where the shipped model comes from (ranker.json's ``provenance``: the questions, filings,
    parameters and the leave-one-company-out figures of its training), read from the file."""
    import json

    from ._data import DATA

    return json.loads((DATA / RANKER).read_text(encoding="utf-8")).get("provenance") or {}


def _read_shipped() -> dict:
    """The ranker file's calibration, doubt threshold and candidate depth as plain values, and
    its forest as ``Forest.plan`` reads it (made once, not by every process; the trees
    themselves, and the provenance, for people, are left out of what the cache keeps)."""
    data = _read_file()
    kept = {key: data[key] for key in ("calibration", "doubt", "pool") if key in data}
    forest = data["ranker"]
    return {**kept, "ranker": {"inputs": forest["inputs"], "plan": forest_of(forest).plan()}}


def _read_file() -> dict:
    import json

    from ._data import DATA

    return json.loads((DATA / RANKER).read_text(encoding="utf-8"))
