"""A chat follow-up naming what qualifies the list before ("what about for generative
modelling?" after "Which papers use optimal transport for domain adaptation?") asks the
list again with that qualifier: R12's had searched "for generative modelling" alone,
under the filters before, and missed the list's own "Robust Optimal Transport with
Applications in Generative Modeling"."""

from __future__ import annotations

import pytest
from test_follow_ups import LIST, authors_store, chat  # noqa: F401 (the fixture)

from assistant.answering import final_answer
from assistant.follow_up_phrases import swapped_topic
from assistant.intent import read_intent
from assistant.narrowing import requalified
from assistant.pipeline import Assistant


@pytest.mark.parametrize(("before", "topic", "asked"), [
    ("Which papers use optimal transport for domain adaptation?", "for generative modelling",
     "Which papers use optimal transport for generative modelling?"),
    ("Which papers use optimal transport?", "for generative modelling",
     "Which papers use optimal transport for generative modelling?"),  # added where there was none
    ("Which papers use GANs in medicine for data augmentation?", "in astronomy",
     "Which papers use GANs in astronomy?"),
    ("Which papers use optimal transport?", "generative modelling", None),  # a topic of its own
    # C68: "on" names a topic; a trend's topic, not its question's words; a filter's words
    ("List papers on GANs.", "on VAEs", None),
    ("How has the number of papers on GANs for image synthesis changed?", "for text generation",
     "Which papers on GANs for text generation?"),
    ("Which papers use dropout in RNNs?", "in recent years", None),
    ("Which papers use dropout in RNNs?", "in NeurIPS 2020", None),
    # C69: no topic before to qualify, or a pronoun's or a manner's words
    ("How many papers are in the store?", "for GANs", None),
    ("List papers by Yoshua Bengio.", "with attention", None),
    ("Which papers use attention?", "in detail", None), ("Which papers use attention?", "for it", None),
    # C70: a word that ends no qualifier starts one ("short videos", "general-sum games")
    ("Which papers do action recognition in long videos?", "in short videos",
     "Which papers do action recognition in short videos?"),
])
def test_a_qualifier_replaces_the_lists_own(before: str, topic: str, asked: str | None) -> None:
    assert requalified(read_intent(before), topic, "Which papers", read_intent) == asked


def test_a_qualifier_asked_after_a_list_qualifies_its_topic(authors_store: Assistant) -> None:  # noqa: F811
    answer = final_answer(authors_store.answer_stream("what about for pricing?", chat(authors_store, LIST)))
    assert answer.answer.startswith("No paper of the"), answer.answer  # "Bandit Pricing" had been listed
    assert "“use capsule networks for pricing”" in answer.answer


def test_the_papers_of_a_name_are_a_topic_those_of_a_year_the_lists() -> None:
    """C70: after 97ea108 "what about the Hopfield papers?" was no topic; "the NeurIPS 2019
    ones" asks of the list's papers of that venue and year (C69)."""
    assert swapped_topic("what about the Hopfield papers?", lambda topic: True) == "the Hopfield"
    assert swapped_topic("what about the NeurIPS 2019 ones?", lambda topic: True) is None
