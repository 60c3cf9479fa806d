"""`assistant serve` answers within a second or two with a "loading" page (503), then the app
itself takes the same port over: a real server process, real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import free_port, stop

from assistant.settings import PROJECT_ROOT
from assistant.ui.loading import LoadingServer

pytestmark = pytest.mark.slow  # `assistant serve` in a subprocess: not in the fast tier

CLEAN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}



def get(url: str, method: str = "GET", body: bytes | None = None,
        accept: str = "text/html") -> tuple[int, dict[str, str], str]:
    """Status, headers and text of one request; an HTTP error status is an answer too."""
    headers = {"Accept": accept}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def serve(data_dir: Path, port: int, log: Path, env: dict[str, str] | None = None
          ) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "serve", "--port", str(port),
         "--data-dir", str(data_dir)],
        cwd=PROJECT_ROOT, env={**CLEAN_ENV, **(env or {})}, stdout=log.open("wb"),
        stderr=subprocess.STDOUT)


def test_serve_shows_loading_then_the_app_on_the_same_url(fresh_copy: Path, tmp_path: Path
                                                          ) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    log = tmp_path / "serve.log"
    process = serve(fresh_copy, port, log)
    try:
        first = None
        deadline = time.monotonic() + 60
        while first is None and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                first = get(url)
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        assert first is not None, f"nothing answered: {log.read_text()}"
        status, headers, text = first
        # the first answer is the loading page: a 503 a browser shows, with the app's headers
        assert status == 503 and "loading the index" in text, text
        assert headers["Retry-After"] and headers["Cache-Control"] == "no-store"
        assert "object-src 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert str(fresh_copy) not in text
        # an API call meanwhile is refused at once with a reason, not hung up or reset
        status, headers, text = get(url + "gradio_api/call/ask", "POST",
                                    json.dumps({"data": ["What is CRAFT?", 1]}).encode(),
                                    accept="application/json")
        assert status == 503 and json.loads(text)["error"] == "loading"
        assert headers["Retry-After"]
        # then, with nothing else done, the same URL serves the Gradio app
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                status, _, text = get(url)
            except (urllib.error.URLError, ConnectionError):
                status = 0  # the moment the app takes the port over
            if status == 200:
                break
            assert status in (0, 503), text
            time.sleep(0.2)
        assert status == 200, log.read_text()
        status, _, config = get(url + "config", accept="application/json")
        assert status == 200 and "components" in json.loads(config)
        deadline = time.monotonic() + 30  # printed just after the app took the port
        while "Serving on" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "Serving on" in log.read_text()
    finally:
        stop(process)


def test_port_in_use_fails_at_once_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--port", str(port),
                               "--data-dir", str(tmp_path / "data")], cwd=PROJECT_ROOT,
                              env=CLEAN_ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    message = " ".join(done.stderr.split())
    assert f"cannot serve on 127.0.0.1:{port}" in message and "--port" in message
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 2
    # before the app is even loaded (the index was never built: nothing there)
    assert time.monotonic() - started < 60 and not (tmp_path / "data" / "chroma").exists()


def test_a_failed_build_stops_the_loading_page_with_one_line(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")  # the index cannot open here
    port = free_port()
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--port", str(port),
                           "--data-dir", str(not_a_dir)], cwd=PROJECT_ROOT, env=CLEAN_ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "error:" in done.stderr and "Traceback" not in done.stderr
    with socket.socket() as s:  # the process is gone and so is its hold on the port
        s.bind(("127.0.0.1", port))


def test_loading_page_with_a_login_says_only_loading() -> None:
    port = free_port()
    with LoadingServer("127.0.0.1", port, login=True) as loading:
        loading.stage = "indexing the seed abstracts"
        status, _, text = get(f"http://127.0.0.1:{port}/")
        assert status == 503 and "loading" in text and "indexing" not in text
    with LoadingServer("127.0.0.1", port, login=False) as loading:  # the port was released
        loading.stage = "indexing the seed abstracts"
        _, headers, text = get(f"http://127.0.0.1:{port}/anything")
        assert "indexing the seed abstracts" in text
        assert "Python" not in headers.get("Server", "")
        status, headers, text = get(f"http://127.0.0.1:{port}/config", accept="*/*")
        assert status == 503 and headers["Content-Type"] == "application/json"
    with pytest.raises(urllib.error.URLError):  # closed: nothing answers any more
        get(f"http://127.0.0.1:{port}/")

