"""Cite-safe model answers: citations right by construction, and checked before they are shown.

Three layers, each catching what the one before lets through:

1. Constrained output (``ASSISTANT_LLM_CITE_MODE`` auto or constrained): the model is asked
   for JSON that follows a schema, the answer's sentences each with the numbers of the
   sources it rests on, those numbers an enum of the sources given. An endpoint that turns
   the schema into a grammar (llama.cpp, vLLM guided decoding, Ollama, OpenAI structured
   outputs) cannot write the number of no source. Two shapes are sent in turn: OpenAI's
   ``json_schema``, then llama-cpp-python's ``json_object`` with a ``schema``. An endpoint
   that refuses both (HTTP 400/422 naming the response format), or whose reply is not the
   JSON asked for, is asked again with the free-text prompt, once, and remembered (per base
   URL and model) for the rest of the process.
2. Post-hoc attribution, in every mode: each sentence is scored by the claim checker against
   the sources it cites; one left uncited, citing a number of no source, or citing a source
   that does not support it gets the source that supports it best (origin "assistant") when
   that support reaches the checker's threshold. Otherwise a number of no source is dropped
   (``dropped_citations``) and the sentence is marked unsupported.
3. The gate: an answer that fails the checks (most sentences unsupported, none supported,
   the prompt echoed, nothing written before the token budget ran out) is never shown as the
   answer. The reader gets its supported sentences, or else the extractive answer, with one
   line saying why (``Answer.unchecked``); the reply as it came is ``Answer.model_reply``.
   An answer shown is read beside the extractive one, whose quotes follow it when they
   answer the question clearly better or cover what it misses (quoted_answers.py).

Streaming follows the gate: sentences are shown one by one as they are checked, in order,
while every one so far is supported; from the first that is not, they wait for the verdict,
so nothing the gate would take back is ever shown.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Literal

from assistant.answering import AnswerStream, NumberedSource, build_citations, is_refusal, prompt
from assistant.claims import ClaimChecker, claim_text, is_claim, local_stats, reception_unsaid, unfinished
from assistant.corpus import split_sentences
from assistant.errors import redact
from assistant.extractive import each_named
from assistant.generation import (
    ChatModel,
    GenerationError,
    SchemaRefused,
    StreamEnd,
    build_messages,
    reply_usage,
)
from assistant.intent import read_intent
from assistant.keywords import KeywordStats, query_terms
from assistant.quoted_answers import Fallback, instead, with_quotes
from assistant.sentences import (
    SCHEMA_SHAPES,
    JsonSentences,
    NotTheJSON,
    Sentence,
    TextSentences,
    answer_schema,
    response_format,
)
from assistant.tuning import ECHO_RUN, MIN_SOURCE_SCORE
from assistant.types import Answer, Claim, Verdict

CiteMode = Literal["constrained", "free"]
FREE = "free"
log = logging.getLogger(__name__)
# What each endpoint (base URL, model) accepted in this process: a schema shape, or FREE.
_ENDPOINT_MODE: dict[tuple[str, str], str] = {}
_TEMPLATE_TAGS = re.compile(
    r"\[/?INST\]|<</?SYS>>|<\|?(?:start_of_turn|end_of_turn|im_start|im_end|eot_id|"
    r"start_header_id|end_header_id|begin_of_text|endoftext)\|?>|###\s*(?:Instruction|Response)",
    re.I)
_TEMPLATE_WORDS = re.compile(r"\bSources:|\bQuestion:|Answer with citations|Reply in JSON")
_WORD = re.compile(r"[a-z0-9]+")
_WHICH = re.compile(r"\s*which\s+(?:paper|work|method|model|approach|one)s?\b", re.I)
_HEADING = re.compile(r"\W*[\w-]+(?:\s+[\w-]+)?\s*:\s")  # "TCCM: Time-Conditioned …"
# How like a source's title (difflib's ratio over its words' letters) a sentence may be and still
# count as an answer to a question that is no definition: "TCCM: Time-Conditioned
# Contraction Matching (TCCM)" is 0.94 like its title, "CRAFT is a simple yet effective
# architecture for future link prediction on temporal graphs" 0.66. Source: by hand, on a
# hostile user's Gemma 270M replies over the seeds.
TITLE_ECHO = 0.85
# a model's own "no" over the sources found, in --json as a refusal (it had been "refusal": null)
MODEL_REFUSAL = Verdict(check="model", reason="The model replied that no source it was given "
                        "answers the question; the nearest papers show what it read.")


def answering_sources(sources: list[NumberedSource], question: str = "") -> list[NumberedSource]:
    """The sources a model is given: the first, each other the ranker does not score as not
    answering (shown as 0.00), and the first writing each thing a question asking of several
    papers names (``extractive.each_named``: "Compare TCCM and CADMorph." had left CADMorph
    out, scored 0.00, and its quotes with it, a run's). They keep their numbers."""
    named = each_named(question, sources) if question else set()
    return [s for i, s in enumerate(sources) if i == 0 or s.found.score >= MIN_SOURCE_SCORE or s.n in named]


# ---------------------------------------------------------------- checking sentences


@dataclass
class Checked:
    """A sentence after the checks: as shown (with its markers), its claim (None for a
    lead-in or a refusal, which state nothing to check), and who gave its citations."""

    shown: str
    claim: Claim | None
    model_cites: list[int] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)
    echo: bool = False
    refusal: bool = False
    restates: bool = False  # it asks or restates the question: no answer, left out
    unfinished: bool = False  # it stops mid-clause (``claims.unfinished``): left out

    @property
    def supported(self) -> bool:
        return self.claim is not None and self.claim.supported and not self.echo


