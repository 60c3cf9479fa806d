"""Related papers: `assistant similar` on the seeds (by locator, paper id and free text, as
text and JSON, a bad locator), the `similar_papers` endpoint and MCP tool, and "More like
this" under a source in headless Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import FILE_A, FILE_B, SHARED_DATA, skipif_no_shared_data
from gradio_client import Client
from test_ui import CHROMIUM, Server, start_server, stop

from assistant.corpus import read_file
from assistant.errors import BadInputError
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT
from assistant.similar import titled

TCCM = f"{FILE_A}#7"
CRAFT = f"{FILE_B}#1"
NCMEMO = f"{FILE_A}#15"
MAGE = f"{FILE_A}#11"


@pytest.fixture(scope="module")
def data(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the seed index for this module's processes."""
    target = tmp_path_factory.mktemp("similar") / "data"
    shutil.copytree(seed_dir, target)
    return target


def run_cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    return subprocess.run([sys.executable, "-m", "assistant.cli", "similar", "--data-dir",
                           str(data), *args], capture_output=True, text=True, cwd=PROJECT_ROOT,
                          env=env, timeout=180)


@pytest.mark.slow
def test_similar_by_locator_json_leaves_the_paper_out(data: Path) -> None:
    done = run_cli(data, "--json", "-k", "4", NCMEMO)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["kind"] == "paper" and result["paper"]["source"] == NCMEMO
    sources = [r["source"] for r in result["results"]]
    assert len(sources) == 4 and NCMEMO not in sources
    scores = [r["score"] for r in result["results"]]
    assert scores == sorted(scores, reverse=True) and 0 < scores[-1] <= scores[0] <= 1
    # The other graph papers (MAGE, CRAFT) are the closest: the eval groups them with NCMemo.
    assert {MAGE, CRAFT} & set(sources[:2])
    assert [r["rank"] for r in result["results"]] == [1, 2, 3, 4]


@pytest.mark.slow
def test_similar_by_paper_id_prints_a_ranked_list(data: Path, seed_assistant: Assistant) -> None:
    paper_id = next(p.paper_id for p in seed_assistant.index.papers().values() if p.source == TCCM)
    done = run_cli(data, "--top-k", "3", paper_id)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("Papers like TCCM") and TCCM in lines[0]
    assert len(lines) == 4 and all(line.lstrip().startswith(f"{i}.") for i, line in
                                   enumerate(lines[1:], start=1))
    assert not any(TCCM in line for line in lines[1:])


@pytest.mark.slow
def test_similar_to_free_text(data: Path) -> None:
    done = run_cli(data, "--json", "temporal graph link prediction")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["kind"] == "text" and result["paper"] is None
    assert result["results"][0]["source"] == CRAFT and len(result["results"]) == 5


@pytest.mark.slow
def test_unknown_locator_is_one_line_exit_2(data: Path) -> None:
    done = run_cli(data, "nowhere.txt#99")
    assert done.returncode == 2 and done.stdout == ""
    assert "no stored paper has the locator 'nowhere.txt#99'" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("target", "named"), [
    ("0123456789abcdef", "no stored paper has the id '0123456789abcdef'"),
    ("  ", "nothing to compare with"),
    ("x" * 5000, "the limit is 4,000"),
])
def test_unknown_id_empty_or_over_long_target_is_bad_input(seed_assistant: Assistant,
                                                          target: str, named: str) -> None:
    with pytest.raises(BadInputError, match=named):
        seed_assistant.similar(target)


def test_an_id_in_capitals_or_a_paper_link_names_the_paper(seed_assistant: Assistant) -> None:
    tccm = next(p for p in seed_assistant.index.papers().values() if p.source == TCCM)
    assert seed_assistant.similar(tccm.paper_id.upper()).paper == tccm
    assert seed_assistant.similar("https://github.com/ZhongLIFR/TCCM-NIPS/").paper == tccm


@pytest.mark.parametrize(("target", "named"), [
    # these read as free text and listed unrelated papers, with scores and no word of doubt
    ("https://arxiv.org/abs/1706.03762", "no stored paper has the link"),
    ("extra.csv", "'extra.csv' names no paper: a locator is"),
    ("#1", "'#1' names no paper"),
])
def test_a_link_or_file_that_names_no_paper_is_bad_input(seed_assistant: Assistant,
                                                         target: str, named: str) -> None:
    with pytest.raises(BadInputError, match=named):
        seed_assistant.similar(target)


def test_paper_vector_is_the_unit_mean_of_its_chunks(seed_assistant: Assistant) -> None:
    index = seed_assistant.index
    paper = next(p for p in index.papers().values() if p.source == TCCM)
    vector = index.paper_vector(paper.paper_id)
    assert vector is not None and abs(float(np.linalg.norm(vector)) - 1) < 1e-5
    assert index.paper_vector("0" * 16) is None
    # Its own chunks are the closest to it: the dense side finds the paper first.
    assert index.search_dense("", 1, vector)[0].paper_id == paper.paper_id



