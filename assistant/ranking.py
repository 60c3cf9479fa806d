"""The learned ranker: one linear score over signals retrieval already computes.

Why: among many thousand abstracts neither BM25 nor dense nor a fixed fusion of the two puts the
right paper first often enough, and each fails on different questions. A linear model over
per-question-normalised signals (BM25, dense cosine, keyword coverage, rare-term match)
weighs them by what worked on title → abstract pairs drawn from the 1987–2021 corpus
itself (``bench/train_ranker.py``), never on the eval questions. It needs no new weights
beyond the few numbers in ``ranker.json``.

The signals are computed here from plain inputs (scores by paper id, texts, keyword stats),
so the trainer and the retriever build the very same features.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

import numpy as np

from assistant.keywords import KeywordStats, coverage_of_terms, document_terms, keyword_weights
from assistant.tuning import LEADING_WORDS, RARE_CHUNKS

FEATURES = ("bm25_rel", "bm25_z", "dense", "dense_gap", "dense_z", "coverage", "rare",
            "rare_share")
WEIGHTS_FILE = "ranker.json"


@dataclass(frozen=True)
class Candidates:
    """The papers to order, with each one's raw signals (aligned arrays)."""

    paper_ids: list[str]
    features: np.ndarray  # (n, len(FEATURES))

    def __len__(self) -> int:
        return len(self.paper_ids)


@lru_cache(maxsize=16384)
def text_terms(text: str) -> frozenset[str]:
    """The stemmed terms of a candidate's text, cached: the same abstracts come back question
    after question, and tokenizing them was a third of the retrieval time at 13.9k papers."""
    return frozenset(document_terms(text))


def cached_coverage(weights: Mapping[str, float], text: str) -> float:
    """``keywords.coverage`` over ``text_terms`` (the same sum, in the same order)."""
    return coverage_of_terms(weights, text_terms(text))


@lru_cache(maxsize=16384)
def leading(text: str) -> str:
    """``text`` up to its first LEADING_WORDS words (whole when shorter)."""
    words = text.split(maxsplit=LEADING_WORDS)
    return text if len(words) <= LEADING_WORDS else " ".join(words[:LEADING_WORDS])


def rare_terms(weights: Mapping[str, float], stats: KeywordStats) -> frozenset[str]:
    """The question's keywords (``weights``) found in at most RARE_CHUNKS chunks."""
    return frozenset(t for t in weights if 0 < stats.doc_freq(t) <= RARE_CHUNKS)


def read_coverage(weights: Mapping[str, float], rare: frozenset[str], text: str,
                  title: str = "", unheld: AbstractSet[str] = frozenset(),
                  held: AbstractSet[str] = frozenset()) -> tuple[float, frozenset[str]]:
    """The share of the question's keyword weight ``title`` and ``text`` hold, the text read
    as far as an abstract goes: its common words count in the first LEADING_WORDS, a ``rare``
    one anywhere (it is how a researcher finds the one full paper that uses it, "tachometer"
    on page 5); with the rare words the text holds. ``held`` terms count as present and
    ``unheld`` ones as absent (the parts of a hyphenated word the text writes joined, the
    words of a name it does not write as one: ``word_runs.run_terms``)."""
    present = rare & text_terms(text) if rare else frozenset()
    read = text_terms(leading(text)) | present | (text_terms(title) if title else frozenset())
    return coverage_of_terms(weights, (read | held) - unheld), present - unheld


def _zscore(values: np.ndarray) -> np.ndarray:
    spread = float(values.std())
    return (values - values.mean()) / spread if spread > 1e-9 else np.zeros_like(values)


