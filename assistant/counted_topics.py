"""What a count or trend question counts: its topic ("How many papers on Bayesian
optimization?" → Bayesian optimization, ``count_topic``; a trend's ``Intent.trend_topic``)
and the topics a comparison of counts sets against each other (``compared_in``).

Why apart from list_answers.py: the pipeline, the chat's follow-ups and the counts each ask
what a question counts before anything is screened; the reading is the question's and the
store's words, not the screen's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.count_comparison import MAX_COMPARED, compared_sides, versus_topics
from assistant.errors import BadInputError
from assistant.intent import COUNT_RE, Intent, share_of_a_topic
from assistant.store_answers import BEING_END, CAME_OUT_END, DATED_CAME_OUT, STORE_PHRASE
from assistant.topic_shares import share_asked_of
from assistant.topics import RECENTLY_RE, sharing_head, written_as_pair
from assistant.trend_questions import trimmed_topic

if TYPE_CHECKING:
    from assistant.index import AbstractIndex

# "how many more (fewer) papers…" under a range of years: each year's count answers it
_MORE = re.compile(r"^(\s*how\s+many)\s+(?:more|fewer|less)\b", re.I)


def counted_topic(intent: Intent) -> str | None:
    """The topic a trend or count question counts (``Intent.trend_topic``, else
    ``count_topic``), or None for any other question."""
    return intent.trend_topic if intent.trend_topic is not None else count_topic(intent)


# papers "in the dataset" (database, index) are the store's, which STORE_PHRASE leaves alone
_PAPERS_HELD = re.compile(r"\b(papers|abstracts|articles|publications)\s+(?:in|within|from)\s+(?:the|this)\s+"
                          r"(?:data\s*set|data\s*base|index|archive|library)\b", re.I)


def count_topic(intent: Intent) -> str | None:
    """The topic of a question asking how many papers answer it ("How many papers on
    Bayesian optimization?" → Bayesian optimization), answered by the topic's trend: the
    count `trends` gives, by the same screen and reading budget (a list's shorter reading
    had kept 156 of 237 unread); one comparing two spans of years by it is read as such a
    count (``intent.over_periods``). None when it asks no such count, is a trend or a term
    lookup (its words as written, each holder counted), or names no topic (a year's or an
    author's papers: every paper of the filter, the list's count already)."""
    if intent.trend_topic is not None or intent.lookup_terms or intent.compared_topics:
        return None
    search = intent.search
    if intent.filters and intent.filters.years and intent.filters.years[0] < intent.filters.years[1]:
        search = _MORE.sub(r"\1", search)  # "how many more papers on X in 2021 than in 2020"
    asked = COUNT_RE.search(_PAPERS_HELD.sub(r"\1", search))  # "papers in the dataset": the store's
    if asked and not share_asked_of(intent) and share_of_a_topic(
            COUNT_RE.search(STORE_PHRASE.sub(" ", asked.string)) or asked):
        return None  # "What share of the papers on X use Y?"
    # the store named is no topic ("…on GANs are in the store?"), nor that papers exist
    said = " ".join(f"{asked.group('lead') or ''} {asked.group('topic')}".split()) if asked else ""
    said = CAME_OUT_END.sub(" ", said) if DATED_CAME_OUT.search(intent.question) else said
    said = RECENTLY_RE.sub(" ", said)  # "… were published in recent years?": all of them (C61)
    topic = trimmed_topic(BEING_END.sub(" ", STORE_PHRASE.sub(" ", said)))
    return topic if re.search(r"\w", topic) else None


def compared_in(intent: Intent, index: AbstractIndex) -> tuple[str, ...] | None:
    """The topics a question compares by their papers' count (two, or up to MAX_COMPARED):
    ``Intent.compared_topics``, or a trend's or a count's topic setting two against each
    other ("How many papers on GANs vs VAEs per year?", ``versus_topics``), each counted as
    a comparison counts, unless the field writes the pair as one thing ("exploration vs
    exploitation", ``written_as_pair``)."""
    if intent.compared_topics is not None:
        if (sides := compared_sides(intent.compared_topics)) is None:  # six, "T5 in FLOPs"
            raise BadInputError(f"the topics the question compares by count are unclear; name 2 to "
                                f"{MAX_COMPARED} topics, as in \"Which has more papers: GANs, VAEs "
                                "or flows?\"")
        return sides
    sides = versus_topics(intent.trend_topic if intent.trend_topic is not None
                          else count_topic(intent))
    return None if sides is None or written_as_pair(*sides, index) else sharing_head(*sides, index)
