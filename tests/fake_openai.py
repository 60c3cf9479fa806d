"""A local OpenAI-compatible chat server for tests: real HTTP, real SSE streaming,
scripted replies. It records every request body so tests can check the prompt."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class JSONHandler(BaseHTTPRequestHandler):
    """A quiet handler that reads a JSON request body."""

    def log_message(self, *args: Any) -> None:
        pass

    def json_body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length", 0))
        return json.loads(self.rfile.read(length) or b"{}")


class LocalServer:
    """A ThreadingHTTPServer on a free loopback port, started and stopped as a context."""

    def serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        # a short poll: shutdown() waits up to one poll interval (0.5 s by default)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                       kwargs={"poll_interval": 0.02})

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeOpenAI(LocalServer):
    def __init__(self) -> None:
        self.replies: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.error_message = "scripted failure"
        self.usage = True
        self.delay = 0.0
        # an HTTP status for requests with a response_format (a server without schemas)
        self.refuse_schema: int | None = None
        server = self

        class Handler(JSONHandler):
            def do_POST(self) -> None:
                body = self.json_body()
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                if server.refuse_schema and body.get("response_format"):
                    self.send_response(server.refuse_schema)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"error": {
                        "message": "response_format: this type is not supported",
                        "type": "invalid_request_error"}}).encode())
                    return
                if server.status != 200:
                    self.send_response(server.status)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"error": {"message": server.error_message,
                                                           "type": "test"}}).encode())
                    return
                reply = server.replies.pop(0) if server.replies else "No reply scripted."
                if body.get("stream"):
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                        self._stream(body, reply)  # the client may stop reading (a deadline)
                else:
                    self._json(body, reply)

            def _chunk(self, body: dict[str, Any], delta: dict[str, Any], finish: str | None,
                       usage: dict[str, int] | None = None) -> bytes:
                data = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0,
                        "model": body.get("model"), "choices": [] if usage else [
                            {"index": 0, "delta": delta, "finish_reason": finish}]}
                if usage:
                    data["usage"] = usage
                return f"data: {json.dumps(data)}\n\n".encode()

            def _stream(self, body: dict[str, Any], reply: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.write(self._chunk(body, {"role": "assistant", "content": ""}, None))
                # Tokens of 3 characters, so that markers like [12] arrive split.
                for i in range(0, len(reply), 3):
                    if server.delay:
                        time.sleep(server.delay)
                    self.wfile.write(self._chunk(body, {"content": reply[i:i + 3]}, None))
                    self.wfile.flush()
                self.wfile.write(self._chunk(body, {}, "stop"))
                if server.usage:
                    self.wfile.write(self._chunk(body, {}, None, {
                        "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}))
                self.wfile.write(b"data: [DONE]\n\n")

            def _json(self, body: dict[str, Any], reply: str) -> None:
                data = json.dumps({
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.serve(Handler)


# ---------------------------------------------------------------- faults

SECRET_KEY = "sk-fault-test-0123456789abcdefSECRET"
HUGE_WORDS = 50_000


def sse(model: str, delta: dict[str, Any] | None = None, finish: str | None = None,
        usage: dict[str, int] | None = None) -> bytes:
    """One chat-completion-chunk event."""
    data: dict[str, Any] = {"id": "chatcmpl-fault", "object": "chat.completion.chunk",
                            "created": 0, "model": model, "choices": []}
    if not usage:
        data["choices"] = [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
    else:
        data["usage"] = usage
    return f"data: {json.dumps(data)}\n\n".encode()


class FaultyOpenAI(LocalServer):
    """An OpenAI-compatible server that misbehaves on purpose, chosen per request by the
    model name (``fault-<case>``), so that many clients can test many faults at once.

    Cases: ok, auth (401), missing (404), busy (429 + Retry-After: 1, then ok), flaky (500,
    then ok), hang (no byte ever), trickle (a token a second), cut (closed mid-answer),
    malformed (an event that is not JSON), empty (no content), echo (an error body echoing
    the Authorization header and the key), huge (50,000 words, ignoring max_tokens),
    onedelta (the same in one event), leak (an answer repeating the key), filtered (finish
    reason content_filter halfway), controls (terminal control sequences in the answer),
    invented (only a citation of no source), nocite (an answer citing nothing), userinfo
    (503, for a base URL with a password in it), patient (429 asking to wait a day), gateway
    (502 with an HTML page), ignores (prose whatever the response_format), misnumbered (a
    JSON answer citing [0] and [99]).
    It records per case the request times, how many events it wrote and when the client hung
    up (``gone``), which is when it stopped waiting, however slow its process is to exit."""

    REPLY = "CRAFT predicts future links in temporal graphs with cross-attention [1]."

    def __init__(self) -> None:
        self.requests: dict[str, list[float]] = {}
        self.sent: dict[str, int] = {}
        self.gone: dict[str, float] = {}
        self.closing = threading.Event()
        server = self

        class Handler(JSONHandler):
            def do_POST(self) -> None:
                body = self.json_body()
                model = str(body.get("model", ""))
                case = model.removeprefix("fault-")
                times = server.requests.setdefault(case, [])
                times.append(time.monotonic())
                attempt = len(times)
                try:
                    getattr(self, f"case_{case}", self.case_ok)(model, attempt)
                except (BrokenPipeError, ConnectionResetError):
                    # A client that stops reading is what the cap and deadline tests want.
                    server.gone.setdefault(case, time.monotonic())

            def wait_or_gone(self, case: str, seconds: float) -> bool:
                """Wait, watching the socket; True (and ``gone`` noted) once the client hung up."""
                until = time.monotonic() + seconds
                while (left := until - time.monotonic()) > 0 and not server.closing.is_set():
                    readable, _, _ = select.select([self.connection], [], [], min(left, 0.1))
                    try:
                        hung_up = bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
                    except OSError:
                        hung_up = True
                    if hung_up:
                        server.gone.setdefault(case, time.monotonic())
                        return True
                return server.closing.is_set()

            # -- replies

            def status(self, code: int, message: str, headers: dict[str, str] | None = None) -> None:
                data = json.dumps({"error": {"message": message, "type": "fault"}}).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def start_stream(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()

            def send(self, case: str, event: bytes) -> None:
                self.wfile.write(event)
                self.wfile.flush()
                server.sent[case] = server.sent.get(case, 0) + 1

            def stream(self, model: str, text: str, finish: bool = True, delay: float = 0.0) -> None:
                case = model.removeprefix("fault-")
                self.start_stream()
                self.send(case, sse(model, {"role": "assistant", "content": ""}))
                for i in range(0, len(text), 3):
                    if delay and self.wait_or_gone(case, delay):
                        return
                    self.send(case, sse(model, {"content": text[i:i + 3]}))
                if finish:
                    self.send(case, sse(model, finish="stop"))
                    self.send(case, sse(model, usage={"prompt_tokens": 500, "completion_tokens": 20,
                                                      "total_tokens": 520}))
                    self.send(case, b"data: [DONE]\n\n")

            # -- cases

            def case_ok(self, model: str, attempt: int) -> None:
                self.stream(model, FaultyOpenAI.REPLY)

            def case_auth(self, model: str, attempt: int) -> None:
                self.status(401, "Incorrect API key provided.")

            def case_missing(self, model: str, attempt: int) -> None:
                self.status(404, f"The model `{model}` does not exist.")

            def case_busy(self, model: str, attempt: int) -> None:
                if attempt == 1:
                    self.status(429, "Rate limit reached; retry after 1 s.", {"Retry-After": "1"})
                else:
                    self.case_ok(model, attempt)

            def case_flaky(self, model: str, attempt: int) -> None:
                if attempt == 1:
                    self.status(500, "The server had an error while processing your request.")
                else:
                    self.case_ok(model, attempt)

            def case_hang(self, model: str, attempt: int) -> None:
                self.wait_or_gone("hang", 90)

            def case_trickle(self, model: str, attempt: int) -> None:
                self.stream(model, FaultyOpenAI.REPLY * 3, delay=1.0)

            def case_cut(self, model: str, attempt: int) -> None:
                self.stream(model, "CRAFT is a", finish=False)

            def case_malformed(self, model: str, attempt: int) -> None:
                self.start_stream()
                self.send("malformed", sse(model, {"content": "CRAFT "}))
                self.send("malformed", b'data: {"choices": [{"delta": {"content": "is\n\n')
                self.send("malformed", sse(model, finish="stop"))
                self.send("malformed", b"data: [DONE]\n\n")

            def case_empty(self, model: str, attempt: int) -> None:
                self.stream(model, "")

            def case_echo(self, model: str, attempt: int) -> None:
                auth = self.headers.get("Authorization", "")
                self.status(400, f"Invalid request. Headers received: Authorization: {auth}; "
                                 f"api key {auth.removeprefix('Bearer ')} is not valid here.")

            def case_huge(self, model: str, attempt: int) -> None:
                words = " ".join(f"word{i % 97}" for i in range(HUGE_WORDS))
                self.stream(model, f"{FaultyOpenAI.REPLY} Then " + words)

            def case_onedelta(self, model: str, attempt: int) -> None:
                """The huge reply in a single event, as a server may send it."""
                words = " ".join(f"word{i % 97}" for i in range(HUGE_WORDS))
                self.start_stream()
                self.send("onedelta", sse(model, {"content": f"{FaultyOpenAI.REPLY} Then " + words}))
                self.send("onedelta", sse(model, finish="stop"))
                self.send("onedelta", b"data: [DONE]\n\n")

            def case_leak(self, model: str, attempt: int) -> None:
                """An answer that repeats the key it was sent (a prompt injection's aim)."""
                key = self.headers.get("Authorization", "").removeprefix("Bearer ")
                self.stream(model, f"CRAFT predicts future links [1]. Your key is {key} [1].")

            def case_filtered(self, model: str, attempt: int) -> None:
                """The server's content filter stops the answer halfway."""
                case = model.removeprefix("fault-")
                self.start_stream()
                self.send(case, sse(model, {"content": f"{FaultyOpenAI.REPLY} It is"}))
                self.send(case, sse(model, finish="content_filter"))
                self.send(case, b"data: [DONE]\n\n")

            def case_controls(self, model: str, attempt: int) -> None:
                """Terminal control sequences: clear the screen, colour, a hidden link."""
                self.stream(model, "CRAFT predicts links [1].\x1b[2J\x1b[31mFAKE NOTICE\x1b[0m "
                                   "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07 [1].")

            def case_ignores(self, model: str, attempt: int) -> None:
                self.stream(model, FaultyOpenAI.REPLY)

            def case_misnumbered(self, model: str, attempt: int) -> None:
                said = FaultyOpenAI.REPLY.removesuffix(" [1].") + "."
                self.stream(model, json.dumps({"sentences": [{"text": said, "sources": [0, 99]}]}))

            def case_invented(self, model: str, attempt: int) -> None:
                self.stream(model, "[99]")

            def case_nocite(self, model: str, attempt: int) -> None:
                self.stream(model, "CRAFT was trained on ten billion edges by a search company.")

            def case_userinfo(self, model: str, attempt: int) -> None:
                self.status(503, "upstream unavailable")

            def case_patient(self, model: str, attempt: int) -> None:
                """A 429 asking for a day's wait: the client does not retry it."""
                self.status(429, "Rate limit reached.", {"Retry-After": "86400"})

            def case_gateway(self, model: str, attempt: int) -> None:
                """A proxy's HTML error page (no JSON body)."""
                page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
                self.send_response(502)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

        self.serve(Handler)

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        super().__exit__(*exc)


# ---------------------------------------------------------------- embeddings

class FakeEmbeddings(LocalServer):
    """An OpenAI-compatible ``/v1/embeddings`` server: each text's vector comes from its hash
    (``dim`` numbers), after ``delay`` seconds. ``faults`` holds statuses to answer the next
    requests with (429 carries ``Retry-After: 0``). It records each request's batch size and
    the most requests it had in flight at once."""

    def __init__(self, dim: int = 384, delay: float = 0.0) -> None:
        self.dim, self.delay = dim, delay
        self.faults: list[int] = []
        self.batches: list[int] = []
        self.statuses: list[int] = []
        self.in_flight = self.max_in_flight = 0
        lock = threading.Lock()
        server = self

        class Handler(JSONHandler):
            def do_POST(self) -> None:
                body = self.json_body()
                with lock:
                    fault = server.faults.pop(0) if server.faults else 200
                    server.statuses.append(fault)
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    time.sleep(server.delay)
                    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    if fault != 200:
                        data = {"error": {"message": f"scripted {fault}", "type": "fault"}}
                        self.reply(fault, data, {"Retry-After": "0"} if fault == 429 else {})
                        return
                    with lock:
                        server.batches.append(len(texts))
                    self.reply(200, {"object": "list", "model": body.get("model"), "data": [
                        {"object": "embedding", "index": i, "embedding": server.vector(t)}
                        for i, t in enumerate(texts)],
                        "usage": {"prompt_tokens": 0, "total_tokens": 0}})
                finally:
                    with lock:
                        server.in_flight -= 1

            def reply(self, code: int, data: dict[str, Any],
                      headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

        self.serve(Handler)

    def vector(self, text: str) -> list[float]:
        """The (unnormalised) vector this server gives ``text``."""
        import hashlib
        import random

        rng = random.Random(hashlib.sha256(text.encode()).digest())
        return [round(rng.gauss(0, 1), 6) for _ in range(self.dim)]