def test_chunk_vectors_are_every_stored_vector_by_paper(seed_assistant: Assistant) -> None:
    """What the benches that learn from the store read (bench/query_adapter.py): one vector
    per chunk, each with its paper, paged as the store is read elsewhere."""
    index = seed_assistant.index
    papers, vectors = index.chunk_vectors()
    assert len(papers) == len(vectors) == index.chunk_count()
    assert set(papers) == set(index.papers()) and vectors.shape[1] == 384
    paper = next(p for p in index.papers().values() if p.source == TCCM)
    own = vectors[[i for i, pid in enumerate(papers) if pid == paper.paper_id]]
    mean = own.mean(axis=0)
    assert np.allclose(mean / np.linalg.norm(mean), index.paper_vector(paper.paper_id), atol=1e-5)

# ---------------------------------------------------------------- UI, API and MCP


@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[Server]:
    running = start_server(data, data.parent / "serve.log")
    yield running
    stop(running)


@pytest.mark.slow
def test_similar_papers_endpoint_and_mcp_tool(server: Server) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    client = Client(server.url, verbose=False, download_files=False)
    found = client.predict(TCCM, 3, api_name="/similar_papers")
    assert found["paper"]["source"] == TCCM and len(found["results"]) == 3
    bad = client.predict("nowhere.txt#99", 3, api_name="/similar_papers")
    assert "no stored paper has the locator" in bad["error"]

    async def run() -> tuple[set[str], str]:
        async with streamable_http_client(server.url + "gradio_api/mcp/") as (read, write, _), \
                ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            result = await session.call_tool("similar_papers",
                                             {"target": "temporal graph link prediction",
                                              "top_k": 2})
            return tools, " ".join(getattr(c, "text", "") for c in result.content)

    tools, text = asyncio.run(run())
    assert "similar_papers" in tools and CRAFT in text


@pytest.mark.slow
def test_more_like_this_under_a_source_in_chromium(server: Server,
                                                    tmp_path_factory: pytest.TempPathFactory
                                                    ) -> None:
    from playwright.sync_api import sync_playwright

    shots = tmp_path_factory.mktemp("screens")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            page.goto(server.url)
            page.wait_for_selector("#question textarea", timeout=60_000)
            page.fill("#question textarea", "What is TCCM?")
            page.click("#ask")
            page.wait_for_selector("details.sources", timeout=60_000)
            page.locator("details.sources > summary").first.click()
            source = page.locator("details.source").first
            source.locator("summary").click()
            assert TCCM in source.inner_text()
            source.locator("a.more-like").click()
            page.wait_for_selector("#similar-results li.similar", timeout=60_000)
            panel = page.locator("#similar-results")
            assert "Papers like TCCM" in panel.inner_text()
            assert page.input_value("#similar-target textarea, #similar-target input") == TCCM
            listed = panel.locator("li.similar code").all_inner_texts()
            assert len(listed) == 5 and TCCM not in listed
            page.screenshot(path=str(shots / "more-like-this.png"), full_page=True)
            # Each listed paper has its own "More like this": the panel follows it.
            panel.locator("li.similar a.more-like").first.click()
            page.wait_for_function(
                "first => document.querySelector('#similar-results').innerText"
                ".includes('Papers like') && !document.querySelector('#similar-results')"
                ".innerText.includes('Papers like TCCM')", arg=listed[0], timeout=60_000)
            assert listed[0] in page.locator("#similar-results p").first.inner_text()
            # A comparison question's table shows as a table in the chat (compare.py); a
            # new conversation, or "…what do they study?" would lean on the last question.
            page.click("#clear")
            page.wait_for_function("() => !document.querySelector('#chat details.sources')")
            page.fill("#question textarea", "Compare the graph neural network papers: what "
                      "do they study?")
            page.click("#ask")
            page.wait_for_function(  # the finished answer: its sources follow the table
                "() => document.querySelectorAll('#chat details.sources').length === 1 && "
                "document.querySelector('#chat table.compare')", timeout=60_000)
            table = page.locator("#chat table.compare").last
            assert table.locator("th").all_inner_texts() == ["paper", "problem", "method",
                                                             "result"]
            assert table.locator("tbody tr").count() >= 2
            assert table.locator("a.cite").count() >= 4
            table.scroll_into_view_if_needed()
            page.screenshot(path=str(shots / "compare-table.png"), full_page=True)
        finally:
            browser.close()
    assert (shots / "more-like-this.png").stat().st_size > 10_000


def test_a_locator_with_a_space_in_its_file_name_is_a_paper(tmp_path: Path) -> None:
    from conftest import make_settings

    upload = tmp_path / "my papers.csv"
    upload.write_text('title,abstract\n"Quokka Sampling","We introduce QuokkaSampler, a sampler for '
                      'marsupial population surveys."\n"Wombat Burrows","Wombat burrows regulate '
                      'temperature across seasons."\n')
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([upload])
    found = app.similar("my papers.csv#1", top_k=3)
    assert found.kind == "paper" and "my papers.csv#1" not in [r.paper.source for r in found.results]



@skipif_no_shared_data
def test_a_stored_papers_exact_title_names_that_paper() -> None:
    # a pasted title was read as free text, which ranked the paper itself 5th of 5
    papers, _ = read_file(SHARED_DATA / "neurips_abstract_1987.csv")
    paper = papers[58]
    assert titled(papers, f"  {paper.title.upper()}. ") == paper
    assert titled(papers, " ".join(paper.title.split()[:-1])) is None  # not the whole title
    derived = replace(paper, title_derived=True)  # a label made from its text names nothing
    assert titled([derived], paper.title) is None
