"""The abstracts' quotes after a model's answer that is true of its sources but does not
answer the question (assistant/quoted_answers.py), over a scripted local server (real HTTP
and SSE), the seed index and the real cross-encoder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from test_citesafe import QUOTED, SAID, as_json, craft_number, streamed
from test_generation import model_assistant

from assistant import quoted_answers
from assistant.citesafe import with_markers
from assistant.quoted_answers import FALLBACK_NOTICE, OFF_QUESTION, plain
from assistant.references import placed_note
from assistant.types import Answer, Citation, Claim

QUESTION = "What is CRAFT?"
# A small model's reply to "What is CRAFT?" (Gemma 270M's, a run's): the field's opening
# sentence of the CRAFT abstract, true of it, saying nothing of what CRAFT is.
OPENING = ("These scenarios often involve both recurring (seen) and novel (unseen) "
           "interactions, requiring models to generalize effectively across both.")


def test_a_true_answer_to_another_question_is_followed_by_the_quotes(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((QUOTED, [1]), (OPENING, [1]))]
    text, answer = streamed(app, QUESTION)
    n = craft_number(answer)
    mine = with_markers(QUOTED, [n]) + " " + with_markers(OPENING, [n])
    assert answer.answer == text, "what streams is the answer"
    assert answer.answer.startswith(mine + f"\n\n{OFF_QUESTION}\n\n{FALLBACK_NOTICE}")
    assert answer.off_question == OFF_QUESTION and answer.public_json()["off_question"]
    quotes = answer.answer.partition(FALLBACK_NOTICE)[2]
    assert "CRAFT" in quotes and f"[{n}]" in quotes, "the quotes name what was asked"
    assert answer.mode == "llm" and answer.unchecked is None
    assert len(answer.claims) == 2 and all(c.supported for c in answer.claims), "its own"
    assert answer.citations[0].n == n and answer.citations[0].origin == "model"
    assert len({c.n for c in answer.citations}) == len(answer.citations)
    # the quotes' citations are no model sentence's, placed by the assistant (a review's)
    assert placed_note(answer) == ""


def test_an_answer_to_the_question_is_shown_alone(seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((SAID, [1]))]
    text, answer = streamed(app, QUESTION)
    assert answer.answer == text == with_markers(SAID, [craft_number(answer)])
    assert answer.off_question is None and FALLBACK_NOTICE not in text


def test_a_models_no_is_not_followed_by_quotes(seed_dir: Path, server: FakeOpenAI) -> None:
    """The model's "no" is right where the abstracts do not state what is asked
    (docs/decisions.md); it is a refusal, not an answer to read beside the quotes."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [json.dumps({"sentences": [
        {"text": "The sources do not say what CRAFT costs to run.", "sources": []}]})]
    _, answer = streamed(app, "What does CRAFT cost to run?")
    assert answer.refusal is not None and answer.off_question is None


def test_without_the_cross_encoder_the_answer_is_shown_alone(
        seed_dir: Path, server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: object) -> None:
        raise ValueError("an input the tokenizer cannot take")

    monkeypatch.setattr(quoted_answers.CrossEncoder, "scores", broken)
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((QUOTED, [1]), (OPENING, [1]))]
    text, answer = streamed(app, QUESTION)
    assert answer.off_question is None and FALLBACK_NOTICE not in text
    assert "the model's answer is not compared" in caplog.text


def test_the_cross_encoder_reads_an_answer_plain() -> None:
    assert plain(f"{FALLBACK_NOTICE}\n\n**CRAFT: a predictor**: It predicts links [1][2]. "
                 "It is fast [3, 4].") == "CRAFT: a predictor: It predicts links. It is fast."


