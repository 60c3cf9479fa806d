"""The chat UI as a running server: driven by gradio_client, by headless Chromium (Debian's
chromium through Playwright) and by an MCP client."""

from __future__ import annotations

import asyncio
import html
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import FILE_A, FILE_B, make_settings
from fake_openai import FakeOpenAI
from gradio_client import Client, handle_file
from test_ui_render import OWN_LINK, poisoned_record

from assistant.index import AbstractIndex
from assistant.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # Gradio servers and headless Chromium: not in the fast tier

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


@dataclass
class Beacon:
    """A tracking pixel host on 127.0.0.1 (another port than the app's): records every hit."""

    url: str
    hits: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def beacon() -> Iterator[Beacon]:
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    yield Beacon(f"http://127.0.0.1:{httpd.server_address[1]}", hits)
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def offline_server(seed_dir: Path, beacon: Beacon, tmp_path_factory: pytest.TempPathFactory
                   ) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("ui") / "data"
    shutil.copytree(seed_dir, data)
    extra = tmp_path_factory.mktemp("xss") / "markup.jsonl"
    extra.write_text('{"title": "Markup <b>in</b> a title", "abstract": ' + _json(XSS_ABSTRACT) + "}\n"
                     + json.dumps(poisoned_record(beacon.url)) + "\n")
    from conftest import make_settings

    from assistant.pipeline import Assistant

    Assistant(make_settings(data)).ingest([extra])
    server = start_server(data, data.parent / "serve.log")
    yield server
    stop(server)


def _json(text: str) -> str:
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
    # untrusted text arrives as character references (the browser shows the characters)
    assert "Sources (1 cited of" in message and f"{FILE_B}#1" in html.unescape(message)
    assert "<mark>" in message
    assert "extractive (quoted from the abstracts)" in message
    receipt = html.unescape(message.split('<p class="receipt">')[1].split("</p>")[0])
    assert receipt.startswith("Looked at 40 papers in the store · read ")
    assert receipt.endswith(" · cited 1")
    markdown = final[1]
    assert "References:" in markdown and "(Looked at 40 papers in the store · read" in markdown
    assert f"[1] CRAFT: Future Link Predictor on Temporal Graphs. {FILE_B}#1." in markdown


def test_a_list_question_in_the_chat_gets_every_paper(client: Client) -> None:
    """A list question typed in the chat is answered as ``ask --all`` lists it, every paper
    (not the slider's top k), streamed a paper a line."""
    question = "Which papers use reinforcement learning?"
    listed = client.predict(question, "", "", api_name="/list_papers")
    assert listed["receipt"]["matching"] >= 2
    job = client.submit(question, [], 1, api_name="/chat")
    final = job.result(timeout=120)
    message = html.unescape(text_of(final[0][-1]))
    count = listed["receipt"]["matching"]
    assert message.startswith(f"{count} papers of the 40 match")
    assert all(s["source"] in message for s in listed["sources"])
    assert f"Sources ({count} cited of {count})" in message
    assert "screened" in message.split('<p class="receipt">')[1]
    assert len(job.outputs()) >= 3, "the list should arrive in several updates"


def test_a_refusal_shows_its_nearest_papers_and_why(client: Client) -> None:
    message = text_of(client.predict("What is the Quokkaformer architecture?", [], 5,
                                     api_name="/chat")[0][-1])
    nearest = html.unescape(message.split('<div class="nearest">')[1].split("</div>")[0])
    assert nearest.count("<li>") == 3 and nearest.count("“Quokkaformer”") == 3
    assert "Looked at 40 papers in the store" in html.unescape(message)
    answer = client.predict("What is the Quokkaformer architecture?", 3, api_name="/ask")
    assert len(answer["receipt"]["nearest"]) == 3
    assert all("but never “Quokkaformer”" in n["reason"] or n["reason"].startswith(
        "It writes none of the question's words: “Quokkaformer”")
        for n in answer["receipt"]["nearest"])


def test_chat_warns_when_no_cited_abstract_names_what_was_asked(client: Client) -> None:
    """The name warning reaches the chat (tests/test_naming.py holds what it warns on)."""
    question = "Can federated learning with Markovian data streams run at Singapore hospitals?"
    message = text_of(client.predict(question, [], 5, api_name="/chat")[0][-1])
    assert '<p class="note unmentioned">' in message
    assert "does not mention “Singapore”" in html.unescape(message)
    plain = "Can federated learning with Markovian data streams run in hospitals?"
    assert "unmentioned" not in text_of(client.predict(plain, [], 5, api_name="/chat")[0][-1])


