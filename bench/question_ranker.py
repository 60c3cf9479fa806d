"""Lever: the learned ranker trained on researcher questions, not only on titles (issue 9).

Usage: python bench/question_ranker.py [DATA_DIR]   (default .data-distractors; ~1 min)

The shipped ranker (assistant/ranker.json) learnt its weights from title→abstract pairs
(bench/train_ranker.py): a title is short and names its subject; a question is long, says it
in other words and asks for one part of it. bench/ranker_questions.jsonl holds 638 questions
that helpers wrote blind (from the abstract alone, no run of 4+ of its words, never the
title), one per paper, for the papers ``draw_papers`` draws: 640 of the 1987–2021 abstracts
of 60–350 words that neither the eval nor bench/key_facts_questions.jsonl asks about. One was
skipped (its text scrambled) and one left out later (a test split question judges its paper
relevant): 159 problem, 160 method, 160 finding and 159 detail questions.

Each question's candidates and their features are read exactly as ``retrieve`` reads them
(``ranking.candidate_features``, captured from ``HybridRetriever._fused``). Variants, all in
the ranker's raw order (no boost, no reread), a paper missing from the candidates a miss:
- ``shipped``: the title-trained weights;
- ``questions``: trained on the questions (5-fold cross-validated on them, and trained on all
  for the other sets);
- ``titles + questions``: both sets of groups together, when train_ranker.py's cache of
  title signals is present. Building it means running train_ranker.py, which also rewrites
  assistant/ranker.json: put the shipped file back (``git checkout assistant/ranker.json``)
  before running this, or ``shipped`` is the retrained weights.
Reported on the key-facts bench's questions (tuning and held-out; the questions are never
trained on here, though train_ranker's title pairs may hold their papers, as the shipped
weights' did) and the eval's dev and test splits (answerable, with their papers stored).
Writes bench/results/question_ranker.json.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from unittest import mock

import numpy as np
from common import (
    RESULTS,
    offline_assistant,
    rank_of,
    read_jsonl,
    reading_fingerprint,
    retrieval_fingerprint,
    save,
)
from common import metrics as rank_metrics
from key_facts import QUESTIONS as KEY_FACT_QUESTIONS

import assistant  # noqa: F401
from assistant import candidates, ranking
from assistant.corpus import Paper, read_file
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.pipeline import Assistant
from assistant.ranking import Candidates, load_ranker, train

QUESTIONS = Path(__file__).with_name("ranker_questions.jsonl")
FOLDS = 5
DRAW_SEED, DRAW_SIZE = 2026, 640
DRAW_WORDS = (60, 350)  # abstracts of this many words (whitespace-split), ends included

# one question: (question, its candidates' ids, their features, the expected paper ids)
Group = tuple[str, list[str], np.ndarray, set[str]]


def candidates_of(app: Assistant, question: str) -> Candidates:
    """The candidates and features ``retrieve`` gives the learned ranker for ``question``."""
    captured: list[Candidates] = []
    real = candidates.candidate_features

    def spy(*args: object, **kwargs: object) -> Candidates:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        captured.append(found)
        return found

    with mock.patch.object(candidates, "candidate_features", spy):
        app.retriever._fused(question, "hybrid")
    return captured[0] if captured else Candidates([], np.zeros((0, len(ranking.FEATURES))))


def draw_papers(corpus_dir: Path) -> list[Paper]:
    """The papers the questions were written from: every CSV of ``corpus_dir`` read in name
    order by the corpus reader, less the papers the eval and the key-facts bench expect,
    those of DRAW_WORDS words, sampled with ``random.Random(DRAW_SEED)``."""
    used = {s for item in load_dataset(DEFAULT_DATASET) for s in item.expected_sources}
    used |= {s for item in read_jsonl(KEY_FACT_QUESTIONS) for s in item["expected_sources"]}
    papers = [p for path in sorted(corpus_dir.glob("*.csv")) for p in read_file(path)[0]]
    low, high = DRAW_WORDS
    pool = [p for p in papers if p.source not in used and low <= len(p.text.split()) <= high]
    return random.Random(DRAW_SEED).sample(pool, DRAW_SIZE)


def question_sets() -> dict[str, list[tuple[str, list[str]]]]:
    """Every set's (question, expected sources)."""
    sets: dict[str, list[tuple[str, list[str]]]] = {
        "train": [(r["question"], [r["source"]]) for r in read_jsonl(QUESTIONS)]}
    for item in read_jsonl(KEY_FACT_QUESTIONS):
        sets.setdefault(f"bench {item['set']}", []).append(
            (item["question"], item["expected_sources"]))
    for item in load_dataset(DEFAULT_DATASET):
        if item.answerable:
            sets.setdefault(f"eval {item.split}", []).append(
                (item.question, list(item.expected_sources)))
    return sets


