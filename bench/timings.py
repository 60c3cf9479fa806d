"""Wall-clock timings a newcomer feels, each in a fresh process.

Usage: python bench/timings.py
Measures: `assistant ingest` of the seeds into an empty directory; `assistant ask` cold
(new process, index on disk); `assistant serve` until Chromium shows the question box.
Writes bench/results/timings.json.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import save

from assistant.settings import PROJECT_ROOT

ASSISTANT = [sys.executable, "-m", "assistant.cli"]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(ASSISTANT + args, check=True, capture_output=True, env=ENV, cwd=PROJECT_ROOT)
    return round(time.perf_counter() - started, 2)


def serve_to_page(data_dir: Path) -> float:
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.perf_counter()
    proc = subprocess.Popen(ASSISTANT + ["serve", "--port", str(port), "--data-dir", str(data_dir)],
                            env=ENV, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu",
                                              "--disable-background-networking"])
            page = browser.new_page()
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/", timeout=2000)
                    break
                except Exception:
                    if time.perf_counter() - started > 300:
                        raise
                    time.sleep(0.2)
            page.wait_for_selector("#question textarea", timeout=60_000)
            elapsed = time.perf_counter() - started
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return round(elapsed, 2)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        ingest = timed(["ingest", "--data-dir", str(data)])
        asks = [timed(["ask", "What is CRAFT?", "--data-dir", str(data)]) for _ in range(3)]
        first = timed(["ask", "What is CRAFT?", "--data-dir", str(Path(tmp) / "empty")])
        serve = [serve_to_page(data) for _ in range(2)]
    out = {
        "seed_ingest_s": ingest,
        "ask_cold_s": asks,
        "ask_on_empty_index_s": first,
        "serve_to_page_ready_s": serve,
        "cpus": os.cpu_count(),
    }
    save("timings", out)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
