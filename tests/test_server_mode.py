"""Server mode: the index in a real `chroma run` server (started here on a free loopback
port) that several processes share: CLI ingests and questions, an in-process assistant,
two `assistant serve` replicas. Rankings must equal those of the embedded store."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from conftest import SEEDS, free_port, make_settings, stop
from gradio_client import Client, handle_file

from assistant.evals import DEFAULT_DATASET, evaluate, indexed_items, load_dataset
from assistant.index import AbstractIndex, IndexConfigError
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, Settings

pytestmark = pytest.mark.slow  # a `chroma run` server and serve replicas: not in the fast tier

CHROMA = Path(sys.executable).parent / "chroma"  # installed by the chromadb package
DEADLINE = 10.0  # seconds for a paper written elsewhere to be answerable (issue 10)



def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    return {**env, **extra}


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=PROJECT_ROOT,
                          env=env or clean_env(), capture_output=True, text=True, timeout=timeout)


def server_settings(url: str, data_dir: Path, collection: str = "abstracts") -> Settings:
    settings = make_settings(data_dir)
    settings.data.chroma_url = url
    settings.data.collection = collection
    return settings


def poll(check: Callable[[], bool], seconds: float = DEADLINE) -> bool:
    """True once ``check`` holds, False when it still does not after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)



# ---------------------------------------------------------------- fixtures


