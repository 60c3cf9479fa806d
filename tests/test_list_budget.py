"""A list's reading budget: the uncertain papers it reads at most (``retrieval.list_reread``,
``ask --reread``), and how an answer says what the budget left out unread."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_lists import LIST_QUESTION

from assistant import list_answers
from assistant.errors import BadInputError
from assistant.list_answers import ListAnswers
from assistant.list_lines import answer_lines, as_answer
from assistant.listing import EMPTY_READS, Judge, ListScreen, ScreenSettings
from assistant.pipeline import Assistant
from assistant.readings import writes_topic
from assistant.references import receipt_line
from assistant.reranking import CrossEncoder
from assistant.settings import RetrievalSettings
from assistant.trends import count
from assistant.ui.lists_page import ListsPage, budget, read_more, rows_of


def test_a_list_says_how_many_uncertain_papers_its_reading_budget_left_out(
        seed_assistant: Assistant) -> None:
    """Uncertain papers past the reading budget that their cheap score leaves out are counted
    on the count line ("…, 2 reread, 9 uncertain left out unread"), not those it keeps
    (listed unread), so that a large topic's list is not taken for all of it; a list that
    read its whole band, and a trend, say so too."""
    shipped = ListScreen(seed_assistant.index).settings
    cheap = sorted(c.cheap for c in ListScreen(seed_assistant.index).candidates(LIST_QUESTION))
    middle = cheap[len(cheap) // 2]  # the band's middle splits the pool: some kept unread
    wide = dataclasses.replace(shipped, keep_at=99.0, drop_below=2 * middle - 99.0,
                               max_reread=2)  # every paper uncertain, two read
    screen = ListScreen(seed_assistant.index, wide)
    result = seed_assistant.lists.list_papers(LIST_QUESTION, screen=screen)
    unread = {c.paper.paper_id for c in result.candidates if c.reader is None}
    listed_unread = [p for p in result.papers if p.paper.paper_id in unread]
    assert result.reread == 2 and len(unread) == result.screened - 2
    assert 0 < len(listed_unread) < len(unread)
    assert result.unread_left_out == len(unread) - len(listed_unread)
    lines = list(answer_lines(result))
    assert lines[0] == f"{result.count_line()}.\n" and lines[0].rstrip(".\n").endswith(
        f"2 reread, {result.unread_left_out} uncertain left out unread, "
        f"{len(listed_unread)} kept unread")
    # each paper kept unread says so on its line, and no other does
    marked = [line for line in lines[1:] if line.endswith("(kept unread)\n")]
    assert len(marked) == result.kept_unread == len(listed_unread)
    # the Lists tab's table marks the same rows
    answer = as_answer(result, "".join(lines))
    rows = [row for row in rows_of(answer) if row[3].endswith("(kept unread)")]
    assert [row[0] for row in rows] == [line.split("]")[0][1:] for line in marked]
    assert all(p.kept_unread == (p.paper.paper_id in unread) for p in result.papers)
    receipt = as_answer(result, "").receipt
    assert receipt.unread_left_out == result.unread_left_out
    assert receipt.kept_unread == len(listed_unread)
    # and in --json, each source says whether it was kept unread, for a script to filter
    sources = as_answer(result, "").sources
    assert [s.kept_unread for s in sources] == [p.kept_unread for p in result.papers]
    assert sum(s.kept_unread for s in sources) == len(listed_unread) > 0
    assert receipt_line(receipt).endswith(f"· {result.unread_left_out} left out unread · "
                                          f"{len(listed_unread)} kept unread")
    whole = ListScreen(seed_assistant.index, dataclasses.replace(wide, max_reread=10_000))
    read_all = seed_assistant.lists.list_papers(LIST_QUESTION, screen=whole)
    assert read_all.unread_left_out == 0 and "left out unread" not in next(answer_lines(read_all))
    assert "left out unread" not in receipt_line(as_answer(read_all, "").receipt)
    trend = count(result, {2025: 38})
    assert trend.unread_left_out == result.unread_left_out
    # a trend counts and says the papers kept unread too (its receipt, its --json)
    assert 0 < trend.kept_unread == sum(p.kept_unread for p in trend.counted)
    assert trend.summary().endswith(f"{result.unread_left_out} uncertain left out unread, "
                                    f"{trend.kept_unread} kept unread")
    assert trend.receipt().kept_unread == trend.public_json()["kept_unread"] == trend.kept_unread
    assert trend.public_json()["unread_left_out"] == result.unread_left_out
    assert trend.receipt().unread_left_out == result.unread_left_out


def test_the_reading_budget_is_a_setting_a_list_reads_and_a_trend_reads_at_least(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """``retrieval.list_reread`` (``ask --reread``) is the most uncertain papers a list reads:
    the rest are left out unread and said to be; a trend reads at least its own budget
    (TREND_MAX_REREAD), and the list's when that is larger. The setting's default is the
    screen's tuned one."""
    assert RetrievalSettings().list_reread == ScreenSettings().max_reread
    shipped = seed_assistant.lists.list_papers(LIST_QUESTION)
    assert shipped.reread >= 2 and shipped.unread_left_out == 0
    monkeypatch.setattr(seed_assistant.settings.retrieval, "list_reread", 1)
    short = ListAnswers(seed_assistant).list_papers(LIST_QUESTION)
    assert short.reread == 1 and short.unread_left_out >= 1
    topic = "graph neural networks"  # a band of several papers among the seeds
    assert ListAnswers(seed_assistant).trends(topic).unread_left_out == 0
    monkeypatch.setattr(list_answers, "TREND_MAX_REREAD", 1)  # the list's budget now larger
    assert ListAnswers(seed_assistant).trends(topic).unread_left_out >= 1
    monkeypatch.setattr(seed_assistant.settings.retrieval, "list_reread", 30)
    assert ListAnswers(seed_assistant).trends(topic).unread_left_out == 0


