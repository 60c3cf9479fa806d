"""A term lookup asked in the singular ("Which paper mentions Tetris?") whose words several
papers hold is answered with all of them, as the plural question is; one holder keeps the
cited answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.answering import final_answer
from assistant.pipeline import Assistant
from assistant.types import Filters
from tests.conftest import make_settings

PAPERS = [
    ("Approximate dynamic programming in Tetris", "We play the game of Tetris with "
     "classification-based policy iteration and beat the cross-entropy method."),
    ("A natural policy gradient", "The natural gradient improves policies in simple MDPs "
     "and in the more challenging MDP of Tetris."),
    ("Biasing dynamic programming with a low discount", "A low discount factor improves "
     "approximate dynamic programming on problems such as Tetris."),
    ("Larval fish behaviour", "Point processes model the swim bouts of larval zebrafish "
     "recorded over hours, which a Poisson model won't capture."),
    ("Policy oscillation", "Approximate policy iteration oscillates between policies on "
     "board games, a phenomenon we explain; the agent won a tournament."),
    ("Tiny detectors", "We prune MobileNetV2 and ResNet50 for microcontrollers."),
    ("Mobile search", "We search for MobileNets faster than hand-designed ones."),
    ("Embedding training", "We train word2vec embeddings on a small corpus of abstracts."),
]


@pytest.fixture
def lookups(fresh_copy: Path, tmp_path: Path) -> Assistant:
    """The seeds and five papers: three write "Tetris", one "zebrafish"."""
    papers = tmp_path / "lookups.jsonl"
    papers.write_text("\n".join(json.dumps({"title": title, "abstract": abstract, "year": year})
                                for year, (title, abstract) in enumerate(PAPERS, start=2010))
                      + "\n")
    app = Assistant(make_settings(fresh_copy))
    app.ingest([papers])
    return app


@pytest.mark.parametrize("question", ["Which paper mentions Tetris?",
                                      "Is there a paper that mentions Tetris?",
                                      "What paper uses the word Tetris?"])
def test_a_singular_lookup_several_papers_answer_lists_them_all(
        lookups: Assistant, question: str) -> None:
    """"Which paper mentions Tetris?" cited one paper of the six of the 13.9k writing it;
    the plural question, or --all, listed all six."""
    answer = final_answer(lookups.answer_stream(question))
    assert answer.answer.startswith("3 papers of the ")
    assert sorted(s.title for s in answer.sources) == sorted(t for t, a in PAPERS[:3])
    plural = lookups.list_answer("Which papers mention Tetris?")
    assert {s.paper_id for s in answer.sources} == {s.paper_id for s in plural.sources}


def test_a_singular_lookup_one_paper_answers_keeps_the_cited_answer(lookups: Assistant) -> None:
    """One paper writes "zebrafish": the answer quotes it, as before; so does a lookup whose
    range leaves one of the papers writing "Tetris"."""
    answer = final_answer(lookups.answer_stream("Which paper mentions zebrafish?"))
    assert [c.paper_id for c in answer.citations][:1] == [answer.sources[0].paper_id]
    assert answer.sources[0].title == "Larval fish behaviour"
    assert not answer.answer.startswith("1 paper")
    ranged = final_answer(lookups.answer_stream("Which paper mentions Tetris?",
                                                filters=Filters(years=(2010, 2010))))
    assert ranged.sources[0].title == PAPERS[0][0] and not ranged.answer[0].isdigit()
    assert lookups.several_hold("Which paper mentions Tetris?")
    assert not lookups.several_hold("Which paper studies Tetris?")  # no lookup


def test_a_lookup_of_a_word_is_not_held_by_its_contraction(lookups: Assistant) -> None:
    """"Which paper mentions won?" among the 13.9k listed five papers writing only "won't"."""
    answer = final_answer(lookups.answer_stream("Which paper mentions won?"))
    assert [s.title for s in answer.sources][:1] == ["Policy oscillation"]
    assert "Larval fish behaviour" not in {c.title for c in answer.citations}


def test_a_lookup_of_a_name_finds_it_with_its_version_glued_on(lookups: Assistant) -> None:
    """R7: "Which papers mention MobileNets?" found 9 of the 18 papers of the 13.9k: the
    others write only "MobileNetV2" or "MobileNetV3", one term apart in the BM25 index. A
    name ending in a letter is found with its version glued on, as with a hyphen ("GPT-3");
    a word glued to more than a version is another word ("word2vec" is no "word")."""
    def titles(question: str) -> set[str]:
        return {p.paper.title for p in lookups.lists.list_papers(question).papers}
    assert titles("Which papers mention MobileNets?") == {"Tiny detectors", "Mobile search"}
    assert "Tiny detectors" in titles("Which papers mention ResNet?")
    assert "Embedding training" not in titles("Which papers mention the word \"word\"?")
