"""Cited answers from an OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp).

``ChatModel`` streams the reply to the prompt chat_prompt.py builds (numbered sources fitted
to the model's context budget by tiktoken counts). What the reader is shown of it, sentence
by sentence once checked against the sources, is citesafe.py's work.

The endpoint is not trusted to behave. Whatever it does, an answer either completes or
ends in one ``GenerationError`` (exit 3) whose message names the problem and holds no
secret:

- ``ASSISTANT_LLM_TIMEOUT`` is a deadline for the whole answer, retries included: the reply
  is read in a worker thread and the reader stops waiting when the deadline passes, so a
  hang, a trickle or a long ``Retry-After`` cannot stretch it;
- 429/5xx replies and failed connections before the first token are retried by the openai
  client itself (``max_retries``; it honours ``Retry-After``), ``ASSISTANT_LLM_RETRIES``
  times;
- a stream that ends without a finish reason or ``[DONE]`` was cut off, an event that is
  not JSON is a malformed stream, an empty reply is no answer: all errors, with the text
  received so far in ``.partial``;
- reading stops at the token budget (``ASSISTANT_LLM_MAX_TOKENS``) even when the server
  ignores it; the answer is kept and marked ``truncated``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import re
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from assistant.answering import prompt, quoted
from assistant.chat_prompt import (  # noqa: F401  (build_messages: citesafe.py imports it here)
    build_messages,
    count_tokens,
    encoding,
)
from assistant.errors import (
    EndpointError,
    add_secret,
    redact,
    shown_endpoint,
)
from assistant.settings import LLMSettings
from assistant.types import RetrievedPaper

log = logging.getLogger(__name__)

CONFIG_HINT = ("check ASSISTANT_LLM_BASE_URL and ASSISTANT_LLM_MODEL, or unset "
               "ASSISTANT_LLM_MODEL for offline extractive answers")


class GenerationError(EndpointError):
    """The endpoint could not produce an answer. The message is for the reader and passes
    ``redact``, so neither the configured key nor anything shaped like one is ever shown."""

    def __init__(self, message: str, partial: str = "") -> None:
        super().__init__(redact(message), redact(partial))


# ---------------------------------------------------------------- the endpoint


@dataclass
class StreamEnd:
    """How a reply ended: the usage the server reported (None when it did not), its finish
    reason, and whether reading stopped at the token budget."""

    usage: dict[str, int] | None = None
    finish_reason: str | None = None
    truncated: bool = False


@dataclass
class _Call:
    """One streamed request, shared by the reading worker and the waiting caller."""

    messages: list[dict[str, str]]
    max_tokens: int
    deadline: float
    response_format: dict[str, Any] | None = None  # a JSON schema the reply must follow
    events: queue.Queue[str | StreamEnd | BaseException] = field(
        default_factory=lambda: queue.Queue(maxsize=256))
    stop: threading.Event = field(default_factory=threading.Event)
    last_status: int | None = None

    def put(self, item: str | StreamEnd | BaseException) -> None:
        """Hand an item to the caller, unless it has stopped listening."""
        while not self.stop.is_set():
            try:
                self.events.put(item, timeout=0.2)
                return
            except queue.Full:
                continue


_current = threading.local()  # the _Call a worker thread serves, for the client's hooks


def _bound_attempt(request: Any) -> None:
    """Before every attempt, the client's retries included: none starts once the caller has
    given up, and each may wait only until the answer's deadline (so a hang closes its
    connection then, rather than after ``(retries + 1) × timeout``)."""
    call = getattr(_current, "call", None)
    if call is None:
        return
    remaining = call.deadline - time.monotonic()
    if remaining <= 0 or call.stop.is_set():
        import openai

        raise openai.APITimeoutError(request=request)  # an OpenAIError: not retried
    request.extensions["timeout"] = dict.fromkeys(("connect", "read", "write", "pool"), remaining)


def _record_status(response: Any) -> None:
    call = getattr(_current, "call", None)
    if call is not None:
        call.last_status = response.status_code


class _StreamFault(Exception):
    """The server's reply broke the protocol; the message is for the reader."""


class SchemaRefused(GenerationError):
    """The endpoint refused the request's ``response_format`` (an HTTP error naming it): it
    cannot constrain the reply to a JSON schema, or not in the shape sent."""


