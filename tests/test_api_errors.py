"""The typed endpoints' one error contract, through a running server: bad input to any of
them, over gradio_client or as an MCP tool, is answered with an object ``{<its main argument>:
as given, "error": one line}``, the line the CLI prints for the same problem; never a raised
error, an ``"error: …"`` string, an empty result or a traceback (docs/usage.md, "Errors
from the API and the MCP tools")."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gradio_client import Client
from test_cli import run
from test_ui import Server, start_server, stop

pytestmark = pytest.mark.slow  # a Gradio server: not in the fast tier

Q = "What is CRAFT?"
LIST_Q = "Which papers use graph neural networks?"
LONG = "What is " + "graph " * 800 + "?"  # 4,809 characters: over the 4,000 a question takes
NOBODY = "Ada\x1b[2J Nobody"  # a terminal code in an echoed value: the CLI prints it without
EMPTY = 'the question is empty; ask something like "What is CRAFT?"'
TOP_K = "top_k must be a whole number from 1 to 50, not "
NO_2030 = "no indexed paper is of years 2030–2040; widen the range or leave it out"
NO_VENUE = "no indexed paper is of venue NoSuchVenue; the store's venues are NeurIPS"
BUDGET = "the reading budget abc is no number of papers; give one, e.g. 100"
NOBODY_LINE = "no indexed paper has an author named Ada[2J Nobody"

# (endpoint, the key naming its main argument, the arguments as a client sends them, the
# error's beginning): each endpoint's typical bad inputs
BAD: list[tuple[str, str, tuple[Any, ...], str]] = [
    ("/search_abstracts", "query", ("", 5), EMPTY),
    ("/search_abstracts", "query", (LONG, 5), "the question is 4,809 characters long"),
    ("/search_abstracts", "query", (Q, 0), TOP_K + "'0'"),
    ("/search_abstracts", "query", (Q, "abc"), TOP_K + "'abc'"),
    ("/search_abstracts", "query", (Q, 5, "abc"), "bad year filter 'abc'"),
    ("/search_abstracts", "query", (Q, 5, "2030-2040"), NO_2030),
    ("/search_abstracts", "query", (Q, 5, "", "NoSuchVenue"), NO_VENUE),
    ("/answer_with_references", "question", ("", "bibtex"), EMPTY),
    ("/answer_with_references", "question", (Q, "pdf"), "unknown format 'pdf'"),
    ("/answer_with_references", "question", (Q, "markdown", 1000), TOP_K + "'1000'"),
    ("/answer_with_references", "question", (Q, "bibtex", 5, "2030-2040"), NO_2030),
    ("/answer_with_references", "question", (LONG, "bibtex"), "the question is 4,809"),
    ("/list_papers", "question", (LIST_Q, "", "", "abc"), BUDGET),
    ("/list_papers", "question", (LIST_Q, "", "", 0, NOBODY), NOBODY_LINE),
    ("/list_papers", "question", ("", ""), EMPTY),
    ("/topic_trends", "topic", ("graphs", "", "", "abc"), BUDGET),
    ("/topic_trends", "topic", ("graphs", "", "", 0, NOBODY), NOBODY_LINE),
    ("/topic_trends", "topic", ("graphs", "", "NoSuchVenue"), NO_VENUE),
    ("/topic_trends", "topic", ("",), 'the topic is empty; give one, e.g. "graph neural'),
    ("/ask", "question", (Q, 5, "", "", NOBODY), NOBODY_LINE),
    ("/ask", "question", ("", 5), EMPTY),
    ("/ask", "question", (Q, "abc"), TOP_K + "'abc'"),
    ("/ask", "question", (Q, 5, "2030-2040"), NO_2030),
    ("/similar_papers", "query", ("https://example.org/\x1b[2Jpaper", 3),
     "no stored paper has the link 'https://example.org/[2Jpaper'"),
    ("/similar_papers", "query", ("", 3), "nothing to compare with"),
    ("/similar_papers", "query", ("CRAFT", 0), TOP_K + "'0'"),
]


@pytest.fixture(scope="module")
def server(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("api-errors") / "data"
    shutil.copytree(seed_dir, data)
    running = start_server(data, data.parent / "serve.log")
    yield running
    stop(running)


@pytest.fixture(scope="module")
def client(server: Server) -> Client:
    return Client(server.url, verbose=False, download_files=False)


def one_line(error: object) -> str:
    """``error`` checked to be a line a person can read: text, one line, no terminal code,
    no traceback."""
    assert isinstance(error, str) and error
    assert "\n" not in error and "\x1b" not in error and "Traceback" not in error
    return error


@pytest.mark.parametrize(("endpoint", "key", "args", "start"), BAD,
                         ids=[f"{e}-{i}" for i, (e, *_) in enumerate(BAD)])
def test_bad_input_is_an_object_with_its_one_line_error(
        client: Client, endpoint: str, key: str, args: tuple[Any, ...], start: str) -> None:
    result = client.predict(*args, api_name=endpoint)
    assert isinstance(result, dict) and set(result) == {key, "error"}, result
    assert result[key] == args[0]
    assert one_line(result["error"]).startswith(start)


def test_the_error_is_the_line_the_cli_prints(client: Client, seed_dir: Path,
                                              tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(seed_dir, data)
    for cli, api in (
            (("ask", "--year", "2030-2040", Q), client.predict(Q, 5, "2030-2040",
                                                               api_name="/ask")),
            (("trends", "--venue", "NoSuchVenue", "graphs"),
             client.predict("graphs", "", "NoSuchVenue", api_name="/topic_trends")),
            (("ask", "--author", NOBODY, Q), client.predict(Q, 5, "", "", NOBODY,
                                                            api_name="/ask"))):
        printed = run(*cli, "--data-dir", str(data))
        assert printed.returncode == 2
        assert printed.stderr.strip() == f"error: {api['error']}"


async def call_tools(url: str, calls: list[tuple[str, dict[str, Any]]]
                     ) -> list[tuple[bool, str]]:
    """(isError, the text) of each MCP tool call."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url + "gradio_api/mcp/") as (read, write, _), \
            ClientSession(read, write) as session:
        await session.initialize()
        results = []
        for tool, arguments in calls:
            result = await session.call_tool(tool, arguments)
            results.append((bool(result.isError),
                            " ".join(getattr(c, "text", "") for c in result.content)))
        return results


