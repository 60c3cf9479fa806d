"""Measure fusion settings and the relevance floor on the eval questions.

Usage: python bench/fusion.py [DATA_DIR]   (default .data; use .data-distractors for the
seeds hidden among 13,910 older abstracts, built by bench/ingest_distractors.py)

For each fusion setting: paper-level hit@1 and hit@5 over the answerable questions, without
the floor. For the floor: the best candidate's cosine and keyword coverage on answerable
and on `none` questions, so thresholds can be set between them.
Writes bench/results/fusion-<dir name>.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import assistant  # noqa: F401
from assistant.evals import load_dataset
from assistant.retrieval import HybridRetriever
from assistant.settings import PROJECT_ROOT, Settings

SETTINGS = [  # (name, bm25_weight, dense_weight, rrf_k)
    ("bm25", 1.0, 0.0, 60),
    ("dense", 0.0, 1.0, 60),
    ("rrf k=60 (plain)", 1.0, 1.0, 60),
    ("rrf k=10", 1.0, 1.0, 10),
    ("weighted 1:0.5 k=60", 1.0, 0.5, 60),
    ("weighted 1:0.5 k=10", 1.0, 0.5, 10),
    ("weighted 1:0.7 k=10", 1.0, 0.7, 10),
    ("weighted 1:0.3 k=10", 1.0, 0.3, 10),
    ("weighted 1:0.5 k=5", 1.0, 0.5, 5),
    ("weighted 1:0.7 k=5", 1.0, 0.7, 5),
]


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data"
    settings = Settings()
    settings.data.dir = data_dir
    from assistant.pipeline import Assistant

    app = Assistant(settings)
    items = load_dataset(PROJECT_ROOT / "evals" / "qa.jsonl")
    answerable = [i for i in items if i.expected_sources]
    out: dict[str, object] = {"data_dir": str(data_dir), "papers": len(app.index.papers()),
                              "questions": len(answerable), "fusion": {}}
    for name, wb, wd, k in SETTINGS:
        rs = settings.retrieval.model_copy(update={"bm25_weight": wb, "dense_weight": wd, "rrf_k": k})
        retriever = HybridRetriever(app.index, rs)
        hit1 = hit5 = 0
        for item in answerable:
            found = [r.paper.source for r in retriever.retrieve(item.question, top_k=5, apply_floor=False)]
            hit1 += bool(found) and found[0] in item.expected_sources
            hit5 += any(s in item.expected_sources for s in found)
        out["fusion"][name] = {"hit@1": round(hit1 / len(answerable), 3),
                               "hit@5": round(hit5 / len(answerable), 3)}
        print(f"{name:24s} hit@1 {hit1 / len(answerable):.3f}  hit@5 {hit5 / len(answerable):.3f}",
              flush=True)
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
    results = PROJECT_ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    target = results / f"fusion-{data_dir.name.lstrip('.')}.json"
    target.write_text(json.dumps(out, indent=1) + "\n")
    for row in floor:
        print(f"{row['id']:10s} {row['kind']:10s} dense {row['dense']}  cov {row['coverage']}  "
              f"max_dense {row['max_dense_any']:.3f} max_cov {row['max_coverage_any']:.3f}")
    print("wrote", target)


if __name__ == "__main__":
    main()
