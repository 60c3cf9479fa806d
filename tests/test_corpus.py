"""Parsing the seed format, CSV and JSONL, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FILE_A, FILE_B, SEEDS, SHARED_DATA

from assistant.corpus import derive_title, make_paper_id, read_file, read_paths


@pytest.mark.parametrize("name", [FILE_A, FILE_B])
def test_each_seed_file_holds_19_abstracts_with_ordinals_and_titles(name: str) -> None:
    papers, skipped = read_file(SEEDS / name)
    assert skipped == []
    assert [p.source for p in papers] == [f"{name}#{n}" for n in range(1, 20)]
    assert all(p.title.strip() and len(p.title) < 120 for p in papers)
    assert not any(p.text.startswith("NeurIPS 2025 Papers") for p in papers)


def test_known_abstracts_get_their_method_names_as_titles() -> None:
    papers = {p.source: p for p in read_paths([SEEDS]).papers}
    assert papers[f"{FILE_A}#7"].title.startswith("TCCM")
    assert papers[f"{FILE_A}#6"].title.startswith("PoLAR")
    assert papers[f"{FILE_A}#3"].title.startswith("MuRating")
    assert papers[f"{FILE_B}#1"].title.startswith("CRAFT")
    assert "https://github.com/ZhongLIFR/TCCM-NIPS" in papers[f"{FILE_A}#7"].links


def test_title_falls_back_to_a_topic_phrase() -> None:
    title = derive_title("We study contextual online pricing with biased offline data. More follows.")
    assert title == "Contextual online pricing with biased offline data"


def test_paper_id_ignores_whitespace_and_position(tmp_path: Path) -> None:
    text = "An abstract about graphs.\nIt has two lines."
    assert make_paper_id(text) == make_paper_id("An  abstract about graphs. It has two lines.")
    (tmp_path / "one.txt").write_text(f"Header\n\nFirst abstract here.\n\n{text}\n")
    (tmp_path / "two.txt").write_text(f"{text}\n\nFirst abstract here.\n")
    one, _ = read_file(tmp_path / "one.txt")
    two, _ = read_file(tmp_path / "two.txt")
    assert {p.paper_id for p in one} == {p.paper_id for p in two}
    assert one[1].source == "one.txt#2" and two[0].source == "two.txt#1"


def test_shared_neurips_csv_reads_as_is() -> None:
    papers, skipped = read_file(SHARED_DATA / "neurips_abstract_1987.csv")
    assert len(papers) > 50
    assert skipped == [] or all(s.line for s in skipped)
    first = papers[0]
    assert first.title and first.authors and first.links[0].startswith("https://")
    assert first.source == "neurips_abstract_1987.csv#1"


def test_jsonl_with_title_authors_link(tmp_path: Path) -> None:
    path = tmp_path / "extra.jsonl"
    rows = [{"title": "A Study", "authors": ["Ada", "Bob"], "link": "https://x.org/1",
             "abstract": "We study things."},
            {"title": "Another", "abstract": "We look at other things."}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    papers, skipped = read_file(path)
    assert skipped == []
    assert [p.title for p in papers] == ["A Study", "Another"]
    assert papers[0].authors == "Ada, Bob" and papers[0].links == ("https://x.org/1",)


@pytest.mark.parametrize(
    ("name", "content", "expected", "line"),
    [
        ("blob.txt", b"\x00\x01\x02binary\x00", "binary", None),
        ("latin.txt", "Header\n\nCaf\u00e9 abstract.\n".encode("latin-1"), "not UTF-8", 3),
        ("empty.txt", b"", "no abstracts", None),
        ("header.txt", b"NeurIPS 2025 Papers\n", "no abstracts", None),
        ("header.csv", b"title,abstract\n", "no abstracts", None),
        ("notes.pdf", b"%PDF-1.4", "unsupported file type '.pdf'", None),
        ("no_abstract.csv", b"title,authors\nA,B\n", "no 'abstract' column", 1),
        ("broken.jsonl", b'{"abstract": "ok"}\n{not json}\n', "not valid JSON", 2),
    ],
)
def test_bad_input_names_the_file_and_problem(
    tmp_path: Path, name: str, content: bytes, expected: str, line: int | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    _, skipped = read_file(path)
    assert skipped, "a bad file must be reported"
    assert skipped[0].file == name
    assert expected in skipped[0].reason
    assert skipped[0].line == line
    assert name in str(skipped[0])


def test_a_megabyte_paragraph_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("Header\n\nA normal abstract.\n\n" + "word " * 200_000 + "\n\nAnother one.\n")
    papers, skipped = read_file(path)
    assert [p.source for p in papers] == ["huge.txt#1", "huge.txt#3"]
    assert len(skipped) == 1 and skipped[0].line == 5 and "over the 20,000-character" in skipped[0].reason


def test_bad_files_do_not_stop_good_ones(tmp_path: Path) -> None:
    (tmp_path / "bad.bin").write_bytes(b"\x00\x00")
    (tmp_path / "good.txt").write_text("Header\n\nA good abstract about kernels.\n")
    result = read_paths([tmp_path, tmp_path / "missing.txt"])
    assert [p.source for p in result.papers] == ["good.txt#1"]
    reasons = " | ".join(str(s) for s in result.skipped)
    assert "bad.bin" in reasons and "missing.txt: no such file" in reasons
