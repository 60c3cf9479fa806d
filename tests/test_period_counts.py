"""A count compared over two spans of years ("Were there more papers on MCMC in the 1990s or
in the 2010s?") is the topic's count in each span, weighed by count and by share: R9's run
had quoted five abstracts under both decades' filter, read "than in the 2010s" as no years
and counted "the 1990s" as a topic."""

from __future__ import annotations

import pytest
from test_count_questions import capsule_years  # noqa: F401  (the fixture)

from assistant.answering import final_answer
from assistant.count_comparison import compared_periods
from assistant.counted_topics import counted_topic
from assistant.intent import read_intent
from assistant.pipeline import Assistant

NINETIES, TENS = (1990, 1999), (2010, 2019)


@pytest.mark.parametrize(("question", "spans"), [
    ("Were there more papers on MCMC in the 1990s or in the 2010s?", (NINETIES, TENS)),
    ("Were there more MCMC papers in the 1990s than in the 2010s?", (NINETIES, TENS)),
    ("Did more papers study MCMC in 2019 or 2015?", ((2019, 2019), (2015, 2015))),
    ("Which decade had more papers on MCMC, the 1990s or the 2010s?", (NINETIES, TENS)),
])
def test_a_count_over_two_spans_counts_the_topic_in_both(question: str,
                                                         spans: tuple[tuple[int, int], ...]) -> None:
    assert compared_periods(question) == ("MCMC", *spans)
    intent = read_intent(question)
    assert counted_topic(intent) == "MCMC"
    asked = {year for first, last in spans for year in range(first, last + 1)}
    assert intent.filters is not None
    assert {year for year in range(1980, 2030) if intent.filters.holds_year(year)} == asked


@pytest.mark.parametrize("question", [
    "Are there more papers on GANs or on VAEs?",  # two topics
    "Were there more papers on GANs in 2019 or on VAEs in 2020?",
    "Were there more papers on GANs in 2019 or VAEs?",  # a side with no span
])
def test_two_topics_are_no_count_over_two_spans(question: str) -> None:
    assert compared_periods(question) is None


def test_spans_compared_are_weighed_by_count_and_by_share(capsule_years: Assistant) -> None:  # noqa: F811
    """The store holds one paper of 2018 (on capsules), four of 2019 (two on capsules) and
    one of 2020 (on capsules)."""
    split = final_answer(capsule_years.answer_stream(
        "Were there more papers on capsule networks in 2018 or in 2019?")).answer
    assert ("That is 1 in 2018 and 2 in 2019; as a share of each one's stored papers, 100.0% of 1 "
            "and 50.0% of 4. More papers in 2019; a larger share of its papers in 2018.") in split
    even = final_answer(capsule_years.answer_stream(
        "Were there fewer papers on capsule networks in 2018 than in 2020?")).answer
    assert "That is 1 in 2018 and 1 in 2020; as a share of each one's stored papers, 100.0% of 1 and " \
           "100.0% of 1. As many in each." in even
