"""Every setting in one pydantic-settings object, built from small sub-models.

Environment variables read as ``ASSISTANT_<GROUP>_<FIELD>`` (for example
``ASSISTANT_LLM_BASE_URL`` or ``ASSISTANT_RETRIEVAL_TOP_K``); a ``.env`` file in the working
directory is read too. ``.env.example`` lists them all.
"""

from __future__ import annotations

import os
import re
from importlib.resources import files
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_EMBED_MODEL = "all-MiniLM-L6-v2-onnx-int8"
# The checkout's root (evals/, bench/, tests/); an installed wheel has only the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
# prompts/ and seeds/ ship inside the package (in a checkout, links to the top-level folders).
PACKAGE_SEEDS = Path(str(files("assistant") / "seeds"))
PACKAGE_PROMPTS = Path(str(files("assistant") / "prompts"))


def default_data_dir() -> Path:
    """A per-user directory (``~/.local/share/abstracts-assistant`` on Linux), so the index
    does not depend on the folder the command is run from."""
    return Path(platformdirs.user_data_dir("abstracts-assistant", appauthor=False))


DEFAULT_COLLECTION = "abstracts"


class DataSettings(BaseModel):
    """Where the index lives on disk."""

    dir: Path = Field(default_factory=default_data_dir,
                      description="Chroma store and BM25 index directory (default: per user).")
    collection: str = Field(
        DEFAULT_COLLECTION, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]$",
        description="Chroma collection name (3–512 letters, digits, '.', '_' or '-').")

    @field_validator("collection")
    @classmethod
    def _no_double_dot(cls, name: str) -> str:
        if ".." in name:
            raise ValueError("a collection name may not hold '..'")
        if re.fullmatch(r"\d+\.\d+\.\d+\.\d+", name):
            raise ValueError("a collection name may not be an IP address")
        return name
    seeds: Path = Field(PACKAGE_SEEDS, description="Ingested into an empty index.")
    # Several processes (serve replicas, ingests) on several machines share one store this
    # way; the data directory then only holds each process's local copy of the BM25 index.
    chroma_url: str | None = Field(
        None, description="A Chroma server (`chroma run --path DIR --port N`), e.g. "
        "http://127.0.0.1:8000; unset: the embedded store in the data directory.")


class IndexSettings(BaseModel):
    """How abstracts become chunks and vectors."""

    # MiniLM reads at most 256 word pieces; 200 tiktoken tokens keep every chunk inside that
    # window, so no part of an abstract is silently cut off by the embedder.
    chunk_size: int = Field(200, ge=32, description="Chunk size in tiktoken tokens.")
    chunk_overlap: int = Field(40, ge=0, description="Overlap between chunks, in tokens.")
    embed_model: str = Field(
        DEFAULT_EMBED_MODEL,
        description=f"'{DEFAULT_EMBED_MODEL}' (offline, bundled) or 'openai:<model>' "
        "served by the configured endpoint.",
    )
    embed_batch_size: int = Field(32, ge=1)
    embed_concurrency: int = Field(
        4, ge=1, le=64, description="Requests in flight at once to a remote (openai:) "
        "embedding endpoint during an ingest.")
    max_abstract_chars: int = Field(
        20_000, ge=1_000, description="A longer abstract field is kept by its opening, cut at "
        "a sentence end within the limit (one where no sentence ends within it is skipped)."
    )

    @model_validator(mode="after")
    def _overlap_under_size(self) -> IndexSettings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(f"ASSISTANT_INDEX_CHUNK_OVERLAP ({self.chunk_overlap}) must be "
                             f"smaller than ASSISTANT_INDEX_CHUNK_SIZE ({self.chunk_size})")
        return self


MAX_TOP_K = 50  # papers one question may ask for, wherever it is asked
MAX_LIST_REREAD = 5000  # uncertain papers one list may read, wherever it is asked


