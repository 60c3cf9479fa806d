"""How well a list's order puts answering papers first: precision at 5 and 10 of the listed
order over the list questions of evals/lists.jsonl with ten or more papers listed, the
labels being the expected papers and the pooled judge's yes (evals/lists-pooled.jsonl), a paper
no label names counted a miss, and again over the judged papers alone ("judged P@k"),
beside the same lists ordered without the rise a title naming the topic gives
(``ListScreen._rank_score``). What is listed is the same either way; only the order moves.

Usage: python bench/list_order.py DATA_DIR   (a store holding the 13.9k, bench/ingest_distractors.py)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common import save

import assistant  # noqa: F401
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, Settings
from assistant.tuning import TITLED_RISE

EVALS = PROJECT_ROOT / "evals"


def labels() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Each list question's answering papers (its expected ones and the judge's yes) and
    its papers judged not to answer (the judge's no, the grep's excluded ones, never an
    expected one)."""
    good: dict[str, set[str]] = {}
    bad: dict[str, set[str]] = {}
    for line in (EVALS / "lists.jsonl").read_text().splitlines():
        row = json.loads(line)
        good.setdefault(row["id"], set()).update(row["expected_sources"])
        bad.setdefault(row["id"], set()).update(row.get("excluded", []))
    for line in (EVALS / "lists-pooled.jsonl").read_text().splitlines():
        row = json.loads(line)
        (good if row["answers"] else bad).setdefault(row["id"], set()).add(row["source"])
    for qid, yes in good.items():  # the hand labels stand (evals/README.md): a control the
        bad[qid] = bad.get(qid, set()) - yes  # judge read as "no" stays expected
    return good, bad


def main() -> int:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    settings.data.dir = Path(sys.argv[1])
    app, (good, bad) = Assistant(settings), labels()
    figures: dict[str, dict[str, list[float]]] = {}
    for line in (EVALS / "lists.jsonl").read_text().splitlines():
        row = json.loads(line)
        papers = app.lists.list_papers(row["question"]).papers
        rise = [(p.score - (TITLED_RISE if p.titled and p.logit is None else 0.0), p.paper.source)
                for p in papers]
        orders = {"shipped": [p.paper.source for p in papers],
                  "no title rise": [source for _, source in sorted(rise, key=lambda t: -t[0])]}
        split = figures.setdefault(row["split"], {})
        yes, no = good[row["id"]], bad.get(row["id"], set())
        for name, order in orders.items():
            for k in (5, 10):
                if len(order) >= 10:  # unjudged papers as misses, and left out
                    hits = sum(source in yes for source in order[:k])
                    split.setdefault(f"{name} P@{k}", []).append(hits / k)
                    judged = [source for source in order[:k] if source in yes or source in no]
                    if judged:
                        split.setdefault(f"{name} judged P@{k}", []).append(hits / len(judged))
    means = {split: {key: round(sum(v) / len(v), 3) for key, v in keys.items()} | {
        "questions": len(keys["shipped P@10"])} for split, keys in figures.items()}
    for split, row in means.items():
        print(split, row)
    save("list_order", {"store": sys.argv[1], "splits": means})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
