"""Lever: the cross-encoder reads the question with each candidate sentence of an offline
answer (issue 9: key-fact recall 0.859 among the 13,847, target 0.92).

The extractive composer scores a sentence by MiniLM cosine and keyword overlap, question and
sentence read apart; the cross-encoder (ms-marco-MiniLM-L-12-v2, the pinned file reranking
already uses) reads them together. Each variant adds ``weight`` × sigmoid(logit) to the
``read`` best sentences' scores (the others get the lowest reading, so being read lifts none)
and reruns every answerable eval question through the shipped pipeline, in the seeds' store
and among the distractors. Chosen on dev; test only reported.

Run: ``python bench/sentence_reading.py [SEEDS_DIR] [DISTRACTORS_DIR]`` (defaults .data and
.data-distractors, as ``assistant eval`` builds them); writes
``bench/results/sentence-reading.json``. About 5–25 s a variant.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from common import offline_assistant, save

from assistant import extractive, reranking
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.evals.scoring import evaluate, indexed_items
from assistant.extractive import ScoredSentence
from assistant.reranking import CrossEncoder
from assistant.settings import PROJECT_ROOT

VARIANTS = [(0.0, 0), (0.25, 12), (0.5, 12), (1.0, 12), (0.5, 6), (0.5, 24)]
FIGURES = ("key_fact_recall", "citation_precision", "citation_recall")
shipped_scores = extractive.score_sentences


def read_sentences(weight: float, read: int) -> Callable[..., list[ScoredSentence]]:
    """``extractive.score_sentences`` with the cross-encoder's reading of the ``read`` best
    sentences added, ``weight`` × sigmoid(logit)."""
    def scores(question: str, *args: object) -> list[ScoredSentence]:
        scored = shipped_scores(question, *args)  # type: ignore[arg-type]
        best = sorted(range(len(scored)), key=lambda i: -scored[i].score)[:read]
        if not weight or not best:
            return scored
        logits = CrossEncoder().scores(question, [scored[i].text for i in best])
        readings = dict(zip(best, (1 / (1 + np.exp(-logits))).tolist(), strict=True))
        floor = min(readings.values())
        return [replace(s, score=s.score + weight * readings.get(i, floor))
                for i, s in enumerate(scored)]
    return scores


def main() -> None:
    dirs = [Path(a) for a in sys.argv[1:3]] or [PROJECT_ROOT / ".data",
                                                 PROJECT_ROOT / ".data-distractors"]
    items = [i for i in load_dataset(DEFAULT_DATASET) if i.answerable]
    results: dict[str, object] = {"load_average": os.getloadavg()[0], "variants": []}
    for data_dir in dirs:
        _, app = offline_assistant(data_dir)
        asked = indexed_items(app, items)
        before: dict[str, float | None] = {}
        for weight, read in VARIANTS:
            extractive.score_sentences = read_sentences(weight, read)
            reranking._SCORED.clear()  # each variant reads as a new process would
            started = time.perf_counter()
            run = evaluate(app, asked, baselines=False)
            seconds = time.perf_counter() - started
            facts = {r.id: r.key_fact_recall for r in run.rows}
            if not weight:
                before = facts
            moved = {"better": sorted(k for k, v in facts.items()
                                      if v is not None and v > (before.get(k) or 0)),
                     "worse": sorted(k for k, v in facts.items()
                                     if v is not None and v < (before.get(k) or 0))}
            row = {"store": data_dir.name, "weight": weight, "read": read,
                   "seconds": round(seconds, 1),
                   "latency_ms_p50": run.metrics["latency_ms_p50"],
                   "latency_ms_p95": run.metrics["latency_ms_p95"],
                   **{split: {f: run.metrics["by_split"][split][f] for f in FIGURES}
                      for split in ("dev", "test")},
                   "key_facts_moved": moved}
            results["variants"].append(row)  # type: ignore[union-attr]
            print(row, flush=True)
    save("sentence-reading", results)


if __name__ == "__main__":
    main()
