"""A question that writes a stored paper's title is about that paper (name_checks.
titled_papers): "Who wrote Monotonic Networks?" had been refused (its abstract never writes
"wrote"), and 'What is "Attention is All you Need" about?' answered from another attention
paper, the abstract never writing "need"."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.name_checks import asks_only_of, titled_papers
from assistant.pipeline import Assistant
from assistant.respelling import title_respellings
from assistant.types import Filters

PAPERS = [
    ("Attention is All you Need", "The dominant sequence transduction models are based on "
     "recurrent networks. We propose the Transformer, based solely on self-attention, and "
     "it reaches a new state of the art in machine translation."),
    ("Attention-Based Models for Speech Recognition", "Attention models need no alignment: we "
     "extend attention-based recurrent networks to speech recognition, all you need is a "
     "location-aware attention."),
    ("Monotonic Networks", "Monotonicity is a constraint that arises in many domains. We "
     "present a model for which monotonicity can be enforced exactly."),
    ("Active Learning", "We query the labels of the points a classifier is least sure of."),
    ("Large Scale Online Learning", "We study stochastic gradient descent on large data."),
    ("Learning Actively from Few Labels", "Active learning queries the most informative "
     "labels; we bound how many queries active learning needs."),
]


@pytest.fixture(scope="module")
def titled_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "titled", PAPERS)))


def first_title(app: Assistant, question: str) -> str | None:
    found = app.retriever.find(question)
    return found.papers[0].paper.title if found.papers else None


@pytest.mark.parametrize(("question", "title"), [
    ('What is "Attention is All you Need" about?', "Attention is All you Need"),
    ("Who wrote attention is all you need?", "Attention is All you Need"),  # four words: any case
    ("Who wrote Monotonic Networks?", "Monotonic Networks"),
    ("What does 'monotonic networks' present?", "Monotonic Networks"),  # quoted
])
def test_a_question_writing_a_title_is_answered_from_that_paper(
        titled_store: Assistant, question: str, title: str) -> None:
    assert first_title(titled_store, question) == title
    answer = titled_store.ask(question)
    assert answer.refusal is None and answer.citations
    assert answer.citations[0].title == title


def test_a_short_title_in_lower_case_is_a_topic_not_a_paper(titled_store: Assistant) -> None:
    """"What is active learning?" asks of the topic: a title of three words or fewer is read
    as the paper's only typed with its capitals or in quotes."""
    papers = titled_store.index.papers()
    assert titled_papers(papers, "What is active learning?") == []
    assert [papers[p].title for p in titled_papers(papers, "What is Active Learning?")] == [
        "Active Learning"]
    assert titled_papers(papers, "What do attention models need?") == []


def test_a_long_title_in_lower_case_inside_another_question_is_no_paper(
        titled_store: Assistant) -> None:
    """A hostile review: "Is large scale online learning used for weather forecasting in
    Antarctica?" had been answered from "Large Scale Online Learning" with every refusal
    check off; a title in lower case counts only as most of what the question asks."""
    papers = titled_store.index.papers()
    assert titled_papers(papers, "Is large scale online learning used for weather forecasting "
                                 "in Antarctica?") == []
    assert [papers[p].title for p in titled_papers(
        papers, "Who wrote large scale online learning?")] == ["Large Scale Online Learning"]


@pytest.mark.parametrize(("question", "alone"), [
    ('summarize "Attention is All you Need"', True),
    ("Who wrote “Monotonic Networks”?", True),
    # a title not quoted may name a topic: other papers may answer
    ("Which work builds on Monotonic Networks?", False),
    # quoted, but asking for other papers (a review: both had answered from the title alone)
    ("What work builds on “Monotonic Networks”?", False),
    ("Compare “Monotonic Networks” with related work", False),
    # a subject of its own besides the title: other papers may answer it
    ('Which speech recognition models improve on "Attention is All you Need" alignment?', False),
    # a run: typed with its capitals, asked nothing else (a model had summarized others)
    ("Summarize Attention is All you Need.", True),
    ("What datasets does Attention is All you Need use?", True),
    ("How does Attention is All you Need compare to speech recognition?", False),
    ("Summarize Monotonic Networks.", False),  # two words: may name a topic
    # a seventh review: quoted, with a subject of its own besides the paper
    ('How does "Attention is All you Need" differ from RNNs?', False),
    ('What are alternatives to "Attention is All you Need"?', False),
    ('What does "Attention is All you Need" propose?', True),
])
def test_a_question_asking_only_of_a_titled_paper_is_answered_from_it_alone(
        titled_store: Assistant, question: str, alone: bool) -> None:
    """A run: "summarize “Task-Oriented Feature Distillation”" quoted a domain-adaptation
    and a dialogue paper beside it, each sharing "task-oriented"."""
    found = titled_store.retriever.find(question)
    titles = [p.paper.title for p in found.papers]
    assert (len(titles) == 1) == alone, titles


