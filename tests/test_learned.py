"""The learned last stage: its trees evaluated in pure Python, its calibrated confidence, the
doubtful answer, and the model file shipped (evfind/data/ranker.json)."""

from __future__ import annotations

import json
import math

import pytest

from evfind import features, learned, rank
from evfind._data import DATA

# Three trees of a LightGBM model (4 leaves each, regression, over 3 inputs) as its
# Booster.dump_model() wrote them, and what Booster.predict gave for four vectors.
DUMPED = [
    {"num_leaves": 4, "tree_structure": {
        "split_index": 0, "split_feature": 0, "threshold": 0.6186915877739665, "decision_type": "<=",
        "default_left": True, "missing_type": "None",
        "left_child": {"split_index": 2, "split_feature": 2, "threshold": 0.8933108120314625, "decision_type": "<=",
                       "default_left": True, "missing_type": "None",
                       "left_child": {"leaf_index": 0, "leaf_value": 0.3533944942207512},
                       "right_child": {"leaf_index": 3, "leaf_value": 0.8425000025331975}},
        "right_child": {"split_index": 1, "split_feature": 2, "threshold": 0.9101024039070897, "decision_type": "<=",
                        "default_left": True, "missing_type": "None",
                        "left_child": {"leaf_index": 1, "leaf_value": 0.7462162150241234},
                        "right_child": {"leaf_index": 2, "leaf_value": 1.2800000286102295}}}},
    {"num_leaves": 4, "tree_structure": {
        "split_index": 0, "split_feature": 0, "threshold": 0.4715473782005385, "decision_type": "<=",
        "default_left": True, "missing_type": "None",
        "left_child": {"leaf_index": 0, "leaf_value": -0.13755284019169353},
        "right_child": {"split_index": 1, "split_feature": 1, "threshold": 0.36886216932162463, "decision_type": "<=",
                        "default_left": True, "missing_type": "None",
                        "left_child": {"split_index": 2, "split_feature": 0, "threshold": 0.6514964690593147,
                                       "decision_type": "<=", "default_left": True, "missing_type": "None",
                                       "left_child": {"leaf_index": 1, "leaf_value": -0.20475594912256515},
                                       "right_child": {"leaf_index": 3, "leaf_value": 0.1177805093201724}},
                        "right_child": {"leaf_index": 2, "leaf_value": 0.19302509845264496}}}},
    {"num_leaves": 4, "tree_structure": {
        "split_index": 0, "split_feature": 2, "threshold": 0.8933108120314625, "decision_type": "<=",
        "default_left": True, "missing_type": "None",
        "left_child": {"split_index": 1, "split_feature": 0, "threshold": 0.4715473782005385, "decision_type": "<=",
                       "default_left": True, "missing_type": "None",
                       "left_child": {"leaf_index": 0, "leaf_value": -0.08844030600089531},
                       "right_child": {"split_index": 2, "split_feature": 1, "threshold": 0.12767011549677607,
                                       "decision_type": "<=", "default_left": True, "missing_type": "None",
                                       "left_child": {"leaf_index": 2, "leaf_value": -0.08973649479448795},
                                       "right_child": {"leaf_index": 3, "leaf_value": 0.053551832040728525}}},
        "right_child": {"leaf_index": 1, "leaf_value": 0.23524565381162307}}},
]
PROBES = [[0.1, 0.2, 0.3], [0.9, 0.9, 0.95], [0.5, 0.5, 0.5], [0.7, 0.1, 0.99]]
PREDICTED = [0.12740134802816236, 1.7082707808744975, 0.5999714247141247, 1.633026191742025]


def forest(dumped=DUMPED) -> learned.Forest:
    return learned.forest_of({"inputs": ["a", "b", "c"], "trees": [learned.flat_tree(t) for t in dumped]})


def test_the_trees_give_lightgbms_own_predictions():
    assert forest().raw(PROBES) == pytest.approx(PREDICTED, abs=1e-12)
    # by hand, the first vector: 0.1 <= 0.619 and 0.3 <= 0.893 (leaf 0); 0.1 <= 0.472; 0.3 <= 0.893, 0.1 <= 0.472
    assert forest().raw(PROBES[:1])[0] == pytest.approx(0.3533944942207512 - 0.13755284019169353 - 0.08844030600089531)


