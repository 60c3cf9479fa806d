"""List questions among the 13.9k: recall and precision of the exhaustive list mode against
the answer's top 5 and top 20, seconds per list question, and the screen's thresholds chosen
on the dev split (evals/lists.jsonl; how it was labelled: evals/README.md).

Usage: python bench/lists.py [DATA_DIR] [--tune]   (default .data-distractors)
With --tune, every dev question's pool is read once (its cheap signals, and the
cross-encoder's logit for its first READ_FOR_TUNING papers, the question and the topic), the
grid below is scored on dev alone, and the best settings printed (copy them into
``listing.ScreenSettings``). Then, with the shipped settings, every question is screened,
timed with the cross-encoder's memory emptied first, and scored per split.
Writes bench/results/lists.json.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from common import offline_assistant, read_jsonl, save

import assistant  # noqa: F401
from assistant import reranking
from assistant.listing import Candidate, ListScreen, ScreenSettings, topic_of
from assistant.reranking import CrossEncoder, passage_of
from assistant.settings import PROJECT_ROOT

QUESTIONS = PROJECT_ROOT / "evals" / "lists.jsonl"
READ_FOR_TUNING = 120  # candidates per question whose logits the tuning reads
GRID = {
    "dense_weight": [0.0, 0.5, 1.0, 2.0],
    "keep_at": [0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.6, 9.0],
    "drop_below": [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "reread_keeps": [-8.0, -6.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
    "reread_question": [True, False],
}


def scores(found: list[str], expected: set[str]) -> tuple[float, float]:
    """(recall, precision) of the listed locators; an empty list has precision 1."""
    hits = len(set(found) & expected)
    return hits / len(expected), (hits / len(found) if found else 1.0)


def simulate(pool: list[Candidate], logits: dict[bool, dict[str, float]],
             s: ScreenSettings) -> list[str]:
    """The locators ``ListScreen.screen`` keeps under ``s``, from cached signals."""
    cheap = sorted(((c.coverage + s.dense_weight * c.cosine, c) for c in pool),
                   key=lambda x: -x[0])
    band = [(v, c) for v, c in cheap if s.drop_below <= v < s.keep_at]
    read = band[:s.max_reread]
    middle = (s.keep_at + s.drop_below) / 2
    kept = [c for v, c in cheap if v >= s.keep_at]
    for v, c in read:
        logit = logits[s.reread_question].get(c.paper.paper_id)
        kept.append(c) if (v >= middle if logit is None else logit >= s.reread_keeps) else None
    kept += [c for v, c in band[s.max_reread:] if v >= middle]
    return [c.paper.source for c in kept]


def tune(screen: ListScreen, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The grid's best settings on ``items`` (dev): highest mean F1, then fewest rereads."""
    encoder = CrossEncoder()
    cached = []
    for item in items:
        pool = screen.candidates(item["question"])
        first = sorted(pool, key=lambda c: -(c.coverage + c.cosine))[:READ_FOR_TUNING]
        logits: dict[bool, dict[str, float]] = {}
        for as_question in (True, False):
            text = item["question"] if as_question else topic_of(item["question"])
            values = encoder.scores(text, [passage_of(c.paper) for c in first])
            logits[as_question] = {c.paper.paper_id: float(x)
                                   for c, x in zip(first, values.tolist(), strict=True)}
        cached.append((item, pool, logits))
        print(f"read {item['id']}: {len(pool)} pooled", flush=True)
    best: tuple[float, float, dict[str, Any]] | None = None
    for values in itertools.product(*GRID.values()):
        chosen = dict(zip(GRID, values, strict=True))
        if chosen["drop_below"] >= chosen["keep_at"]:
            continue
        s = dataclasses.replace(screen.settings, **chosen)
        f1s, reads = [], 0
        for item, pool, logits in cached:
            found = simulate(pool, logits, s)
            recall, precision = scores(found, set(item["expected_sources"]))
            f1s.append(2 * recall * precision / (recall + precision) if recall + precision else 0)
            reads += sum(1 for c in pool if s.drop_below <= c.coverage + s.dense_weight * c.cosine
                         < s.keep_at)
        key = (statistics.fmean(f1s), -reads)
        if best is None or key > best[:2]:
            best = (key[0], key[1], chosen)
    assert best is not None
    print(f"best on dev: mean F1 {best[0]:.3f} with {best[2]}")
    return {"mean_f1_dev": round(best[0], 4), "settings": best[2]}


def measure(app: Any, screen: ListScreen, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for item in items:
        expected = set(item["expected_sources"])
        reranking._SCORED.clear()  # a fresh question pays for its reading
        started = time.perf_counter()
        result = screen.screen(item["question"])
        seconds = time.perf_counter() - started
        listed = [p.paper.source for p in result.papers]
        row: dict[str, Any] = {"id": item["id"], "split": item["split"],
                               "expected": len(expected), "listed": len(listed),
                               "screened": result.screened, "reread": result.reread,
                               "seconds": round(seconds, 2)}
        row["recall"], row["precision"] = (round(x, 3) for x in scores(listed, expected))
        for k in (5, 20):
            top = [f.paper.source for f in app.retrieve(item["question"], top_k=k)]
            row[f"top{k}_recall"], row[f"top{k}_precision"] = (
                round(x, 3) for x in scores(top, expected))
        row["missed"] = sorted(expected - set(listed))
        row["extra"] = sorted(set(listed) - expected)
        rows.append(row)
        print(f"{item['id']} {item['split']:4s} R {row['recall']:.2f} P {row['precision']:.2f} "
              f"({row['listed']} listed / {row['expected']} expected, {row['reread']} reread, "
              f"{seconds:.2f} s) top5 R {row['top5_recall']:.2f} top20 R "
              f"{row['top20_recall']:.2f}", flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"questions": len(rows)}
    for key in ("recall", "precision", "top5_recall", "top5_precision", "top20_recall",
                "top20_precision", "seconds"):
        out[key] = round(statistics.fmean(r[key] for r in rows), 3)
    out["seconds_max"] = max(r["seconds"] for r in rows)
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    data_dir, app = offline_assistant(Path(args[0]) if args else None)
    items = read_jsonl(QUESTIONS)
    screen = ListScreen(app.index)
    tuned = tune(screen, [i for i in items if i["split"] == "dev"]) if "--tune" in sys.argv else None
    screen.screen("warm up: which papers use neural networks?")  # models loaded once
    rows = measure(app, screen, items)
    splits = {split: summary([r for r in rows if r["split"] == split]) for split in ("dev", "test")}
    for split, figures in splits.items():
        print(split, figures)
    save("lists", {"data_dir": str(data_dir), "papers": len(app.index.papers()),
                   "settings": dataclasses.asdict(screen.settings), "tuned": tuned,
                   "splits": splits, "rows": rows})


if __name__ == "__main__":
    main()
