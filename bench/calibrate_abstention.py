"""Choose the abstention threshold on the dev split only, and write it into ranker.json.

Usage: python bench/calibrate_abstention.py [SEEDS_DIR] [DISTRACTORS_DIR]
        (default .data and .data-distractors, both already ingested)

For every dev question, on the seeds alone and among the distractors: the learned ranker's
score of its best paper (the evidence), and whether the relevance floor alone would answer.
A question is refused when the floor refuses, or when its evidence is below the threshold and
its first paper lacks some keyword of the question. The threshold is the highest one that
wrongly refuses at most MAX_WRONG of the dev answerable questions in each index, placed
halfway to the next score below; the test split is never read. Writes the threshold to
assistant/ranker.json and every dev score to bench/results/abstention.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common import save

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.evals.scoring import indexed_items
from assistant.pipeline import Assistant
from assistant.ranking import WEIGHTS_FILE
from assistant.retrieval import FULL_MATCH
from assistant.settings import PROJECT_ROOT, Settings

MAX_WRONG = 0.02  # the ceiling on wrong refusals


def dev_scores(data_dir: Path) -> list[dict[str, object]]:
    settings = Settings()
    settings.data.dir = data_dir
    app = Assistant(settings)
    dev = [i for i in indexed_items(app, load_dataset(DEFAULT_DATASET)) if i.split == "dev"]
    rows = []
    for item in dev:
        found = app.retrieve(item.question)
        rows.append({"id": item.id, "answerable": item.answerable,
                     "evidence": app.retriever.evidence(item.question),
                     "floor_answers": bool(found),
                     "full_match": bool(found) and found[0].coverage >= FULL_MATCH})
    return rows


def refused(row: dict[str, object], threshold: float) -> bool:
    evidence = row["evidence"]
    assert isinstance(evidence, float)
    return not row["floor_answers"] or (evidence < threshold and not row["full_match"])


def main() -> None:
    dirs = [Path(a) for a in sys.argv[1:3]] or [PROJECT_ROOT / ".data",
                                               PROJECT_ROOT / ".data-distractors"]
    weights = PROJECT_ROOT / "assistant" / WEIGHTS_FILE
    data = json.loads(weights.read_text())
    if data.get("abstain_below") is not None:  # score with the floor alone
        data["abstain_below"] = None
        weights.write_text(json.dumps(data, indent=1) + "\n")
    sections = {d.name: dev_scores(d) for d in dirs}
    candidates = sorted({float(r["evidence"]) for rows in sections.values() for r in rows  # type: ignore[arg-type]
                         if r["evidence"] is not None})
    best = candidates[0]
    for value in candidates:
        ok = all(sum(refused(r, value) for r in rows if r["answerable"])
                 <= MAX_WRONG * sum(bool(r["answerable"]) for r in rows)
                 for rows in sections.values())
        if not ok:
            break
        best = value
    below = [v for v in candidates if v < best]
    threshold = round((best + below[-1]) / 2, 3) if below else best
    figures = {}
    for name, rows in sections.items():
        answerable = [r for r in rows if r["answerable"]]
        none = [r for r in rows if not r["answerable"]]
        figures[name] = {
            "dev_answerable": len(answerable), "dev_none": len(none),
            "wrong_refusals": sum(refused(r, threshold) for r in answerable),
            "none_refused": sum(refused(r, threshold) for r in none),
            "none_refused_by_floor_alone": sum(not r["floor_answers"] for r in none),
        }
        print(name, figures[name])
    data["abstain_below"] = threshold
    weights.write_text(json.dumps(data, indent=1) + "\n")
    print(f"abstain_below = {threshold}")
    save("abstention", {"threshold": threshold, "max_wrong": MAX_WRONG, "sections": figures,
                        "scores": sections})


if __name__ == "__main__":
    main()