def test_one_question_may_bring_its_own_reading_budget(seed_assistant: Assistant) -> None:
    """``reread`` (``ask --reread``, the Lists tab's "papers to read", the tools' argument)
    is that question's budget, the setting untouched; a trend still reads at least its
    own; a budget out of range is one line naming the range."""
    setting = seed_assistant.settings.retrieval.list_reread
    short = seed_assistant.list_answer(LIST_QUESTION, reread=1)
    assert short.receipt is not None and short.receipt.unread_left_out >= 1
    assert "1 reread" in short.answer.splitlines()[0]
    assert seed_assistant.settings.retrieval.list_reread == setting
    shipped = seed_assistant.list_answer(LIST_QUESTION)
    assert shipped.receipt is not None and shipped.receipt.unread_left_out == 0
    assert seed_assistant.trends("graph neural networks", reread=1).unread_left_out == 0
    for wrong in (0, -3, 5001):
        with pytest.raises(BadInputError, match=f"reading budget {wrong} is outside 1–5,000"):
            seed_assistant.list_answer(LIST_QUESTION, reread=wrong)


def test_the_lists_tab_reads_a_typed_budget_as_a_number_of_papers(
        seed_assistant: Assistant) -> None:
    """The "papers to read" box and the tools' ``reread`` send floats: rounded, 0 or empty
    the setting; NaN was a ValueError from the typed API, not a one-line error (review)."""
    assert (budget(None), budget(0), budget(0.4), budget(2.6)) == (None, None, None, 3)
    with pytest.raises(BadInputError, match="is no number of papers"):
        budget(float("nan"))
    page = ListsPage(seed_assistant)
    assert "is no number of papers" in page.list_papers(LIST_QUESTION, reread=float("inf"))["error"]
    assert page.list_papers(LIST_QUESTION, reread=1)["receipt"]["unread_left_out"] >= 1
    # the box has no range of its own (Gradio's was a toast, the last list left shown):
    # the list's one line, and no rows
    summary, rows, *_ = page.list_rows(LIST_QUESTION, reread=99999)
    assert "reading budget 99999 is outside 1–5,000" in summary and rows == []


