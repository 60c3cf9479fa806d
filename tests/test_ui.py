"""The chat UI as a running server: driven by gradio_client, by headless Chromium (Debian's
chromium through Playwright) and by an MCP client."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from conftest import FILE_A, FILE_B
from fake_openai import FakeOpenAI
from gradio_client import Client, handle_file

from assistant.settings import PROJECT_ROOT

ARTIFACTS = PROJECT_ROOT / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
XSS_ABSTRACT = (
    "We present Zyxomatic, a benchmark whose name is written <script>window.__xss = 1</script> "
    'and <img src="x" onerror="window.__xss = 2"> on purpose. Zyxomatic measures sanitizers.'
)


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    log: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data_dir: Path, log: Path, env: dict[str, str] | None = None) -> Server:
    port = _free_port()
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    out = log.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "serve", "--port", str(port),
         "--data-dir", str(data_dir)],
        cwd=PROJECT_ROOT, env={**clean, **(env or {})}, stdout=out, stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return Server(url, process, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    process.kill()
    raise RuntimeError(f"server did not start: {log.read_text()}")


def stop(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.process.kill()


@pytest.fixture(scope="module")
def offline_server(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("ui") / "data"
    shutil.copytree(seed_dir, data)
    extra = tmp_path_factory.mktemp("xss") / "markup.jsonl"
    extra.write_text('{"title": "Markup <b>in</b> a title", "abstract": ' + _json(XSS_ABSTRACT) + "}\n")
    from conftest import make_settings

    from assistant.pipeline import Assistant

    Assistant(make_settings(data)).ingest([extra])
    server = start_server(data, data.parent / "serve.log")
    yield server
    stop(server)


def _json(text: str) -> str:
    import json

    return json.dumps(text)


@pytest.fixture
def client(offline_server: Server) -> Client:
    return Client(offline_server.url, verbose=False, download_files=False)


# ---------------------------------------------------------------- gradio_client


def text_of(message: dict[str, object]) -> str:
    """A chat message's text (Gradio 6 sends content as a list of typed parts)."""
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", "")) for part in content)  # type: ignore[union-attr]


def test_chat_streams_a_cited_answer_with_sources(client: Client) -> None:
    job = client.submit("What is CRAFT?", [], 5, api_name="/chat")
    final = job.result(timeout=120)
    updates = job.outputs()
    assert len(updates) >= 3, "the answer should arrive in several updates"
    chat = final[0]
    assert chat[0]["role"] == "user" and text_of(chat[0]) == "What is CRAFT?"
    message = text_of(chat[-1])
    assert "CRAFT" in message and 'class="cite"' in message and "[1]</a>" in message
    assert "Sources (1 cited of" in message and f"{FILE_B}#1" in message and "<mark>" in message
    assert "extractive (offline" in message
    markdown = final[1]
    assert "References:" in markdown
    assert f"[1] CRAFT: Future Link Predictor on Temporal Graphs. {FILE_B}#1." in markdown


def test_follow_up_uses_the_previous_question(client: Client) -> None:
    first = client.predict("What is DTE in anomaly detection?", [], 5, api_name="/chat")
    chat = first[0]
    follow = client.predict("and how does it differ from TCCM?", chat, 5, api_name="/chat")
    message = text_of(follow[0][-1])
    assert len(follow[0]) == 4
    assert f"{FILE_A}#7" in message and "DTE" in message


def test_ask_and_search_endpoints_are_typed_and_documented(client: Client) -> None:
    answer = client.predict("What is PoLAR?", 3, api_name="/ask")
    assert answer["mode"] == "extractive" and answer["citations"][0]["source"] == f"{FILE_A}#6"
    found = client.predict("temporal graph link prediction", 3, api_name="/search_abstracts")
    assert found[0]["source"] == f"{FILE_B}#1" and len(found) <= 3
    info = client.view_api(print_info=False, return_format="dict")
    named = info["named_endpoints"]
    assert set(named) == {"/ask", "/search_abstracts"}
    params = {p["parameter_name"] for p in named["/ask"]["parameters"]}
    assert params == {"question", "top_k"}


