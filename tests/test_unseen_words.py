"""A word no term holds (a letter standing alone, "C++"): the tokenizer reads words of two
letters or more, so "deep Q-network" was read as "deep network" and "mention C++" as
"mention". `trends "DQN"` counted 367 papers of the 13.9k (19 write DQN), and a list said
17 papers "write “C++ or mention C++”" that never write it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.facets import unanswered
from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.readings import writes_topic
from assistant.word_runs import typed_run

DQN = [(f"Playing Game {n} with Deep Reinforcement Learning", f"We train a deep Q-network "
        f"(DQN) to play game {n} from pixels; the DQN learns from replay.") for n in range(4)]
DEEP = [(f"Training Deep Networks {n}", f"We train deep networks of {n} layers with a new "
         "initialisation.") for n in range(4)]


@pytest.fixture(scope="module")
def dqn_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "dqn", DQN + DEEP)))


def test_an_acronym_spelled_with_a_lone_letter_is_not_read_without_it(dqn_store: Assistant
                                                                       ) -> None:
    screen = ListScreen(dqn_store.index)
    assert "deep network" not in screen.searched_topic("Which papers use DQN?")
    listed = {p.paper.title for p in screen.screen("Which papers use DQN?").papers}
    assert not any(title.startswith("Training Deep Networks") for title in listed), listed


@pytest.mark.parametrize(("question", "searched", "deep", "library"), [
    ("Which papers use deep Q-networks?", "use deep Q-networks?", False, True),
    ("Which papers mention C++?", "mention C++?", False, False),
    ("Which papers use deep networks?", "use deep networks?", True, True),
])
def test_a_run_with_a_word_no_term_holds_is_not_written_by_its_other_words(
        dqn_store: Assistant, question: str, searched: str, deep: bool, library: bool) -> None:
    paper = next(p for p in dqn_store.index.papers().values()
                 if p.title.startswith("Training Deep Networks"))
    cpp = dataclasses.replace(paper, title="A Library",
                              text="We mention a C++ library for deep Q-networks.")
    assert (writes_topic(question, searched, paper), writes_topic(question, searched, cpp)) == (
        deep, library)


def test_a_lone_letter_beside_a_hyphenated_word_is_not_dropped(dqn_store: Assistant) -> None:
    """A review: "Q learning for multi-agent control" had been read as "learning for
    multi-agent control" (the joined form of "multi-agent" dropped the "Q" too)."""
    paper = dataclasses.replace(next(iter(dqn_store.index.papers().values())), title="RL",
                                text="We study reinforcement learning for multi-agent control.")
    question = "Which papers use Q learning for multi-agent control?"
    assert not writes_topic(question, "use Q learning for multi-agent control?", paper)


def test_a_facet_with_a_lone_letter_is_written_only_as_typed(dqn_store: Assistant) -> None:
    """A run: after 59 papers on reinforcement learning in robotics, "which of those use
    Q-learning?" kept all 59 ("learning" alone wrote "use Q-learning"); 6 write it."""
    base = next(iter(dqn_store.index.papers().values()))
    q = dataclasses.replace(base, paper_id="q", title="Robots", text="We use deep Q-learning for arms.")
    rl = dataclasses.replace(base, paper_id="rl", title="Robots",
                             text="We use reinforcement learning for arms.")
    assert unanswered([("use Q-learning",)], [q, rl], dqn_store.index, None) == {"rl"}


@pytest.mark.parametrize(("words", "text", "written"), [
    (("Q-learning",), "deep Q learning agents", True), (("Q-learning",), "Quick learning", False),
    (("K-Means",), "we run k-means", True), (("policy",), "learned policies", True),
    (("(GANs)",), "we train GANs.", True), (("GLUE",), "networks which glue", False),
    (("capsule", "networks"), "inspired to capsulate network", False),
])
def test_a_run_as_typed_allows_the_texts_spellings_of_it(words: tuple[str, ...], text: str,
                                                         written: bool) -> None:
    """A review: "Q-learning" had missed "Q learning", "K-Means" "k-means", "policy"
    "policies", "(GANs)" its brackets; stems had matched "capsulate" and "glue"."""
    assert bool(typed_run(words).search(text)) == written


def test_an_or_facet_with_a_part_read_as_usual_is_not_read_as_typed(dqn_store: Assistant) -> None:
    """A review: "Q-learning or SARSA" had dropped every paper writing SARSA alone."""
    base = next(iter(dqn_store.index.papers().values()))
    sarsa = dataclasses.replace(base, paper_id="s", title="Robots", text="We use SARSA for arms.")
    assert unanswered([("use Q-learning or SARSA",)], [sarsa], dqn_store.index, None) == set()
