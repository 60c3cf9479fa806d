"""A "who" question about a topic ("Who worked on capsule networks?", "Has anyone worked on
X?") lists the topic's papers, its verb no topic word: "worked" had been one, a false "no"
(a hostile user's run); one without a preposition after "who" asks something else."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.answering import final_answer
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.topics import topic_of


@pytest.mark.parametrize("question", [
    "Who works on capsule networks?",
    "Who worked on capsule networks?",  # "worked" had been a topic word: a false no
    "Who has published on capsule networks?",
    "Who wrote about capsule networks?",
    "Has anyone worked on capsule networks?",
    "Did anyone study capsule networks?",
    # a researcher's run: these had quoted one paper, or refused on "wrote"
    "Who wrote the most papers on capsule networks?",
    "Which authors published the most papers on capsule networks?",
    "top authors on capsule networks?",
    "Who are the most prolific researchers in capsule networks?",
    "Who are the main authors on capsule networks?",
])
def test_who_works_on_a_topic_lists_its_papers(question: str) -> None:
    intent = read_intent(question)
    assert intent.wants_list and topic_of(intent.search) == "capsule networks?"


@pytest.mark.parametrize("question", ["Who researched and invented backpropagation?",
                                      "Who studied neural networks first?",
                                      # a review (C44): one paper's authors, one team's
                                      "Who are the main authors in the paper Attention is all you need?",
                                      "Who are the top people on the team behind AlphaGo?"])
def test_who_did_a_thing_without_on_asks_no_list(question: str) -> None:
    """A hostile review: the preposition had been optional after "who studied", and these
    listed papers on "and invented backpropagation"."""
    assert not read_intent(question).wants_list


@pytest.mark.parametrize("question", [
    "What has been published on capsule networks?",
    "Anything published about capsule networks?",  # a run: "anything", "published" searched
    "What was written on capsule networks?",
    "Is there anything on capsule networks?",
    "anything on capsule networks?",  # a run: one paper quoted
])
def test_what_was_published_on_a_topic_lists_its_papers(question: str) -> None:
    """A run: "anything published on graph neural networks in 2019?" had been refused,
    nearest papers "never 'anything', 'published'", and "what has been published on
    spiking neural networks since 2020?" answered from one paper."""
    intent = read_intent(question)
    assert intent.wants_list and topic_of(intent.search) == "capsule networks?"


@pytest.mark.parametrize("question", [
    "What is published work?", "Is there anything else?",
    # a review: of the papers before, or of one paper, not of the store
    "Is there anything in these papers about robustness?",
    "Is there anything about the training cost in it?",
    "What is written on the importance of depth in this paper?"])
def test_published_without_a_topic_after_it_asks_no_list(question: str) -> None:
    assert not read_intent(question).wants_list


CAPSULE_PAPERS = [
    ("Capsules for Object Parts", "Sara Sabour, Geoffrey Hinton",
     "Capsule networks route object parts to wholes by agreement between capsules."),
    ("Stacked Capsule Autoencoders", "Adam Kosiorek, Sara Sabour, Yee Whye Teh, Geoffrey Hinton",
     "We learn capsule networks without labels by stacking capsule autoencoders."),
    ("Self-Routing Capsules", "Taeyoung Hahn",
     "Capsule networks route each capsule by its own gating network instead of agreement."),
    ("Sparse Attention", "Ann Other", "Sparse attention cuts the memory of transformers."),
]


@pytest.fixture(scope="module")
def authored(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "who", CAPSULE_PAPERS,
                                              ("title", "authors", "abstract"))))


def test_who_works_on_a_topic_names_the_people(authored: Assistant) -> None:
    """"Who works on federated learning with non-i.i.d. data?" (the issue's own example)
    listed papers and named no one: each line now gives its paper's authors, and the
    authors of two papers or more are named first."""
    text = final_answer(authored.answer_stream("Who works on capsule networks?")).answer
    assert "Authors with the most of these papers: Sara Sabour (2), Geoffrey Hinton (2);" in text
    assert "Self-Routing Capsules — Taeyoung Hahn (" not in text  # no year given: no brackets
    assert "Self-Routing Capsules — Taeyoung Hahn:" in text
    plain = final_answer(authored.answer_stream("Which papers use capsule networks?")).answer
    assert "Taeyoung Hahn" not in plain and "Authors with" not in plain


def test_what_has_been_published_on_a_topic_lists_every_paper_on_it(authored: Assistant) -> None:
    """A run: "what was published in 2021 about capsule networks?" had been refused."""
    answer = final_answer(authored.answer_stream("What has been published on capsule networks?"))
    assert {c.title for c in answer.citations} == {"Capsules for Object Parts",
                                                    "Stacked Capsule Autoencoders",
                                                    "Self-Routing Capsules"}


def test_who_wrote_most_on_a_topic_names_the_people_with_most(authored: Assistant) -> None:
    text = final_answer(authored.answer_stream("Who wrote the most papers on capsule networks?")).answer
    assert "Authors with the most of these papers: Sara Sabour (2), Geoffrey Hinton (2);" in text
