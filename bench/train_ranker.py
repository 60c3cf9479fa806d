"""Train the learned ranker (assistant/ranking.py) on the corpus itself, never on the eval.

Usage: python bench/train_ranker.py [DATA_DIR] [N]   (default .data-distractors, 2000 pairs)

Each pair is a paper's title as the question and its abstract as the answer. The documents
the signals read leave every title out (BM25 is rebuilt here over the untitled chunks; the
stored vectors never held titles), so a title cannot find itself. Papers that any eval
question expects are left out, and so are the seeds. 80% of the pairs train, 20% are held
out; writes assistant/ranker.json (the weights) and bench/results/ranker.json (held-out
hit@1 / MRR of the ranker beside BM25, dense and the DBSF fusion it replaces).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import bm25s
import numpy as np
from common import pairs_args, reading_fingerprint, save

import assistant  # noqa: F401
from assistant.candidates import fuse
from assistant.corpus import Paper
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.index import AbstractIndex, ChunkHit
from assistant.keywords import best_reading_scores, tokenize
from assistant.ranking import FEATURES, Candidates, candidate_features, train
from assistant.settings import PROJECT_ROOT
from assistant.tuning import POOL

SEED = 0


def per_paper(paper_of: np.ndarray, ids: list[str], scores: np.ndarray) -> dict[str, float]:
    best = np.zeros(len(ids))
    np.maximum.at(best, paper_of, scores)
    return {ids[i]: float(best[i]) for i in np.flatnonzero(best > 0)}


def untitled_bm25(index: AbstractIndex) -> Callable[[str], dict[str, float]]:
    """BM25 rebuilt over the stored chunks, which never hold titles: a query's score by
    paper (a title cannot find itself through its own words)."""
    chunk_papers, chunk_texts = index.chunk_texts()
    paper_ids = list(dict.fromkeys(chunk_papers))
    position = {pid: i for i, pid in enumerate(paper_ids)}
    paper_of = np.array([position[p] for p in chunk_papers])
    bm25 = bm25s.BM25()
    bm25.index(tokenize(chunk_texts), show_progress=False)
    vocab = bm25.vocab_dict

    def scores(query: str) -> dict[str, float]:  # as index.bm25_paper_scores reads a query
        found = best_reading_scores(query, vocab, bm25.get_scores)
        return {} if found is None else per_paper(paper_of, paper_ids, found)
    return scores


def title_pair_papers(papers: dict[str, Paper], count: int) -> list[str]:
    """The ``count`` papers whose titles are the training questions: from the CSV corpus,
    titles of three words or more, never a paper the eval expects; shuffled with SEED."""
    expected = {src for item in load_dataset(DEFAULT_DATASET) for src in item.expected_sources}
    pool = sorted(pid for pid, p in papers.items()
                  if p.file.endswith(".csv") and p.source not in expected
                  and len(p.title.split()) >= 3)
    random.Random(SEED).shuffle(pool)
    print(f"{len(papers)} papers, {len(pool)} usable titles, {min(count, len(pool))} pairs",
          flush=True)
    return pool[:count]


def ranks_of(scores: dict[str, float], positive: str) -> int:
    order = sorted(scores, key=lambda p: -scores[p])
    return order.index(positive) + 1 if positive in order else 10**6


def main() -> None:
    data_dir, count, settings, index = pairs_args()
    papers = index.papers()
    chosen = title_pair_papers(papers, count)

    bm25 = untitled_bm25(index)
    stats = index.keyword_stats()
    texts = {pid: p.text for pid, p in papers.items()}

    # the candidates and BM25 scores depend on how keywords.py reads texts and questions:
    # any change to it searches afresh
    cache = (PROJECT_ROOT / "bench" / "results"
             / f".ranker-signals-{data_dir.name}-{count}-{reading_fingerprint()}.pkl")
    signals = pickle.loads(cache.read_bytes()) if cache.is_file() else {}
    groups: list[tuple[Candidates, int, dict[str, float], dict[str, float]]] = []
    for n, pid in enumerate(chosen, 1):
        if pid in signals:  # the slow part (searching) done by an earlier run
            title, ids, lexical, dense = signals[pid]
            if pid in ids:
                found = candidate_features(title, ids, lexical, dense, texts, stats)
                groups.append((found, ids.index(pid), lexical, dense))
            continue
        title = papers[pid].title
        lexical = bm25(title)
        hits = index.search_dense(title, settings.retrieval.candidates)
        dense: dict[str, float] = {}
        for hit in hits:
            dense[hit.paper_id] = max(dense.get(hit.paper_id, -1.0), hit.score)
        top_lexical = sorted(lexical, key=lambda p: -lexical[p])[:POOL]
        top_dense = sorted(dense, key=lambda p: -dense[p])[:POOL]
        ids = list(dict.fromkeys(top_lexical + top_dense))
        missing = [p for p in ids if p not in dense]
        dense.update(index.paper_cosines(index.query_vector(title), missing))
        lexical = {p: lexical[p] for p in ids if p in lexical}  # all the features read
        dense = {p: dense[p] for p in ids if p in dense}
        signals[pid] = (title, ids, lexical, dense)
        if pid not in ids:
            continue
        found = candidate_features(title, ids, lexical, dense, texts, stats)
        groups.append((found, ids.index(pid), lexical, dense))
        if n % 200 == 0:
            print(f"  {n}/{len(chosen)} pairs, {len(groups)} with the paper among candidates",
                  flush=True)

    cache.write_bytes(pickle.dumps(signals))
    cut = int(0.8 * len(groups))
    ranker = train([(g[0].features, g[1]) for g in groups[:cut]])
    held = groups[cut:]

    def dbsf(lexical: dict[str, float], dense: dict[str, float]) -> dict[str, float]:
        def ranked(scores: dict[str, float]) -> dict[str, tuple[int, ChunkHit]]:
            order = sorted(scores, key=lambda p: -scores[p])[:POOL]
            return {p: (i + 1, ChunkHit("", p, "", scores[p])) for i, p in enumerate(order)}
        return fuse(ranked(lexical), ranked(dense), (1.0, 1.0), "dbsf", 60)

    metrics: dict[str, dict[str, float]] = {}
    for name in ("ranker", "dbsf", "bm25", "dense"):
        ranks = []
        for found, positive, lexical, dense in held:
            pid = found.paper_ids[positive]
            if name == "ranker":
                scores = dict(zip(found.paper_ids, ranker.scores(found), strict=True))
            else:
                scores = {"dbsf": dbsf(lexical, dense), "bm25": lexical, "dense": dense}[name]
            ranks.append(ranks_of(scores, pid))
        metrics[name] = {"hit@1": float(np.mean([r == 1 for r in ranks])),
                         "hit@5": float(np.mean([r <= 5 for r in ranks])),
                         "mrr": float(np.mean([1 / r for r in ranks]))}
        print(f"{name:7s} " + "  ".join(f"{k} {v:.3f}" for k, v in metrics[name].items()))
    info = {"trained_on": f"{cut} title→abstract pairs from {data_dir.name} (seed {SEED})",
            "held_out": metrics}
    (PROJECT_ROOT / "assistant" / "ranker.json").write_text(ranker.to_json(**info))
    print(dict(zip(FEATURES, np.round(ranker.weights, 3), strict=True)))
    save("ranker", {"pairs": len(chosen), "groups": len(groups), "trained": cut,
                    "held_out": len(held), "metrics": metrics,
                    "weights": dict(zip(FEATURES, ranker.weights.tolist(), strict=True))})


if __name__ == "__main__":
    main()
