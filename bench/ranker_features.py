"""Levers that lost: more signals for the learned ranker, trained like it on title pairs.

Usage: python bench/ranker_features.py [DATA_DIR]   (default .data-distractors; run
bench/train_ranker.py first: this reads the candidates and signals it cached)

The shipped features (``ranking.FEATURES``) plus, per candidate paper:
- ``sentence``: the best cosine between the query and one of the paper's sentences (the
  vectors stored at ingest), raw, z-scored over the candidates and as a gap to the best;
- ``prf``: pseudo-relevance feedback, the cosine of the paper's mean sentence vector with
  the query vector moved towards the shipped ranker's top 3 papers (Rocchio, beta 0.7);
- ``stage2``: the ``sentence`` features only for the shipped ranker's top K, as a second stage;
- ``dense xF``: the shipped weights with the dense ones multiplied by F (not trained: would
  questions, more paraphrased than titles, want more of the dense side?);
- ``gbdt``: gradient-boosted trees (LightGBM's lambdarank, 7 leaves, 100–500 rounds) over
  the shipped features, or with ``sentence``, instead of the linear model: do the signals
  interact? Only when ``lightgbm`` is installed (``uv pip install lightgbm``; not a
  dependency: it lost).
Each set is trained on the same 80% of the title → abstract pairs as the shipped ranker and
scored on the other 20%, then on the eval's answerable questions among the distractors (dev
and test, candidates as retrieval pools them; no post-ranking rules). Writes
bench/results/ranker_features.json.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from common import save

import assistant  # noqa: F401
from assistant import ranking
from assistant.corpus import Paper
from assistant.evals.dataset import DEFAULT_DATASET, EvalItem, load_dataset
from assistant.index import AbstractIndex
from assistant.ranking import candidate_features, load_ranker, train
from assistant.retrieval import POOL, _rank_papers
from assistant.settings import PROJECT_ROOT, Settings

PAIRS = 2000  # as bench/train_ranker.py's default
BASE = len(ranking.FEATURES)
SENTENCE = [BASE, BASE + 1, BASE + 2]
PRF = [BASE + 3, BASE + 4]
STAGE2_K = (5, 10, 20)
DENSE_FACTORS = (1.25, 1.5, 2.0)
GBDT_ROUNDS = (100, 200, 500)


def _z(values: np.ndarray) -> np.ndarray:
    spread = float(values.std())
    return (values - values.mean()) / spread if spread > 1e-9 else np.zeros_like(values)


class Signals:
    """The extra columns for one query's candidates, from the store's sentence vectors."""

    def __init__(self, index: AbstractIndex) -> None:
        self.index = index
        self.papers = index.papers()
        self.vectors: dict[str, np.ndarray] = {}
        self.base = load_ranker().weights

    def _sentence_vectors(self, ids: list[str]) -> None:
        missing = [p for p in ids if p not in self.vectors and p in self.papers]
        for start in range(0, len(missing), 300):
            part = missing[start:start + 300]
            stored = self.index.sentence_vectors([self.papers[p] for p in part])
            for pid in part:
                found = stored.get(pid)
                if found is None:
                    found = self.index.embed_model.embed([self.papers[pid].text])
                self.vectors[pid] = found.astype(np.float32)

    def columns(self, query: str, ids: list[str], base: np.ndarray) -> np.ndarray:
        self._sentence_vectors(ids)
        vector = np.asarray(self.index.query_vector(query), dtype=np.float32)
        best = np.zeros(len(ids))
        means = np.zeros((len(ids), len(vector)))
        for i, pid in enumerate(ids):
            sentences = self.vectors.get(pid)
            if sentences is None or not len(sentences):
                continue
            best[i] = float((sentences @ vector).max())
            mean = sentences.mean(axis=0)
            means[i] = mean / (np.linalg.norm(mean) or 1.0)
        top = np.argsort(-(base @ self.base))[:3]
        moved = vector + 0.7 * means[top].mean(axis=0)
        prf = means @ (moved / np.linalg.norm(moved))
        return np.column_stack([base, best, _z(best), best - best.max(), prf, _z(prf)])


def fit(groups: list[tuple[np.ndarray, int]]) -> np.ndarray:
    width = groups[0][0].shape[1]
    saved = ranking.FEATURES
    ranking.FEATURES = tuple(f"f{i}" for i in range(width))  # train() sizes by FEATURES
    try:
        return train(groups, steps=3000).weights
    finally:
        ranking.FEATURES = saved


def metrics(ranks: list[int]) -> dict[str, float]:
    r = np.asarray(ranks)
    return {"hit@1": round(float((r == 1).mean()), 3), "hit@5": round(float((r <= 5).mean()), 3),
            "mrr": round(float((1 / r).mean()), 3), "n": len(ranks)}


def rank_of(order: list[int], positives: set[int]) -> int:
    return next((n for n, i in enumerate(order, 1) if i in positives), 10**6)


def stage2_top(x: np.ndarray, base_w: np.ndarray, k: int) -> tuple[list[int], np.ndarray]:
    """The shipped ranker's order, and its top ``k`` with the ``sentence`` features
    normalised among those ``k`` (the second stage's input)."""
    by_base = [int(i) for i in np.argsort(-(x[:, :BASE] @ base_w))]
    part = x[by_base[:k]][:, list(range(BASE)) + SENTENCE].copy()
    part[:, BASE + 1] = _z(part[:, BASE])
    part[:, BASE + 2] = part[:, BASE] - part[:, BASE].max()
    return by_base, part


def stage2_order(x: np.ndarray, base_w: np.ndarray, k: int, w: np.ndarray) -> list[int]:
    by_base, part = stage2_top(x, base_w, k)
    return [by_base[i] for i in np.argsort(-(part @ w))] + by_base[k:]


def eval_pool(index: AbstractIndex, settings: Settings, question: str
              ) -> tuple[list[str], dict[str, float], dict[str, float]]:
    """A question's candidates as retrieval pools them (BM25's and dense's top ``POOL``),
    with each one's BM25 score and cosine: (paper ids, BM25 by id, cosine by id)."""
    vector = index.query_vector(question)
    lexical = index.bm25_paper_scores(question)
    found = _rank_papers(index.search_dense(question, settings.retrieval.candidates, vector))
    cosines = {pid: hit.score for pid, (_, hit) in found.items()}
    ids = list(dict.fromkeys(sorted(lexical, key=lambda p: -lexical[p])[:POOL]
                             + sorted(cosines, key=lambda p: -cosines[p])[:POOL]))
    cosines.update(index.paper_cosines(vector, [p for p in ids if p not in cosines]))
    return ids, lexical, cosines


def eval_questions(index: AbstractIndex, settings: Settings, papers: dict[str, Paper]
                   ) -> Iterator[tuple[EvalItem, set[str], list[str], dict[str, float],
                                       dict[str, float]]]:
    """Each answerable eval question whose expected papers are all indexed, with their ids and
    its candidates (``eval_pool``). The expected papers alone are returned: the judged ones
    were pooled from the shipped ranker's top, so counting them would favour it over every
    lever measured against it."""
    by_source = {p.source: pid for pid, p in papers.items()}
    for item in load_dataset(DEFAULT_DATASET):
        expected = {by_source.get(s) for s in item.expected_sources}
        if item.answerable and None not in expected:
            yield (item, {pid for pid in expected if pid is not None},
                   *eval_pool(index, settings, item.question))


def gbdt_orderers(pairs: list[tuple[np.ndarray, int]]) -> dict[str, Callable[[np.ndarray], list[int]]]:
    """LightGBM lambdarank rankers trained on ``pairs``; none when it is not installed."""
    try:
        import lightgbm
    except ImportError:
        print("lightgbm is not installed: the gbdt rows are left out", flush=True)
        return {}
    params = {"objective": "lambdarank", "num_leaves": 7, "learning_rate": 0.05,
              "min_data_in_leaf": 20, "lambdarank_truncation_level": 10, "seed": 0,
              "deterministic": True, "force_row_wise": True, "verbose": -1}
    orderers: dict[str, Callable[[np.ndarray], list[int]]] = {}
    for name, cols in (("gbdt", list(range(BASE))), ("gbdt + sentence", list(range(BASE)) + SENTENCE)):
        data = lightgbm.Dataset(np.vstack([x[:, cols] for x, _ in pairs]),
                                np.concatenate([np.eye(len(x))[p] for x, p in pairs]),
                                group=[len(x) for x, _ in pairs])
        for rounds in GBDT_ROUNDS:
            model = lightgbm.train(params, data, num_boost_round=rounds)
            orderers[f"{name} {rounds}"] = (
                lambda x, m=model, cols=cols: list(np.argsort(-m.predict(x[:, cols]))))
    return orderers


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    cache = PROJECT_ROOT / "bench" / "results" / f".ranker-signals-{data_dir.name}-{PAIRS}.pkl"
    if not cache.is_file():
        raise SystemExit(f"{cache} is missing: run bench/train_ranker.py {data_dir} first")
    settings = Settings()
    settings.data.dir = data_dir
    index = AbstractIndex(settings)
    stats = index.keyword_stats()
    signals = Signals(index)
    texts = {pid: p.text for pid, p in signals.papers.items()}
    pairs = []
    for pid, (title, ids, lexical, dense) in pickle.loads(cache.read_bytes()).items():
        if pid in ids:
            base = candidate_features(title, ids, lexical, dense, texts, stats).features
            pairs.append((signals.columns(title, ids, base), ids.index(pid)))
    cut = int(0.8 * len(pairs))  # the shipped ranker's split (same order, same cut)
    sets = {"shipped features": list(range(BASE)), "+ sentence": list(range(BASE)) + SENTENCE,
            "+ prf": list(range(BASE)) + PRF, "+ sentence + prf": list(range(BASE + 5))}
    orderers: dict[str, Callable[[np.ndarray], list[int]]] = {}
    held: dict[str, dict[str, float]] = {}
    for name, cols in sets.items():
        w = fit([(x[:, cols], pos) for x, pos in pairs[:cut]])
        orderers[name] = lambda x, w=w, cols=cols: list(np.argsort(-(x[:, cols] @ w)))
    base_w = signals.base
    for k in STAGE2_K:
        tops = []
        for x, pos in pairs[:cut]:
            by_base, part = stage2_top(x, base_w, k)
            if pos in by_base[:k]:
                tops.append((part, by_base.index(pos)))
        w = fit(tops)
        orderers[f"stage2 top {k}"] = lambda x, w=w, k=k: stage2_order(x, base_w, k, w)
    dense = [ranking.FEATURES.index(f) for f in ("dense", "dense_gap", "dense_z")]
    for factor in DENSE_FACTORS:  # not trained: the shipped weights, dense ones scaled
        w = base_w.copy()
        w[dense] *= factor
        orderers[f"dense x{factor}"] = lambda x, w=w: list(np.argsort(-(x[:, :BASE] @ w)))
    orderers.update(gbdt_orderers(pairs[:cut]))
    for name, order in orderers.items():
        held[name] = metrics([rank_of(order(x), {pos}) for x, pos in pairs[cut:]])
        print(f"held-out pairs  {name:18s} {held[name]}", flush=True)

    eval_ranks: dict[str, dict[str, list[int]]] = {name: {"dev": [], "test": []} for name in orderers}
    for item, expected, ids, lexical, cosines in eval_questions(index, settings, signals.papers):
        base = candidate_features(item.question, ids, lexical, cosines, texts, stats).features
        x = signals.columns(item.question, ids, base)
        positives = {i for i, pid in enumerate(ids) if pid in expected}
        for name, order in orderers.items():
            eval_ranks[name][item.split].append(rank_of(order(x), positives))
    on_eval = {name: {split: metrics(r) for split, r in splits.items()}
               for name, splits in eval_ranks.items()}
    for name, splits in on_eval.items():
        print(f"eval            {name:18s} dev {splits['dev']}  test {splits['test']}")
    save("ranker_features", {"pairs": len(pairs), "trained": cut, "held_out": held,
                             "eval_among_distractors": on_eval,
                             "note": "raw ranker order over the pooled candidates, without "
                                     "retrieval's post-ranking rules (named-paper boost, rare "
                                     "match, floor, abstention)"})


if __name__ == "__main__":
    main()