def with_markers(text: str, cites: Sequence[int]) -> str:
    """The sentence with its citation markers before its closing punctuation."""
    if not cites:
        return text
    marks = "".join(f"[{n}]" for n in cites)
    end = re.search(r"[.!?]+[\"'”’)]*$", text)
    return f"{text[:end.start()]} {marks}{end.group()}" if end else f"{text} {marks}"


class EchoCheck:
    """Whether text repeats the prompt rather than answering: a chat template's tags, the
    user message's own headings, or ECHO_RUN words in a row of the prompt's framing (its
    instructions, not the sources or the question)."""

    def __init__(self, template: str) -> None:
        framing = prompt("answer_system") + "\n" + prompt(template).format(sources="", question="")
        self.runs = _runs(framing)

    def __call__(self, text: str) -> bool:
        return bool(_TEMPLATE_TAGS.search(text) or _TEMPLATE_WORDS.search(text)
                    or self.runs & _runs(text))


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i:i + ECHO_RUN]) for i in range(len(words) - ECHO_RUN + 1)}


class Attribution:
    """Scores each sentence against each source given, and gives it the citations the
    sources support (post-hoc attribution)."""

    def __init__(self, checker: ClaimChecker, abstracts: Mapping[int, str], echo: EchoCheck,
                 question: str = "", titles: Mapping[int, str] | None = None,
                 derived: Mapping[int, str] | None = None) -> None:
        self.checker = checker
        self.abstracts = abstracts
        self.echo = echo
        self.question_terms = set(query_terms(question))
        # a title is what "What is CRAFT?" or "Which paper ...?" asks for; to any other
        # question, no answer; a title derived from its abstract may state a finding, so
        # only its "Name: ..." heading form written back is none
        names = read_intent(question).kind == "definition" or _WHICH.match(question)
        self.titles, self.derived = ([], []) if names else (
            [" ".join(_WORD.findall(t.lower())) for t in (titles or {}).values()],
            [" ".join(_WORD.findall(t.lower())) for t in (derived or {}).values()])
        self._stats: KeywordStats | None = None

    @property
    def stats(self) -> KeywordStats:
        if self._stats is None:
            stats = self.checker.stats() if self.checker.stats is not None else None
            if stats is None or not stats.n_docs:
                stats = local_stats(s for a in self.abstracts.values() for s in split_sentences(a))
            self._stats = stats
        return self._stats

    def check(self, sentence: Sentence) -> Checked:
        text = redact(sentence.text)  # a reply may echo the key (a prompt injection, a proxy)
        echo = self.echo(text)
        # a lead-in states nothing, unless of a paper's reception ("The most cited … is:")
        if is_refusal(text) or not (is_claim(text) or reception_unsaid(text, [*self.abstracts.values()])):
            return Checked(text, None, invalid=sentence.invalid, echo=echo,
                           refusal=is_refusal(text))
        if self.restates_question(text) or self.restates_title(text):
            return Checked(text, None, invalid=sentence.invalid, restates=True)
        if unfinished(text):  # cut mid-clause: no claim to show, whatever its words share
            return Checked(text, None, invalid=sentence.invalid, unfinished=True)
        claim = claim_text(text)
        vector = self.checker.vectors([claim])[0]
        cites, mine = sentence.cites, list(sentence.cites)
        support = self._support(claim, cites, vector) if cites else 0.0
        if support < self.checker.threshold:
            scores = {n: self._support(claim, [n], vector) for n in self.abstracts}
            best = max(scores, key=lambda n: scores[n], default=None)
            if best is not None and scores[best] >= self.checker.threshold:
                cites, mine, support = [best], [], scores[best]
            else:  # no source supports it: shown without a citation, marked unsupported
                cites = []
        elif len(cites) > 1:  # "[1][2]" where only [2] says it: [1] goes
            cites = [n for n in cites
                     if self._support(claim, [n], vector) >= self.checker.threshold] or cites
        shown = with_markers(text, cites)
        return Checked(shown, Claim(text=shown, cites=list(cites), support=round(support, 3),
                                    supported=support >= self.checker.threshold),
                       model_cites=[n for n in mine if n in cites], invalid=sentence.invalid,
                       echo=echo)

    def restates_question(self, text: str) -> bool:
        """A question (a small model writes the question back first) or a sentence with no
        word beyond the question's ("PoLAR [1]." for "What is PoLAR?") answers nothing."""
        if claim_text(text).rstrip(" \"'”’)").endswith("?"):
            return True
        terms = set(query_terms(text))
        return bool(terms) and bool(self.question_terms) and terms <= self.question_terms

    def restates_title(self, text: str) -> bool:
        """A source's title written back as the answer ("MuRating: a scalable framework that
        transfers … [1]" for "How many languages can MuRating handle?"): Gemma 270M's most
        common reply, and supported, since a title is drawn from its abstract's words. It
        answers nothing but a definition question: a sentence within TITLE_ECHO of a title
        (or inside one) is left out of any other's answer."""
        claim = claim_text(text)
        bare = " ".join(_WORD.findall(claim.lower()))
        titles = self.titles + (self.derived if _HEADING.match(claim) else [])
        return len(bare.split()) >= 3 and any(
            f" {bare} " in f" {title} " or SequenceMatcher(None, bare, title).ratio() >= TITLE_ECHO
            for title in titles)

    def _support(self, claim: str, numbers: Sequence[int], vector: Any) -> float:
        return self.checker.support(claim, [self.abstracts[n] for n in numbers], self.stats,
                                    vector)


