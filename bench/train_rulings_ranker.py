"""Fit what the rulings search learns from judges' queries, on the tuning half of them.

    .venv/bin/python bench/train_rulings_ranker.py [--penalty 10] [--map-penalty 0.03] [--trees 300]
        [--dry-run]

Reads ``bench/rulings_queries_tuning.json`` only: the reported half (``rulings_queries_report.json``) is
what ``bench/bench_rulings.py`` measures, and is never read here. Two things are fitted, for the queries the
search answers with the embedding model (questions of three words or more):

1. the question map (``rulings.semantic.QueryAdapter``, ``rulings/query_adapter.npz``): a linear map of a
   question's vector, starting from the identity, that maximises the softmax probability (temperature
   ``TAU``) of the accepted entries among every entry, with a penalty on its distance from the identity;
2. the ranking (``rulings.rerank``, ``rulings/ranker.json``): gradient-boosted regression trees (LightGBM's
   LambdaMART) that put the accepted candidates first among each query's candidates, kept as
   ``rulings.rerank.Trees``; and, for reference and as the fallback, linear weights that maximise the
   softmax probability of the accepted candidates, with an L2 penalty on standardised features;
3. the gate (``rulings.rerank.Gate``, in the same file): a logistic regression of "the question has an
   answer" on its best candidate's cosine, the share of the query it holds, the share of the query's words
   no document uses, how like it is to the tuning questions nothing answers (their vectors are kept in
   the map's file) and to an answered one whose answer is among its candidates, fitted on the tuning
   questions with an answer and those without.

The model reads each question with its shorthand spelled out (``rulings.query.model_text``), as the search
gives it.

One of the ranking's features is how like the question is to a tuning question the candidate answers
(``asked_before``): the answered questions are kept in the map's file with their entries, and a question is
only ever compared with questions outside its own fold (and never with itself), as a new question would be.

The ranking is fitted on candidates found with maps that did not see the query (5 folds): it learns how far
to trust the map on a question it has never met, as in use; the gate, likewise, on best candidates chosen
by maps and rankings that did not see the question. It prints the cross-validated top-1 / top-3 of
the model alone with and without the map, and of the trees and the linear ranking against the hand-set
blend, and writes both files unless ``--dry-run``.

Needs scipy and lightgbm (``requirements-dev.txt``) and the packaged model (``requirements-model.txt``).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TUNING = ROOT / "bench" / "rulings_queries_tuning.json"
OUT = ROOT / "rulings" / "ranker.json"
TAU = 0.05  # the temperature of the map's softmax over the entries
GATE_PENALTY = 1.0  # the gate's L2 penalty (standardised features)
GATE_THRESHOLD = 0.5  # the probability of an answer below which the search says "nothing found"
# Which way each of the gate's values may move the probability of an answer (rerank.GATE_FEATURES): closer in
# meaning, more of the query held, or more like a question answered before never makes an answer less likely;
# words no document uses, or more likeness to questions nothing answers, never more likely. The fit keeps each
# weight on its side (at zero at most): the tuning half is a few thousand questions, and a weight on the wrong
# side would be a quirk of them (the foreign-words weight went from -0.33 to +0.37 in three fits).
GATE_SIGNS = {"cosine": 1, "coverage": 1, "foreign_words": -1, "like_unanswered": -1, "asked_before": 1}
# The trees (LightGBM's LambdaMART), chosen by 10-fold cross-validation on the tuning half (one shuffle, the
# folds' "asked before" approximated): 300 trees of 15 leaves at rate 0.05, top-1 85.8% against 82.0% for the
# linear ranking; 7 leaves 85.4%, 31 leaves 85.8%, 600 trees at rate 0.03 85.9% (twice the file for 0.1).
TREE_PARAMETERS = {
    "objective": "lambdarank",
    "learning_rate": 0.05,
    "num_leaves": 15,
    "min_data_in_leaf": 20,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "feature_fraction": 0.8,
    "lambdarank_truncation_level": 10,
    "deterministic": True,
    "num_threads": 2,
    "seed": 0,
    "verbose": -1,
}


def fit_map(
    questions: np.ndarray, accepted: list[list[int]], entries: np.ndarray, penalty: float
) -> np.ndarray:
    """The map W (questions @ W, then normalised) with the accepted entries' cosines highest."""
    dims = questions.shape[1]
    n = len(questions)

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        w = np.eye(dims) + flat.reshape(dims, dims)
        x = questions @ w
        norms = np.linalg.norm(x, axis=1, keepdims=True)
        xn = x / norms
        s = xn @ entries.T / TAU
        s -= s.max(1, keepdims=True)
        e = np.exp(s)
        z = e.sum(1)
        total = 0.0
        grad_s = e / z[:, None]
        for i, rows in enumerate(accepted):
            z_pos = e[i, rows].sum()
            total -= np.log(z_pos / z[i])
            grad_s[i, rows] -= e[i, rows] / z_pos
        grad_xn = (grad_s / TAU) @ entries
        grad_x = (grad_xn - xn * (grad_xn * xn).sum(1, keepdims=True)) / norms
        grad_w = questions.T @ grad_x
        return total / n + penalty * (flat @ flat), grad_w.ravel() / n + 2 * penalty * flat

    flat = minimize(loss, np.zeros(dims * dims), jac=True, method="L-BFGS-B", options={"maxiter": 200}).x
    return (np.eye(dims) + flat.reshape(dims, dims)).astype(np.float32)


