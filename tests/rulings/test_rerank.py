"""The learned ranking of questions (rulings/rerank.py): pure, no database."""

from __future__ import annotations

import json
import math

import pytest

from rulings import rerank


def candidate(entry_id, **fields):
    values = {
        "cosine": 0.5,
        "meaning_rank": None,
        "words_score": 0.0,
        "words_rank": None,
        "coverage": 0.0,
        "kind": "rule",
        "game": "dcdb",
        "home": False,
        "length": 20,
        "titled": False,
        "about_a_card": False,
    }
    values.update(fields)
    return rerank.Candidate(entry_id=entry_id, **values)


def row(features, name):
    return features[rerank.FEATURES.index(name)]


def weights(**named):
    return tuple(float(named.get(name, 0.0)) for name in rerank.FEATURES)


def test_each_candidate_has_one_value_per_feature():
    rows = rerank.features([candidate(1), candidate(2, kind="glossary", game="vs")])
    assert [len(r) for r in rows] == [len(rerank.FEATURES)] * 2
    assert rerank.features([]) == []


def test_words_are_a_share_of_the_best_and_ranks_are_logged_with_unlisted_ones_last():
    first, second = rerank.features(
        [
            candidate(1, words_score=8.0, words_rank=0, meaning_rank=3),
            candidate(2, words_score=2.0, words_rank=1),
        ]
    )
    assert row(first, "words") == 1.0 and row(second, "words") == 0.25
    assert row(first, "words_rank") == 0.0 and row(second, "words_rank") == pytest.approx(math.log(2))
    assert row(first, "listed_by_meaning") == 1.0 and row(second, "listed_by_meaning") == 0.0
    assert row(second, "meaning_rank") == pytest.approx(math.log1p(rerank.NOT_LISTED))


def test_no_words_score_anywhere_is_not_a_division_by_zero():
    (only,) = rerank.features([candidate(1)])
    assert row(only, "words") == 0.0


def test_a_rule_and_its_example_lend_each_other_their_cosines_only_when_both_are_candidates():
    rule = candidate(1, cosine=0.4, children=(2, 3))
    example = candidate(2, cosine=0.7, parent=1, kind="example")
    alone = candidate(4, cosine=0.6, parent=99, children=(98,))
    rows = rerank.features([rule, example, alone])
    assert row(rows[0], "example_cosine") == 0.7 and row(rows[0], "examples_listed") == pytest.approx(
        math.log(2)
    )
    assert row(rows[1], "rule_cosine") == 0.4
    assert row(rows[2], "rule_cosine") == 0.0 and row(rows[2], "example_cosine") == 0.0
    assert row(rows[2], "cosine_gap") == pytest.approx(-0.1)


def test_kind_and_game_are_one_hot():
    (r,) = rerank.features([candidate(1, kind="card_ruling", game="overpower")])
    kinds = [row(r, f"kind_{kind}") for kind in rerank.KINDS]
    games = [row(r, f"game_{game}") for game in rerank.GAMES]
    assert kinds.count(1.0) == 1 and row(r, "kind_card_ruling") == 1.0
    assert games == [0.0, 0.0, 1.0]


def test_the_order_follows_the_weights_and_breaks_ties_by_entry_id():
    ranker = rerank.Ranker(weights(cosine=1.0, coverage=2.0), {})
    found = [candidate(3, cosine=0.5), candidate(1, cosine=0.3, coverage=0.2), candidate(2, cosine=0.9)]
    assert [c.entry_id for c, _ in ranker.order(found)] == [2, 1, 3]
    tied = rerank.Ranker(weights(), {})
    assert [c.entry_id for c, _ in tied.order(found)] == [1, 2, 3]


def test_a_ranker_round_trips_through_its_file(tmp_path):
    ranker = rerank.Ranker(weights(cosine=3.5, kind_rule=0.25), {"trained_on": "tuning", "penalty": 10.0})
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps(ranker.to_json()))
    assert rerank.Ranker.load(path) == ranker


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        json.dumps({"weights": {"cosine": 1.0}}),  # written for other features
        json.dumps({"weights": dict.fromkeys(reversed(rerank.FEATURES), 0.0)}),  # in another order
        json.dumps({"weights": {**dict.fromkeys(rerank.FEATURES, 0.0), "cosine": "NaN"}}),
        json.dumps({"weights": {**dict.fromkeys(rerank.FEATURES, 0.0), "cosine": "heavy"}}),
        json.dumps({"weights": {**dict.fromkeys(rerank.FEATURES, 0.0), "cosine": None}}),
    ],
)
def test_a_file_that_does_not_fit_these_features_is_not_used(tmp_path, content):
    path = tmp_path / "ranker.json"
    path.write_text(content)
    assert rerank.Ranker.load(path) is None
    assert rerank.Ranker.load(tmp_path / "missing.json") is None