def test_follow_up_uses_the_previous_question(client: Client) -> None:
    first = client.predict("What is DTE in anomaly detection?", [], 5, api_name="/chat")
    chat = first[0]
    follow = client.predict("and how does it differ from TCCM?", chat, 5, api_name="/chat")
    message = text_of(follow[0][-1])
    assert len(follow[0]) == 4
    assert f"{FILE_A}#7" in html.unescape(message) and "DTE" in message


def test_ask_and_search_endpoints_are_typed_and_documented(client: Client) -> None:
    answer = client.predict("What is PoLAR?", 3, api_name="/ask")
    assert answer["mode"] == "extractive" and answer["citations"][0]["source"] == f"{FILE_A}#6"
    assert answer["receipt"]["cited"] == 1 and answer["receipt"]["in_store"] == 40
    found = client.predict("temporal graph link prediction", 3, api_name="/search_abstracts")
    assert found[0]["source"] == f"{FILE_B}#1" and len(found) <= 3
    info = client.view_api(print_info=False, return_format="dict")
    named = info["named_endpoints"]
    assert set(named) == {"/ask", "/search_abstracts", "/similar_papers", "/answer_with_references",
                          "/list_papers", "/topic_trends"}
    listed = client.predict("Which papers use reinforcement learning?", "", "", api_name="/list_papers")
    assert listed["receipt"]["matching"] == len(listed["sources"]) >= 1
    counted = client.predict("reinforcement learning", "", "", api_name="/topic_trends")
    assert counted["total"] == len(counted["paper_ids"]) >= 1
    # one question's own reading budget: 0 is the server's setting, 1 leaves papers unread
    assert listed["receipt"]["unread_left_out"] == 0
    short = client.predict("Which papers use reinforcement learning?", "", "", 1,
                           api_name="/list_papers")
    assert short["receipt"]["unread_left_out"] >= 1
    assert "outside 1–5,000" in client.predict("Which papers use reinforcement learning?", "",
                                               "", -1, api_name="/list_papers")["error"]
    assert {p["parameter_name"] for p in named["/list_papers"]["parameters"]} == {
        "question", "years", "venue", "reread", "author", "limit", "offset", "abstracts"}
    assert {p["parameter_name"] for p in named["/topic_trends"]["parameters"]} == {
        "topic", "years", "venue", "reread", "author", "limit", "offset"}
    nobody = client.predict("Which papers use reinforcement learning?", "", "", 0, "Ada Nobody",
                            api_name="/list_papers")  # the seeds give no authors
    assert nobody["error"].startswith("no indexed paper has an author named Ada Nobody")
    params = {p["parameter_name"] for p in named["/ask"]["parameters"]}
    assert params == {"question", "top_k", "years", "venue", "author", "limit", "offset",
                      "abstracts"}


def test_answer_with_references_gives_bibtex_and_markdown(client: Client) -> None:
    import bibtexparser

    bib = client.predict("What is PoLAR?", "bibtex", 3, "", "", api_name="/answer_with_references")
    entries = bibtexparser.parse_string(bib).entries
    assert entries and "PoLAR" in entries[0].fields_dict["title"].value
    markdown = client.predict("What is PoLAR?", "markdown", 3, "", "",
                              api_name="/answer_with_references")
    assert "## References" in markdown and f"`{FILE_A}#6`" in markdown
    assert client.predict("What is PoLAR?", "pdf", 3, "", "", api_name="/answer_with_references"
                          )["error"].startswith("unknown format")


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


def test_papers_another_process_ingests_are_answered_without_restart(
        client: Client, offline_server: Server, tmp_path: Path) -> None:
    path = tmp_path / "elsewhere.jsonl"
    path.write_text(json.dumps({"title": "Wombat Burrows", "abstract": "We introduce "
                                "WombatNet, a detector of wombat burrows in drone images."}) + "\n")
    data_dir = offline_server.log.parent / "data"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    subprocess.run([sys.executable, "-m", "assistant.cli", "ingest", str(path), "--data-dir",
                    str(data_dir)], check=True, capture_output=True, env=clean, timeout=300)
    deadline = time.monotonic() + 10
    while True:
        answer = client.predict("What is WombatNet?", 3, api_name="/ask")
        if answer.get("citations") or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert answer["citations"][0]["source"] == "elsewhere.jsonl#1"


# ---------------------------------------------------------------- the browser


@pytest.fixture
def requests_seen() -> list[str]:
    """Every URL the browser page requested (filled by the ``page`` fixture)."""
    return []


