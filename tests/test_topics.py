"""How a list question's topic is read before it is searched: the acronyms it gives in
brackets, and what a pasted question carries besides its words."""

from __future__ import annotations

import pytest

from assistant.answering import check_question
from assistant.pipeline import Assistant
from assistant.topics import ALSO, stated_acronyms


@pytest.mark.parametrize(("topic", "without", "stated"), [
    ("use capsule networks (CapsNets)?", "use capsule networks?", "use CapsNets?"),
    ("analyze electrocardiogram (ECG) or electromyography (EMG) signals?",
     "analyze electrocardiogram or electromyography signals?", "analyze ECG or EMG signals?"),
    ("build on graph neural networks (GNNs)", "build on graph neural networks",
     "build on GNNs"),
    ("use locality-sensitive hashing (LSH)?", "use locality-sensitive hashing?", "use LSH?"),
    # not an acronym of the words before it: left out, and no reading of its own
    ("use the method of Smith (NYU)?", "use the method of Smith?", None),
    # not an acronym at all: kept as written
    ("use the method (see above)?", "use the method (see above)?", None),
])
def test_an_acronym_in_brackets_is_read_as_another_spelling(
        topic: str, without: str, stated: str | None) -> None:
    """"Which papers use capsule networks (CapsNets)?" listed 3 papers among the 13.9k, the
    question without the bracket 12: "CapsNets" had been a third word each paper must hold."""
    assert stated_acronyms(topic) == (without, stated)


def test_the_list_searches_both_spellings(seed_assistant: Assistant) -> None:
    screen = seed_assistant.lists.list_screen
    searched = screen.searched_topic("Which papers use reinforcement learning (RL)?")
    assert searched.split(ALSO)[:2] == ["use reinforcement learning?", "use RL?"]
    plain = {s.paper_id for s in seed_assistant.list_answer(
        "Which papers use reinforcement learning?").sources}
    bracketed = {s.paper_id for s in seed_assistant.list_answer(
        "Which papers use reinforcement learning (RL)?").sources}
    assert plain and plain <= bracketed


def test_a_question_is_read_without_the_terminal_codes_pasted_with_it() -> None:
    """A question pasted with a colour code ("…networks?\\x1b[31m") listed 2 papers of
    the 12: "[31m" was searched as a word."""
    assert check_question("Which papers use capsule networks?\x1b[31m ") == (
        "Which papers use capsule networks?")
    assert check_question("a\x1b]8;;http://x.example\x07b\x00c\td") == "abc\td"
