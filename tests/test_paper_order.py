"""A question asking for papers in an order by year ("What is the earliest paper on capsule
networks?", "Hinton's latest paper", "… in chronological order") is the topic's or
author's list, oldest or newest first (paper_order.py): a run had "earliest" refused as a
topic word, and "the last paper on Boltzmann machines" answered with one of 1988."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES, OTHERS

from assistant.answering import final_answer
from assistant.list_records import ListedPaper, ListResult
from assistant.listing import ListScreen
from assistant.paper_order import Ordered, in_year_order, ordered_in, ordered_question, read_to_edge
from assistant.pipeline import Assistant
from assistant.types import Filters


@pytest.mark.parametrize(("question", "ordered"), [
    ("What is the earliest paper on capsule networks?",
     Ordered("Which papers on capsule networks?", True)),
    ("Which was the last paper on Boltzmann machines?",
     Ordered("Which papers on Boltzmann machines?", False)),
    ("list the three earliest papers on capsule networks",
     Ordered("Which papers on capsule networks?", True)),
    ("What was Yoshua Bengio's first NeurIPS paper?", Ordered("Which papers are by Yoshua Bengio?", True)),
    ("What is Hinton's latest paper?", Ordered("Which papers are by Hinton?", False)),
    ("list capsule network papers in chronological order", Ordered("list capsule network papers", True)),
    ("GAN papers, newest first", Ordered("GAN papers", False)),
    ("Who introduced capsule networks?", Ordered("Who works on capsule networks?", True)),
    # a second run: a second order said, a topic's possessive, who wrote the original paper
    ("list capsule network papers in chronological order, newest first",
     Ordered("list capsule network papers", False)),
    ("GANs' earliest paper", Ordered("Which papers on GANs?", True)),
    # a third review: a possessive that is no topic, an indefinite topic, "first" in a topic
    ("What are transformers' earliest papers about?", None),
    ("DeepMind's latest paper on RL", None),
    ("Which paper proposed a new loss for GANs?", None),
    ("What work introduced dropout and how does it work?", None),
    ("Which papers study newest first scheduling in queues?", None),
    ("Which paper first introduced dropout?", Ordered("Which papers on dropout?", True)),
    ("Who wrote the original paper on generative adversarial networks?",
     Ordered("Who works on generative adversarial networks?", True)),
    ("Which papers proposed new optimizers?", None),
    # a run: "Who proposed it?" after "What is a capsule network?" had said it names no topic
    ("Who proposed it?", None), ("Who introduced them?", None),
    # a researcher's run: "… and when?" had been a false "no", "When was the first …" the
    # answer of a later paper
    ("Who first proposed dropout and when?", Ordered("Who works on dropout?", True)),
    ("When was the first paper on batch normalization?",
     Ordered("Which papers on batch normalization?", True)),
    ("When was dropout first proposed?", Ordered("Which papers on dropout?", True)),  # a review's
    ("When were they first introduced?", None),  # a pronoun: the answer before's
    ("Which paper on generative adversarial networks came first?",
     Ordered("Which papers on generative adversarial networks?", True)),
    # no order asked of papers: a place, a layer, a method
    ("summarize the first paper", None), ("Does the first layer matter?", None),
    ("Who proposed the first one-shot learning method?",
     Ordered("Who works on one-shot learning method?", True)),
    ("What is the most cited paper on capsule networks?", None),
    # a review: a place in the list before, a subject of another question, "first-order"
    ("Summarize the first paper on the list", None), ("Explain the first paper in detail", None),
    ("What was the last paper in the list about?", None),
    ("What does the first paper on GANs propose?", None),
    ("Which is the latest first-order optimizer?", None),
    # a run: "first" and "publish" had been searched as words, a false "no"
    ("When did Hinton first publish on capsules, and with whom?",
     Ordered("Which papers are by Hinton on capsules?", True)),
    ("When did Yoshua Bengio last write about attention?",
     Ordered("Which papers are by Yoshua Bengio about attention?", False)),
    ("When did Transformers first work on images?", None),  # no stored author
])
def test_an_order_by_year_is_read_with_the_list_it_asks_for(question: str,
                                                            ordered: Ordered | None) -> None:
    assert ordered_question(question, lambda name: name in {"Hinton", "Yoshua Bengio"}) == ordered


@pytest.fixture(scope="module")
def ordered_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(t, a, y) for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "ordered", rows,
                                              ("title", "abstract", "year"))))


@pytest.mark.parametrize(("question", "first"), [
    ("What is the earliest paper on capsule networks?", "Capsules for Object Parts"),
    ("Who introduced capsule networks?", "Capsules for Object Parts"),
    ("What is the most recent paper on capsule networks?", "Capsules in Videos"),
])
def test_the_earliest_or_latest_paper_is_the_first_of_the_list_in_that_order(
        ordered_store: Assistant, question: str, first: str) -> None:
    answer = final_answer(ordered_store.answer_stream(question))
    assert answer.citations[0].title == first
    assert {c.title for c in answer.citations} >= {title for _, title, _ in CAPSULES}
    oldest = "recent" not in question
    assert f", {'oldest' if oldest else 'newest'} first;" in answer.answer.splitlines()[0]
    years = [s.year for s in answer.sources]
    assert years == sorted(years, reverse=not oldest)
    # a follow-up narrows the list it gave
    dated = final_answer(ordered_store.answer_stream("what about 2019?", [(question, answer.answer)]))
    assert {c.title for c in dated.citations} == {"Stacked Capsule Autoencoders",
                                                    "Self-Routing Capsules"}


def test_papers_kept_unread_come_after_the_checked_ones(ordered_store: Assistant) -> None:
    """A review: "What was the earliest paper on GANs?" gave first a 2002 paper on
    ganglion cells ("gan- glion"), kept unread past the reading budget."""
    papers = list(ordered_store.index.papers().values())
    old, new = (dataclasses.replace(papers[0], year=1990), dataclasses.replace(papers[1], year=2020))
    result = ListResult("q", "topic", [ListedPaper(old, 1.0, "", False, kept_unread=True),
                                       ListedPaper(new, 1.5, "", True)], 2, 2, 2, 1)
    assert [p.paper.year for p in in_year_order(result, oldest=True).papers] == [2020, 1990]
    # one kept unread within the read papers' years stands in its year (a run: a
    # chronological GAN list had put InfoGAN, 2016, after the papers of 2021)
    newer = dataclasses.replace(papers[2], year=2021)
    result.papers.append(ListedPaper(newer, 2.0, "", True))
    result.papers.append(ListedPaper(dataclasses.replace(papers[3], year=2020), 9.0, "", False,
                                     kept_unread=True))
    assert [(p.paper.year, p.kept_unread) for p in in_year_order(result, oldest=True).papers] == [
        (2020, False), (2020, True), (2021, False), (1990, True)]


def test_papers_kept_unread_before_the_read_ones_are_read_at_the_edge(
        ordered_store: Assistant) -> None:
    """A run: "What is the earliest paper on variational autoencoders?" listed a 2016 paper
    first, and three of 2015 that write of VAEs, kept unread, at [72]–[74]. The papers kept
    unread that year order puts before the read ones are read, the edge first."""
    shipped = ListScreen(ordered_store.index).settings
    unread = dataclasses.replace(shipped, keep_at=99.0, drop_below=-99.0, max_reread=0)
    question = "Which papers on capsule networks?"
    result = ordered_store.lists.list_papers(question, screen=ListScreen(ordered_store.index, unread))
    assert result.papers and all(p.kept_unread for p in result.papers)  # none read
    two = ListScreen(ordered_store.index, dataclasses.replace(unread, max_reread=2))
    edged = in_year_order(read_to_edge(result, two, oldest=True), oldest=True)
    assert edged.reread == 2 and edged.papers[0].paper.title == "Capsules for Object Parts"
    assert not edged.papers[0].kept_unread and edged.papers[0].reader is not None


@pytest.mark.parametrize(("question", "oldest"), [
    ("What is the oldest paper in the store?", True), ("What is the newest paper?", False),
    ("Which are the latest papers in the collection?", False), ("the earliest papers here", True),
    ("What was the first paper in your corpus?", True),
    ("Which papers are the newest?", False), ("Which papers are the oldest?", True),  # a run
])
def test_an_order_of_no_topic_asks_for_the_store_s_earliest_or_latest_year(
        question: str, oldest: bool) -> None:
    # a run: "What is the oldest paper in the store?" had said it names no topic
    def edge(first: bool) -> int:
        return 1987 if first else 2025
    year = 1987 if oldest else 2025
    assert ordered_question(question, None, edge) == Ordered(
        f"Which papers were published in {year}?", oldest, year)
    # "the first paper" alone is a place, or the subject of a question of its own
    assert ordered_question("What is the first paper?", None, edge) is None


def test_the_store_s_oldest_papers_are_those_of_its_earliest_year(ordered_store: Assistant) -> None:
    years = [p.year for p in ordered_store.index.papers().values() if p.year]
    answer = final_answer(ordered_store.answer_stream("What is the oldest paper in the store?"))
    first, said = answer.answer.splitlines()[:2]
    assert years.count(min(years)) == 1  # the one paper of 2018
    assert first.startswith("1 paper of the 1 (year 2018) matches, oldest first;")
    assert said == "The store dates its papers by year alone: this is its oldest, the one paper of 2018."
    assert {s.year for s in answer.sources} == {min(years)}
    # within filters, the filters' edge (a review: "these are its oldest" named the store's)
    by_year = final_answer(ordered_store.answer_stream("What is the newest paper?",
                                                       filters=Filters(years=(2018, 2019))))
    assert by_year.answer.splitlines()[1] == ("The store dates its papers by year alone: the "
                                              "newest papers of years 2018–2019 are those of "
                                              "2019, listed first.")
    # a year stated with "are" alone names no topic either: every paper of the year
    dated = final_answer(ordered_store.answer_stream(f"Which papers are from {max(years)}?"))
    assert {s.year for s in dated.sources} == {max(years)}
    assert len(dated.sources) == years.count(max(years))


def test_the_list_and_trend_tools_read_an_order_question_as_the_chat_does(
        ordered_store: Assistant) -> None:
    # a run: the Lists tab and the MCP list_papers tool had said "No paper of the 13,872
    # answers “What is the earliest on capsule networks?”", and topic_trends had counted 0
    question = "What is the earliest paper on capsule networks?"
    listed = ordered_store.list_answer(question)
    assert ", oldest first;" in listed.answer.splitlines()[0]
    assert listed.citations[0].title == "Capsules for Object Parts"
    assert {c.title for c in listed.citations} >= {title for _, title, _ in CAPSULES}
    assert ordered_store.trends(question).total == len(listed.citations)
    # the answer names the question as asked (a run: the Markdown export had said "Which
    # papers on capsule networks?")
    assert listed.question == question
    assert final_answer(ordered_store.answer_stream(question)).question == question


def test_it_after_the_earliest_paper_is_that_paper(ordered_store: Assistant) -> None:
    """A run: "who wrote it?" after "What is the earliest paper on capsule networks?" had
    been a false "no", and "summarize it" had summarized five other papers."""
    question = "What is the earliest paper on capsule networks?"
    history = [(question, final_answer(ordered_store.answer_stream(question)).answer)]
    for follow_up in ("summarize it", "what are its main results?"):
        answer = final_answer(ordered_store.answer_stream(follow_up, history))
        assert [c.title for c in answer.citations] == ["Capsules for Object Parts"], follow_up
        history.append((follow_up, answer.answer))
    # "it" after a list of several papers points at none of them
    listed = "Which papers use capsule networks?"
    plain = [(listed, final_answer(ordered_store.answer_stream(listed)).answer)]
    assert len(final_answer(ordered_store.answer_stream("summarize it", plain)).citations) != 1


def test_it_after_the_oldest_of_a_list_is_that_paper(ordered_store: Assistant) -> None:
    """A run: "who wrote it?" after "Which papers…?" and "which of them is the oldest?" had
    been searched as "wrote" and "oldest", a false "no"."""
    listed = "Which papers use capsule networks?"
    history = [(listed, final_answer(ordered_store.answer_stream(listed)).answer)]
    oldest = final_answer(ordered_store.answer_stream("which of them is the oldest?", history))
    history.append(("which of them is the oldest?", oldest.answer))
    answer = final_answer(ordered_store.answer_stream("who wrote it?", history))
    assert [c.title for c in answer.citations] == [oldest.sources[0].title]
    # "which ones are the oldest?" asks for several: "it" after it points at none
    several = [*history[:1], ("which ones are the oldest?", oldest.answer)]
    assert len(final_answer(ordered_store.answer_stream("summarize it", several)).citations) != 1


@pytest.mark.parametrize(("question", "ordered"), [
    ("When was the Indian buffet process introduced at NeurIPS?",
     Ordered("Which papers on the Indian buffet process?", True)),
    ("When was dropout proposed?", Ordered("Which papers on dropout?", True)),
    ("When was it introduced?", None), ("When was dropout published?", None),
    # C69: of the answer before: asked as it was; C70: a name of capitalised words is one
    ("When was the method introduced?", None), ("When was its loss proposed?", None),
    ("When was the network introduced?", None),
    ("When was the Indian Buffet Process introduced?",
     Ordered("Which papers on the Indian Buffet Process?", True)),
])
def test_when_a_topic_was_introduced_is_its_oldest_papers(question: str, ordered: Ordered | None) -> None:
    """R12: "When was the Indian buffet process introduced at NeurIPS?" had quoted a paper
    of 2014, not the one of 2005 that introduced it."""
    assert ordered_question(question) == ordered


def test_when_a_paper_named_by_its_title_was_introduced_is_asked_of_it(ordered_store: Assistant) -> None:
    """C69: "When was Attention Is All You Need introduced?" had listed 137 attention papers,
    oldest first, instead of that paper: a stored title asked of is that paper's year."""
    assert ordered_in("When was Stacked Capsule Autoencoders introduced?", ordered_store.index, None) is None
    assert ordered_in("When was the Capsule Network introduced?", ordered_store.index, None)
