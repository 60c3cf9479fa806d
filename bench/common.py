"""What every bench script shares: its figures go to bench/results/<name>.json; a server it
starts is waited for, and stopped, the same way."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import numpy as np

from assistant.settings import PROJECT_ROOT, LLMSettings, Settings

if TYPE_CHECKING:
    from assistant.index import AbstractIndex
    from assistant.pipeline import Assistant

RESULTS = PROJECT_ROOT / "bench" / "results"
# the 13,910 NeurIPS 1987–2021 abstracts (CSV), beside the project, never copied in
SHARED_ABSTRACTS = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021"


def pairs_args() -> tuple[Path, int, Settings, AbstractIndex]:
    """``[DATA_DIR] [N]`` of the scripts that train on title pairs (default .data-distractors,
    2,000 pairs), with the settings and the store they name."""
    from assistant.index import AbstractIndex  # only these scripts open a store here

    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    settings = Settings()
    settings.data.dir = data_dir
    return data_dir, count, settings, AbstractIndex(settings)


def bench_settings(data_dir: Path, llm: dict[str, Any] | None = None) -> Settings:
    """The shipped defaults over ``data_dir``, no .env, with the model endpoint ``llm``'s
    settings name (None: offline)."""
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    settings.data.dir = data_dir
    settings.llm = LLMSettings.model_validate(llm or {"base_url": None, "model": None})
    return settings


def offline_assistant(data_dir: Path | None = None) -> tuple[Path, Assistant]:
    """The store ``data_dir`` names (else ``[DATA_DIR]`` of the scripts that ask questions,
    default .data-distractors), opened as the shipped defaults answer, with no .env and no
    model endpoint."""
    from assistant.pipeline import Assistant

    if data_dir is None:
        data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    return data_dir, Assistant(bench_settings(data_dir))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """A JSON Lines file's objects, blank lines skipped (the bench's question sets)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def metrics(ranks: list[int]) -> dict[str, float]:
    """hit@1, hit@5 and MRR of the first right paper's 1-based rank in each ranking."""
    r = np.asarray(ranks)
    return {"hit@1": round(float((r == 1).mean()), 3), "hit@5": round(float((r <= 5).mean()), 3),
            "mrr": round(float((1 / r).mean()), 3), "n": len(ranks)}


def rank_of(order: list[int], positives: set[int]) -> int:
    """The 1-based place of the first of ``positives`` in ``order`` (10**6 when none is)."""
    return next((n for n, i in enumerate(order, 1) if i in positives), 10**6)


def _fingerprint(paths: list[Path]) -> str:
    import hashlib

    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def reading_fingerprint() -> str:
    """A short hash of keywords.py: which papers a question retrieves depends on how it reads
    texts and questions, so a bench cache of retrieved candidates is keyed by it."""
    from assistant import keywords

    return _fingerprint([Path(keywords.__file__)])


def retrieval_fingerprint(*data: Path) -> str:
    """A short hash of the code and weights that decide what a question retrieves and how the
    ranker scores it (keywords, ranking, retrieval, the index's rooms, ranker.json), with
    ``data`` (the question files read): a bench cache of candidates or readings is keyed by it."""
    from assistant import catalog, chunks, dense, index, keyword_index, keywords, ranking, retrieval

    code = [Path(m.__file__) for m in (keywords, ranking, retrieval, index, chunks, keyword_index,
                                       catalog, dense)]
    return _fingerprint([*code, Path(ranking.__file__).with_name(ranking.WEIGHTS_FILE), *data])


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


def csv_folder_and_count(default: int) -> tuple[Path, int]:
    """The CSV folder (argument 1, else ``SHARED_ABSTRACTS``) and how many to draw (argument
    2, else ``default``) of a bench drawing sentences from the shared abstracts."""
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED_ABSTRACTS
    if not folder.is_dir():
        sys.exit(f"no CSV folder at {folder}: pass the NeurIPS 1987-2021 CSVs' folder")
    return folder, int(sys.argv[2]) if len(sys.argv) > 2 else default


def shared_abstracts(folder: Path) -> Iterator[str]:
    """Each abstract of the CSVs in ``folder``, file by file in name order."""
    for path in sorted(folder.glob("*.csv")):
        with path.open(newline="", encoding="utf-8", errors="ignore") as f:
            yield from (row.get("abstract") or "" for row in csv.DictReader(f))


def read_right(cases: Iterable[tuple[str, dict[str, tuple[str, bool]]]], kinds: Sequence[str]
               ) -> dict[str, str]:
    """How many claims of each kind the claim checker reads right ("117 of 120"): each case
    is an abstract and its claims by kind, each claim citing it as [1], with whether it is
    supported."""
    from assistant.claims import ClaimChecker

    checker = ClaimChecker()
    right, asked = dict.fromkeys(kinds, 0), dict.fromkeys(kinds, 0)
    for abstract, claims in cases:
        for kind, (claim, supported) in claims.items():
            [checked] = checker.check(claim, {1: abstract})
            right[kind] += checked.supported is supported
            asked[kind] += 1
    return {kind: f"{right[kind]} of {asked[kind]}" for kind in kinds}
