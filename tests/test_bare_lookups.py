"""A bare keyword asked ("ucbzero") is the term lookup "Which paper mentions ucbzero?"
(``pipeline.bare_lookup``): answered from the papers holding it, never refused."""

from __future__ import annotations

import pytest
from test_retrieval import refusing_checks  # noqa: F401  (the fixture)

from assistant.answering import final_answer
from assistant.evals import words_one_abstract_uses
from assistant.pipeline import Assistant, bare_lookup


@pytest.mark.parametrize(("query", "read"), [
    ("ucbzero", "Which paper mentions ucbzero?"),  # had been refused
    ("Gaussian splatting?", "Which paper mentions Gaussian splatting?"),
    ("C++", "Which paper mentions C++?"),
    ("Explain AB-MCTS.", "Explain AB-MCTS."),  # a question's word
    ("What is UCBZero?", "What is UCBZero?"),
    ("Similar papers", "Similar papers"),
    ("2019", "2019"),
    ("hidden Markov models", "hidden Markov models"),  # three words: a topic
])
def test_a_bare_keyword_is_read_as_a_lookup(query: str, read: str) -> None:
    assert bare_lookup(query) == read


@pytest.mark.usefixtures("refusing_checks")
def test_a_bare_keyword_is_answered_from_the_papers_holding_it(seed_assistant: Assistant) -> None:
    """"ucbzero" alone was refused, its one paper among the nearest ("writes the question's
    words, but not about what is asked"), where "Which paper mentions ucbzero?" answered: a
    keyword typed alone is that lookup, one holder quoted, several listed."""
    papers = seed_assistant.index.papers()
    once = words_one_abstract_uses(papers.values())
    word = next(iter(once))
    for answer in (seed_assistant.ask(word), final_answer(seed_assistant.answer_stream(word))):
        assert answer.refusal is None and once[word] in {c.paper_id for c in answer.citations}
        assert answer.question == word
    holders = {w: seed_assistant.retriever.lookup_holders(f"Which paper mentions {w}?")
               for w in ("attention", "kernel", "graph", "reinforcement")}
    word, held = next((w, h) for w, h in holders.items() if 1 < len(h) < 20)
    listed = final_answer(seed_assistant.answer_stream(word))
    assert listed.receipt is not None and listed.receipt.matching == len(held)
    assert {s.paper_id for s in listed.sources} == set(held)