def mapped(questions: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    if w is None:
        return questions
    x = questions @ w
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def model_tops(questions: np.ndarray, accepted: list[list[int]], entries: np.ndarray) -> tuple[float, float]:
    order = np.argsort(-(questions @ entries.T), axis=1)[:, :3]
    top1 = np.mean([order[i, 0] in rows for i, rows in enumerate(accepted)])
    top3 = np.mean([any(j in rows for j in order[i]) for i, rows in enumerate(accepted)])
    return float(top1), float(top3)


def folds(n: int, k: int, seed: int) -> list[np.ndarray]:
    return np.array_split(np.random.default_rng(seed).permutation(n), k)


def blend(candidates) -> np.ndarray:
    """The hand-set blend (rulings.search._blended, the search's fallback) on the same candidates."""
    from rulings import search

    by_words = sorted((c for c in candidates if c.words_rank is not None), key=lambda c: c.words_rank)
    scores = {
        pk: score
        for pk, score, _ in search._blended(
            [(c.entry_id, c.words_score) for c in by_words],
            {c.entry_id: c.cosine for c in candidates if c.meaning_rank is not None},
            {c.entry_id: c.coverage for c in candidates},
        )
    }
    return np.array([scores[c.entry_id] for c in candidates])


def fit(queries: list[tuple[np.ndarray, np.ndarray]], penalty: float) -> np.ndarray:
    """Weights maximising the mean log softmax probability of each query's accepted candidates."""
    stacked = np.vstack([x for x, _ in queries])
    scale = stacked.std(0) + 1e-3
    scaled = [(x / scale, y) for x, y in queries if y.any() and not y.all()]
    dims = stacked.shape[1]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros(dims)
        for x, y in scaled:
            s = x @ w
            e = np.exp(s - s.max())
            z, z_pos = e.sum(), e[y].sum()
            total -= np.log(z_pos) - np.log(z)
            grad += x.T @ (e / z - np.where(y, e, 0.0) / z_pos)
        n = len(scaled)
        return total / n + penalty * (w @ w) / n, grad / n + 2 * penalty * w / n

    weights = minimize(loss, np.zeros(dims), jac=True, method="L-BFGS-B").x
    return weights / scale


def fit_trees(queries: list[tuple[np.ndarray, np.ndarray]], rounds: int):
    """LambdaMART trees putting each query's accepted candidates first (a LightGBM booster)."""
    import lightgbm

    data = lightgbm.Dataset(
        np.vstack([x for x, _ in queries]),
        np.concatenate([y for _, y in queries]).astype(int),
        group=[len(y) for _, y in queries],
    )
    return lightgbm.train(TREE_PARAMETERS, data, num_boost_round=rounds)


def tree_of(structure: dict) -> dict:
    """One tree of LightGBM's dump as ``rulings.rerank.Trees`` keeps it: its splits and its leaves."""
    splits: list = []
    leaves: list[float] = []

    def walk(node: dict) -> int:
        if "split_index" not in node:
            leaves.append(node["leaf_value"])
            return ~(len(leaves) - 1)
        if node["decision_type"] != "<=" or node["missing_type"] != "None":
            raise ValueError(f"a split the search cannot run: {node['decision_type']} {node['missing_type']}")
        at = len(splits)
        splits.append(None)
        left, right = walk(node["left_child"]), walk(node["right_child"])
        splits[at] = [node["split_feature"], node["threshold"], left, right]
        return at

    walk(structure)
    return {"splits": splits or [[0, 0.0, -1, -1]], "leaves": leaves}


def trees_of(booster):
    """A LightGBM booster's trees as the search keeps them (``rulings.rerank.Trees``)."""
    from rulings import rerank

    trees = [tree_of(info["tree_structure"]) for info in booster.dump_model()["tree_info"]]
    converted = rerank.Trees.from_json({"features": list(rerank.FEATURES), "trees": trees})
    if converted is None:
        raise ValueError("the trees could not be converted")
    return converted


class _FittedGate:
    def __init__(self, weights: np.ndarray, bias: float):
        self.weights, self.bias = tuple(float(w) for w in weights), float(bias)

    def probability_of(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(x @ np.array(self.weights) + self.bias)))