class ChatModel:
    """The ``openai`` client behind a deadline, with every failure made readable."""

    def __init__(self, settings: LLMSettings) -> None:
        import openai

        self.settings = settings
        add_secret(settings.key)
        # the endpoint as messages name it; a password in its URL is registered as a secret
        self.where = shown_endpoint(settings.base_url or "https://api.openai.com/v1")
        self.client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.key or "not-needed",
            timeout=settings.timeout,
            max_retries=settings.retries,
            http_client=openai.DefaultHttpxClient(
                event_hooks={"request": [_bound_attempt], "response": [_record_status]}),
        )
        # Load the client's lazily imported parts now, not inside an answer's deadline.
        _ = self.client.chat.completions.with_streaming_response

    def deadline(self) -> float:
        """The monotonic time by which an answer started now must be complete."""
        return time.monotonic() + self.settings.timeout

    def stream(self, messages: list[dict[str, str]], max_tokens: int | None = None,
               deadline: float | None = None, response_format: dict[str, Any] | None = None
               ) -> Iterator[str | StreamEnd]:
        """Text deltas, then one ``StreamEnd``; ``GenerationError`` on any failure.

        A worker thread makes the request and reads the reply; this generator waits for its
        items only until ``deadline``, and tells it to stop when it returns or fails (also at
        the token budget, when the server does not keep to ``max_tokens``)."""
        budget = max_tokens or self.settings.max_tokens
        call = _Call(messages, budget, deadline if deadline is not None else self.deadline(),
                     response_format)
        threading.Thread(target=self._read, args=(call,), daemon=True,
                         name="assistant-llm-stream").start()
        enc = encoding()
        received: list[str] = []
        used = 0
        try:
            while True:
                remaining = call.deadline - time.monotonic()
                try:
                    if remaining <= 0:
                        raise queue.Empty
                    item = call.events.get(timeout=remaining)
                except queue.Empty:
                    partial = "".join(received)
                    raise GenerationError(_cut_off(self._late(call), partial), partial) from None
                if isinstance(item, BaseException):
                    if call.response_format and _refuses_schema(item):
                        raise SchemaRefused(f"the model endpoint {self.where} refused the "
                                            "JSON schema (response_format)") from None
                    raise self._error(item, "".join(received)) from None
                if isinstance(item, StreamEnd):
                    yield item
                    return
                # Per-delta counts add up to a little more than the text's count; only when
                # they reach the budget is the whole text counted (a few times an answer).
                tokens = enc.encode(item, disallowed_special=())
                if used + len(tokens) >= budget:
                    used = len(enc.encode("".join(received), disallowed_special=()))
                over = used + len(tokens) > budget
                if over:  # one delta past the budget (a server sending it all at once)
                    # a cut inside a character decodes to U+FFFD: left out
                    item = enc.decode(tokens[:max(budget - used, 0)]).rstrip("\ufffd")
                if item:
                    received.append(item)
                    yield item
                used += len(tokens)
                if over or used >= budget:  # the server ignored max_tokens: read no further
                    yield StreamEnd(finish_reason="length", truncated=True)
                    return
        finally:
            call.stop.set()

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 200,
                 deadline: float | None = None) -> str:
        return "".join(d for d in self.stream(messages, max_tokens, deadline)
                       if isinstance(d, str)).strip()

    # -------------------------------------------------------- the worker thread

    def _read(self, call: _Call) -> None:
        """Make the request (the client retries what may be retried) and parse the SSE reply
        into ``call``'s queue; every exception goes to the caller as an item."""
        _current.call = call
        try:
            timeout = max(call.deadline - time.monotonic(), 0.1)
            with self.client.chat.completions.with_streaming_response.create(
                model=self.settings.model or "",
                messages=call.messages,  # type: ignore[arg-type]
                temperature=self.settings.temperature,
                max_tokens=call.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
                timeout=timeout,
                **({"response_format": call.response_format} if call.response_format else {}),
            ) as response:
                end = self._parse(response.iter_lines(), call)
            call.put(end)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which maps it
            call.put(exc)
        finally:
            _current.call = None

    def _parse(self, lines: Iterable[str], call: _Call) -> StreamEnd:
        """Server-sent events → text deltas on the queue; the returned StreamEnd says how the
        reply ended. A reply with neither a finish reason nor ``[DONE]`` was cut off."""
        end = StreamEnd()
        data: list[str] = []
        events = 0
        done = False
        for line in _with_final_blank(lines):
            if call.stop.is_set():
                return end
            if line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
                continue
            if line or not data:  # a comment, an event:/id: field, or a blank between events
                continue
            payload, data = "\n".join(data), []
            events += 1
            if payload.strip() == "[DONE]":
                done = True
                break
            self._event(payload, end, call)
        if not (done or end.finish_reason):
            if events == 0:
                raise _StreamFault(f"the model endpoint {self.where} sent no event stream "
                                   f"(is it an OpenAI-compatible /v1 endpoint? {CONFIG_HINT})")
            raise _StreamFault(f"the model endpoint {self.where} closed the stream before the "
                               "answer was complete (no finish reason, no [DONE])")
        return end

    def _event(self, payload: str, end: StreamEnd, call: _Call) -> None:
        """One ``data:`` event of a chat-completion stream."""
        try:
            chunk = json.loads(payload)
        except ValueError:
            raise _StreamFault(f"the model endpoint {self.where} sent a malformed stream (an "
                               "event that is not JSON)") from None
        if not isinstance(chunk, dict):
            raise _StreamFault(f"the model endpoint {self.where} sent a malformed stream (an "
                               "event that is not a JSON object)")
        if chunk.get("error"):
            error = chunk["error"]
            message = error.get("message") if isinstance(error, dict) else error
            raise _StreamFault(f"the model endpoint {self.where} reported an error while "
                               f"answering: {_short(str(message))}")
        choices = chunk.get("choices") or []
        if not isinstance(choices, list):
            raise _StreamFault(f"the model endpoint {self.where} sent a malformed stream "
                               "('choices' is not a list)")
        for choice in choices:
            if not isinstance(choice, dict):
                continue
            delta = choice.get("delta") or {}
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str) and content:
                call.put(content)
            if choice.get("finish_reason"):
                end.finish_reason = str(choice["finish_reason"])
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            # A partial usage report is ignored: tiktoken counts instead.
            with contextlib.suppress(KeyError, TypeError, ValueError):
                end.usage = {k: int(usage[k]) for k in
                             ("prompt_tokens", "completion_tokens", "total_tokens")}

    # -------------------------------------------------------- readable failures

    def _late(self, call: _Call) -> str:
        last = (f"; its last reply was HTTP {call.last_status}"
                if call.last_status and call.last_status >= 400 else "")
        return (f"the model endpoint {self.where} did not complete the answer within "
                f"{self.settings.timeout:g} s (ASSISTANT_LLM_TIMEOUT){last}")

    def _error(self, exc: BaseException, partial: str) -> GenerationError:
        """The one readable error for whatever the client or the stream raised."""
        import openai

        where, retried = self.where, self._retried()
        if isinstance(exc, GenerationError | _StreamFault):
            message = str(exc)
        elif isinstance(exc, openai.AuthenticationError):
            message = (f"the model endpoint {where} rejected the API key (HTTP 401; set "
                       "ASSISTANT_LLM_API_KEY or OPENAI_API_KEY)")
        elif isinstance(exc, openai.NotFoundError):
            message = (f"the model '{self.settings.model}' was not found at {where} (HTTP 404; "
                       "check ASSISTANT_LLM_MODEL and ASSISTANT_LLM_BASE_URL)")
        elif isinstance(exc, openai.RateLimitError):
            wait = _seconds(exc.response.headers.get("retry-after"))
            if wait is not None and wait > self.settings.timeout:  # the client does not wait
                message = (f"the model endpoint {where} is rate-limiting requests (HTTP 429) and "
                           f"asks to wait {wait:g} s, longer than ASSISTANT_LLM_TIMEOUT "
                           f"({self.settings.timeout:g} s): {_short(exc.message)}")
            else:
                message = (f"the model endpoint {where} is rate-limiting requests (HTTP 429)"
                           f"{retried}: {_short(exc.message)}")
        elif isinstance(exc, openai.APIStatusError):
            again = retried if exc.status_code >= 500 else ""
            message = (f"the model endpoint {where} answered HTTP {exc.status_code}{again}: "
                       f"{_short(exc.message)}")
        elif isinstance(exc, openai.APITimeoutError) or _is_timeout(exc):
            message = (f"the model endpoint {where} did not complete the answer within "
                       f"{self.settings.timeout:g} s (ASSISTANT_LLM_TIMEOUT)")
        elif isinstance(exc, openai.APIConnectionError):
            message = f"cannot reach the model endpoint {where}{retried} ({CONFIG_HINT})"
        elif _is_transport(exc):
            message = (f"the connection to the model endpoint {where} broke before the answer "
                       "was complete")
        else:  # anything else the client raised while reading: never a raw message
            log.debug("unreadable reply from the model endpoint: %s", type(exc).__name__)
            message = (f"the model endpoint {where} sent a reply that could not be read "
                       f"({type(exc).__name__}; is it an OpenAI-compatible /v1 endpoint?)")
        return GenerationError(_cut_off(message, partial), partial)

    def _retried(self) -> str:
        n = self.settings.retries
        return f" after {n} retr{'y' if n == 1 else 'ies'} (ASSISTANT_LLM_RETRIES)" if n else ""


