"""The subject a chat's list, count or trend follow-up names by a pronoun ("What is dropout?",
then "which papers use it?"), spelled into it: "which papers use dropout?".

Why a module: a list's topic is read from its question alone, and the offline join that
answers other follow-ups ("who proposed it?" searched with "What is dropout?") cannot make a
list of two questions. "which papers use it?" after "What is dropout?" had been refused as
naming no topic, and "which papers combine them?" after a variational autoencoder compared
to GANs had listed papers on combining classifiers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.follow_up_phrases import THOSE_RE, asks_for_list_before
from assistant.intent import COUNT_RE, read_intent
from assistant.leaning import ALONE_WORDS, ASPECTS, DEFINES_RE, leans_on_previous
from assistant.naming import named_phrases
from assistant.trend_questions import trimmed_topic

SUBJECT_TURNS = 3  # how far back the question defining the chat's subject is looked for
_PRONOUN = re.compile(r"\b(?:(?P<it>it)|them)\b(?!\s+(?:true|possible|known)\b)", re.I)
# a definition beside DEFINES_RE's: "What is a variational autoencoder?", "What is the lottery
# ticket hypothesis?", when the turn leans on none before ("What is the paper about?" does)
_DEFINES_ARTICLE = re.compile(rf"^\W*what\s+(?:is|are|was|were)\s+(?:an?|the)\s+(?!{ASPECTS}|papers?\b"
                              rf"|works?\b|stud(?:y|ies)\b)[a-z]", re.I)
# "the difference between GANs and VAEs": its two sides ("which papers use them?")
_BETWEEN = re.compile(r"^(?:differences?|relationships?|relations?|connections?|links?|similarit(?:y|ies)"
                      r"|distinctions?|trade-?offs?|gaps?)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I)
# "the role of dropout", "the goal of federated learning": dropout, federated learning
_OF_THING = re.compile(rf"^(?:{ALONE_WORDS})(?:e?s)?\s+(?:of|in|for)\s+(?:the\s+)?", re.I)
_PLACE_WORDS = frozenset("first second third fourth fifth last one ones paper papers".split())
_FIRST_CLAUSE = re.compile(r"[?;:.!]|\s(?:and|but)\s", re.I)  # "What is X? How is it used?"


def spelled_out(question: str, history: Sequence[tuple[str, str]]) -> str | None:
    """``question`` with its first "it" or "them" read as the chat's subject (``subject_of``),
    for a question asking for papers (a list, a count or a trend) that does not point at
    the papers before ("which of them…", "list them": those are the list's), or None."""
    m = _PRONOUN.search(question)
    if not m or THOSE_RE.search(question) or asks_for_list_before(question):
        return None
    read = read_intent(question)
    if not (read.wants_list or read.trend_topic is not None or COUNT_RE.search(question)):
        return None
    subjects = subject_of(history)
    if not subjects:
        return None
    said = subjects[0] if m.group("it") else " and ".join(subjects)
    return f"{question[:m.start()]}{said}{question[m.end():]}"


def subject_of(history: Sequence[tuple[str, str]]) -> list[str]:
    """What the chat's last few turns are about: the thing the last definition asked of
    ("What is a variational autoencoder?": "variational autoencoder"; "the difference
    between GANs and VAEs": both), then the names each turn leaning on it adds ("How does
    it compare to GANs?": "GANs"), or the subject a list's pronoun was read as ("which
    papers use it?" before); none when a turn of its own subject, or a list, comes first."""
    added: list[str] = []
    for turn in reversed(range(max(0, len(history) - SUBJECT_TURNS), len(history))):
        asked, read = history[turn][0], read_intent(history[turn][0])
        if read.wants_list or read.trend_topic is not None or COUNT_RE.search(asked):
            spelled = _PRONOUN.search(asked) and spelled_out(asked, history[:turn])
            return subject_of(history[:turn]) if spelled else []
        if DEFINES_RE.match(asked) or (_DEFINES_ARTICLE.match(asked) and not leans_on_previous(asked)):
            if m := _BETWEEN.match(trimmed_topic(re.split(r"[?;:.!]", asked, maxsplit=1)[0])):
                return [m.group("a"), m.group("b")]
            defined = _OF_THING.sub("", trimmed_topic(_FIRST_CLAUSE.split(asked, maxsplit=1)[0]))
            if not set(defined.lower().split()) - _PLACE_WORDS:  # "What is the second one?"
                return []
            return [defined, *dict.fromkeys(n for n in added if n.lower() not in defined.lower())]
        if not leans_on_previous(asked):
            return []
        added[:0] = named_phrases(asked)
    return []