class RetrievalSettings(BaseModel):
    """How many papers to retrieve and how to fuse the two rankings."""

    top_k: int = Field(5, ge=1, le=MAX_TOP_K, description="Papers returned per question.")
    candidates: int = Field(50, ge=5, description="Chunks taken from each ranking before fusion.")
    fusion: Literal["learned", "dbsf", "rrf"] = Field(
        "learned", description="The learned ranker over both rankings (ranking.py), "
        "distribution-based score fusion, or reciprocal-rank fusion.")
    bm25_weight: float = Field(1.0, ge=0, description="Weight of the BM25 ranking in fusion.")
    dense_weight: float = Field(1.0, ge=0, description="Weight of the dense ranking in fusion.")
    rrf_k: int = Field(60, ge=1, description="Rank constant of reciprocal-rank fusion.")
    min_dense: float = Field(
        0.30, description="A paper passes the relevance floor with this cosine similarity..."
    )
    min_coverage: float = Field(
        0.45, description="...or when it holds this share of the question's keyword weight."
    )
    list_reread: int = Field(
        30, ge=1, le=MAX_LIST_REREAD, description="Uncertain papers a list question's screen reads at "
        "most (a trend's, at least 200): more reads a large topic whole, slower, and keeps "
        "more papers that may not answer (docs/lists.md).")
    rerank: bool = Field(
        True, description="A cross-encoder reads the answer's first 2 papers: it refuses a "
        "question neither answers (calibrated), and reorders the first 3 when the learned "
        "ranker is less than 90% sure of its first (reranking.py).")


class LLMSettings(BaseModel):
    """An OpenAI-compatible chat endpoint; without base_url/model the answer is extractive."""

    base_url: str | None = Field(None, description="e.g. https://api.openai.com/v1")
    model: str | None = Field(None, description="e.g. gpt-4o-mini, or a vLLM/Ollama model.")
    api_key: SecretStr | None = Field(None, description="Falls back to OPENAI_API_KEY.")
    context_window: int = Field(8192, ge=512, description="Model context in tokens.")
    max_tokens: int = Field(600, ge=16, description="Tokens reserved for the answer.")
    temperature: float = 0.1
    timeout: float = Field(
        60.0, gt=0, description="Overall deadline in seconds for one answer, retries included.")
    relevance_check: bool = Field(
        False, description="Before answering, the model marks which retrieved abstracts help "
        "answer the question; the others are dropped (none left: no answer).")
    retries: int = Field(
        2, ge=0, le=10, description="Retries of a 429/5xx reply or a failed connection before "
        "the first token (Retry-After is honoured within the deadline).")
    cite_mode: Literal["auto", "constrained", "free"] = Field(
        "auto", description="How the model cites: 'constrained' asks for a JSON schema "
        "(sentences, each with its source numbers), 'free' for text with [n] markers; 'auto' "
        "uses the schema where the endpoint accepts it. Every answer is checked sentence by "
        "sentence against its sources either way.")

    @property
    def enabled(self) -> bool:
        return bool(self.model)

    @property
    def key(self) -> str | None:
        if self.api_key is not None:
            return self.api_key.get_secret_value()
        return os.environ.get("OPENAI_API_KEY")


class ServeSettings(BaseModel):
    """The Gradio app."""

    host: str = Field("127.0.0.1", description="Loopback unless told otherwise.")
    port: int = 7860
    username: str | None = Field(None, description="Login is on when both are set.")
    password: SecretStr | None = None


class Settings(BaseSettings):
    """The whole configuration; build it with ``Settings()`` to read the environment."""

    model_config = SettingsConfigDict(
        env_prefix="ASSISTANT_",
        env_nested_delimiter="_",
        env_nested_max_split=1,
        env_file=".env",
        extra="ignore",
    )

    data: DataSettings = DataSettings()
    index: IndexSettings = IndexSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    llm: LLMSettings = LLMSettings()
    serve: ServeSettings = ServeSettings()
