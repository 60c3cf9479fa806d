"""The stored questions: ``evals/qa.jsonl`` read into typed items (schema in evals/README.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assistant.answering import check_question, folded
from assistant.corpus import Paper
from assistant.errors import BadInputError
from assistant.intent import read_intent
from assistant.keywords import document_terms, query_terms
from assistant.settings import PROJECT_ROOT

Kind = Literal["paraphrase", "named", "detail", "multi", "list", "trend", "none"]
Split = Literal["dev", "test"]  # tune constants on dev; report test
DEFAULT_DATASET = PROJECT_ROOT / "evals" / "qa.jsonl"
LOCATOR_RE = re.compile(r".+#\d+")  # a paper's source: "<file>#<n>"
THRESHOLDS = PROJECT_ROOT / "evals" / "thresholds.json"
SHOWN_BAD_LINES = 20  # a file's bad lines named at once
# How a researcher asks for the paper holding a word (issue 36 item 0), one per family of
# phrasings ``intent.lookup_terms`` reads: a term lookup must return the paper holding it.
LOOKUP_PHRASINGS = {
    "which_mentions": "Which paper mentions {word}?",
    "uses_the_word": "Which abstract uses the word {word}?",
    "is_there": "Is there a paper that talks about {word}?",
    "does_any": "Does any paper mention the term '{word}'?",
    "in_which_appears": "In which paper does the word {word} appear?",
    # added after a hostile user's run had them refused (not blind to that run)
    "mentioned_anywhere": "Is {word} mentioned anywhere?",
    "papers_mentioning": "papers mentioning {word}",
    "any_says": "any paper that says {word}?",
}


class DatasetError(BadInputError):
    """A malformed dataset line; the message names the file and line."""


class EvalItem(BaseModel):
    """One stored question (schema in evals/README.md). Only ``question`` and
    ``expected_sources`` are required, so that a user can bring a file of their own; the
    others default as ``load_dataset`` and the README say."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is named, not ignored

    id: str = Field(min_length=1)
    question: str = Field(min_length=3)
    reference_answer: str = ""  # empty: the LLM judge scores no correctness for it
    expected_sources: list[str]
    key_facts: list[str] = Field(default_factory=list)
    kind: Kind
    split: Split = "test"  # a user's question is only reported: nothing is tuned on it
    # Other papers that two blind judges found to answer the question too (pooled from the
    # top of ours, BM25 and dense over the seeds and the distractors): citing or ranking one
    # is right, but recall is still counted over ``expected_sources`` alone (evals/README.md).
    also_relevant: list[str] = Field(default_factory=list)

    @field_validator("expected_sources", "also_relevant")
    @classmethod
    def _stripped(cls, sources: list[str]) -> list[str]:
        """Each source without surrounding spaces: " a.csv#3" is a typo for "a.csv#3"."""
        return [s.strip() for s in sources]

    @property
    def relevant(self) -> list[str]:
        """Every paper a citation or a hit may rightly name."""
        return self.expected_sources + self.also_relevant

    @property
    def answerable(self) -> bool:
        return bool(self.expected_sources)


def load_dataset(path: Path) -> list[EvalItem]:
    """The items of a JSONL file, or a ``DatasetError`` naming the file, the line and the
    field of each bad one, a line each (a user's own file is read the same way as ours):
    one bad line at a time had taken a run's five reruns to find five."""
    lines = _lines(path)
    taken = _written_ids(lines)
    items: list[EvalItem] = []
    seen: set[str] = set()
    bad: list[str] = []
    for line_no, line in lines:
        try:
            item = _parse(path, line_no, line, taken)
        except DatasetError as exc:
            bad.append(str(exc))
            continue
        if item.id in seen:
            bad.append(f"{path}:{line_no}: duplicate id '{item.id}'")
        seen.add(item.id)
        items.append(item)
    if bad:
        more = f"\n… and {len(bad) - SHOWN_BAD_LINES} more bad lines" if len(bad) > SHOWN_BAD_LINES else ""
        raise DatasetError("\n".join(bad[:SHOWN_BAD_LINES]) + more)
    if not items:
        raise DatasetError(f"{path}: holds no questions")
    return items


