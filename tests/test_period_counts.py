"""A count compared over two spans of years ("Were there more papers on MCMC in the 1990s or
in the 2010s?") is the topic's count in each span, weighed by count and by share: R9's run
had quoted five abstracts under both decades' filter, read "than in the 2010s" as no years
and counted "the 1990s" as a topic."""

from __future__ import annotations

import pytest
from test_count_questions import capsule_years  # noqa: F401  (the fixture)

from assistant.answering import final_answer
from assistant.authors import AuthorBook
from assistant.count_comparison import compared_periods
from assistant.counted_topics import counted_topic
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.topic_shares import asks_fewer
from assistant.types import Filters

NINETIES, TENS = (1990, 1999), (2010, 2019)


@pytest.mark.parametrize(("question", "spans"), [
    ("Were there more papers on MCMC in the 1990s or in the 2010s?", (NINETIES, TENS)),
    ("Were there more MCMC papers in the 1990s than in the 2010s?", (NINETIES, TENS)),
    ("Did more papers study MCMC in 2019 or 2015?", ((2019, 2019), (2015, 2015))),
    ("Which decade had more papers on MCMC, the 1990s or the 2010s?", (NINETIES, TENS)),
    # C62: years the year reader alone had read one of, or none
    ("Which had more papers on MCMC, 2015 or 2019?", ((2015, 2015), (2019, 2019))),
    ("Were there more papers on MCMC in 2019 than there were in 2015?", ((2019, 2019), (2015, 2015))),
    # the topic beside the comparison, each span alone (C62's left-out forms)
    ("Which had more MCMC papers: the 1990s or the 2010s?", (NINETIES, TENS)),
    ("Did MCMC have more papers in the 2010s than in the 1990s?", (TENS, NINETIES)),
    ("Was MCMC more studied in the 1990s or the 2010s?", (NINETIES, TENS)),
])
def test_a_count_over_two_spans_counts_the_topic_in_both(question: str,
                                                         spans: tuple[tuple[int, int], ...]) -> None:
    found = compared_periods(question)
    assert found is not None and found[1:] == spans
    intent = read_intent(question)
    assert counted_topic(intent) == "MCMC"
    asked = {year for first, last in spans for year in range(first, last + 1)}
    assert intent.filters is not None
    assert {year for year in range(1980, 2030) if intent.filters.holds_year(year)} == asked


@pytest.mark.parametrize("question", [
    "Are there more papers on GANs or on VAEs?",  # two topics
    "Were there more papers on GANs in 2019 or on VAEs in 2020?",
    "Were there more papers on GANs in 2019 or VAEs?",  # a side with no span
    # C62: three spans (one had been dropped, "MCMC , 2017" counted), a range opened at a
    # year ("GANs after" counted), and no topic but the papers (an error)
    "Were there more papers on MCMC in 2015, 2017 or 2019?",
    "Were there more papers on GANs after 2018 than in 2015?",
    "Were there more papers in 2019 or 2020?",
    "Were there more papers on the 1990s or the 2010s?",  # C63: searched "papers on"
    "Which year had more papers, 2018 or 2019?",  # no topic beside the spans
    "Which had more MCMC papers: NeurIPS or ICML?",  # venues, not spans
    "Did GANs have more papers than VAEs in 2019?",  # two topics in one year
    "Was MCMC more popular than variational inference in 2019?",
    # C67: what a paper is ("accepted"), and a pronoun, are no topic
    "Which had more accepted papers: 2019 or 2020?",
    "What year saw more published papers: 2019 or 2020?",
    "Did he have more papers in the 1990s than in the 2010s?",
    "Do you have more papers from 2019 or 2020?",
])
def test_no_count_over_two_spans_is_read_where_none_is_asked(question: str) -> None:
    assert compared_periods(question) is None or counted_topic(read_intent(question)) is None


def test_an_author_or_a_venue_compared_over_two_spans_is_no_topic() -> None:
    """C67: "Did Michael I. Jordan have more papers in the 2000s than in the 2010s?" had been
    counted as the abstracts writing his name ("None in either", of his 40 and 15), and
    NeurIPS as those writing "NeurIPS"; an acronym that is also a family name still counts
    as its topic ("GAN", of Zhe Gan)."""
    book = AuthorBook(["Michael I. Jordan, Zhe Gan", "Geoffrey Hinton"])
    for question in ("Did Michael I. Jordan have more papers in the 2000s than in the 2010s?",
                     "Did Hinton have more papers in the 1990s than in the 2010s?",
                     "Did NIPS have more papers in 1995 than in 2017?"):
        assert counted_topic(read_intent(question, ("NeurIPS",), book)) is None, question
    gan = read_intent("Which year had the fewest GAN papers: 2015 or 2019?", ("NeurIPS",), book)
    assert counted_topic(gan) == "GAN"


def test_decades_set_against_each_other_elsewhere_are_no_filter() -> None:
    """C62: read as years anywhere, "the 1990s or the 2000s" had replaced a question's own
    year ("Which papers from 2021 contrast the 1980s versus the 2010s …" read as no 2021)."""
    assert read_intent("Which papers mention the 1990s or the 2000s?").filters is None
    found = read_intent("Which papers from 2021 contrast the 1980s versus the 2010s approaches?").filters
    assert found is not None and found.years == (2021, 2021)


