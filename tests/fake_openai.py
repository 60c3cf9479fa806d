"""A local OpenAI-compatible chat server for tests: real HTTP, real SSE streaming,
scripted replies. It records every request body so tests can check the prompt."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    def __init__(self) -> None:
        self.replies: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.usage = True
        self.delay = 0.0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                if server.status != 200:
                    self.send_response(server.status)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"error": {"message": "scripted failure",
                                                           "type": "test"}}).encode())
                    return
                reply = server.replies.pop(0) if server.replies else "No reply scripted."
                if body.get("stream"):
                    self._stream(body, reply)
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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