def test_mcp_tools_answer_bad_input_with_the_same_object(server: Server) -> None:
    calls = [("search_abstracts", {"query": Q, "top_k": 0}, TOP_K + "'0'"),
             ("search_abstracts", {"query": Q, "years": "2030-2040"}, NO_2030),
             ("search_abstracts", {"query": ""}, EMPTY),
             ("answer_with_references", {"question": Q, "fmt": "pdf"}, "unknown format 'pdf'"),
             ("answer_with_references", {"question": ""}, EMPTY),
             ("list_papers", {"question": LIST_Q, "author": NOBODY}, NOBODY_LINE),
             ("topic_trends", {"topic": ""}, "the topic is empty"),
             ("ask", {"question": Q, "top_k": 1000}, TOP_K + "'1000'"),
             ("similar_papers", {"target": ""}, "nothing to compare with")]
    results = asyncio.run(asyncio.wait_for(
        call_tools(server.url, [(tool, arguments) for tool, arguments, _ in calls]), 300))
    for (tool, arguments, start), (is_error, text) in zip(calls, results, strict=True):
        failed = json.loads(text)
        assert not is_error and isinstance(failed, dict), (tool, text)
        assert set(failed) == {next(iter(arguments)) if tool != "similar_papers" else "query",
                               "error"}, (tool, failed)
        assert one_line(failed["error"]).startswith(start), (tool, failed)
    # an argument the tool's schema refuses never reaches the tool: the MCP layer's own
    # refusal, isError and one line (docs/usage.md)
    [(is_error, text)] = asyncio.run(asyncio.wait_for(
        call_tools(server.url, [("ask", {"question": Q, "top_k": "abc"})]), 60))
    assert is_error and one_line(text).startswith("Input validation error")
