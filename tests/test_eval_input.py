"""A user's own `assistant eval --dataset` file and `--compare` file, as a hostile user writes
them: each bad input stops the run with one line naming the file (and the line and field),
exit 2, never a traceback; valid JSON Lines are read as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FILE_B

from assistant.evals import DatasetError, load_dataset

CRAFT = {"question": "What is CRAFT?", "expected_sources": [f"{FILE_B}#1"]}
BREAD = {"question": "How do I bake sourdough bread?", "expected_sources": []}


def write_lines(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def test_a_dataset_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(json.dumps(BREAD).encode() + b"\n"
                     + json.dumps({"question": "Caf\u00e9 papers?", "expected_sources": []},
                                  ensure_ascii=False).encode("latin-1") + b"\n")
    with pytest.raises(DatasetError, match=r"latin1.jsonl:2: not UTF-8 text \(byte 0xe9\)"):
        load_dataset(path)


def test_line_separators_inside_a_string_do_not_split_the_line(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "mine.jsonl",
                       {**CRAFT, "question": "What is\u2028CRAFT?"},
                       {**BREAD, "question": "Why\u0085bake bread?"}, {"question": "Why?"})
    with pytest.raises(DatasetError, match=r"mine.jsonl:3: field 'expected_sources'"):
        load_dataset(path)  # the third line is still line 3
    write_lines(path, {**CRAFT, "question": "What is\u2028CRAFT?"},
                {**BREAD, "question": "Why\u0085bake bread?"})
    craft, bread = load_dataset(path)
    assert (craft.id, craft.question, bread.id, bread.question) == (
        "q1", "What is\u2028CRAFT?", "q2", "Why\u0085bake bread?")


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_text(json.dumps(CRAFT) + "\n", encoding="utf-8-sig")
    [item] = load_dataset(path)
    assert item.expected_sources == [f"{FILE_B}#1"]


def test_a_paper_expected_twice_is_named(tmp_path: Path) -> None:
    """Rejected, not merged: a locator copied twice is most often a slip for another paper,
    and scored as written it halved recall beside a perfect hit@1."""
    path = write_lines(tmp_path / "mine.jsonl", BREAD,
                       {**CRAFT, "expected_sources": [f"{FILE_B}#1", f"{FILE_B}#1"]})
    with pytest.raises(DatasetError, match=rf"mine.jsonl:2: field 'expected_sources': "
                                           rf"'{FILE_B}#1' is listed twice"):
        load_dataset(path)


def test_sources_are_read_without_stray_spaces(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "mine.jsonl",
                       {**CRAFT, "expected_sources": [f" {FILE_B}#1 "], "also_relevant": [
                           f"{FILE_B}#2\t"]})
    [item] = load_dataset(path)
    assert (item.expected_sources, item.also_relevant) == ([f"{FILE_B}#1"], [f"{FILE_B}#2"])


@pytest.mark.parametrize(("question", "problem"), [
    ("What " * 32_000, "the question is 159,999 characters long; the limit is 4,000"),
    ("     ", "the question is empty"),
])
def test_a_question_the_pipeline_would_refuse_is_named_at_load(tmp_path: Path, question: str,
                                                               problem: str) -> None:
    path = write_lines(tmp_path / "mine.jsonl", BREAD, {**BREAD, "question": question})
    with pytest.raises(DatasetError, match=rf"mine.jsonl:2: field 'question': {problem}"):
        load_dataset(path)


def test_a_made_up_id_never_takes_one_the_file_uses(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "mine.jsonl", BREAD, {**CRAFT, "id": "q1"}, BREAD)
    assert [i.id for i in load_dataset(path)] == ["q1-2", "q1", "q3"]
    path = write_lines(tmp_path / "mine.jsonl", {**CRAFT, "id": "q2"}, {**BREAD, "id": "q2"})
    with pytest.raises(DatasetError, match="mine.jsonl:2: duplicate id 'q2'"):
        load_dataset(path)  # the user's own clash is still named
