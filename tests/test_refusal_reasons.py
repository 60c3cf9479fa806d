"""A refusal's nearest paper says which of the question's words it never writes
(``refusals.nearest_reason``): a word counts as written as asked, in the singular or the
plural; written only as another word of its stem it is said so ("vanishment" as
"vanishing", which a hostile user's run found quoted as written, and R12's "spread" as
"Spreading", which had read "never 'spread'")."""

from __future__ import annotations

import re

import pytest

from assistant.answering import final_answer
from assistant.keywords import query_terms
from assistant.paper import Paper
from assistant.pipeline import Assistant
from assistant.refusals import nearest_reason


def test_a_word_of_the_same_stem_is_not_the_word_asked() -> None:
    paper = Paper("p", "s", "Gradients that Vanish", "The vanishing gradient problem, "
                  "revisited with results on deep networks.")
    question = "Which network results mention vanishment?"
    weights = dict.fromkeys(query_terms(question), 1.0)
    reason = nearest_reason(question, paper, weights, 0.2, 0.5)
    assert reason.startswith("It writes “network”, “results”, “vanishment” (as “Vanish”), but never")
    spread = Paper("p", "s", "Reconstructing Spreading Models", "Spreading processes on networks "
                   "need transmission rates for prediction.")
    asked = "Which papers predict wildfire spread?"
    said = nearest_reason(asked, spread, dict.fromkeys(query_terms(asked), 1.0), 0.28, 0.5)
    assert said.startswith("It writes “predict” (as “prediction”), “spread” (as “Spreading”), "
                           "but never “wildfire”"), said
    # C68: a hyphenated word is not written by writing one of its parts ("convexity" is no
    # "non-convex": its opposite)
    convex = Paper("p", "s", "Planar Graphs", "We exploit the convexity of a non-planar decomposition.")
    asked = "What is known about non-convex planar graphs?"
    said = nearest_reason(asked, convex, dict.fromkeys(query_terms(asked), 1.0), 0.2, 0.3)
    assert "“non-convex”" in said.split("but never")[1] and "as “convexity”" not in said, said


def test_a_lookups_reasons_name_its_words_not_its_asking_verb() -> None:
    """"papers mentioning quantum annealing" had said each paper "never 'mentioning'"."""
    paper = Paper("p", "s", "Simulated Annealing", "Annealing schedules for optimization.")
    question = "papers mentioning quantum annealing"
    weights = dict.fromkeys(query_terms(question), 1.0)
    reason = nearest_reason(question, paper, weights, 0.2, 0.5)
    assert reason.startswith("It writes “annealing”, but never “quantum”")


def test_the_keyword_share_counts_the_words_written_as_asked() -> None:
    """A hostile run: "It writes none of the question's words: “hyperdimensional”,
    “computing” (similarity 0.36, 42% of the question's keywords)": the share had counted
    "computation" for "computing", the sentence did not. Both count it now, as written."""
    paper = Paper("p", "s", "Residual Nets", "We study the computation of residual networks.")
    question = "Which paper mentions hyperdimensional computing?"
    weights = dict.fromkeys(query_terms(question), 1.0)
    reason = nearest_reason(question, paper, weights, 0.36, 0.42)
    assert reason.startswith("It writes “computing” (as “computation”), but never “hyperdimensional”")
    assert "50% of the question's keywords" in reason
    alien = Paper("p", "s", "Kernels", "We study kernels.")
    assert nearest_reason(question, alien, weights, 0.36, 0.42).startswith(
        "It writes none of the question's words")
    written = nearest_reason("Which paper mentions residual computing?", paper,
                             dict.fromkeys(query_terms("residual computing"), 1.0), 0.36, 0.42)
    assert written.startswith("It writes the question's words (“computing” as “computation”), but not")
    assert "100% of the question's keywords" in written


@pytest.mark.parametrize("question", ["Which paper studies knitting patterns?",
                                      "What is the best pizza topping?",
                                      "Which paper uses blockchain for voting?"])
def test_a_refusals_nearest_papers_come_most_similar_first(seed_assistant: Assistant,
                                                          question: str) -> None:
    """A run in the UI: "Which paper mentions flurbogrid?" showed its nearest papers at
    similarity 0.05, 0.07, 0.19, the weakest first (among the seeds, these had too)."""
    answer = final_answer(seed_assistant.answer_stream(question))
    assert answer.receipt is not None and len(answer.receipt.nearest) > 1
    shown = [float(re.search(r"similarity (-?[\d.]+)", near.reason).group(1))  # type: ignore[union-attr]
             for near in answer.receipt.nearest]
    assert shown == sorted(shown, reverse=True)