def test_a_value_on_a_threshold_goes_left():
    at = [[0.6186915877739665, 0.0, 0.0]]  # tree 1 splits x0 <= 0.6187: left, leaf 0
    past = [[math.nextafter(0.6186915877739665, 1.0), 0.0, 0.0]]  # right, leaf 1
    first = forest(DUMPED[:1])
    assert first.raw(at) == [0.3533944942207512] and first.raw(past) == [0.7462162150241234]


def walked(forest: learned.Forest, rows) -> list[float]:
    """Each vector's leaves found by walking every tree node by node, added in the trees' order."""
    return [learned.sum_in_order(tree.leaf(x) for tree in forest.trees) for x in rows]


def test_the_shipped_forest_scores_as_its_trees_walked(monkeypatch):
    """raw (QuickScorer's bit masks) reaches the leaf a walk reaches, on every threshold of the
    shipped model, just past it, far off, at 0, NaN and infinities: the same floats exactly."""
    import marshal
    import random

    forest = learned.shipped().ranker
    thresholds = sorted({x for tree in forest.trees for x in tree.threshold})
    draw = random.Random(21)
    choices = (lambda: draw.choice(thresholds), lambda: math.nextafter(draw.choice(thresholds), math.inf),
               lambda: draw.uniform(-3, 3), lambda: 0.0, lambda: 1.0)
    rows = [[draw.choice(choices)() for _ in forest.names] for _ in range(400)]
    rows += [[v] * len(forest.names) for v in (math.nan, math.inf, -math.inf)]
    assert forest.raw(rows) == walked(forest, rows)
    # the plan kept between processes (marshal) reads the same
    kept = learned.Forest(forest.names, forest.trees, marshal.loads(marshal.dumps(forest.plan())))
    assert kept.raw(rows) == walked(forest, rows)
    # the values a forest keeps the masks of stay few (MET a feature): forgotten, found again
    monkeypatch.setattr(learned, "MET", 3)
    forgetful = learned.Forest(forest.names, forest.trees)
    assert forgetful.raw(rows) == forgetful.raw(rows) == walked(forest, rows)
    assert max(len(met) for _, _, met in forgetful._splits.values()) == 3


def test_candidates_sharing_signals_score_as_each_walked_alone():
    """A question's candidates share many signals (the question's own: a column of one value,
    whose leaves are ruled out once for all) and are scored side by side in one integer: each
    one's score is its own walk's, whatever the others beside it, one alone or twenty."""
    import random

    forest = learned.shipped().ranker
    thresholds = sorted({x for tree in forest.trees for x in tree.threshold})
    draw = random.Random(7)
    shared = {i: draw.choice(thresholds) for i in range(0, len(forest.names), 2)}  # every other input
    rows = [[shared.get(i, draw.choice((draw.choice(thresholds), draw.uniform(-3, 3), 0.0)))
             for i in range(len(forest.names))] for _ in range(20)]
    rows[3] = list(rows[0])  # two candidates alike
    assert forest.raw(rows) == walked(forest, rows)
    assert [forest.raw([row])[0] for row in rows] == walked(forest, rows)
    assert forest.raw(rows[5:7]) == walked(forest, rows[5:7]) and forest.raw([]) == []


def test_trees_of_one_leaf_and_trees_too_wide_for_a_lane():
    """A tree of one leaf adds its value; a tree of more than 64 leaves (no lane holds it) is walked."""
    one = learned.Tree((), (), (), (), (0.25,))
    count = 70  # a staircase on x0: node n sends x0 <= n left, to leaf n
    stairs = learned.Tree(tuple([0] * (count - 1)), tuple(float(n) for n in range(count - 1)),
                          tuple(~n for n in range(count - 1)), tuple(range(1, count - 1)) + (~(count - 1),),
                          tuple(float(n) for n in range(count)))
    rows = [[x] for x in (-1.0, 0.0, 0.5, 3.0, 68.0, 68.5, 100.0)]
    assert learned.Forest(("x",), (one,)).raw(rows) == [0.25] * len(rows)
    assert learned.Forest(("x",), (stairs, one)).raw(rows) == [0.25, 0.25, 1.25, 3.25, 68.25, 69.25, 69.25]
    narrow = learned.Tree(stairs.feature[:6], stairs.threshold[:6], stairs.left[:6], stairs.right[:5] + (~6,),
                          stairs.value[:7])  # 7 leaves: one lane of 8 bits
    assert learned.Forest(("x",), (narrow, one)).raw(rows) == [0.25, 0.25, 1.25, 3.25, 6.25, 6.25, 6.25]


