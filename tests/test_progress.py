"""Ingest progress when stderr is not a terminal, and an interrupted ingest that resumes.

One real `assistant ingest` of the seeds (small embedding batches, so that it writes several
batches) is interrupted with SIGINT part-way and run again; both runs write stderr to a pipe.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SEEDS, make_settings
from rich.console import Console

from assistant.console import progress_bar
from assistant.index import AbstractIndex

pytestmark = pytest.mark.slow  # ingests in subprocesses: not in the fast tier

LINE = re.compile(r"^embedding abstracts: (\d+)/(\d+) \(\d+%\) · ([\d.]+)/s · (ETA \d+:\d\d|\d+ s)$")
SUMMARY = re.compile(r"papers: (\d+) \((\d+) added.*chunks: (\d+) \(\+(\d+)\)")


def run_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    # A line every 0.05 s; batches of 1 text, so a write batch is 32 chunks (~17 papers).
    env.update(ASSISTANT_PROGRESS_SECONDS="0.05", ASSISTANT_INDEX_EMBED_BATCH_SIZE="1")
    return env


def ingest_args(seeds: Path, data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "assistant.cli", "ingest", str(seeds), "--data-dir", str(data_dir)]


def stored_chunks(data_dir: Path) -> dict[str, list[int]]:
    """Each stored paper's chunk numbers, read back through a fresh index."""
    index = AbstractIndex(make_settings(data_dir))
    got = index.store.collection.get(include=["metadatas"])
    chunks: dict[str, list[int]] = {}
    for meta in got["metadatas"]:
        chunks.setdefault(str(meta["paper_id"]), []).append(int(meta["chunk"]))
    return {pid: sorted(c) for pid, c in chunks.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """An ingest interrupted once it has embedded 20 of the 38 seed abstracts, what it kept,
    and the ingest that resumes it."""
    root = tmp_path_factory.mktemp("progress")
    seeds, data_dir = root / "seeds", root / "data"
    shutil.copytree(SEEDS, seeds)
    # A shell runs a background job with SIGINT ignored, and a child inherits that: the
    # ingest would never see the interrupt. It starts with Python's own handler instead.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(ingest_args(seeds, data_dir), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=run_env(), cwd=root)
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert proc.stderr is not None
    first_lines: list[str] = []
    deadline = time.monotonic() + 240
    for line in proc.stderr:
        first_lines.append(line.rstrip("\n"))
        match = LINE.match(first_lines[-1])
        if match and int(match.group(1)) >= 20:
            proc.send_signal(signal.SIGINT)
            break
        assert time.monotonic() < deadline, "no progress line reached 20 abstracts"
    _, rest = proc.communicate(timeout=120)
    first_lines += rest.splitlines()
    kept = stored_chunks(data_dir)
    second = subprocess.run(ingest_args(seeds, data_dir), capture_output=True, text=True,
                            env=run_env(), cwd=root, timeout=240)
    return {"first_code": proc.returncode, "first_lines": first_lines, "kept": kept,
            "second": second, "final": stored_chunks(data_dir)}


def test_ingest_to_a_pipe_prints_count_rate_and_eta(runs: dict[str, object]) -> None:
    second = runs["second"]
    assert isinstance(second, subprocess.CompletedProcess)
    assert second.returncode == 0, second.stderr
    lines = [LINE.match(line) for line in second.stderr.splitlines()]
    progress = [m for m in lines if m]
    assert len(progress) >= 2, second.stderr  # at least one while running, one at the end
    assert any(m.group(4).startswith("ETA") for m in progress), second.stderr
    last = progress[-1]
    assert last.group(1) == last.group(2) and last.group(4).endswith(" s")  # done/done · N s
    assert float(last.group(3)) > 0
    counts = [int(m.group(1)) for m in progress]
    assert counts == sorted(counts)
    # The interrupted run printed its lines too, while it ran.
    assert sum(1 for line in runs["first_lines"] if LINE.match(line)) >= 2  # type: ignore[attr-defined]


def test_an_interrupted_ingest_keeps_whole_papers_and_resumes(runs: dict[str, object]) -> None:
    kept, final = runs["kept"], runs["final"]
    assert isinstance(kept, dict) and isinstance(final, dict)
    assert runs["first_code"] == 130  # "interrupted"
    assert 0 < len(kept) < 38, f"kept {len(kept)} papers"
    for pid, chunks in kept.items():  # whole papers only, each as the full ingest stores it
        assert chunks == final[pid] == list(range(len(chunks)))
    second = runs["second"]
    assert isinstance(second, subprocess.CompletedProcess)
    match = SUMMARY.search(second.stdout)
    assert match, second.stdout
    papers, added, chunks, chunks_added = map(int, match.groups())
    assert (papers, added) == (38, 38 - len(kept))  # only what the first run did not store
    assert chunks_added == chunks - sum(len(c) for c in kept.values())
    assert len(final) == 38 and chunks == sum(len(c) for c in final.values())


def test_plain_lines_off_a_terminal_and_a_bar_on_one() -> None:
    plain = io.StringIO()
    with progress_bar(console=Console(file=plain, force_terminal=False, width=200)) as update:
        update(0, 50, "embedding abstracts")
        update(50, 50, "embedding abstracts")
    assert LINE.match(plain.getvalue().strip()), plain.getvalue()  # the line at the end
    bar = io.StringIO()
    with progress_bar(console=Console(file=bar, force_terminal=True, width=200)) as update:
        update(25, 50, "embedding abstracts")
    assert not LINE.search(bar.getvalue())
