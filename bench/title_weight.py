"""A lever measured, not shipped: the title with a weight of its own in the ranking.

Usage: python bench/title_weight.py [DATA_DIR]   (default .data-distractors; ~10 s)

Titles already count inside BM25 (a paper's first chunk is searched as "title. abstract") and
through the named-paper boost, but the learned ranker cannot weigh a title match: it is
trained with titles as the questions (bench/train_ranker.py), where such a feature would be a
leak. So it is added here by hand: the shipped ranker's score plus ``WEIGHT`` times the share
of the question's keyword weight the title holds, over the candidates retrieval pools, for a
grid of weights; expected papers alone; dev decides, test is only reported. Writes
bench/results/title_weight.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from common import save
from ranker_features import eval_questions, metrics, rank_of

import assistant  # noqa: F401
from assistant.index import AbstractIndex
from assistant.keywords import keyword_weights
from assistant.ranking import cached_coverage, candidate_features, load_ranker
from assistant.settings import PROJECT_ROOT, Settings

WEIGHTS = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0)


def main() -> None:
    settings = Settings()
    settings.data.dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    index = AbstractIndex(settings)
    papers, stats = index.papers(), index.keyword_stats()
    texts = {pid: p.text for pid, p in papers.items()}
    ranker = load_ranker()
    questions = []
    for item, expected, ids, lexical, cosines in eval_questions(index, settings, papers):
        found = candidate_features(item.question, ids, lexical, cosines, texts, stats)
        weights = keyword_weights(item.question, stats)
        title = np.array([cached_coverage(weights, papers[pid].title) for pid in ids])
        questions.append((item.split, ranker.scores(found), title,
                          {i for i, pid in enumerate(ids) if pid in expected}))
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for weight in WEIGHTS:
        ranks: dict[str, list[int]] = {}
        for split, scores, title, positives in questions:
            order = list(np.argsort(-(scores + weight * title), kind="stable"))
            ranks.setdefault(split, []).append(rank_of(order, positives))
        by_split = figures[str(weight)] = {s: metrics(r) for s, r in sorted(ranks.items())}
        print(f"title weight {weight:3.1f}  " + "  ".join(f"{s} {m}" for s, m in by_split.items()))
    save("title_weight", {"questions": len(questions), "by_weight": figures,
                          "note": "shipped ranker score + weight x title keyword coverage; "
                                  "expected papers alone; dev decides, test only reported"})


if __name__ == "__main__":
    main()