def test_an_unsupported_sentence_echoing_the_question_does_not_count(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A run: an unsupported sentence repeating the question's words ("The use of the pass@N
    training strategy …") lifted a wrong answer over the quotes; only the model's supported
    sentences are read beside them."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    echo = "CRAFT is what CRAFT is, and CRAFT is CRAFT in every sense of CRAFT."
    server.replies = [as_json((OPENING, [1]), (echo, []))]
    _, answer = streamed(app, QUESTION)
    assert [c.supported for c in answer.claims] == [True, False]
    assert answer.off_question == OFF_QUESTION


def test_only_a_model_sentences_citation_is_named_as_placed() -> None:
    """A review: the quotes' citations (origin "assistant") had been named "[1] placed by the
    assistant: the model cited no source …" though no model sentence cites [1]."""
    def cited(n: int) -> Citation:
        return Citation(n=n, paper_id=f"p{n}", title="T", source=f"f#{n}", text="x", origin="assistant")

    quoted = Answer(question="q", answer="a", mode="llm", citations=[cited(1)],
                    claims=[Claim(text="s", cites=[3], support=0.9, supported=True)])
    assert placed_note(quoted) == ""
    placed = quoted.model_copy(update={"claims": [Claim(text="s", cites=[1], support=0.9,
                                                        supported=True)]})
    assert placed_note(placed).startswith("[1] placed by the assistant")


def test_a_question_of_several_papers_answered_from_one_is_followed_by_the_quotes(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A run's: Gemma 270M compared papers citing one of them, its sentences true of it. A
    question asking of several papers whose model answer cites one is followed by the
    quotes of each; one asking of a paper ("What is CRAFT?") is not."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    question = "Compare CRAFT and MuRating."
    server.replies = [as_json((SAID, [1]))]
    n = craft_number(streamed(app, question)[1])  # the sources' numbering, as the model sees it
    server.replies = [as_json((QUOTED, [n]))]
    text, answer = streamed(app, question)
    assert answer.answer == text and answer.off_question == quoted_answers.ONE_OF_SEVERAL
    quotes = answer.answer.partition(quoted_answers.ONE_OF_SEVERAL)[2]
    assert "MuRating" in quotes and len({c.n for c in answer.citations}) > 1
    # ...and not when the model cites two, nor for a question of one paper
    server.replies = [as_json((QUOTED, [n]), (SAID, [n]))]
    assert streamed(app, "What is CRAFT?")[1].off_question != quoted_answers.ONE_OF_SEVERAL


def test_one_paper_writing_each_thing_compared_answers_alone(seed_dir: Path, server: FakeOpenAI) -> None:
    """A run's: "Compare Adam and SGD." answered from the paper comparing the two was
    followed by the several-papers line and three unrelated papers."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    question = "Compare Adam and SGD."
    said = ("In this paper, we show that Adam reduces a specific form of sharpness measure shaped "
            "by its adaptive updates, leading to qualitatively different solutions from SGD.")
    server.replies = [as_json((SAID, [1]))]
    n = next(s.n for s in streamed(app, question)[1].sources if "adam" in s.title.lower())
    server.replies = [as_json((said, [n]))]
    assert streamed(app, question)[1].off_question != quoted_answers.ONE_OF_SEVERAL


def test_a_models_no_to_named_papers_it_was_given_is_followed_by_their_quotes(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A run's: Gemma 270M answered "Compare CRAFT and MuRating." with "The corpus has no
    abstract about it", both papers among its sources. Its "no" stays (a refusal), and the
    quotes of the papers writing each name follow it."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [json.dumps({"sentences": [
        {"text": "The corpus has no abstract about it.", "sources": []}]})]
    text, answer = streamed(app, "Compare CRAFT and MuRating.")
    assert answer.refusal is not None and answer.off_question == quoted_answers.NAMED_AFTER_NO
    assert answer.answer == text and "MuRating" in text.partition(quoted_answers.NAMED_AFTER_NO)[2]
    assert {c.n for c in answer.citations} <= {s.n for s in answer.sources}


def test_a_models_no_to_named_papers_ignores_the_venue_named(seed_dir: Path, server: FakeOpenAI) -> None:
    """A review: "Compare CRAFT and MuRating, the NeurIPS papers." got no quotes after the
    model's "no": "NeurIPS", a venue the abstracts never write, counted as a name."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [json.dumps({"sentences": [
        {"text": "The corpus has no abstract about it.", "sources": []}]})]
    answer = streamed(app, "Compare CRAFT and MuRating, the NeurIPS papers.")[1]
    assert answer.off_question == quoted_answers.NAMED_AFTER_NO
    # a second review: a capitalised word is a name too ("Adam", "Hebbian")
    server.replies = [json.dumps({"sentences": [
        {"text": "The corpus has no abstract about it.", "sources": []}]})]
    hebbian = streamed(app, "Compare Adam and Hebbian learning.")[1]
    assert hebbian.off_question == quoted_answers.NAMED_AFTER_NO
