"""Who a question asks about ("anyone", "someone") is no keyword of it: "Has anyone used
reference prices?" had weighed "anyone", in six chunks of the 13.9k, as its most specific
word (a researcher's run), and a refusal named it as the word the right paper never writes."""

from __future__ import annotations

import pytest

from assistant.keywords import document_terms, query_terms


@pytest.mark.parametrize("asker", ["anyone", "anybody", "someone", "everyone"])
def test_who_a_question_asks_about_is_no_keyword_of_it(asker: str) -> None:
    assert query_terms(f"Has {asker} used reference prices?") == ["use", "refer", "price"]


def test_an_abstract_writing_anyone_still_holds_it() -> None:
    """Only a question's side leaves it out: the stored index keeps its tokenizer."""
    assert "anyon" in document_terms("Anyone can post a price.")
