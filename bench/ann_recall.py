"""How often Chroma's HNSW index returns what exact search returns, on a real store.

Usage: python bench/ann_recall.py [DATA_DIR] [SAMPLES]   (default .data-distractors, 500)
For sampled stored vectors: does the vector find itself first (self-hit), and what share of
the exact top 10 (cosine, numpy) does the ANN top 10 hold (recall@10)? Also times queries.
Writes bench/results/ann_recall-<dir>.json.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from common import save

import assistant  # noqa: F401
from assistant.index import HNSW_CONFIG, AbstractIndex
from assistant.settings import PROJECT_ROOT, Settings


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    settings = Settings()
    settings.data.dir = data_dir
    collection = AbstractIndex(settings)._collection
    got = collection.get(include=["embeddings"])
    ids = np.array(got["ids"])
    vectors = np.asarray(got["embeddings"], dtype=np.float32)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(ids), size=min(samples, len(ids)), replace=False)
    self_hits = 0
    recall = []
    elapsed = []
    for i in picks:
        exact = ids[np.argsort(-(vectors @ vectors[i]))[:10]]
        started = time.perf_counter()
        found = collection.query(query_embeddings=[vectors[i].tolist()], n_results=10,
                                 include=[])["ids"][0]
        elapsed.append((time.perf_counter() - started) * 1000)
        self_hits += found[0] == ids[i]
        recall.append(len(set(found) & set(exact)) / 10)
    out = {
        "vectors": len(ids), "samples": len(picks), "hnsw": HNSW_CONFIG,
        "self_hit_rate": round(self_hits / len(picks), 4),
        "recall@10_vs_exact": round(float(np.mean(recall)), 4),
        "query_ms_p50": round(float(np.percentile(elapsed, 50)), 2),
        "query_ms_p95": round(float(np.percentile(elapsed, 95)), 2),
    }
    save(f"ann_recall-{data_dir.name.lstrip('.')}", out)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
