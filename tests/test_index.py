"""The persistent index: idempotent ingest, edits replace, model mismatch refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FILE_A, SEEDS, make_settings

from assistant.index import AbstractIndex, EmbeddingMismatchError
from assistant.pipeline import Assistant


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
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
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
    header, *abstracts = (SEEDS / FILE_A).read_text().strip().split("\n\n")
    kept = abstracts[:18] + [abstracts[0]]  # the 19th abstract removed, the 1st repeated
    (tmp_path / FILE_A).write_text("\n\n".join([header, *kept]) + "\n")
    report = app.ingest([tmp_path / FILE_A])
    assert report.removed == 1 and report.papers_total == 37
    assert any("repeats an abstract" in s.reason for s in report.skipped)