class Gate:
    """Shows checked sentences in order while every one so far is supported (a lead-in waits
    for the sentence after it); from the first that is not, holds the rest for the verdict."""

    def __init__(self) -> None:
        self.checked: list[Checked] = []
        self.shown = 0  # how many of ``checked`` were shown
        self.holding = False
        self.restated = False  # a sentence left out as the question's or a title's words
        self.cut = False  # a sentence left out as stopping mid-clause
        self._seen: set[str] = set()

    def add(self, checked: Checked) -> str:
        """The text to show now (empty when it waits)."""
        key = " ".join(_WORD.findall(checked.shown.lower()))
        # left out: the question written back, and a small model's loop (a sentence again)
        if checked.restates or checked.unfinished or (key and key in self._seen):
            self.restated |= checked.restates
            self.cut |= checked.unfinished
            return ""
        self._seen.add(key)
        self.checked.append(checked)
        lead_in = checked.claim is None and not checked.echo and not checked.refusal
        if self.holding or not (checked.supported or lead_in):
            self.holding = True
            return ""
        if lead_in:
            return ""
        ready = self.checked[self.shown:]
        text = _joined(c.shown for c in ready)
        text = (" " + text) if self.shown else text
        self.shown = len(self.checked)
        return text

    def failure(self, reply: str, echo: EchoCheck, truncated: bool) -> str | None:
        """Why the answer fails the checks, or None when it passes (a refusal passes)."""
        if self.checked and is_refusal(_joined(c.shown for c in self.checked)):
            return None
        claims = [c for c in self.checked if c.claim is not None]
        supported = sum(c.supported for c in claims)
        if echo(reply) or any(c.echo for c in self.checked):
            return "it repeats the prompt"
        if not claims and truncated:
            return ("it reached the token budget (ASSISTANT_LLM_MAX_TOKENS) before a sentence "
                    "was complete")
        if not claims and self.cut:  # not "writes back the question" (a run's)
            return "its sentences stop mid-clause"
        if not claims:
            return ("it only writes back the question or a source's title" if self.restated
                    else "it holds no sentence to check")
        if not supported:
            return "none of its sentences is supported by the sources"
        if supported * 2 < len(claims):
            return f"{len(claims) - supported} of its {len(claims)} sentences are not supported"
        return None

    def final(self, failed: bool) -> list[Checked]:
        """The sentences of the answer: all, or when it failed, the supported ones before
        the first echo (the shown ones are always among them, first)."""
        if not failed:
            return list(self.checked)
        kept = self.checked[:self.shown]
        for c in self.checked[self.shown:]:
            if c.echo:
                break
            if c.supported:
                kept.append(c)
        return kept