@pytest.mark.parametrize(("question", "titles"), [
    ("who wrote active learning?", ["Active Learning"]),
    ("When was active learning published?", ["Active Learning"]),
    ("who are the authors of monotonic networks?", ["Monotonic Networks"]),
    ("What is active learning?", []),  # a topic: asks nothing of a paper's record
    ("who wrote active learning for robots?", []),  # a word besides the title's
    ("Who wrote about active learning?", []),  # a list of its writers (a third review)
])
def test_a_short_title_in_lower_case_asked_for_its_record_is_the_paper(
        titled_store: Assistant, question: str, titles: list[str]) -> None:
    """A run: "who wrote probabilistic matrix factorization?" had been answered from
    another paper, the title being three words in lower case; asked only who wrote it, or
    when it was published, it is the paper's title."""
    papers = titled_store.index.papers()
    assert [papers[p].title for p in titled_papers(papers, question)] == titles


def test_a_title_other_papers_write_as_a_name_keeps_them_for_its_parts() -> None:
    """A review: "What are the limitations of Latent Dirichlet Allocation?" had been answered
    from the 2001 paper alone, where 52 abstracts write the method; a title other papers write
    as a phrase (``Retriever.a_name``) is asked of alone only for a summary or its record."""
    question = "What are the limitations of Latent Dirichlet Allocation?"
    titles = ["Latent Dirichlet Allocation"]
    assert not asks_only_of(question, titles, lambda _: True)
    assert asks_only_of(question, titles, lambda _: False)
    assert asks_only_of("Summarize Latent Dirichlet Allocation.", titles, lambda _: True)
    # a third review: asking for other work is no part of the paper
    assert asks_only_of("What are the downsides of Latent Dirichlet Allocation?", titles, lambda _: False)
    for other in ("What are alternatives to Latent Dirichlet Allocation?",
                  "What are the main applications of Latent Dirichlet Allocation?"):
        assert not asks_only_of(other, titles, lambda _: False), other


@pytest.mark.parametrize(("question", "title", "nearest"), [
    ("Summarize Deep Residual Learning for Image Recognition.",
     "Deep Residual Learning for Image Recognition", None),
    ("Who wrote Dropout: A Simple Way to Prevent Neural Networks from Overfitting?",
     "Dropout: A Simple Way to Prevent Neural Networks from Overfitting", None),
    ("What datasets does Attention-Based Models for Speech Recognition Using Transformers use?",
     "Attention-Based Models for Speech Recognition Using Transformers",
     "Attention-Based Models for Speech Recognition"),
])
def test_a_typed_title_no_stored_paper_has_is_named_before_the_answer(
        titled_store: Assistant, question: str, title: str, nearest: str | None) -> None:
    """(name_checks.unstored_title) A run: "Summarize BERT: Pre-training of Deep
    Bidirectional Transformers…" quoted XLNet's abstract as if it were BERT's, with no word
    that the store holds no such paper; the nearest stored title is named when close (a
    review: "… Using Deep Neural Networks" for "… with Neural Networks")."""
    answer = titled_store.ask(question)
    first = answer.answer.splitlines()[0]
    assert first.startswith(f"No stored paper is titled “{title}”"), first
    assert (f"the nearest stored title is “{nearest}”" in first) is (nearest is not None)