def test_the_shipped_weights_fit_the_features_and_say_how_they_were_trained():
    from rulings.search import RANKER_FILE

    ranker = rerank.Ranker.load(RANKER_FILE)
    assert ranker is not None, "rulings/ranker.json is stale: run bench/train_rulings_ranker.py"
    assert ranker.about["trained_on"] == "rulings_queries_tuning.json"
    assert 0 < ranker.about["cross_validated"]["top1"] <= 1


def gate(**named):
    return rerank.Gate(
        tuple(float(named.get(name, 0.0)) for name in rerank.GATE_FEATURES), named.get("bias", 0.0)
    )


def test_the_gate_answers_when_the_probability_reaches_its_threshold():
    closeness = gate(cosine=10.0, foreign_words=-4.0, like_unanswered=-6.0, asked_before=4.0, bias=-5.0)
    assert closeness.probability((0.5, 0.0, 0.0, 0.0, 0.0)) == pytest.approx(0.5)  # cosine 0.5, nothing else
    assert closeness.answers((0.6, 0.0, 0.0, 0.0, 0.0))
    assert not closeness.answers((0.4, 0.0, 0.0, 0.0, 0.0))
    assert not closeness.answers((0.6, 0.0, 0.5, 0.0, 0.0))  # half the words appear in no document
    assert not closeness.answers((0.6, 0.0, 0.0, 0.5, 0.0))  # much like questions nothing answers
    assert closeness.answers((0.4, 0.0, 0.0, 0.0, 0.5))  # much like a question answered before
    assert closeness.probability((-100.0, 0.0, 0.0, 0.0, 0.0)) == 0.0  # no overflow far below


def test_a_ranker_keeps_its_gate_through_its_file(tmp_path):
    with_gate = rerank.Ranker(
        weights(cosine=1.0),
        {"trained_on": "tuning"},
        rerank.Gate((9.0, 1.0, -3.0, -2.0, 1.0), -4.0, 0.5, {"questions": 9}),
    )
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps(with_gate.to_json()))
    loaded = rerank.Ranker.load(path)
    assert loaded == with_gate
    assert loaded.gate.about == {"questions": 9}


@pytest.mark.parametrize(
    "written",
    [
        None,
        "a gate",
        {"weights": {"cosine": 1.0}, "bias": 0.0},  # written for other features
        {"weights": dict.fromkeys(rerank.GATE_FEATURES, 1.0), "bias": "NaN"},
        {"weights": dict.fromkeys(rerank.GATE_FEATURES, 1.0), "bias": 0.0, "threshold": 1.5},
        {"weights": {**dict.fromkeys(rerank.GATE_FEATURES, 1.0), "cosine": None}, "bias": 0.0},
    ],
)
def test_a_gate_that_does_not_fit_is_left_out_and_the_ranking_still_used(tmp_path, written):
    data = rerank.Ranker(weights(cosine=1.0), {}).to_json()
    if written is not None:
        data["gate"] = written
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps(data))
    loaded = rerank.Ranker.load(path)
    assert loaded is not None and loaded.weights == weights(cosine=1.0)
    assert loaded.gate is None


def test_the_shipped_gate_fits_and_refuses_less_than_the_hand_set_thresholds_it_replaces():
    from rulings.search import RANKER_FILE

    shipped = rerank.Ranker.load(RANKER_FILE).gate
    assert shipped is not None, "rulings/ranker.json has no usable gate: run bench/train_rulings_ranker.py"
    figures = shipped.about
    assert figures["cross_validated"]["answered_refused"] < figures["hand_set"]["answered_refused"]
    assert figures["cross_validated"]["unanswered_refused"] >= figures["hand_set"]["unanswered_refused"]
    # Closer in meaning, or much like a question answered before, answers more readily; a question much like
    # those nothing answers makes an answer less likely. Words no document uses never make one more likely:
    # their share (0 to 1) adds little once that likeness is known (-0.33 in one fit, +0.01 in the next), so
    # its weight may sit at zero, but never at a twentieth of a logit or more.
    cosine, _, foreign, like_unanswered, asked_before = shipped.weights
    assert cosine > 0 and foreign < 0.05 and like_unanswered < 0 < asked_before


