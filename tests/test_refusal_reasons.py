"""A refusal's nearest paper says which of the question's words it never writes
(``refusals.nearest_reason``): a word counts as written as asked, in the singular or the
plural, not as another word of its stem ("vanishing" for "vanishment", which a hostile
user's run found quoted as written)."""

from __future__ import annotations

from assistant.keywords import query_terms
from assistant.paper import Paper
from assistant.refusals import nearest_reason


def test_a_word_of_the_same_stem_is_not_the_word_asked() -> None:
    paper = Paper("p", "s", "Gradients that Vanish", "The vanishing gradient problem, "
                  "revisited with results on deep networks.")
    question = "Which network results mention vanishment?"
    weights = dict.fromkeys(query_terms(question), 1.0)
    reason = nearest_reason(question, paper, weights, 0.2, 0.5)
    assert "“vanishment”" in reason.split("but never")[1]
    assert reason.startswith("It writes “network”, “results”")


def test_a_lookups_reasons_name_its_words_not_its_asking_verb() -> None:
    """"papers mentioning quantum annealing" had said each paper "never 'mentioning'"."""
    paper = Paper("p", "s", "Simulated Annealing", "Annealing schedules for optimization.")
    question = "papers mentioning quantum annealing"
    weights = dict.fromkeys(query_terms(question), 1.0)
    reason = nearest_reason(question, paper, weights, 0.2, 0.5)
    assert reason.startswith("It writes “annealing”, but never “quantum”")
