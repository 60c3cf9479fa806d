"""A misspelt topic word is read as the stored spelling (respelling.py), never a name or a
short word, and a lookup's words stay as typed."""

from __future__ import annotations

import pytest

from assistant.pipeline import Assistant
from assistant.respelling import one_slip, respellings


@pytest.mark.parametrize(("typed", "written", "close"), [
    ("hyperparamter", "hyperparameter", True),  # a letter dropped
    ("trasnformer", "transformer", True),  # two neighbours swapped
    ("optimizatoin", "optimization", True),
    ("convolutinal", "convolutional", True),
    ("salary", "salivary", False),  # two letters
    ("constricted", "constructed", False),  # a letter changed: another real word
    ("livelihoods", "likelihoods", False),
    ("transformer", "transformer", False),
])
def test_one_slip_is_a_single_typo(typed: str, written: str, close: bool) -> None:
    assert one_slip(typed, written) is close


def test_a_misspelt_topic_word_is_listed_as_the_abstracts_write_it(
        seed_assistant: Assistant) -> None:
    index = seed_assistant.index
    words = respellings("Which papers study federatd learning with Markovian data?",
                        index.surface_text(), index.keyword_stats())
    assert words == {"federatd": "federated"}
    typo = seed_assistant.list_answer("Which papers study federatd learning?")
    right = seed_assistant.list_answer("Which papers study federated learning?")
    assert right.sources and [s.paper_id for s in typo.sources] == [s.paper_id for s in right.sources]
    assert "Read “federatd” as “federated”" in typo.answer
    assert "Read " not in right.answer


def test_names_short_words_and_lookups_are_not_respelt(seed_assistant: Assistant) -> None:
    index = seed_assistant.index
    surface, stats = index.surface_text(), index.keyword_stats()
    assert respellings("Which papers use Federatd learning?", surface, stats) == {}  # a name
    assert respellings("Which papers use fedaratedd learning?", surface, stats) == {}  # 2 edits
    assert respellings("Which papers use federatd models?", surface, stats) == {
        "federatd": "federated"}
    lookup = seed_assistant.list_answer("Which papers mention federatd?")
    assert "Read " not in lookup.answer and not lookup.sources