def test_upload_makes_new_abstracts_answerable(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "uploads.csv"
    path.write_text('title,authors,link,abstract\n"Quokka Sampling","A. Author","https://example.org/q",'
                    '"We introduce QuokkaSampler, a sampler for marsupial population surveys."\n')
    bad = tmp_path / "notes.txt"
    bad.write_bytes(b"\x00\x01")
    summary, *_ = client.predict([handle_file(str(path)), handle_file(str(bad))], api_name="/upload")
    assert "**1** added" in summary and "skipped" in summary and "binary" in summary
    answer = client.predict("What is QuokkaSampler?", 3, api_name="/ask")
    assert answer["citations"][0]["source"] == "uploads.csv#1"


# ---------------------------------------------------------------- the browser


@pytest.fixture
def page(offline_server: Server) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        page.goto(offline_server.url)
        page.wait_for_selector("#question textarea", timeout=60_000)
        yield page
        browser.close()


def test_browser_asks_and_opens_a_cited_source(page) -> None:  # noqa: ANN001
    assert "extractive (offline)" in page.inner_text("body")
    page.fill("#question textarea", "What is TCCM?")
    page.click("#ask")
    page.wait_for_selector("details.sources", timeout=60_000)
    message = page.locator("#chat .message").last
    assert "TCCM" in message.inner_text()
    source = page.locator("details.source").first
    assert not source.evaluate("d => d.open")
    page.locator("a.cite").first.click()
    page.wait_for_function("() => document.querySelector('details.source').open")
    assert f"{FILE_A}#7" in source.inner_text()
    assert source.locator("mark").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-answer.png"), full_page=True)
    page.get_by_role("tab", name="Corpus").click()
    page.locator("#papers [role=gridcell]").filter(has_text="PoLAR").first.click()
    page.wait_for_function("() => document.querySelector('#paper').innerText.includes('Stiefel')")
    page.screenshot(path=str(ARTIFACTS / "ui-corpus.png"), full_page=True)


def test_markup_in_abstracts_and_answers_is_text(page) -> None:  # noqa: ANN001
    page.fill("#question textarea", "What is Zyxomatic?")
    page.click("#ask")
    page.wait_for_selector("details.sources", timeout=60_000)
    page.locator("a.cite").first.click()
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__xss") is None
    text = page.locator("#chat").inner_text()
    assert "<script>window.__xss = 1</script>" in text
    assert page.locator("#chat script").count() == 0 and page.locator("#chat img[src=x]").count() == 0
    assert "Markup <b>in</b> a title" in text


# ---------------------------------------------------------------- MCP


def test_mcp_lists_and_calls_the_tools(offline_server: Server) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> tuple[dict[str, object], str]:
        async with streamable_http_client(offline_server.url + "gradio_api/mcp/") as (read, write, _), \
                ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            result = await session.call_tool("search_abstracts", {"query": "What is CRAFT?", "top_k": 2})
            return tools, " ".join(getattr(c, "text", "") for c in result.content)

    tools, text = asyncio.run(run())
    assert {"ask", "search_abstracts"} <= set(tools)
    schema = tools["search_abstracts"].inputSchema
    assert schema["properties"]["query"]["type"] == "string"
    assert "keywords" in (schema["properties"]["query"].get("description") or "")
    assert FILE_B + "#1" in text


# ---------------------------------------------------------------- model mode and failures


def test_model_mode_shows_model_and_survives_a_failure(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.replies = ["TCCM scores anomalies in one forward pass [1]."]
        env = {"ASSISTANT_LLM_BASE_URL": fake.base_url, "ASSISTANT_LLM_MODEL": "scripted-model"}
        server = start_server(tmp_path / "empty", tmp_path / "serve.log", env)  # empty index
        try:
            assert "ingesting" in server.log.read_text()
            client = Client(server.url, verbose=False, download_files=False)
            fake.status = 503
            failed = client.predict("What is TCCM?", [], 5, api_name="/chat")[0]
            assert "No answer" in text_of(failed[-1]) and "HTTP 503" in text_of(failed[-1])
            fake.status = 200
            fake.delay = 0.01
            job = client.submit("What is TCCM?", failed, 5, api_name="/chat")
            chat = job.result(timeout=120)[0]
            assert len(job.outputs()) >= 4
            assert "one forward pass" in text_of(chat[-1])
            assert "model scripted-model" in text_of(chat[-1])
        finally:
            stop(server)


def test_login_when_username_and_password_are_set(seed_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(seed_dir, data)
    env = {"ASSISTANT_SERVE_USERNAME": "ada", "ASSISTANT_SERVE_PASSWORD": "s3cret"}
    server = start_server(data, tmp_path / "serve.log", env)
    try:
        assert httpx.get(server.url + "config", timeout=10).status_code == 401
        assert httpx.post(server.url + "login", data={"username": "ada", "password": "wrong"},
                          timeout=10).status_code == 400
        client = Client(server.url, auth=("ada", "s3cret"), verbose=False, download_files=False)
        assert client.predict("What is CRAFT?", 1, api_name="/ask")["citations"]
    finally:
        stop(server)
