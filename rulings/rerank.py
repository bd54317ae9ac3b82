"""Order the candidates of a question: a linear ranking learned from judges' queries (pure, no Django).

When the embedding model is on, a question's candidates are the entries its words found and the entries
nearest to it in meaning. Each candidate is described by what both retrievers say of it (the model's cosine
and rank, the words' score and rank, the share of the query it holds) and by what kind of entry it is (a
rule, an example, a glossary term, a card ruling, ...; which game; how it sits among the other candidates:
its rule or its examples also close in meaning), and by how like the question is to a tuning question
the entry answers (judges meet the same situations again). The score is a weighted sum of those features.

The weights are not written by hand: ``bench/train_rulings_ranker.py`` fits them on the tuning half of the
judges' queries (``bench/rulings_queries_tuning.json``) and writes ``rulings/ranker.json``; the reported half
is never read by it. The fit is a softmax over each query's candidates (the accepted entries against the
rest) with an L2 penalty, on standardised features; the file keeps its figures (cross-validated on the
tuning half) and the date. Without the file, or with a file for other features, ``Ranker.load`` gives
``None`` and the search keeps its hand-set blend.

The same file may hold a ``Gate``: whether the best candidate answers the question at all, or the answer is
"nothing found". It is a logistic regression over ``GATE_FEATURES``, fitted by the same script on the tuning
half's questions with and without an answer. Without it (or with one for other features) the search keeps
its hand-set thresholds.

The ranking itself is a sum of regression trees (``Trees``, gradient-boosted for the ranking by LightGBM in
the trainer) when the file holds them: what a candidate is worth depends on its features together (a close
example is worth more under a rule that is close too; an entry the words found matters more when the model
is unsure), which one weight per feature cannot say. The trees run as one onnxruntime node
(``TreeEnsembleRegressor``) when onnxruntime is installed, else in numpy, with the same scores (to float32
rounding: both compare in float32, onnxruntime also adds the leaves in it); the linear
weights stay in the file and order the candidates when the trees cannot be read.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

KINDS = (
    "rule",
    "heading",
    "example",
    "list_item",
    "card_ruling",
    "card",
    "card_note",
    "glossary",
    "passage",
    "faq",
    "template",
)
GAMES = ("dcdb", "vs", "overpower")
NOT_LISTED = 100  # the rank given to a candidate one retriever did not list

FEATURES = (
    "cosine",  # the model's cosine to the query (with the home game's small bonus)
    "cosine_gap",  # the cosine less the best candidate's
    "plain_cosine",  # the cosine before the learned question map (rulings.semantic.QueryAdapter)
    "listed_by_meaning",  # among the model's nearest
    "meaning_rank",  # log(1 + rank) among the model's nearest
    "words",  # the words' score as a share of the best one's
    "listed_by_words",
    "words_rank",  # log(1 + rank) among the words' candidates
    "coverage",  # the share of the query (by word weight) the entry holds
    *(f"kind_{kind}" for kind in KINDS),
    *(f"game_{game}" for game in GAMES),
    "home",  # the toolkit's own game, when every game is searched
    "rule_cosine",  # the cosine of the entry's rule (its parent), when that is a candidate too
    "example_cosine",  # the best cosine among the entry's examples and sub-rules that are candidates
    "examples_listed",  # log(1 + how many of those are candidates)
    "length",  # log(1 + the entry's words)
    "titled",  # has a title of its own (a glossary term, a passage heading), not only a number
    "about_a_card",
    "asked_before",  # the cosine of the nearest tuning question this entry answers (QueryAdapter), else 0
)


@dataclass(frozen=True)
class Candidate:
    """What the ranking knows of one entry found for a query."""

    entry_id: int
    cosine: float
    meaning_rank: int | None  # 0-based, None when the model did not list it
    words_score: float  # the words' ranking score, 0 when the words did not find it
    words_rank: int | None
    coverage: float
    kind: str
    game: str
    home: bool
    length: int
    titled: bool
    about_a_card: bool
    parent: int | None = None
    children: tuple[int, ...] = ()
    plain_cosine: float = 0.0
    asked_before: float = 0.0  # how like the question is to the nearest tuning question this entry answers


def features(candidates: Sequence[Candidate]) -> list[list[float]]:
    """One row of ``FEATURES`` per candidate, in order."""
    if not candidates:
        return []
    cosine = {c.entry_id: c.cosine for c in candidates}
    best_cosine = max(cosine.values())
    best_words = max((c.words_score for c in candidates), default=0.0)
    best_words = best_words if best_words > 0 else 1.0
    rows = []
    for c in candidates:
        examples = [cosine[child] for child in c.children if child in cosine]
        row = [
            c.cosine,
            c.cosine - best_cosine,
            c.plain_cosine,
            float(c.meaning_rank is not None),
            math.log1p(NOT_LISTED if c.meaning_rank is None else c.meaning_rank),
            c.words_score / best_words,
            float(c.words_rank is not None),
            math.log1p(NOT_LISTED if c.words_rank is None else c.words_rank),
            c.coverage,
            *(float(c.kind == kind) for kind in KINDS),
            *(float(c.game == game) for game in GAMES),
            float(c.home),
            cosine.get(c.parent, 0.0) if c.parent is not None else 0.0,
            max(examples, default=0.0),
            math.log1p(len(examples)),
            math.log1p(c.length),
            float(c.titled),
            float(c.about_a_card),
            c.asked_before,
        ]
        rows.append(row)
    return rows


GATE_FEATURES = (
    "cosine",  # the best candidate's cosine to the query (as in FEATURES)
    "coverage",  # the share of the query (by word weight) it holds
    "foreign_words",  # the share of the query's words that no document uses ("sleeves", "prize money")
    "like_unanswered",  # how near the question is to tuning questions nothing answers (QueryAdapter)
    "asked_before",  # the highest ``asked_before`` among its candidates: like an answered tuning question
)


@dataclass(frozen=True)
class Gate:
    """The probability that a question's best candidate answers it; below ``threshold``, nothing does."""

    weights: tuple[float, ...]  # over GATE_FEATURES
    bias: float
    threshold: float = 0.5
    about: dict = field(default_factory=dict, compare=False)  # how it was fitted, its figures

    @classmethod
    def from_json(cls, data: object) -> Gate | None:
        if not isinstance(data, dict):
            return None
        weights = data.get("weights")
        if not isinstance(weights, dict) or list(weights) != list(GATE_FEATURES):
            return None
        try:
            values = tuple(float(weights[name]) for name in GATE_FEATURES)
            bias, threshold = float(data.get("bias", 0.0)), float(data.get("threshold", 0.5))
        except (TypeError, ValueError):
            return None
        if not all(math.isfinite(v) for v in (*values, bias)) or not 0.0 < threshold < 1.0:
            return None
        about = {key: value for key, value in data.items() if key not in ("weights", "bias", "threshold")}
        return cls(values, bias, threshold, about)

    def to_json(self) -> dict:
        return {
            **self.about,
            "weights": dict(zip(GATE_FEATURES, self.weights, strict=True)),
            "bias": self.bias,
            "threshold": self.threshold,
        }

    def probability(self, values: Sequence[float]) -> float:
        z = self.bias + sum(w * x for w, x in zip(self.weights, values, strict=True))
        return 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0

    def answers(self, values: Sequence[float]) -> bool:
        return self.probability(values) >= self.threshold


