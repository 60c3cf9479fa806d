"""A chat follow-up that narrows a list or count ("Which papers use capsule networks?", then
"How many of them are from 2019?") is that list or count under its filters (follow_ups.py):
it had been answered with a comparison of two abstracts, where the list held four of 2019
(a hostile user's run of the chat)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import make_settings

from assistant.answering import final_answer
from assistant.follow_ups import narrowed
from assistant.pipeline import Assistant, asked_intent
from assistant.types import OPEN_START

CAPSULES = [(2018, "Capsules for Object Parts", "Capsule networks route object parts to wholes "
             "by agreement between capsules."),
            (2019, "Stacked Capsule Autoencoders", "We learn capsule networks without labels "
             "by stacking capsule autoencoders."),
            (2019, "Self-Routing Capsules", "Capsule networks route each capsule by its own "
             "gating network instead of agreement."),
            (2020, "Capsules in Videos", "We apply capsule networks to action detection in "
             "videos with capsule pooling.")]
OTHERS = [(2019, "Sparse Attention", "Sparse attention cuts the memory of transformers."),
          (2019, "Bandit Pricing", "A bandit algorithm sets prices under demand shifts.")]


@pytest.fixture(scope="module")
def years_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    path = tmp_path_factory.mktemp("follow") / "papers.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([("title", "abstract", "year"), *[(t, a, y) for y, t, a in
                                                                  CAPSULES + OTHERS]])
    data = path.parent / "data"
    shutil.copytree(seed_dir, data)
    app = Assistant(make_settings(data))
    app.ingest([path])
    return app


LIST = "Which papers use capsule networks?"


def test_how_many_of_them_counts_the_list_under_the_follow_ups_years(
        years_store: Assistant) -> None:
    history = [(LIST, final_answer(years_store.answer_stream(LIST)).answer)]
    answer = final_answer(years_store.answer_stream("How many of them are from 2019?", history))
    assert answer.answer.startswith("2 papers of the")  # the list's count, under 2019
    listed = final_answer(years_store.answer_stream("Which of them are from 2019?", history))
    assert {c.title for c in listed.citations} == {"Stacked Capsule Autoencoders",
                                                     "Self-Routing Capsules"}


def test_a_follow_up_narrowing_a_follow_up_keeps_the_list(years_store: Assistant) -> None:
    """"And since 2019?" then "How many of them are from 2020?": both narrow the list."""
    def read(question: str):  # noqa: ANN202
        return asked_intent(question, years_store.index)

    history = [(LIST, ""), ("And since 2019?", "")]
    found = narrowed("How many of them are from 2020?", history, read)
    assert found is not None and found.question == LIST and not found.counted
    assert found.filters.years == (2020, 2020)
    # the follow-up's years replace the earlier ones (a hostile review: "And before 2010?"
    # after "since 2019" had raised "leave no year in common"; the user gave no filter)
    again = narrowed("And before 2010?", history, read)
    assert again is not None and again.filters.years == (OPEN_START, 2009)
    dated = narrowed("And from 2019?", [("Which papers from 2018 use capsule networks?", "")], read)
    assert dated is not None and dated.question == "Which papers use capsule networks?"
    assert dated.filters.years == (2019, 2019)
    assert narrowed("What datasets do they use?", history, read) is None  # no filter of its own
    assert narrowed("How many of them are from 2019?", [("What is a capsule?", "")], read) is None


def test_a_follow_up_to_a_count_is_counted(years_store: Assistant) -> None:
    def read(question: str):  # noqa: ANN202
        return asked_intent(question, years_store.index)

    found = narrowed("And since 2019?", [("How many papers use capsule networks?", "")], read)
    assert found is not None and found.counted and found.filters.years[0] == 2019