def _joined(parts: Iterable[str]) -> str:
    return " ".join(p for p in parts if p)


# ---------------------------------------------------------------- one answer


@dataclass
class _Reply:
    """One request's outcome: the gate that read it, the reply as it came, how it ended."""

    mode: CiteMode
    gate: Gate
    text: str
    end: StreamEnd
    messages: list[dict[str, str]]
    seen: list[NumberedSource]
    echo: EchoCheck

    @property
    def truncated(self) -> bool:
        return self.end.truncated or self.end.finish_reason == "length"


def _endpoint(model: ChatModel) -> tuple[str, str]:
    return (model.settings.base_url or "", model.settings.model or "")


def _read(question: str, sources: list[NumberedSource], model: ChatModel, deadline: float,
          checker: ClaimChecker, shape: str | None) -> Generator[str, None, _Reply]:
    """One request, in JSON (``shape``) or free text, its sentences shown through the gate
    as they are checked. ``NotTheJSON`` when a JSON reply is not; ``SchemaRefused``."""
    template = "answer_json_user" if shape else "answer_user"
    messages, seen = build_messages(question, sources, model.settings, template)
    if shape:  # one user turn: chat formats without a system role drop it (llama.cpp's gemma)
        messages = [{"role": "user", "content": "\n\n".join(m["content"] for m in messages)}]
    valid = {s.n for s in seen}
    reader = JsonSentences(valid) if shape else TextSentences(valid)
    fmt = response_format(shape, answer_schema(sorted(valid))) if shape else None
    echo = EchoCheck(template)
    attribution = Attribution(
        checker, {s.n: s.found.paper.text for s in seen}, echo, question,
        {s.n: s.found.paper.title for s in seen if not s.found.paper.title_derived},
        {s.n: s.found.paper.title for s in seen if s.found.paper.title_derived})
    gate, parts, end, shown = Gate(), [], StreamEnd(), ""
    try:
        for delta in model.stream(messages, deadline=deadline, response_format=fmt):
            if isinstance(delta, StreamEnd):
                end = delta
                continue
            parts.append(delta)
            for sentence in reader.feed(delta):
                ready = redact(gate.add(attribution.check(sentence)))
                shown += ready
                if ready:
                    yield ready
    except NotTheJSON:
        raise NotTheJSON("".join(parts)) from None
    except SchemaRefused:
        raise
    except GenerationError as exc:  # what was shown is the part: the rest went unchecked
        raise GenerationError(str(exc), shown) from None
    if end.finish_reason == "content_filter":  # the rest was withheld
        raise GenerationError(f"the model endpoint {model.where} stopped the answer early "
                              "(finish reason: content_filter)")
    reply = _Reply("constrained" if shape else "free", gate, "".join(parts), end, messages,
                   seen, echo)
    try:
        last = reader.finish(reply.truncated)
    except NotTheJSON:
        raise NotTheJSON(reply.text) from None
    for sentence in last:
        shown = gate.add(attribution.check(sentence))
        if shown:
            yield redact(shown)
    return reply


def _modes(model: ChatModel) -> list[str | None]:
    """The schema shapes to try, in order, then free text (None); what this endpoint
    accepted before comes first, and a free-text endpoint is asked nothing else."""
    if model.settings.cite_mode == "free":
        return [None]
    known = _ENDPOINT_MODE.get(_endpoint(model))
    if known == FREE and model.settings.cite_mode == "auto":
        return [None]
    shapes = [known] if known in SCHEMA_SHAPES else list(SCHEMA_SHAPES)
    return [*shapes, None] if model.settings.cite_mode == "auto" else shapes


