"""Requests for papers that name no topic and no filter ("Nice papers!", "Papers?", "Show
me papers"): one line saying what to ask, the same for each, not a list of papers writing
"nice" nor an answer quoting papers that write "great"."""

from __future__ import annotations

import pytest

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.topics import topic_of
from assistant.types import Filters

NO_TOPIC = ("Nice papers!", "Great papers.", "Cool papers", "Papers", "Papers?", "Show me papers",
            "List papers", "Give me some papers", "Which papers?")


@pytest.mark.parametrize("question", NO_TOPIC)
def test_a_request_for_papers_with_no_topic_is_a_list_of_no_topic(question: str) -> None:
    """"Nice papers!" had been a list on "Nice !" (A-NICE-MC first among the 13.9k), and
    "Great papers." an answer quoting "great practical performance": words that judge
    papers name no topic, and a request made of them and the papers' noun is read as the
    other topic-less requests are, a list whose topic is empty."""
    intent = read_intent(question)
    assert intent.wants_list and intent.trend_topic is None
    assert topic_of(intent.search, or_question=False).strip(" ?.!") == ""


@pytest.mark.parametrize(("question", "topic"), [
    ("GAN papers", "GAN"),
    ("Show me all federated learning papers", "federated learning"),
    ("Which papers use cooling?", "use cooling?"),  # "cool" only as a whole word
])
def test_a_topic_beside_the_papers_noun_is_still_listed(question: str, topic: str) -> None:
    intent = read_intent(question)
    assert intent.wants_list and topic_of(intent.search, or_question=False) == topic


def test_a_judging_word_beside_a_filter_lists_the_filters_papers() -> None:
    """A filter is something to list: "Nice papers by Yoshua Bengio!" is his papers."""
    intent = read_intent("Nice papers by Yoshua Bengio!")
    assert intent.wants_list and intent.filters == Filters(author="Yoshua Bengio")


@pytest.mark.parametrize("question", NO_TOPIC)
def test_every_topicless_request_gets_the_same_one_line(seed_assistant: Assistant,
                                                        question: str) -> None:
    with pytest.raises(BadInputError, match="^the question names no topic to list papers on; "
                                            "ask e.g. "):
        final_answer(seed_assistant.answer_stream(question))