@pytest.fixture
def page(offline_server: Server, requests_seen: list[str]) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1280, "height": 1100}, accept_downloads=True)
        page.on("request", lambda request: requests_seen.append(request.url))
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


def test_the_lists_tab_reads_as_many_papers_as_asked(page) -> None:  # noqa: ANN001
    """The Lists tab's "papers to read" is one list's reading budget: at 1 the summary says
    how many uncertain papers were left out unread and how to read them; at the default,
    none is."""
    page.get_by_role("tab", name="Lists & trends").click()
    page.fill("#list-query textarea", "Which papers use reinforcement learning?")
    page.fill("#list-reread input", "1")
    page.click("#list-go")
    page.wait_for_function("() => document.querySelector('#list-summary').innerText"
                           ".includes('left out unread')", timeout=60_000)
    assert "raise papers to read to read them" in page.inner_text("#list-summary")
    page.fill("#list-reread input", "30")
    page.click("#list-go")
    page.wait_for_function("() => !document.querySelector('#list-summary').innerText"
                           ".includes('left out unread')", timeout=60_000)
    assert "papers of the" in page.inner_text("#list-summary")
    assert page.locator("#list-table [role=gridcell]").count() > 0
    # the list to take away, as Markdown and BibTeX; off again under a trend
    page.wait_for_selector("#list-bibtex:not([disabled])", timeout=30_000)
    with page.expect_download(timeout=30_000) as info:
        page.click("#list-markdown")
    assert info.value.suggested_filename == "papers.md"
    assert "papers of the" in Path(info.value.path()).read_text(encoding="utf-8")
    page.click("#trend-go")
    page.wait_for_selector("#list-bibtex[disabled]", timeout=60_000)
    # one tab shown at a time, each named once (gr.api between tabs showed one twice)
    assert page.get_by_role("tab").all_inner_texts() == ["Ask", "Lists & trends", "Corpus"]
    assert not page.locator("#chat").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-lists.png"), full_page=True)


def test_a_page_opened_after_an_ingest_shows_the_store_as_it_is(
        page, offline_server: Server, tmp_path: Path) -> None:  # noqa: ANN001
    """The corpus line, the Corpus table and the venue list were the store at the server's
    start, for every page opened later (review): they are read as the page opens."""
    path = tmp_path / "0-later.jsonl"  # sorts first: the table draws only the rows in view
    path.write_text(json.dumps({"title": "Platypus Trails", "venue": "PlatypusConf",
                                "abstract": "We map platypus trails along rivers with sonar."}) + "\n")
    data_dir = offline_server.log.parent / "data"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    subprocess.run([sys.executable, "-m", "assistant.cli", "ingest", str(path), "--data-dir",
                    str(data_dir)], check=True, capture_output=True, env=clean, timeout=300)
    time.sleep(2.5)  # the server notices another process's write within a second or two
    page.reload()
    page.wait_for_selector("#question textarea", timeout=60_000)
    stored = len(AbstractIndex(make_settings(data_dir)).papers())
    page.wait_for_function(f"() => document.body.innerText.includes('{stored} papers')",
                           timeout=30_000)
    page.locator("#venue input").click()
    assert page.get_by_role("option", name="PlatypusConf").count() == 1
    page.get_by_role("tab", name="Corpus").click()
    assert page.locator("#papers [role=gridcell]").filter(has_text="Platypus Trails").count() == 1


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


