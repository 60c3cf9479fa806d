"""A list of none shows what it looked at: its nearest papers and why each does not answer,
as an answer's refusal does (issue 36)."""

from __future__ import annotations

from assistant.pipeline import Assistant
from assistant.ui.lists_page import ListsPage


def test_a_list_of_none_shows_its_nearest_papers_and_why(seed_assistant: Assistant) -> None:
    """"List papers on quokka detection" had said "No paper … answers" with no nearest
    paper, where an answer's refusal names three and why each does not answer."""
    answer = seed_assistant.list_answer("List papers on quokka detection")
    assert answer.receipt is not None and answer.receipt.matching == 0
    assert not answer.sources and answer.answer.startswith("No paper of the")
    nearest = answer.receipt.nearest
    assert len(nearest) == 3
    assert all("similarity" in paper.reason for paper in nearest)  # its own figures
    papers = seed_assistant.index.papers()
    assert {paper.paper_id for paper in nearest} <= set(papers)
    shown = ListsPage(seed_assistant).list_rows("List papers on quokka detection")[0]
    assert "The nearest papers" in shown and shown.count("\n- ") == 3
    # a scripter's run: its refusal had been null, as if it had sources
    assert answer.refusal is not None and answer.refusal.check == "list_screen"
    assert answer.refusal.reason == (f"None of the {answer.receipt.read} papers screened was read as "
                                     "answering it.")


def test_a_list_that_lists_papers_shows_no_nearest(seed_assistant: Assistant) -> None:
    answer = seed_assistant.list_answer("Which papers use reinforcement learning?")
    assert answer.receipt is not None and answer.receipt.matching
    assert answer.receipt.nearest == [] and answer.refusal is None
