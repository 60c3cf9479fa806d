"""The abstracts' quoted answer beside a model's: in its place when the model's answer fails
the checks (citesafe.py), after it when the quotes answer the question clearly better,
cover the several papers a question asks of where the model's answer cites one, or quote
papers writing each name the question gives where the model said no.

A small model's sentences can each be true of their source and still not answer what was
asked: a source's title written back for "What model sizes were pretrained with …?", a
field's opening sentence for "What is CRAFT?". The claim checker cannot see that, for it
asks whether a sentence is true of its source, not whether it answers. The cross-encoder
ranks passages for a query; it reads both answers to the same question, so what is compared
is two logits on one scale (the scale moves from question to question, which is why no
fixed threshold on the model's logit alone would do). It reads whether a passage is on the
question more than whether it answers it, so a terse right answer can read lower than the
quotes: the line under which they follow is a hint (docs/measurements.md, "Model mode").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from assistant.answering import AnswerStream, NumberedSource
from assistant.extractive import NOTICE
from assistant.intent import read_intent
from assistant.keywords import mentions
from assistant.reranking import CrossEncoder
from assistant.sentences import unmarked
from assistant.types import Answer, Citation

log = logging.getLogger(__name__)

Fallback = Callable[[list[NumberedSource]], AnswerStream]  # the extractive answer's writer
# How many logits the quoted answer must read above the model's: chosen on the eval's dev
# split with the bundled Gemma 270M (docs/decisions.md, bench/model_mode.py).
QUOTES_BETTER_BY = 4.0
# a hint, not a verdict: the cross-encoder reads whether a passage is on the question, so a
# terse right answer can read lower than the quotes (a review's)
OFF_QUESTION = ("The abstracts' own words may answer the question more closely than the model's "
                "answer; they are quoted after it.")
# a question asking of several papers whose model answer cites one (a run's: Gemma 270M's
# comparisons covered one paper of the two)
ONE_OF_SEVERAL = ("The question asks of several papers and the model's answer cites one; the "
                  "abstracts' own words on each are quoted after it.")
# a model's "no" to a question whose every name its sources write: kept, the quotes after it
NAMED_AFTER_NO = ("The model found no answer, but the abstracts write each name the question "
                  "gives; their own words are quoted after it.")
FALLBACK_NOTICE = "Extractive answer (quoted from the abstracts):"  # a model is configured


def plain(text: str) -> str:
    """An answer as the cross-encoder reads it: no notice line, no [n] markers, no bold."""
    for notice in (NOTICE, FALLBACK_NOTICE):
        text = text.replace(notice, "")
    return unmarked(text.replace("**", ""))


def quotes_answer_better(question: str, answer: Answer, quoted: str) -> bool:
    """True when the cross-encoder reads ``quoted`` as answering ``question`` by
    QUOTES_BETTER_BY more than ``answer``'s supported sentences (an unsupported one echoing
    the question's words had lifted a wrong answer, a run's); False when it cannot run (not
    installed, the tokenizer or onnxruntime on this input: a warning)."""
    supported = " ".join(claim.text for claim in answer.claims if claim.supported)
    try:
        mine, theirs = CrossEncoder().scores(question, [plain(supported), plain(quoted)])
    except Exception as error:
        log.warning("the cross-encoder failed (%s); the model's answer is not compared", error)
        return False
    return bool(theirs - mine >= QUOTES_BETTER_BY)


def cites_one_of_several(question: str, answer: Answer, extractive: Answer) -> bool:
    """True when ``question`` asks of several papers (``Intent.summary``: "Compare the GNN
    papers", "Which papers …, and what does each do?"; not "Adam compared with gradient
    descent", one paper's comparison), the extractive answer quotes several, and
    ``answer``'s supported sentences cite one at most, which does not write each thing the
    question names ("Compare Adam and SGD." answered from the paper on both: a run's)."""
    asked = read_intent(question)
    mine = {n for claim in answer.claims if claim.supported for n in claim.cites}
    each = len(asked.proper_names) > 1 and _writes_each(
        [c for c in answer.citations if c.n in mine], asked.proper_names)
    return asked.summary and len({c.n for c in extractive.citations}) > 1 and len(mine) <= 1 and not each


def writes_each_name(question: str, extractive: Answer) -> bool:
    """Whether a question asking of the papers it names themselves (a summary or comparison
    of them) has a quoted answer whose papers write each name it gives: "Compare CRAFT and
    MuRating." quoting both, which Gemma 270M had answered "The corpus has no abstract about
    it" (a run's). A "no" to a fact ("What are the limitations of CRAFT?") may be right, and
    is shown alone."""
    asked = read_intent(question)
    names = read_intent(asked.search).proper_names  # its venue cut ("NeurIPS")
    return asked.summary and bool(names) and _writes_each(extractive.citations, names)


def _writes_each(citations: Sequence[Citation], names: Sequence[str]) -> bool:
    """Whether the cited papers, between them, write each of ``names`` (``keywords.mentions``)."""
    cited = " ".join(f"{c.title} {c.text}" for c in citations)
    return all(mentions(cited, name) for name in names)


def with_quotes(question: str, answer: Answer, quoted: AnswerStream) -> AnswerStream:
    """``answer`` (already shown), then, when the extractive answer ``quoted`` answers the
    question clearly better, quotes several papers a question asking of several needs
    where the model cites one, or, after the model's "no", writes each name the question
    gives, the line saying which and the quotes; the last event is the Answer, its
    citations both answers' (the two number the same sources alike)."""
    events = list(quoted)  # composed in full first: only its verdict decides what follows
    extractive = events[-1] if events and isinstance(events[-1], Answer) else None
    line = None if extractive is None or not extractive.citations else (
        (NAMED_AFTER_NO if writes_each_name(question, extractive) else None) if answer.refusal
        else ONE_OF_SEVERAL if cites_one_of_several(question, answer, extractive)
        else OFF_QUESTION if quotes_answer_better(question, answer, extractive.answer) else None)
    if extractive is None or line is None:
        yield answer
        return
    quotes = f"\n\n{line}\n\n" + extractive.answer.replace(NOTICE, FALLBACK_NOTICE)
    yield quotes  # as the answer holds it: a table's stream had ended on a newline it has not
    cited = {c.n for c in answer.citations}
    yield answer.model_copy(update={
        "answer": answer.answer + quotes, "sources": answer.sources or extractive.sources,
        "citations": [*answer.citations, *(c for c in extractive.citations if c.n not in cited)],
        "off_question": line})


def instead(base: Answer, failure: str, sources: list[NumberedSource],
            fallback: Fallback | None) -> AnswerStream:
    """The extractive answer in place of one that failed the checks, with the line why."""
    note = (f"The model's answer could not be checked against the sources ({failure}): the "
            "extractive answer is shown instead.")
    if fallback is None:
        note = f"The model's answer could not be checked against the sources ({failure})."
        yield note
        yield base.model_copy(update={"answer": note, "unchecked": note, "uncited": True,
                                      "sources": [s.ref() for s in sources]})
        return
    for event in fallback(sources):
        if isinstance(event, Answer):
            yield event.model_copy(update={
                "answer": event.answer.replace(NOTICE, FALLBACK_NOTICE), "unchecked": note,
                "model": base.model, "cite_mode": base.cite_mode,
                "model_reply": base.model_reply, "usage": base.usage,
                "dropped_citations": base.dropped_citations, "truncated": base.truncated})
            return
        yield event.replace(NOTICE, FALLBACK_NOTICE)
