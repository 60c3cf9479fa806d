"""A "who" question about a topic ("Who worked on capsule networks?", "Has anyone worked on
X?") lists the topic's papers, its verb no topic word: "worked" had been one, a false "no"
(a hostile user's run); one without a preposition after "who" asks something else."""

from __future__ import annotations

import pytest

from assistant.intent import read_intent
from assistant.topics import topic_of


@pytest.mark.parametrize("question", [
    "Who works on capsule networks?",
    "Who worked on capsule networks?",  # "worked" had been a topic word: a false no
    "Who has published on capsule networks?",
    "Who wrote about capsule networks?",
    "Has anyone worked on capsule networks?",
    "Did anyone study capsule networks?",
])
def test_who_works_on_a_topic_lists_its_papers(question: str) -> None:
    intent = read_intent(question)
    assert intent.wants_list and topic_of(intent.search) == "capsule networks?"


@pytest.mark.parametrize("question", ["Who researched and invented backpropagation?",
                                      "Who studied neural networks first?"])
def test_who_did_a_thing_without_on_asks_no_list(question: str) -> None:
    """A hostile review: the preposition had been optional after "who studied", and these
    listed papers on "and invented backpropagation"."""
    assert not read_intent(question).wants_list
