"""The model endpoint under faults, through the real CLI as a researcher runs it.

One local server (``FaultyOpenAI``) misbehaves per model name; every case runs
``assistant ask`` in its own process over a copy of the seed index, all at once (each CLI
start costs seconds of imports, so one after another would take minutes). Each case checks
the exit code, that stderr is one readable line, a generous bound on the time to fail (from
the server's first sight of the request, so start-up load does not count), and that the API
key appears nowhere.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest
from fake_openai import HUGE_WORDS, SECRET_KEY, FaultyOpenAI

from assistant.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # the CLI in a subprocess per test: not in the fast tier

DEADLINE = 4  # ASSISTANT_LLM_TIMEOUT for the cases that test it
# ...and for the others: large, so that a loaded machine cannot turn their fault into a timeout
SLACK_TIMEOUT = 40
QUESTION = "What is CRAFT?"
LONG_QUESTION = ("What is CRAFT? " * 6667)[:100_000]


@dataclass(frozen=True)
class Case:
    code: int  # the CLI's exit code
    says: str = ""  # in the one stderr line (failures) or the JSON answer (successes)
    within: float = 60.0  # seconds from the server's first request to the CLI's exit
    timeout: float = SLACK_TIMEOUT  # ASSISTANT_LLM_TIMEOUT
    question: str = QUESTION
    json: bool = True
    cite_mode: str = "free"  # ASSISTANT_LLM_CITE_MODE: the scripted replies are text


CASES: dict[str, Case] = {
    "refused": Case(3, "cannot reach the model endpoint"),
    "auth": Case(3, "rejected the API key"),
    "missing": Case(3, "was not found"),
    "busy": Case(0, "CRAFT predicts future links"),  # 429 + Retry-After: 1, then an answer
    "flaky": Case(0, "CRAFT predicts future links"),  # 500, then an answer
    # Without the deadline: 90 s of silence, and ~70 s of a token a second.
    "hang": Case(3, "ASSISTANT_LLM_TIMEOUT", within=DEADLINE + 30, timeout=DEADLINE),
    "trickle": Case(3, "ASSISTANT_LLM_TIMEOUT", within=DEADLINE + 30, timeout=DEADLINE),
    "cut": Case(3, "before the answer was complete", json=False),
    "malformed": Case(3, "malformed stream"),
    # the model writes nothing, a bare [99], or a claim no source supports: the extractive
    # answer, with one line saying why (test_a_failed_answer_is_replaced_and_said)
    "empty": Case(0, "Extractive answer"),
    "echo": Case(3, "HTTP 400"),
    "huge": Case(0, "CRAFT predicts future links in temporal graphs with cross-attention [1]"),
    "onedelta": Case(0, "CRAFT predicts future links in temporal graphs with cross-attention [1]"),
    "leak": Case(0, "Your key is [redacted]."),  # no source backs it: shown uncited
    "filtered": Case(3, "finish reason: content_filter", json=False),
    "controls": Case(0, "CRAFT", json=False),  # and no control sequence, whatever is shown
    "invented": Case(0, "Extractive answer"),
    "nocite": Case(0, "Extractive answer", json=False),
    # a server that ignores response_format: its prose is asked again as free text
    "ignores": Case(0, "CRAFT predicts future links", cite_mode="auto"),
    # a JSON answer citing [0] and [99] on a sentence the CRAFT abstract states: repaired
    "misnumbered": Case(0, "CRAFT predicts future links", cite_mode="constrained"),
    "userinfo": Case(3, "answered HTTP 503"),
    "patient": Case(3, "asks to wait 86400 s, longer than ASSISTANT_LLM_TIMEOUT"),
    "gateway": Case(3, "answered HTTP 502 after 2 retries (ASSISTANT_LLM_RETRIES): "),
    "long": Case(2, "characters long", question=LONG_QUESTION),
}
URL_PASSWORD = "pw-in-the-url-Hunter2"  # the userinfo case's base URL carries it


@dataclass(frozen=True)
class Run:
    result: subprocess.CompletedProcess[str]
    started: float
    ended: float
    error_at: float | None  # when the "error:" line reached stderr (before the process exits)


def _run_cli(args: list[str], env: dict[str, str], timeout: float) -> Run:
    """Run the CLI, noting when its error line arrives: a process takes seconds to exit on a
    loaded machine, and the deadline is about when the reader is told, not about that."""
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", *args], cwd=PROJECT_ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    err: list[tuple[float, str]] = []

    def read_out(stream: IO[str]) -> None:
        out.append(stream.read())

    def read_err(stream: IO[str]) -> None:
        err.extend((time.monotonic(), line) for line in stream)

    assert proc.stdout is not None and proc.stderr is not None
    readers = [threading.Thread(target=read_out, args=(proc.stdout,)),
               threading.Thread(target=read_err, args=(proc.stderr,))]
    for reader in readers:
        reader.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    finally:
        for reader in readers:
            reader.join()
    ended = time.monotonic()
    error_at = next((t for t, line in err if line.startswith("error:")), None)
    result = subprocess.CompletedProcess(args, code, "".join(out), "".join(line for _, line in err))
    return Run(result, started, ended, error_at)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The cases the tests below the parametrized one read.
NEEDED = {"test_retries_honour_retry_after": ("busy", "flaky"),
          "test_echoed_key_is_redacted": ("echo",), "test_cut_stream_shows_the_partial_answer_marked":
          ("cut",), "test_huge_reply_is_read_to_the_token_budget_only": ("huge",),
          "test_answers_report_the_new_fields": ("busy",),
          "test_a_reply_past_the_budget_in_one_event_is_cut_to_it": ("onedelta",),
          "test_a_stopped_answer_is_marked_cut_off": ("filtered", "cut"),
          "test_an_answer_citing_nothing_says_so": ("nocite",),
          "test_a_failed_answer_is_replaced_and_said": ("empty", "invented", "nocite"),
          "test_schema_faults_are_repaired": ("ignores", "misnumbered"),
          "test_the_url_password_is_named_nowhere": ("userinfo",),
          "test_a_status_is_said_once": ("gateway",)}


def _selected(request: pytest.FixtureRequest) -> list[str]:
    """The cases the selected tests need (``-k hang`` runs one CLI, not thirteen)."""
    names: set[str] = set()
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if item.module is request.module and callspec and "name" in callspec.params:
            names.add(callspec.params["name"])
        elif item.module is request.module:
            names.update(NEEDED.get(getattr(item, "originalname", item.name), ()))
    return [name for name in CASES if name in names]


@pytest.fixture(scope="module")
def faults(request: pytest.FixtureRequest, seed_dir: Path, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[dict[str, Run], FaultyOpenAI]]:
    """Every selected case's CLI run, started together against one fault server."""
    selected = _selected(request)
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    with FaultyOpenAI() as server:
        refused = f"http://127.0.0.1:{_closed_port()}/v1"

        def run(name: str) -> Run:
            case = CASES[name]
            data = tmp_path_factory.mktemp(f"fault-{name}") / "data"
            shutil.copytree(seed_dir, data)
            base_url = {"refused": refused, "userinfo": server.base_url.replace(
                "://", f"://alice:{URL_PASSWORD}@")}.get(name, server.base_url)
            env = {**clean, "ASSISTANT_LLM_BASE_URL": base_url,
                   "ASSISTANT_LLM_MODEL": f"fault-{name}", "ASSISTANT_LLM_API_KEY": SECRET_KEY,
                   "ASSISTANT_LLM_TIMEOUT": str(case.timeout),
                   "ASSISTANT_LLM_CITE_MODE": case.cite_mode}
            args = ["ask", *(["--json"] if case.json else []), case.question, "--data-dir", str(data)]
            return _run_cli(args, env, timeout=280)

        with ThreadPoolExecutor(len(selected)) as pool:
            runs = dict(zip(selected, pool.map(run, selected), strict=True))
        yield runs, server


