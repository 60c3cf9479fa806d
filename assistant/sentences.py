"""An answer's sentences as they stream in, from the JSON a schema asks for or from text.

A model asked for JSON (``answer_schema``) writes ``{"sentences": [{"text", "sources"}]}``;
one asked for text writes sentences with [n] markers. Either way the reader hands out each
sentence once it is complete, with the source numbers it gave split into those of a source
and those of none, so the checks (citesafe.py) can score it before it is shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import from_json

from assistant.answering import cited_numbers, clean_citations, without_markers
from assistant.claims import claim_sentences

SCHEMA_SHAPES = ("json_schema", "json_object")
MAX_SENTENCES = 8
MAX_SENTENCE_CHARS = 400
MAX_CITED = 4


def answer_schema(numbers: Sequence[int]) -> dict[str, Any]:
    """The JSON schema of an answer: its sentences, each with the numbers of its sources,
    limited to ``numbers`` (the sources given)."""
    return {
        "type": "object",
        "properties": {"sentences": {"type": "array", "items": {
            "type": "object",
            "properties": {"text": {"type": "string"},
                           "sources": {"type": "array",
                                       "items": {"type": "integer", "enum": list(numbers)}}},
            "required": ["text", "sources"],
            "additionalProperties": False,
        }}},
        "required": ["sentences"],
        "additionalProperties": False,
    }


def response_format(shape: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The request's ``response_format`` in one of SCHEMA_SHAPES: OpenAI's structured outputs
    (vLLM, Ollama and llama.cpp's own server read it too), or llama-cpp-python's, whose
    grammar also gets bounds (a small model looped "sources": [1, 1, 1, …] to the budget)."""
    if shape == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": "cited_answer", "strict": True, "schema": schema}}
    return {"type": "json_object", "schema": bounded(schema)}


