"""The persistent index: idempotent ingest, edits replace, model mismatch refused, and
papers another process ingests are seen without a restart."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from unittest.mock import patch

import numpy as np
import pytest
from conftest import FILE_A, FILE_B, SEEDS, make_settings

from assistant import store as store_module
from assistant.chunks import paper_meta
from assistant.corpus import read_paths
from assistant.evals.scoring import baseline_rankings
from assistant.index import LLAMA_KEYS, SENTENCES_KEY, AbstractIndex, EmbeddingMismatchError
from assistant.keywords import KeywordStats, coverage, keyword_weights
from assistant.pipeline import Assistant
from assistant.types import Filters


def own_copy_of_seeds(app: Assistant, tmp_path: Path) -> Path:
    """The seeds copied to ``tmp_path/seeds`` and ingested from there, so that the test may
    edit them: a file is known by its path, and the index was built from the real seeds.
    Their papers move to the copy (metadata only, nothing embedded), as if the seeds had
    moved there: the real ones, still on disk, would be recorded as holding them."""
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    with patch.object(app.index.ingester, "files_on_disk", return_value=set()):
        report = app.ingest([seeds])
    assert (report.added, report.removed, report.chunks_added, report.unchanged) == (0, 0, 0, 38)
    return seeds


def test_seed_index_counts(seed_assistant: Assistant) -> None:
    papers = seed_assistant.index.papers()
    assert len(papers) == 38
    assert seed_assistant.index.chunk_count() >= 38
    assert {p.file for p in papers.values()} == {FILE_A, "004_d328982b31ffa53a.txt"}


def test_reingest_changes_nothing(fresh_copy: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    chunks = app.index.chunk_count()
    report = app.ingest([SEEDS])
    assert (report.added, report.replaced, report.removed, report.chunks_added) == (0, 0, 0, 0)
    assert report.unchanged == 38
    assert (report.papers_total, report.chunks_total) == (38, chunks)


def test_edited_abstract_replaces_its_chunks(fresh_copy: Path, tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    chunks_before = app.index.chunk_count()
    seeds = own_copy_of_seeds(app, tmp_path)
    path = seeds / FILE_A
    paragraphs = path.read_text().split("\n\n")
    old = paragraphs[7]
    assert old.startswith("We introduce Time-Conditioned Contraction Matching")
    paragraphs[7] = old.replace("semi-supervised anomaly detection", "semi-supervised outlier detection")
    path.write_text("\n\n".join(paragraphs))
    report = app.ingest([seeds])
    assert (report.added, report.replaced, report.removed) == (0, 1, 0)
    assert report.papers_total == 38
    tccm = [p for p in app.index.papers().values() if p.source == f"{FILE_A}#7"]
    assert len(tccm) == 1 and "outlier detection" in tccm[0].text
    assert app.index.chunk_count() == chunks_before  # same length: same number of chunks
    found = app.retrieve("semi-supervised outlier detection with contraction matching")
    assert found[0].paper.source == f"{FILE_A}#7" and "outlier" in found[0].paper.text


def test_reordered_file_only_relocates(fresh_copy: Path, tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    (tmp_path / FILE_A).write_text("\n\n".join([header, *reversed(abstracts)]) + "\n")
    report = app.ingest([tmp_path / FILE_A])
    assert (report.added, report.removed, report.chunks_added) == (0, 0, 0)
    assert report.moved == 18  # all but the middle one changed position
    by_title = {p.title: p.source for p in app.index.papers().values()}
    assert by_title["TCCM: Time-Conditioned Contraction Matching"] == f"{FILE_A}#13"


def test_bad_files_beside_good_ones_lose_nothing(fresh_copy: Path, tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    inputs = tmp_path / "in"  # beside the data dir, which a folder's listing would name
    inputs.mkdir()
    (inputs / "bad.csv").write_text("title,authors\nx,y\n")
    (inputs / "new.jsonl").write_text('{"title": "Kernel Sums", "abstract": "We sum kernels."}\n')
    report = app.ingest([inputs])
    assert report.added == 1 and report.papers_total == 39
    assert [s.file for s in report.skipped] == ["bad.csv"]


def test_a_stored_placeholder_goes_once_other_titles_share_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store ingested before placeholders were told from abstracts holds one
    "Abstract Unavailable" paper; the next ingest of its file removes it and keeps the
    rest (the file is still read whole)."""
    app = Assistant(make_settings(tmp_path / "data"))
    path = tmp_path / "old.csv"
    real = "We propose kernel sums over graphs and prove that they converge in ten steps."
    path.write_text(f"title,abstract\nOptical Networks,Abstract Unavailable\nKernel Sums,{real}\n")
    with monkeypatch.context() as old:  # as a version that stored it read the file
        old.setattr("assistant.reading.says_no_abstract", lambda text: False)
        assert app.ingest([path]).papers_total == 2
    path.write_text(path.read_text() + "Self-Organising Maps,Abstract Unavailable\n")
    report = app.ingest([path])
    assert (report.removed, report.papers_total) == (1, 1)
    assert [p.title for p in app.index.papers().values()] == ["Kernel Sums"]
    assert "placeholder" in str(report.skipped[0])


