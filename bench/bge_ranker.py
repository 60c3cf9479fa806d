"""A lever measured: the learned ranker retrained on bge-small-en's cosine, in MiniLM's
place or beside it (``bge_probe`` only swapped the cosine under the shipped weights).

Usage: python bench/bge_ranker.py [DATA_DIR] [N]   (default .data-distractors, 2000 pairs;
the first run embeds every paper with bge, one at a time, ~17 min on 2 cores, into
bench/results/.bge-alone-vectors-<dir>.pkl)

Each variant gets its own candidates and its own weights, trained like the shipped ranker
(``bench/train_ranker.py``: the same title → abstract pairs from the corpus and seed, BM25
over the untitled chunks):
- ``minilm``: BM25's and MiniLM's top ``POOL``, the shipped features (the reference);
- ``bge``: BM25's and bge's top ``POOL``, bge's cosine as the dense signal;
- ``both``: all three tops, the shipped features plus bge's three dense columns.
Each is scored on the held-out pairs (the last 20% of all pairs, a paper missing from the
variant's candidates counting as a miss: not comparable with train_ranker's figure over the
pairs found) and on the eval's answerable questions among the distractors, expected papers
alone (as ``e5_probe``); dev decides, test is only reported.
Writes bench/results/bge_ranker.json.
"""

from __future__ import annotations

import pickle
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bge_probe import BGE
from common import pairs_args, save
from ranker_features import eval_questions, fit, metrics, rank_of
from train_ranker import title_pair_papers, untitled_bm25

import assistant  # noqa: F401
from assistant.corpus import Paper
from assistant.index import AbstractIndex
from assistant.keywords import KeywordStats
from assistant.ranking import candidate_features
from assistant.retrieval import POOL, _rank_papers
from assistant.settings import PROJECT_ROOT, Settings

DENSE_COLUMNS = [2, 3, 4]  # dense, dense_gap, dense_z in ranking.FEATURES
VARIANTS = ("minilm", "bge", "both")


@dataclass
class Pool:
    """One query's candidates from the three rankings, with every signal the variants read."""

    query: str
    lexical_top: list[str]
    minilm_top: list[str]
    bge_top: list[str]
    lexical: dict[str, float]
    minilm: dict[str, float]
    bge: dict[str, float]

    def ids(self, variant: str) -> list[str]:
        tops = {"minilm": self.lexical_top + self.minilm_top,
                "bge": self.lexical_top + self.bge_top,
                "both": self.lexical_top + self.minilm_top + self.bge_top}[variant]
        return list(dict.fromkeys(tops))

    def features(self, variant: str, texts: dict[str, str], stats: KeywordStats
                 ) -> tuple[list[str], np.ndarray]:
        ids = self.ids(variant)
        dense = self.bge if variant == "bge" else self.minilm
        x = candidate_features(self.query, ids, self.lexical, dense, texts, stats).features
        if variant == "both":
            extra = candidate_features(self.query, ids, self.lexical, self.bge, texts, stats)
            x = np.hstack([x, extra.features[:, DENSE_COLUMNS]])
        return ids, x


class BgeCorpus:
    """Every paper's bge vector (embedded once into bge_probe's cache) and a query's
    cosines with all of them."""

    def __init__(self, model: BGE, papers: dict[str, Paper], data_dir: Path) -> None:
        self.model = model
        cache = PROJECT_ROOT / "bench" / "results" / f".bge-alone-vectors-{data_dir.name}.pkl"
        vectors: dict[str, np.ndarray] = pickle.loads(cache.read_bytes()) if cache.is_file() else {}
        missing = sorted((p for p in papers if p not in vectors), key=lambda p: len(papers[p].text))
        started = time.perf_counter()
        for n, start in enumerate(range(0, len(missing), 32)):
            part = missing[start:start + 32]
            vectors.update(zip(part, model.embed([papers[p].text for p in part], query=False),
                               strict=True))
            if n % 32 == 31 or start + 32 >= len(missing):  # saved as it goes
                cache.write_bytes(pickle.dumps(vectors))
                rate = (start + len(part)) / (time.perf_counter() - started)
                print(f"  bge: {start + len(part)}/{len(missing)} ({rate:.1f}/s)", flush=True)
        self.ids = sorted(papers)
        self.matrix = np.stack([vectors[p] for p in self.ids])

    def cosines(self, query: str) -> np.ndarray:
        return self.matrix @ self.model.embed([query], query=True)[0]


