"""A misspelt topic word is read as the stored spelling (respelling.py), never a name or a
short word, and a lookup's words stay as typed."""

from __future__ import annotations

import pytest

from assistant.answering import final_answer
from assistant.claims import local_stats
from assistant.corpus import Paper
from assistant.keyword_index import KeywordIndex
from assistant.keywords import KeywordStats, SurfaceText
from assistant.naming import PhraseText
from assistant.pipeline import Assistant
from assistant.respelling import (
    WrittenBy,
    cased,
    cue_respellings,
    lookup_respellings,
    one_slip,
    respellings,
)


@pytest.mark.parametrize(("typed", "written", "close"), [
    ("hyperparamter", "hyperparameter", True),  # a letter dropped
    ("trasnformer", "transformer", True),  # two neighbours swapped
    ("optimizatoin", "optimization", True),
    ("convolutinal", "convolutional", True),
    ("salary", "salivary", False),  # two letters
    ("constricted", "constructed", False),  # a letter changed: another real word
    ("livelihoods", "likelihoods", False),
    ("transformer", "transformer", False),
    ("adverserial", "adversarial", False),  # a vowel changed: a slip only when asked
])
def test_one_slip_is_a_single_typo(typed: str, written: str, close: bool) -> None:
    assert one_slip(typed, written) is close


@pytest.mark.parametrize(("typed", "written", "close"), [
    ("adverserial", "adversarial", True),  # one vowel for another
    ("livelihoods", "likelihoods", False),  # a consonant for another
    ("adverserail", "adversarial", False),  # a vowel changed and two swapped
])
def test_one_slip_with_vowels_takes_one_vowel_for_another(typed: str, written: str,
                                                          close: bool) -> None:
    assert one_slip(typed, written, vowel=True) is close


def _store(texts: list[str]) -> tuple[SurfaceText, KeywordStats, WrittenBy]:
    """A store's surface words, keyword statistics and paper count per word, each paper one
    of ``texts``, as the index builds them."""
    papers = {f"p{n}": Paper(f"p{n}", f"s#{n}", f"Paper {n}", text) for n, text in enumerate(texts)}
    phrases = PhraseText.of(papers)
    return (SurfaceText.of(texts), local_stats(texts),
            lambda word: len(phrases.writers(word)))


def test_a_word_a_few_abstracts_misspell_is_read_as_the_many_write_it() -> None:
    """"baysian optimization" listed the 1 paper that writes the typo (93 write it right),
    "recurent" none ("recur" shares its stem), "reinforcment learning in 2016" 5 of 19
    (its stem is "reinforcement"'s), "generative adverserial networks" none (a vowel for
    another): a word at most 2 papers write, one slip from a word 50 times as many write,
    is that word. A rare real word is kept when no word that common is a slip away, or
    when the slip is a consonant's ("livelihoods") or a vowel in a word papers write."""
    common = ("We tune recurrent networks by bayesian optimization with reinforcement learning"
              " and generative adversarial networks, splitting the likelihoods.")
    rare = ["Events recur.", "A baysian view.", "Gaussian splatting of livelihoods."]
    surface, stats, written_by = _store([common] * 100 + rare)
    topic = "baysian recurent reinforcment adverserial networks"
    assert respellings(topic, surface, stats, written_by) == {
        "baysian": "bayesian", "recurent": "recurrent", "reinforcment": "reinforcement",
        "adverserial": "adversarial"}
    assert respellings(topic, surface, stats) == {"adverserial": "adversarial"}  # no counts
    assert respellings("splatting livelihoods", surface, stats, written_by) == {}
    few, few_stats, few_written = _store([common] * 40 + rare)  # 40 papers: no 50 times
    assert respellings("baysian reinforcment", few, few_stats, few_written) == {}
    three, three_stats, three_written = _store([common] * 200 + rare + ["baysian"] * 2)
    assert respellings("baysian", three, three_stats, three_written) == {}  # 3 papers


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


def test_a_vowel_for_another_is_listed_as_the_abstracts_write_it(
        seed_assistant: Assistant) -> None:
    """"Which papers use generative adverserial networks?" had found no paper (a vowel
    written for another was no slip): it lists what the right spelling lists, and says so."""
    typo = seed_assistant.list_answer("Which papers study federeted learning?")
    right = seed_assistant.list_answer("Which papers study federated learning?")
    assert right.sources and [s.paper_id for s in typo.sources] == [s.paper_id for s in right.sources]
    assert "Read “federeted” as “federated”" in typo.answer


def test_a_single_answer_reads_a_misspelt_word_as_written_and_says_so(
        seed_assistant: Assistant) -> None:
    """"What is a generative adverserial network?" had been refused: a single answer reads
    the word as the abstracts write it, and its first line says so, streamed too."""
    stream = list(seed_assistant.answer_stream("What is federeted learning?"))
    typo, right = stream[-1], seed_assistant.ask("What is federated learning?")
    assert typo.refusal is None and typo.sources
    assert [s.paper_id for s in typo.sources] == [s.paper_id for s in right.sources]
    assert typo.answer.startswith("Read “federeted” as “federated”, as the stored abstracts")
    assert "".join(e for e in stream if isinstance(e, str)) == typo.answer
    assert "Read " not in right.answer


def test_names_and_two_slips_are_not_respelt(seed_assistant: Assistant) -> None:
    index = seed_assistant.index
    surface, stats = index.surface_text(), index.keyword_stats()
    assert respellings("Which papers use Federatd learning?", surface, stats) == {}  # a name
    assert respellings("Which papers use fedaratedd learning?", surface, stats) == {}  # 2 edits
    assert respellings("Which papers use federatd models?", surface, stats) == {
        "federatd": "federated"}


def test_a_lookup_respells_only_a_word_no_paper_writes(seed_assistant: Assistant) -> None:
    """A term lookup asks for its words as typed, but one no paper writes in any form has
    nothing to find: "Which paper mentions zebrafsh?" had been a false "no" beside the 5
    papers of the 13.9k writing "zebrafish". A rare word some paper writes stays as typed
    (``lookup_respellings``; the rare-lookup bench's words)."""
    lookup = seed_assistant.list_answer("Which papers mention federatd?")
    assert "Read “federatd” as “federated”" in lookup.answer and lookup.sources
    index = seed_assistant.index
    assert lookup_respellings(index, "Which papers mention federated?") == {}


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


def test_a_lower_case_acronym_is_read_in_the_capitals_the_papers_write() -> None:
    """"svm papers before 2000" listed 11 papers of the 13.9k and "SVM papers before 2000"
    26: an acronym in capitals is also read spelled out. A word the papers write in
    capitals more than in lower case ("SVM", "SVMs") is read so; "map" (MAP) is a word."""
    surface = SurfaceText.of(["An SVM with kernels.", "Two SVMs and a MAP estimate.",
                              "We map inputs to a feature map."])
    assert "svm" in surface.capitals and "map" not in surface.capitals
    assert cased("svm papers that map inputs", surface) == {"svm": "SVM"}


def test_the_saved_keyword_copy_keeps_the_capitals(seed_assistant: Assistant) -> None:
    built = seed_assistant.index.surface_text()
    copy = KeywordIndex(seed_assistant.index.store)
    saved = copy.saved_copy()  # read from the copy on disk, not built again (which also matches)
    assert saved is not None and saved["capitals"] == sorted(built.capitals)
    copy.load()
    assert copy.surface is not None and copy.surface.capitals == built.capitals
    assert "llm" in built.capitals  # the seeds write "LLM(s)", never "llm"
