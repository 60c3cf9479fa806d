"""The UI's handlers and rendering without a server: AskPage and CorpusPage methods called
directly on real assistants (real index, real HTTP to a local model server), the pure
renderers, and the login throttle."""

from __future__ import annotations

import asyncio
import html
import json
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import FILE_A, FILE_B, make_settings
from fake_openai import FakeOpenAI
from markdown_it import MarkdownIt

from assistant.errors import BadInputError, EndpointError, add_secret
from assistant.pipeline import Assistant
from assistant.ui import AskPage, CorpusPage, static_text
from assistant.ui.render import CUT_OFF_NOTE, UNCITED_NOTE, inert, render_error, render_paper
from assistant.ui.server import LoginGuard, exposure_warning

OWN_LINK = "https://quillfeather.invalid/paper"


def poisoned_record(beacon: str) -> dict[str, str]:
    """A paper whose title, authors and abstract try every way to load or link ``beacon``."""
    return {
        "title": f"Quillfeather ![t]({beacon}/title.png) [title link]({beacon}/title-link)",
        "authors": f"Eve ![a]({beacon}/author.png)",
        "link": OWN_LINK,
        "abstract": (
            f"We present Quillfeather, a parser benchmark whose abstract shows ![d]({beacon}/beacon.png) "
            f"on purpose. Quillfeather links [page]({beacon}/page) and <{beacon}/autolink> and "
            f"the bare address {beacon}/bare and www.quillfeather.invalid and eve@quillfeather.invalid. "
            f'Quillfeather embeds <img src="{beacon}/img.png"> and $$\\href{{{beacon}/tex}}{{x}}$$ '
            f"and a reference [ref][r] to test renderers.\n\n[r]: {beacon}/ref.png\n\n"
            f"![again]({beacon}/para.png)"
        ),
    }