@pytest.mark.parametrize("name", list(CASES))
def test_endpoint_fault_through_the_cli(name: str, faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    runs, server = faults
    case, run = CASES[name], runs[name]
    out, err = run.result.stdout, run.result.stderr
    assert run.result.returncode == case.code, f"{name}: exit {run.result.returncode}\n{err}"
    assert SECRET_KEY not in out and SECRET_KEY not in err
    assert URL_PASSWORD not in out and URL_PASSWORD not in err
    assert "\x1b" not in out and "\x07" not in out, "no control sequence reaches the terminal"
    assert "Traceback" not in err and "Expecting" not in err and "JSONDecodeError" not in err
    if case.code:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert case.says in lines[0], lines[0]
    elif case.json:
        data: dict[str, Any] = json.loads(out)
        assert case.says in data["answer"], data["answer"]
        assert data["mode"] == ("extractive" if data["unchecked"] else "llm")
    else:
        assert case.says in out, out
    seen = server.requests.get(name, [])
    if name in ("refused", "long"):
        assert not seen, "no request may reach a server"
    else:
        assert seen, f"{name}: the server saw no request"
        assert run.ended - seen[0] < case.within, f"{name}: {run.ended - seen[0]:.1f} s to finish"


@pytest.mark.parametrize("name", ["hang", "trickle"])
def test_deadline_holds(name: str, faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """ASSISTANT_LLM_TIMEOUT bounds the whole answer: the error is shown at the deadline,
    counted from the server's first sight of the request (a token a second would take ~70 s,
    the hang 90 s)."""
    runs, server = faults
    error_at = runs[name].error_at
    assert error_at is not None
    assert error_at - server.requests[name][0] < DEADLINE + 3
    assert len(server.requests[name]) == 1, "no attempt may start after the deadline"


def test_retries_honour_retry_after(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """One 429 with Retry-After: 1 and one 500 are retried, the first after the asked wait."""
    _, server = faults
    busy, flaky = server.requests["busy"], server.requests["flaky"]
    assert len(busy) == 2 and busy[1] - busy[0] >= 0.9
    assert len(flaky) == 2


def test_echoed_key_is_redacted(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """The error body did carry the key back; the reader sees it redacted, not at all."""
    runs, _ = faults
    err = runs["echo"].result.stderr
    assert "Authorization: Bearer [redacted]" in err and "api key [redacted]" in err


def test_cut_stream_shows_the_partial_answer_marked(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    runs, _ = faults
    result = runs["cut"].result
    assert result.stdout == "", "an unfinished sentence is never checked, nor shown"
    assert "cut off after 10 characters" in result.stderr


def test_huge_reply_is_read_to_the_token_budget_only(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """The checked first sentence is the answer; the 50,000 words cut at the budget, a
    sentence never complete, are not shown."""
    runs, server = faults
    data = json.loads(runs["huge"].result.stdout)
    assert data["truncated"] is True and data["uncited"] is False
    assert data["answer"] == FaultyOpenAI.REPLY and "word1" in data["model_reply"]
    assert data["usage"]["estimated"] is True and 590 <= data["usage"]["completion_tokens"] <= 620
    # About 3 characters an event: the whole reply is ~130,000 events; reading stopped early.
    total_events = len(" ".join(f"word{i % 97}" for i in range(HUGE_WORDS))) // 3
    assert server.sent["huge"] < total_events // 4


def test_answers_report_the_new_fields(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    runs, _ = faults
    data = json.loads(runs["busy"].result.stdout)
    assert data["truncated"] is False and data["uncited"] is False
    assert data["dropped_citations"] == []


def test_a_reply_past_the_budget_in_one_event_is_cut_to_it(
        faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """A server that sends its whole reply at once gets the same budget: the answer is cut
    to ASSISTANT_LLM_MAX_TOKENS (600), not 50,000 words marked as truncated."""
    runs, _ = faults
    data = json.loads(runs["onedelta"].result.stdout)
    assert data["truncated"] is True and data["answer"] == FaultyOpenAI.REPLY
    assert 590 <= data["usage"]["completion_tokens"] <= 620
    assert len(data["answer"]) < 5_000


def test_a_stopped_answer_is_marked_cut_off(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """What stdout got of an answer the endpoint stopped (its content filter, or a closed
    stream) ends marked, for a reader of a pipe or a file, not only on stderr."""
    runs, _ = faults
    assert runs["filtered"].result.stdout == f"{FaultyOpenAI.REPLY} [cut off]\n"
    assert runs["cut"].result.stdout == "", "an unfinished sentence is never checked, nor shown"


def test_an_answer_citing_nothing_says_so(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """The terminal says what the chat says: an answer no source supports is not shown; the
    extractive answer is, under one line saying why."""
    runs, _ = faults
    out, err = runs["nocite"].result.stdout, runs["nocite"].result.stderr
    assert "ten billion edges" not in out
    assert ("The model's answer could not be checked against the sources (none of its "
            "sentences is supported by the sources)") in err


def test_a_failed_answer_is_replaced_and_said(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """Nothing, or a bare invented [99]: the extractive answer, the reason, the reply kept."""
    runs, _ = faults
    for name, reply, dropped in (("empty", "", []), ("invented", "[99]", [99])):
        data = json.loads(runs[name].result.stdout)
        assert data["mode"] == "extractive" and data["citations"], name
        assert "holds no sentence to check" in data["unchecked"], name
        assert data["model_reply"] == reply and data["dropped_citations"] == dropped, name


def test_schema_faults_are_repaired(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """A server that ignores the schema is asked again in free text; [0] and [99] on a
    sentence its source supports become that source's number, attached by the assistant."""
    runs, server = faults
    ignored = json.loads(runs["ignores"].result.stdout)
    assert ignored["cite_mode"] == "free" and len(server.requests["ignores"]) == 2
    assert [c["origin"] for c in ignored["citations"]] == ["model"]
    fixed = json.loads(runs["misnumbered"].result.stdout)
    assert fixed["cite_mode"] == "constrained" and fixed["dropped_citations"] == [0, 99]
    assert [(c["n"], c["origin"]) for c in fixed["citations"]] == [(1, "assistant")]
    assert fixed["unchecked"] is None


def test_the_url_password_is_named_nowhere(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """A base URL with a proxy's password in it (http://user:password@host/v1) is named
    without it in the error."""
    runs, server = faults
    err = runs["userinfo"].result.stderr
    assert f"the model endpoint {server.base_url} answered HTTP 503" in err
    assert "alice" not in err


def test_a_status_is_said_once(faults: tuple[dict[str, Run], FaultyOpenAI]) -> None:
    """A proxy's HTML 502 said "HTTP 502 … Error code: 502" (review)."""
    runs, _ = faults
    err = runs["gateway"].result.stderr
    assert err.count("502") == 1, err
