"""Exact matches no refusal overrules (issue 36: a false "no" is the worst answer): a
question asking for a paper on something whose rarest word few abstracts write is answered
from those papers, and one whose words a paper holds, but the field's own, from that paper;
an everyday question holding a rare word is not."""

from __future__ import annotations

import pytest
from test_retrieval import refusing_checks  # noqa: F401  (the fixture)

from assistant.evals import words_one_abstract_uses
from assistant.keywords import document_terms, query_terms
from assistant.pipeline import Assistant
from assistant.term_lookups import asks_for_a_paper


@pytest.mark.parametrize(("question", "asks"), [
    ("Is there a paper on tympanal organs?", True),
    ("Is there any work about tympanal organs?", True),
    ("Are there any studies on cricket ears?", True),
    ("Which paper mentions shareboost?", True),  # a lookup
    ("Has anyone studied tympanal organs?", True),
    ("Is there research that uses cricket ears?", False),  # no determiner before "research"
    ("How do I fold a paper airplane that flies far?", False),  # the noun is "airplane"
    ("How should I prepare for a marathon?", False),
    ("How are tympanal organs studied in this work?", False),
])
def test_a_question_asks_for_a_paper_when_its_noun_leads_to_the_subject(
        question: str, asks: bool) -> None:
    assert asks_for_a_paper(question) is asks


@pytest.mark.usefixtures("refusing_checks")
def test_the_paper_holding_a_rare_word_answers_a_question_asking_for_one(
        seed_assistant: Assistant) -> None:
    """The rare word is the question's most specific, the other words common: the one paper
    writing it comes first and is cited though every check would refuse; asked as no request
    for a paper, the same words are refused."""
    once = words_one_abstract_uses(seed_assistant.index.papers().values())
    word, paper_id = next(iter(once.items()))
    question = f"Is there a paper on {word} for graphs?"
    found = seed_assistant.retriever.find(question)
    assert found.refusal is None and found.papers[0].paper.paper_id == paper_id
    answer = seed_assistant.ask(question)
    assert answer.refusal is None and paper_id in {c.paper_id for c in answer.citations}
    asked_about = seed_assistant.retriever.find(f"How are {word} used for graphs?")
    assert asked_about.papers == [] and asked_about.refusal is not None



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
