"""Rare words among many abstracts: does the paper holding a word no other abstract uses
come back in the top 3? (bench/ for the 13.9k; tests/test_retrieval.py checks a slice.)

Usage: python bench/rare_terms.py [DATA_DIR] [N]   (default .data-distractors, 24 words)
Writes bench/results/rare_terms-<dir name>.json: per word, its rank in BM25 and in ours.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import save

import assistant  # noqa: F401
from assistant.evals import rare_word_probes
from assistant.settings import PROJECT_ROOT, Settings


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    settings = Settings()
    settings.data.dir = data_dir
    from assistant.pipeline import Assistant

    app = Assistant(settings)
    rows = []
    for question, paper_id in rare_word_probes(app.index.papers().values(), count):
        ranks = {}
        for method in ("bm25", "hybrid"):
            found = app.retriever.retrieve(question, top_k=20, method=method, apply_floor=False)
            ids = [r.paper.paper_id for r in found]
            ranks[method] = ids.index(paper_id) + 1 if paper_id in ids else None
        rows.append({"question": question, **ranks})
        print(f"{question:40s} bm25 {ranks['bm25']}  ours {ranks['hybrid']}", flush=True)
    in_top3 = {m: sum(1 for r in rows if r[m] is not None and r[m] <= 3) for m in ("bm25", "hybrid")}
    save(f"rare_terms-{data_dir.name.lstrip('.')}", {
        "data_dir": str(data_dir), "papers": len(app.index.papers()), "words": len(rows),
        "in_top3": in_top3, "rows": rows})


if __name__ == "__main__":
    main()