def _cut_off(message: str, partial: str) -> str:
    """The message, saying how much of the answer had arrived (the UI may show it, marked)."""
    if partial and "cut off" not in message:
        return f"{message}; the answer was cut off after {len(partial):,} characters"
    return message


def _with_final_blank(lines: Iterable[str]) -> Iterator[str]:
    """The lines, then one blank, so that a last event without its blank line is seen."""
    yield from lines
    yield ""


def _refuses_schema(exc: BaseException) -> bool:
    """An HTTP 400/422 whose message names the response format or its schema, or a 500 that
    names it (llama-cpp-python's server answers a shape it does not know with a 500 holding
    its validation error)."""
    import openai

    return (isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 422, 500)
            and bool(re.search(r"response_format|json_schema" + ("|schema" if exc.status_code
                                                                  < 500 else ""),
                               str(exc.message), re.I)))


def _is_timeout(exc: BaseException) -> bool:
    import httpx2

    return isinstance(exc, httpx2.TimeoutException | TimeoutError)


def _is_transport(exc: BaseException) -> bool:
    import httpx2

    return isinstance(exc, httpx2.TransportError | httpx2.StreamError | ConnectionError)


def _short(text: str, limit: int = 200) -> str:
    """The server's message, without the client's "Error code: 502 - " (the status is said
    already), cut to ``limit`` characters."""
    text = re.sub(r"^Error code: \d+(?: - |$)", "", " ".join(str(text).split()))
    text = text or "no message"
    return text if len(text) <= limit else text[:limit] + "…"


