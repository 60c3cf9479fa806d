"""Model mode against a real model: the smallest bundled model served by llama.cpp's
OpenAI-compatible server (``local_model`` in conftest, bench/model_server.py), through the CLI
as a researcher runs it and through the chat UI in headless Chromium.

A real model's reply cannot be scripted, so these tests assert what holds for any reply:
it streams, it is a model answer with its usage, and every citation it keeps names a source
it was given. Faults (cut streams, 429s, leaks) stay with the scripted fake server
(tests/fake_openai.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_ui import CHROMIUM, start_server, stop

from assistant.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # a real model on two cores: seconds to minutes per answer
MAX_TOKENS = "48"  # a short answer: the model writes a few tokens a second on two cores
QUESTION = "What is TCCM?"


def model_env(server: Any, **extra: str) -> dict[str, str]:
    """A clean environment pointing the assistant at ``server`` with a short answer budget."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    return {**clean, **server.env(), "ASSISTANT_LLM_MAX_TOKENS": MAX_TOKENS,
            "ASSISTANT_LLM_TIMEOUT": "600", **extra}


def ask(data_dir: Path, env: dict[str, str], *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assistant.cli", "ask", *options, QUESTION,
         "--data-dir", str(data_dir)], capture_output=True, text=True, env=env,
        cwd=PROJECT_ROOT, timeout=900)


def valid_citations(data: dict[str, Any]) -> None:
    """Every citation of an ``ask --json`` object is one of its sources, written in the answer."""
    given = {s["n"]: s for s in data["sources"]}
    for c in data["citations"]:
        assert c["n"] in given, (c["n"], sorted(given))
        assert c["source"] == given[c["n"]]["source"]
        assert f"[{c['n']}]" in data["answer"]
    for claim in data["claims"]:
        assert set(claim["cites"]) <= set(given), claim


def test_ask_streams_a_model_answer(local_model: Any, fresh_copy: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "ask", QUESTION, "--data-dir", str(fresh_copy)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=model_env(local_model),
        cwd=PROJECT_ROOT)
    assert process.stdout is not None
    reads: list[bytes] = []
    while chunk := os.read(process.stdout.fileno(), 65536):
        reads.append(chunk)
    stderr = process.communicate(timeout=900)[1].decode()
    assert process.returncode == 0, stderr
    out = b"".join(reads).decode()
    answer, _, sources = out.partition("Sources")
    assert answer.strip() and sources, out
    # the footer names the model that was asked: as the writer ("model smollm2-135m · …"),
    # or "extractive, in place of model smollm2-135m's answer" when its answer failed the checks
    assert (f"model {local_model.name} ·" in sources
            or f"in place of model {local_model.name}'s" in sources)
    assert "Traceback" not in stderr


