"""The cross-encoder (reranking.py) on its real weights, and the retriever's use of it: it
reorders the ranker's first two when the ranker is unsure, and only then."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FILE_A, FILE_B

from assistant.pipeline import Assistant
from assistant.reranking import RERANKER_SHA256, CrossEncoder, RerankerError, _session, model_dir
from assistant.retrieval import RERANK_BELOW


def test_the_cross_encoder_scores_the_answering_passage_highest() -> None:
    scores = CrossEncoder().scores(
        "How does Adam's implicit regularization differ from SGD's?",
        ["Protein contact maps are predicted with sparse attention over residues.",
         "Adam reduces a specific form of sharpness measure shaped by its adaptive updates, "
         "leading to qualitatively different solutions from SGD.",
         "We price goods online when past sales come from a shifted market."])
    assert scores.shape == (3,) and int(scores.argmax()) == 1
    assert scores[1] > scores[0] + 5 and scores[1] > scores[2] + 5
    assert CrossEncoder().scores("anything", []).shape == (0,)


def test_weights_that_are_not_the_pinned_file_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "reranker_en"
    shutil.copytree(model_dir(), folder)
    (folder / "model.onnx").write_bytes(b"not the model")
    with pytest.raises(RerankerError, match=rf"not the expected {RERANKER_SHA256}.*reinstall"):
        _session(folder)


def test_an_unsure_ranker_has_its_first_two_reread(seed_assistant: Assistant) -> None:
    """The ranker's places keep their probabilities; the two papers swap when the second is
    the one that answers; a sure ranker (≥ RERANK_BELOW) is left alone, as is the rest."""
    retriever = seed_assistant.retriever
    by_source = {p.source: pid for pid, p in seed_assistant.index.papers().items()}
    adam, craft, other = (by_source[f"{FILE_B}#4"], by_source[f"{FILE_B}#1"],
                          by_source[f"{FILE_A}#3"])
    question = "What implicit regularization does the Adam optimizer have compared with SGD?"
    unsure = {craft: 0.6, adam: 0.3, other: 0.1}
    retriever._rerank(question, unsure)
    assert unsure == {adam: 0.6, craft: 0.3, other: 0.1}
    sure = {craft: RERANK_BELOW, adam: 0.05, other: 0.05}
    retriever._rerank(question, sure)
    assert sure == {craft: RERANK_BELOW, adam: 0.05, other: 0.05}
    # The ranker's own order stands when the cross-encoder agrees with it.
    agreed = {adam: 0.6, craft: 0.3, other: 0.1}
    retriever._rerank(question, agreed)
    assert agreed == {adam: 0.6, craft: 0.3, other: 0.1}


def test_a_pair_scored_before_is_not_scored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    encoder = CrossEncoder()
    passages = ["Graph kernels computed by a Sylvester equation.", "Zebra finch song memory."]
    first = encoder.scores("How fast are random walk graph kernels?", passages)

    def run_again(*args: object) -> None:
        raise AssertionError("the cross-encoder ran again for pairs it had scored")

    monkeypatch.setattr(encoder, "_session", SimpleNamespace(run=run_again))
    again = encoder.scores("How fast are random walk graph kernels?", passages[::-1])
    assert again.tolist() == first[::-1].tolist()