def text_of(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def live_urls(markup: str) -> set[str]:
    """Every URL the markup would fetch or link once Markdown and HTML are rendered."""
    rendered = MarkdownIt("commonmark", {"html": True, "linkify": False}).render(markup)
    return set(re.findall(r'(?:src|href)="([^"#][^"]*)"', rendered))


def updates(page: AskPage, question: str, top_k: int = 5) -> list[tuple[Any, ...]]:
    return list(page.respond(question, [], [], top_k))


@pytest.fixture(scope="module")
def poisoned(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    import shutil

    data = tmp_path_factory.mktemp("poisoned") / "data"
    shutil.copytree(seed_dir, data)
    extra = data.parent / "poison.jsonl"
    extra.write_text(json.dumps(poisoned_record("http://127.0.0.1:9")) + "\n")
    app = Assistant(make_settings(data))
    app.ingest([extra])
    return app


# ---------------------------------------------------------------- inert text


def test_inert_text_renders_as_the_same_characters_and_nothing_else() -> None:
    record = poisoned_record("http://127.0.0.1:9")
    for text in record.values():
        escaped = inert(text)
        assert live_urls(escaped) == set()
        assert not re.search(r"[<>\[\]()!`*_:@]", re.sub(r"<br>|&#\d+;", "", escaped))
        assert html.unescape(escaped.replace("<br>", "\n")) == text.replace("\r", "")
    # per character, so a stream can be escaped delta by delta
    assert inert("![d](http:") + inert("//x)") == inert("![d](http://x)")


def test_answer_and_paper_of_a_poisoned_abstract_link_nothing_but_the_own_link(
        poisoned: Assistant) -> None:
    page = AskPage(poisoned)
    *_, final = updates(page, "What is Quillfeather?")
    message = text_of(final[0][-1])
    assert "Quillfeather" in html.unescape(message) and 'class="cite"' in message
    assert live_urls(message) == {OWN_LINK}
    assert f'href="{OWN_LINK}" target="_blank" rel="noopener noreferrer"' in message
    assert "127.0.0.1:9/bare" in html.unescape(message)  # shown as text
    paper = next(p for p in poisoned.index.papers().values() if "Quillfeather" in p.title)
    shown = render_paper(paper)
    assert live_urls(shown) == {OWN_LINK} and "rel=\"noopener noreferrer\"" in shown
    # the abstract's own addresses are in Paper.links (found in its text) but stay text
    assert any("127.0.0.1:9" in u for u in paper.links)
    rows, ids = CorpusPage(poisoned).search_table("Quillfeather")
    assert rows[0][2] == OWN_LINK and CorpusPage(poisoned).open_row(ids, 0) == shown


def test_cited_answer_has_links_highlights_and_markdown_copy(seed_assistant: Assistant) -> None:
    page = AskPage(seed_assistant)
    first, *_, final = updates(page, "What is CRAFT?")
    assert text_of(first[0][-1]) == "…" and text_of(first[0][0]) == "What is CRAFT?"
    message = text_of(final[0][-1])
    assert '<a href="#" class="cite" title="open source 1">[1]</a>' in message
    assert f"{FILE_B}#1" in html.unescape(message) and "<mark>" in message
    assert "extractive (quoted from the abstracts)" in message
    assert "no title in" in message and "named by the first words of the abstract" in message
    assert final[1] == [["What is CRAFT?", final[1][0][1]]]
    assert f"[1] CRAFT: Future Link Predictor on Temporal Graphs. {FILE_B}#1." in final[2]


def test_history_is_the_turns_still_in_the_chat(seed_assistant: Assistant) -> None:
    page = AskPage(seed_assistant)
    earlier = [["What is DTE in anomaly detection?", "DTE is ... [1]"]]
    *_, fresh = page.respond("What is PoLAR?", [], earlier, 5)  # an empty chat starts over
    assert [q for q, _ in fresh[1]] == ["What is PoLAR?"]
    chat = [{"role": "user", "content": "What is DTE in anomaly detection?"},
            {"role": "assistant", "content": "DTE is ... [1]"}]
    *_, follow = page.respond("and how does it differ from TCCM?", chat, earlier, 5)
    assert len(follow[1]) == 2 and f"{FILE_A}#7" in html.unescape(text_of(follow[0][-1]))


def test_empty_question_changes_nothing(seed_assistant: Assistant) -> None:
    (chat, qa, _, box), = updates(AskPage(seed_assistant), "   ")
    assert chat == [] and qa == [] and box == ""


# ---------------------------------------------------------------- model answers


def model_assistant(seed_dir: Path, base_url: str, **llm: object) -> Assistant:
    return Assistant(make_settings(seed_dir, base_url=base_url, model="scripted-model", **llm))


@pytest.mark.slow
def test_stream_updates_are_batched_not_one_per_token(seed_dir: Path) -> None:
    """A 10,000-word reply (~20,000 deltas, the token budget raised so that all of it is
    read): updates are bounded by the stream's duration, not by its length."""
    words = " ".join(f"word{i}" for i in range(10_000))
    said = ("We introduce Time-Conditioned Contraction Matching (TCCM), a novel method for "
            "semi-supervised anomaly detection in tabular data.")
    reply = f"{said} [1] {words}."
    with FakeOpenAI() as fake:
        fake.replies = [reply]
        app = model_assistant(seed_dir, fake.base_url, max_tokens=60_000, context_window=80_000,
                              timeout=120)
        page = AskPage(app)
        started = time.monotonic()
        got = updates(page, "What is TCCM?")
        elapsed = time.monotonic() - started
    message = text_of(got[-1][0][-1])
    assert "word9999" in message and "model scripted-model" in message
    assert len(reply) // 3 > 20_000  # deltas sent; one update per delta would be as many
    assert len(got) <= 4 + elapsed / page.stream_interval, (len(got), elapsed)
    assert elapsed < 60, elapsed


def test_an_unchecked_model_answer_carries_a_visible_note(seed_dir: Path) -> None:
    """A reply no source supports is not the answer: the extractive one is, under the note
    saying why, with the model's reply in a fold."""
    with FakeOpenAI() as fake:
        fake.replies = ["TCCM was trained on ten billion edges by a search company."]
        *_, final = updates(AskPage(model_assistant(seed_dir, fake.base_url)), "What is TCCM?")
    message = html.unescape(text_of(final[0][-1]))
    note = "The model's answer could not be checked against the sources"
    assert note in message and note in final[2] and UNCITED_NOTE not in message
    assert "The model's reply, as it came" in message and "ten billion edges" in message
    assert "extractive, in place of model scripted-model's answer" in message


class CutStream:
    """A model server that sends a few tokens and then closes the connection mid-stream."""

    def __init__(self, tokens: list[str]) -> None:
        tokens_ = tokens

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for t in tokens_:
                    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0,
                             "model": "m", "choices": [{"index": 0, "delta": {"content": t},
                                                        "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


SAID_OF_TCCM = ("We introduce Time-Conditioned Contraction Matching (TCCM), a novel method for "
                "semi-supervised anomaly detection in tabular data.")


@pytest.fixture
def cut_stream() -> Iterator[CutStream]:
    server = CutStream([SAID_OF_TCCM[:40], SAID_OF_TCCM[40:] + " It ", "is ",
                        "![x](http://127.0.0.1:9/cut.png) "])
    yield server
    server.close()


def test_cut_stream_shows_the_partial_text_marked_as_cut_off(seed_dir: Path,
                                                              cut_stream: CutStream) -> None:
    page = AskPage(model_assistant(seed_dir, cut_stream.base_url))
    *_, final = updates(page, "What is TCCM?")
    message = text_of(final[0][-1])
    assert "No answer" in message and CUT_OFF_NOTE in message
    # the sentence checked before the cut is shown; the unfinished one is not
    assert SAID_OF_TCCM[:-1] in html.unescape(message) and "It is" not in html.unescape(message)
    assert live_urls(message) == set()
    assert final[1] == []  # a cut-off answer does not become conversation history
    failed = page.ask("What is TCCM?")
    assert "error" in failed and failed.get("partial", "").startswith(SAID_OF_TCCM[:-1])


def test_error_messages_are_readable_and_redacted(seed_dir: Path) -> None:
    add_secret("sk-ui-test-secret-0123456789")
    shown = render_error(EndpointError(
        "the endpoint said: bad key sk-ui-test-secret-0123456789", partial="CRAFT is a [1"))
    assert "sk-ui-test" not in shown and "[redacted]" in html.unescape(shown)
    assert CUT_OFF_NOTE in shown and "CRAFT is a &#91;1" in shown
    # a real failure: nothing listens on port 9
    page = AskPage(model_assistant(seed_dir, "http://127.0.0.1:9/v1",
                                   api_key="sk-ui-test-secret-0123456789"))
    *_, final = updates(page, "What is TCCM?")
    message = text_of(final[0][-1])
    assert "No answer" in message and "sk-ui-test" not in message
    assert "Traceback" not in message
    assert "sk-ui-test" not in json.dumps(page.ask("What is TCCM?"))
    assert "ask again when it is fixed" in message
    # the user's own question (a run: "list them" first) is theirs to change
    mine = render_error(BadInputError("“list them” asks for the papers of an earlier list; none"))
    assert mine.endswith("The conversation is kept.</p>") and "when it is fixed" not in mine


# ---------------------------------------------------------------- corpus tab


def test_corpus_table_open_and_facts(seed_assistant: Assistant) -> None:
    page = CorpusPage(seed_assistant)
    rows, ids = page.search_table("")
    assert len(rows) == len(ids) == len(seed_assistant.index.papers())
    assert rows[0][1] == f"{FILE_A}#1"
    found, found_ids = page.search_table("temporal graph link prediction")
    assert found[0][1] == f"{FILE_B}#1"
    assert "CRAFT" in html.unescape(page.open_row(found_ids, 0))
    assert page.open_row(found_ids, 999) == "" and page.open_row([], 0) == ""
    assert f"**{len(ids)}** papers" in page.facts()
    assert AskPage(seed_assistant).example_questions()[-1].startswith("Which papers")


def test_upload_named_like_a_seed_file_removes_no_seed_paper(fresh_copy: Path,
                                                             tmp_path: Path) -> None:
    app = Assistant(make_settings(fresh_copy))
    before = set(app.index.papers())
    upload_dir = tmp_path / "gradio-upload"
    upload_dir.mkdir()
    path = upload_dir / FILE_A
    path.write_text("NeurIPS 2025 Papers\n\nWe introduce WombatNet, a network for counting "
                    "wombats in aerial photographs of grasslands.\n")
    page = CorpusPage(app)
    summary, rows, ids, facts = page.upload([str(path)])
    assert "**1** added" in summary and "**0** removed" in summary, summary
    assert before <= set(app.index.papers()) and len(ids) == len(before) + 1
    answer = AskPage(app).ask("What is TCCM?")
    assert answer["citations"][0]["source"] == f"{FILE_A}#7"
    assert "Choose one or more" in page.upload(None)[0]


# ---------------------------------------------------------------- server pieces


def test_login_guard_slows_repeated_failures_even_in_parallel() -> None:
    guard = LoginGuard("ada", "s3cret", step=0.2, cap=1.0)

    async def run() -> tuple[list[bool], float, bool, float]:
        started = time.monotonic()
        wrong = await asyncio.gather(*(guard.check("ada", f"guess{i}") for i in range(6)))
        guessed = time.monotonic() - started
        started = time.monotonic()
        right = await guard.check("ada", "s3cret")
        return list(wrong), guessed, right, time.monotonic() - started

    wrong, guessed, right, took = asyncio.run(run())
    assert wrong == [False] * 6
    assert guessed >= 2.5, guessed  # 0 + 0.2 + 0.4 + 0.6 + 0.8 + 1.0 s of waiting
    assert right and took < 3
    assert guard.delay() == 0  # a success clears the count
    assert not asyncio.run(guard.check("eve", "s3cret"))


def test_exposed_host_without_login_is_warned_about() -> None:
    assert "without a login" in (exposure_warning("0.0.0.0", login=False) or "")
    assert exposure_warning("example.org", login=False)
    assert exposure_warning("0.0.0.0", login=True) is None
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        assert exposure_warning(host, login=False) is None


def test_css_and_js_come_from_package_files() -> None:
    assert static_text("app.js").lstrip().startswith("() =>")
    assert ".cite" in static_text("style.css")
