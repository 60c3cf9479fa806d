"""The page `assistant serve` shows while the app is still loading.

Importing Gradio and the pipeline, opening the index and, on a fresh data directory, embedding
the seed abstracts take from ten seconds to a minute; a browser opened on the URL meanwhile
would only see "connection refused". So the command first binds the port with this small
standard-library server (well under a second after the command): every request gets a 503
with ``Retry-After``, browsers a page that says the index is loading and turns into the app
by itself, API clients one line of JSON. ``assistant.ui.launch`` closes it right before Gradio
binds the same port. It serves nothing but that page: no corpus, no setting, no secret, and
with a login configured not even what stage the loading is at.
"""

from __future__ import annotations

import html
import json
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from types import TracebackType
from typing import TYPE_CHECKING

from assistant.errors import BadInputError
from assistant.ui.server import CSP

if TYPE_CHECKING:
    from assistant.settings import ServeSettings

RETRY_AFTER_S = 2
MAX_DRAINED_BODY = 1 << 20  # a request body read (and dropped) so the client sees the 503
# Paths only programs ask for: they get JSON, not the page.
API_PREFIXES = ("/gradio_api", "/config", "/info", "/login", "/logout", "/queue", "/upload",
                "/file", "/run", "/api", "/heartbeat", "/theme.css", "/assets", "/static")
MESSAGE = "the assistant is loading its index; retry in a few seconds"


def page_template() -> str:
    """``static/loading.html`` (shipped in the wheel as package data)."""
    return files("assistant.ui").joinpath("static", "loading.html").read_text(encoding="utf-8")


class _Server(ThreadingHTTPServer):
    """A threading HTTP server that binds without a reverse DNS look-up (``HTTPServer``
    calls ``getfqdn``, which can hang for seconds on a machine without network)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], owner: LoadingServer) -> None:
        self.owner = owner
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that went away mid-reply is no news


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = 10  # a client that sends nothing does not hold a thread for long

    def version_string(self) -> str:
        return "assistant"  # not the Python version

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def _reply(self, head_only: bool = False) -> None:
        self._drain()
        owner = self.server.owner
        accept = self.headers.get("Accept", "")
        wants_page = (self.command in ("GET", "HEAD")
                      and not self.path.startswith(API_PREFIXES)
                      and ("text/html" in accept or "*/*" in accept or not accept))
        if wants_page:
            body, kind = owner.page().encode("utf-8"), "text/html; charset=utf-8"
        else:
            body = json.dumps({"error": "loading", "detail": MESSAGE}).encode("utf-8")
            kind = "application/json"
        self.send_response(503)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Retry-After", str(RETRY_AFTER_S))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Connection", "close")
        self.end_headers()
        if not head_only:
            self.wfile.write(body)
        self.close_connection = True

    def _drain(self) -> None:
        """Read the request body first: closing a socket with unread data resets it, and the
        client would see a reset instead of the 503."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        length = min(max(length, 0), MAX_DRAINED_BODY)
        while length > 0:
            chunk = self.rfile.read(min(length, 65536))
            if not chunk:
                break
            length -= len(chunk)

    def do_GET(self) -> None:
        self._reply()

    def do_HEAD(self) -> None:
        self._reply(head_only=True)

    do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_GET


class LoadingServer:
    """The loading page on ``host:port`` until ``close()``; a context manager.

    ``stage`` says what the app is doing (shown on the page unless ``login``, in which case
    the page says nothing but that it is loading)."""

    def __init__(self, host: str, port: int, login: bool = False,
                 started: float | None = None) -> None:
        self.host, self.port, self.login = host, port, login
        self.started = started if started is not None else time.monotonic()
        self.stage = "starting"
        self._template = page_template()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def for_settings(cls, serve: ServeSettings, started: float | None = None) -> LoadingServer:
        login = bool(serve.username and serve.password and serve.password.get_secret_value())
        return cls(serve.host, serve.port, login=login, started=started)

    def page(self) -> str:
        stage = "" if self.login else f"Now: {self.stage}."
        return (self._template.replace("{elapsed}", str(int(time.monotonic() - self.started)))
                .replace("{stage}", html.escape(stage)))

    def start(self) -> LoadingServer:
        """Bind the port now, so that a port in use is reported at once, not after the load."""
        host = self.host.strip("[]")
        kind = _Server6 if ":" in host else _Server
        try:
            self._server = kind((host, self.port), self)
        except OSError as exc:
            raise BadInputError(f"cannot serve on {self.host}:{self.port}: "
                                f"{exc.strerror or exc}; is another `assistant serve` running? "
                                "Choose another port with --port (or ASSISTANT_SERVE_PORT)"
                                ) from None
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="loading-page", daemon=True)
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._server is not None

    def close(self) -> None:
        """Stop answering and release the port (idempotent)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> LoadingServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
