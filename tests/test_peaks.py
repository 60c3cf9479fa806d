"""A field's peak asked of its papers ("Did research on GANs peak in 2019?"): read as a
trend over every year, the years it names as the claim the counts check (trend_questions.py)."""

from __future__ import annotations

import pytest

from assistant.intent import read_intent
from assistant.types import OPEN_END, OPEN_START, Filters


@pytest.mark.parametrize(("question", "topic", "claimed"), [
    ("Did research on GANs peak in 2019?", "GANs", (2019, 2019)),
    ("Did GANs peak in 2019?", "GANs", (2019, 2019)),
    ("Did interest in GANs peak around 2019?", "GANs", (2019, 2019)),
    ("Was 2019 the peak of GANs?", "GANs", (2019, 2019)),
    ("Were GANs at their peak in 2019?", "GANs", (2019, 2019)),
    ("Did the number of GAN papers peak in 2019?", "GAN", (2019, 2019)),
    ("Did work on kernel methods peak before 2010?", "kernel methods", (OPEN_START, 2009)),
    ("When did interest in GANs peak?", "GANs", None),
    ("Has research on kernel methods peaked?", "kernel methods", None),
    ("What was the peak year for federated learning?", "federated learning", None),
    ("Which year had the most papers on GANs?", "GANs", None),
    ("Did GANs peak in 2019 or 2020?", "GANs", (2019, 2020)),  # review: read as a filter
    ("Has the use of GANs peaked since 2019?", "GANs", (2019, OPEN_END)),
    # a paper's quantity peaks, or what the question points back at: no field
    ("When did the loss peak?", None, None),
    ("Did the learning rate peak at epoch 10?", None, None),
    ("What was the peak of the loss curve?", None, None),
    ("When did it peak?", None, None),
    ("What is the peak memory usage of FlashAttention?", None, None),
])
def test_a_peak_question_is_a_trend_over_every_year(
        question: str, topic: str | None, claimed: tuple[int, int] | None) -> None:
    """"Did research on GANs peak in 2019?" had been read as no trend, filtered to 2019's
    papers (where any year is the peak): a field's peak is a trend over every year, and
    the years it names are the claim the counts check, not its filter."""
    intent = read_intent(question)
    assert intent.trend_topic == topic
    assert intent.claimed_years == claimed
    if topic is not None:
        assert intent.kind == "trend" and (intent.filters is None or intent.filters.years is None)


def test_a_peak_question_keeps_the_author_it_names() -> None:
    """Only the years a peak question names are its claim; its author still filters."""
    intent = read_intent("Did papers by Yoshua Bengio on attention peak in 2019?")
    assert intent.filters == Filters(author="Yoshua Bengio")
    assert intent.claimed_years == (2019, 2019)
