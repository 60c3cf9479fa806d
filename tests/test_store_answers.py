"""Questions about the store itself (store_answers.py): answered with its counts, not read
as a list on the topic "store" ("How many papers are in the store?" had answered "4 papers
match", the papers that write "store")."""

from __future__ import annotations

import re

import pytest
from test_follow_ups import chat, years_store  # noqa: F401 (the fixture)

from assistant.answering import final_answer
from assistant.pipeline import Assistant
from assistant.store_answers import about_store


@pytest.mark.parametrize("question", [
    "How many papers are in the store?", "How many papers does the collection hold?",
    "What years does the corpus cover?", "How many abstracts are indexed?",
    "How many papers do you have?", "How big is the database?", "How many papers?",
])
def test_a_question_about_the_store_is_read_so(question: str) -> None:
    assert about_store(question)


@pytest.mark.parametrize("question", [
    "How many papers in the store use GANs?", "Which papers study memory stores?",
    "How many papers use key-value stores?", "Which papers index images by hashing?",
    "How many papers study the corpus of Shakespeare?", "What is a database?",
    "Which papers are about attention?", "Which papers are in the list below?",
])
def test_a_question_with_a_topic_is_not_about_the_store(question: str) -> None:
    assert not about_store(question)


def test_a_range_after_the_stores_count_counts_the_stores_papers_in_it(
        request: pytest.FixtureRequest) -> None:
    """C67: "2019?" after "How many papers are in the store?" was an error, "the question
    names no topic to list papers on" ("in 2019?" too); after the same question with a year,
    a list of every paper of the new year. Both count the store's papers of the range."""
    store: Assistant = request.getfixturevalue("years_store")
    for first in ("How many papers are in the store?", "How many papers from 2018 are in the store?"):
        answer = final_answer(store.answer_stream("2019?", chat(store, first)))
        assert re.match(r"4 of the store's \d+ papers are of year 2019", answer.answer), first