def test_untrusted_markup_makes_no_request_and_no_live_link(
        page, offline_server: Server, beacon: Beacon, requests_seen: list[str]) -> None:  # noqa: ANN001
    """A poisoned abstract (images, links, autolinks, HTML, TeX pointing at the beacon) shown
    in a chat answer with its sources and in the Corpus tab: the page requests nothing from any
    host but the app's, the beacon sees no hit, and the only live link is the paper's own."""
    page.fill("#question textarea", "What is Quillfeather?")
    page.click("#ask")
    page.wait_for_selector("details.sources", timeout=60_000)
    page.locator("a.cite").first.click()
    page.evaluate("() => document.querySelectorAll('#chat details').forEach(d => d.open = true)")
    chat_text = page.locator("#chat").inner_text()
    assert "Quillfeather" in chat_text and f"![d]({beacon.url}/beacon.png)" in chat_text
    page.get_by_role("tab", name="Corpus").click()
    page.fill("#search textarea, #search input", "Quillfeather")
    page.press("#search textarea, #search input", "Enter")
    cell = page.locator("#papers [role=gridcell]").filter(has_text="Quillfeather").first
    cell.wait_for(timeout=30_000)
    cell.click()
    page.wait_for_function("() => document.querySelector('#paper').innerText.includes('parser benchmark')")
    page.wait_for_timeout(1500)
    app_host = urlsplit(offline_server.url).netloc
    foreign = [u for u in requests_seen
               if urlsplit(u).scheme in ("http", "https", "ws", "wss") and urlsplit(u).netloc != app_host]
    assert foreign == [] and beacon.hits == []
    assert any(urlsplit(u).netloc == app_host for u in requests_seen)  # the log does log
    links = page.eval_on_selector_all(
        "#chat a[href], #paper a[href], #papers a[href]",
        "els => els.map(e => [e.getAttribute('href'), e.getAttribute('rel') || '', e.target])")
    assert links and all(href == "#" for href, _, _ in links if href != OWN_LINK)
    own = [(rel, target) for href, rel, target in links if href == OWN_LINK]
    assert own and all("noopener" in rel and "noreferrer" in rel and target == "_blank"
                       for rel, target in own)
    assert page.locator(f"img[src^='{beacon.url}']").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-inert-markup.png"), full_page=True)


def test_pages_carry_a_content_security_policy(offline_server: Server) -> None:
    policy = httpx.get(offline_server.url, timeout=10).headers.get("content-security-policy", "")
    assert "img-src 'self' data: blob:" in policy and "connect-src 'self'" in policy


# ---------------------------------------------------------------- MCP


def test_mcp_lists_and_calls_the_tools(offline_server: Server) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> tuple[dict[str, object], list[str]]:
        async with streamable_http_client(offline_server.url + "gradio_api/mcp/") as (read, write, _), \
                ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            texts = []
            for tool, arguments in (("search_abstracts", {"query": "What is CRAFT?", "top_k": 2}),
                                    ("ask", {"question": "What is CRAFT?", "top_k": 2})):
                result = await session.call_tool(tool, arguments)
                texts.append(" ".join(getattr(c, "text", "") for c in result.content))
            return tools, texts

    tools, (found, answered) = asyncio.run(run())
    assert {"ask", "search_abstracts", "answer_with_references", "list_papers",
            "topic_trends"} <= set(tools)
    budget = tools["list_papers"].inputSchema["properties"]["reread"]
    assert budget["type"] == "integer" and "0: the server's setting" in budget["description"]
    schema = tools["search_abstracts"].inputSchema
    assert schema["properties"]["query"]["type"] == "string"
    assert "keywords" in (schema["properties"]["query"].get("description") or "")
    # results are JSON a client can parse (Gradio wrote Python's repr: None, True, 'quotes')
    assert [paper["source"] for paper in json.loads(found)][0] == FILE_B + "#1"
    answer = json.loads(answered)
    assert answer["unsure"] is False and answer["citations"][0]["source"] == FILE_B + "#1"
    # the seeds' 38 papers, and whatever the shared server's earlier tests uploaded
    assert answer["receipt"]["in_store"] == answer["receipt"]["in_filter"] >= 38
    assert answer["receipt"]["cited"] == 1 and answer["receipt"]["read"] >= 2


# Last of the shared server's tests: on a broken build it would remove seed papers.
def test_upload_named_like_a_seed_file_removes_no_seed_paper(client: Client, tmp_path: Path) -> None:
    before = len(client.predict("", api_name="/browse")["data"])
    path = tmp_path / FILE_A
    path.write_text("NeurIPS 2025 Papers\n\nWe introduce KoalaCount, a detector that counts koalas "
                    "in eucalyptus canopies from drone footage.\n")
    summary, table, *_ = client.predict([handle_file(str(path))], api_name="/upload")
    assert "**1** added" in summary and "**0** removed" in summary, summary
    assert len(table["data"]) == before + 1
    answer = client.predict("What is TCCM?", 3, api_name="/ask")
    assert answer["citations"][0]["source"] == f"{FILE_A}#7"
    assert "KoalaCount" in client.predict("What is KoalaCount?", 3, api_name="/ask")["answer"]


# ---------------------------------------------------------------- model mode and failures