def test_other_embedding_model_is_refused(seed_dir: Path) -> None:
    settings = make_settings(seed_dir)
    settings.index.embed_model = "openai:text-embedding-3-small"
    with pytest.raises(EmbeddingMismatchError, match="ingest --rebuild"):
        AbstractIndex(settings)


def test_rebuild_starts_over(fresh_copy: Path, tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    report = app.ingest([tmp_path / "one.txt"], rebuild=True)
    assert report.papers_total == 1 and report.added == 1
    assert report.removed == 38, "the rebuild counts the stored papers it leaves out"


@pytest.mark.parametrize(("given", "why"), [
    (["missing.cvs"], "left as it was"), (["empty.csv"], "left as it was"),
    (["one.txt", "missing.txt"], "left as it was"),
    # R11: the file's problem said, as a plain ingest says it
    (["one.txt", "bare.csv"], r"could not read bare.csv: has no 'abstract' column"),
    (["bare.csv", "missing.csv"], r"missing.csv: no such file or directory · bare.csv: has no 'abstract'")])
def test_a_rebuild_from_nothing_readable_keeps_the_store(fresh_copy: Path, tmp_path: Path,
                                                          given: list[str], why: str) -> None:
    """Review: `ingest --rebuild a30.cvs` (a typo) deleted every stored paper, then read
    nothing; one mistyped path among several lost that file's papers."""
    from assistant.errors import BadInputError

    (tmp_path / "empty.csv").write_text("title,abstract\n")
    (tmp_path / "bare.csv").write_text("title,summary_x\nA,We study kernels.\n")
    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    app = Assistant(make_settings(fresh_copy))
    with pytest.raises(BadInputError, match=why):
        app.ingest([tmp_path / name for name in given], rebuild=True)
    assert len(Assistant(make_settings(fresh_copy)).index.papers()) == 38


def test_a_rebuild_from_a_folder_with_a_readme_goes_ahead(fresh_copy: Path, tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# my abstracts\n")
    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    report = Assistant(make_settings(fresh_copy)).ingest([tmp_path], rebuild=True)
    assert report.papers_total == 1


def test_a_rebuild_whose_embedder_fails_keeps_the_store(fresh_copy: Path, tmp_path: Path) -> None:
    """The embedding model is tried before anything is deleted (an endpoint that is down)."""
    from assistant.errors import EndpointError

    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    app = Assistant(make_settings(fresh_copy))

    class Down:
        def embed(self, texts: list[str], on_progress: object = None) -> None:
            raise EndpointError("cannot reach the embedding endpoint")

    app.index.embed_model = Down()  # type: ignore[assignment]
    with pytest.raises(EndpointError):
        app.ingest([tmp_path / "one.txt"], rebuild=True)
    assert len(Assistant(make_settings(fresh_copy)).index.papers()) == 38


def test_a_rebuild_may_change_the_embedding_model(fresh_copy: Path, tmp_path: Path) -> None:
    """The mismatch message says to rebuild; the rebuild itself was refused by the same check.
    An empty collection (a first ingest that failed) takes the configured model."""
    settings = make_settings(fresh_copy)
    settings.index.embed_model = "openai:text-embedding-3-small"
    with pytest.raises(EmbeddingMismatchError):
        Assistant(settings).index.papers()
    index = AbstractIndex(settings, rebuilding=True)
    index.ingester.reset()  # what the rebuild does first: the collection, made for the new model
    assert AbstractIndex(settings).papers() == {}
    default = make_settings(fresh_copy)  # empty: it opens with the other model, unlabelled
    assert AbstractIndex(default).papers() == {}
    assert AbstractIndex(settings).store.collection.metadata["embed_model"] == (
        "openai:text-embedding-3-small"), "a reader relabels nothing (another's rebuild)"
    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    Assistant(default).ingest([tmp_path / "one.txt"])  # a write labels it with its model
    with pytest.raises(EmbeddingMismatchError):
        AbstractIndex(settings)


def test_two_collections_of_a_data_dir_keep_their_own_papers(tmp_path: Path) -> None:
    """Review: the BM25 copy and the version stamp were the data dir's, so a collection read
    another's papers when both held as many chunks."""
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text('{"title": "Kernel Regression", "abstract": "Kernel methods for '
                     'regression with sparse features."}\n')
    second.write_text('{"title": "Speech Nets", "abstract": "Speech recognition with '
                      'recurrent networks and attention."}\n')
    data = tmp_path / "data"
    Assistant(make_settings(data)).ingest([first])
    other = make_settings(data)
    other.data.collection = "other"
    Assistant(other).ingest([second])
    default = Assistant(make_settings(data))
    assert [p.title for p in default.index.papers().values()] == ["Kernel Regression"]
    assert default.retrieve("kernel methods for regression")[0].paper.title == "Kernel Regression"
    assert [p.title for p in Assistant(other).index.papers().values()] == ["Speech Nets"]
    # a data dir the earlier code left: the other collection's copy and stamp as the shared
    # ones (its last write); the default collection builds its own instead of reading it
    shutil.rmtree(data / "bm25")
    shutil.copytree(data / "bm25-other", data / "bm25")
    (data / "store-version").write_text((data / "store-version-other").read_text())
    assert [p.title for p in Assistant(make_settings(data)).index.papers().values()] == [
        "Kernel Regression"]
    # a collection written before it had a stamp of its own is stamped on opening, so its
    # copy is saved and read rather than rebuilt from Chroma by every process
    (data / "store-version-other").unlink()
    assert [p.title for p in Assistant(other).index.papers().values()] == ["Speech Nets"]
    assert (data / "store-version-other").read_text()


@pytest.mark.parametrize("broken", [b"", b"\x00\x00"])  # (Latin-1 now reads: reading.py)
def test_a_stored_file_that_turns_bad_keeps_its_papers(fresh_copy: Path, tmp_path: Path,
                                                       broken: bytes) -> None:
    app = Assistant(make_settings(fresh_copy))
    (tmp_path / FILE_A).write_bytes(broken)
    report = app.ingest([tmp_path / FILE_A])
    assert report.removed == 0 and report.papers_total == 38
    assert report.skipped and report.skipped[0].file == FILE_A


def test_duplicates_inside_a_file_do_not_stop_its_sync(fresh_copy: Path, tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    seeds = own_copy_of_seeds(app, tmp_path)
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    kept = abstracts[:18] + [abstracts[0]]  # the 19th abstract removed, the 1st repeated
    (seeds / FILE_A).write_text("\n\n".join([header, *kept]) + "\n")
    report = app.ingest([seeds / FILE_A])
    assert report.removed == 1 and report.papers_total == 37 and not report.kept
    assert any("repeats an abstract" in s.reason for s in report.skipped)


def test_papers_stored_by_the_earlier_version_are_adopted_not_lost(fresh_copy: Path,
                                                                  tmp_path: Path) -> None:
    """A store whose chunks carry no file_key (built before file identities) loses nothing:
    re-reading a paper adopts it; one no longer found stays, and the report says so."""
    index = AbstractIndex(make_settings(fresh_copy))
    got = index.store.collection.get(include=["metadatas"])
    index.store.collection.update(ids=got["ids"], metadatas=[{**m, "file_key": ""} for m in got["metadatas"]])
    (index.keywords.dir / "papers.json").unlink()  # that version saved no copy of the papers
    app = Assistant(make_settings(fresh_copy))
    assert {p.file_key for p in app.index.papers().values()} == {""}
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    (tmp_path / FILE_A).write_text("\n\n".join([header, *abstracts[:18]]) + "\n")
    report = app.ingest([tmp_path / FILE_A])
    assert (report.added, report.removed, report.unchanged, report.papers_total) == (0, 0, 18, 38)
    assert [str(k).split(":")[0] for k in report.kept] == [f"kept 1 stored paper of {FILE_A}"]
    keys = {p.source: p.file_key for p in app.index.papers().values()}
    assert keys[f"{FILE_A}#1"] == str((tmp_path / FILE_A).resolve()) and keys[f"{FILE_A}#19"] == ""


@pytest.mark.slow
def test_papers_ingested_by_another_process_are_seen_without_restart(fresh_copy: Path,
                                                                     tmp_path: Path) -> None:
    """An index open here (as in a running `assistant serve`) answers from papers that
    `assistant ingest` in another process added, within a few seconds."""
    app = Assistant(make_settings(fresh_copy))
    question = "How do juvenile zebra finches memorise their tutor's song?"
    assert all("zebra" not in f.paper.text for f in app.retrieve(question))  # caches warm
    new = tmp_path / "birds.jsonl"
    new.write_text('{"title": "Tutor song memory in zebra finches", "abstract": "We record '
                   'juvenile zebra finches memorising their tutor song and model how the '
                   'song memory forms during sensory learning."}\n')
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "ingest", str(new),
                           "--data-dir", str(fresh_copy)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + 10
    while True:
        found = app.retrieve(question)
        if found and found[0].paper.source == "birds.jsonl#1" or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert found and found[0].paper.source == "birds.jsonl#1"
    # Both rankings see it: the vectors (Chroma reopened) and BM25 (rebuilt or reloaded).
    pid = found[0].paper.paper_id
    assert pid in {h.paper_id for h in app.index.search_dense(question, 5)}
    assert pid in {h.paper_id for h in app.index.search_bm25(question, 5)}
    assert len(app.index.papers()) == 39


def test_keyword_scoring_needs_only_what_the_index_hands_over() -> None:
    """keywords.py scores from a vocabulary and document frequencies, no store: a term in
    every document weighs least, one the corpus never uses weighs most."""
    stats = KeywordStats(n_docs=10, vocab={"kernel": 0, "graph": 1}, df=np.array([10, 1]))
    weights = keyword_weights("Which papers study kernels on graphs for zebrafish?", stats)
    assert list(weights) == ["kernel", "graph", "zebrafish"]  # stopwords gone, stemmed
    assert weights["kernel"] < weights["graph"] < weights["zebrafish"]
    assert coverage(weights, "A graph kernel.") == pytest.approx(
        (weights["kernel"] + weights["graph"]) / sum(weights.values()))
    assert coverage({}, "anything") == 0.0


# ------------------------------------------------------------ the metadata layout

def test_a_new_ingest_writes_no_node_copy_and_the_abstract_once(seed_dir: Path) -> None:
    """Each chunk carries its paper's fields, number and sentence vectors, none of
    LlamaIndex's node copy (60% of a chunk's bytes), and the abstract only on chunk 0;
    the papers read back are the seeds as they were read."""
    index = AbstractIndex(make_settings(seed_dir))
    got = index.store.collection.get(include=["metadatas"])
    assert not {k for m in got["metadatas"] for k in m} & set(LLAMA_KEYS)
    assert all(("abstract" in m) == (m["chunk"] == 0) for m in got["metadatas"])
    assert sum(m["chunk"] > 0 for m in got["metadatas"]) >= 20  # multi-chunk papers exist
    assert all(SENTENCES_KEY in m for m in got["metadatas"])
    fresh = AbstractIndex(make_settings(seed_dir))
    fresh.keywords.saved_papers = lambda: None  # type: ignore[method-assign]  # Chroma's, not the copy
    expected = {p.paper_id: p.text for p in read_paths([SEEDS]).papers}
    assert {pid: p.text for pid, p in fresh.papers().items()} == expected


def test_papers_take_the_abstract_from_chunk_0_whatever_order_chunks_come_in(
        fresh_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks come back in the order Chroma holds them, a page at a time: a paper whose
    later chunks come first (pages of one chunk) still gets its whole abstract, in
    ``papers`` and in the copy saved with BM25, and keeps its first-seen place."""
    index = AbstractIndex(make_settings(fresh_copy))
    got = index.store.collection.get(include=["metadatas", "documents", "embeddings"])
    pid = next(str(m["paper_id"]) for m in got["metadatas"] if m["chunk"] == 2)
    mine = sorted((i for i, m in enumerate(got["metadatas"]) if m["paper_id"] == pid),
                  key=lambda i: -got["metadatas"][i]["chunk"])
    index.store.collection.delete(ids=[got["ids"][i] for i in mine])
    for i in mine:  # re-added last chunk first: chunk 0 is now stored after the others
        index.store.collection.add(ids=[got["ids"][i]], embeddings=[got["embeddings"][i]],
                              metadatas=[got["metadatas"][i]], documents=[got["documents"][i]])
    order = [m["chunk"] for m in index.store.collection.get(where={"paper_id": pid},
                                                       include=["metadatas"])["metadatas"]]
    assert order[0] != 0  # the case under test: a chunk without the abstract comes first
    index.store.stamp()
    monkeypatch.setattr(store_module, "PAGE_CHUNKS", 1)
    expected = next(p.text for p in read_paths([SEEDS]).papers if p.paper_id == pid)
    assert index.keywords.saved_papers() is None
    assert index.papers()[pid].text == expected
    index.keywords.build()
    assert AbstractIndex(make_settings(fresh_copy)).keywords.saved_papers()[pid].text == expected  # type: ignore[index]


def write_old_layout(data_dir: Path, years: dict[str, int]) -> None:
    """Rewrite every chunk of the store as the ingest before the lean layout wrote it
    (LlamaIndex's ``node_to_metadata_dict``: its node copy and document ids, the abstract on
    every chunk), through the real collection; ``years`` by file, to filter on. The copy of
    the papers saved beside BM25 goes too, so every reader reads Chroma's metadata."""
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    index = AbstractIndex(make_settings(data_dir))
    papers = index.papers()
    got = index.store.collection.get(include=["metadatas", "documents", "embeddings"])
    metas = []
    for meta, text in zip(got["metadatas"], got["documents"], strict=True):
        paper = papers[str(meta["paper_id"])]
        year = years.get(paper.file, paper.year)
        fields = {**paper_meta(replace(paper, year=year)), "chunk": meta["chunk"]}
        node = TextNode(id_=f"{paper.paper_id}:{meta['chunk']}", text=text, metadata=fields,
                        relationships={NodeRelationship.SOURCE:
                                       RelatedNodeInfo(node_id=paper.paper_id)})
        node.excluded_embed_metadata_keys = list(fields)
        node.excluded_llm_metadata_keys = list(fields)
        old = node_to_metadata_dict(node, remove_text=True, flat_metadata=True)
        metas.append({**{k: "" if v is None else v for k, v in old.items()},
                      SENTENCES_KEY: meta[SENTENCES_KEY]})
    index.store.collection.delete(ids=got["ids"])
    index.store.collection.add(ids=got["ids"], embeddings=got["embeddings"], metadatas=metas,
                          documents=got["documents"])
    shutil.rmtree(index.keywords.dir)
    index.store.stamp()


@pytest.fixture(scope="module")
def old_layout(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed store as the earlier ingest laid it out, FILE_B's papers of 2019."""
    data = tmp_path_factory.mktemp("old-layout") / "data"
    shutil.copytree(seed_dir, data)
    write_old_layout(data, {FILE_B: 2019})
    return data


def test_a_store_of_the_earlier_layout_still_serves_every_reader(old_layout: Path,
                                                                  seed_assistant: Assistant) -> None:
    """No rebuild needed: its papers, filters, sentence vectors, answers, similar papers
    and the eval's dense baseline (LlamaIndex's reader, from its node copy) all work."""
    assert "_node_content" in AbstractIndex(make_settings(old_layout)).store.collection.get(
        limit=1, include=["metadatas"])["metadatas"][0]
    app = Assistant(make_settings(old_layout))
    papers = app.index.papers()
    assert {pid: p.text for pid, p in papers.items()} == {
        pid: p.text for pid, p in seed_assistant.index.papers().items()}
    assert {p.file for p in papers.values() if p.year == 2019} == {FILE_B}
    assert len(app.index.sentence_vectors(papers.values())) == 38
    question = "How do diffusion models generate images?"
    found = app.retrieve(question, filters=Filters(years=(2019, 2019)))
    assert found and {f.paper.file for f in found} == {FILE_B}
    hits = app.index.search_dense(question, 10, filters=Filters(years=(2019, 2019)))
    assert hits and {papers[h.paper_id].file for h in hits} == {FILE_B}
    answer = app.ask("What is TCCM?")
    assert answer.citations and answer.sources[0].source == f"{FILE_A}#7"
    assert app.similar(f"{FILE_A}#7").results
    for q in ("What is TCCM?", question):
        assert baseline_rankings(app, q, "dense") == baseline_rankings(seed_assistant, q, "dense")
    assert app.index.keywords.saved_papers() == papers  # BM25 rebuilt from it, the papers saved


def test_syncing_a_store_of_the_earlier_layout_rewrites_no_stale_copy(
        old_layout: Path, tmp_path: Path) -> None:
    """A sync of an earlier-layout store moves and removes papers without re-embedding;
    a moved paper's chunks shed LlamaIndex's node copy, which held the old locator (the
    dense baseline read it from there, and named a place the paper no longer was)."""
    data = tmp_path / "data"
    shutil.copytree(old_layout, data)
    app = Assistant(make_settings(data))
    seeds = own_copy_of_seeds(app, tmp_path)
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    (seeds / FILE_A).write_text("\n\n".join([header, *reversed(abstracts[1:])]) + "\n")
    report = app.ingest([seeds / FILE_A])
    assert (report.removed, report.chunks_added, report.papers_total) == (1, 0, 37)
    tccm = next(p for p in app.index.papers().values() if p.title.startswith("TCCM"))
    assert tccm.source == f"{FILE_A}#13" and "Contraction Matching" in tccm.text
    got = app.index.store.collection.get(where={"paper_id": tccm.paper_id}, include=["metadatas"])
    assert got["ids"] and not {k for m in got["metadatas"] for k in m} & set(LLAMA_KEYS)
    assert all("abstract" in m for m in got["metadatas"])  # nothing stored is dropped
    assert baseline_rankings(app, "What is TCCM?", "dense")[0] == f"{FILE_A}#13"


def test_a_rebuild_by_another_process_during_an_ingest_is_one_clear_error(
        fresh_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The collection vanishing under a running ingest (another process's --rebuild) was a
    traceback (review); it is one line saying what happened and what to do."""
    from chromadb.errors import NotFoundError

    from assistant.index import IndexConfigError

    (tmp_path / "new.jsonl").write_text('{"title": "Kernel Sums", "abstract": "We sum kernels."}\n')
    app = Assistant(make_settings(fresh_copy))

    def gone(nodes: object) -> None:
        raise NotFoundError("Collection [1c7b] does not exist.")

    monkeypatch.setattr(app.index.ingester, "add_nodes", gone)
    with pytest.raises(IndexConfigError, match="another process rebuilt the index"):
        app.ingest([tmp_path / "new.jsonl"])


@pytest.mark.slow
def test_a_question_during_a_rebuild_does_not_seed_the_store(tmp_path: Path) -> None:
    """An ask between another process's reset and its first write found the store empty and
    ingested the seeds into the rebuilt index (review); a rebuild leaves no marker behind."""
    from assistant.errors import BadInputError

    data = tmp_path / "data"
    (tmp_path / "one.txt").write_text("Header\n\nWe study sparse kernels for graphs.\n")
    rebuilt = Assistant(make_settings(data))
    rebuilt.ingest([tmp_path / "one.txt"], rebuild=True)
    assert not rebuilt.index.rebuild_under_way()
    empty = tmp_path / "empty"
    index = AbstractIndex(make_settings(empty))
    index.store.rebuild_marker.write_text(f"{os.getpid()}\n")  # a live rebuilding process's
    with pytest.raises(BadInputError, match="being rebuilt"):
        Assistant(make_settings(empty)).ensure_corpus(show_progress=False)
    assert AbstractIndex(make_settings(empty)).is_empty()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # an interrupted rebuild's marker: its process is gone, so it is stale
    index.store.rebuild_marker.write_text(f"{gone.pid}\n")
    assert Assistant(make_settings(empty)).ensure_corpus(show_progress=False) is not None
    assert not index.store.rebuild_marker.exists()