@contextmanager
def chroma_run(where: Path) -> Iterator[str]:
    """A real Chroma server on a free loopback port, its store under ``where``."""
    port = free_port()
    log = (where / "chroma.log").open("wb")
    process = subprocess.Popen(
        [str(CHROMA), "run", "--path", str(where / "store"), "--host", "127.0.0.1",
         "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"chroma run exited: {(where / 'chroma.log').read_text()}")
            try:
                return httpx.get(f"{url}/api/v2/heartbeat", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False
        assert poll(up, 60), f"chroma run did not answer: {(where / 'chroma.log').read_text()}"
        yield url
    finally:
        stop(process)
        log.close()


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chroma_run(tmp_path_factory.mktemp("chroma-server")) as url:
        yield url


@pytest.fixture(scope="module")
def seeded(chroma_url: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The seeds, ingested into the server by `assistant ingest --chroma-url`."""
    data_dir = tmp_path_factory.mktemp("ingester")
    result = cli("ingest", str(SEEDS), "--chroma-url", chroma_url, "--data-dir", str(data_dir))
    assert result.returncode == 0, result.stderr
    assert "38 added" in result.stdout, result.stdout
    assert not (data_dir / "chroma").exists()  # the store is the server's, not on disk
    return chroma_url


@pytest.fixture(scope="module")
def server_app(seeded: str, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """An in-process assistant over the server (its own data directory: no shared disk)."""
    return Assistant(server_settings(seeded, tmp_path_factory.mktemp("reader")))


@dataclass
class Replica:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def client(self) -> Client:
        return Client(self.url, verbose=False, download_files=False)


@pytest.fixture(scope="module")
def replicas(seeded: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Replica]]:
    """Two `assistant serve` replicas on two ports against the one server, started together."""
    started: list[Replica] = []
    try:
        for name in ("replica-a", "replica-b"):
            where = tmp_path_factory.mktemp(name)
            port = free_port()
            log = where / "serve.log"
            process = subprocess.Popen(
                [sys.executable, "-m", "assistant.cli", "serve", "--port", str(port),
                 "--chroma-url", seeded, "--data-dir", str(where / "data")],
                cwd=PROJECT_ROOT, env=clean_env(), stdout=log.open("wb"),
                stderr=subprocess.STDOUT)
            started.append(Replica(f"http://127.0.0.1:{port}/", process, log))
        for replica in started:
            def up(r: Replica = replica) -> bool:
                if r.process.poll() is not None:
                    raise RuntimeError(f"serve exited: {r.log.read_text()}")
                try:
                    return httpx.get(r.url, timeout=2).status_code == 200
                except httpx.HTTPError:
                    return False
            assert poll(up, 240), f"serve did not start: {replica.log.read_text()}"
        yield started
    finally:
        for replica in started:
            stop(replica.process)


# ---------------------------------------------------------------- the CLI


def test_cli_ingests_and_answers_through_the_server(seeded: str, tmp_path: Path) -> None:
    result = cli("ask", "--json", "What is TCCM?", "--chroma-url", seeded,
                 "--data-dir", str(tmp_path / "asker"))
    assert result.returncode == 0, result.stderr
    assert "index is empty" not in result.stderr  # it read the server's store
    answer = json.loads(result.stdout)
    assert answer["citations"], answer
    assert answer["citations"][0]["source"] == "000_5670d2e227b27b35.txt#7"
    assert not (tmp_path / "asker" / "chroma").exists()


def test_unreachable_server_is_one_clear_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    result = cli("ask", "What is TCCM?", "--data-dir", str(tmp_path), "--chroma-url", url)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"cannot reach a Chroma server at {url}" in lines[0]
    assert f"chroma run --path DIR --port {url.rsplit(':', 1)[1]}" in lines[0]


def test_the_setting_names_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("ASSISTANT_DATA_CHROMA_URL", url)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.data.chroma_url == url
    with pytest.raises(IndexConfigError, match=f"cannot reach a Chroma server at {url}"):
        AbstractIndex(settings)
    assert not (tmp_path / "chroma").exists()


def test_a_server_gone_mid_run_is_one_clear_error(tmp_path: Path) -> None:
    with chroma_run(tmp_path) as url:
        index = AbstractIndex(server_settings(url, tmp_path / "data"))
        assert index.chunk_count() == 0
    # within the second of its last look at the store's version, any call (it was httpx's
    # traceback, in the CLI and every UI handler: review)
    index.store.version_checked = time.monotonic() + 60
    with pytest.raises(IndexConfigError, match=f"cannot reach a Chroma server at {url} "
                                               r"\(ConnectError\)"):
        index.papers()
    time.sleep(1.1)  # past the once-a-second look at the store's version
    index.store.version_checked = 0.0
    with pytest.raises(IndexConfigError, match=f"cannot reach a Chroma server at {url}"):
        index.chunk_count()


def test_a_server_that_never_answers_is_one_clear_error_not_a_hang(tmp_path: Path) -> None:
    """chromadb's client waits forever: a port that accepts and never answers hung every
    command (review)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()  # connections complete in the kernel; nothing is ever read
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(IndexConfigError, match=f"cannot reach a Chroma server at {url} "
                                                   r"\(ReadTimeout\)"):
            AbstractIndex(server_settings(url, tmp_path))


@pytest.mark.parametrize("url", ["localhost:8000", "ftp://127.0.0.1:8000", "http://127.0.0.1:x",
                                 "http://[::1", "http://127.0.0.1:99999"])
def test_malformed_server_url_is_refused_by_name(url: str, tmp_path: Path) -> None:
    with pytest.raises(IndexConfigError, match="bad Chroma server URL"):
        AbstractIndex(server_settings(url, tmp_path))


# ---------------------------------------------------------------- same ranking as on disk


def test_eval_through_the_server_equals_the_embedded_store(
        server_app: Assistant, seed_assistant: Assistant) -> None:
    """Same seeds, same questions: the same papers in the same order, the same answers and
    the same hit@k for ours and both baselines (BM25 rebuilt from the server's documents)."""
    items = indexed_items(seed_assistant, load_dataset(DEFAULT_DATASET))[::8]
    assert len(items) >= 10
    embedded = evaluate(seed_assistant, items)
    served = evaluate(server_app, items)
    assert served.metrics["errors"] == 0
    for a, b in zip(embedded.rows, served.rows, strict=True):
        assert (b.retrieved, b.cited, b.answer, b.retrieval) == \
            (a.retrieved, a.cited, a.answer, a.retrieval), a.question
    drop = ("latency_ms_p50", "latency_ms_p95")
    for section in embedded.metrics:
        if isinstance(embedded.metrics[section], dict) and "ours" in embedded.metrics[section]:
            m_a, m_b = embedded.metrics[section], served.metrics[section]
            assert {k: v for k, v in m_b.items() if k not in drop} == \
                {k: v for k, v in m_a.items() if k not in drop}, section
    for system in ("ours", "bm25", "dense"):
        assert served.metrics[system] == embedded.metrics[system]
    for question in ("What is TCCM?", "Which papers study interpretability of model predictions?"):
        a = [(r.paper.paper_id, round(r.score, 5)) for r in seed_assistant.retrieve(question)]
        b = [(r.paper.paper_id, round(r.score, 5)) for r in server_app.retrieve(question)]
        assert a and b == a


# ---------------------------------------------------------------- other writers


def test_a_paper_another_process_ingests_is_answered_everywhere(
        server_app: Assistant, replicas: list[Replica], tmp_path: Path) -> None:
    question = "What is WombatNet?"
    clients = [r.client() for r in replicas]

    def cited(answer: dict[str, object]) -> str:
        citations = answer.get("citations") or []
        return str(citations[0]["source"]) if citations else ""  # type: ignore[index]

    assert not server_app.ask(question).citations  # not there yet
    assert not cited(clients[0].predict(question, 3, api_name="/ask"))
    path = tmp_path / "elsewhere.jsonl"
    path.write_text(json.dumps({"title": "Wombat Burrows", "abstract": "We introduce WombatNet, "
                                "a detector of wombat burrows in drone images."}) + "\n")
    result = cli("ingest", str(path), "--chroma-url", server_app.settings.data.chroma_url or "",
                 "--data-dir", str(tmp_path / "third"))
    assert result.returncode == 0, result.stderr
    assert poll(lambda: [c.source for c in server_app.ask(question).citations][:1]
                == ["elsewhere.jsonl#1"])
    for client in clients:
        assert poll(lambda c=client: cited(c.predict(question, 3, api_name="/ask"))
                    == "elsewhere.jsonl#1")


def test_an_upload_in_one_replica_is_answerable_in_the_other(
        replicas: list[Replica], tmp_path: Path) -> None:
    one, other = (r.client() for r in replicas)
    question = "What is QuokkaSampler?"
    assert not other.predict(question, 3, api_name="/ask")["citations"]
    path = tmp_path / "uploads.csv"
    path.write_text('title,authors,link,abstract\n"Quokka Sampling","A. Author",'
                    '"https://example.org/q","We introduce QuokkaSampler, a sampler for '
                    'marsupial population surveys."\n')
    summary, *_ = one.predict([handle_file(str(path))], api_name="/upload")
    assert "**1** added" in summary
    assert poll(lambda: [c["source"] for c in other.predict(question, 3, api_name="/ask")
                         ["citations"]][:1] == ["uploads.csv#1"])


def test_a_rebuild_elsewhere_leaves_an_open_reader_working(seeded: str, tmp_path: Path) -> None:
    """Another process's --rebuild makes a new collection (a new id): an open reader must
    follow it rather than fail on the deleted one."""
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(json.dumps({"title": "Platypus", "abstract": "We introduce PlatypusNet, "
                                 "a sonar model for river monotremes."}) + "\n")
    second.write_text(json.dumps({"title": "Echidna", "abstract": "We introduce EchidnaNet, "
                                  "a spine counter for echidna photographs."}) + "\n")
    writer = AbstractIndex(server_settings(seeded, tmp_path / "w", "rebuild-test"))
    writer.ingest([first])
    reader = AbstractIndex(server_settings(seeded, tmp_path / "r", "rebuild-test"))
    assert [h.paper_id for h in reader.search_bm25("PlatypusNet", 3)]
    writer.ingest([second], rebuild=True)

    def follows() -> bool:
        titles = {p.title for p in reader.papers().values()}
        return titles == {"Echidna"} and bool(reader.search_bm25("EchidnaNet", 3)) \
            and not reader.search_bm25("PlatypusNet", 3)
    assert poll(follows)
    assert reader.search_dense("spine counter for echidna photographs", 1)[0].text


def test_a_password_in_the_server_url_is_never_shown(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "ask", "--chroma-url",
         "http://admin:s3cretpw@127.0.0.1:1", "--data-dir", str(tmp_path), "What is CRAFT?"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "cannot reach a Chroma server at http://127.0.0.1:1" in result.stderr
    assert "s3cretpw" not in result.stdout + result.stderr and "admin" not in result.stderr
    # a token in the query or fragment is never shown; a user name is no secret to redact
    # ("start one with `[redacted] run`" for the user chroma)
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "ask", "--chroma-url",
         "http://chroma:pw@127.0.0.1:1/api?token=TOPSECRET42xyz#FRAGSECRET", "--data-dir",
         str(tmp_path), "What is CRAFT?"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "at http://127.0.0.1:1 " in result.stderr
    assert "TOPSECRET42xyz" not in result.stderr and "FRAGSECRET" not in result.stderr
    assert "start one with `chroma run" in result.stderr and "[redacted]" not in result.stderr