def test_past_the_budget_only_a_paper_writing_the_topic_is_kept_unread(
        seed_assistant: Assistant) -> None:
    """A paper past the reading budget had been kept on its cheap score alone (156 papers
    on Bayesian optimization since 2015, 22 of them writing it): only one writing the
    topic as one (``writes_topic``) or near its sense (``sense_keeps``), as a trend counts
    it, is kept unread now; the others are left out, and said to be."""
    shipped = ListScreen(seed_assistant.index).settings
    cheap = sorted(c.cheap for c in ListScreen(seed_assistant.index).candidates(LIST_QUESTION))
    middle = cheap[len(cheap) // 2]
    wide = dataclasses.replace(shipped, keep_at=99.0, drop_below=2 * middle - 99.0,
                               max_reread=2)  # every paper uncertain, two read
    screen = ListScreen(seed_assistant.index, wide)
    result = seed_assistant.lists.list_papers(LIST_QUESTION, screen=screen)
    searched = screen.searched_topic(LIST_QUESTION)
    unread = [c for c in result.candidates if c.reader is None and c.cheap >= middle]
    kept = {p.paper.paper_id for p in result.papers if p.kept_unread}
    writes = {c.paper.paper_id for c in unread if writes_topic(LIST_QUESTION, searched, c.paper)
              or c.sense >= wide.sense_keeps}
    apart = [c for c in unread if c.paper.paper_id not in writes]
    assert kept and apart and not kept & {c.paper.paper_id for c in apart}
    assert kept == writes
    assert result.unread_left_out == result.screened - result.reread - len(kept)


def test_the_hint_to_read_more_names_the_budget_a_count_read_with() -> None:
    """A run in the UI: a count reading 200 uncertain papers with the box at 30 said "raise
    papers to read to read them", which 30, 100 or 200 in the box did not change."""
    assert read_more(0) == read_more(0, 200) == ""
    assert read_more(30, 200) == " — raise *papers to read* above 200 to read them"
    assert read_more(12) == " — raise *papers to read* to read them"


def test_a_list_keeping_none_reads_on_a_budget_at_a_time_before_saying_no(
        seed_assistant: Assistant) -> None:
    """A list whose first reading keeps nothing reads the next uncertain papers, a budget at
    a time, up to ``EMPTY_READS`` budgets more: "spiking neural networks for reinforcement
    learning" among the 13.9k had said "no" with its three papers among the 50 left unread.
    A list that keeps some within its budget reads no further."""
    shipped = ListScreen(seed_assistant.index).settings
    # every paper uncertain, none kept unread (the band's middle over every cheap score)
    wide = dataclasses.replace(shipped, keep_at=99.0, drop_below=-10.0, max_reread=2)
    screen = ListScreen(seed_assistant.index, wide)
    band = [c.paper.paper_id for c in screen.screen(LIST_QUESTION, judge=lambda _, papers: [
        False] * len(papers)).candidates]
    assert len(band) > 2 * (EMPTY_READS + 1)

    def judging_yes(yes: str) -> Judge:
        return lambda _, papers: [p.paper_id == yes for p in papers]

    deep = screen.screen(LIST_QUESTION, judge=judging_yes(band[2 * EMPTY_READS]))
    assert [p.paper.paper_id for p in deep.papers] == [band[2 * EMPTY_READS]]
    assert deep.reread == 2 * (EMPTY_READS + 1)
    assert deep.unread_left_out == deep.screened - deep.reread
    past = screen.screen(LIST_QUESTION, judge=judging_yes(band[2 * (EMPTY_READS + 1)]))
    assert past.papers == [] and past.reread == 2 * (EMPTY_READS + 1)
    first = screen.screen(LIST_QUESTION, judge=judging_yes(band[1]))
    assert [p.paper.paper_id for p in first.papers] == [band[1]] and first.reread == 2


def test_a_paper_read_past_the_first_budget_must_write_each_facet(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """C59: reading on past an empty first budget, the cross-encoder read three GNN papers
    as answering "spiking neural networks for graph classification", facets and all. A
    paper read past the first budget is kept only when it writes each facet, as one kept
    unread past the budget must; within the first, the cross-encoder's reading of a facet
    still counts. The reader here says "no" to the first budget's papers and "yes" to every
    other passage, facets too: the misreading a real one shows on the 13.9k."""
    question = "Which papers use reinforcement learning for protein folding?"
    wide = dataclasses.replace(ListScreen(seed_assistant.index).settings, keep_at=99.0,
                               drop_below=-10.0, max_reread=2, sense_keeps=99.0, titles=False)
    screen = ListScreen(seed_assistant.index, wide)
    band = [c.paper for c in screen.screen(question, judge=lambda _, papers: [
        False] * len(papers)).candidates]
    first = [f"{p.title}. {p.text}" for p in band[:2]]  # a passage: a title, a sentence

    def misread(_: CrossEncoder, text: str, passages: list[str]) -> np.ndarray:
        return np.array([-8.0 if any(p[-40:] in f for f in first) else 8.0 for p in passages])
    monkeypatch.setattr(CrossEncoder, "scores", misread)
    result = screen.screen(question)
    assert result.papers == [] and result.reread == 2 * (EMPTY_READS + 1)  # none writes both
    wide_first = dataclasses.replace(wide, max_reread=4)  # the same papers in a first budget
    assert len(ListScreen(seed_assistant.index, wide_first).screen(question).papers) == 2
