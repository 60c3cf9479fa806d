"""The CLI through a subprocess, as a researcher runs it."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FILE_B, make_settings
from fake_openai import FakeOpenAI

from assistant.index import AbstractIndex
from assistant.keywords import query_terms
from assistant.ranking import text_terms
from assistant.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # the CLI in a subprocess per test: not in the fast tier


def run(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True,
        env={**clean, **(env or {})}, cwd=cwd or PROJECT_ROOT, timeout=300,
    )


def test_ask_json_schema(fresh_copy: Path) -> None:
    result = run("ask", "--json", "What is CRAFT?", "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"question", "answer", "mode", "citations", "sources", "timings_ms", "usage",
                         "dropped_citations", "uncited", "truncated", "claims", "filters",
                         "unmentioned", "unsure", "refusal", "cite_mode", "model_reply",
                         "unchecked", "off_question", "receipt"}
    assert (data["cite_mode"], data["model_reply"], data["unchecked"], data["off_question"]) == (
        None, None, None, None)
    assert data["question"] == "What is CRAFT?" and data["mode"] == "extractive"
    assert data["usage"] is None
    assert (data["dropped_citations"], data["uncited"], data["truncated"], data["unmentioned"],
            data["unsure"], data["refusal"]) == ([], False, False, [], False, None)
    assert set(data["timings_ms"]) == {"retrieve", "generate", "total"}
    assert data["citations"] and set(data["citations"][0]) == {"n", "paper_id", "title", "source", "text",
                                                               "highlights", "origin"}
    # the quoted sentences, each the abstract's own (lists.md promises them in --json)
    assert all(c["highlights"] for c in data["citations"])
    assert all(h in c["text"] for c in data["citations"] for h in c["highlights"])
    assert {c["origin"] for c in data["citations"]} == {"assistant"}
    assert data["citations"][0]["source"] == f"{FILE_B}#1"
    assert set(data["sources"][0]) == {"n", "paper_id", "title", "source", "score", "authors",
                                       "year", "venue", "url", "title_derived", "title_model",
                                       "kept_unread", "titled"}
    assert not any(s["kept_unread"] or s["titled"] for s in data["sources"])  # none unread
    assert [s["n"] for s in data["sources"]] == list(range(1, len(data["sources"]) + 1))
    for c in data["citations"]:
        assert f"[{c['n']}]" in data["answer"]


def test_ask_prints_answer_then_numbered_sources(fresh_copy: Path) -> None:
    result = run("ask", "What is TCCM?", "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Extractive answer" in out and "[1]" in out
    assert out.index("Sources") > out.index("[1]")
    assert "*[1] TCCM: Time-Conditioned Contraction Matching — 000_5670d2e227b27b35.txt#7 (score" in out
    # a run: a seed's words read as its title ("what is the title of…?"); the seeds have none
    shown = out.count(" — 000_") + out.count(" — 004_")
    assert ("1 of these papers has no title in its input" if shown == 1
            else f"{shown} of these papers have no title in their input") in out


def test_every_answer_says_how_much_it_looked_at(fresh_copy: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.jsonl"
    older.write_text(json.dumps({"title": "Sparse Kernels for Link Prediction", "year": 2010,
                                 "abstract": "We study sparse kernels for link prediction on "
                                             "temporal graphs and show they scale."}) + "\n")
    assert run("ingest", str(older), "--data-dir", str(fresh_copy)).returncode == 0
    result = run("ask", "What is CRAFT?", "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    read = int(last.split("read ")[1].split(" ")[0])
    assert last == f"Looked at 39 papers in the store · read {read} · cited 1" and 1 <= read <= 39
    filtered = json.loads(run("ask", "--json", "What is CRAFT?", "--year", "2025",
                              "--data-dir", str(fresh_copy)).stdout)["receipt"]
    assert (filtered["in_store"], filtered["in_filter"], filtered["cited"]) == (39, 38, 1)
    assert 1 <= filtered["read"] <= 38 and filtered["nearest"] == []
    refused = run("ask", "What is the Quokkaformer architecture?", "--data-dir", str(fresh_copy))
    assert "The corpus has no abstract" in refused.stdout
    lines = refused.stdout.strip().splitlines()
    assert lines[-1].endswith(" · cited 0") and lines[-5] == "The nearest papers, and why none answers:"
    assert all(line.startswith("  - ") and "“Quokkaformer”" in line and "similarity" in line
               for line in lines[-4:-1])
    data = json.loads(run("ask", "--json", "What is the Quokkaformer architecture for temporal "
                          "graphs?", "--data-dir", str(fresh_copy)).stdout)
    assert data["refusal"]["check"] == "unknown_names" and data["receipt"]["cited"] == 0
    nearest = data["receipt"]["nearest"]
    assert len(nearest) == 3 and len({n["reason"] for n in nearest}) == 3
    papers = {p.source: p for p in AbstractIndex(make_settings(fresh_copy)).papers().values()}
    for near in nearest:  # each its own reason: the words its own abstract writes, and not
        written, never = near["reason"].split(" (similarity")[0].split("never ")
        held = text_terms(f"{papers[near['source']].title} {papers[near['source']].text}")
        assert "“Quokkaformer”" in never
        assert all(t in held for w in re.findall("“(.+?)”", written) for t in query_terms(w))
        assert all(any(t not in held for t in query_terms(w))
                   for w in re.findall("“(.+?)”", never))


def test_first_question_on_an_empty_index_ingests_the_seeds(tmp_path: Path) -> None:
    result = run("ask", "--json", "What is PoLAR?", "--data-dir", str(tmp_path / "new"))
    assert result.returncode == 0, result.stderr
    assert "ingesting" in result.stderr
    assert json.loads(result.stdout)["citations"][0]["title"].startswith("PoLAR")


def test_ingest_reports_counts_and_skips(fresh_copy: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"  # the data dir, a folder in tmp_path, would be named as skipped
    inputs.mkdir()
    (inputs / "bad.bin.txt").write_bytes(b"\x00\xff")
    paper = "We study long papers. " + "The body goes on. " * 80  # a whole paper: cut, kept
    (inputs / "new.csv").write_text('title,abstract\n"Sparse Kernels","We study sparse kernels."\n'
                                    f'"Long Papers","{paper}"\n')
    result = run("ingest", str(inputs), "--data-dir", str(fresh_copy),
                 env={"ASSISTANT_INDEX_MAX_ABSTRACT_CHARS": "1000"})
    assert result.returncode == 0, result.stderr
    assert "papers: 40 (2 added, 0 unchanged)" in result.stdout
    assert "skipped: 1" in result.stdout
    assert "bad.bin.txt" in result.stderr and "binary" in result.stderr
    assert "stored new.csv:3: record #2 is 1,461 characters" in result.stderr
    again = run("ingest", "--data-dir", str(fresh_copy))
    assert "papers: 40 (0 added, 38 unchanged)" in again.stdout and "+0)" in again.stdout


def test_only_bad_input_fails_with_one_line(fresh_copy: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.docx").write_bytes(b"PK")
    result = run("ingest", str(tmp_path / "notes.docx"), "--data-dir", str(fresh_copy))
    assert result.returncode == 2
    assert "unsupported file type '.docx'" in result.stderr
    assert "Traceback" not in result.stderr


def test_unreachable_endpoint_exits_non_zero_with_reason(fresh_copy: Path) -> None:
    env = {"ASSISTANT_LLM_BASE_URL": "http://127.0.0.1:9/v1", "ASSISTANT_LLM_MODEL": "m"}
    result = run("ask", "What is CRAFT?", "--data-dir", str(fresh_copy), env=env)
    assert result.returncode == 3
    assert "cannot reach the model endpoint http://127.0.0.1:9/v1" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_model_answer_over_http_with_env_settings(fresh_copy: Path) -> None:
    with FakeOpenAI() as server:
        server.replies = ["CRAFT predicts future links in temporal graphs with cross-attention "
                          "[1][7]."]
        env = {"ASSISTANT_LLM_BASE_URL": server.base_url, "ASSISTANT_LLM_MODEL": "tiny",
               "OPENAI_API_KEY": "from-openai-env", "ASSISTANT_LLM_CITE_MODE": "free"}
        result = run("ask", "--json", "What is CRAFT?", "--data-dir", str(fresh_copy), env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mode"] == "llm" and data["answer"] == (
        "CRAFT predicts future links in temporal graphs with cross-attention [1].")
    assert data["cite_mode"] == "free" and data["dropped_citations"] == [7]
    assert [c["origin"] for c in data["citations"]] == ["model"]
    assert data["usage"]["total_tokens"] == 120
    assert server.requests[0]["auth"] == "Bearer from-openai-env"


def test_empty_question_is_refused() -> None:
    result = run("ask", "   ")
    assert result.returncode == 2 and "question is empty" in result.stderr


@pytest.mark.parametrize(("args", "says"), [
    (("ask", "x", "--reread", "0"), "invalid value for '--reread'"),
    (("ask", "x", "--top-k", "many"), "invalid value for '--top-k'"),
    (("ask", "x", "--bogus"), "no such option: --bogus"),
    (("asks", "x"), "no such command 'asks'"),
    (("trends",), "missing argument 'topic'"),
])
def test_a_usage_error_is_one_line_naming_the_help(args: tuple[str, ...], says: str) -> None:
    """Click's boxed usage text was four lines and more; it is one, like any bad input."""
    result = run(*args)
    assert result.returncode == 2
    command = "assistant" if args[0] == "asks" else f"assistant {args[0]}"
    assert result.stderr.strip().splitlines() == [
        next(line for line in result.stderr.splitlines() if says in line)]
    assert result.stderr.strip().endswith(f"see {command} --help")