def bounded(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with at most MAX_SENTENCES sentences of MAX_SENTENCE_CHARS, each citing at
    most MAX_CITED sources (keywords OpenAI's strict mode may refuse, so only in this shape)."""
    item = schema["properties"]["sentences"]["items"]
    props = item["properties"]
    return {**schema, "properties": {"sentences": {
        "type": "array", "maxItems": MAX_SENTENCES,
        "items": {**item, "properties": {
            "text": {**props["text"], "maxLength": MAX_SENTENCE_CHARS},
            "sources": {**props["sources"], "maxItems": MAX_CITED}}}}}}



class NotTheJSON(Exception):
    """The reply is not the JSON answer the schema asked for; ``reply``: what came of it."""

    def __init__(self, reply: str = "") -> None:
        super().__init__("not the JSON answer asked for")
        self.reply = reply

    @property
    def began_as_json(self) -> bool:
        """The reply set out as the JSON asked for (the endpoint honours the schema) and
        went wrong later: a model's slip, not an endpoint that ignores the format."""
        return self.reply.lstrip()[:1] in ("{", "`")


@dataclass
class Sentence:
    """A sentence as the model wrote it: its text without markers, the source numbers it
    gave that are sources, and those that are not."""

    text: str
    cites: list[int]
    invalid: list[int] = field(default_factory=list)


def _split_numbers(numbers: Iterable[int], valid: set[int]) -> tuple[list[int], list[int]]:
    good: list[int] = []
    bad: list[int] = []
    for n in numbers:
        target = good if n in valid else bad
        if n not in target:
            target.append(n)
    return good, bad


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().strip("[]").isdigit():
        return int(value.strip().strip("[]"))
    return None


class JsonSentences:
    """The sentences of a growing JSON answer (``{"sentences": [{"text", "sources"}]}``),
    each handed out once complete: when the next has begun, or the reply has ended. The JSON
    is read by pydantic_core's partial parser (a Markdown fence around it is allowed)."""

    def __init__(self, valid: set[int]) -> None:
        self.valid = valid
        self.buffer = ""
        self.taken = 0

    def looks_like_json(self) -> bool:
        head = self.buffer.lstrip()
        return not head or head[0] in "{`"

    def feed(self, delta: str) -> list[Sentence]:
        self.buffer += delta
        if not self.looks_like_json():
            raise NotTheJSON
        if "{" not in delta:  # no new sentence began: none was completed
            return []
        items = self._items(partial=True)
        return self._take((items or [])[:-1])

    def finish(self, truncated: bool) -> list[Sentence]:
        items = None if truncated else self._items(partial=False)
        if items is None:  # cut off, or ended early: the last item may be incomplete
            items = self._items(partial=True)
            if items is None:
                raise NotTheJSON
            items = items[:-1]
        return self._take(items)

    def _items(self, partial: bool) -> list[Any] | None:
        text = controls_as_spaces(re.sub(r"^\s*```(?:json)?|```\s*$", "", self.buffer.strip()))
        try:
            data = from_json(text, allow_partial=partial)
        except ValueError:
            return None
        items = data.get("sentences") if isinstance(data, dict) else None
        return items if isinstance(items, list) else None

    def _take(self, items: list[Any]) -> list[Sentence]:
        new, self.taken = items[self.taken:], max(self.taken, len(items))
        return [s for item in new for s in self._sentences(item)]

    def _sentences(self, item: Any) -> list[Sentence]:
        """An item's sentences (a model may put several in one "text"), each with its
        sources and the numbers inside the text."""
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            return []
        raw = item.get("sources")
        given = [n for n in map(_as_int, raw if isinstance(raw, list) else []) if n is not None]
        found = []
        for part in claim_sentences(latex_commands(item["text"])) or [""]:
            text, dropped = clean_citations(part, self.valid)  # markers inside the text
            good, bad = _split_numbers(given + cited_numbers(text) + dropped, self.valid)
            text = unmarked(text)
            if text or bad:
                found.append(Sentence(text, good, bad))
        return found


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?$)', re.S)  # to its end when cut off
_ESCAPE_OR_CONTROL = re.compile(r"(\\.)|[\x00-\x1f]", re.S)  # an escaped character stays


def controls_as_spaces(text: str) -> str:
    """JSON ``text`` with the control characters written raw inside its strings made spaces:
    a small model breaks its sentence with a raw line break, which JSON forbids, and the
    whole reply had been thrown away as "not the JSON asked for" (a run's, Gemma 270M); an
    escape would have made a raw tab before "TransGAN" a LaTeX "\\t…" (a review's)."""
    return _JSON_STRING.sub(lambda string: _ESCAPE_OR_CONTROL.sub(
        lambda char: char.group(1) or " ", string.group()), text)


# A JSON escape that ate a LaTeX command's backslash: a model copying "\textit{…}" or
# "\beta" from an abstract writes it unescaped, and JSON reads "\t" as a tab, "\b" as a
# backspace. Followed by letters, such a control character was the command's backslash.
_EATEN_BACKSLASH = re.compile(r"[\t\b\f\r](?=[A-Za-z]{2})")
_ESCAPE_LETTER = {"\t": "t", "\b": "b", "\f": "f", "\r": "r"}


def latex_commands(text: str) -> str:
    r"""``text`` with the LaTeX commands a JSON escape ate restored ("\textit", not a tab
    and "extit"), so the sentence reads, and is checked, as the abstract writes it."""
    return _EATEN_BACKSLASH.sub(lambda m: "\\" + _ESCAPE_LETTER[m.group()], text)


class TextSentences:
    """The sentences of a growing free-text answer with [n] markers, each handed out once the
    next sentence has words (so the markers after it are all there)."""

    def __init__(self, valid: set[int]) -> None:
        self.valid = valid
        self.buffer = ""
        self.taken = 0

    def feed(self, delta: str) -> list[Sentence]:
        self.buffer += delta
        if not re.search(r"[.!?:\n]", delta):  # no sentence can have ended
            return []
        parts = claim_sentences(self.buffer)
        ready = max((i for i, p in enumerate(parts) if i > 0 and _has_words(p)), default=0)
        return self._take(parts[:ready])

    def finish(self, truncated: bool) -> list[Sentence]:
        parts = claim_sentences(self.buffer)
        return self._take(parts[:-1] if truncated else parts)  # a cut-off sentence is no claim

    def _take(self, parts: list[str]) -> list[Sentence]:
        new, self.taken = parts[self.taken:], max(self.taken, len(parts))
        found = []
        for part in new:
            text, dropped = clean_citations(part, self.valid)
            good, bad = _split_numbers(cited_numbers(text) + dropped, self.valid)
            text = unmarked(text)
            if text or bad:  # a bare "[99]" is no sentence, but its number is reported
                found.append(Sentence(text, good, bad))
        return found


def unmarked(text: str) -> str:
    """The sentence without its markers, its spaces as a sentence has them."""
    return re.sub(r"\s+([.,;:!?])", r"\1", " ".join(without_markers(text).split()))


def _has_words(part: str) -> bool:
    return bool(re.search(r"[^\W\d_]", without_markers(part)))
