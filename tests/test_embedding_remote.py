"""`openai:<model>` embeddings against a real local /v1/embeddings server: batching, several
requests in flight, retries on 429/5xx, and a clear error when the endpoint's vectors do not
fit the stored index."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import make_settings
from fake_openai import FakeEmbeddings

from assistant.embedding import EmbeddingEndpointError, OpenAICompatibleEmbedding, load_embedding
from assistant.errors import EXIT_BAD_INPUT, EXIT_ENDPOINT
from assistant.index import AbstractIndex


@pytest.fixture
def server() -> Iterator[FakeEmbeddings]:
    with FakeEmbeddings() as fake:
        yield fake


def remote(fake: FakeEmbeddings, tmp_path: Path, batch: int = 4, concurrency: int = 3,
           retries: int = 2) -> OpenAICompatibleEmbedding:
    settings = make_settings(tmp_path, base_url=fake.base_url, retries=retries, timeout=30)
    settings.index.embed_model = "openai:fake-embed"
    settings.index.embed_batch_size, settings.index.embed_concurrency = batch, concurrency
    model = load_embedding(settings)
    assert isinstance(model, OpenAICompatibleEmbedding)
    return model


def expected(fake: FakeEmbeddings, texts: list[str]) -> np.ndarray:
    vectors = np.array([fake.vector(t) for t in texts], dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_many_texts_go_in_batches_several_at_a_time_and_come_back_in_order(
        server: FakeEmbeddings, tmp_path: Path) -> None:
    server.delay = 0.5  # long enough that the pool's requests overlap on any machine
    texts = [f"abstract number {i} about topic {i % 7}" for i in range(22)]
    done: list[int] = []
    vectors = remote(server, tmp_path).embed(texts, done.append)
    assert sorted(server.batches) == [2, 4, 4, 4, 4, 4]  # 22 texts in batches of 4
    assert server.max_in_flight >= 2  # the pool of 3 had requests in flight together
    assert server.max_in_flight <= 3
    np.testing.assert_allclose(vectors, expected(server, texts), rtol=1e-5, atol=1e-6)
    assert sum(done) == 22


def test_429_and_5xx_are_retried(server: FakeEmbeddings, tmp_path: Path) -> None:
    server.faults = [429, 503]
    vectors = remote(server, tmp_path, retries=2).embed(["one abstract"])
    assert server.statuses == [429, 503, 200]
    np.testing.assert_allclose(vectors, expected(server, ["one abstract"]), rtol=1e-5, atol=1e-6)


def test_failures_beyond_the_retries_are_one_endpoint_error(server: FakeEmbeddings,
                                                            tmp_path: Path) -> None:
    server.faults = [500, 502, 500]
    with pytest.raises(EmbeddingEndpointError) as caught:
        remote(server, tmp_path, retries=1).embed(["one abstract"])
    assert server.statuses == [500, 502]  # one try, one retry
    message = str(caught.value)
    assert "HTTP 502" in message and server.base_url in message and "\n" not in message
    assert caught.value.exit_code == EXIT_ENDPOINT


def write_csv(path: Path, start: int, count: int) -> Path:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["title", "abstract"])
        for i in range(start, start + count):
            writer.writerow([f"Paper {i}", f"We study problem {i} with method M{i}. "
                             f"Our results on benchmark B{i} improve the state of the art."])
    return path


def cli(fake: FakeEmbeddings, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    env.update(ASSISTANT_INDEX_EMBED_MODEL="openai:fake-embed", ASSISTANT_LLM_BASE_URL=fake.base_url,
               ASSISTANT_INDEX_EMBED_BATCH_SIZE="2", ASSISTANT_INDEX_EMBED_CONCURRENCY="3")
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=180)


@pytest.mark.slow
def test_ingest_through_an_endpoint_then_a_dimension_change_is_one_clear_line(
        server: FakeEmbeddings, tmp_path: Path) -> None:
    server.delay = 0.3
    data = tmp_path / "data"
    first = cli(server, "ingest", str(write_csv(tmp_path / "a.csv", 0, 12)), "--data-dir",
                str(data), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "papers: 12 (12 added" in first.stdout
    assert len(server.batches) == 6 and max(server.batches) == 2  # 12 chunks, 2 per request
    assert server.max_in_flight >= 2  # requests overlapped during the ingest

    server.dim = 8  # the endpoint now serves another model
    second = cli(server, "ingest", str(write_csv(tmp_path / "b.csv", 100, 3)), "--data-dir",
                 str(data), cwd=tmp_path)
    assert second.returncode == EXIT_BAD_INPUT, second.stderr
    lines = [line for line in second.stderr.strip().splitlines()
             if not line.startswith("embedding abstracts: ")]  # progress lines aside
    assert len(lines) == 1 and "Traceback" not in second.stderr, second.stderr
    assert "8-dimensional" in lines[0] and "384-dimensional" in lines[0]
    assert "--rebuild" in lines[0] and "ASSISTANT_LLM_BASE_URL back" in lines[0]
    # offline, no endpoint changed: the fix named is the model setting (review: it told
    # MiniLM users to point ASSISTANT_LLM_BASE_URL back)
    from assistant.embedding import dimension_mismatch

    offline = str(dimension_mismatch(384, 768, "all-MiniLM-L6-v2"))
    assert "ASSISTANT_INDEX_EMBED_MODEL" in offline and "BASE_URL" not in offline

    settings = make_settings(data, base_url=server.base_url)  # nothing stored was lost
    settings.index.embed_model = "openai:fake-embed"
    assert len(AbstractIndex(settings).papers()) == 12

    asked = cli(server, "ask", "What is paper 3 about?", "--data-dir", str(data), cwd=tmp_path)
    assert asked.returncode == EXIT_BAD_INPUT and "Traceback" not in asked.stderr, asked.stderr
    assert "8-dimensional" in asked.stderr and "384-dimensional" in asked.stderr