def _seconds(value: str | None) -> float | None:
    """A Retry-After header's seconds (None when absent or a date)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


# ---------------------------------------------------------------- one answer


def reply_usage(end: StreamEnd, messages: list[dict[str, str]], reply: str
                ) -> dict[str, int | bool]:
    """The tokens the server reported, or tiktoken's count (marked estimated) when it did not
    or the read stopped early."""
    if end.usage is not None and not end.truncated:
        return dict(end.usage)
    prompt_tokens = sum(count_tokens(m["content"]) for m in messages)
    completion = count_tokens(reply)
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion,
            "total_tokens": prompt_tokens + completion, "estimated": True}


def relevance_reply(model: ChatModel, question: str, found: list[RetrievedPaper],
                    deadline: float | None = None) -> set[int] | None:
    """The numbers (1-based) of ``found`` the model's relevance check (PaperQA2's evidence
    scoring, ASSISTANT_LLM_RELEVANCE_CHECK) lists as answering ``question``: empty for
    NONE, None for a reply in no format of the check. The cited answer's and the list's
    judge both ask it."""
    abstracts = "\n\n".join(f"[{i}] {quoted(f.paper.title)}\n{quoted(f.paper.text)}"
                             for i, f in enumerate(found, start=1))
    text = prompt("relevance_check").format(question=question, abstracts=abstracts)
    reply = model.complete([{"role": "user", "content": text}], 40, deadline)
    if (re.match(r"\W*none\b", reply, re.I)  # "None of them…, but 1 helps" is prose
            and not re.search(r"\b(but|however|though|except)\b", reply, re.I)):
        return set()
    listed = re.match(r"\W*(\d+(?:\s*(?:,|and)\s*\d+)*)\s*\.?\s*$", reply)  # "1, 3" only
    numbers = {int(n) for n in re.findall(r"\d+", listed.group(1))} if listed else set()
    numbers &= set(range(1, len(found) + 1))
    return numbers or None


def helpful_sources(model: ChatModel, question: str, found: list[RetrievedPaper],
                    deadline: float | None = None) -> list[RetrievedPaper]:
    """The model's relevance check (ASSISTANT_LLM_RELEVANCE_CHECK, as PaperQA2 scores
    evidence): only the abstracts it lists ("1, 3") stay; a reply that starts with NONE
    (and takes nothing back: "but", "except") leaves no source, so no answer. Any other
    reply (prose) changes nothing."""
    listed = relevance_reply(model, question, found, deadline)
    if listed is None:
        return found
    return [f for i, f in enumerate(found, start=1) if i in listed]
