"""Where a list question's expected papers are lost in the screen (``listing.ListScreen``):
each miss classed by the stage that lost it, so the next change aims at the largest class.

Usage: python bench/list_misses.py [DATA_DIR] [--split dev|test] (default .data-distractors,
dev: the split that may be tuned on). For every question of evals/lists.jsonl in the split,
every expected paper the shipped screen does not list is one of:
``not_pooled`` (neither BM25's nor the dense search's candidates), ``dropped`` (pooled, its
cheap score under ``drop_below``, never read), ``unread`` (in the uncertain band past the
reading budget, left out on its cheap score) or ``read`` (read by the cross-encoder and
turned down). And, for a rescue of the dropped by the topic's sense: how many dropped papers
stand at each sense cosine, and how many of those are expected.
Writes bench/results/list_misses-SPLIT.json.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from common import offline_assistant, read_jsonl, save

from assistant.list_records import Candidate
from assistant.listing import ListScreen
from assistant.settings import PROJECT_ROOT

QUESTIONS = PROJECT_ROOT / "evals" / "lists.jsonl"
SENSE_STEPS = (0.55, 0.6, 0.65, 0.7)


def stage(candidate: Candidate | None, drop_below: float) -> str:
    """The stage of the screen that lost an expected paper (``candidate``: its pooled
    signals after the screen, None when it was not pooled)."""
    if candidate is None:
        return "not_pooled"
    if candidate.cheap < drop_below:
        return "dropped"
    return "read" if candidate.reader else "unread"


def misses(screen: ListScreen, item: dict[str, Any], by_source: dict[str, str]
           ) -> tuple[dict[str, Any], list[tuple[float, bool]]]:
    """One question's misses by stage (with each missed paper's signals), and each dropped
    paper's sense cosine and whether it is expected."""
    expected = {by_source[s] for s in item["expected_sources"] if s in by_source}
    result = screen.screen(item["question"])
    listed = {p.paper.paper_id for p in result.papers}
    pooled = {c.paper.paper_id: c for c in result.candidates}
    drop_below = screen.settings.drop_below
    papers = screen.index.papers()
    lost = []
    for pid in sorted(expected - listed):
        candidate = pooled.get(pid)
        signals = {} if candidate is None else {
            "cheap": round(candidate.cheap, 3), "sense": round(candidate.sense, 3),
            "logit": candidate.logit}
        lost.append({"source": papers[pid].source, "stage": stage(candidate, drop_below),
                     **signals})
    dropped = [(c.sense, pid in expected) for pid, c in pooled.items() if c.cheap < drop_below]
    return ({"id": item["id"], "expected": len(expected), "listed": len(listed),
             "stages": dict(Counter(m["stage"] for m in lost)), "missed": lost}, dropped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", nargs="?", type=Path,
                        default=PROJECT_ROOT / ".data-distractors")
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args()
    _, app = offline_assistant(args.data_dir)
    screen = ListScreen(app.index)
    by_source = {p.source: pid for pid, p in app.index.papers().items()}
    rows, dropped = [], []
    for item in read_jsonl(QUESTIONS):
        if item["split"] == args.split:
            row, its_dropped = misses(screen, item, by_source)
            rows.append(row)
            dropped += its_dropped
            print(row["id"], row["stages"], flush=True)
    stages = sum((Counter(r["stages"]) for r in rows), Counter())
    by_sense = {str(t): {"dropped": sum(s >= t for s, _ in dropped),
                         "expected": sum(s >= t and e for s, e in dropped)}
                for t in SENSE_STEPS}
    print("misses by stage:", dict(stages), "· dropped by sense:", by_sense)
    save(f"list_misses-{args.split}", {"store": str(args.data_dir), "split": args.split,
                                       "missed": sum(stages.values()), "stages": dict(stages),
                                       "dropped_by_sense": by_sense, "rows": rows})


if __name__ == "__main__":
    main()
