"""Why a list or trend topic is bad input: empty, over-long, or naming nothing the index can
search for ("C++", "the"): one line naming the problem and the fix, exit 2."""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.answering import MAX_QUESTION_CHARS
from assistant.errors import BadInputError
from assistant.keywords import STOPWORDS, query_terms


def bad_topic(topic: str, names_a_topic: Callable[[], bool]) -> BadInputError | None:
    """Why a trend's topic is refused: empty, over-long, or naming nothing to search for
    (``names_a_topic``, asked last); None when it is a topic."""
    if not topic or not topic.strip(" ?.!\"'"):
        return BadInputError("the topic is empty; give one, e.g. \"graph neural networks\"")
    if len(topic) > MAX_QUESTION_CHARS:
        return BadInputError(f"the topic is {len(topic):,} characters long; the limit is "
                             f"{MAX_QUESTION_CHARS:,}: give a shorter one")
    if not names_a_topic():
        return BadInputError(unsearchable(topic) or f"the topic “{topic.strip()}” has no word "
                             "to search for, only common ones; give one, e.g. \"graph "
                             "neural networks\"")
    return None


def unsearchable(topic: str) -> str | None:
    """Why a topic whose words the index cannot search ("C++", "R": one letter and symbols)
    is refused, naming them; None when it holds only common words (or none)."""
    words = [w for w in re.findall(r"[^\s?!.,;:\"'“”()]+", topic)
             if w.lower() not in STOPWORDS and not query_terms(w)]  # "C++", not "use"
    if not words:
        return None
    return (f"the index cannot search for {', '.join(words)}: it reads words of two letters or "
            "more, without symbols; ask with other words for the same topic")
