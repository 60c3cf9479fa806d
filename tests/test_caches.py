"""The answer-path caches (issue 10): they save work and change no answer."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from conftest import make_settings

from assistant import extractive
from assistant import store as store_module
from assistant.chunks import SENTENCES_KEY, paper_from_meta
from assistant.corpus import split_sentences
from assistant.embedding import MiniLMOnnxEmbedding
from assistant.index import AbstractIndex
from assistant.pipeline import Assistant

QUESTION = "How many languages can MuRating handle?"


def count_embedded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, how many texts each call of the MiniLM model embeds."""
    embedded: list[int] = []
    real = MiniLMOnnxEmbedding.embed

    def counting(self: MiniLMOnnxEmbedding, texts: list[str], *args: object) -> np.ndarray:
        embedded.append(len(texts))
        return real(self, texts, *args)

    monkeypatch.setattr(MiniLMOnnxEmbedding, "embed", counting)
    return embedded


def test_a_repeated_question_embeds_nothing_and_answers_the_same(
        seed_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quoted abstracts' sentence vectors come from the store (made at ingest) and the
    question is embedded once per process: the first ask embeds the question alone, a second
    one nothing at all, and its answer is the first one, word for word, as is the answer of
    a process whose caches were emptied."""
    embedded = count_embedded(monkeypatch)
    extractive._CACHE.clear()
    app = Assistant(make_settings(seed_dir))
    first = app.ask(QUESTION)
    assert first.mode == "extractive" and first.citations and embedded == [1]
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
    monkeypatch.setattr(index.keywords, "saved_papers", lambda: None)  # read Chroma, not the copy
    monkeypatch.setattr(store_module, "PAGE_CHUNKS", page)
    assert chunks == 70
    paged = index.papers()
    got = index.store.collection.get(include=["metadatas"])
    assert list(paged) == list(dict.fromkeys(str(m["paper_id"]) for m in got["metadatas"]))
    assert len(paged) == 38


def test_every_seed_sentence_has_a_stored_vector_close_to_its_own(seed_dir: Path) -> None:
    """Ingest stores a vector for every sentence of every abstract (``split_sentences``
    order), pooled from its chunk's run of the model: unit length, and close in meaning to
    the sentence embedded on its own (the vectors differ by the chunk's context only)."""
    index = AbstractIndex(make_settings(seed_dir))
    papers = list(index.papers().values())
    stored = index.sentence_vectors(papers)
    assert set(stored) == {p.paper_id for p in papers}
    paper = next(p for p in papers if "MuRating" in p.text)
    sentences = split_sentences(paper.text)
    vectors = stored[paper.paper_id]
    assert vectors.shape == (len(sentences), 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=2e-3)  # float16
    alone = index.embed_model.embed(sentences)
    own = (vectors * alone).sum(axis=1)
    others = vectors @ alone.T
    assert own.min() > 0.6
    # each stored vector is nearest to its own sentence's, not to a neighbour's
    assert (others.argmax(axis=1) == np.arange(len(sentences))).mean() >= 0.8


def test_a_paper_stored_without_sentence_vectors_embeds_them_when_asked(
        seed_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index built before sentence vectors were stored (or one whose vectors no longer
    fit the paper's sentences) still answers: the sentences are embedded at question time."""
    import shutil

    data = tmp_path / "old"
    shutil.copytree(seed_dir, data)
    index = AbstractIndex(make_settings(data))
    got = index.store.collection.get(include=["metadatas"])
    metas = []
    for meta in got["metadatas"]:
        meta = dict(meta)
        packed = meta.get(SENTENCES_KEY)
        if meta["chunk"] == 0 or not packed:
            meta[SENTENCES_KEY] = None  # removed: an index from before them
        else:  # made for another sentence count than the paper has
            fmt, _, rest = packed.split(":", 2)
            meta[SENTENCES_KEY] = f"{fmt}:999:{rest}"
        metas.append(meta)
    index.store.collection.update(ids=got["ids"], metadatas=metas)
    assert index.sentence_vectors(index.papers().values()) == {}
    embedded = count_embedded(monkeypatch)
    extractive._CACHE.clear()
    answer = Assistant(make_settings(data)).ask(QUESTION)
    assert answer.citations and "MuRating" in answer.answer
    assert sum(embedded) > 1  # the question and the quoted papers' sentences


def test_the_papers_saved_beside_bm25_are_the_stored_papers(seed_dir: Path, tmp_path: Path) -> None:
    """A new process takes the papers from the copy saved with the BM25 index, the same
    papers in the same order as Chroma's metadata gives; after a write, whoever made it, the
    copy no longer counts until BM25 is rebuilt, and the new paper is there."""
    import json
    import shutil

    data = tmp_path / "data"
    shutil.copytree(seed_dir, data)
    index = AbstractIndex(make_settings(data))
    saved = index.keywords.saved_papers()
    assert saved is not None and len(saved) == 38
    got = index.store.collection.get(include=["metadatas"])
    read = {}
    for meta in got["metadatas"]:
        read.setdefault(str(meta["paper_id"]), paper_from_meta(meta))
    assert list(saved) == list(read) and saved == read
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps({"title": "Wombat routing", "abstract": "We route wombats "
                                 "through burrows with a learned planner.", "year": 2024}) + "\n")
    other = AbstractIndex(make_settings(data))  # another writer
    other.ingest([extra])
    index.store.refresh(force=True)
    papers = index.papers()
    assert len(papers) == 39 and any(p.title == "Wombat routing" for p in papers.values())
    assert index.keywords.saved_papers() == papers  # the writer saved a copy of the new state


def test_preloading_the_model_while_it_is_loaded_builds_one_session() -> None:
    """`assistant ask` starts building the ONNX session in a thread; the embedder it then
    loads waits for that session instead of building a second one."""
    from assistant import embedding

    embedding._open_minilm_session.cache_clear()
    embedding.preload(make_settings(Path("unused")))
    [builder] = [t for t in threading.enumerate() if t.name == "preload-embedding"]
    assert not builder.daemon  # an exit waits for it: onnxruntime aborts if torn down mid-build
    model = MiniLMOnnxEmbedding()  # while the thread is still building (it takes ~0.4 s)
    assert embedding._open_minilm_session.cache_info().misses == 1
    assert model.embed(["a question"]).shape == (1, 384)


def test_heavy_imports_pause_the_collector_and_restore_it() -> None:
    """The collector is off inside ``importing`` and back on after it; what existed is frozen
    only when the block imported something new (a freeze also keeps cyclic garbage for good,
    so `assistant serve` re-running an import it has done must not freeze anything)."""
    import gc
    import sys
    import types

    from assistant.imports import importing

    frozen = gc.get_freeze_count()
    try:
        with importing():
            assert not gc.isenabled()
        assert gc.isenabled() and gc.get_freeze_count() == frozen  # nothing new imported
        with importing():
            sys.modules["assistant_test_fresh_module"] = types.ModuleType("fresh")
        assert gc.isenabled() and gc.get_freeze_count() > frozen
        gc.disable()
        with importing():
            pass
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        sys.modules.pop("assistant_test_fresh_module", None)
        gc.enable()
        gc.unfreeze()
