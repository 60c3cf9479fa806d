"""A lever that lost: rerank the learned ranker's top 5 by best-sentence similarity.

Usage: python bench/sentence_rerank.py [DATA_DIR]   (default .data-distractors)

For each answerable eval question, the top 5 papers get score = log(ranker probability) +
alpha × (the best cosine between the question and one of the paper's sentences, MiniLM).
Tuned on dev, reported on test; writes bench/results/sentence_rerank.json. Measured: alpha
5–10 gained one dev question and lost one test question, so the rerank is not used (and it
would embed ~40 sentences per question).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
from common import save

import assistant  # noqa: F401
from assistant.corpus import split_sentences
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, Settings

ALPHAS = (0, 2, 5, 10, 20, 40)


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    settings = Settings()
    settings.data.dir = data_dir
    app = Assistant(settings)
    papers = app.index.papers()
    by_source = {p.source: pid for pid, p in papers.items()}
    rows = []
    for item in load_dataset(DEFAULT_DATASET):
        if not item.answerable or not set(item.expected_sources) <= set(by_source):
            continue
        fused = app.retriever._fused(item.question, "hybrid").fused
        top = sorted(fused, key=lambda p: -fused[p])[:5]
        question = app.index.query_vector(item.question)
        best = []
        for pid in top:
            vectors = app.index.embed_model.embed(split_sentences(papers[pid].text))
            best.append(float((vectors @ question).max()))
        rows.append({"id": item.id, "split": item.split, "top": top,
                     "log_p": [math.log(max(fused[p], 1e-9)) for p in top], "best_sentence": best,
                     "expected": [by_source[s] for s in item.expected_sources]})
    figures: dict[str, dict[str, float]] = {}
    for alpha in ALPHAS:
        for split in ("dev", "test"):
            chosen = [r for r in rows if r["split"] == split]
            hits = sum(r["top"][int(np.argmax(np.array(r["log_p"]) + alpha * np.array(r["best_sentence"])))]
                       in r["expected"] for r in chosen)
            figures.setdefault(f"alpha={alpha}", {})[f"{split}_hit@1"] = round(hits / len(chosen), 3)
        print(alpha, figures[f"alpha={alpha}"], flush=True)
    save("sentence_rerank", {"data_dir": str(data_dir), "questions": len(rows), "hit@1": figures})


if __name__ == "__main__":
    main()