def groups_of(app: Assistant, data_dir: Path) -> dict[str, list[Group]]:
    by_source = {p.source: pid for pid, p in app.index.papers().items()}
    code = retrieval_fingerprint(QUESTIONS, KEY_FACT_QUESTIONS, DEFAULT_DATASET)
    cache = RESULTS / f".question-signals-{data_dir.name}-{code}.pkl"
    found: dict[str, tuple[list[str], np.ndarray]] = (
        pickle.loads(cache.read_bytes()) if cache.is_file() else {})
    sets: dict[str, list[Group]] = {}
    for name, items in question_sets().items():
        for n, (question, sources) in enumerate(items, 1):
            if not all(s in by_source for s in sources):
                continue  # an eval question about a paper this store lacks
            if question not in found:
                c = candidates_of(app, question)
                found[question] = (list(c.paper_ids), c.features)
            ids, features = found[question]
            sets.setdefault(name, []).append(
                (question, ids, features, {by_source[s] for s in sources}))
            if n % 200 == 0:
                print(f"  {name}: {n}/{len(items)}", flush=True)
    cache.write_bytes(pickle.dumps(found))
    return sets


def metrics(weights: np.ndarray, groups: list[Group]) -> dict[str, float]:
    """hit@1, hit@5 and MRR of the expected papers in the order ``weights`` score them."""
    ranks = []
    for _, ids, features, expected in groups:
        scores = features @ weights if len(ids) else np.zeros(0)
        order = [int(i) for i in np.argsort(-scores, kind="stable")]
        ranks.append(rank_of(order, {i for i, pid in enumerate(ids) if pid in expected}))
    return rank_metrics(ranks)


def trainable(groups: list[Group]) -> list[tuple[np.ndarray, int]]:
    """(features, index of the expected paper) of the groups whose paper is a candidate."""
    out = []
    for _, ids, features, expected in groups:
        hit = next((i for i, pid in enumerate(ids) if pid in expected), None)
        if hit is not None:
            out.append((features, hit))
    return out


def title_groups(data_dir: Path) -> list[tuple[np.ndarray, int]] | None:
    """train_ranker.py's title pairs (its cache of their signals), as its groups."""
    import train_ranker  # its module-level names only; main() is not run

    from assistant.ranking import candidate_features

    _, count, _, app_index = train_ranker.pairs_args()
    cache = RESULTS / f".ranker-signals-{data_dir.name}-{count}-{reading_fingerprint()}.pkl"
    if not cache.is_file():
        return None
    signals = pickle.loads(cache.read_bytes())
    papers = app_index.papers()
    texts = {pid: p.text for pid, p in papers.items()}
    stats = app_index.keyword_stats()
    chosen = train_ranker.title_pair_papers(papers, len(signals))
    groups = []
    for pid in chosen:
        if pid in signals:
            title, ids, lexical, dense = signals[pid]
            if pid in ids:
                groups.append((candidate_features(title, ids, lexical, dense, texts,
                                                  stats).features, ids.index(pid)))
    return groups[:int(0.8 * len(groups))]  # train_ranker's training part only


def main() -> None:
    data_dir, app = offline_assistant()
    sets = groups_of(app, data_dir)
    shipped = load_ranker().weights
    train_set = sets.pop("train")
    order = np.random.default_rng(0).permutation(len(train_set))
    folds = np.array_split(order, FOLDS)
    cv_ranks: dict[str, list[dict[str, float]]] = {"shipped": [], "questions": []}
    for k, held in enumerate(folds):
        rest = [train_set[i] for f, fold in enumerate(folds) if f != k for i in fold]
        held_groups = [train_set[i] for i in held]
        weights = train(trainable(rest)).weights
        cv_ranks["shipped"].append(metrics(shipped, held_groups))
        cv_ranks["questions"].append(metrics(weights, held_groups))
    figures: dict[str, object] = {"questions": len(train_set), "folds": FOLDS}
    figures["cross-validated on the questions"] = {
        name: {m: round(float(np.mean([f[m] for f in runs])), 3) for m in ("hit@1", "hit@5", "mrr")}
        for name, runs in cv_ranks.items()}
    variants = {"shipped": shipped, "questions": train(trainable(train_set)).weights}
    titles = title_groups(data_dir)
    if titles is not None:
        variants["titles + questions"] = train(titles + trainable(train_set)).weights
    figures["weights"] = {name: dict(zip(ranking.FEATURES, np.round(w, 4).tolist(), strict=True))
                          for name, w in variants.items()}
    figures["sets"] = {name: {v: metrics(w, groups) for v, w in variants.items()}
                       for name, groups in sorted(sets.items())}
    print(json.dumps(figures["cross-validated on the questions"]))
    for name, by_variant in figures["sets"].items():  # type: ignore[union-attr]
        print(f"{name:18s} " + "  ".join(
            f"{v}: {m['hit@1']:.3f}/{m['hit@5']:.3f}/{m['mrr']:.3f}" for v, m in by_variant.items()))
    save("question_ranker", figures)


if __name__ == "__main__":
    main()