def test_spans_compared_are_weighed_by_count_and_by_share(capsule_years: Assistant) -> None:  # noqa: F811
    """The store holds one paper of 2018 (on capsules), four of 2019 (two on capsules) and
    one of 2020 (on capsules)."""
    split = final_answer(capsule_years.answer_stream(
        "Were there more papers on capsule networks in 2018 or in 2019?")).answer
    assert ("That is 1 in 2018 and 2 in 2019; as a share of each one's stored papers, 100.0% of 1 "
            "and 50.0% of 4. More papers in 2019; a larger share of its papers in 2018.") in split
    fewer = final_answer(capsule_years.answer_stream(  # C64: "fewer" answered as asked
        "Were there fewer papers on capsule networks in 2018 or in 2019?")).answer
    assert "Fewer papers in 2018; a smaller share of its papers in 2019." in fewer
    beside = final_answer(capsule_years.answer_stream(  # the topic before "fewer", spans alone
        "Did capsule networks have fewer papers in 2019 than in 2018?")).answer
    assert "That is 2 in 2019 and 1 in 2018; as a share of each one's stored papers, 50.0% of 4 " \
           "and 100.0% of 1. Fewer papers in 2018; a smaller share of its papers in 2019." in beside
    even = final_answer(capsule_years.answer_stream(
        "Were there fewer papers on capsule networks in 2018 than in 2020?")).answer
    assert "That is 1 in 2018 and 1 in 2020; as a share of each one's stored papers, 100.0% of 1 and " \
           "100.0% of 1. As many in each." in even
    # C62: the difference a "how many more" asks; a span with no stored paper said so; a
    # --year cutting a span leaves no line of years it never counted
    more = final_answer(capsule_years.answer_stream(
        "How many more papers on capsule networks in 2019-2020 than in 2018?")).answer
    assert "That is 3 in 2019–2020 and 1 in 2018; as a share of each one's stored papers, 60.0% of 5 " \
           "and 100.0% of 1. 2 more in 2019–2020 than in 2018." in more
    empty = final_answer(capsule_years.answer_stream(
        "Were there more papers on capsule networks in 1975 or in 2019?")).answer
    assert "That is 0 in 1975 and 2 in 2019. No paper of 1975 is stored." in empty
    cut = final_answer(capsule_years.answer_stream("Were there more papers on capsule networks in 2018 "
                                                   "or in 2020?", filters=Filters(years=(2019, 2020)))).answer
    assert "That is" not in cut and "More" not in cut
    assert "The filter given (years 2019–2020) does not hold all of 2018 and 2020: ask without it" in cut


def test_fewer_is_asked_by_the_comparison_not_by_its_topic() -> None:
    """C66: "less" in the topic ("learning from less labeled data") had turned the verdict
    of a question asking which had more."""
    more = "Were there more papers on learning from less labeled data in the 2000s or the 2010s?"
    fewer = "Did fewer papers study MCMC in 2019 or 2015?"
    after = "Did MCMC have fewer papers in the 2010s than in the 1990s?"  # "fewer" after the topic
    fewest = "Which year had the fewest GAN papers: 2015 or 2019?"  # C67: answered as "more"
    for question, asked in ((more, False), (fewer, True), (after, True), (fewest, True)):
        periods = compared_periods(question)
        assert periods is not None and asks_fewer(question, periods[0]) is asked, question


@pytest.mark.parametrize("question", [
    "How did the number of MCMC papers in 2018 compare with 2021?",
    "How does the number of MCMC papers in 2018 compare to 2021?",
    "What was the number of MCMC papers in 2018 and 2021?"])
def test_a_number_of_papers_in_two_years_is_counted_in_both(question: str) -> None:
    """R12: "How did the number of meta-learning papers in 2018 compare with 2021?" had
    searched 2018 alone and refused (9 and 63 write it); "the number of" after "how did"
    or "what was" asks a count, and "compare with" joins its two years."""
    intent = read_intent(question)
    assert counted_topic(intent) == "MCMC"
    assert intent.filters is not None and intent.filters.named_years == frozenset({2018, 2021})


@pytest.mark.parametrize("question", [
    "How does the number of papers on GANs compare with VAEs?",  # two topics
    "What was the number of papers Hinton wrote?",  # an author's
    "How did the number of papers citing BERT change?"])
def test_a_number_of_papers_with_words_after_the_noun_is_no_count_of_them(question: str) -> None:
    """C68: read as counts, these had counted “GANs compare with VAEs”, “Hinton wrote” (0
    of his 66) and “citing BERT”."""
    assert counted_topic(read_intent(question)) is None


def test_two_years_compared_by_number_are_each_counted(capsule_years: Assistant) -> None:  # noqa: F811
    answer = final_answer(capsule_years.answer_stream(
        "How did the number of capsule network papers in 2018 compare with 2019?")).answer
    assert "That is 1 in 2018 and 2 in 2019" in answer
