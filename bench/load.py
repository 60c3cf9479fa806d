"""Many users at once: does the UI stay correct and responsive, and does anyone get someone
else's answer?

Usage: python bench/load.py [--users 16] [--seconds 60] [--url http://127.0.0.1:7860/]
Without --url it starts `assistant serve` (offline: ASSISTANT_* settings are dropped) on a
fresh data directory, which it fills from the seeds, and stops it afterwards.

Each user is its own gradio_client and asks questions from evals/qa.jsonl whose expected
locator the answer must cite, alternating the typed /ask and the UI's /chat. Questions are
first asked once each, alone, and only those answered from their expected paper are kept, so
that under load any other answer is a fault. Cross-talk is an answer to another question (a
different question echoed back, or only another question's paper cited). Half-way through,
one more client uploads a CSV and asks about it. Writes bench/results/load.json.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import save, wait_until_up
from gradio_client import Client, handle_file

from assistant.settings import PROJECT_ROOT

UPLOAD_CSV = ('title,authors,link,abstract\n"Loadtestium","B. Ench","https://example.invalid/l",'
              '"We introduce Loadtestium, a protocol for counting penguins from satellite '
              'images of Antarctic ice shelves."\n')


@dataclass
class Question:
    text: str
    locator: str


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"/ask": [], "/chat": []})
    errors: list[str] = field(default_factory=list)
    cross_talk: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def known_questions(limit: int = 24) -> list[Question]:
    rows = [json.loads(line) for line in (PROJECT_ROOT / "evals" / "qa.jsonl").open()]
    return [Question(r["question"], r["expected_sources"][0]) for r in rows
            if r["kind"] in ("named", "detail") and len(r["expected_sources"]) == 1][:limit]


def text_of(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def ask_once(client: Client, endpoint: str, q: Question) -> tuple[str, set[str]]:
    """The question the server says it answered, and the locators the answer cites."""
    if endpoint == "/ask":
        got = client.predict(q.text, 5, api_name="/ask")
        if "error" in got:
            raise RuntimeError(got["error"])
        return got["question"], {c["source"] for c in got["citations"]}
    chat, markdown, *_ = client.predict(q.text, [], 5, api_name="/chat")
    echoed = html.unescape(text_of(chat[0]))
    cited = {line.rsplit(". ", 1)[-1].rstrip(".") for line in markdown.splitlines()
             if line.startswith("[")}
    return echoed, cited


def calibrate(url: str, questions: list[Question]) -> list[Question]:
    client = Client(url, verbose=False, download_files=False)
    return [q for q in questions
            if all(q.locator in ask_once(client, e, q)[1] for e in ("/ask", "/chat"))]


def user(url: str, index: int, questions: list[Question], stop_at: float, tally: Tally) -> None:
    client = Client(url, verbose=False, download_files=False)
    others = {q.locator for q in questions}
    n = index
    while time.monotonic() < stop_at:
        q = questions[n % len(questions)]
        endpoint = "/ask" if n % 2 == 0 else "/chat"
        n += 1
        started = time.monotonic()
        try:
            echoed, cited = ask_once(client, endpoint, q)
        except Exception as exc:  # a failed request is counted, not fatal
            with tally.lock:
                tally.errors.append(f"{endpoint} {q.text!r}: {exc}")
            continue
        took = time.monotonic() - started
        with tally.lock:
            tally.latencies[endpoint].append(took)
            if echoed.strip() != q.text.strip() or (
                    q.locator not in cited and cited & (others - {q.locator})):
                tally.cross_talk.append(f"{endpoint} asked {q.text!r}, got {echoed!r} citing "
                                        f"{sorted(cited)}")
            elif q.locator not in cited:
                tally.misses.append(f"{endpoint} {q.text!r} cites {sorted(cited)}")


def upload_midway(url: str, at: float, result: dict[str, Any]) -> None:
    time.sleep(max(0.0, at - time.monotonic()))
    client = Client(url, verbose=False, download_files=False)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "loadtest.csv"
        path.write_text(UPLOAD_CSV)
        started = time.monotonic()
        try:
            summary = client.predict([handle_file(str(path))], api_name="/upload")[0]
            result["upload_seconds"] = round(time.monotonic() - started, 2)
            result["upload_summary"] = summary
            answer = client.predict("What is Loadtestium?", 3, api_name="/ask")
            result["upload_answerable"] = any(
                c["source"].endswith("loadtest.csv#1") for c in answer.get("citations", []))
        except Exception as exc:
            result["upload_error"] = str(exc)


def start_server(data_dir: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "serve", "--port", str(port), "--data-dir",
         str(data_dir)], cwd=PROJECT_ROOT, env=env, stdout=log.open("wb"),
        stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    wait_until_up(process, url, log, "the server", 300)
    return process, url


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 3)


def run(url: str, users: int, seconds: float) -> dict[str, Any]:
    questions = calibrate(url, known_questions())
    if not questions:
        raise SystemExit("no known question is answered from its expected paper; is this the "
                         "seed corpus?")
    tally = Tally()
    upload: dict[str, Any] = {}
    load_before = round(os.getloadavg()[0], 2)
    started = time.monotonic()
    stop_at = started + seconds
    threads = [threading.Thread(target=user, args=(url, i, questions, stop_at, tally))
               for i in range(users)]
    threads.append(threading.Thread(target=upload_midway,
                                    args=(url, started + seconds / 2, upload)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    every = tally.latencies["/ask"] + tally.latencies["/chat"]
    return {
        "users": users,
        "load_average_1min_at_start": load_before,
        "seconds": round(elapsed, 1),
        "questions": len(questions),
        "requests": len(every) + len(tally.errors),
        "answers": len(every),
        "answers_per_second": round(len(every) / elapsed, 2),
        "errors": len(tally.errors),
        "cross_talk": len(tally.cross_talk),
        "misses": len(tally.misses),
        "latency_s": {
            "p50": percentile(every, 50), "p95": percentile(every, 95),
            "mean": round(statistics.fmean(every), 3) if every else None,
            **{f"{e} p50": percentile(v, 50) for e, v in tally.latencies.items()},
            **{f"{e} p95": percentile(v, 95) for e, v in tally.latencies.items()},
        },
        "upload": upload,
        "examples": {"errors": tally.errors[:5], "cross_talk": tally.cross_talk[:5],
                     "misses": tally.misses[:5]},
        "cores": os.cpu_count(),
        "load_average_1min_at_end": round(os.getloadavg()[0], 2),  # others sharing the cores
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--url", help="a running `assistant serve` over the seeds")
    args = parser.parse_args()
    if args.url:
        figures = run(args.url, args.users, args.seconds)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            process, url = start_server(Path(tmp) / "data", Path(tmp) / "serve.log")
            try:
                figures = run(url, args.users, args.seconds)
            finally:
                process.terminate()
                process.wait(timeout=30)
    print(json.dumps({k: v for k, v in figures.items() if k != "examples"}, indent=1))
    save("load", figures)


if __name__ == "__main__":
    main()
