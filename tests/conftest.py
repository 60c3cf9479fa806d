"""Shared fixtures: a real Chroma index of the seeds on disk, built once per test session."""

from __future__ import annotations

import csv
import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

import assistant  # noqa: F401  (offline environment)
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, LLMSettings, Settings

SEEDS = PROJECT_ROOT / "seeds"
SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021"
# The 13.9k NeurIPS abstracts lie beside our own clones and CI only; elsewhere those tests skip.
skipif_no_shared_data = pytest.mark.skipif(
    not SHARED_DATA.is_dir(), reason=f"{SHARED_DATA} is absent (it exists beside the project's "
    "own clones and CI only)")
# No test (nor a CLI it starts) writes to the real per-user data directory.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="assistant-xdg-")
FILE_A = "000_5670d2e227b27b35.txt"
FILE_B = "004_d328982b31ffa53a.txt"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the 13.9k is slow (the fast tier, `-m "not slow"`, leaves it out),
    as are those marked so by hand: servers, browsers, CLIs in a subprocess."""
    for item in items:
        if skipif_no_shared_data.mark in item.iter_markers("skipif"):
            item.add_marker(pytest.mark.slow)


def make_settings(data_dir: Path, **llm: object) -> Settings:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    settings.data.dir = data_dir
    # free text unless a test asks for a schema: scripted replies are text
    settings.llm = LLMSettings.model_validate({"base_url": None, "model": None,
                                               "cite_mode": "free", **llm})
    return settings


@pytest.fixture(scope="session")
def seed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding the seed index; tests copy it rather than rebuild it.

    Under pytest-xdist (the fast tier's ``-n 2``) the first worker builds it once for the
    run, beside the workers' own temporary directories, while the others wait; each worker
    then reads its own copy, as a single process reads its own build."""
    data_dir = tmp_path_factory.mktemp("seed-index")
    if "PYTEST_XDIST_WORKER" not in os.environ:
        Assistant(make_settings(data_dir)).ingest([SEEDS])
        return data_dir
    shared = tmp_path_factory.getbasetemp().parent  # the run's, shared by its workers
    built = shared / "seed-index"
    with open(shared / "seed-index.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "seed-index.built").exists():
            built.mkdir(exist_ok=True)
            Assistant(make_settings(built)).ingest([SEEDS])
            (shared / "seed-index.built").touch()
    shutil.copytree(built, data_dir, dirs_exist_ok=True)
    return data_dir


@pytest.fixture(scope="session")
def seed_assistant(seed_dir: Path) -> Assistant:
    """The offline assistant over the seeds (read-only use)."""
    return Assistant(make_settings(seed_dir))


@pytest.fixture
def fresh_copy(seed_dir: Path, tmp_path: Path) -> Iterator[Path]:
    """A writable copy of the seed index."""
    target = tmp_path / "data"
    shutil.copytree(seed_dir, target)
    yield target


def free_port() -> int:
    """A loopback port nobody listens on (for servers the tests start)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server the test started: politely, then for sure."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The smallest bundled model served by llama.cpp on a loopback port
    (bench/model_server.py), started once for the tests of model mode with a real model."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "model_server", PROJECT_ROOT / "bench" / "model_server.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules["model_server"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    server = module.ModelServer(log=tmp_path_factory.mktemp("model-server") / "server.log")
    try:
        server.start()
    except module.ModelServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


def seeds_with(seed_dir: Path, factory: pytest.TempPathFactory, name: str,
               papers: Sequence[Sequence[str | int]],
               header: Sequence[str] = ("title", "abstract")) -> Path:
    """A data directory holding the seed index and ``papers`` (rows of ``header``'s
    columns: title, abstract by default) added from a CSV: a module's own small corpus
    beside the seeds."""
    path = factory.mktemp(name) / "papers.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([tuple(header), *papers])
    data = path.parent / "data"
    shutil.copytree(seed_dir, data)
    assert Assistant(make_settings(data)).ingest([path]).added == len(papers)
    return data


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    """A scripted OpenAI-compatible endpoint on loopback (tests/fake_openai.py); a module
    with a server of its own (the UI's, the API's) overrides it."""
    with FakeOpenAI() as fake:
        yield fake