@dataclass(frozen=True, eq=False)
class Trees:
    """Regression trees over ``FEATURES`` whose leaves add up to a candidate's score.

    Each tree is a list of splits ``(feature, threshold, left, right)``: a candidate whose feature is at
    most the threshold goes left. A child ``>= 0`` is another split of the same tree, a negative one ``~i``
    is the tree's leaf ``i``. Features and thresholds are compared as float32, on onnxruntime and in numpy.
    """

    splits: tuple[tuple[tuple[int, float, int, int], ...], ...]
    leaves: tuple[tuple[float, ...], ...]

    @classmethod
    def from_json(cls, data: object) -> Trees | None:
        """``None`` for anything but a well-formed list of trees over ``FEATURES``."""
        if not isinstance(data, dict) or data.get("features") != list(FEATURES):
            return None
        trees = data.get("trees")
        if not isinstance(trees, list) or not trees:
            return None
        splits, leaves = [], []
        try:
            for tree in trees:
                nodes = tuple((int(f), float(t), int(a), int(b)) for f, t, a, b in tree["splits"])
                values = tuple(float(v) for v in tree["leaves"])
                if not nodes or not values or not all(math.isfinite(v) for v in values):
                    return None
                for feature, threshold, *children in nodes:
                    if not 0 <= feature < len(FEATURES) or math.isnan(threshold):
                        return None
                    if not all(-len(values) <= c < len(nodes) for c in children):
                        return None
                splits.append(nodes)
                leaves.append(values)
        except (KeyError, TypeError, ValueError):
            return None
        trees = cls(tuple(splits), tuple(leaves))
        if not trees._reachable():
            return None
        return trees

    def _reachable(self) -> bool:
        """Every tree is a tree: from its first split, each split is met once and the walk ends in leaves."""
        for nodes in self.splits:
            seen, stack = set(), [0]
            while stack:
                at = stack.pop()
                if at < 0:
                    continue
                if at in seen:
                    return False
                seen.add(at)
                stack += nodes[at][2:]
        return True

    def to_json(self) -> dict:
        return {
            "features": list(FEATURES),
            "trees": [
                {"splits": [list(node) for node in nodes], "leaves": list(values)}
                for nodes, values in zip(self.splits, self.leaves, strict=True)
            ],
        }

    @property
    def _arrays(self) -> tuple[np.ndarray, ...]:
        arrays = self.__dict__.get("_cached_arrays")
        if arrays is None:
            width = max(len(nodes) for nodes in self.splits)
            count = len(self.splits)
            feature = np.zeros((count, width), np.int64)
            threshold = np.zeros((count, width), np.float32)
            left = np.full((count, width), -1, np.int64)
            right = np.full((count, width), -1, np.int64)
            leaf = np.zeros((count, max(len(v) for v in self.leaves)), np.float64)
            for t, (nodes, values) in enumerate(zip(self.splits, self.leaves, strict=True)):
                for n, (f, th, a, b) in enumerate(nodes):
                    feature[t, n], threshold[t, n], left[t, n], right[t, n] = f, th, a, b
                leaf[t, : len(values)] = values
            arrays = (feature, threshold, left, right, leaf)
            object.__setattr__(self, "_cached_arrays", arrays)
        return arrays

    def scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if len(rows) == 0:
            return []
        x = np.asarray(rows, np.float32)
        session = self._session()
        if session is not None:
            return [float(v) for v in session.run(None, {"x": x})[0][:, 0]]
        return [float(v) for v in self.numpy_scores(x)]

    def numpy_scores(self, x: np.ndarray) -> np.ndarray:
        """Every candidate down every tree at once, one level a step."""
        feature, threshold, left, right, leaf = self._arrays
        count, width = feature.shape
        x = np.asarray(x, np.float32)
        base = np.arange(count) * width
        node = np.zeros((len(x), count), np.int64)
        rows = np.arange(len(x))[:, None]
        while True:
            inner = node >= 0
            if not inner.any():
                break
            at = np.where(inner, node, 0) + base
            goes_left = x[rows, feature.flat[at]] <= threshold.flat[at]
            node = np.where(inner, np.where(goes_left, left.flat[at], right.flat[at]), node)
        return leaf[np.arange(count), ~node].sum(1)

    def _session(self) -> object | None:
        if "_cached_session" not in self.__dict__:
            object.__setattr__(self, "_cached_session", _trees_session(self))
        return self.__dict__["_cached_session"]


