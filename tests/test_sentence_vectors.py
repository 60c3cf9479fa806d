"""Sentence vectors stored at ingest (issue 10): each is its own sentence's words in its
chunk's run of the model, whatever else the abstract repeats; and the word→stem memo that
speeds the ranker stays bounded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import make_settings

from assistant import keywords
from assistant.corpus import split_sentences
from assistant.embedding import MiniLMOnnxEmbedding
from assistant.index import AbstractIndex


@pytest.fixture(scope="module")
def model() -> MiniLMOnnxEmbedding:
    return MiniLMOnnxEmbedding()


def built(tmp_path: Path, model: MiniLMOnnxEmbedding, abstract: str) -> tuple[AbstractIndex, str]:
    """An index of one paper; returns it with its one chunk's text."""
    papers = tmp_path / "papers.jsonl"
    papers.write_text(json.dumps({"title": "T", "abstract": abstract}) + "\n")
    index = AbstractIndex(make_settings(tmp_path / "data"), embed_model=model)
    index.ingest([papers])
    (text,) = index.store.collection.get(include=["documents"])["documents"]
    return index, text


def pooled_at(model: MiniLMOnnxEmbedding, text: str, span: tuple[int, int]) -> np.ndarray:
    """``text[span]``'s vector in ``text``'s own run of the model: what should be stored."""
    return model.embed_with_spans([text], [[span]])[1][0][0]


@pytest.mark.parametrize("abstract, k", [
    # the third sentence also stands inside the first
    ("On ImageNet and on COCO, ResNet beats the strong baseline by a wide margin. We study "
     "robustness to corruptions and adversarial noise in detail. ResNet beats the strong "
     "baseline by a wide margin.", 2),
    # the fourth sentence repeats the first
    ("We release the code. We propose a sparse attention layer for long documents. It halves "
     "memory on long inputs. We release the code.", 3),
])
def test_a_sentence_found_twice_gets_its_own_place(tmp_path: Path, model: MiniLMOnnxEmbedding,
                                                   abstract: str, k: int) -> None:
    index, text = built(tmp_path, model, abstract)
    paper = next(iter(index.papers().values()))
    sentence = split_sentences(paper.text)[k]
    own, other = text.rindex(sentence), text.index(sentence)
    assert own != other
    stored = index.sentence_vectors([paper])[paper.paper_id][k]
    assert float(stored @ pooled_at(model, text, (own, own + len(sentence)))) > 0.999
    assert float(stored @ pooled_at(model, text, (other, other + len(sentence)))) < 0.99


def test_sentences_past_the_word_piece_limit_are_embedded_alone(
        tmp_path: Path, model: MiniLMOnnxEmbedding) -> None:
    """A chunk longer than the model reads (256 word pieces): the sentences it cut off get
    their own embedding, the others their span in the chunk's run."""
    sentences = [f"Sentence number {i} studies topic {chr(65 + i)} with method M{i}x in depth "
                 "and reports its detailed empirical findings on benchmarks." for i in range(20)]
    settings = make_settings(tmp_path / "data")
    settings.index.chunk_size = 1000  # one chunk, far past 256 word pieces
    papers = tmp_path / "papers.jsonl"
    papers.write_text(json.dumps({"title": "T", "abstract": " ".join(sentences)}) + "\n")
    index = AbstractIndex(settings, embed_model=model)
    index.ingest([papers])
    paper = next(iter(index.papers().values()))
    (text,) = index.store.collection.get(include=["documents"])["documents"]
    stored = index.sentence_vectors([paper])[paper.paper_id]
    assert stored.shape == (20, 384)
    alone = model.embed(sentences)
    covered = max(end for _, end in model._tokenizer.encode(text).offsets)
    cut = 0
    for k, sentence in enumerate(sentences):
        at = text.index(sentence)
        if at + len(sentence) > covered:
            cut += 1
            assert float(stored[k] @ alone[k]) > 0.999, k
        else:
            assert float(stored[k] @ pooled_at(model, text, (at, at + len(sentence)))) > 0.999, k
    assert 0 < cut < 20


def test_the_stem_memo_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Made-up words sent to a server must not grow it without end; the terms stay right."""
    monkeypatch.setattr(keywords, "STEMS_KEPT", 1000)
    rng = np.random.default_rng(0)
    letters = list("abcdefghijklmnopqrstuvwxyz")
    for _ in range(30):
        keywords.query_terms(" ".join("".join(rng.choice(letters, 9)) for _ in range(200)))
    assert len(keywords._STEMS) <= 1000
    assert keywords.query_terms("Studies of running networks") == ["run", "network"]


def test_the_corpus_words_are_saved_with_bm25_and_equal_the_papers(seed_dir: Path) -> None:
    """The words that tell whether a question's name occurs anywhere are saved beside the
    BM25 index (a new process reads them instead of scanning every abstract), and they are
    the words of the stored titles and abstracts."""
    from assistant.keywords import SurfaceText

    index = AbstractIndex(make_settings(seed_dir))
    saved = index.surface_text()
    assert (index.keywords.dir / "surface.txt").is_file() and index.keywords.surface is saved
    assert json.loads((index.keywords.dir / "ids.json").read_text())["proper"] == sorted(saved.proper)
    papers = index.papers().values()
    assert saved == SurfaceText.of((f"{p.title} {p.text}" for p in papers), (p.text for p in papers))
    assert saved.knows("MuRating") and not saved.knows("Zorblax")
    # written capitalised inside the abstracts' sentences: Adam, Markov; never "However"
    assert {"adam", "markov", "english"} <= saved.proper and "however" not in saved.proper


def test_a_copy_saved_before_the_proper_words_were_kept_is_built_again_once(
        fresh_copy: Path) -> None:
    """A BM25 copy without the proper words (saved by an earlier version) is built again
    and saved with them, once: not built from the papers by every process (3-4 s at 13.9k)."""
    index = AbstractIndex(make_settings(fresh_copy))
    index.surface_text()
    ids = index.keywords.dir / "ids.json"
    saved = json.loads(ids.read_text())
    del saved["proper"]
    ids.write_text(json.dumps(saved))
    again = AbstractIndex(make_settings(fresh_copy))
    assert "adam" in again.surface_text().proper and again.surface_text().knows("MuRating")
    assert "proper" in json.loads(ids.read_text())  # saved again with them
    assert again.keywords.surface is again.surface_text()  # from the copy, not the papers
