"""A question's own words (issue 36: a false "no" is the worst answer, and a fake source
the next): who it asks about ("anyone") is no keyword of it, and a paper holding every
keyword but the field's own ("use") answers it whatever its neighbourhood; a rare word alone
does not (an everyday "Is there a paper on planetary rings?" had cited "planetary
exploration", a review's)."""

from __future__ import annotations

import pytest
from test_retrieval import refusing_checks  # noqa: F401  (the fixture)

from assistant.keywords import document_terms, query_terms
from assistant.pipeline import Assistant


def test_who_a_question_asks_about_is_no_keyword_of_it() -> None:
    """A run: "Has anyone used reference prices?" weighed "anyone" (in six chunks of the
    13.9k) as its most specific word; an abstract writing it still holds it."""
    assert query_terms("Has anyone used reference prices?") == ["use", "refer", "price"]
    assert "anyon" in document_terms("Anyone can post a price.")


@pytest.mark.usefixtures("refusing_checks")
def test_a_paper_holding_every_word_but_the_fields_own_answers(seed_assistant: Assistant) -> None:
    """A run: the one paper writing "reference prices" never writes "use", and "Has anyone
    used reference prices?" was refused as off topic and of weak evidence. A word the field
    writes everywhere ("use") need not be held; any other must."""
    found = seed_assistant.retriever.find("Has anyone used contraction matching?")
    assert found.refusal is None
    assert found.papers[0].paper.title.startswith("TCCM: Time-Conditioned Contraction Matching")
    missing = seed_assistant.retriever.find("Has anyone used contraction matching for wombats?")
    assert missing.papers == [] and missing.refusal is not None