def answered(data: dict[str, Any]) -> None:
    """An ``ask --json`` object the real model answered: its usage, the raw reply, and either
    a checked model answer or the one line saying why it could not be checked."""
    assert data["answer"].strip()
    usage = data["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert isinstance(data["model_reply"], str)
    assert data["mode"] == "llm" or data["unchecked"], data
    assert data["sources"]
    valid_citations(data)
    assert all(n not in {s["n"] for s in data["sources"]} for n in data["dropped_citations"])
    if data["off_question"]:  # the quotes follow the model's answer, under the line saying so
        assert data["off_question"] in data["answer"] and data["mode"] == "llm"


def test_ask_json_reports_usage_and_valid_citations(local_model: Any, fresh_copy: Path) -> None:
    result = ask(fresh_copy, model_env(local_model), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    answered(data)
    assert data["cite_mode"] in ("constrained", "free")


def test_cite_safe_answer_cites_only_given_sources(local_model: Any, fresh_copy: Path) -> None:
    """The JSON schema (llama.cpp's grammar) limits the numbers to the sources given."""
    env = model_env(local_model, ASSISTANT_LLM_CITE_MODE="constrained")
    result = ask(fresh_copy, env, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    answered(data)
    assert data["cite_mode"] == "constrained" and data["dropped_citations"] == []
    for c in data["citations"]:
        assert c["origin"] in ("model", "assistant")


def test_chat_ui_streams_a_model_answer(local_model: Any, seed_dir: Path, tmp_path: Path) -> None:
    import shutil

    from playwright.sync_api import sync_playwright

    data = tmp_path / "data"
    shutil.copytree(seed_dir, data)
    env = {k: v for k, v in model_env(local_model).items() if k.startswith("ASSISTANT_")}
    server = start_server(data, tmp_path / "serve.log", env)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(server.url)
            page.wait_for_selector("#question textarea", timeout=60_000)
            assert local_model.name in page.inner_text("body")  # the mode line names the model
            # Every text the last chat message shows, as the page draws it.
            page.evaluate("""() => {
                window.__seen = [];
                new MutationObserver(() => {
                    const m = [...document.querySelectorAll('#chat .message')].pop();
                    const t = m ? m.innerText.trim() : '';
                    if (t && window.__seen[window.__seen.length - 1] !== t) window.__seen.push(t);
                }).observe(document.querySelector('#chat'),
                           {childList: true, subtree: true, characterData: true});
            }""")
            page.fill("#question textarea", QUESTION)
            page.click("#ask")
            page.wait_for_selector("details.sources", timeout=600_000)
            seen: list[str] = page.evaluate("() => window.__seen")
            final = page.locator("#chat .message").last.inner_text()
            browser.close()
    finally:
        stop(server)
    assert f"model {local_model.name}" in final
    # The message was drawn as the answer came, not once at the end.
    assert len(seen) >= 2 and seen[-1].strip(), seen


def test_eval_in_model_mode_reports_each_answer(local_model: Any, fresh_copy: Path,
                                                tmp_path: Path) -> None:
    """``assistant eval`` with the real model: its report names the model mode and gives each
    answer's citation scores, supported share, invented numbers and seconds."""
    dataset = tmp_path / "mine.jsonl"
    dataset.write_text(
        json.dumps({"question": QUESTION, "expected_sources": ["000_5670d2e227b27b35.txt#7"]})
        + "\n" + json.dumps({"question": "Who won the 2022 FIFA World Cup?",
                             "expected_sources": []}) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "eval", "--dataset", str(dataset),
         "--no-baselines", "--data-dir", str(fresh_copy), "--out", str(tmp_path / "report")],
        capture_output=True, text=True, env=model_env(local_model), cwd=PROJECT_ROOT,
        timeout=1800)
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "report" / "results.json").read_text())
    assert report["mode"].startswith("model ") and local_model.name in report["mode"]
    metrics = report["metrics"]
    for figure in ("citation_precision", "citation_recall", "supported_claims",
                   "invented_citations", "key_fact_recall", "refusal_on_none", "wrong_refusal",
                   "seconds_per_answer"):
        assert figure in metrics, figure
    answerable, none = report["rows"]["seeds"]
    assert answerable["model_reply"] is not None  # the model was asked, its reply kept
    assert none["refused"] and none["model_reply"] is None  # refused before any model call
    assert "### Answers, one by one" in (tmp_path / "report" / "report.md").read_text()


def test_the_bundled_server_stops_its_model_server_when_killed(tmp_path: Path) -> None:
    """A run: `kill` (SIGTERM) of `bench/model_server.py` left llama.cpp's server running on
    its port; it stops it as Ctrl-C does."""
    process = subprocess.Popen(
        [sys.executable, str(PROJECT_ROOT / "bench" / "model_server.py"), "--model", "smollm2-135m"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    assert process.stdout is not None
    url = ""
    for line in process.stdout:
        if line.startswith("Serving "):
            url = line.split(" at ", 1)[1].strip()
            break
    assert url, "the server never said it was serving"
    assert httpx.get(f"{url}/models", timeout=30).status_code == 200
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0
    time.sleep(1)
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/models", timeout=5)