def pool_for(query: str, lexical: dict[str, float], index: AbstractIndex, settings: Settings,
             corpus: BgeCorpus) -> Pool:
    """The three rankings' tops for ``query`` and every signal of their union (``lexical``:
    BM25 by paper, over the whole corpus)."""
    vector = index.query_vector(query)
    minilm = {pid: hit.score for pid, (_, hit) in _rank_papers(
        index.search_dense(query, settings.retrieval.candidates, vector)).items()}
    minilm_top = sorted(minilm, key=lambda p: -minilm[p])[:POOL]
    every = corpus.cosines(query)
    bge_top = [corpus.ids[i] for i in np.argsort(-every)[:POOL]]
    lexical_top = sorted(lexical, key=lambda p: -lexical[p])[:POOL]
    union = list(dict.fromkeys(lexical_top + minilm_top + bge_top))
    minilm.update(index.paper_cosines(vector, [p for p in union if p not in minilm]))
    position = {pid: i for i, pid in enumerate(corpus.ids)}
    return Pool(query, lexical_top, minilm_top, bge_top,
                {p: lexical[p] for p in union if p in lexical},
                {p: minilm[p] for p in union if p in minilm},
                {p: float(every[position[p]]) for p in union})


def main() -> None:
    data_dir, count, settings, index = pairs_args()
    papers = index.papers()
    texts = {pid: p.text for pid, p in papers.items()}
    stats = index.keyword_stats()
    corpus = BgeCorpus(BGE(), papers, data_dir)

    bm25 = untitled_bm25(index)
    pairs: list[tuple[Pool, str]] = []
    for n, pid in enumerate(title_pair_papers(papers, count), 1):  # train_ranker's pairs
        title = papers[pid].title
        pairs.append((pool_for(title, bm25(title), index, settings, corpus), pid))
        if n % 500 == 0:
            print(f"  {n}/{count} title pools", flush=True)
    cut = int(0.8 * len(pairs))

    questions = [(item, relevant, pool_for(item.question, lexical, index, settings, corpus))
                 for item, relevant, _, lexical, _ in eval_questions(index, settings, papers)]
    figures: dict[str, dict[str, object]] = {}
    for variant in VARIANTS:
        groups = []
        for pool, pid in pairs:
            ids, x = pool.features(variant, texts, stats)
            groups.append((x, ids.index(pid)) if pid in ids else None)
        found = [g for g in groups if g is not None]
        weights = fit([g for g in groups[:cut] if g is not None])
        held = [10**6 if g is None else rank_of(list(np.argsort(-(g[0] @ weights), kind="stable")),
                                                {g[1]})
                for g in groups[cut:]]
        ranks: dict[str, list[int]] = {}
        for item, relevant, pool in questions:
            ids, x = pool.features(variant, texts, stats)
            order = list(np.argsort(-(x @ weights), kind="stable"))
            ranks.setdefault(item.split, []).append(
                rank_of(order, {i for i, p in enumerate(ids) if p in relevant}))
        figures[variant] = {
            "pairs_with_paper_among_candidates": len(found),
            "held_out_pairs": metrics(held),
            "eval_among_distractors": {s: metrics(r) for s, r in sorted(ranks.items())},
            "weights": [round(float(w), 4) for w in weights]}
        print(f"{variant:7s} held-out {metrics(held)}  "
              + "  ".join(f"{s} {metrics(r)}" for s, r in sorted(ranks.items())), flush=True)
    save("bge_ranker", {"pairs": count, "trained": cut, "pool": POOL, "variants": figures,
                        "note": "each variant retrained on the same title pairs; expected "
                                "papers alone; dev decides, test only reported"})


if __name__ == "__main__":
    main()