def _trees_session(trees: Trees) -> object | None:
    """The trees as one ``TreeEnsembleRegressor`` in an onnxruntime session; None without onnxruntime and
    onnx, or when the session cannot be made (numpy then runs them)."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return None
    try:
        import onnxruntime
        from onnx import TensorProto, helper

        attributes: dict[str, list] = {
            key: []
            for key in (
                "nodes_treeids",
                "nodes_nodeids",
                "nodes_featureids",
                "nodes_values",
                "nodes_modes",
                "nodes_truenodeids",
                "nodes_falsenodeids",
                "target_treeids",
                "target_nodeids",
                "target_ids",
                "target_weights",
            )
        }
        for t, (nodes, values) in enumerate(zip(trees.splits, trees.leaves, strict=True)):
            # ONNX numbers a tree's splits and leaves together: the splits first, then leaf i at len(nodes) + i.
            def number(child: int, nodes=nodes) -> int:
                return child if child >= 0 else len(nodes) + ~child

            for n, (feature, threshold, left, right) in enumerate(nodes):
                attributes["nodes_treeids"].append(t)
                attributes["nodes_nodeids"].append(n)
                attributes["nodes_featureids"].append(feature)
                attributes["nodes_values"].append(float(np.float32(threshold)))
                attributes["nodes_modes"].append("BRANCH_LEQ")
                attributes["nodes_truenodeids"].append(number(left))
                attributes["nodes_falsenodeids"].append(number(right))
            for i, value in enumerate(values):
                for key, item in (
                    ("nodes_treeids", t),
                    ("nodes_nodeids", len(nodes) + i),
                    ("nodes_featureids", 0),
                    ("nodes_values", 0.0),
                    ("nodes_modes", "LEAF"),
                    ("nodes_truenodeids", 0),
                    ("nodes_falsenodeids", 0),
                ):
                    attributes[key].append(item)
                attributes["target_treeids"].append(t)
                attributes["target_nodeids"].append(len(nodes) + i)
                attributes["target_ids"].append(0)
                attributes["target_weights"].append(value)
        node = helper.make_node(
            "TreeEnsembleRegressor",
            ["x"],
            ["score"],
            domain="ai.onnx.ml",
            n_targets=1,
            aggregate_function="SUM",
            post_transform="NONE",
            **attributes,
        )
        graph = helper.make_graph(
            [node],
            "ranking_trees",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["candidates", len(FEATURES)])],
            [helper.make_tensor_value_info("score", TensorProto.FLOAT, ["candidates", 1])],
        )
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)],
            ir_version=8,
        )
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.inter_op_num_threads = options.intra_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception:  # an unexpected runtime must not take the ranking down: numpy runs the same trees
        logger.exception("onnxruntime could not run the ranking's trees; numpy runs them")
        return None


@dataclass(frozen=True)
class Ranker:
    """Weights over ``FEATURES``, and the trees when the file has them (as ``bench/train_rulings_ranker.py``
    wrote them): the trees order the candidates, the weights when there are none."""

    weights: tuple[float, ...]
    about: dict  # what the file says of its training: set, penalty, cross-validated figures, date
    gate: Gate | None = None
    trees: Trees | None = field(default=None, compare=False)

    @classmethod
    def from_json(cls, data: dict) -> Ranker | None:
        """``None`` when the file was written for other features (the code changed since its training); a
        gate written for other features is left out alone."""
        weights = data.get("weights")
        if not isinstance(weights, dict) or list(weights) != list(FEATURES):
            return None
        try:
            values = tuple(float(weights[name]) for name in FEATURES)
        except (TypeError, ValueError):
            return None
        if not all(math.isfinite(value) for value in values):
            return None
        about = {key: value for key, value in data.items() if key not in ("weights", "gate", "trees")}
        trees = Trees.from_json(data["trees"]) if "trees" in data else None
        if "trees" in data and trees is None:
            logger.warning("the ranking's trees cannot be read: its linear weights order the candidates")
        return cls(values, about, Gate.from_json(data.get("gate")), trees)

    @classmethod
    def load(cls, path: Path) -> Ranker | None:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            return None
        return cls.from_json(data) if isinstance(data, dict) else None

    def to_json(self) -> dict:
        data = {**self.about, "weights": dict(zip(FEATURES, self.weights, strict=True))}
        if self.gate is not None:
            data["gate"] = self.gate.to_json()
        if self.trees is not None:
            data["trees"] = self.trees.to_json()
        return data

    def scores(self, candidates: Sequence[Candidate]) -> list[float]:
        rows = features(candidates)
        if self.trees is not None:
            return self.trees.scores(rows)
        return [sum(w * x for w, x in zip(self.weights, row, strict=True)) for row in rows]

    def order(self, candidates: Sequence[Candidate]) -> list[tuple[Candidate, float]]:
        """Best first; ties by entry id, so the order is stable."""
        scored = zip(candidates, self.scores(candidates), strict=True)
        return sorted(scored, key=lambda pair: (-pair[1], pair[0].entry_id))
