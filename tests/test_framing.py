"""A question less its chat framing (assistant/framing.py): a researcher's own words around
a list or count read as the request they frame, and nothing else touched."""

from __future__ import annotations

import pytest

from assistant.answering import final_answer
from assistant.framing import unframed
from assistant.pipeline import Assistant


@pytest.mark.parametrize(("asked", "read"), [
    # a researcher's run among the 13.9k: a false 0, a refusal, 1 and 5 papers for lists
    ("Roughly how many papers per year mention normalizing flows after 2016?",
     "How many papers per year mention normalizing flows after 2016?"),
    ("Approximately how many papers on knowledge distillation since 2018?",
     "How many papers on knowledge distillation since 2018?"),
    ("hey, could you pull up everything NeurIPS has on lottery tickets? thanks!",
     "Could you find all NeurIPS papers on lottery tickets?"),
    ("Show me everything about lottery tickets", "Show me all papers on lottery tickets"),
    ("Could you pull up everything on lottery tickets?",
     "Could you find all papers on lottery tickets?"),
    ("Everything you have on GANs", "All papers on GANs"),
    ("I'm writing a survey on mixup data augmentation - can you list all the relevant papers?",
     "Can you list all papers on mixup data augmentation?"),
    ("We are writing a review on federated learning. Which are the key papers?",
     "Which are all papers on federated learning?"),
    ("Hi! Which papers use GANs? Thank you so much.", "Which papers use GANs?"),
    # a review's: greetings it had missed
    ("Hey there, which papers use GANs?", "Which papers use GANs?"),
    ("Good morning! Which papers use GANs?", "Which papers use GANs?"),
    # a second review's: no punctuation after the greeting, a dash before the thanks, "for me"
    ("hi how many papers mention capsule networks?", "How many papers mention capsule networks?"),
    ("What is CRAFT - thanks", "What is CRAFT"),
    ("I'm writing a survey on pruning - can you list all the relevant papers for me?",
     "Can you list all papers on pruning for me?"),
])
def test_a_framed_request_is_read_as_the_request(asked: str, read: str) -> None:
    assert unframed(asked) == read


@pytest.mark.parametrize("question", [
    "What is dropout?", "Thanks!", "hi", "Which papers use thanks?",
    "Well-known methods for federated learning?", "So-called lottery tickets: which papers?",
    "How many papers on GANs?", "About how GANs converge: which papers?",
    "Which paper looks up facts in a knowledge base?",
    # a review's: words a framing writes, inside a question of their own
    "Which papers propose a model that can explain everything about its predictions?",
    "Which papers study theories of everything on graphs?",
    "I'm writing my thesis on GANs, and I need the key papers on mode collapse.",
    "Which papers study applause and cheers", "Hello world programs: which papers generate code?",
])
def test_a_question_with_no_framing_is_left_as_asked(question: str) -> None:
    assert unframed(question) == question


def test_a_framed_list_request_is_listed(seed_assistant: Assistant) -> None:
    typed = "hey, could you pull up everything on federated learning? thanks!"
    asked = final_answer(seed_assistant.answer_stream(typed))
    assert asked.question == typed, "the answer keeps the question as typed (a review's)"
    plain = final_answer(seed_assistant.answer_stream("Which papers are on federated learning?"))
    assert asked.receipt is not None and plain.receipt is not None
    assert asked.receipt.matching is not None, "a list, not a cited answer of the best few"
    assert [c.paper_id for c in asked.citations] == [c.paper_id for c in plain.citations]


def test_a_follow_up_reads_the_turn_before_as_it_was_searched(seed_assistant: Assistant) -> None:
    """A review: after "Hey, could you pull up everything on federated learning? Thanks!",
    "Only the ones from 2025." had narrowed a list of the framing's words, not of the topic."""
    first = "Hey, could you pull up everything on federated learning? Thanks!"
    before = final_answer(seed_assistant.answer_stream(first))
    after = final_answer(seed_assistant.answer_stream("Only the ones from 2025.",
                                                      history=[(first, before.answer)]))
    assert {c.paper_id for c in after.citations} == {c.paper_id for c in before.citations}
