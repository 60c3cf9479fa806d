"""What stands between the network and the app: a login that slows down guessing, a guard
that keeps Gradio's MCP endpoint behind that login, security headers, and a warning when the
app is exposed without a login. Nothing here knows about papers or answers."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import time
from collections import deque
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MCP_PATH = "/gradio_api/mcp"
# Defence in depth behind the inert rendering: the page may load images, media and fonts and
# open connections only from the app itself, so even markup that slipped through could not
# reach another host. (Scripts and styles stay as Gradio needs them.)
CSP = ("img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; "
       "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'")


class LoginGuard:
    """Gradio's ``auth`` callable: one username and password, compared in constant time.

    Every failure within ``window`` seconds adds ``step`` seconds (up to ``cap``) of waiting
    before the next attempt is even checked, and attempts are checked one at a time, so
    guessing in parallel gains nothing: 30 wrong passwords take minutes, not 0.7 s. A
    success clears the count."""

    def __init__(self, username: str, password: str, step: float = 0.5, cap: float = 5.0,
                 window: float = 900.0) -> None:
        self._username = username.encode()
        self._password = password.encode()
        self.step, self.cap, self.window = step, cap, window
        self._failures: deque[float] = deque()
        self._lock = asyncio.Lock()

    def delay(self) -> float:
        """Seconds the next attempt waits, from the failures still within the window."""
        now = time.monotonic()
        while self._failures and now - self._failures[0] > self.window:
            self._failures.popleft()
        return min(self.step * len(self._failures), self.cap)

    async def check(self, username: str, password: str) -> bool:
        async with self._lock:
            wait = self.delay()
            if wait:
                await asyncio.sleep(wait)
            ok = (hmac.compare_digest(username.encode(), self._username)
                  & hmac.compare_digest(password.encode(), self._password))
            if ok:
                self._failures.clear()
            else:
                self._failures.append(time.monotonic())
            return ok


class GuardMiddleware:
    """Adds the security headers to every response and, when the app has a login, refuses
    MCP requests that do not carry a logged-in session's cookie (Gradio mounts its MCP server
    outside the login check)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if (path == MCP_PATH or path.startswith(MCP_PATH + "/")) and not logged_in(scope):
            response = JSONResponse(
                {"error": "Not authenticated: log in (POST /login) and send its cookie."},
                status_code=401)
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", CSP)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def logged_in(scope: Scope) -> bool:
    """True when the app has no login, or the request carries a session Gradio issued."""
    app = scope.get("app")
    if getattr(app, "auth", None) is None:
        return True
    cookies = HTTPConnection(scope).cookies
    cookie_id = getattr(app, "cookie_id", "")
    token = (cookies.get(f"access-token-{cookie_id}")
             or cookies.get(f"access-token-unsecure-{cookie_id}"))
    return bool(token) and token in getattr(app, "tokens", {})


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name other than localhost: assume others can reach it


def exposure_warning(host: str, login: bool) -> str | None:
    """The warning to print when the app listens beyond this machine without a login."""
    if login or is_loopback(host):
        return None
    return (f"Warning: serving on {host} without a login, so anyone who can reach this machine "
            "can read the corpus, add to it and use the model endpoint. Set "
            "ASSISTANT_SERVE_USERNAME and ASSISTANT_SERVE_PASSWORD, or serve on 127.0.0.1.")


def json_tool_results(mcp_server: Any) -> None:
    """Make an MCP tool's dict or list result JSON text: Gradio's MCP server writes it as
    Python's repr (``None``, ``True``, single quotes), which a client cannot parse. The HTTP
    API (``/ask`` through ``gradio_client``) is untouched."""
    if mcp_server is None:
        return
    from gradio_client.utils import is_file_obj_with_meta

    written_as_repr = mcp_server.postprocess_output_data

    def as_json(data: list[Any], root_url: str) -> list[Any]:
        return written_as_repr([json.dumps(d, ensure_ascii=False)
                                if isinstance(d, dict | list) and not is_file_obj_with_meta(d)
                                else d for d in data], root_url)

    mcp_server.postprocess_output_data = as_json
