"""Seconds a broad trend takes, each topic from cold caches (the abstracts' terms, the
cross-encoder's memory and the word sequences emptied first, as in a fresh `assistant
trends`), in one process whose models are loaded once: CPU seconds (this process's, the
onnxruntime threads included) beside wall seconds, for on a shared machine the wall time
grows with the load average. With each topic its count, screened papers and a hash of its
counted ids, so that a change meant to save time shows it changed no count.

Usage: python bench/trend_timings.py [DATA_DIR] [--label NAME]   (default .data-distractors)
Writes bench/results/trend_timings.json: the figures under NAME (default "latest"), beside
those of earlier labels (e.g. "before" and "after" a change).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

from common import RESULTS, offline_assistant, save

from assistant import ranking, reranking, word_runs

TOPICS = ["reinforcement learning", "graph neural networks", "federated learning",
          "spiking neural networks", "neural networks", "capsule networks",
          "knowledge distillation"]


def main() -> None:
    args = sys.argv[1:]
    label = args[args.index("--label") + 1] if "--label" in args else "latest"
    paths = [a for a in args if not a.startswith("--") and a != label]
    data_dir, app = offline_assistant(Path(paths[0]) if paths else None)
    app.trends("lidar")  # the models loaded, not timed
    rows = {}
    for topic in TOPICS:
        ranking.text_terms.cache_clear()
        word_runs.term_sequence.cache_clear()
        word_runs.text_sequences.cache_clear()
        reranking._SCORED.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        trend = app.trends(topic)
        rows[topic] = {
            "counted": trend.total, "screened": trend.screened, "apart": trend.apart,
            "left_out_unread": trend.unread_left_out,
            "ids": hashlib.sha1(",".join(sorted(trend.paper_ids)).encode()).hexdigest()[:12],
            "cpu_seconds": round(time.process_time() - cpu, 2),
            "wall_seconds": round(time.perf_counter() - wall, 2)}
        print(topic, rows[topic], flush=True)
    path = RESULTS / "trend_timings.json"
    runs = json.loads(path.read_text()) if path.exists() else {}
    runs[label] = {"store": str(data_dir), "topics": rows}
    save("trend_timings", runs)


if __name__ == "__main__":
    main()
