"""Wall-clock timings a newcomer feels, each in a fresh process.

Usage: python bench/timings.py [--label NAME]
Measures: `assistant ingest` of the seeds into an empty directory; `assistant ask` cold
(new process, index on disk; a question the ranker is sure of, and one it is not, which the
cross-encoder rereads), and until the first answer text reaches its stdout; `assistant
serve` until Chromium shows the loading page, and until the same tab, left alone, shows the
question box.
Wall seconds, and the CPU seconds the command used (user + system, its children included):
on a shared machine the wall time grows with the load average, the CPU time much less.
Writes bench/results/timings.json: the figures under NAME (default "latest"), beside those
of earlier labels (e.g. "before" and "after" a change).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import RESULTS, save

from assistant.settings import PROJECT_ROOT

ASSISTANT = [sys.executable, "-m", "assistant.cli"]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
UNSURE = "How are graph neural networks explained?"  # the ranker is 0.67 sure of its first


CPU: list[float] = []  # CPU seconds of each timed command, in order


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str]) -> float:
    """Wall seconds of one command in a fresh process (its CPU seconds go to ``CPU``)."""
    cpu = children_cpu()
    started = time.perf_counter()
    subprocess.run(ASSISTANT + args, check=True, capture_output=True, env=ENV, cwd=PROJECT_ROOT)
    CPU.append(round(children_cpu() - cpu, 2))
    return round(time.perf_counter() - started, 2)


def ask_to_first_text(data_dir: Path) -> float:
    """Wall seconds until `assistant ask` writes the first answer text to its stdout."""
    started = time.perf_counter()
    proc = subprocess.Popen(ASSISTANT + ["ask", "What is CRAFT?", "--data-dir", str(data_dir)],
                            env=ENV, cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    elapsed = None
    while chunk := os.read(proc.stdout.fileno(), 4096):
        if elapsed is None and chunk.strip():
            elapsed = time.perf_counter() - started
    if proc.wait() != 0 or elapsed is None:
        raise SystemExit("assistant ask failed or printed nothing")
    return round(elapsed, 2)


def serve_to_page(data_dir: Path) -> tuple[float, float]:
    """Seconds from `assistant serve` to Chromium showing its loading page, and to the same
    tab showing the question box (the loading page reloads into the app by itself)."""
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = None
    try:
        with sync_playwright() as p:  # the browser is open before the command, as a user's is
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu",
                                              "--disable-background-networking"])
            page = browser.new_page()
            started = time.perf_counter()
            proc = subprocess.Popen(ASSISTANT + ["serve", "--port", str(port), "--data-dir",
                                                 str(data_dir)], env=ENV, cwd=PROJECT_ROOT,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/", timeout=2000)
                    break
                except Exception:
                    if time.perf_counter() - started > 300:
                        raise
                    time.sleep(0.1)
            first = time.perf_counter() - started
            if "loading" not in page.content() and not page.query_selector("#question"):
                raise SystemExit(f"neither the loading page nor the app: {page.content()[:300]}")
            page.wait_for_selector("#question textarea", timeout=300_000)
            elapsed = time.perf_counter() - started
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    return round(first, 2), round(elapsed, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="latest", help="the name these figures go under")
    label = parser.parse_args().label
    load_before = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        ingest = timed(["ingest", "--data-dir", str(data)])
        asks = [timed(["ask", "What is CRAFT?", "--data-dir", str(data)]) for _ in range(3)]
        # A question the ranker is unsure of: the cross-encoder rereads its first papers.
        unsure = [timed(["ask", UNSURE, "--data-dir", str(data)]) for _ in range(3)]
        first = timed(["ask", "What is CRAFT?", "--data-dir", str(Path(tmp) / "empty")])
        first_text = [ask_to_first_text(data) for _ in range(2)]
        serve = [serve_to_page(data) for _ in range(2)]
    out = {
        "seed_ingest_s": ingest,
        "ask_cold_s": asks,
        "ask_cold_reranked_s": unsure,
        "ask_on_empty_index_s": first,
        "ask_to_first_text_s": first_text,
        "serve_to_loading_page_s": [loading for loading, _ in serve],
        "serve_to_page_ready_s": [ready for _, ready in serve],
        "cpu_s": {"seed_ingest": CPU[0], "ask_cold": CPU[1:4], "ask_cold_reranked": CPU[4:7],
                  "ask_on_empty_index": CPU[7]},
        "cpus": os.cpu_count(),
        "load_average": {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]},
    }
    path = RESULTS / "timings.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    if "ask_cold_s" in saved:  # the old flat layout: one unlabelled run
        saved = {"earlier": saved}
    save("timings", {**saved, label: out})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