def fit_gate(x: np.ndarray, y: np.ndarray, penalty: float = GATE_PENALTY) -> _FittedGate:
    """A logistic regression of "the question has an answer" on the best candidate's gate values, with an
    L2 penalty on standardised features and each weight on its side (GATE_SIGNS); the weights returned apply
    to the raw values."""
    from rulings import rerank

    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        total = -(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)).mean()
        grad = z.T @ (p - y) / len(y)
        grad[:-1] += 2 * penalty * w[:-1] / len(y)
        return total + penalty * (w[:-1] @ w[:-1]) / len(y), grad

    signs = [GATE_SIGNS[name] for name in rerank.GATE_FEATURES]
    bounds = [(0.0, None) if sign > 0 else (None, 0.0) for sign in signs] + [(None, None)]
    w = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B", bounds=bounds).x
    weights = w[:-1] / scale
    return _FittedGate(weights, w[-1] - float(weights @ mean))


def tops(queries, scores) -> tuple[float, float]:
    top1 = top3 = 0
    for (_, y), s in zip(queries, scores, strict=True):
        order = np.argsort(-s, kind="stable")
        top1 += bool(y[order[0]])
        top3 += bool(y[order[:3]].any())
    return top1 / len(queries), top3 / len(queries)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seeds", default=os.getenv("RULINGS_SOURCES") or str(ROOT.parent / "shared" / "seeds")
    )
    parser.add_argument("--penalty", type=float, default=10.0, help="the ranking's L2 penalty")
    parser.add_argument(
        "--map-penalty", type=float, default=0.03, help="the map's penalty (distance from identity)"
    )
    parser.add_argument("--trees", type=int, default=300, help="how many trees the ranking adds up")
    parser.add_argument("--dry-run", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args()

    from bench_rulings import setup

    setup(seeds=args.seeds, keep_database=False, words_only=False)
    from rulings import query as q
    from rulings import rerank, search, semantic
    from rulings.models import Document, Entry

    ASKED_BEFORE = rerank.FEATURES.index("asked_before")  # noqa: N806
    encoder = semantic.load()
    if encoder is None:
        print(
            "the embedding model is not installed (requirements-model.txt): nothing to train", file=sys.stderr
        )
        return 1
    # Any ranker makes the search record its candidates; which entries are candidates does not depend on it.
    search._ranker.cache_clear()
    search._ranker = lambda key: rerank.Ranker((0.0,) * len(rerank.FEATURES), {})
    # The question's vector as each pass wants it: the model's (pass 1), or mapped by a map fitted without
    # the question (pass 2).
    vectors_for: dict[str, np.ndarray] = {}
    plain_vector = lambda enc, text: enc.encode([text])[0]  # noqa: E731
    semantic.question_vectors = lambda enc, text: (
        plain_vector(enc, text),
        vectors_for.get(text, plain_vector(enc, text)),
    )
    # The search's own "asked before" reads the shipped file; here each question gets it from the questions
    # outside its fold (``bank_column``), so the search is told of none.
    semantic.asked_before = lambda enc, vector: {}
    url = {entry.pk: entry.get_absolute_url() for entry in Entry.objects.select_related("document")}
    ref = {
        entry.get_absolute_url(): f"{entry.document.slug}/{entry.key}"
        for entry in Entry.objects.select_related("document")
    }
    every = json.loads(TUNING.read_text())
    items = [item for item in every if item["accept"]]
    unanswered = [item for item in every if not item["accept"]]

    # Pass 1: the questions the model is asked about, as the search encodes them.
    parts = semantic.document_vectors(Document.objects.filter(is_current=True))
    entry_ids = np.concatenate([part.entry_ids for part in parts])
    entries = np.vstack([part.matrix for part in parts])
    row_of = {url[int(pk)]: row for row, pk in enumerate(entry_ids)}
    asked = []
    for item in items:
        results = search.search(query=item["q"], limit=10)
        rows = [row_of[u] for u in item["accept"] if u in row_of]
        if results.candidates and rows:
            asked.append((item, q.model_text(results.searched), rows))
    questions = encoder.encode([searched for _, searched, _ in asked])
    accepted = [rows for _, _, rows in asked]
    print(f"{len(asked)} tuning questions answered with the model")
    # The bank of questions asked before: who answers each (by the entry's address), and their cosines.
    answering: dict[str, list[int]] = {}
    for index, (item, _, _) in enumerate(asked):
        for address in dict.fromkeys(ref[u] for u in item["accept"] if u in ref):
            answering.setdefault(address, []).append(index)
    between = questions @ questions.T

    # The map: cross-validated (5 folds, 3 shuffles), then fitted without each fold for pass 2.
    raw, fitted = [], []
    for seed in range(3):
        for fold in folds(len(asked), 5, seed):
            train = np.setdiff1d(np.arange(len(asked)), fold)
            w = fit_map(questions[train], [accepted[i] for i in train], entries, args.map_penalty)
            raw.append((len(fold), model_tops(questions[fold], [accepted[i] for i in fold], entries)))
            fitted.append(
                (len(fold), model_tops(mapped(questions[fold], w), [accepted[i] for i in fold], entries))
            )
            if seed == 0:
                for i, vector in zip(fold, mapped(questions[fold], w), strict=True):
                    vectors_for[asked[i][1]] = vector

    def mean(pairs, k):
        return sum(n * tops_[k] for n, tops_ in pairs) / sum(n for n, _ in pairs)

    map_cv = {"top1": round(mean(fitted, 0), 4), "top3": round(mean(fitted, 1), 4)}
    print(f"  the model alone:                    top-1 {mean(raw, 0):.1%}  top-3 {mean(raw, 1):.1%}")
    print(
        f"  with the map, cross-validated:      top-1 {map_cv['top1']:.1%}  top-3 {map_cv['top3']:.1%}"
        f"  (penalty {args.map_penalty:g})"
    )

    # Pass 2: the ranking, on candidates found with maps that did not see the question.
    queries, blends, found, banked = [], [], [], []
    for index, (item, searched, _) in enumerate(asked):
        candidates = search.search(query=item["q"], limit=10).candidates
        if not candidates:
            continue
        found.append((item, candidates, searched))
        banked.append((index, [answering.get(ref[url[c.entry_id]], []) for c in candidates]))
        accept = set(item["accept"])
        y = np.array([url[c.entry_id] in accept for c in candidates])
        queries.append((np.array(rerank.features(candidates)), y))
        blends.append(blend(candidates))

    def with_bank(i: int, left_out: set[int]) -> tuple[np.ndarray, np.ndarray]:
        """Query ``i``'s features with ``asked_before`` from the bank less ``left_out`` and itself."""
        index, answerers = banked[i]
        x = queries[i][0].copy()
        x[:, ASKED_BEFORE] = [
            max((between[index, j] for j in js if j != index and j not in left_out), default=0.0)
            for js in answerers
        ]
        return x, queries[i][1]

    linear_tops, tree_tops = [], []
    held_out_scores: list = []
    held_out_bank: dict[int, np.ndarray] = {}
    for seed in range(3):
        linear_scores: list = [None] * len(queries)
        scores: list = [None] * len(queries)
        for fold in folds(len(queries), 10, seed):
            held = set(fold.tolist())
            left_out = {banked[i][0] for i in held}
            train = [with_bank(i, left_out) for i in range(len(queries)) if i not in held]
            weights = fit(train, args.penalty)
            booster = fit_trees(train, args.trees)
            for i in fold:
                x = with_bank(i, left_out)[0]
                linear_scores[i] = x @ weights
                scores[i] = booster.predict(x)
                if seed == 0:  # the candidates as the gate meets them: "asked before" without the fold
                    held_out_bank[i] = x[:, ASKED_BEFORE]
        held_out_scores = held_out_scores or scores
        linear_tops.append(tops(queries, linear_scores))
        tree_tops.append(tops(queries, scores))
    queries = [with_bank(i, set()) for i in range(len(queries))]
    base1, base3 = tops(queries, blends)
    linear1, linear3 = (float(v) for v in np.mean(linear_tops, axis=0))
    cv1, cv3 = (float(v) for v in np.mean(tree_tops, axis=0))
    print(f"  hand-set blend:                     top-1 {base1:.1%}  top-3 {base3:.1%}")
    print(
        f"  linear ranking, 10-fold CV:         top-1 {linear1:.1%}  top-3 {linear3:.1%}"
        f"  (penalty {args.penalty:g})"
    )
    print(f"  trees, 10-fold CV:                  top-1 {cv1:.1%}  top-3 {cv3:.1%}  ({args.trees} trees)")
    weights = fit(queries, args.penalty)
    trees = trees_of(fit_trees(queries, args.trees))

    # Pass 3: the gate, on each question's best candidate as a new question would meet it: a question with
    # an answer through the maps and rankings that did not see it, one without through the final ones.
    final_map = fit_map(questions, accepted, entries, args.map_penalty)
    vocabulary = search.catalogue().vocabulary()
    # The questions nothing answers, as typed (with shorthand spelled out, and with the game they name: "overpower
    # round time limit" has no answer because OverPower's book gives none, and is less like "how long is a round"
    # asked of every game, which DCDB's 9.020 answers): kept with the map, for the gate's ``like_unanswered``.
    # (The search's text, without the game's name, refused 1 unanswered question fewer and 2 answered ones more
    # in cross-validation.) An unanswered question is compared only with those outside its own tenth, as a new
    # question never finds itself there.
    memory_texts = [q.model_text(item["q"]) for item in unanswered]
    memory = encoder.encode(memory_texts).astype(np.float32)
    memory /= np.maximum(np.linalg.norm(memory, axis=1, keepdims=True), 1e-12)
    tenth = np.random.default_rng(0).permutation(len(memory)) % 10

    def likeness(text: str, leave_out: int | None = None) -> float:
        pool = memory if leave_out is None else memory[tenth != leave_out]
        value = semantic.QueryAdapter(final_map, encoder.key, pool).like_unanswered(encoder.encode([text])[0])
        return 0.0 if value is None else value

    rows, labels = [], []

    def banked(candidates, values) -> list:
        return [
            dataclasses.replace(c, asked_before=float(v)) for c, v in zip(candidates, values, strict=True)
        ]

    for i, ((item, candidates, searched), scores) in enumerate(zip(found, held_out_scores, strict=True)):
        candidates = banked(candidates, held_out_bank[i])
        best = candidates[int(np.argsort(-scores, kind="stable")[0])]
        rows.append(
            search.gate_values(q.parse(item["q"]), best, vocabulary.words, likeness(searched), candidates)
        )
        labels.append(1.0)
    for index, item in enumerate(unanswered):
        results = search.search(query=item["q"], limit=10)
        if not results.candidates:
            continue  # answered by the words alone, where the hand-set threshold decides
        read = q.model_text(results.searched)  # the question as the model reads it
        vectors_for[read] = mapped(encoder.encode([read]), final_map)[0]
        candidates = search.search(query=item["q"], limit=10).candidates
        x = np.array(rerank.features(candidates))
        likeness_to = questions @ encoder.encode([read])[0]
        x[:, ASKED_BEFORE] = [
            max((likeness_to[j] for j in answering.get(ref[url[c.entry_id]], [])), default=0.0)
            for c in candidates
        ]
        scores = np.array(trees.scores(x))
        candidates = banked(candidates, x[:, ASKED_BEFORE])
        best = candidates[int(np.argsort(-scores, kind="stable")[0])]
        like = likeness(read, int(tenth[index]))
        rows.append(search.gate_values(q.parse(item["q"]), best, vocabulary.words, like, candidates))
        labels.append(0.0)
    gate_x, gate_y = np.array(rows), np.array(labels)
    held_out = np.zeros(len(gate_y))
    for fold in folds(len(gate_y), 10, 0):
        train = np.setdiff1d(np.arange(len(gate_y)), fold)
        held_out[fold] = fit_gate(gate_x[train], gate_y[train]).probability_of(gate_x[fold])
    hand_set = np.array(
        [
            coverage >= search.MEANING_COVERS or cosine >= search.MEANING_ANSWERS
            for cosine, coverage, *_ in rows
        ]
    )
    learned = held_out >= GATE_THRESHOLD
    answered, unanswered_n = int(gate_y.sum()), int(len(gate_y) - gate_y.sum())

    def refused(answers):
        return {
            "unanswered_refused": int((~answers & (gate_y == 0)).sum()),
            "answered_refused": int((~answers & (gate_y == 1)).sum()),
        }

    gate_cv, gate_hand = refused(learned), refused(hand_set)
    print(f"  gate on {answered} questions with an answer and {unanswered_n} without:")
    for label, counts in (("hand-set thresholds:", gate_hand), ("learned, 10-fold CV:", gate_cv)):
        print(
            f"    {label:22s} {counts['unanswered_refused']} of {unanswered_n} without an answer refused,"
            f" {counts['answered_refused']} of {answered} with one refused"
        )
    gate = fit_gate(gate_x, gate_y)
    gate = rerank.Gate(
        gate.weights,
        gate.bias,
        GATE_THRESHOLD,
        {
            "questions": len(gate_y),
            "unanswered": unanswered_n,
            "cross_validated": gate_cv,
            "hand_set": gate_hand,
        },
    )
    today = datetime.date.today().isoformat()
    ranker = rerank.Ranker(
        tuple(float(w) for w in weights),
        {
            "trained_on": TUNING.name,
            "encoder": encoder.key,
            "queries": len(queries),
            "penalty": args.penalty,
            "trees": {"count": args.trees, **{k: v for k, v in TREE_PARAMETERS.items() if k != "verbose"}},
            "cross_validated": {"top1": round(cv1, 4), "top3": round(cv3, 4)},
            "linear": {"top1": round(linear1, 4), "top3": round(linear3, 4)},
            "blend": {"top1": round(base1, 4), "top3": round(base3, 4)},
            "question_map": {"penalty": args.map_penalty, "cross_validated": map_cv},
            "date": today,
        },
        gate,
        trees,
    )
    for name, weight in sorted(zip(rerank.FEATURES, ranker.weights, strict=True), key=lambda p: -abs(p[1])):
        print(f"    {name:22s} {weight:+.4f}")
    if not args.dry_run:
        pairs = [(address, index) for address, indices in answering.items() for index in indices]
        semantic.QueryAdapter(
            final_map,
            encoder.key,
            memory,
            questions.astype(np.float32),
            tuple(address for address, _ in pairs),
            np.array([index for _, index in pairs], dtype=np.int32),
        ).save(semantic.ADAPTER_FILE)
        OUT.write_text(json.dumps(ranker.to_json(), indent=2) + "\n")
        print(f"wrote {semantic.ADAPTER_FILE.relative_to(ROOT)} and {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
