"""A misspelt topic word is read as the stored spelling (respelling.py), never a name or a
short word, and a lookup's words stay as typed."""

from __future__ import annotations

import pytest

from assistant.answering import final_answer
from assistant.pipeline import Assistant
from assistant.respelling import cue_respellings, one_slip, respellings


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


def test_a_short_word_lacking_a_letter_of_a_frequent_word_is_respelt(
        seed_assistant: Assistant) -> None:
    """"hidden markov modles" and "robotcs" had made a false "No paper…" (words under 8
    letters were never respelt): a short word no abstract writes is read as the frequent
    word it lacks a letter of or swaps two of, never one it adds a letter to ("powder" is
    no "power") nor one of five letters ("repot")."""
    index = seed_assistant.index
    surface, stats = index.surface_text(), index.keyword_stats()
    assert respellings("Which papers use hidden markov modles?", surface, stats) == {
        "modles": "models"}
    assert respellings("Which papers study baking powder?", surface, stats) == {}
    assert respellings("Which papers repot graphs?", surface, stats) == {}
    typo = seed_assistant.list_answer("Which papers use generative modles?")
    assert "Read “modles” as “models”" in typo.answer


def test_a_misspelt_list_cue_is_read_as_the_cue_and_said(seed_assistant: Assistant) -> None:
    """"Wich papers use LSTMs?" had been answered as a question about one paper: a first
    word one slip from a list question's cue, that no abstract writes, is that cue."""
    stats = seed_assistant.index.keyword_stats()
    assert cue_respellings("Wich papers use LSTMs?", stats) == {"Wich": "Which"}
    assert cue_respellings("Lsit papers on GANs", stats) == {"Lsit": "List"}
    assert cue_respellings("Which papers use LSTMs?", stats) == {}
    assert cue_respellings("Lists of papers on GANs?", stats) == {}  # a letter added
    typo = final_answer(seed_assistant.answer_stream("Whcih papers study federated learning?"))
    right = seed_assistant.list_answer("Which papers study federated learning?")
    assert typo.receipt is not None and typo.receipt.matching is not None
    assert "Read “Whcih” as “Which”." in typo.answer  # no abstract's spelling: the cue's
    assert "abstracts write it" not in typo.answer
    assert cue_respellings("Lit review papers on GANs?", stats) == {}  # a word of its own
    assert [s.paper_id for s in typo.sources] == [s.paper_id for s in right.sources]
