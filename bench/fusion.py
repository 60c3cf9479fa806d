"""Measure fusion settings and the relevance floor on the eval questions.

Usage: python bench/fusion.py [DATA_DIR]   (default .data; use .data-distractors for the
seeds hidden among 13,910 older abstracts, built by bench/ingest_distractors.py)

For each fusion setting: paper-level hit@1 and hit@5 over the answerable questions, without
the floor. For the floor: the best candidate's cosine and keyword coverage on answerable
and on `none` questions, so thresholds can be set between them.
Writes bench/results/fusion-<dir name>.json.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from common import save

import assistant  # noqa: F401
from assistant.evals import load_dataset, retrieval_scores
from assistant.retrieval import HybridRetriever
from assistant.settings import PROJECT_ROOT, Settings

SETTINGS = [  # (name, method, fusion, bm25_weight, dense_weight, rrf_k)
    ("bm25 only", "bm25", "rrf", 1.0, 0.0, 60),
    ("dense only", "dense", "rrf", 0.0, 1.0, 60),
    ("rrf 1:1 k=60 (plain)", "hybrid", "rrf", 1.0, 1.0, 60),
    ("rrf 1:1 k=10", "hybrid", "rrf", 1.0, 1.0, 10),
    ("rrf 1:0.5 k=60", "hybrid", "rrf", 1.0, 0.5, 60),
    ("rrf 1:0.5 k=10", "hybrid", "rrf", 1.0, 0.5, 10),
    ("rrf 1:0.7 k=30", "hybrid", "rrf", 1.0, 0.7, 30),
    ("dbsf 1:1", "hybrid", "dbsf", 1.0, 1.0, 60),
    ("dbsf 1:0.7", "hybrid", "dbsf", 1.0, 0.7, 60),
    ("dbsf 1:0.5", "hybrid", "dbsf", 1.0, 0.5, 60),
    ("dbsf 0.7:1", "hybrid", "dbsf", 0.7, 1.0, 60),
]


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data"
    settings = Settings()
    settings.data.dir = data_dir
    from assistant.pipeline import Assistant

    app = Assistant(settings)
    items = load_dataset(PROJECT_ROOT / "evals" / "qa.jsonl")
    answerable = [i for i in items if i.expected_sources]
    out: dict[str, Any] = {"data_dir": str(data_dir), "papers": len(app.index.papers()),
                              "questions": len(answerable), "fusion": {}}
    for name, method, how, wb, wd, k in SETTINGS:
        rs = settings.retrieval.model_copy(
            update={"fusion": how, "bm25_weight": wb, "dense_weight": wd, "rrf_k": k})
        retriever = HybridRetriever(app.index, rs)
        scores = []
        for item in answerable:
            found = retriever.retrieve(item.question, top_k=5, method=method, apply_floor=False)
            scores.append(retrieval_scores([r.paper.source for r in found], item.expected_sources,
                                           item.also_relevant))
        row = {m: round(sum(s[m] for s in scores) / len(scores), 3) for m in ("hit@1", "hit@5", "mrr")}
        out["fusion"][name] = row
        print(f"{name:24s} " + "  ".join(f"{m} {v:.3f}" for m, v in row.items()), flush=True)
    floor = []
    for item in items:
        found = app.retriever.retrieve(item.question, top_k=5, apply_floor=False)
        expected = [r for r in found if r.paper.source in item.expected_sources]
        best = expected[0] if expected else (found[0] if found else None)
        floor.append({
            "id": item.id, "kind": item.kind,
            "dense": best.dense if best else None, "coverage": best.coverage if best else None,
            "max_dense_any": max((r.dense for r in found), default=0.0),
            "max_coverage_any": max((r.coverage for r in found), default=0.0),
        })
    out["floor"] = floor
    save(f"fusion-{data_dir.name.lstrip('.')}", out)
    for row in floor:
        print(f"{row['id']:10s} {row['kind']:10s} dense {row['dense']}  cov {row['coverage']}  "
              f"max_dense {row['max_dense_any']:.3f} max_cov {row['max_coverage_any']:.3f}")


if __name__ == "__main__":
    main()
