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