def test_model_mode_shows_model_and_survives_a_failure(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        # three sentences the abstract supports: a model answer streams one per checked sentence
        fake.replies = ["We introduce Time-Conditioned Contraction Matching (TCCM), a novel method "
                        "for semi-supervised anomaly detection in tabular data. [1] TCCM is "
                        "inspired by flow matching, a recent generative modeling framework. [1] "
                        "TCCM scores anomalies in one forward pass [1]."]
        env = {"ASSISTANT_LLM_BASE_URL": fake.base_url, "ASSISTANT_LLM_MODEL": "scripted-model",
               "ASSISTANT_LLM_CITE_MODE": "free"}
        server = start_server(tmp_path / "empty", tmp_path / "serve.log", env)  # empty index
        try:
            assert "ingesting" in server.log.read_text()
            client = Client(server.url, verbose=False, download_files=False)
            fake.status = 503
            failed = client.predict("What is TCCM?", [], 5, api_name="/chat")[0]
            assert "No answer" in text_of(failed[-1]) and "HTTP 503" in text_of(failed[-1])
            fake.status = 200
            fake.delay = 0.05  # updates are batched (one per 0.15 s at most): stream for ~1 s
            job = client.submit("What is TCCM?", failed, 5, api_name="/chat")
            chat = job.result(timeout=120)[0]
            assert len(job.outputs()) >= 4
            assert "one forward pass" in text_of(chat[-1])
            assert "model scripted-model" in text_of(chat[-1])
            fake.delay = 0.0
            fake.replies = ["TCCM scores anomalies in one forward pass [1]. "
                            "TCCM was trained on 40 billion satellite images [1]."]
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:  # the checked claims, as a reader sees them
                browser = p.chromium.launch(executable_path=CHROMIUM,
                                            args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.goto(server.url)
                page.wait_for_selector("#question textarea", timeout=60_000)
                page.fill("#question textarea", "What is TCCM?")
                page.click("#ask")
                marker = page.wait_for_selector(".unsupported", timeout=60_000)
                assert marker is not None
                assert page.locator("span.unsupported").count() == 1  # the second sentence
                assert "not supported by the cited abstract" in page.inner_html("#chat")
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "ui-unsupported-claim.png"), full_page=True)
                browser.close()
        finally:
            stop(server)


async def mcp_tools(url: str, cookies: httpx.Cookies | None = None) -> set[str]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx.AsyncClient(cookies=cookies, timeout=30) as http, \
            streamable_http_client(url + "gradio_api/mcp/", http_client=http) as (read, write, _), \
            ClientSession(read, write) as session:
        await session.initialize()
        return {t.name for t in (await session.list_tools()).tools}


def test_login_slows_guessing_and_guards_mcp(seed_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(seed_dir, data)
    env = {"ASSISTANT_SERVE_USERNAME": "ada", "ASSISTANT_SERVE_PASSWORD": "s3cret"}
    server = start_server(data, tmp_path / "serve.log", env)
    try:
        assert httpx.get(server.url + "config", timeout=10).status_code == 401
        # the MCP tool listing is behind the login too
        assert httpx.get(server.url + "gradio_api/mcp/schema", timeout=10).status_code == 401
        listing = httpx.post(server.url + "gradio_api/mcp/", timeout=10, json={
            "jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"})
        assert listing.status_code == 401 and "ask" not in listing.text
        with pytest.raises(Exception):  # noqa: B017  (the client fails however it reports a 401)
            asyncio.run(asyncio.wait_for(mcp_tools(server.url), 60))
        # repeated wrong passwords are slowed down: 6 take seconds, not milliseconds
        started = time.monotonic()
        for i in range(6):
            assert httpx.post(server.url + "login", data={"username": "ada", "password": f"guess{i}"},
                              timeout=30).status_code == 400
        assert time.monotonic() - started >= 5
        # ... and the right password still works, within the longest wait
        started = time.monotonic()
        client = Client(server.url, auth=("ada", "s3cret"), verbose=False, download_files=False)
        assert time.monotonic() - started < 20
        assert client.predict("What is CRAFT?", 1, api_name="/ask")["citations"]
        login = httpx.post(server.url + "login", data={"username": "ada", "password": "s3cret"},
                           timeout=30)
        assert login.status_code == 200
        assert {"ask", "search_abstracts"} <= asyncio.run(mcp_tools(server.url, login.cookies))
        assert "s3cret" not in server.log.read_text()
    finally:
        stop(server)


def test_serving_beyond_loopback_without_login_warns(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")  # the index cannot open here, so nothing is ever served
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--host", "0.0.0.0",
                           "--port", str(_free_port()), "--data-dir", str(not_a_dir)],
                          cwd=PROJECT_ROOT, env=clean, capture_output=True, text=True, timeout=120)
    assert "0.0.0.0 without a login" in " ".join(done.stderr.split())
    assert "without a login" not in done.stdout
