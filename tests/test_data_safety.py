"""Nothing a researcher stored is lost by an ingest (issue 7, items 1–3): files are known
by their path (an upload by a name of its own), a file not fully read removes nothing, and
every removal and repeat is reported. Real Chroma on disk throughout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FILE_A, make_settings

from assistant.pipeline import Assistant


def jsonl(path: Path, *abstracts: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"title": a.split()[0], "abstract": a}) + "\n"
                            for a in abstracts))
    return path


ABSTRACTS = [
    "We propose sparse kernel sums for graph learning on large meshes.",
    "We study tidal energy forecasting with recurrent networks over ten years.",
    "We introduce a benchmark of Latin inscriptions for optical character recognition.",
]


def test_same_name_in_two_folders_are_two_files(tmp_path: Path) -> None:
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([jsonl(tmp_path / "bad" / "mixed.jsonl", *ABSTRACTS[:2])])
    report = app.ingest([jsonl(tmp_path / "other" / "mixed.jsonl", ABSTRACTS[2])])
    assert (report.added, report.removed, report.replaced) == (1, 0, 0)
    assert report.papers_total == 3
    # Syncing the first file again still knows its own papers, and only those.
    report = app.ingest([jsonl(tmp_path / "bad" / "mixed.jsonl", ABSTRACTS[0])])
    assert (report.removed, report.papers_total) == (1, 2)
    assert {p.text for p in app.index.papers().values()} == {ABSTRACTS[0], ABSTRACTS[2]}


def test_an_upload_named_like_a_seed_file_removes_no_seed_paper(fresh_copy: Path,
                                                               tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    upload = tmp_path / "gradio-tmp" / FILE_A  # what the UI hands over: a temporary path
    upload.parent.mkdir()
    upload.write_text("Uploaded\n\nWe measure sleep spindles in mice with silicon probes.\n")
    report = app.ingest([upload], upload=True)
    assert (report.added, report.replaced, report.removed, report.papers_total) == (1, 0, 0, 39)
    found = app.retrieve("What is TCCM?")
    assert found and found[0].paper.source == f"{FILE_A}#7"
    assert app.ask("What is TCCM?").citations
    # A later upload of that name replaces what the earlier upload added, and nothing else.
    upload.write_text("Uploaded\n\nWe measure sleep spindles in rats with silicon probes.\n")
    report = app.ingest([upload], upload=True)
    assert (report.added, report.replaced, report.removed, report.papers_total) == (0, 1, 0, 39)
    # An upload holding a seed abstract leaves it with its seed file.
    seed_text = next(p.text for p in app.index.papers().values() if p.source == f"{FILE_A}#7")
    upload.write_text(f"Uploaded\n\n{seed_text}\n")
    report = app.ingest([upload], upload=True)
    assert report.unchanged == 1 and report.papers_total == 38  # the rats abstract left
    tccm = next(p for p in app.index.papers().values() if p.text == seed_text)
    assert tccm.source == f"{FILE_A}#7" and not tccm.file_key.startswith("upload:")


def test_an_unclosed_csv_quote_keeps_the_stored_papers(tmp_path: Path) -> None:
    app = Assistant(make_settings(tmp_path / "data"))
    path = tmp_path / "v.csv"
    rows = [f"T{i},{a}" for i, a in enumerate(ABSTRACTS, start=1)]
    path.write_text("title,abstract\n" + "\n".join(rows) + "\n")
    assert app.ingest([path]).papers_total == 3
    # Line 3 opens a quote that is never closed: the csv module reads lines 3–4 as one field.
    rows[1] = 'T2,"We study tidal energy forecasting, now with transformers.'
    path.write_text("title,abstract\n" + "\n".join(rows) + "\n")
    report = app.ingest([path])
    assert (report.added, report.replaced, report.removed) == (0, 0, 0)
    assert report.papers_total == 3
    assert [str(k) for k in report.kept] == ["kept 2 stored papers of v.csv: line 3 could not be read"]
    assert [(s.file, s.line) for s in report.skipped] == [("v.csv", 3)]
    assert "never closed" in report.skipped[0].reason


def test_a_truncated_jsonl_line_keeps_the_stored_good_copy(tmp_path: Path) -> None:
    app = Assistant(make_settings(tmp_path / "data"))
    path = jsonl(tmp_path / "m.jsonl", *ABSTRACTS)
    app.ingest([path])
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[1][:40], lines[2]]) + "\n")  # cut mid-record
    report = app.ingest([path])
    assert (report.removed, report.replaced, report.papers_total) == (0, 0, 3)
    assert [str(k) for k in report.kept] == ["kept 1 stored paper of m.jsonl: line 2 could not be read"]
    assert ABSTRACTS[1] in {p.text for p in app.index.papers().values()}


def test_5000_identical_abstracts_make_one_line(tmp_path: Path) -> None:
    app = Assistant(make_settings(tmp_path / "data"))
    path = jsonl(tmp_path / "same.jsonl", *[ABSTRACTS[0]] * 5000)
    report = app.ingest([path])
    assert report.added == 1 and report.papers_total == 1
    assert len(report.skipped) == 1
    assert report.skipped[0].count == 4999
    assert "4,999 repeats of abstracts already read" in str(report.skipped[0])


def test_every_removal_is_counted(tmp_path: Path) -> None:
    """Two files of one name in one ingest: the old count said "2 replaced, -1 removed" for
    one paper deleted."""
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([jsonl(tmp_path / "a" / "x.jsonl", ABSTRACTS[0])])
    before = set(app.index.papers())
    report = app.ingest([jsonl(tmp_path / "a" / "x.jsonl", ABSTRACTS[1]),
                         jsonl(tmp_path / "b" / "x.jsonl", ABSTRACTS[2])])
    after = set(app.index.papers())
    assert (report.added, report.replaced, report.removed) == (1, 1, 0)
    assert len(before - after) == report.replaced + report.removed
    assert len(after - before) == report.added + report.replaced


def test_a_file_deleted_from_a_folder_takes_its_papers_with_it(tmp_path: Path) -> None:
    """Papers of a file deleted from a folder stayed answerable, and cited, until a
    --rebuild; now the folder's next ingest removes them and names the file. A renamed file
    only moves its papers; a folder left with no input file, or a file ingested alone,
    removes nothing."""
    app = Assistant(make_settings(tmp_path / "data"))
    folder = tmp_path / "papers"
    jsonl(folder / "kept.jsonl", ABSTRACTS[0])
    deleted = jsonl(folder / "deleted.jsonl", ABSTRACTS[1])
    renamed = jsonl(folder / "renamed.jsonl", ABSTRACTS[2])
    app.ingest([folder])
    deleted.unlink()
    renamed.rename(folder / "new-name.jsonl")
    report = app.ingest([folder / "kept.jsonl"])  # the folder was not read: nothing removed
    assert (report.removed, report.gone, report.papers_total) == (0, [], 3)
    report = app.ingest([folder])
    assert (report.removed, report.moved, report.unchanged, report.papers_total) == (1, 1, 1, 2)
    assert [str(g) for g in report.gone] == [
        "removed 1 stored paper of deleted.jsonl: the file is no longer in its folder"]
    assert {p.source: p.text for p in app.index.papers().values()} == {
        "kept.jsonl#1": ABSTRACTS[0], "new-name.jsonl#1": ABSTRACTS[2]}
    assert not any(f.paper.text == ABSTRACTS[1]
                   for f in app.retrieve("tidal energy forecasting", top_k=3))
    for path in folder.iterdir():  # a drive not mounted: an empty folder
        path.unlink()
    report = app.ingest([folder])
    assert (report.removed, report.gone, report.papers_total) == (0, [], 2)


def test_a_paper_another_stored_file_holds_stays_when_its_file_drops_it(tmp_path: Path) -> None:
    """A paper in a conference file and in a reading list was stored once, with the file
    read last; when that file dropped it, it left the store although the other still held
    it. Now it moves to the other file, and the summary says where."""
    app = Assistant(make_settings(tmp_path / "data"))
    conference = jsonl(tmp_path / "conference.jsonl", ABSTRACTS[0], ABSTRACTS[1])
    reading = jsonl(tmp_path / "lists" / "reading.jsonl", ABSTRACTS[1], ABSTRACTS[2])
    app.ingest([conference])
    app.ingest([reading])
    jsonl(reading, ABSTRACTS[0])  # the list now holds another paper of the conference file
    report = app.ingest([reading])
    assert (report.removed, report.moved, report.papers_total) == (1, 2, 2)  # ABSTRACTS[2] left
    assert [str(k) for k in report.kept] == [
        "kept 1 stored paper of reading.jsonl: another stored file holds it now (conference.jsonl)"]
    assert {p.text: p.source for p in app.index.papers().values()} == {
        ABSTRACTS[0]: "reading.jsonl#1", ABSTRACTS[1]: "conference.jsonl#2"}
    assert app.retrieve("tidal energy forecasting", top_k=1)[0].paper.text == ABSTRACTS[1]


def test_a_file_whose_papers_all_repeat_another_still_holds_them(tmp_path: Path) -> None:
    """A reading list whose every paper was read first from the conference file owned no
    stored paper, so no one looked in it: the conference file dropping a paper removed it
    (review). Uploads too: an upload cannot be read again, so what each holds is recorded."""
    app = Assistant(make_settings(tmp_path / "data"))
    folder = tmp_path / "papers"
    conference = jsonl(folder / "a-conference.jsonl", *ABSTRACTS)
    jsonl(folder / "b-reading.jsonl", ABSTRACTS[1])
    app.ingest([folder])
    jsonl(conference, ABSTRACTS[0], ABSTRACTS[2])
    report = app.ingest([conference])  # the reading list is not read again
    assert (report.removed, report.moved, report.papers_total) == (0, 2, 3)  # and #3 → #2
    assert {p.text: p.source for p in app.index.papers().values()}[ABSTRACTS[1]] == \
        "b-reading.jsonl#1"
    assert [str(k) for k in report.kept] == [
        "kept 1 stored paper of a-conference.jsonl: another stored file holds it now "
        "(b-reading.jsonl)"]
    # the same with two uploads
    app = Assistant(make_settings(tmp_path / "uploads"))
    first, second = tmp_path / "up1" / "list1.jsonl", tmp_path / "up2" / "list2.jsonl"
    app.ingest([jsonl(first, ABSTRACTS[0], ABSTRACTS[1])], upload=True)
    app.ingest([jsonl(second, ABSTRACTS[1], ABSTRACTS[2])], upload=True)
    report = app.ingest([jsonl(first, ABSTRACTS[0])], upload=True)
    assert (report.removed, report.moved, report.papers_total) == (0, 1, 3)
    assert {p.text: p.source for p in app.index.papers().values()}[ABSTRACTS[1]] == \
        "list2.jsonl#1"


def test_a_file_whose_link_is_broken_is_not_taken_for_deleted(tmp_path: Path) -> None:
    """A file moved to a drive and linked back keeps its papers while the drive is away;
    it was skipped as a broken link and reported gone in the same run (review)."""
    app = Assistant(make_settings(tmp_path / "data"))
    folder, drive = tmp_path / "papers", tmp_path / "drive"
    jsonl(folder / "kept.jsonl", ABSTRACTS[0])
    moved = jsonl(folder / "moved.jsonl", ABSTRACTS[1])
    app.ingest([folder])
    drive.mkdir()
    moved.rename(drive / "moved.jsonl")
    moved.symlink_to(drive / "moved.jsonl")
    (drive / "moved.jsonl").unlink()  # the drive is away
    report = app.ingest([folder])
    assert any("broken link" in str(s) for s in report.skipped)
    assert (report.removed, report.gone, report.papers_total) == (0, [], 2)


def test_damaged_files_beside_the_store_are_rebuilt_not_a_traceback(fresh_copy: Path) -> None:
    """Random bytes in store-version were a UnicodeDecodeError traceback, and an empty
    BM25 file made `ask` print only "Aborted." (np.load's EOFError); both are rebuilt."""
    (fresh_copy / "store-version").write_bytes(b"\xff\xfe\x80 not a stamp")
    (fresh_copy / "bm25" / "df.npy").write_bytes(b"")
    app = Assistant(make_settings(fresh_copy))
    answer = app.ask("What is TCCM?")
    assert answer.citations and answer.citations[0].source == f"{FILE_A}#7"
    assert len(app.index.papers()) == 38


def test_a_store_that_cannot_write_is_one_line_and_keeps_its_papers(fresh_copy: Path,
                                                                   tmp_path: Path) -> None:
    """A full disk was Chroma's InternalError traceback (review); it is one line naming
    the store and what to check, and the stored papers stay."""
    from unittest.mock import patch

    from chromadb.api.models.Collection import Collection
    from chromadb.errors import InternalError

    from assistant.index import IndexConfigError

    app = Assistant(make_settings(fresh_copy))
    full = InternalError("Error in compaction: Failed to apply logs to the metadata segment")
    with patch.object(Collection, "add", side_effect=full), \
            pytest.raises(IndexConfigError, match=f"the index at {fresh_copy} failed: .*free"):
        app.ingest([jsonl(tmp_path / "new.jsonl", ABSTRACTS[0])])
    assert len(Assistant(make_settings(fresh_copy)).index.papers()) == 38


def test_a_store_written_before_holders_were_recorded_still_keeps_held_papers(
        tmp_path: Path) -> None:
    """Its papers carry no record of the other files holding them: when one would be
    deleted, the stored files on disk are read for it (review: it was removed)."""
    app = Assistant(make_settings(tmp_path / "data"))
    folder = tmp_path / "papers"
    conference = jsonl(folder / "a-conference.jsonl", ABSTRACTS[0], ABSTRACTS[1])
    jsonl(folder / "b-list.jsonl", ABSTRACTS[1], ABSTRACTS[2])
    app.ingest([folder])
    index = app.index
    got = index.store.collection.get(include=["metadatas"])
    index.store.collection.update(ids=got["ids"], metadatas=[  # None: Chroma deletes the key
        {**m, "held_by": None} for m in got["metadatas"]])
    (index.keywords.dir / "papers.json").unlink()  # that version saved no record either
    app = Assistant(make_settings(tmp_path / "data"))
    assert {p.held_by for p in app.index.papers().values()} == {None}
    jsonl(conference, ABSTRACTS[0])
    report = app.ingest([conference])
    assert (report.removed, report.moved, report.papers_total) == (0, 1, 3)
    assert {p.text: p.source for p in app.index.papers().values()}[ABSTRACTS[1]] == \
        "b-list.jsonl#1"


def test_a_holder_file_deleted_from_its_folder_holds_nothing(tmp_path: Path) -> None:
    """A file that only held papers stored with another was not seen as deleted, and a
    paper moved to it, a file no longer there (review)."""
    app = Assistant(make_settings(tmp_path / "data"))
    folder = tmp_path / "papers"
    conference = jsonl(folder / "a-conference.jsonl", ABSTRACTS[0], ABSTRACTS[1])
    holder = jsonl(folder / "b-list.jsonl", ABSTRACTS[1])
    app.ingest([folder])
    holder.unlink()
    jsonl(conference, ABSTRACTS[0])
    report = app.ingest([folder])
    assert (report.removed, report.moved, report.papers_total) == (1, 0, 1)
    assert [p.source for p in app.index.papers().values()] == ["a-conference.jsonl#1"]


def test_a_file_name_with_separator_characters_is_stored_whole(tmp_path: Path) -> None:
    """Holders were stored joined by \\x1e and \\x1f, which a file name may hold (review)."""
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([jsonl(tmp_path / "a.jsonl", ABSTRACTS[0], ABSTRACTS[1])])
    odd = jsonl(tmp_path / "up" / "my\x1flist\x1e.jsonl", ABSTRACTS[1])
    app.ingest([odd], upload=True)
    jsonl(tmp_path / "a.jsonl", ABSTRACTS[0])
    report = app.ingest([tmp_path / "a.jsonl"])
    assert (report.removed, report.moved) == (0, 1)
    moved = {p.text: p for p in Assistant(make_settings(tmp_path / "data")).index.papers().values()}
    assert (moved[ABSTRACTS[1]].file_key, moved[ABSTRACTS[1]].source) == (
        "upload:my\x1flist\x1e.jsonl", "my\x1flist\x1e.jsonl#1")
