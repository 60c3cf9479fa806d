"""What every bench script shares: its figures go to bench/results/<name>.json; a server it
starts is waited for, and stopped, the same way."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx

from assistant.settings import PROJECT_ROOT

RESULTS = PROJECT_ROOT / "bench" / "results"


def save(name: str, figures: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path}")
    return path


def wait_until_up(process: subprocess.Popen[bytes], url: str, log: Path, what: str,
                  seconds: float) -> None:
    """Poll ``url`` until it answers 200; exit with the server's log if it dies or is late."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    process.kill()
    raise SystemExit(f"{what} did not answer within {seconds:.0f} s: {log.read_text()[-2000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
