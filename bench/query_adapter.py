"""A lever measured: a linear adapter on the question's MiniLM vector, learnt from the corpus's
own titles, so that dense retrieval reads questions more like the abstracts that answer them
(the stored vectors are untouched: nothing is re-embedded).

Usage: python bench/query_adapter.py [DATA_DIR]   (default .data-distractors; ~1 min)

The adapter maps a question vector q to normalise(q + q A) (A 384 × 384, from zero). It is
trained on the titles of the 1987–2021 papers as questions and their stored chunks as
answers: a softmax over every paper of the store, each scored by its best chunk as retrieval
scores it (temperature 0.05, Adam, L2 1e-4 on A, batches of 128, three epochs), on 90% of the
titles of three words or more, never a paper the eval or a bench question set asks about,
nor one of ``bench/train_ranker.py``'s title pairs (the ranker would read an adapted cosine
it was trained on). Reported: dense retrieval alone, first paper right and any of the first
10, before and after, on the 10% of titles held out, the ranker's title pairs, the
questions of ``bench/key_facts.py`` (tuning and held out), ``bench/ranker_questions.jsonl``
and the eval's answerable questions among the distractors (dev decides; test only reported).
Writes bench/results/query_adapter.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from common import read_jsonl, save
from key_facts import QUESTIONS as KEY_FACTS_QUESTIONS
from question_ranker import QUESTIONS as RANKER_QUESTIONS
from train_ranker import title_pair_papers

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.index import AbstractIndex
from assistant.settings import PROJECT_ROOT, Settings

TEMPERATURE = 0.05
L2 = 1e-4
RATE = 1e-3
BATCH = 128
EPOCHS = 3


class Scorer:
    """Each paper's score for a batch of question vectors, as retrieval scores it: its best
    chunk's cosine (chunks sorted by paper, so that one ``reduceat`` takes each paper's max)."""

    def __init__(self, chunk_papers: list[int], vectors: np.ndarray) -> None:
        order = np.argsort(np.array(chunk_papers), kind="stable")
        sorted_papers = np.array(chunk_papers)[order]
        self.starts = np.flatnonzero(np.r_[True, sorted_papers[1:] != sorted_papers[:-1]])
        self.papers = sorted_papers[self.starts]  # the paper of each column
        self.counts = np.diff(np.r_[self.starts, len(sorted_papers)])
        self.chunks = vectors[order]

    def best(self, questions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(each paper's score, column by ``self.papers``; the chunk-level mask of the chunks
        those scores come from)."""
        sims = questions @ self.chunks.T
        scores = np.maximum.reduceat(sims, self.starts, axis=1)
        return scores, sims == np.repeat(scores, self.counts, axis=1)


