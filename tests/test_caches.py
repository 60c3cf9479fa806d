"""The answer-path caches (issue 10): they save work and change no answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import make_settings

from assistant import extractive
from assistant import index as index_module
from assistant.embedding import MiniLMOnnxEmbedding
from assistant.index import AbstractIndex
from assistant.pipeline import Assistant

QUESTION = "How many languages can MuRating handle?"


def test_a_repeated_question_embeds_nothing_and_answers_the_same(
        seed_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quoted abstracts' sentences and the question are embedded once per process: a
    second ask embeds no text at all, and its answer is the first one, word for word, as is
    the answer of a process whose caches were emptied."""
    embedded: list[int] = []
    real = MiniLMOnnxEmbedding.embed

    def counting(self: MiniLMOnnxEmbedding, texts: list[str], *args: object) -> np.ndarray:
        embedded.append(len(texts))
        return real(self, texts, *args)

    monkeypatch.setattr(MiniLMOnnxEmbedding, "embed", counting)
    extractive._CACHE.clear()
    app = Assistant(make_settings(seed_dir))
    first = app.ask(QUESTION)
    assert first.mode == "extractive" and first.citations and sum(embedded) > 1
    embedded.clear()
    again = app.ask(QUESTION)
    assert embedded == []
    assert again.answer == first.answer
    extractive._CACHE.clear()
    fresh = Assistant(make_settings(seed_dir)).ask(QUESTION)
    assert fresh.answer == first.answer


@pytest.mark.parametrize("page", [7, 8])  # 70 seed chunks: 10 full pages; 8 and a part
def test_papers_read_in_pages_are_all_the_papers(seed_dir: Path, page: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``papers`` reads the chunks' metadata a page at a time (memory): with pages much
    smaller than the store, whether the last one is full or not, every paper is there once,
    in the order one read of everything gives them."""
    index = AbstractIndex(make_settings(seed_dir))
    chunks = index.chunk_count()
    monkeypatch.setattr(index_module, "PAGE_CHUNKS", page)
    assert chunks == 70
    paged = index.papers()
    got = index._collection.get(include=["metadatas"])
    assert list(paged) == list(dict.fromkeys(str(m["paper_id"]) for m in got["metadatas"]))
    assert len(paged) == 38