def trees_json(*trees):
    return {"features": list(rerank.FEATURES), "trees": [{"splits": s, "leaves": v} for s, v in trees]}


COSINE, COVERAGE = rerank.FEATURES.index("cosine"), rerank.FEATURES.index("coverage")
# Close in meaning is worth 2, and holding most of the query adds 1 only when close in meaning too.
TWO_TREES = trees_json(
    ([[COSINE, 0.5, -1, -2]], [0.0, 2.0]),
    ([[COSINE, 0.5, -1, 1], [COVERAGE, 0.6, -2, -3]], [0.0, 0.0, 1.0]),
)


def test_trees_add_up_their_leaves_on_onnxruntime_and_in_numpy_alike():
    trees = rerank.Trees.from_json(TWO_TREES)
    rows = [[0.0] * len(rerank.FEATURES) for _ in range(4)]
    for r, (cosine, coverage) in zip(rows, [(0.4, 0.9), (0.7, 0.2), (0.7, 0.9), (0.5, 1.0)], strict=True):
        r[COSINE], r[COVERAGE] = cosine, coverage
    assert trees.scores(rows) == [0.0, 2.0, 3.0, 0.0]  # 0.5 is "at most" 0.5: left
    assert trees._session() is not None  # onnxruntime ran them
    assert trees.numpy_scores(rows).tolist() == [0.0, 2.0, 3.0, 0.0]
    assert trees.scores([]) == []


def test_trees_run_in_numpy_when_onnxruntime_cannot(monkeypatch):
    monkeypatch.setattr(rerank.importlib.util, "find_spec", lambda name: None)
    trees = rerank.Trees.from_json(TWO_TREES)
    row = [0.0] * len(rerank.FEATURES)
    row[COSINE], row[COVERAGE] = 0.9, 0.9
    assert trees.scores([row]) == [3.0] and trees._session() is None


def test_a_ranker_with_trees_orders_by_them_and_keeps_them_through_its_file(tmp_path):
    trees = rerank.Trees.from_json(TWO_TREES)
    ranker = rerank.Ranker(weights(cosine=-1.0), {"trained_on": "tuning"}, None, trees)
    found = [candidate(1, cosine=0.9, coverage=0.1), candidate(2, cosine=0.8, coverage=0.9), candidate(3)]
    assert [c.entry_id for c, _ in ranker.order(found)] == [2, 1, 3]  # the trees, not the weights
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps(ranker.to_json()))
    loaded = rerank.Ranker.load(path)
    assert loaded.trees is not None and loaded.trees.to_json() == trees.to_json()
    assert [c.entry_id for c, _ in loaded.order(found)] == [2, 1, 3]


@pytest.mark.parametrize(
    "written",
    [
        "trees",
        {"features": ["cosine"], "trees": TWO_TREES["trees"]},  # written for other features
        {**TWO_TREES, "trees": []},
        trees_json(([[COSINE, 0.5, -1, -3]], [0.0, 2.0])),  # a leaf that is not there
        trees_json(([[COSINE, 0.5, 0, -1]], [0.0])),  # a split that leads back to itself
        trees_json(([[len(rerank.FEATURES), 0.5, -1, -1]], [0.0])),  # a feature that is not there
        trees_json(([[COSINE, 0.5, -1, -1]], ["NaN"])),
        trees_json(([[COSINE, "NaN", -1, -1]], [1.0])),
        trees_json(([[COSINE, 0.5]], [1.0])),
    ],
)
def test_trees_that_cannot_be_read_leave_the_linear_weights_to_order(tmp_path, written):
    data = {**rerank.Ranker(weights(cosine=1.0), {}).to_json(), "trees": written}
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps(data))
    loaded = rerank.Ranker.load(path)
    assert loaded is not None and loaded.trees is None
    found = [candidate(1, cosine=0.2), candidate(2, cosine=0.9)]
    assert [c.entry_id for c, _ in loaded.order(found)] == [2, 1]


def test_the_shipped_trees_fit_the_features_and_beat_the_linear_ranking_in_cross_validation():
    from rulings.search import RANKER_FILE

    ranker = rerank.Ranker.load(RANKER_FILE)
    assert ranker.trees is not None, "rulings/ranker.json has no trees: run bench/train_rulings_ranker.py"
    assert ranker.about["cross_validated"]["top1"] > ranker.about["linear"]["top1"]