def test_the_bare_command_prints_its_help() -> None:
    result = run()
    assert result.returncode == 2 and "Usage: assistant" in result.stdout + result.stderr
    assert "ingest" in result.stdout + result.stderr and "error:" not in result.stderr


def test_unusable_data_dir_is_one_line() -> None:
    result = run("ask", "What is CRAFT?", "--data-dir", "/proc/no-such-dir")
    assert result.returncode == 2
    assert "cannot open the index in /proc/no-such-dir" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("env", "says"), [
    ({"ASSISTANT_RETRIEVAL_TOP_K": "many"}, "bad setting ASSISTANT_RETRIEVAL_TOP_K"),
    # were tracebacks from the splitter and from Chroma (review)
    ({"ASSISTANT_INDEX_CHUNK_SIZE": "32"}, "ASSISTANT_INDEX_CHUNK_OVERLAP (40) must be smaller"),
    ({"ASSISTANT_DATA_COLLECTION": "x..y"}, "bad setting ASSISTANT_DATA_COLLECTION"),
    ({"ASSISTANT_DATA_COLLECTION": "10.0.0.1"}, "may not be an IP address"),
])
def test_bad_setting_names_the_variable(env: dict[str, str], says: str) -> None:
    result = run("ask", "What is CRAFT?", env=env)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr


def test_debug_switch_shows_the_traceback() -> None:
    result = run("ask", "What is CRAFT?", "--data-dir", "/proc/no-such-dir",
                 env={"ASSISTANT_DEBUG": "1"})
    assert result.returncode != 0
    assert "Traceback" in result.stderr and "IndexConfigError" in result.stderr


def test_markup_in_a_message_is_printed_as_text(tmp_path: Path) -> None:
    odd = tmp_path / "[red]odd[yellow].pdf"
    odd.write_bytes(b"%PDF")
    result = run("ingest", str(odd), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2
    assert "[red]odd[yellow].pdf" in result.stderr


def test_no_control_sequence_of_a_title_reaches_the_terminal(fresh_copy: Path,
                                                             tmp_path: Path) -> None:
    """A title or abstract holding a clear-screen or a terminal hyperlink is printed as its
    text (review: the Sources list printed them live)."""
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({
        "title": "Quorblin\x1b[2J \x1b]8;;http://evil.example/\x07owls\x1b]8;;\x07",
        "abstract": "Quorblin counts owls\x1b[31m in forest recordings."}) + "\n")
    assert run("ingest", str(path), "--data-dir", str(fresh_copy)).returncode == 0
    result = run("ask", "What is Quorblin?", "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    assert "Quorblin" in result.stdout and "owls" in result.stdout
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout


def test_a_reader_that_leaves_the_pipe_gets_no_error_line(fresh_copy: Path) -> None:
    """`assistant ask … | head -1` had printed "error: Broken pipe" and exited 2, as if the
    question were wrong: the reader left, so it stops quietly (click's exit code 1)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    command = (f"{shlex.quote(sys.executable)} -m assistant.cli ask 'Which papers use "
               f"reinforcement learning?' --data-dir {shlex.quote(str(fresh_copy))} | head -1; "
               "exit ${PIPESTATUS[0]}")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=clean,
                            cwd=PROJECT_ROOT, timeout=300)
    assert re.match(r"\d+ papers? of the \d+ match", result.stdout), result.stdout
    assert "error" not in result.stderr.lower() and result.returncode == 1, result.stderr


def test_a_chart_path_in_a_missing_folder_or_not_png_is_one_line(fresh_copy: Path,
                                                                  tmp_path: Path) -> None:
    """`trends --chart /nonexistent/dir/x.png` had made the folder silently, `--chart x.txt`
    had written a PNG under that name: each is one line naming it, exit 2, nothing made."""
    charts = tmp_path / "charts"
    charts.mkdir()
    missing = charts / "nonexistent" / "dir"
    for chart, why in ((missing / "x.png", f"the folder {missing} does not exist"),
                       (charts / "x.txt", "the chart is a PNG, not .txt")):
        result = run("trends", "reinforcement learning", "--chart", str(chart),
                     "--data-dir", str(fresh_copy))
        assert result.returncode == 2 and why in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert list(charts.iterdir()) == []


def test_a_trend_counting_no_paper_draws_no_chart(fresh_copy: Path, tmp_path: Path) -> None:
    """A topic no paper answers is a valid empty count, exit 0, but no chart: `trends
    "xqzzyv frobnication"` had written an empty PNG (a run's); with --chart it says none was."""
    chart = tmp_path / "none.png"
    result = run("trends", "quantum chromodynamics lattice gauge", "--chart", str(chart),
                 "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("0 papers of the "), result.stdout
    assert f"no chart written to {chart}: no paper counted" in result.stdout
    assert not chart.exists()
    result = run("trends", "quantum chromodynamics lattice gauge", "--data-dir", str(fresh_copy),
                 cwd=tmp_path)
    assert "chart" not in result.stdout and list(tmp_path.glob("*.png")) == [], result.stdout