def _ask(question: str, sources: list[NumberedSource], model: ChatModel, deadline: float,
         checker: ClaimChecker) -> Generator[str, None, _Reply]:
    """The reply of the first mode the endpoint takes (see ``_modes``); remembers it."""
    modes = _modes(model)
    while modes:
        shape = modes.pop(0)
        try:
            reply = yield from _read(question, sources, model, deadline, checker, shape)
        except SchemaRefused:
            if not modes:  # cite mode "constrained": no free text to fall back on
                raise GenerationError(f"the model endpoint {model.where} refused the JSON "
                                      "schema (response_format); set "
                                      "ASSISTANT_LLM_CITE_MODE=auto or free") from None
            continue
        except NotTheJSON as exc:
            # The reply fails the checks: in "constrained" mode, or when it began as the JSON
            # asked for (the endpoint honours the schema; the model slipped this once).
            if exc.began_as_json or not modes or modes[-1] is not None:
                if exc.began_as_json:
                    _ENDPOINT_MODE[_endpoint(model)] = shape
                return _Reply("constrained", Gate(), exc.reply, StreamEnd(), [], [],
                              EchoCheck("answer_json_user"))
            log.info("the model endpoint %s wrote no JSON (%r); asking it in free text from "
                     "now on", model.where, redact(exc.reply[:80]))
            modes = [None]  # another shape would not make the model write JSON
            _ENDPOINT_MODE[_endpoint(model)] = FREE
            continue
        _ENDPOINT_MODE[_endpoint(model)] = shape or FREE
        return reply
    raise AssertionError("unreachable: the last mode returns or raises")


def answer(question: str, sources: list[NumberedSource], model: ChatModel,
           deadline: float | None = None, checker: ClaimChecker | None = None,
           fallback: Fallback | None = None) -> AnswerStream:
    """Stream a cite-safe answer; the last event is the ``Answer`` (timings filled by the
    caller). ``fallback`` writes the extractive answer from the sources given, for an answer
    that fails the checks with no supported sentence, and to follow one (or the model's
    "no") when ``quoted_answers.with_quotes`` finds the quotes needed."""
    sources = answering_sources(sources, question)
    deadline = deadline if deadline is not None else model.deadline()
    reply = yield from _ask(question, sources, model, deadline, checker or ClaimChecker())
    failure = reply.gate.failure(reply.text, reply.echo, reply.truncated)
    if not reply.messages:
        failure = "its reply was not the JSON answer asked for"
    final = reply.gate.final(failed=failure is not None)
    rest = final[reply.gate.shown:]
    if rest:
        text = _joined(c.shown for c in rest)
        yield redact(" " + text if reply.gate.shown else text)
    base = Answer(question=question, answer="", mode="llm", model=model.settings.model,
                  cite_mode=reply.mode, model_reply=redact(reply.text),
                  usage=reply_usage(reply.end, reply.messages, reply.text) if reply.messages
                  else None,
                  dropped_citations=_dropped(reply.gate.checked),
                  truncated=reply.truncated)
    if failure is not None and not final:  # from the sources the model saw, when it saw any
        yield from instead(base, failure, reply.seen or sources, fallback)
        return
    checked = _answer(base, final, reply.seen, failure)
    if fallback is None or (checked.refusal is None and not checked.claims):
        yield checked
        return
    yield from with_quotes(question, checked, fallback(reply.seen))


def _dropped(checked: Iterable[Checked]) -> list[int]:
    """The numbers of no source the reply cited, but those in a sentence echoing the prompt:
    its rule's own "[1] or [2][3]" had been reported as the model's invented citations."""
    found: list[int] = []
    for c in checked:
        found.extend(n for n in c.invalid if n not in found and not c.echo)
    return found


def _answer(base: Answer, final: list[Checked], seen: list[NumberedSource],
            failure: str | None) -> Answer:
    """The checked answer: its sentences, citations (each with who gave it) and claims."""
    text = redact(_joined(c.shown for c in final))
    if all(c.refusal or c.claim is None for c in final) and is_refusal(text):
        return base.model_copy(update={"answer": text, "refusal": MODEL_REFUSAL})
    citations = build_citations(text, seen)
    placed = {n for c in final if c.claim for n in c.claim.cites if n not in c.model_cites}  # any
    for citation in citations:
        citation.origin = "assistant" if citation.n in placed else "model"
    note = (f"The model's answer could not be checked against the sources ({failure}): only "
            "its sentences they support are shown." if failure else None)
    return base.model_copy(update={
        "answer": text, "citations": citations, "sources": [s.ref() for s in seen],
        "uncited": not citations, "claims": [c.claim for c in final if c.claim is not None],
        "unchecked": note})
