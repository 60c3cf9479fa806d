"""A store of a researcher's own few papers, where a word's share of the chunks says
nothing: "use" in 1 of 48 chunks had read "which papers use bandits?" as a topic of "use"
and "bandits", and turned down both bandit papers (readings.common_verb)."""

from __future__ import annotations

import csv

import pytest
from conftest import make_settings

from assistant.answering import final_answer
from assistant.pipeline import Assistant

PAPERS = [
    ("Cafe Bandits", "Contextual bandits choose among cafe menus; naive exploration fails, "
     "and a prior built from reviews wins."),
    ("Numbat Foraging", "Numbat termite foraging is modeled as a multi-armed bandit with "
     "17 arms."),
    ("Quokka Networks", "We propose Quokka Networks, a tabular anomaly detector that uses "
     "isolation forests inside a transformer."),
    ("Bilby Burrows", "We map bilby burrows with drone LiDAR and a U-Net."),
    ("Emu Routes", "Emu migration routes are predicted with neural ODEs."),
    ("Platypus Sensing", "Platypus bill sensing is modeled with Gaussian processes."),
]


@pytest.fixture(scope="module")
def own_store(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    folder = tmp_path_factory.mktemp("own")
    with (folder / "mine.csv").open("w", newline="") as f:
        csv.writer(f).writerows([("title", "abstract"), *PAPERS])
    app = Assistant(make_settings(folder / "data"))
    assert app.ingest([folder / "mine.csv"]).added == len(PAPERS)
    return app


def test_a_list_verb_in_a_small_store_is_no_topic_word(own_store: Assistant) -> None:
    answer = final_answer(own_store.answer_stream("which papers use bandits?"))
    assert {c.title for c in answer.citations} == {"Cafe Bandits", "Numbat Foraging"}, answer.answer
