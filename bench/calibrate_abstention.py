"""Choose the abstention threshold on the dev split only, and write it into ranker.json.

Usage: python bench/calibrate_abstention.py [SEEDS_DIR] [DISTRACTORS_DIR]
        (default .data and .data-distractors, both already ingested)

For every dev question, on the seeds alone and among the distractors: the learned ranker's
score of its best paper (the evidence), and whether the relevance floor alone would answer.
A question is refused when the floor refuses, or when its evidence is below the threshold and
its first paper lacks some keyword of the question. The threshold is the highest one that
wrongly refuses at most MAX_WRONG of the dev answerable questions in each index, placed
halfway to the next score below. Then the off-topic check of large stores
(``ranking.Neighbourhood``: the mean cosine of the question's nearest papers) is set the same
way, as high as that ceiling still allows, and last the cross-encoder's refusal (its best
logit over the first papers of the answer the floor leaves, ``retrieval.REFUSAL_TOP``; exempt
when those papers hold the question's keywords, ``HybridRetriever.holds_its_keywords``) the
same way again, and then both read together where the off-topic check applies
(``ranking.JointReading``: evidence + a weight × that logit, the weight fitted on
bench/masked_papers.py's tuning questions, ``fit_weight``). Last the unsure notice's level
(``JointReading.doubt_below``, ``doubt_level``): the joint score under which an answer is
marked, as high as it stays on at most DOUBT_SHARE of the answers led by a right paper. The
test split is never read. Writes all five to assistant/ranker.json and every dev score to
bench/results/abstention.json.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from common import read_jsonl, save
from key_facts import QUESTIONS as KEY_FACTS_QUESTIONS

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.evals.scoring import indexed_items
from assistant.pipeline import Assistant
from assistant.ranking import WEIGHTS_FILE
from assistant.refusals import FULL_MATCH, REFUSAL_TOP
from assistant.retrieval import RERANK_BELOW
from assistant.settings import DEFAULT_EMBED_MODEL, PROJECT_ROOT, Settings

MAX_WRONG = 0.02  # the ceiling on wrong refusals
# The joint bound keeps this far below every answerable dev and tuning question it lets
# through: the halfway step otherwise fell 0.017 under one (old-24), and the int8 models'
# cosines and logits move by a few hundredths from one CPU or build to another.
JOINT_MARGIN = 0.25
# The off-topic check needs a store with neighbourhoods, and it is calibrated on one: the
# 13,847 papers' 21,779 chunks (the 38 seeds are 70). On random 8,000-chunk parts of that
# store a dev answerable question fell below the threshold in 3 of 5, at 12,000 in none.
MIN_CHUNKS = 15_000
# The unsure mark (``JointReading.doubt_min_chunks``) reaches smaller stores than the joint
# refusal: a store of one conference (NeurIPS 2025's ~5,300 abstracts make ~9,000 chunks)
# gets the mark. bench/store_sizes.py asks the dev and tuning questions of two stores of the
# seeds and two whole years of the 1987–2021 corpus (3,748 and 7,075 chunks): with the mark
# on and the refusals as they are, it stays on at most DOUBT_SHARE of the answers led by a
# right paper in both (dev 3 of 39 and 2 of 33, tuning 1 of 53 and 1 of 83). The smaller
# store's size, rounded down. The joint refusal itself there refused two answerable dev
# questions at 3,748 chunks and none more at 7,075, too thin a difference to move it.
DOUBT_MIN_CHUNKS = 3_700
MASKED_PAPERS = PROJECT_ROOT / "bench" / "results" / "masked_papers.json"
# The unsure notice (``JointReading.doubt_below``) stays on at most this share of the answers
# led by a right paper (the ranker's first), in dev and in the tuning questions each: a notice
# on every other right answer would teach researchers to skip it.
DOUBT_SHARE = 0.10


def dev_scores(data_dir: Path) -> list[dict[str, object]]:
    settings = Settings()
    settings.data.dir = data_dir
    # the ranker's order, as retrieval reads it for the refusal (before the reread reorders it)
    settings.retrieval.rerank = False
    app = Assistant(settings)
    dev = [i for i in indexed_items(app, load_dataset(DEFAULT_DATASET)) if i.split == "dev"]
    return [{"id": item.id, "answerable": item.answerable, "relevant": item.relevant,
             **signals(app, item.question)} for item in dev]


def signals(app: Assistant, question: str) -> dict[str, object]:
    """What each refusal of ``question`` reads, with ``app`` answering as the floor alone does
    (no thresholds in ranker.json, no reread), for ``refused`` to replay."""
    found = app.retrieve(question)
    evidence, nearest, named = app.retriever.abstention_signals(question)
    logits = app.retriever.cross_encoder_reading(question, found)
    return {"evidence": evidence,
            "reading": None if logits is None else float(logits[:REFUSAL_TOP].max()),
            # the ranker's first paper, and how sure of it (the reread's and the notice's test)
            "first": found[0].paper.source if found else None,
            "p_first": found[0].score if found else None,
            "papers": len(found),  # an exempt question is reread (so read) only with 2 or more
            "holds_its_keywords": (bool(found)
                                   and app.retriever.holds_its_keywords(question, found)),
            "floor_answers": bool(found),
            "full_match": bool(found) and found[0].coverage >= FULL_MATCH,
            "nearest": nearest, "named": named,
            "checked": check_applies(app), "doubt_checked": check_applies(app, DOUBT_MIN_CHUNKS)}


def joint_score(row: dict[str, object], weight: float) -> float:
    return float(row["evidence"]) + weight * float(row["reading"])  # type: ignore[arg-type]


def fit_weight(rows: list[dict[str, object]]) -> float:
    """The joint refusal's weight of the logit beside the evidence: the ratio of their
    coefficients in a logistic regression telling answerable ``rows`` from the others
    (standardised, L2 0.01, full-batch gradient descent: deterministic), to one decimal."""
    x = np.array([[float(r["evidence"]), float(r["reading"])] for r in rows])  # type: ignore[arg-type]
    y = np.array([float(bool(r["answerable"])) for r in rows])
    mean, spread = x.mean(axis=0), x.std(axis=0)
    z = (x - mean) / spread
    w, b = np.zeros(2), 0.0
    for _ in range(5000):
        error = 1 / (1 + np.exp(-(z @ w + b))) - y
        w -= 0.1 * (z.T @ error / len(y) + 0.01 * w)
        b -= 0.1 * float(error.mean())
    coefficients = w / spread
    return round(float(coefficients[1] / coefficients[0]), 1)


def tuning_rows() -> list[dict[str, object]]:
    """The blind tuning questions of bench/masked_papers.py (run it first), among the 13.9k:
    each asked with its paper stored (answerable) and with it masked (not). Dev's 82
    answerable questions allow one wrong refusal, and the joint bound's halfway step would
    otherwise fall in a gap of dev scores four points wide; these (240) fill it, and
    their own ceiling holds too."""
    rows = json.loads(MASKED_PAPERS.read_text())["rows"]
    relevant = {r["id"]: r["expected_sources"] for r in read_jsonl(KEY_FACTS_QUESTIONS)}
    return [{**row[side], "answerable": side == "as_stored", "relevant": relevant[row["id"]]}
            for row in rows if row["set"] == "tuning" for side in ("as_stored", "masked")]


def doubt_score(row: dict[str, object], weight: float, bounds: Bounds) -> float | None:
    """The joint score the unsure notice reads of an answered question, where retrieval has
    one (``HybridRetriever.find``): the logits were read (the question not exempt, or the
    ranker under RERANK_BELOW sure of its first, with 2 papers or more) in a store the mark
    applies to (``doubt_checked``: DOUBT_MIN_CHUNKS; the joint refusal, where ``checked``,
    takes what is under its bound first)."""
    if (refused(row, *bounds) or row["reading"] is None or not row["doubt_checked"]
            or (row["holds_its_keywords"]
                and (float(row["p_first"]) >= RERANK_BELOW or int(row["papers"]) < 2))):  # type: ignore[arg-type, call-overload]
        return None
    return joint_score(row, weight)


def doubt_level(sections: dict[str, list[dict[str, object]]], weight: float,
                bounds: Bounds) -> float | None:
    """The highest ``doubt_below`` at which at most DOUBT_SHARE of each section's answers
    led by a right paper (the ranker's first) get the notice, halfway to the next score
    below: a notice on an answer led by a wrong paper is no false alarm."""
    scored = {name: [(doubt_score(r, weight, bounds), r["first"] in r["relevant"])  # type: ignore[operator]
                     for r in rows if r["answerable"] and not refused(r, *bounds)]
              for name, rows in sections.items()}
    values = sorted({v for rows in scored.values() for v, _ in rows if v is not None})

    def few_marked(level: float) -> bool:
        return all(sum(v is not None and v < level for v, right in rows if right)
                   <= DOUBT_SHARE * sum(right for _, right in rows)
                   for rows in scored.values())
    return highest_allowed(values, few_marked) if values else None


def check_applies(app: Assistant, min_chunks: int = MIN_CHUNKS) -> bool:
    """The store of ``app`` is one a check needing ``min_chunks`` applies to (with the
    embedding model the checks were calibrated with)."""
    return (app.index.chunk_count() >= min_chunks
            and app.settings.index.embed_model == DEFAULT_EMBED_MODEL)


Bounds = tuple[float, float | None, float | None, tuple[float, float] | None]


def refused(row: dict[str, object], threshold: float, below: float | None = None,
            reading_below: float | None = None,
            joint: tuple[float, float] | None = None) -> bool:
    """Whether the shipped refusals, at these thresholds (``joint``: the joint refusal's
    weight and bound), refuse the question ``row`` holds the signals of."""
    evidence = row["evidence"]
    assert isinstance(evidence, float)
    far = (below is not None and bool(row["checked"]) and not row["named"] and not row["full_match"]
           and row["nearest"] is not None and float(row["nearest"]) < below)  # type: ignore[arg-type]
    read = (None if row["holds_its_keywords"] or row["reading"] is None
            else float(row["reading"]))  # type: ignore[arg-type]
    unread = reading_below is not None and read is not None and read < reading_below
    weighed = (joint is not None and read is not None and bool(row["checked"])
               and evidence + joint[0] * read < joint[1])
    return (not row["floor_answers"] or far or unread or weighed
            or (evidence < threshold and not row["full_match"]))


def marked(row: dict[str, object], weight: float, bounds: Bounds, level: float | None) -> bool:
    """The question ``row`` holds the signals of gets the unsure mark at ``level``."""
    score = doubt_score(row, weight, bounds)
    return level is not None and score is not None and score < level


def highest_allowed(values: list[float], ok: Callable[[float], bool]) -> float:
    """The highest of ``values`` (sorted) at which ``ok`` still holds, placed halfway to the
    next value below (``values[0]`` when even the lowest fails)."""
    best = values[0]
    for value in values:
        if not ok(value):
            break
        best = value
    below = [v for v in values if v < best]
    # rounded, but never above ``best``: a row at ``best`` is kept (refused: value < threshold)
    return min(round((best + below[-1]) / 2, 3), best) if below else best


def main() -> None:
    dirs = [Path(a) for a in sys.argv[1:3]] or [PROJECT_ROOT / ".data",
                                               PROJECT_ROOT / ".data-distractors"]
    weights = PROJECT_ROOT / "assistant" / WEIGHTS_FILE
    data = json.loads(weights.read_text())
    if (data.get("abstain_below") is not None or data.get("neighbourhood")
            or data.get("cross_encoder_below") is not None
            or data.get("joint_reading")):  # the floor alone
        data["abstain_below"] = data["neighbourhood"] = data["cross_encoder_below"] = None
        data["joint_reading"] = None
        weights.write_text(json.dumps(data, indent=1) + "\n")
    sections = {d.name: dev_scores(d) for d in dirs}

    def few_wrong(threshold: float, below: float | None = None,
                  reading_below: float | None = None, joint: tuple[float, float] | None = None,
                  among: dict[str, list[dict[str, object]]] = sections) -> bool:
        return all(sum(refused(r, threshold, below, reading_below, joint)
                       for r in rows if r["answerable"])
                   <= MAX_WRONG * sum(bool(r["answerable"]) for r in rows)
                   for rows in among.values())

    evidence = sorted({float(r["evidence"]) for rows in sections.values() for r in rows  # type: ignore[arg-type]
                       if r["evidence"] is not None})
    threshold = highest_allowed(evidence, few_wrong)
    # then the off-topic check, as high as the same ceiling allows on top of the threshold
    nearest = sorted({float(r["nearest"]) for rows in sections.values() for r in rows  # type: ignore[arg-type]
                      if r["nearest"] is not None and r["checked"] and not r["named"]
                      and not r["full_match"]})
    below = highest_allowed(nearest, lambda v: few_wrong(threshold, v)) if nearest else None
    # then the cross-encoder's reading of the first papers, as high as the ceiling still allows
    readings = sorted({float(r["reading"]) for rows in sections.values() for r in rows  # type: ignore[arg-type]
                       if r["reading"] is not None and not r["holds_its_keywords"]})
    reading_below = (highest_allowed(readings, lambda v: few_wrong(threshold, below, v))
                     if readings else None)
    # last both together, where the off-topic check applies: the weight fitted on the bench's
    # tuning questions the check reads, the bound as high as the ceiling allows in dev and in
    # those questions alike, then JOINT_MARGIN under the answerable ones it lets through
    joined = {**sections, "bench tuning": tuning_rows()}

    def read(row: dict[str, object]) -> bool:  # the rows the joint refusal decides
        return (row["reading"] is not None and not row["holds_its_keywords"] and bool(row["checked"])
                and not refused(row, threshold, below, reading_below))

    weight = fit_weight([r for r in joined["bench tuning"] if read(r)])
    joints = sorted({joint_score(r, weight) for rows in joined.values() for r in rows if read(r)})
    joint_below = (highest_allowed(joints, lambda v: few_wrong(threshold, below, reading_below,
                                                               (weight, v), joined))
                   if joints else None)
    if joint_below is not None:
        spared = [joint_score(r, weight) for rows in joined.values() for r in rows
                  if read(r) and r["answerable"] and joint_score(r, weight) >= joint_below]
        joint_below = round(min([joint_below, *(v - JOINT_MARGIN for v in spared)]), 3)
    bounds: Bounds = (threshold, below, reading_below,
                      None if joint_below is None else (weight, joint_below))
    doubt_below = None if joint_below is None else doubt_level(joined, weight, bounds)
    figures = {}
    for name, rows in joined.items():
        answerable = [r for r in rows if r["answerable"]]
        none = [r for r in rows if not r["answerable"]]
        figures[name] = {
            "dev_answerable": len(answerable), "dev_none": len(none),
            "wrong_refusals": sum(refused(r, *bounds) for r in answerable),
            "none_refused": sum(refused(r, *bounds) for r in none),
            "none_refused_without_joint": sum(refused(r, threshold, below, reading_below)
                                              for r in none),
            "none_refused_without_cross_encoder": sum(refused(r, threshold, below) for r in none),
            "none_refused_without_neighbourhood": sum(refused(r, threshold) for r in none),
            "none_refused_by_floor_alone": sum(not r["floor_answers"] for r in none),
            "marked_unsure": [sum(marked(r, weight, bounds, doubt_below) for r in answerable),
                              sum(marked(r, weight, bounds, doubt_below) for r in none)],
        }
        print(name, figures[name])
    data["abstain_below"] = threshold
    data["neighbourhood"] = (None if below is None else
                             {"below": below, "min_chunks": MIN_CHUNKS, "model": DEFAULT_EMBED_MODEL})
    data["cross_encoder_below"] = reading_below
    data["joint_reading"] = (None if joint_below is None else
                             {"weight": weight, "below": joint_below, "min_chunks": MIN_CHUNKS,
                              "model": DEFAULT_EMBED_MODEL, "doubt_below": doubt_below,
                              "doubt_min_chunks": DOUBT_MIN_CHUNKS})
    weights.write_text(json.dumps(data, indent=1) + "\n")
    print(f"abstain_below = {threshold}, neighbourhood below = {below}, "
          f"cross_encoder_below = {reading_below}, joint weight = {weight}, below = {joint_below}, "
          f"doubt_below = {doubt_below}")
    save("abstention", {"threshold": threshold, "neighbourhood_below": below,
                        "cross_encoder_below": reading_below, "joint_below": joint_below,
                        "joint_weight": weight, "joint_margin": JOINT_MARGIN,
                        "doubt_below": doubt_below, "doubt_share": DOUBT_SHARE,
                        "min_chunks": MIN_CHUNKS, "doubt_min_chunks": DOUBT_MIN_CHUNKS,
                        "max_wrong": MAX_WRONG, "sections": figures,
                        "scores": sections})


if __name__ == "__main__":
    main()
