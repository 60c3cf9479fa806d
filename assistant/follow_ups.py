"""A chat follow-up that narrows the list or count before it ("Which papers use capsule
networks?", then "How many of them are from 2019?", "And since 2019?", "Which of these are
by Hinton?"): the earlier question asked again under the follow-up's filters.

Why: offline, a follow-up is joined to the question before it and given the cited answer of a
few abstracts. A list's follow-up that states a year or an author asks for the same list
narrowed, or its count, which five abstracts cannot give: "How many of them are from 2019?"
had been answered with a comparison of two papers, where the list holds four of 2019.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.errors import BadInputError
from assistant.intent import Intent
from assistant.list_answers import count_topic
from assistant.topics import topic_of
from assistant.types import Filters

HOW_MANY = re.compile(r"^\W*how\s+many\b", re.I)


@dataclass(frozen=True)
class Narrowed:
    """The earlier question a follow-up narrows, under which filters, and whether that was
    a count or a trend (answered so again) rather than a list. "How many of them…?" after a
    list is the list narrowed, whose first line counts it: a trend of the list's question
    had counted 56 papers of 2019 where the list held 6."""

    question: str
    filters: Filters
    counted: bool
    earlier: Filters | None = None  # the filters of the list or count it narrows


def narrowed(question: str, history: Sequence[tuple[str, str]],
             read: Callable[[str], Intent]) -> Narrowed | None:
    """What a follow-up narrows: the latest earlier question that asked for a list, a count
    or a trend (``read``: a question's routing intent), when the follow-up points back at it
    and states filters of its own, which replace the earlier question's ("Which papers
    from 2018 use GANs?", then "And from 2019?": 2019's); a narrowing follow-up before it
    narrows too ("And since 2019?", then "Which of them are by Hinton?": both). None for
    any other question."""
    asked = read(question)
    if not history or not (asked.follow_up and asked.filters):
        return None
    before = read(history[-1][0])
    counted = before.trend_topic is not None or bool(count_topic(before))
    if before.wants_list or counted:
        return Narrowed(before.search, replaced(before.filters, asked.filters), counted,
                        before.filters)
    if (chained := narrowed(history[-1][0], history[:-1], read)) is None:
        return None
    return Narrowed(chained.question, replaced(chained.filters, asked.filters), chained.counted,
                    chained.filters)


def check_anchored(question: str, history: Sequence[tuple[str, str]],
                   read: Callable[[str], Intent], names_a_topic: Callable[[str], bool]) -> None:
    """BadInputError for a follow-up that would narrow an earlier list or count (it points
    back, states filters and names no topic of its own: "How many of them are from 2019?",
    "Which of these are by Hinton?", "And since 2019?") asked with nothing before it, as
    the CLI's ``ask`` and a chat's first turn are: it had been answered by quoting papers
    near "them" (a federated-learning paper for "How many of them…"), or refused."""
    if history:
        return
    asked = read(question)
    topic = HOW_MANY.sub("", topic_of(asked.search, False))  # "many" is no topic word
    if asked.follow_up and asked.filters and not names_a_topic(topic):
        raise BadInputError(
            f"“{question.strip()}” narrows an earlier list or count ({asked.filters.describe()}), "
            "and there is none before it: ask for the list itself with its topic, e.g. "
            "“Which papers on graph neural networks are from 2019?”")


def replaced(earlier: Filters | None, said: Filters) -> Filters:
    """``earlier`` with each field ``said`` states replaced: the years (a range, the years
    named, the last so many) together, the venue, the author."""
    if earlier is None:
        return said
    years = said if said.years is not None or said.recent is not None else earlier
    return Filters(years=years.years, named_years=years.named_years, recent=years.recent,
                   note=years.note, venue=said.venue or earlier.venue,
                   author=said.author or earlier.author)