def adapted(questions: np.ndarray, a: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    raw = questions if a is None else questions + questions @ a
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    return raw / norms, norms


def train(scorer: Scorer, questions: np.ndarray, answers: np.ndarray,
          rng: np.random.Generator) -> np.ndarray:
    """Softmax over every paper; the gradient of each question's loss through its papers'
    best chunks and the normalisation, by hand (deterministic with ``rng``)."""
    dim = questions.shape[1]
    a = np.zeros((dim, dim), dtype=np.float32)
    first, second = np.zeros_like(a), np.zeros_like(a)
    step = 0
    for epoch in range(EPOCHS):
        order = rng.permutation(len(questions))
        total = 0.0
        for start in range(0, len(order), BATCH):
            batch = order[start:start + BATCH]
            q = questions[batch]
            unit, norms = adapted(q, a)
            scores, best_chunk = scorer.best(unit)
            logits = scores / TEMPERATURE
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            rows = np.arange(len(batch))
            total += float(-np.log(p[rows, answers[batch]] + 1e-12).sum())
            p[rows, answers[batch]] -= 1.0  # d loss / d score, by paper column
            by_chunk = np.repeat(p, scorer.counts, axis=1) * best_chunk
            grad_unit = by_chunk @ scorer.chunks / TEMPERATURE
            grad_raw = (grad_unit - unit * (grad_unit * unit).sum(axis=1, keepdims=True)) / norms
            grad = q.T @ grad_raw / len(batch) + 2 * L2 * a
            step += 1
            first = 0.9 * first + 0.1 * grad
            second = 0.999 * second + 0.001 * grad ** 2
            a -= RATE * (first / (1 - 0.9 ** step)) / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
        print(f"  epoch {epoch + 1}: loss {total / len(order):.3f}", flush=True)
    return a


def dense_hits(scorer: Scorer, questions: np.ndarray, relevant: list[set[int]],
               a: np.ndarray | None) -> dict[str, float]:
    found = {"hit@1": 0, "hit@10": 0}
    for start in range(0, len(questions), BATCH):
        scores, _ = scorer.best(adapted(questions[start:start + BATCH], a)[0])
        top = scorer.papers[np.argsort(-scores, axis=1)[:, :10]]
        for row, papers in enumerate(top):
            right = relevant[start + row]
            found["hit@1"] += int(papers[0] in right)
            found["hit@10"] += int(bool(right & set(papers.tolist())))
    return {k: round(v / len(questions), 3) for k, v in found.items()}


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    settings = Settings()
    settings.data.dir = data_dir
    index = AbstractIndex(settings)
    papers = index.papers()
    ids = list(papers)
    order = {pid: i for i, pid in enumerate(ids)}
    by_source = {p.source: order[pid] for pid, p in papers.items()}
    chunk_papers, vectors = index.chunk_vectors()
    scorer = Scorer([order[pid] for pid in chunk_papers], vectors)
    column = {int(paper): c for c, paper in enumerate(scorer.papers)}

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(index.embed_model.embed(texts), dtype=np.float32)

    items = [i for i in load_dataset(DEFAULT_DATASET)
             if i.answerable and all(s in by_source for s in i.expected_sources)]
    key_facts = read_jsonl(KEY_FACTS_QUESTIONS)
    ranker_questions = read_jsonl(RANKER_QUESTIONS)
    asked = ({by_source[s] for i in load_dataset(DEFAULT_DATASET) for s in i.relevant
              if s in by_source}
             | {by_source[r["expected_sources"][0]] for r in key_facts}
             | {by_source[r["source"]] for r in ranker_questions})
    pairs = {order[pid] for pid in title_pair_papers(papers, 2000)}
    titled = [order[pid] for pid, p in papers.items() if p.file.endswith(".csv")
              and len(p.title.split()) >= 3 and order[pid] not in asked | pairs]
    rng = np.random.default_rng(0)
    shuffled = rng.permutation(len(titled))
    cut = int(0.9 * len(titled))
    train_papers = np.array(titled)[shuffled[:cut]]
    held_papers = np.array(titled)[shuffled[cut:]]
    print(f"{len(ids)} papers, {len(vectors)} chunks; {cut} training titles, "
          f"{len(held_papers)} held out", flush=True)
    sets: dict[str, tuple[np.ndarray, list[set[int]]]] = {
        "held-out titles": (embed([papers[ids[p]].title for p in held_papers]),
                            [{int(p)} for p in held_papers]),
        "ranker title pairs": (embed([papers[ids[p]].title for p in sorted(pairs)]),
                               [{p} for p in sorted(pairs)]),
    }
    for name in ("tuning", "held-out"):
        rows = [r for r in key_facts if r["set"] == name]
        sets[f"key_facts {name}"] = (embed([r["question"] for r in rows]),
                                     [{by_source[r["expected_sources"][0]]} for r in rows])
    sets["ranker_questions"] = (embed([r["question"] for r in ranker_questions]),
                                [{by_source[r["source"]]} for r in ranker_questions])
    for split in ("dev", "test"):
        chosen = [i for i in items if i.split == split]
        sets[f"eval {split}"] = (embed([i.question for i in chosen]),
                                 [{by_source[s] for s in i.relevant if s in by_source}
                                  for i in chosen])
    before = {name: dense_hits(scorer, q, rel, None) for name, (q, rel) in sets.items()}
    adapter = train(scorer, embed([papers[ids[p]].title for p in train_papers]),
                    np.array([column[int(p)] for p in train_papers]), rng)
    after = {name: dense_hits(scorer, q, rel, adapter) for name, (q, rel) in sets.items()}
    for name in sets:
        print(f"{name:22s} dense hit@1 {before[name]['hit@1']:.3f} -> {after[name]['hit@1']:.3f}"
              f"   hit@10 {before[name]['hit@10']:.3f} -> {after[name]['hit@10']:.3f}")
    save("query_adapter", {"training_titles": cut, "held_out_titles": len(held_papers),
                           "temperature": TEMPERATURE, "l2": L2, "epochs": EPOCHS,
                           "before": before, "after": after})


if __name__ == "__main__":
    main()