def test_a_split_the_evaluator_cannot_follow_is_refused():
    zero = json.loads(json.dumps(DUMPED[0]))
    zero["tree_structure"]["missing_type"] = "Zero"
    with pytest.raises(ValueError, match="cannot evaluate"):
        learned.flat_tree(zero)


def test_a_forest_reads_its_inputs_by_name():
    """A model trained on signals in another order, or on one the code no longer computes, reads
    each by name; one it lacks reads 0."""
    trees = forest().trees
    swapped = learned.Model(learned.Forest(("c", "a", "b"), trees), known=("a", "b", "c"))
    # the forest's input 0 is "c": the vector (a, b, c) is read as (c, a, b)
    assert swapped.scores(PROBES) == pytest.approx(forest().raw([[c, a, b] for a, b, c in PROBES]))
    missing = learned.Model(learned.Forest(("a", "gone", "c"), trees), known=("a", "b", "c"))
    assert missing.scores(PROBES) == pytest.approx(forest().raw([[a, 0.0, c] for a, b, c in PROBES]))


@pytest.mark.skipif(not __import__("importlib").util.find_spec("lightgbm"), reason="the train extra is not installed")
def test_a_ranker_lightgbm_trains_scores_the_same_in_pure_python():
    import lightgbm
    import numpy as np

    rng = np.random.default_rng(7)
    X = rng.uniform(0, 5, size=(300, 4))
    y = (X[:, 0] > 2.5).astype(int)
    booster = lightgbm.train({"objective": "lambdarank", "num_leaves": 7, "min_data_in_leaf": 5, "verbose": -1},
                             lightgbm.Dataset(X, y, group=[10] * 30, params={"verbose": -1}), num_boost_round=20)
    ours = learned.forest_of({"inputs": list("wxyz"),
                              "trees": [learned.flat_tree(t) for t in booster.dump_model()["tree_info"]]})
    assert ours.raw(X.tolist()) == pytest.approx(booster.predict(X).tolist(), abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Confidence


def test_platt_scaling_by_hand():
    calibration = learned.Calibration(("score", "lead"), (1.0, 0.5), -1.0)
    # first: 1 / (1 + e^-(2 + 0.5 x 1 - 1)) = 1 / (1 + e^-1.5) = 0.818; second: e^-(1 + 0 - 1): 0.5
    given = learned.calibration_inputs(calibration.inputs, [2.0, 1.0], [False, False])
    assert given == [(2.0, 1.0), (1.0, 0.0)] and calibration.probabilities(given) == [0.818, 0.5]


def test_the_share_of_the_candidates_is_the_softmax_of_their_scores():
    # e^0 / (e^0 + e^-ln 3) = 3/4, and 1/4; a question's scores shifted alike share alike
    shares = [row[3] for row in learned.ranked_inputs([0.0, -math.log(3)], [False, False])]
    assert shares == pytest.approx([0.75, 0.25])
    assert [row[3] for row in learned.ranked_inputs([5.0, 5.0 - math.log(3)], [False, False])] == pytest.approx(shares)
    # among a pool of 4: the two missing candidates count as the weakest, 1 + 1/3 + 2 x 1/3 = 2
    assert [row[3] for row in learned.ranked_inputs([0.0, -math.log(3)], [False, False], pool=4)] == pytest.approx([0.5, 1 / 6])


def test_calibration_inputs_read_a_candidates_signals_and_the_best_of_them():
    known = ("coverage", "q_absent")
    given = learned.calibration_inputs(("q_absent", "coverage", "best coverage", "gone"), [1.0, 0.0], [False, False],
                                       [(0.5, 0.25), (0.75, 0.25)], known)
    # its own, the best candidate's (the same on each), and a signal the rows lack reads 0
    assert given == [(0.25, 0.5, 0.75, 0.0), (0.25, 0.75, 0.75, 0.0)]


def _first(calibration, scores, named=None, rows=()):
    named = named or [False] * len(scores)
    return calibration.probabilities(learned.calibration_inputs(calibration.inputs, scores, named, rows, features.NAMES))


def test_confidence_rises_with_the_score_and_never_rises_down_the_list():
    calibration = learned.shipped().calibration
    assert calibration is not None
    signs = {"q_absent": -1}
    assert all(w * signs.get(name.removeprefix(learned.BEST), 1) >= 0 for name, w in zip(calibration.inputs, calibration.weights))
    row = [0.0] * len(features.NAMES)
    scores = [x / 4 for x in range(-16, 17)]
    alone = [_first(calibration, [s, s - 1.0], rows=[row, row])[0] for s in scores]
    assert alone == sorted(alone) and alone[0] < 0.3 < 0.7 < alone[-1]
    wider = [_first(calibration, [1.0, 1.0 - lead], rows=[row, row])[0] for lead in (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)]
    assert wider == sorted(wider)
    # a page ranked below another (the named page first whatever its score) is never surer
    ranked = _first(calibration, [-2.0, 3.0, 2.5, 0.0], [True, False, False, False], [row] * 4)
    assert ranked == sorted(ranked, reverse=True) and all(0 <= p <= 1 for p in ranked)


# ---------------------------------------------------------------------------------------------
# The model shipped


def test_the_shipped_model_says_where_it_comes_from_and_reads_the_codes_signals():
    data = json.loads((DATA / learned.RANKER).read_text(encoding="utf-8"))
    # the signals the code computes, in its order, less the groups training dropped (those the
    # held-out figures did better without)
    dropped = {name for group in data["provenance"]["groups_dropped"] for name in features.GROUPS[group]}
    assert data["ranker"]["inputs"] == [name for name in features.NAMES if name not in dropped]
    assert {name.removeprefix(learned.BEST) for name in data["calibration"]["inputs"]} <= {*learned.RANKED_INPUTS, *features.NAMES}
    assert 0 < data["doubt"] < 1
    provenance = data["provenance"]
    for field in ("trained", "command", "lightgbm", "questions", "filings", "companies", "parameters", "loco",
                  "in_sample", "rules_in_sample", "calibration", "ablation_loco_hit@1/3/5_en_zh"):
        assert provenance.get(field), field
    assert all({"set", "file", "questions", "sha256"} <= set(entry) for entry in provenance["questions"])
    assert all({"filing", "sha256"} <= set(entry) for entry in provenance["filings"])
    assert {"hit@1", "hit@3", "hit@5", "n"} <= set(provenance["loco"]["all/en"])
    assert len(data["ranker"]["trees"]) == provenance["parameters"]["num_boost_round"]
    model = learned.shipped()
    assert model.ranker.names == tuple(data["ranker"]["inputs"]) and model.doubt == data["doubt"]
    assert model.pool == data["pool"] and set(model.ranker.names) <= set(features.NAMES)


def test_the_learned_stage_orders_a_record_written_by_hand():
    """rank.order with the default method scores the fusion's candidates and gives each a
    confidence; the rules give none; a page named outright leads whatever its score."""
    signals = rank.Signals(lexical=(("p9", -8.0), ("p4", -2.0), ("p1", -1.0)))
    ranking = rank.order(signals, rank.DEFAULT)
    assert sorted(page for page, _ in ranking.fused) == ["p1", "p4", "p9"]
    assert set(ranking.confidence) == {"p1", "p4", "p9"}
    values = [ranking.confidence[page] for page, _ in ranking.fused]
    assert values == sorted(values, reverse=True)
    assert rank.order(signals, rank.RULES).confidence == {}
    assert not rank.doubtful(None)


# ---------------------------------------------------------------------------------------------
# Through the CLI

# A filing whose pages all say the same about warranties, and none gives a figure or a year:
# a question for the 2024 warranty costs has candidates, and none is likely to hold them.
ALIKE = ["Acme Corp\nAnnual Report on Form 10-K\nFor the fiscal year ended December 31, 2024"] + [
    f"Note {n}. Other matters\nThe company reviews its warranty reserves each quarter.\n"
    "Warranty costs were discussed with the board in each meeting." for n in range(2, 13)
]
DOUBTFUL = {
    "en": "No page is likely to hold the evidence (the first has confidence {c:.2f}); these are the candidates. Check them",
    "zh": "没有页面很可能包含所需证据（第一页的置信度为 {c:.2f}）；以下是候选页面，请逐页核对",
}


@pytest.fixture
def alike_db(tmp_path, cli):
    from .conftest import write_jsonl

    source = write_jsonl(tmp_path / "ACME_2024_10K.jsonl", ALIKE)
    assert cli("ingest", source).exit_code == 0
    return source.with_suffix(".db")


@pytest.mark.parametrize("question, lang", [
    ("What were warranty costs in 2024?", "en"),
    ("2024年的保修费用是多少？", "zh"),
])
def test_a_doubtful_answer_says_so_in_the_questions_language_and_lists_the_candidates(cli, alike_db, question, lang):
    result, data = cli.json("query", alike_db, question)
    assert result.exit_code == 0, result.stderr
    first = data["results"][0]["confidence"]
    assert first < learned.shipped().doubt
    assert data["results"] and data["message"].startswith(DOUBTFUL[lang].format(c=first))
    table = cli("query", alike_db, question)
    assert table.exit_code == 0 and DOUBTFUL[lang].format(c=first) in table.stdout
    # the hand-set rules give no confidence, so no doubt either
    _, rules = cli.json("query", alike_db, question, "--method", "rules")
    assert "confidence" not in rules["results"][0] and not (rules["message"] or "").startswith(DOUBTFUL[lang][:12])


def test_a_sure_answer_has_no_doubt(cli, filing_db):
    _, data = cli.json("query", filing_db, "What legal proceedings is Acme involved in?")
    assert data["results"][0]["page_number"] == 5
    assert data["results"][0]["confidence"] >= 0.7 and data["message"] is None


def test_every_hit_has_its_confidence_in_json_table_markdown_and_batch(cli, filing_db, tmp_path):
    question = "What was net income in 2024?"
    _, data = cli.json("query", filing_db, question, "--top", "8")
    values = [hit["confidence"] for hit in data["results"]]
    assert data["results"][0]["page_number"] == 8 and len(values) >= 3 and all(0 <= v <= 1 for v in values) and values == sorted(values, reverse=True)
    table = cli("query", filing_db, question).stdout.splitlines()
    header = next(line for line in table if line.startswith("Rank"))
    assert header.split()[:3] == ["Rank", "Page", "Conf"]
    row = next(line for line in table if line.lstrip().startswith("1 "))
    assert f"{values[0]:.2f}" in row.split()
    markdown = cli("query", filing_db, question, "--format", "markdown").stdout.splitlines()
    assert markdown[0] == "| Rank | Physical page | Confidence | Document | What matched | Evidence |"
    assert markdown[2].split(" | ")[2] == f"{values[0]:.2f}"
    asked = tmp_path / "questions.txt"
    asked.write_text(question + "\n", encoding="utf-8")
    batch = cli("query", filing_db, "--questions", asked)
    assert json.loads(batch.stdout.splitlines()[0])["results"][0]["confidence"] == values[0]
    # the rules: no confidence (the JSON leaves the field out, the table shows "-")
    _, rules = cli.json("query", filing_db, question, "--method", "rules")
    assert all("confidence" not in hit for hit in rules["results"])


def test_the_python_api_gives_the_confidence_on_each_hit(filing_db):
    from evfind import Finder

    with Finder(filing_db) as finder:
        hits = finder.query("What were capital expenditures in 2024?").results
    assert hits[0].page_number == 10 and 0 < hits[0].confidence <= 1
    with Finder(filing_db, method=rank.RULES) as finder:
        assert finder.query("What were capital expenditures in 2024?").results[0].confidence is None


def test_eval_loco_reports_the_learned_stage_apart_from_the_rules_grid(cli, filing_db, tmp_path, monkeypatch):
    """`evfind eval --loco` does not retrain the learned stage: it gives its figures on the
    questions given as in-sample, its held-out ones from the model file, and leaves the
    company out only of the rules' parameter grid (here a grid of two settings)."""
    labels = tmp_path / "labels.jsonl"
    records = [
        {"doc_name": "ACME_2024_10K", "company": "Acme", "question": "Where is the legal proceedings section?", "gold_pages": [5]},
        {"doc_name": "ACME_2024_10K", "company": "Acme", "question": "What was net income in 2024?", "gold_pages": [8]},
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    monkeypatch.setattr(rank, "GRID", {"evidence_weight": (0.5, 1.0)})
    result, data = cli.json("eval", labels, "--dbs", filing_db.parent, "--loco")
    assert result.exit_code == 0, result.output
    trained = learned.shipped_provenance()
    assert data["learned"]["loco_when_trained"] == trained["loco"] and data["learned"]["trained"] == trained["trained"]
    assert data["learned"]["in_sample"][str(labels)]["metrics"]["all"]["hit@1"] == 1.0
    assert set(data["loco"]["chosen"].values()) <= {"evidence_weight=0.5", "evidence_weight=1.0"}
    text = cli("eval", labels, "--dbs", filing_db.parent, "--loco").stdout
    assert text.startswith("the learned last stage (the default, --method learned): chosen and trained by leaving")
    assert f"  all/en   {trained['loco']['all/en']['n']:>5} questions   {trained['loco']['all/en']['hit@1']:.3f} / " in text
    assert "\n\nthe hand-set rules (--method rules), their parameters (rank.GRID) chosen by leaving one company out:\n" in text
