"""A chat follow-up that leans on a narrowed list ("only the ones from 2018", then "what
about its limitations?"), and a narrowing that names an author in full ("how many of them
are by Sara Sabour?"): each asks of the list the chat showed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES, LIST, OTHERS, chat

from assistant.answering import final_answer
from assistant.pipeline import Assistant


@pytest.fixture(scope="module")
def years_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(t, a, y, "Ann Lee" if y == 2020 else "Sara Sabour, Geoffrey Hinton")
            for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "chains", rows,
                                              ("title", "abstract", "year", "authors"))))


def test_how_many_of_them_are_by_a_full_name_filters_by_that_name(
        years_store: Assistant) -> None:
    """A run: "how many of them are by Andreas Krause?" had been read as a fragment (the
    name's two words made it a question of its own), its filter "author how many are
    Andreas Krause"."""
    history = chat(years_store, LIST)
    answer = final_answer(years_store.answer_stream("how many of them are by Sara Sabour?",
                                                      history))
    assert answer.filters == "author Sara Sabour"


def test_a_follow_up_after_a_narrowing_asks_of_the_narrowed_list(years_store: Assistant) -> None:
    """A run: "what about its limitations?" after a list and "only the ones from 2018" was
    joined to the fragment alone (a paper on poker), and "what about their limitations?"
    after it to the two follow-ups alone; each is now asked of the list, under the year."""
    history = chat(years_store, LIST, "only the ones from 2019")
    for question in ("what about its limitations?", "what about their results?"):
        answer = final_answer(years_store.answer_stream(question, history))
        asked = " ".join([*(q for q, _ in history[2:]), question])
        assert answer.standalone_question == f"{LIST} {asked} papers in 2019"
        assert answer.sources and {s.year for s in answer.sources} == {2019}, question
        history.append((question, answer.answer))


def test_a_follow_up_after_an_authors_narrowing_keeps_the_author(years_store: Assistant) -> None:
    """A run: "what about their results?" after a list and "only the ones by Geoffrey
    Hinton" had lost the author, and cited papers of others."""
    history = chat(years_store, LIST, "only the ones by Sara Sabour")
    answer = final_answer(years_store.answer_stream("what about their results?", history))
    assert answer.filters == "author Sara Sabour" and answer.sources
