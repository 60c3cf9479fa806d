"""Questions about the store itself (store_answers.py): answered with its counts, not read
as a list on the topic "store" ("How many papers are in the store?" had answered "4 papers
match", the papers that write "store")."""

from __future__ import annotations

import pytest

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
