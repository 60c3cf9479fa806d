"""Topic trends checked against a grep of the corpus: for three topics, the papers per year
``assistant trends`` counts beside the papers per year whose title or abstract matches the
topic's pattern (case-insensitive) in ../shared/data/neurips-1987-2021, and how far the two
sets of papers agree (the grep counts a passing mention too; trends counts papers it judges
to be on the topic).

Usage: python bench/trends.py [DATA_DIR] [--text]   (default .data-distractors)
With --text the screen reads the files (``lists.TextIndex``: BM25, no dense side), not a store.
Writes bench/results/trends.json.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from common import offline_assistant, save
from lists import TextIndex

import assistant  # noqa: F401
from assistant.corpus import read_paths
from assistant.listing import ListScreen
from assistant.settings import PROJECT_ROOT
from assistant.trends import TrendResult, count

CORPUS = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021"
TOPICS = {
    "graph neural networks": r"graph neural network|\bGNNs?\b",
    "federated learning": r"federated learning",
    "spiking neural networks": r"spiking neural network|spiking network|spiking neuron",
}


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--text" in sys.argv:
        index: Any = TextIndex([PROJECT_ROOT / "seeds", CORPUS])
        source = "text: BM25 over the files, no dense side"
        screen = ListScreen(index)

        def trends(topic: str) -> TrendResult:
            stored = Counter(p.year for p in index.papers().values() if p.year)
            return count(screen.screen(topic), stored)
    else:
        data_dir, app = offline_assistant(Path(args[0]) if args else None)
        index, source, trends = app.index, str(data_dir), app.trends
    corpus = read_paths([CORPUS]).papers
    stored = {p.source: p for p in index.papers().values()}
    rows = {}
    for topic, pattern in TOPICS.items():
        rx = re.compile(pattern, re.I)
        grepped = {p.source for p in corpus if rx.search(f"{p.title} {p.text}")}
        started = time.perf_counter()
        trend = trends(topic)
        seconds = time.perf_counter() - started
        counted = {index.papers()[pid].source for pid in trend.paper_ids}
        grep_years = Counter(stored[s].year for s in grepped if s in stored)
        years = sorted(set(grep_years) | {y for y, n in trend.years.items() if n})
        both = len(grepped & counted)
        rows[topic] = {
            "pattern": pattern, "grep": len(grepped), "trends": trend.total, "both": both,
            "trends_in_grep": round(both / trend.total, 3) if trend.total else None,
            "grep_in_trends": round(both / len(grepped), 3) if grepped else None,
            "screened": trend.screened, "seconds": round(seconds, 2),
            "per_year": {str(y): {"grep": grep_years.get(y, 0), "trends": trend.years.get(y, 0)}
                         for y in years}}
        print(f"{topic}: grep {len(grepped)}, trends {trend.total}, both {both} "
              f"({seconds:.1f} s)", flush=True)
        for y in years:
            print(f"  {y}: grep {grep_years.get(y, 0):4d}  trends {trend.years.get(y, 0):4d}")
    save("trends", {"store": source, "papers": len(stored), "topics": rows})


if __name__ == "__main__":
    main()
