"""The chat prompt of a cited answer: numbered sources fitted to the model's window.

The sources go in best first, each as a formatted block counted by tiktoken, until the
window less the system prompt, the question and the tokens reserved for the answer is
full; the last one may be shortened. A question that leaves no room for a source is
refused (``BadInputError``) before any model call.
"""

from __future__ import annotations

from functools import cache

import tiktoken

from assistant.answering import NumberedSource, prompt, quoted
from assistant.errors import BadInputError
from assistant.references import byline
from assistant.settings import LLMSettings
from assistant.tuning import MIN_PART_TOKENS, MIN_SOURCE_TOKENS

PROMPT_SLACK = 16  # per-message framing tokens the chat format adds


@cache
def encoding() -> tiktoken.Encoding:
    """The tokenizer every count of the prompt and the reply uses."""
    return tiktoken.get_encoding("cl100k_base")


def count_tokens(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))


def format_source(source: NumberedSource, text: str | None = None) -> str:
    """A source's block: its number, title, where, when and by whom (three names at most),
    locator and text. A sentence citing it is still checked against the abstract alone: a
    byline sentence in the evidence had passed "… was the most cited paper of NeurIPS 2017
    [1]" (a review), so a model's answer naming authors falls back to the quoted answer,
    which heads a paper the question names with its byline (``extractive.headings``)."""
    p = source.found.paper
    about = "; ".join(part for part in (byline(source.ref()), p.source) if part)
    return prompt("source").format(n=source.n, title=quoted(p.title), about=about,
                                   text=quoted(text if text is not None else p.text))


def _fixed_tokens(question: str, template: str = "answer_user") -> int:
    """Tokens of the prompt without sources: system prompt, question and framing."""
    return (count_tokens(prompt("answer_system"))
            + count_tokens(prompt(template).format(sources="", question=question))
            + PROMPT_SLACK)


def check_fits(question: str, settings: LLMSettings) -> None:
    """Refuse (``BadInputError``) a question that leaves no room for sources in the window,
    before any model call."""
    room = settings.context_window - settings.max_tokens - _fixed_tokens(question)
    if room < MIN_SOURCE_TOKENS:
        raise BadInputError(
            f"the question is too long for the model's window: it takes "
            f"{count_tokens(question):,} tokens, and with the prompt and the "
            f"{settings.max_tokens} tokens reserved for the answer (ASSISTANT_LLM_MAX_TOKENS) "
            f"no room is left for sources in {settings.context_window} tokens "
            "(ASSISTANT_LLM_CONTEXT_WINDOW); ask a shorter question")


def select_sources(question: str, sources: list[NumberedSource], settings: LLMSettings,
                   template: str = "answer_user") -> list[tuple[NumberedSource, str]]:
    """The sources, best first, that fit the context window after the system prompt, the
    question and the tokens reserved for the answer, each with its formatted block; the last
    one may be shortened. These, and only these, are the sources the model sees."""
    enc = encoding()
    budget = settings.context_window - settings.max_tokens - _fixed_tokens(question, template)
    kept: list[tuple[NumberedSource, str]] = []
    for source in sources:
        block = format_source(source)
        cost = len(enc.encode(block, disallowed_special=())) + 2
        if cost <= budget:
            kept.append((source, block))
            budget -= cost
            continue
        header = len(enc.encode(format_source(source, ""), disallowed_special=())) + 2
        if budget - header >= MIN_PART_TOKENS:  # room for a useful part of this abstract
            ids = enc.encode(quoted(source.found.paper.text), disallowed_special=())[: budget - header - 2]
            kept.append((source, format_source(source, enc.decode(ids) + " …")))
        break
    return kept


def fit_sources(question: str, sources: list[NumberedSource], settings: LLMSettings) -> list[str]:
    """The formatted blocks of ``select_sources``."""
    return [block for _, block in select_sources(question, sources, settings)]


def build_messages(question: str, sources: list[NumberedSource], settings: LLMSettings,
                   template: str = "answer_user"
                   ) -> tuple[list[dict[str, str]], list[NumberedSource]]:
    """The chat messages and the sources they hold; ``BadInputError`` when none fits.
    ``template``: the user message's prompt (``answer_json_user`` asks for the JSON answer)."""
    check_fits(question, settings)
    kept = select_sources(question, sources, settings, template)
    if sources and not kept:
        raise BadInputError("the question leaves no room for a source in the model's window "
                            "(ASSISTANT_LLM_CONTEXT_WINDOW); ask a shorter question")
    user = prompt(template).format(sources="\n\n".join(b for _, b in kept), question=question)
    messages = [{"role": "system", "content": prompt("answer_system")},
                {"role": "user", "content": user}]
    return messages, [s for s, _ in kept]