def _lines(path: Path) -> list[tuple[int, str]]:
    """The file's non-blank lines with their numbers. Split on "\\n" alone: U+2028 or U+0085
    inside a JSON string is valid JSON that ``str.splitlines`` would cut in two. A leading
    UTF-8 byte-order mark is dropped; text that is not UTF-8 is named with its line."""
    if not path.is_file():
        raise DatasetError(f"{path}: no such dataset file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_no = data.count(b"\n", 0, exc.start) + 1
        raise DatasetError(f"{path}:{line_no}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                           "save the file as UTF-8") from None
    return [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]


def _written_ids(lines: list[tuple[int, str]]) -> set[str]:
    """The ids the file spells out, so that a made-up one (``q<line>``) never takes one."""
    ids: set[str] = set()
    for _, line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # named when the line is parsed
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            ids.add(record["id"])
    return ids


def _parse(path: Path, line_no: int, line: str, taken: set[str]) -> EvalItem:
    """One line as an item, or a ``DatasetError`` naming the line and the field."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from None
    if not isinstance(record, dict):  # pydantic would say "instance of EvalItem"
        raise DatasetError(f"{path}:{line_no}: a line must be one JSON object, "
                           f"{{\"question\": …, \"expected_sources\": […]}}, not "
                           f"{_json_kind(record)}")
    try:
        item = EvalItem.model_validate(_with_defaults(record, line_no, taken))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        raise DatasetError(f"{path}:{line_no}: field '{where}': {first['msg']}") from None
    problem = _problem(item)
    if problem:
        raise DatasetError(f"{path}:{line_no}: {problem}")
    return item


def _problem(item: EvalItem) -> str | None:
    """What is wrong with a well-formed item, as the rest of its message, or None."""
    try:  # the pipeline's own check: an over-long question would be scored as a refusal
        check_question(item.question)
    except BadInputError as exc:
        return f"field 'question': {exc}"
    if not all(LOCATOR_RE.fullmatch(s) for s in item.expected_sources):
        return ("field 'expected_sources': name each paper by its source, '<file>#<n>' (the "
                "'source' in assistant ask --json)")
    twice = next((s for n, s in enumerate(item.expected_sources)
                  if s in item.expected_sources[:n]), None)
    if twice is not None:  # most often a copy slip: the second was meant to be another paper
        return (f"field 'expected_sources': '{twice}' is listed twice; name each paper once")
    if (item.kind == "none") != (not item.expected_sources):
        return "kind 'none' goes with empty expected_sources, and only it"
    if item.also_relevant and (item.kind == "none"
                               or set(item.also_relevant) & set(item.expected_sources)
                               or len(set(item.also_relevant)) < len(item.also_relevant)
                               or not all(LOCATOR_RE.fullmatch(s) for s in item.also_relevant)):
        return ("'also_relevant' names other papers than the expected ones, each once, as "
                "'<file>#<n>'; never for kind 'none'")
    return None


def _json_kind(value: object) -> str:
    """What a JSON value that is no object is, as its line's error names it."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return "a boolean" if isinstance(value, bool) else "a number"


def _with_defaults(record: dict[str, object], line_no: int, taken: set[str]
                   ) -> dict[str, object]:
    """A line's fields with the made-up ones filled in: ``id`` ``q<line>`` (or, when the
    file itself uses that id elsewhere, ``q<line>-<k>``, so that it never clashes) when it
    is missing or null (as a JSON writer spells a missing value), and ``kind`` (missing or
    null) ``none`` for a question no paper answers (empty ``expected_sources``), else as
    the question asks (``_asked_kind``)."""
    made_up, k = f"q{line_no}", 1
    while made_up in taken:
        k += 1
        made_up = f"q{line_no}-{k}"
    filled = {**record, "id": made_up if record.get("id") is None else record["id"]}
    if record.get("kind") is None and isinstance(record.get("expected_sources"), list):
        filled["kind"] = (_asked_kind(record.get("question")) if record["expected_sources"]
                          else "none")
    return filled


def _asked_kind(question: object) -> Kind:
    """The kind of an answerable question that gives none, as `assistant ask` reads the
    question: ``trend`` for papers counted per year (or two topics' counts compared),
    ``list`` for every paper that answers ("Which papers use capsule networks?"), else
    ``paraphrase``. A label for the report's breakdown: each question is answered as `ask`
    answers it whatever its kind (``scoring.evaluate``)."""
    if not isinstance(question, str):
        return "paraphrase"  # validation names the field
    intent = read_intent(folded(question))
    if intent.trend_topic is not None or intent.compared_topics is not None:
        return "trend"
    return "list" if intent.wants_list else "paraphrase"


def words_one_abstract_uses(papers: Iterable[Paper]) -> dict[str, str]:
    """Words of eight letters or more that exactly one abstract uses, stem and all (as BM25
    sees them), each with that paper's id, in alphabetical order."""
    by_stem: dict[str, set[str]] = {}
    by_word: dict[str, set[str]] = {}
    for paper in papers:
        for stem in document_terms(f"{paper.title}. {paper.text}"):  # as the index holds them
            by_stem.setdefault(stem, set()).add(paper.paper_id)
        for word in set(re.findall(r"[a-z]{8,}", paper.text.lower())):
            by_word.setdefault(word, set()).add(paper.paper_id)
    return {w: next(iter(by_word[w])) for w in sorted(by_word) if len(by_word[w]) == 1
            and len(stems := query_terms(w)) == 1 and by_stem.get(stems[0]) == by_word[w]}


def rare_word_probes(papers: Iterable[Paper], count: int = 12) -> list[tuple[str, str]]:
    """(question, paper_id) for words that exactly one abstract uses
    (``words_one_abstract_uses``), chosen evenly through the alphabet and asked as a keyword
    search ("What about deconvolution?"): the paper must come back near the top."""
    once = words_one_abstract_uses(papers)
    step = max(1, len(once) // count)
    return [(f"What about {w}?", once[w]) for w in list(once)[::step][:count]]
