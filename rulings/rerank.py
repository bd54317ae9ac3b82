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
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass(frozen=True)
class Ranker:
    """Weights over ``FEATURES`` (as ``bench/train_rulings_ranker.py`` wrote them)."""

    weights: tuple[float, ...]
    about: dict  # what the file says of its training: set, penalty, cross-validated figures, date
    gate: Gate | None = None

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
        about = {key: value for key, value in data.items() if key not in ("weights", "gate")}
        return cls(values, about, Gate.from_json(data.get("gate")))

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
        return data

    def scores(self, candidates: Sequence[Candidate]) -> list[float]:
        return [sum(w * x for w, x in zip(self.weights, row, strict=True)) for row in features(candidates)]

    def order(self, candidates: Sequence[Candidate]) -> list[tuple[Candidate, float]]:
        """Best first; ties by entry id, so the order is stable."""
        scored = zip(candidates, self.scores(candidates), strict=True)
        return sorted(scored, key=lambda pair: (-pair[1], pair[0].entry_id))
