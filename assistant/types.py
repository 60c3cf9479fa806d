"""The core data types every surface shares: what was found, and what an answer is.

Kept apart from retrieval and storage so that importing an ``Answer`` (the CLI's JSON, the
UI, the evals, a program using the assistant) loads neither Chroma nor LlamaIndex; this
module imports only pydantic and the stdlib-only ``corpus``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from assistant.corpus import Paper

# The keys of the documented ``assistant ask --json`` object (README, tests/test_cli.py).
PUBLIC_JSON_KEYS = frozenset({
    "question", "answer", "mode", "citations", "sources", "timings_ms", "usage",
    "dropped_citations", "uncited", "truncated",
})


@dataclass(frozen=True)
class RetrievedPaper:
    """A paper found for a question, once, with its best chunk."""

    paper: Paper
    score: float  # the fused score, scaled so that first place in both rankings is 1.0
    chunk: str
    dense: float  # best chunk's cosine similarity (0 when not among the dense candidates)
    coverage: float  # share of the question's keyword weight found in the paper


class SourceRef(BaseModel):
    """A retrieved paper as numbered for this answer."""

    n: int
    paper_id: str
    title: str
    source: str
    score: float


class Citation(BaseModel):
    """A source that the answer cites, with the abstract text for checking the claim."""

    n: int
    paper_id: str
    title: str
    source: str
    text: str
    highlights: list[str] = Field(default_factory=list, description="Sentences the answer used.")


class Answer(BaseModel):
    """One answer, whichever mode wrote it; ``sources`` are exactly what the writer saw."""

    question: str
    answer: str
    mode: Literal["llm", "extractive"]
    model: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    usage: dict[str, int | bool] | None = None
    dropped_citations: list[int] = Field(
        default_factory=list, description="Citation numbers removed: not among the sources.")
    uncited: bool = Field(False, description="A model answer that cites no source at all.")
    truncated: bool = Field(
        False, description="The reply reached the token budget (ASSISTANT_LLM_MAX_TOKENS) and "
        "was cut there.")
    standalone_question: str | None = None

    def public_json(self) -> dict[str, object]:
        """The documented ``assistant ask --json`` object."""
        return self.model_dump(
            include=set(PUBLIC_JSON_KEYS),
            exclude={"citations": {"__all__": {"highlights"}}},
        )
