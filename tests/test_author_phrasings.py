"""How researchers name a paper's authors beyond "papers by X": as its authors ("papers
that have both Hinton and Sutskever as authors"), writing jointly or together, or what
they said ("What did Hinton say about capsules?"). Each had been a false zero or a false
"no" in a run, the names searched as words."""

from __future__ import annotations

import pytest

from assistant.authors import AuthorBook
from assistant.intent import read_intent
from assistant.types import Filters


@pytest.mark.parametrize(("question", "author", "search"), [
    ("How many papers have both Hinton and Sutskever as authors?", "Hinton and Sutskever",
     "How many papers?"),
    ("Which papers with Bengio as co-author use attention?", "Bengio", "Which papers use attention?"),
    ("papers written jointly by Hinton and Sutskever", "Hinton and Sutskever", "papers"),
    ("papers that have Yann LeCun as an author", "Yann LeCun", "papers"),
    ("Did Bengio and LeCun ever publish together?", "Bengio and LeCun", "Did?"),
    ("What did Hinton say about capsules?", "Hinton", "What about capsules?"),
    # a run: "et al." anywhere cites the name (its words had been searched, a false "no")
    ("What did Vaswani et al. propose in 2017?", "Vaswani", "What did propose?"),
    ("how many papers did Hinton et al. publish on capsules?", "Hinton",
     "how many papers did publish on capsules?"),
    # a second review: these had lost the author again
    ("What were Sabour et al. studying?", "Sabour", "What were studying?"),
    ("Summarize Sabour et al.", "Sabour", "Summarize"),
    ("In 2017, Vaswani et al. proposed what?", "Vaswani", "proposed what?"),
    # a run: "how many of papers are about X?" was no count, answered by one paper
    ("how many of Sergey Levine's papers are about reinforcement learning?", "Sergey Levine",
     "how many papers are about reinforcement learning?"),
    ("Which of Hinton's papers use capsules?", "Hinton", "Which papers use capsules?"),
])
def test_authors_named_as_the_papers_authors_or_writers_are_read(
        question: str, author: str, search: str) -> None:
    intent = read_intent(question)
    assert intent.filters is not None and intent.filters.author == author
    assert intent.search == search


@pytest.mark.parametrize("question", [
    "What did the authors say about robustness?", "What did they say about it?",
    "What does et al. mean?",
    # a work cited, built on or compared with (a review: "McMahan" had been read as "Mahan")
    "Which papers build on McMahan et al.?", "Which papers improve on LeCun et al.?",
    "Which papers compare with Ashish Vaswani et al.?",
    "Which papers outperform (Vaswani et al., 2017)?",
    # a third review: a work cited after a comma or "was"
    "Which papers build on the Transformer, Vaswani et al.?",
    "The baseline was Mikolov et al.; what improves on it?",
])
def test_what_no_name_said_names_no_author(question: str) -> None:
    assert read_intent(question).filters is None


@pytest.mark.parametrize("question", ["papers that have Yann LeCun as an author",
                                      "papers that have both Yoshua Bengio and Aaron Courville as authors"])
def test_papers_that_have_an_author_stand_alone(question: str) -> None:
    """A run: with nothing before it, such a question had been refused as narrowing an
    earlier list ("that" may point back, and the names no longer counted as its own)."""
    assert not read_intent(question).follow_up


@pytest.mark.parametrize(("question", "author", "search"), [
    # a run: "by hinton" after the topic had been searched as words (60 papers, the
    # count line naming "boltzmann machines by hinton"), where "by Hinton" counted 12
    ("how many papers on boltzmann machines by hinton", "hinton",
     "how many papers on boltzmann machines"),
    ("list papers on attention by yoshua bengio since 2015", "yoshua bengio",
     "list papers on attention"),
    # words no stored paper has as its author's, or none at all, stay words
    ("Which papers improve sampling by annealing?", None, None),
    ("Which papers are inspired by hebb?", None, None),
    ("papers on graphs by hand", None, None),
])
def test_a_stored_author_in_lower_case_after_the_topic_is_read(
        question: str, author: str | None, search: str | None) -> None:
    from test_authors import BOOK

    intent = read_intent(question, (), BOOK)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert intent.search.rstrip("?") == search


@pytest.mark.parametrize(("question", "author", "search"), [
    # a run: the names searched as words, a false "no" ("No stored title or abstract uses
    # 'Sabour', 'Frosst'"); read only where the store holds the names
    ("What did Sabour, Frosst and Hinton propose in 2017?", "Sabour, Frosst and Hinton", "What?"),
    ("What did Hinton find about capsules?", "Hinton", "What about capsules?"),
    ("What did BERT show?", None, "What did BERT show?"),
    ("What did Adam propose?", None, "What did Adam propose?"),  # a review: the optimizer
])
def test_what_a_stored_author_proposed_reads_the_author(question: str, author: str | None,
                                                        search: str) -> None:
    book = AuthorBook(["Sara Sabour, Nicholas Frosst, Geoffrey E. Hinton", "Hartwig Adam",
                       *(f"Geoffrey Hinton, Author {n}" for n in range(5))])  # more a name
    intent = read_intent(question, (), book)
    assert (intent.filters.author if intent.filters and intent.filters.author else None) == author
    assert intent.search == search
    assert read_intent(question).search == question.replace(" in 2017", "")  # no book: words


@pytest.mark.parametrize(("question", "author"), [
    ("How many papers on GANs by Zzz Qqq?", "Zzz Qqq"),
    ("Which papers on capsule networks by Ian Goodfelow?", "Ian Goodfelow"),
    ("How many papers on GANs by Zzz Qqq in 2019?", "Zzz Qqq"),
    # a review (C48): a method's or an institution's words, which the abstracts write
    ("How many papers on regression by Gaussian Processes?", None),
    ("How many papers on planning by Monte Carlo Tree Search?", None),
    ("Summarize papers on bandits by Thompson Sampling", None),
    ("How many papers on language models by Google Research?", None),
    ("List papers on GANs by Publication Date", None),
    ("Which papers on attention inspired by Zzz Qqq?", None),  # after a verb
    ("How many papers on GANs by Qqq?", None),  # one word: only a stored author's
    ("How many papers on optimization by Frank Wolfe?", None),  # C49: the abstracts write it
])
def test_a_full_name_no_paper_has_after_the_topic_is_read_when_no_abstract_writes_it(
        question: str, author: str | None) -> None:
    """A review (C46): "How many papers on GANs by Zzz Qqq?" had counted 0 papers matching
    “GANs by Zzz Qqq”; read as the author, one the store does not hold is refused naming
    the nearest ("Ian Goodfelow": Ian Goodfellow), as "written by …" is."""
    book = AuthorBook(["Ian Goodfellow, Yoshua Bengio", "William R. Thompson", "Anne Frank, Philip Wolfe"],
                      ["Gaussian processes for regression.", "Monte Carlo tree search plans.",
                       "Thompson sampling for bandits.", "Google Research language models.",
                       "The publication date of papers.",
                       *(f"Sampling {n} Frank-Wolfe trees processes, models, search, research, date."
                         for n in range(3))])
    intent = read_intent(question, (), book)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert author not in intent.search
        assert not (read_intent(question).filters or Filters()).author  # the store's test