@pytest.mark.parametrize("question", [
    "Summarize Attention is All you Need.",  # stored
    "Summarize Attention is All you Needs.",  # near a stored title: that paper
    "How Does Dropout Affect Generalization?",  # a question in title case
    "Which papers build on Deep Residual Learning for Image Recognition?",  # asks for others
    "Summarize Attention-Based Recurrent Networks.",  # an abstract writes it
    "Which papers evaluate on the MNIST and Toronto Face datasets?",  # a list, of names
    "Describe Recent Advances In Monotonic Networks.",  # a topic, every word capitalised
])
def test_a_typed_title_stored_near_or_written_is_not_named_as_unstored(
        titled_store: Assistant, question: str) -> None:
    """A review: "Describe Recent Advances In Graph Neural Networks." had been refused as a
    title no paper has."""
    answer = titled_store.ask(question)
    assert "No stored paper is titled" not in answer.answer, answer.answer


def test_a_stored_title_typed_with_slips_is_read_as_that_title(titled_store: Assistant) -> None:
    """A researcher's run: "summarize the paper Attenton Is All You Need" and "find the paper
    titled Dynamic Routng Betwen Capsules" were refused, their papers shown as the nearest
    that do not answer (respelling.title_respellings)."""
    answer = titled_store.ask("summarize the paper Attenton Is All You Need")
    assert answer.answer.startswith(
        "Read “Attenton Is All You Need” as the stored title “Attention is All you Need”.")
    assert [c.title for c in answer.citations] == ["Attention is All you Need"]
    # a plural alone is no slip of a title: a topic typed in title case (a review's)
    assert title_respellings(titled_store.index, "Which papers use Attention-Based Model for "
                                                 "Speech Recognition?") == {}
    # another word is no slip: "Restoration" is not "Recognition"
    other = titled_store.ask("Who wrote Attention-Based Models for Speech Restoration?")
    assert "as the stored title" not in other.answer


@pytest.fixture(scope="module")
def dated_titles(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(title, text, year) for (title, text), year in zip(PAPERS[:3], (2017, 2015, 1997), strict=True)]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "dated", rows,
                                              ("title", "abstract", "year"))))


def test_a_titled_paper_of_another_year_than_asked_is_answered_with_a_line(
        dated_titles: Assistant) -> None:
    """R10: "What does the NeurIPS 2018 paper Dynamic Routing Between Capsules propose?" was
    answered from another 2018 paper; the paper is of 2017. The stated year that leaves out
    the paper a question names by title is not applied, and a line says so; a question of
    that year's papers about the titled one keeps its year."""
    answer = dated_titles.ask("What did the paper Attention is All you Need from 2015 propose?")
    assert answer.answer.startswith("“Attention is All you Need” (")
    assert "is a stored paper of 2017, not of year 2015: answered without that filter." in answer.answer
    assert answer.sources and answer.sources[0].title == "Attention is All you Need"
    assert answer.filters is None
    # C65: quoted, or asked of with a word for others' work after it, it is the paper's too
    for asked in ('What did "Attention is All you Need" from 2015 propose?',
                  "How does the paper Attention is All you Need from 2015 improve on recurrent networks?"):
        assert "answered without that filter" in dated_titles.ask(asked).answer, asked
    for other in ("What do 2015 papers say about Attention is All you Need?",
                  # C63: a title also a method's name, asked of others' work ("How was Latent
                  # Dirichlet Allocation extended in 2015?" had lost its year)
                  "How was Attention is All you Need extended in 2015?",
                  "What did Attention is All you Need propose in 2015?",  # no "paper"
                  # C64: quoted, of other papers
                  'How did work in 2015 improve on the paper "Attention is All you Need"?',
                  'How was "Attention is All you Need" extended in 2015?',
                  'How was the paper "Attention is All you Need" extended in 2015?',  # C66
                  "What work in 2015 used Attention is All you Need?"):
        others = dated_titles.ask(other)
        assert "answered without that filter" not in others.answer and others.filters == "year 2015", other
    # ...and a --year given is the user's own (C63: it had been widened)
    given = dated_titles.ask("What did the paper Attention is All you Need propose?",
                             filters=Filters(years=(2015, 2015)))
    assert "answered without that filter" not in given.answer and given.filters == "year 2015"