def candidate_features(
    question: str,
    paper_ids: Sequence[str],
    bm25: Mapping[str, float],
    dense: Mapping[str, float],
    texts: Mapping[str, str],
    stats: KeywordStats,
) -> Candidates:
    """Features of each candidate for ``question``: ``bm25`` and ``dense`` map paper ids to
    their best chunk's score (BM25 over the whole corpus, cosine), ``texts`` to the abstract
    the lexical signals read (without its title, as in training; its common words in the
    first LEADING_WORDS)."""
    ids = list(paper_ids)
    b = np.array([bm25.get(pid, 0.0) for pid in ids], dtype=np.float64)
    d = np.array([dense.get(pid, 0.0) for pid in ids], dtype=np.float64)
    top_bm25 = max(bm25.values(), default=0.0) or 1.0
    weights = keyword_weights(question, stats)
    rare = rare_terms(weights, stats)
    rare_weight = sum(weights[t] for t in rare) or 1.0
    cov = np.zeros(len(ids))
    rare_hit = np.zeros(len(ids))
    rare_share = np.zeros(len(ids))
    for i, pid in enumerate(ids):
        cov[i], present = read_coverage(weights, rare, texts.get(pid, ""))
        if present:
            rare_hit[i] = 1.0
            rare_share[i] = sum(weights[t] for t in present) / rare_weight
    columns = [b / top_bm25, _zscore(b), d, d - (d.max() if len(d) else 0.0), _zscore(d), cov,
               rare_hit, rare_share]
    return Candidates(ids, np.column_stack(columns) if ids else np.zeros((0, len(FEATURES))))


@dataclass(frozen=True)
class Neighbourhood:
    """The off-topic check of a large store. A question whose nearest papers are all far off
    (the mean cosine of its ``NEAREST`` closest, each by its best chunk, below ``below``; a
    whole paper stored as many chunks once filled the ten alone) is about nothing the corpus
    covers, even when one abstract shares a rare word with it ("passport", "cricket"): the
    ranker's evidence cannot tell such a match from a topical one. A small store has no
    neighbourhoods to speak of (among the 38 seeds answerable and off-topic questions
    overlap), so the check applies from ``min_chunks`` on, and only with the embedding
    ``model`` it was calibrated with (bench/calibrate_abstention.py, dev split)."""

    below: float
    min_chunks: int
    model: str

    def applies(self, chunks: int, model: str) -> bool:
        return chunks >= self.min_chunks and model == self.model


@dataclass(frozen=True)
class JointReading:
    """The refusal of a large store that reads the ranker's evidence and the cross-encoder
    together: no sources when evidence + ``weight`` × the cross-encoder's best logit over the
    answer's first papers is below ``below``. Each alone is calibrated low enough to spare
    every answerable dev question; a question whose own paper is missing from the store
    (bench/masked_papers.py) is often middling on both, and an answerable one seldom is.
    bench/calibrate_abstention.py fits ``weight`` on the bench's tuning questions and sets
    ``below`` on them and the dev split together. Like the off-topic check it applies only
    where it was calibrated: from ``min_chunks`` on (on the 38 seeds an answerable dev
    question reads too low), with the embedding ``model`` whose cosines the evidence weighs,
    and to a question asked of the whole store (under a year or venue filter the evidence
    is the filtered papers' own, and answerable questions read lower).

    An answer whose joint score is under ``doubt_below``, wherever the cross-encoder read its
    first papers, is given with a notice that the abstracts may not say what was asked
    (``Answer.unsure``): a question over the bound, and one exempt from the refusal (its
    first papers hold its keywords) that the reread reads because the ranker is unsure. A
    fake answer to a question about a paper the store lacks is more often middling than
    refused, and the bound cannot rise without refusing answerable questions. Set by
    bench/calibrate_abstention.py as high as it stays on at most a tenth of the answers led
    by a right paper; None, no notice. The mark applies from ``doubt_min_chunks`` on, below
    the refusal's ``min_chunks``: in a store of one conference (bench/store_sizes.py) a
    question the refusal would take there is marked instead."""

    weight: float
    below: float
    min_chunks: int
    model: str
    doubt_below: float | None = None
    doubt_min_chunks: int | None = None

    def applies(self, chunks: int, model: str) -> bool:
        return chunks >= self.min_chunks and model == self.model

    def marks(self, chunks: int, model: str) -> bool:
        """The unsure mark applies to this store (from ``doubt_min_chunks``, else where the
        refusal does)."""
        least = self.min_chunks if self.doubt_min_chunks is None else self.doubt_min_chunks
        return chunks >= least and model == self.model

    def score(self, evidence: float, reading: float) -> float:
        return evidence + self.weight * reading

    def refuses(self, evidence: float, reading: float) -> bool:
        return self.score(evidence, reading) < self.below

    def doubts(self, evidence: float, reading: float) -> bool:
        return self.doubt_below is not None and self.score(evidence, reading) < self.doubt_below




