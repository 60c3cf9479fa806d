"""A learned judge for the list screen's uncertain band, measured against the shipped rules:
does a logistic regression over the signals the screen already has decide the band better
than the hand-set thresholds (``listing.ScreenSettings``)?

Usage: python bench/list_combiner.py [DATA_DIR] (default .data-distractors; LISTS_LOGITS=F
keeps the cross-encoder's readings in F between runs, as bench/lists.py does).

Every question of evals/lists.jsonl is pooled once with the shipped settings; the pool's
first READ_FOR_TUNING papers by cheap score (the band's first, as no paper reaches
``keep_at``) are read by the cross-encoder as the screen reads them (``lists.logits_for``;
no reading is dropped for an acronym spelled otherwise, as the screen's are), and a band
paper past them counts as read "no" for the judge. Each band paper's features: keyword coverage, best-chunk
cosine, the cosine with the topic's sense, the logit, its sigmoid, and the logit less the
median logit of the question's ten surest papers (the cross-encoder's scale moves from one
query to another). Labels: the grep's expected papers. The probability threshold is chosen
on dev by leaving one question out (fit on the other 29, score the one left; the figure
reported for the chosen threshold is thus a little optimistic); the model
fitted on all of dev is then scored on test once. The shipped rules are replayed on the same
signals (``lists.simulate``) beside it. Writes bench/results/list_combiner.json.
"""

from __future__ import annotations

import json
import os
import statistics
from pathlib import Path
from typing import Any

import numpy as np
from common import offline_assistant, read_jsonl, save
from lists import QUESTIONS, READ_FOR_TUNING, logits_for, scores, simulate

from assistant.list_records import Candidate
from assistant.listing import ListScreen
from assistant.reranking import CrossEncoder

THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
FEATURES = ("coverage", "cosine", "sense", "logit", "sigmoid", "logit_less_median")
NOT_READ = -12.0  # a band paper past READ_FOR_TUNING: read as a sure "no"


def features(pool: list[Candidate], logits: dict[str, float], band: list[Candidate]
             ) -> np.ndarray:
    """One row of FEATURES for each band paper."""
    surest = [logits[c.paper.paper_id] for c in pool[:10] if c.paper.paper_id in logits]
    median = statistics.median(surest) if surest else 0.0
    rows = []
    for c in band:
        logit = logits.get(c.paper.paper_id, NOT_READ)
        rows.append([c.coverage, c.cosine, c.sense, logit, 1 / (1 + np.exp(-logit)),
                     logit - median])
    return np.array(rows, dtype=float).reshape(len(band), len(FEATURES))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method on standardised features, an L2 penalty of
    ``ridge`` (as scikit-learn's C=1); returns [mean, scale, weights with the intercept
    last] stacked for ``predict``."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], ridge)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        w -= np.linalg.solve(hessian, gradient)
    return np.vstack([np.append(mean, 0.0), np.append(scale, 1.0), w])


def predict(model: np.ndarray, x: np.ndarray) -> np.ndarray:
    mean, scale, w = model[0, :-1], model[1, :-1], model[2]
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    return 1 / (1 + np.exp(-z @ w))


def read_pools(screen: ListScreen, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each question's pool, band, band features and labels, and the shipped screen's
    replay on the same readings."""
    encoder, stats = CrossEncoder(), screen.index.keyword_stats()
    memory_file = Path(os.environ["LISTS_LOGITS"]) if os.environ.get("LISTS_LOGITS") else None
    memory = json.loads(memory_file.read_text()) if memory_file and memory_file.exists() else {}
    s, read = screen.settings, []
    for item in items:
        pool = screen.candidates(item["question"])
        logits = logits_for(encoder, screen.searched_topic(item["question"]), pool, memory,
                            stats)
        band = [c for c in pool if s.drop_below <= c.cheap < s.keep_at][:READ_FOR_TUNING]
        expected = set(item["expected_sources"])
        read.append({"item": item, "sure": [c.paper.source for c in pool if c.cheap >= s.keep_at],
                     "band": [c.paper.source for c in band], "x": features(pool, logits, band),
                     "y": np.array([c.paper.source in expected for c in band], dtype=float),
                     "shipped": simulate(pool, {False: logits, True: logits}, screen)})
        print(f"read {item['id']}", flush=True)
    if memory_file:
        memory_file.write_text(json.dumps(memory))
    return read


def listed(model: np.ndarray, question: dict[str, Any], threshold: float) -> list[str]:
    if not question["band"]:
        return question["sure"]
    p = predict(model, question["x"])
    return question["sure"] + [s for s, pi in zip(question["band"], p, strict=True)
                               if pi >= threshold]


def mean_scores(pairs: list[tuple[float, float]]) -> dict[str, float]:
    return {"recall": round(statistics.fmean(r for r, _ in pairs), 3),
            "precision": round(statistics.fmean(p for _, p in pairs), 3)}


def trained(questions: list[dict[str, Any]]) -> np.ndarray:
    return fit(np.vstack([q["x"] for q in questions]), np.concatenate([q["y"] for q in questions]))


def main() -> None:
    data_dir, app = offline_assistant()
    screen = ListScreen(app.index)
    pools = read_pools(screen, read_jsonl(QUESTIONS))
    dev = [q for q in pools if q["item"]["split"] == "dev"]
    test = [q for q in pools if q["item"]["split"] == "test"]
    left_out = [trained(dev[:i] + dev[i + 1:]) for i in range(len(dev))]
    by_threshold = {t: mean_scores([scores(listed(m, q, t), set(q["item"]["expected_sources"]))
                                    for m, q in zip(left_out, dev, strict=True)])
                    for t in THRESHOLDS}
    chosen = max(THRESHOLDS, key=lambda t: min(by_threshold[t].values()))
    model = trained(dev)

    def of(split: list[dict[str, Any]], lists: Any) -> dict[str, float]:
        return mean_scores([scores(lists(q), set(q["item"]["expected_sources"])) for q in split])

    figures = {
        "store": str(data_dir), "features": FEATURES, "read_for_tuning": READ_FOR_TUNING,
        "dev_left_one_out_by_threshold": {str(t): v for t, v in by_threshold.items()},
        "threshold": chosen,
        "learned": {"dev_fitted": of(dev, lambda q: listed(model, q, chosen)),
                    "test": of(test, lambda q: listed(model, q, chosen))},
        "shipped_replayed": {"dev": of(dev, lambda q: q["shipped"]),
                             "test": of(test, lambda q: q["shipped"])},
        "weights_standardised": dict(zip([*FEATURES, "intercept"],
                                         np.round(model[2], 3).tolist(), strict=True)),
    }
    print(json.dumps({k: v for k, v in figures.items() if k != "store"}, indent=1))
    save("list_combiner", figures)


if __name__ == "__main__":
    main()
