"""A user's own `assistant eval --dataset` file and `--compare` file, as a hostile user writes
them: each bad input stops the run with one line naming the file (and the line and field),
exit 2, never a traceback; valid JSON Lines are read as written."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import FILE_B, make_settings
from rich.console import Console
from test_cli import run

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.evals import DatasetError, load_dataset, run_cli
from assistant.evals.scoring import evaluate
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT

CRAFT = {"question": "What is CRAFT?", "expected_sources": [f"{FILE_B}#1"]}
BREAD = {"question": "How do I bake sourdough bread?", "expected_sources": []}


def write_lines(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def eval_in_process(data_dir: Path, dataset: Path, tmp_path: Path,
                    compare_to: Path | None = None) -> int:
    console = Console(record=True, width=160)
    return run_cli(make_settings(data_dir), dataset, tmp_path / "out", compare_to, None, False,
                   console, console)


@pytest.mark.parametrize(("content", "problem"), [
    (b"not json{", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (json.dumps({"a": 1}).encode(), "no metrics of a run"),  # JSON, but no results file
    (b"[1, 2]", "no metrics of a run"),
    (json.dumps({"sections": {"seeds": 5}}).encode(), "no metrics of a run"),
    (json.dumps({"metrics": {"ours": 0.5, "hit@5": 1}}).encode(), "no metrics of a run"),
    (json.dumps({"metrics": {"ours": {"hit@5": 1}}, "per_question": [1]}).encode(),
     "no metrics of a run"),
])
def test_a_compare_file_that_is_no_results_file_is_one_line(seed_dir: Path, tmp_path: Path,
                                                            content: bytes,
                                                            problem: str) -> None:
    old = tmp_path / "old.json"
    old.write_bytes(content)
    dataset = write_lines(tmp_path / "mine.jsonl", BREAD)
    with pytest.raises(BadInputError, match=rf"old.json: not an eval results file \({problem}"):
        eval_in_process(seed_dir, dataset, tmp_path, old)
    assert not (tmp_path / "out").exists()  # refused before the run, not after it


def test_a_dataset_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(json.dumps(BREAD).encode() + b"\n"
                     + json.dumps({"question": "Caf\u00e9 papers?", "expected_sources": []},
                                  ensure_ascii=False).encode("latin-1") + b"\n")
    with pytest.raises(DatasetError, match=r"latin1.jsonl:2: not UTF-8 text \(byte 0xe9\)"):
        load_dataset(path)


def test_bad_files_exit_2_with_one_line(tmp_path: Path) -> None:
    """The CLI end to end: the two crashes a user met, now one line each."""
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"question": "Caf\xe9?", "expected_sources": []}\n')
    bad = tmp_path / "bad.json"
    bad.write_text("not json{")
    mine = write_lines(tmp_path / "mine.jsonl", BREAD)
    for args in (["--dataset", str(latin1)], ["--dataset", str(mine), "--compare", str(bad)]):
        result = run("eval", *args, "--data-dir", str(tmp_path / "data"))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


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


@pytest.mark.parametrize("source", ["neurips_abstract_2018.csv#473", "elsewhere.txt#1"])
def test_a_file_with_no_question_to_score_is_an_error(seed_dir: Path, tmp_path: Path,
                                                      source: str) -> None:
    dataset = write_lines(tmp_path / "mine.jsonl", {**CRAFT, "expected_sources": [source]})
    with pytest.raises(BadInputError, match=rf"mine.jsonl: no question can be scored: each "
                                            rf"names a paper not in .*q1 \({source}\).*--data-dir"):
        eval_in_process(seed_dir, dataset, tmp_path)
    assert not (tmp_path / "out").exists()  # no report of dashes


def test_a_users_store_is_not_labelled_the_seeds(fresh_copy: Path, tmp_path: Path) -> None:
    papers = tmp_path / "papers.csv"
    with papers.open("w", newline="") as f:
        csv.writer(f).writerows([["title", "abstract"], [
            "Compiled Koalas", "We compile a census of koalas from eucalyptus counts."]])
    app = Assistant(make_settings(fresh_copy))
    app.ingest([papers])
    koalas = next(p.source for p in app.index.papers().values() if p.title == "Compiled Koalas")
    dataset = write_lines(tmp_path / "mine.jsonl", {"question": "How were koalas counted?",
                                                    "expected_sources": [koalas]})
    assert eval_in_process(fresh_copy, dataset, tmp_path) == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert list(results["sections"]) == ["store"]
    baseline = PROJECT_ROOT / "evals" / "baseline-offline.json"  # a real results file loads
    assert eval_in_process(fresh_copy, dataset, tmp_path, baseline) == 0


@pytest.mark.parametrize(("line", "kind"), [
    ([CRAFT], "an array"), ("What is CRAFT?", "a string"), (3, "a number"), (None, "null"),
])
def test_a_line_that_is_no_object_says_so(tmp_path: Path, line: object, kind: str) -> None:
    """Not pydantic's "field 'line': … instance of EvalItem", which names no field of the
    user's and a class they never wrote."""
    path = write_lines(tmp_path / "mine.jsonl", BREAD, line)
    with pytest.raises(DatasetError, match=rf"mine.jsonl:2: a line must be one JSON object, "
                                           rf".*, not {kind}$") as raised:
        load_dataset(path)
    assert "EvalItem" not in str(raised.value)