@dataclass(frozen=True)
class LinearRanker:
    """score = features · weights; trained listwise (softmax over each question's
    candidates), so scores compare within a question and ``probabilities`` says how sure."""

    weights: np.ndarray
    temperature: float = 1.0
    abstain_below: float | None = None  # the best paper's score below which no answer is given
    neighbourhood: Neighbourhood | None = None
    # the cross-encoder's best logit over an answer's first papers below which none is given
    cross_encoder_below: float | None = None
    joint_reading: JointReading | None = None

    def scores(self, candidates: Candidates) -> np.ndarray:
        return candidates.features @ self.weights

    def probabilities(self, scores: np.ndarray) -> np.ndarray:
        """Softmax of the scores: the share of belief each candidate gets."""
        if not len(scores):
            return scores
        z = (scores - scores.max()) / self.temperature
        e = np.exp(z)
        return e / e.sum()

    def to_json(self, **info: object) -> str:
        return json.dumps({"features": list(FEATURES),
                           "weights": [round(float(w), 6) for w in self.weights],
                           "temperature": self.temperature, "abstain_below": self.abstain_below,
                           "neighbourhood": (dataclasses.asdict(self.neighbourhood)
                                             if self.neighbourhood else None),
                           "cross_encoder_below": self.cross_encoder_below,
                           "joint_reading": (dataclasses.asdict(self.joint_reading)
                                             if self.joint_reading else None),
                           **info}, indent=1) + "\n"


@cache
def load_ranker() -> LinearRanker:
    """The shipped weights (``assistant/ranker.json``), checked against ``FEATURES``."""
    data = json.loads((files("assistant") / WEIGHTS_FILE).read_text())
    if data["features"] != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was trained on features {data['features']}, "
                         f"not {list(FEATURES)}: retrain with bench/train_ranker.py")
    threshold = data.get("abstain_below")
    neighbourhood = data.get("neighbourhood")
    reading = data.get("cross_encoder_below")
    joint = data.get("joint_reading")
    return LinearRanker(np.asarray(data["weights"], dtype=np.float64),
                        float(data.get("temperature", 1.0)),
                        None if threshold is None else float(threshold),
                        Neighbourhood(**neighbourhood) if neighbourhood else None,
                        None if reading is None else float(reading),
                        JointReading(**joint) if joint else None)


def train(groups: Sequence[tuple[np.ndarray, int]], l2: float = 1e-3, steps: int = 2000,
          rate: float = 0.5) -> LinearRanker:
    """Listwise softmax regression: for each question, (features of its candidates, index of
    the right one); full-batch gradient descent on padded arrays, deterministic."""
    width = max(len(x) for x, _ in groups)
    x_all = np.zeros((len(groups), width, len(FEATURES)))
    mask = np.full((len(groups), width), -np.inf)
    positives = np.zeros((len(groups), len(FEATURES)))
    for g, (x, positive) in enumerate(groups):
        x_all[g, :len(x)] = x
        mask[g, :len(x)] = 0.0
        positives[g] = x[positive]
    w = np.zeros(len(FEATURES))
    for _ in range(steps):
        s = x_all @ w + mask
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        expected = np.einsum("gn,gnf->gf", p, x_all)
        w -= rate * ((expected - positives).mean(axis=0) + l2 * w)
    return LinearRanker(w)
