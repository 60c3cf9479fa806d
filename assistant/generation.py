"""Cited answers from an OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp).

The prompt holds numbered sources fitted to the model's context budget by tiktoken counts;
the reply is streamed through the citation filter, so an invented [9] never reaches the
reader.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import tiktoken

from assistant.answering import (
    Answer,
    AnswerStream,
    NumberedSource,
    StreamingCitationFilter,
    build_citations,
    prompt,
)
from assistant.settings import LLMSettings


class GenerationError(RuntimeError):
    """The endpoint could not produce an answer; the message is for the reader."""


def _encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding("cl100k_base")


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text))


def format_source(source: NumberedSource, text: str | None = None) -> str:
    p = source.found.paper
    return prompt("source").format(n=source.n, title=p.title, source=p.source,
                                   text=text if text is not None else p.text)


def fit_sources(question: str, sources: list[NumberedSource], settings: LLMSettings) -> list[str]:
    """Formatted sources, best first, that fit the context window after the system prompt,
    the question and the tokens reserved for the answer; the last one may be shortened."""
    enc = _encoding()
    fixed = count_tokens(prompt("answer_system")) + count_tokens(
        prompt("answer_user").format(sources="", question=question)
    )
    budget = settings.context_window - settings.max_tokens - fixed - 16
    blocks: list[str] = []
    for source in sources:
        block = format_source(source)
        cost = len(enc.encode(block)) + 2
        if cost <= budget:
            blocks.append(block)
            budget -= cost
            continue
        header = len(enc.encode(format_source(source, ""))) + 2
        if budget - header >= 48:  # room for a useful part of this abstract
            ids = enc.encode(source.found.paper.text)[: budget - header]
            blocks.append(format_source(source, enc.decode(ids) + " …"))
        break
    return blocks


def build_messages(question: str, sources: list[NumberedSource], settings: LLMSettings
                   ) -> list[dict[str, str]]:
    blocks = fit_sources(question, sources, settings)
    user = prompt("answer_user").format(sources="\n\n".join(blocks), question=question)
    return [{"role": "system", "content": prompt("answer_system")},
            {"role": "user", "content": user}]


class ChatModel:
    """A thin wrapper over the ``openai`` client that turns its errors into readable ones."""

    def __init__(self, settings: LLMSettings) -> None:
        from openai import OpenAI

        self.settings = settings
        self.client = OpenAI(
            base_url=settings.base_url,
            api_key=settings.key or "not-needed",
            timeout=settings.timeout,
            max_retries=0,
        )

    @property
    def where(self) -> str:
        return self.settings.base_url or "https://api.openai.com/v1"

    def stream(self, messages: list[dict[str, str]], max_tokens: int | None = None
               ) -> Iterator[str | dict[str, int]]:
        """Text deltas, then a usage dict when the server reports one."""
        import openai

        try:
            response: Any = self.client.chat.completions.create(
                model=self.settings.model or "",
                messages=messages,  # type: ignore[arg-type]
                temperature=self.settings.temperature,
                max_tokens=max_tokens or self.settings.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
            )
            for chunk in response:
                if chunk.choices and chunk.choices[0].delta and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content
                if getattr(chunk, "usage", None):
                    yield {
                        "prompt_tokens": chunk.usage.prompt_tokens,
                        "completion_tokens": chunk.usage.completion_tokens,
                        "total_tokens": chunk.usage.total_tokens,
                    }
        except openai.AuthenticationError as exc:
            raise GenerationError(f"the model endpoint {self.where} rejected the API key "
                                  "(set ASSISTANT_LLM_API_KEY or OPENAI_API_KEY)") from exc
        except openai.NotFoundError as exc:
            raise GenerationError(f"the model '{self.settings.model}' was not found at "
                                  f"{self.where} (check ASSISTANT_LLM_MODEL)") from exc
        except openai.APITimeoutError as exc:
            raise GenerationError(f"the model endpoint {self.where} did not answer within "
                                  f"{self.settings.timeout:g} s (ASSISTANT_LLM_TIMEOUT)") from exc
        except openai.APIConnectionError as exc:
            raise GenerationError(f"cannot reach the model endpoint {self.where} "
                                  "(check ASSISTANT_LLM_BASE_URL, or unset ASSISTANT_LLM_MODEL "
                                  "for offline extractive answers)") from exc
        except openai.APIStatusError as exc:
            raise GenerationError(f"the model endpoint {self.where} answered HTTP "
                                  f"{exc.status_code}: {_short(exc.message)}") from exc

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 200) -> str:
        return "".join(d for d in self.stream(messages, max_tokens) if isinstance(d, str)).strip()


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "…"


def generate(question: str, sources: list[NumberedSource], model: ChatModel) -> AnswerStream:
    """Stream a cited answer; the last event is the ``Answer`` (timings filled by the caller)."""
    messages = build_messages(question, sources, model.settings)
    filt = StreamingCitationFilter({s.n for s in sources})
    parts: list[str] = []
    usage: dict[str, int | bool] | None = None
    for delta in model.stream(messages):
        if isinstance(delta, dict):
            usage = dict(delta)
            continue
        clean = filt.feed(delta)
        if clean:
            parts.append(clean)
            yield clean
    tail = filt.flush()
    if tail:
        parts.append(tail)
        yield tail
    text = "".join(parts).strip()
    if usage is None:  # the server did not report usage: count it ourselves
        prompt_tokens = sum(count_tokens(m["content"]) for m in messages)
        completion = count_tokens(text)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion,
                 "total_tokens": prompt_tokens + completion, "estimated": True}
    yield Answer(
        question=question,
        answer=text,
        mode="llm",
        model=model.settings.model,
        citations=build_citations(text, sources),
        sources=[s.ref() for s in sources],
        usage=usage,
        dropped_citations=filt.dropped,
    )
