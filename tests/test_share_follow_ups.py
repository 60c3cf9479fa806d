"""A chat's follow-ups after a share of a topic's papers held by an author ("What share of
papers on capsule networks were written by Sara Sabour?"), past the first: each asks the
share again, of the topic or the author it names, as the follow-up before it stood for."""

from __future__ import annotations

import pytest
from test_count_questions import capsule_years  # noqa: F401 (the fixture)

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.pipeline import Assistant


def chat(app: Assistant, *questions: str) -> list[list[str]]:
    history: list[tuple[str, str]] = []
    for question in questions:
        history.append((question, final_answer(app.answer_stream(question, history)).answer))
    return [answer.splitlines() for _, answer in history]


def test_an_author_then_a_topic_swapped_after_a_swap_keep_the_share(capsule_years: Assistant) -> None:  # noqa: F811
    """A review (C45): after "what about VAEs?", "what about Bengio?" had counted the papers
    of "author Bengio and Goodfellow" (0 of 2), not the VAE papers' share that are his."""
    share, topic, author, again = chat(
        capsule_years, "What share of papers on capsule networks were written by Sara Sabour?",
        "what about sparse attention?", "what about Ann Lee?", "what about capsule networks?")
    assert "Of them, 3 (75.0%) are by Sara Sabour." in share
    assert topic[0].startswith("1 paper of the ") and "Of them, 1 (100.0%) is by Sara Sabour." in topic
    assert author[0] == topic[0] and "Of them, 0 (0.0%) are by Ann Lee." in author
    assert again[0] == share[0] and "Of them, 1 (25.0%) is by Ann Lee." in again


def test_a_full_name_the_store_does_not_hold_after_an_authors_share_is_refused(
        capsule_years: Assistant) -> None:  # noqa: F811
    """A review (C46): "what about Nobody Atall?" after an author's share had counted the
    papers matching the name (0), where the question asked of her is refused naming the nearest."""
    first = "What share of papers on capsule networks were written by Sara Sabour?"
    history = [(first, final_answer(capsule_years.answer_stream(first)).answer)]
    with pytest.raises(BadInputError, match="no indexed paper has an author named Sara Sabur; "
                                            "the nearest are Sara Sabour"):
        final_answer(capsule_years.answer_stream("what about Sara Sabur?", history))
    # a topic written with capitals stays one: its words are the papers'
    topic = final_answer(capsule_years.answer_stream("what about Sparse Attention?", history)).answer
    assert topic.splitlines()[0].startswith("1 paper of the ")
    assert "Of them, 1 (100.0%) is by Sara Sabour." in topic.splitlines()


def test_years_after_an_authors_share_ask_the_share_of_those_years(capsule_years: Assistant) -> None:  # noqa: F811
    """A review (C49): "what about 2019?" after an author's share had counted her papers of
    2019 among her capsule papers ("1 paper of the 2"), and a later "what about X?" lost the
    year; "what about 2019 to 2020?" had been a topic, "2019 to 2020" (a run's)."""
    share, year, author, span = chat(
        capsule_years, "What share of papers on capsule networks were written by Sara Sabour?",
        "what about 2019?", "what about Ann Lee?", "what about 2019 to 2020?")
    assert "Of them, 3 (75.0%) are by Sara Sabour." in share
    assert year[0].startswith("2 papers of the ") and "(year 2019)" in year[0]
    assert "Of them, 2 (100.0%) are by Sara Sabour." in year
    assert author[0] == year[0] and "Of them, 0 (0.0%) are by Ann Lee." in author
    assert span[0].startswith("3 papers of the ") and "(years 2019–2020)" in span[0]
    assert "Of them, 1 (33.3%) is by Ann Lee." in span


def test_open_ranges_and_named_years_after_an_authors_share_keep_their_sense(
        capsule_years: Assistant) -> None:  # noqa: F811
    """A review (C51): "what about since 2019?" after an author's share had counted “capsule
    networks from 2019 to 9999” (the open end written out as a year), and "what about 2018
    and 2020?" the years between them."""
    _, since, named, before, author = chat(
        capsule_years, "What share of papers on capsule networks were written by Sara Sabour?",
        "what about since 2019?", "what about 2018 and 2020?", "what about before 2019?",
        "what about Ann Lee?")
    assert since[0].startswith("3 papers of the ") and "(years 2019 on)" in since[0]
    assert "Of them, 2 (66.7%) are by Sara Sabour." in since
    assert named[0].startswith("2 papers of the ") and "(years 2018 and 2020)" in named[0]
    assert "Of them, 1 (50.0%) is by Sara Sabour." in named
    assert before[0].startswith("1 paper of the ") and "Of them, 1 (100.0%) is by Sara Sabour." in before
    # C52: the author swapped after it had read "up to 2018" as her name's, counting every year
    assert author[0] == before[0] and "Of them, 0 (0.0%) are by Ann Lee." in author
