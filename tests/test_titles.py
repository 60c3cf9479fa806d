"""Model-written titles for untitled abstracts (`assistant ingest --titles`): written once,
kept across runs and re-ingests, resumable, and marked as the model's wherever shown."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from conftest import SEEDS, make_settings
from fake_openai import FakeOpenAI
from gradio_client import Client
from test_cli import run
from test_ui import start_server, stop, text_of

from assistant.corpus import Paper
from assistant.pipeline import Assistant
from assistant.references import to_bibtex, to_markdown
from assistant.titles import clean_title, untitled
from assistant.ui.corpus_page import CorpusPage
from assistant.ui.render import render_paper

MODEL_NOTE = "title written by the model tiny"


def model_env(server: FakeOpenAI) -> dict[str, str]:
    return {"ASSISTANT_LLM_BASE_URL": server.base_url, "ASSISTANT_LLM_MODEL": "tiny",
            "ASSISTANT_LLM_RETRIES": "0"}


def abstract_in(request: dict[str, object], papers: dict[str, object]) -> str:
    """The id of the paper whose abstract a title request carries."""
    content = request["body"]["messages"][0]["content"]  # type: ignore[index]
    [pid] = [pid for pid, p in papers.items() if p.text[:200] in content]  # type: ignore[attr-defined]
    return pid


ABSTRACT = ("We study sparse kernels for graphs and propose cross-attention link prediction "
            "on temporal graphs; MuRating rates data in 17 languages.")


def replies(papers: dict[str, Paper], tag: str) -> list[str]:
    """A title for each untitled paper, in the order they are asked for: its derived label
    (the abstract's words) and ``tag``, behind a label and Markdown to be cleaned off."""
    return [f"Title: **{p.title} {tag}.**" for p in untitled(papers)]


def test_clean_title_keeps_a_title_and_refuses_the_rest() -> None:
    assert clean_title('Title: **"Sparse Kernels for Graphs".**\nMore', ABSTRACT) == (
        "Sparse Kernels for Graphs")
    assert clean_title("  # Cross-Attention Link Prediction  ", ABSTRACT) == (
        "Cross-Attention Link Prediction")
    assert clean_title("", ABSTRACT) is None and clean_title("12345", ABSTRACT) is None
    assert clean_title(" ".join(["graphs"] * 30), ABSTRACT) is None
    # what Gemma 3 270M replies: the prompt's last line repeated, tags, TeX, links, fields of
    # a paper and invented venues
    assert clean_title("Title of the paper: temporal link prediction\nTitle of the paper: x",
                       ABSTRACT) == "Temporal link prediction"
    assert clean_title("Title of the paper:\n\n**MuRating**", ABSTRACT) == "MuRating"
    assert clean_title("\\emph{sparse kernels} for graphs", ABSTRACT) == "Sparse kernels for graphs"
    for junk in ("<h2>Abstract</h2>", "<b>Keywords</b>:", "Topic: Sparse kernels",
                 "Https://arxiv.org/abs/1906.02548", "Abstract: We study sparse kernels",
                 "Proceedings of the 2019 IEEE Conference on Sparse Kernels",
                 "Quantum Chemistry of Protein Folding Dynamics"):
        assert clean_title(junk, ABSTRACT) is None, junk


@pytest.mark.slow  # the CLI in a subprocess
def test_ingest_titles_writes_each_title_once_and_marks_it(fresh_copy: Path, tmp_path: Path) -> None:
    papers = Assistant(make_settings(fresh_copy)).index.papers()
    assert len(papers) == 38 and all(p.title_derived and not p.title_model for p in papers.values())
    with FakeOpenAI() as server:
        asked = untitled(papers)
        server.replies = replies(papers, "Zorblax")[:37] + ["Topic: Learning"]
        result = run("ingest", "--titles", "--data-dir", str(fresh_copy), env=model_env(server))
        assert result.returncode == 0, result.stderr
        assert "titles: 37 written by tiny of 38 untitled · 1 reply not a title" in result.stdout
        assert "writing titles: 38/38 (100%)" in result.stderr  # the progress line
        titled = Assistant(make_settings(fresh_copy)).index.papers()
        for request, derived in zip(server.requests[:37], asked, strict=False):
            paper = titled[abstract_in(request, papers)]
            assert (paper.title, paper.title_model, paper.title_derived) == (
                f"{derived.title} Zorblax", "tiny", True)
        junk = titled[abstract_in(server.requests[37], papers)]
        assert junk.title == papers[junk.paper_id].title and not junk.title_model
        asked = len(server.requests)
        # the next run asks only for the one the model failed; a re-ingest keeps every title
        server.replies = [f"{junk.title} Recovered"]
        again = run("ingest", str(SEEDS), "--titles", "--data-dir", str(fresh_copy),
                    env=model_env(server))
        assert again.returncode == 0, again.stderr
        assert "38 unchanged" in again.stdout and "titles: 1 written by tiny of 1 untitled" in again.stdout
        assert len(server.requests) == asked + 1
    app = Assistant(make_settings(fresh_copy))
    stored = app.index.papers()
    assert sum(p.title_model == "tiny" for p in stored.values()) == 38
    assert stored[junk.paper_id].title == f"{junk.title} Recovered"
    # search reads the abstract's words, not the model's: "Zorblax" is in no seed abstract
    assert app.index.bm25_paper_scores("zorblax") == {}
    assert app.index.bm25_paper_scores("CRAFT")  # the derived title's words still count
    # every surface marks it: the CLI's sources, --json, BibTeX, Markdown, the Corpus table
    shown = run("ask", "What is CRAFT?", "--data-dir", str(fresh_copy))
    assert f"({MODEL_NOTE}) — 004_d328982b31ffa53a.txt#1" in shown.stdout
    data = json.loads(run("ask", "--json", "What is CRAFT?", "--data-dir", str(fresh_copy)).stdout)
    assert data["sources"][0]["title_model"] == "tiny" and data["sources"][0]["title_derived"]
    answer = app.ask("What is CRAFT?")
    # the answer's bold lead and every list line carry the note too
    assert f"Zorblax ({MODEL_NOTE})**:" in answer.answer
    listed = run("ask", "--all", "CRAFT", "--data-dir", str(fresh_copy))
    assert listed.returncode == 0 and f"Zorblax ({MODEL_NOTE})" in listed.stdout, listed.stdout
    assert MODEL_NOTE in to_bibtex(answer) and f"({MODEL_NOTE})" in to_markdown(answer)
    rows, _ = CorpusPage(app).search_table("")
    assert all(row[0].endswith(f"({MODEL_NOTE})") for row in rows)
    assert MODEL_NOTE in html.unescape(render_paper(next(iter(stored.values()))))


def test_an_interrupted_or_failed_run_keeps_its_titles_and_goes_on(fresh_copy: Path) -> None:
    with FakeOpenAI() as server:
        app = Assistant(make_settings(fresh_copy, base_url=server.base_url, model="tiny",
                                      retries=0))
        server.replies = replies(app.index.papers(), "Resumed")

        def interrupt(done: int, total: int, what: str) -> None:
            if done == 11:
                raise KeyboardInterrupt

        report = app.write_titles(interrupt)
        assert (report.written, report.total, report.stopped, report.exit_code) == (
            11, 38, "interrupted", 130)

        def fail_after(done: int, total: int, what: str) -> None:
            if done == 4:
                server.status = 500

        report = Assistant(app.settings).write_titles(fail_after)
        assert (report.written, report.total) == (4, 27)
        assert report.stopped and report.exit_code not in (0, 130)
        server.status = 200
        before = len(server.requests)
        report = Assistant(app.settings).write_titles()
        assert (report.written, report.total, report.stopped) == (23, 23, "")
        assert len(server.requests) - before == 23
    stored = Assistant(make_settings(fresh_copy)).index.papers().values()
    assert all(p.title_model == "tiny" for p in stored)
    assert len({p.title for p in stored}) == 38


@pytest.mark.slow  # the CLI in a subprocess
def test_titles_need_a_model_and_change_nothing_without_one(fresh_copy: Path) -> None:
    result = run("ingest", "--titles", "--data-dir", str(fresh_copy))
    assert result.returncode == 2 and "--titles needs a model" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not any(p.title_model for p in Assistant(make_settings(fresh_copy)).index.papers().values())


@pytest.mark.slow  # a served UI
def test_the_chat_marks_a_model_title(fresh_copy: Path, tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        app = Assistant(make_settings(fresh_copy, base_url=server.base_url, model="tiny"))
        server.replies = replies(app.index.papers(), "Served")
        assert app.write_titles().written == 38
    served = start_server(fresh_copy, tmp_path / "serve.log")
    try:
        client = Client(served.url, verbose=False, download_files=False)
        message = html.unescape(text_of(client.predict("What is CRAFT?", [], 5,
                                                       api_name="/chat")[0][-1]))
        assert f'Served</b> <span class="title-note">({MODEL_NOTE})</span>' in message
    finally:
        stop(served)
