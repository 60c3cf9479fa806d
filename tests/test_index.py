"""The persistent index: idempotent ingest, edits replace, model mismatch refused, and
papers another process ingests are seen without a restart."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import FILE_A, SEEDS, make_settings

from assistant.index import AbstractIndex, EmbeddingMismatchError
from assistant.keywords import KeywordStats, coverage, keyword_weights
from assistant.pipeline import Assistant


def own_copy_of_seeds(app: Assistant, tmp_path: Path) -> Path:
    """The seeds copied to ``tmp_path/seeds`` and ingested from there, so that the test may
    edit them: a file is known by its path, and the index was built from the real seeds.
    Their papers move to the copy (metadata only, nothing embedded)."""
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
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
    (tmp_path / "bad.csv").write_text("title,authors\nx,y\n")
    (tmp_path / "new.jsonl").write_text('{"title": "Kernel Sums", "abstract": "We sum kernels."}\n')
    report = app.ingest([tmp_path])
    assert report.added == 1 and report.papers_total == 39
    assert [s.file for s in report.skipped] == ["bad.csv"]


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


@pytest.mark.parametrize("broken", [b"", "Header\n\nCaf\xe9\n".encode("latin-1"), b"\x00\x00"])
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
    got = index._collection.get(include=["metadatas"])
    index._collection.update(ids=got["ids"], metadatas=[{**m, "file_key": ""} for m in got["metadatas"]])
    (index._bm25_dir / "papers.json").unlink()  # that version saved no copy of the papers
    app = Assistant(make_settings(fresh_copy))
    assert {p.file_key for p in app.index.papers().values()} == {""}
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    (tmp_path / FILE_A).write_text("\n\n".join([header, *abstracts[:18]]) + "\n")
    report = app.ingest([tmp_path / FILE_A])
    assert (report.added, report.removed, report.unchanged, report.papers_total) == (0, 0, 18, 38)
    assert [str(k).split(":")[0] for k in report.kept] == [f"kept 1 stored paper of {FILE_A}"]
    keys = {p.source: p.file_key for p in app.index.papers().values()}
    assert keys[f"{FILE_A}#1"] == str((tmp_path / FILE_A).resolve()) and keys[f"{FILE_A}#19"] == ""


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
