"""A diagnostic, never a lever: how far can the learned ranker's weights go on these features?

Usage: python bench/ranker_ceiling.py [DATA_DIR]   (default .data-distractors; about 10 s)

The linear ranker (assistant/ranking.py) is fitted here on the eval's own answerable questions,
which no shipped weight may ever be: on dev, and on test, each scored on both splits. If even
weights fitted on dev (by the ranker's listwise loss, or by a random search for dev hit@1
itself) do little better on dev than the shipped ones (trained on title pairs), then no other
training data for these features can help: a gain needs a new signal. Nothing is
written but bench/results/ranker_ceiling.json. hit@1 is the ranker's own first paper among its
candidates (before the named-paper boost, the rare-term pin and the cross-encoder), a judged
also-relevant paper counting; a question whose right paper is not among the candidates is a
miss.
"""

from __future__ import annotations

import numpy as np
from common import offline_assistant, save

import assistant  # noqa: F401
import assistant.retrieval as retrieval
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.evals.scoring import indexed_items
from assistant.pipeline import Assistant
from assistant.ranking import FEATURES, Candidates, load_ranker, train

L2 = (1e-3, 1e-2, 1e-1)
SEARCHED = 20_000  # random weight vectors tried for dev hit@1 itself (the loss is listwise)
SEED = 0

Group = tuple[np.ndarray, int, list[bool]]  # features, first right candidate, which are right


def eval_groups(app: Assistant) -> tuple[dict[str, list[Group]], dict[str, int]]:
    """Each answerable question's candidates as the ranker sees them, by split; and how many
    questions each split has (those whose right paper is not among the candidates too)."""
    seen: dict[str, Candidates] = {}
    features = retrieval.candidate_features

    def kept(question: str, *args: object, **kwargs: object) -> Candidates:
        seen[question] = features(question, *args, **kwargs)  # type: ignore[arg-type]
        return seen[question]

    retrieval.candidate_features = kept  # type: ignore[assignment]
    papers = app.index.papers()
    groups: dict[str, list[Group]] = {"dev": [], "test": []}
    totals = {"dev": 0, "test": 0}
    for item in indexed_items(app, load_dataset(DEFAULT_DATASET)):
        if not item.answerable:
            continue
        totals[item.split] += 1
        app.retriever.abstention_signals(item.question)  # runs the ranker once
        found = seen[item.question]
        right = set(item.expected_sources) | set(item.also_relevant)
        is_right = [papers[pid].source in right for pid in found.paper_ids]
        if any(is_right):
            groups[item.split].append((found.features, is_right.index(True), is_right))
    retrieval.candidate_features = features
    return groups, totals


def hit1(weights: np.ndarray, groups: list[Group], total: int) -> float:
    return sum(right[int(np.argmax(x @ weights))] for x, _, right in groups) / total


def searched_on_dev(start: np.ndarray, groups: list[Group], total: int) -> np.ndarray:
    """The weights, among SEARCHED random steps around ``start``, with the best dev hit@1
    in-sample: the listwise loss is not hit@1, so this bounds what any weighting can do."""
    rng = np.random.default_rng(SEED)
    start = start / np.linalg.norm(start)
    best, best_hit = start, hit1(start, groups, total)
    for _ in range(SEARCHED):
        weights = start + rng.normal(scale=rng.choice([0.05, 0.2, 0.5, 1.0]), size=len(start))
        hit = hit1(weights, groups, total)
        if hit > best_hit:
            best, best_hit = weights, hit
    return best


def main() -> None:
    data_dir, app = offline_assistant()
    groups, totals = eval_groups(app)
    fitted = {"shipped (title pairs)": load_ranker().weights}
    for split in ("dev", "test"):
        for l2 in L2:
            fitted[f"fitted on {split}, l2 {l2:g}"] = train(
                [(x, positive) for x, positive, _ in groups[split]], l2=l2).weights
    fitted["searched for dev hit@1"] = searched_on_dev(fitted["shipped (title pairs)"],
                                                       groups["dev"], totals["dev"])
    rows = {}
    for name, weights in fitted.items():
        rows[name] = {"dev_hit@1": round(hit1(weights, groups["dev"], totals["dev"]), 3),
                      "test_hit@1": round(hit1(weights, groups["test"], totals["test"]), 3),
                      "weights": dict(zip(FEATURES, np.round(weights, 3).tolist(), strict=True))}
        print(f"{name:24s} dev {rows[name]['dev_hit@1']:.3f}  test {rows[name]['test_hit@1']:.3f}")
    save("ranker_ceiling", {"data_dir": data_dir.name, "questions": totals,
                            "right_paper_not_a_candidate": {s: totals[s] - len(groups[s])
                                                            for s in totals},
                            "ranker_order": rows})


if __name__ == "__main__":
    main()
