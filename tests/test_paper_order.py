"""A question asking for papers in an order by year ("What is the earliest paper on capsule
networks?", "Hinton's latest paper", "… in chronological order") is the topic's or
author's list, oldest or newest first (paper_order.py): a run had "earliest" refused as a
topic word, and "the last paper on Boltzmann machines" answered with one of 1988."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES, OTHERS

from assistant.answering import final_answer
from assistant.paper_order import Ordered, ordered_question
from assistant.pipeline import Assistant


@pytest.mark.parametrize(("question", "ordered"), [
    ("What is the earliest paper on capsule networks?",
     Ordered("Which papers on capsule networks?", True)),
    ("Which was the last paper on Boltzmann machines?",
     Ordered("Which papers on Boltzmann machines?", False)),
    ("list the three earliest papers on capsule networks",
     Ordered("Which papers on capsule networks?", True)),
    ("What was Yoshua Bengio's first NeurIPS paper?", Ordered("Which papers are by Yoshua Bengio?", True)),
    ("What is Hinton's latest paper?", Ordered("Which papers are by Hinton?", False)),
    ("list capsule network papers in chronological order", Ordered("list capsule network papers", True)),
    ("GAN papers, newest first", Ordered("GAN papers", False)),
    ("Who introduced capsule networks?", Ordered("Who works on capsule networks?", True)),
    ("Which paper on generative adversarial networks came first?",
     Ordered("Which papers on generative adversarial networks?", True)),
    # no order asked of papers: a place, a layer, a method
    ("summarize the first paper", None), ("Does the first layer matter?", None),
    ("Who proposed the first one-shot learning method?",
     Ordered("Who works on one-shot learning method?", True)),
    ("What is the most cited paper on capsule networks?", None),
])
def test_an_order_by_year_is_read_with_the_list_it_asks_for(question: str,
                                                            ordered: Ordered | None) -> None:
    assert ordered_question(question) == ordered


@pytest.fixture(scope="module")
def ordered_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(t, a, y) for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "ordered", rows,
                                              ("title", "abstract", "year"))))


@pytest.mark.parametrize(("question", "first"), [
    ("What is the earliest paper on capsule networks?", "Capsules for Object Parts"),
    ("Who introduced capsule networks?", "Capsules for Object Parts"),
    ("What is the most recent paper on capsule networks?", "Capsules in Videos"),
])
def test_the_earliest_or_latest_paper_is_the_first_of_the_list_in_that_order(
        ordered_store: Assistant, question: str, first: str) -> None:
    answer = final_answer(ordered_store.answer_stream(question))
    assert answer.citations[0].title == first
    assert {c.title for c in answer.citations} >= {title for _, title, _ in CAPSULES}
    oldest = "recent" not in question
    assert f", {'oldest' if oldest else 'newest'} first;" in answer.answer.splitlines()[0]
    years = [s.year for s in answer.sources]
    assert years == sorted(years, reverse=not oldest)
    # a follow-up narrows the list it gave
    dated = final_answer(ordered_store.answer_stream("what about 2019?", [(question, answer.answer)]))
    assert {c.title for c in dated.citations} == {"Stacked Capsule Autoencoders",
                                                    "Self-Routing Capsules"}