def test_a_null_id_is_made_up_as_a_missing_one_is(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "mine.jsonl", {**BREAD, "id": None}, {**CRAFT, "id": None},
                       {**BREAD, "id": "q1"})
    assert [i.id for i in load_dataset(path)] == ["q1-2", "q2", "q1"]


def test_a_list_question_is_scored_on_the_list_ask_gives(seed_assistant: Assistant,
                                                        tmp_path: Path) -> None:
    """A user's list question was answered by ``Assistant.ask``, its best five papers, while
    `assistant ask`, the chat and the MCP tools list every paper: recall 0.417 for a
    question whose twelve listed papers were expected. The eval now answers as `ask` does."""
    question = "Which papers use language models?"
    listed = final_answer(seed_assistant.answer_stream(question))  # what `ask` gives
    expected = [s.source for s in listed.sources]
    assert len(expected) > 5 and listed.receipt is not None and listed.receipt.matching
    path = write_lines(tmp_path / "mine.jsonl", {"question": question,
                                                 "expected_sources": expected})
    [item] = load_dataset(path)
    assert item.kind == "list"  # read from the question, as `ask` reads it
    [row] = evaluate(seed_assistant, [item], baselines=False, judged=False).rows
    assert row.error is None, row.error
    assert (row.answered_as, row.citation_recall, row.citation_precision) == ("list", 1.0, 1.0)
    assert row.cited == expected
    assert row.unsupported_claims == []  # its count line is no claim of an abstract


@pytest.mark.parametrize(("question", "kind"), [
    ("How has interest in graph neural networks grown?", "trend"),
    ("Are there more papers on GANs or on normalizing flows?", "trend"),
    ("Which papers use capsule networks?", "list"),
    ("What is CRAFT?", "paraphrase"),
])
def test_a_kind_left_out_is_read_from_the_question(tmp_path: Path, question: str,
                                                   kind: str) -> None:
    path = write_lines(tmp_path / "mine.jsonl", {"question": question,
                                                 "expected_sources": [f"{FILE_B}#1"]},
                       {**CRAFT, "kind": None}, {**CRAFT, "kind": "trend"})
    assert [i.kind for i in load_dataset(path)] == [kind, "paraphrase", "trend"]


def test_every_bad_line_is_named_at_once(tmp_path: Path) -> None:
    """A run: a file with five bad lines took five reruns, each naming the first one left."""
    path = write_lines(tmp_path / "mine.jsonl", {**BREAD, "id": "b"}, {"question": "Q two?"},
                       {**BREAD, "id": "b"}, {"expected_sources": ["a.txt#1"]})
    path.write_text(path.read_text() + "not json{\n")
    with pytest.raises(DatasetError) as caught:
        load_dataset(path)
    lines = str(caught.value).splitlines()
    assert [line.split(":")[1] for line in lines] == ["2", "3", "4", "5"], lines  # line 1 is good
    assert "field 'expected_sources'" in lines[0] and "duplicate id" in lines[1]
    assert "field 'question'" in lines[2] and "not valid JSON" in lines[3]
