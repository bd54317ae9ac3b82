"""Fit the rulings search's learned ranking (``rulings/rerank.py``) on the tuning half of the judges' queries.

    .venv/bin/python bench/train_rulings_ranker.py [--penalty 10] [--dry-run]

Reads ``bench/rulings_queries_tuning.json`` only: the reported half (``rulings_queries_report.json``) is
what ``bench/bench_rulings.py`` measures, and is never read here. For each query the search answers with the
embedding model on, the candidates it ranked are labelled by the entries the query accepts; the weights
maximise the softmax probability of the accepted ones among each query's candidates, with an L2 penalty on
standardised features. It prints the cross-validated top-1 / top-3 (10 folds, 3 shuffles) of the fit and of
the hand-set blend on the same candidates, and writes ``rulings/ranker.json`` unless ``--dry-run``.

Needs scipy (``requirements-dev.txt``) and the packaged model (``requirements-model.txt``).
"""

from __future__ import annotations

import argparse
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


def blend(candidates) -> np.ndarray:
    """The hand-set blend (rulings.search._blended) on the same candidates, for comparison."""
    from rulings import search

    best = max((c.words_score for c in candidates), default=0.0) or 1.0
    return np.array(
        [
            (c.cosine if c.meaning_rank is not None else search.MEANING_FLOOR)
            + search.WORDS_WEIGHT * c.words_score / best
            + search.COVERAGE_WEIGHT * c.coverage
            for c in candidates
        ]
    )


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
    parser.add_argument("--penalty", type=float, default=10.0, help="L2 penalty (chosen by cross-validation)")
    parser.add_argument("--dry-run", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args()

    from bench_rulings import setup

    setup(seeds=args.seeds, keep_database=False, words_only=False)
    from rulings import rerank, search
    from rulings.models import Entry

    if search.semantic.load() is None:
        print(
            "the embedding model is not installed (requirements-model.txt): nothing to train", file=sys.stderr
        )
        return 1
    # Any ranker makes the search record its candidates; which entries are candidates does not depend on it.
    search._ranker.cache_clear()
    search._ranker = lambda: rerank.Ranker((0.0,) * len(rerank.FEATURES), {})
    url = {entry.pk: entry.get_absolute_url() for entry in Entry.objects.select_related("document")}
    items = json.loads(TUNING.read_text())
    queries, blends, missing = [], [], 0
    for item in items:
        if not item["accept"]:
            continue
        candidates = search.search(query=item["q"], limit=10).candidates
        if not candidates:
            continue  # answered by number or name, or too short for the model: the ranking is not asked
        accept = set(item["accept"])
        y = np.array([url[c.entry_id] in accept for c in candidates])
        missing += not y.any()
        queries.append((np.array(rerank.features(candidates)), y))
        blends.append(blend(candidates))

    print(
        f"{len(queries)} tuning queries ranked by the model's candidates ({missing} without an accepted one)"
    )
    rng = np.random.default_rng(0)
    learned1, learned3 = [], []
    for _ in range(3):
        order = rng.permutation(len(queries))
        scores: list = [None] * len(queries)
        for fold in np.array_split(order, 10):
            held = set(fold.tolist())
            weights = fit([queries[i] for i in order if i not in held], args.penalty)
            for i in fold:
                scores[i] = queries[i][0] @ weights
        top1, top3 = tops(queries, scores)
        learned1.append(top1)
        learned3.append(top3)
    base1, base3 = tops(queries, blends)
    cv1, cv3 = float(np.mean(learned1)), float(np.mean(learned3))
    print(f"  hand-set blend:                     top-1 {base1:.1%}  top-3 {base3:.1%}")
    print(
        f"  learned, 10-fold cross-validation:  top-1 {cv1:.1%}  top-3 {cv3:.1%}  (penalty {args.penalty:g})"
    )
    weights = fit(queries, args.penalty)
    ranker = rerank.Ranker(
        tuple(float(w) for w in weights),
        {
            "trained_on": TUNING.name,
            "queries": len(queries),
            "penalty": args.penalty,
            "cross_validated": {"top1": round(cv1, 4), "top3": round(cv3, 4)},
            "blend": {"top1": round(base1, 4), "top3": round(base3, 4)},
            "date": datetime.date.today().isoformat(),
        },
    )
    for name, weight in sorted(zip(rerank.FEATURES, ranker.weights, strict=True), key=lambda p: -abs(p[1])):
        print(f"    {name:22s} {weight:+.4f}")
    if not args.dry_run:
        OUT.write_text(json.dumps(ranker.to_json(), indent=2) + "\n")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
