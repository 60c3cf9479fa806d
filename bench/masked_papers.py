"""Is a question refused when the paper it was written from is not in the store? The blind
questions of bench/key_facts_questions.jsonl asked twice among the 13.9k: as stored
(answerable) and with their paper taken out of both rankings (a near-domain question no
abstract answers: its neighbours are on topic, none says what it asks).

Usage: python bench/masked_papers.py [DATA_DIR] [--fresh]   (default .data-distractors; ~5 min)

``--fresh`` also asks the 638 questions of bench/ranker_questions.jsonl (set ``fresh``, ~10
more minutes): other helpers wrote them later, from another random draw of papers, and no
constant was chosen on them, so they check the refusals on questions they never saw.

The paper is masked, not deleted: it leaves BM25's scores and the dense hits, so it is never
a candidate, but the store's keyword statistics and name look-ups still hold it (a question
naming the paper's own method is not refused for an unknown name, as it would be in a store
without it). A review's variant that also took it out of the document frequencies, the
proper words, the phrase look-up and ``papers()`` moved the evidence by up to 0.41 and
refused exactly the same questions.

For each question and condition it records whether the shipped answer refuses, which notices
it carries (unsure; the names of the question no cited abstract mentions), the ranker's first
paper (floor and reread off) and its probability, and what each refusal reads, as
bench/calibrate_abstention.py records it for the eval's dev questions (the ranker's
evidence, the nearest papers' cosine, the cross-encoder's best logit of the first 2…).
The same refusals replayed without the joint one (``ranking.JointReading``) are reported
beside the shipped ones. The tuning rows also calibrate that refusal's bound
(bench/calibrate_abstention.py reads them); the held-out rows are only reported.
Writes bench/results/masked_papers.json (figures per set and kind, and every row).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from calibrate_abstention import refused, signals
from common import offline_assistant, read_jsonl, save
from key_facts import QUESTIONS, summary
from question_ranker import QUESTIONS as RANKER_QUESTIONS

import assistant  # noqa: F401
from assistant import retrieval
from assistant.index import AbstractIndex
from assistant.pipeline import Assistant
from assistant.ranking import load_ranker


@contextmanager
def masked(index: AbstractIndex, paper_ids: set[str]) -> Iterator[None]:
    """The papers ``paper_ids`` (ids, not sources) out of the BM25 scores and the dense hits
    of ``index``."""
    bm25, dense = index.bm25_paper_scores, index.search_dense

    def bm25_without(*args: Any, **kwargs: Any) -> dict[str, float]:
        return {p: s for p, s in bm25(*args, **kwargs).items() if p not in paper_ids}

    def dense_without(*args: Any, **kwargs: Any) -> list[Any]:
        return [h for h in dense(*args, **kwargs) if h.paper_id not in paper_ids]

    with mock.patch.multiple(index, bm25_paper_scores=bm25_without, search_dense=dense_without):
        yield


@contextmanager
def floor_only(app: Assistant) -> Iterator[None]:
    """``app`` answering as the floor alone does (no thresholds, no reread): how the
    calibration reads a question."""
    ranker = dataclasses.replace(load_ranker(), abstain_below=None, neighbourhood=None,
                                 cross_encoder_below=None, joint_reading=None)
    with (mock.patch.object(retrieval, "load_ranker", lambda: ranker),
          mock.patch.object(app.settings.retrieval, "rerank", False)):
        yield


def asked(app: Assistant, question: str) -> dict[str, Any]:
    """Whether the shipped answer refuses ``question``, which notices it carries (unsure, and
    the names no cited abstract mentions), and what each refusal reads
    (``calibrate_abstention.signals``, as it reads them: no thresholds, no reread)."""
    answer = app.ask(question)
    with floor_only(app):
        read = signals(app, question)
        ranked = app.retriever._ranked(question, 1, "hybrid", False, None).results
    # the ranker's first paper with the floor off too (a floor refusal's first counts in
    # ``wrongly_refused_first_paper_right``); where the floor answers, signals' own
    return {"refused": not answer.sources, "unsure": answer.unsure,
            "unmentioned": answer.unmentioned, **read,
            "first": ranked[0].paper.source if ranked else None,
            "p_first": ranked[0].score if ranked else None}


def marked_unsure(rows: list[dict[str, Any]], expected: dict[str, list[str]],
                  noticed: Callable[[dict[str, Any]], bool] = lambda side: bool(side["unsure"])
                  ) -> dict[str, dict[str, list[int]]]:
    """Per set, how many answers carry the unsure notice (``Answer.unsure``; or what
    ``noticed`` reads of a side), of how many:
    stored questions whose first paper (the ranker's) is right, stored ones whose first is
    wrong, and masked ones answered (each a fake answer)."""
    figures: dict[str, dict[str, list[int]]] = {}
    for row in rows:
        stored, masked_ = row["as_stored"], row["masked"]
        counts = figures.setdefault(row["set"], {"stored_right_first": [0, 0],
                                                 "stored_wrong_first": [0, 0],
                                                 "masked_answered": [0, 0]})
        for side, name in ((stored, "stored_right_first" if stored["first"] in expected[row["id"]]
                            else "stored_wrong_first"), (masked_, "masked_answered")):
            if not side["refused"]:
                counts[name][0] += noticed(side)
                counts[name][1] += 1
    return figures


def fresh_questions() -> list[dict[str, Any]]:
    """bench/ranker_questions.jsonl in this bench's shape (set ``fresh``)."""
    return [{"id": r["id"], "set": "fresh", "kind": r["kind"], "question": r["question"],
             "expected_sources": [r["source"]]}
            for r in read_jsonl(RANKER_QUESTIONS)]


def main() -> None:
    fresh = "--fresh" in sys.argv
    if fresh:
        sys.argv.remove("--fresh")
    data_dir, app = offline_assistant()
    items = read_jsonl(QUESTIONS) + (fresh_questions() if fresh else [])
    by_source = {paper.source: pid for pid, paper in app.index.papers().items()}
    rows = []
    for item in items:
        row = {"id": item["id"], "set": item["set"], "kind": item["kind"],
               "as_stored": asked(app, item["question"])}
        with masked(app.index, {by_source[s] for s in item["expected_sources"]}):
            row["masked"] = asked(app, item["question"])
        rows.append(row)
        print(item["id"], row["as_stored"]["refused"], row["masked"]["refused"], flush=True)
    ranker = load_ranker()
    # the shipped refusals replayed without the joint one (``calibrate_abstention.refused``)
    earlier = (ranker.abstain_below, ranker.neighbourhood and ranker.neighbourhood.below,
               ranker.cross_encoder_below)
    expected = {item["id"]: item["expected_sources"] for item in items}
    figures = {
        "wrongly_refused_as_stored": summary(rows, lambda r: float(r["as_stored"]["refused"])),
        "wrongly_refused_first_paper_right": summary(rows, lambda r: float(
            r["as_stored"]["refused"] and r["as_stored"]["first"] in expected[r["id"]])),
        "refused_masked": summary(rows, lambda r: float(r["masked"]["refused"])),
        "without_the_joint_refusal": {
            "wrongly_refused_as_stored": summary(
                rows, lambda r: float(refused(r["as_stored"], *earlier))),  # type: ignore[arg-type]
            "refused_masked": summary(
                rows, lambda r: float(refused(r["masked"], *earlier))),  # type: ignore[arg-type]
        },
    }
    figures["marked_unsure"] = marked_unsure(rows, expected)
    # either notice: unsure, or a name of the question no cited abstract mentions
    figures["either_notice"] = marked_unsure(
        rows, expected, lambda side: bool(side["unsure"] or side["unmentioned"]))
    print(json.dumps(figures, indent=1))
    save("masked_papers", {"data_dir": str(data_dir), "questions": len(rows), **figures,
                           "rows": rows})


if __name__ == "__main__":
    main()
