"""A follow-up naming a paper of the answer before by its number or place ("summarize the
second one", "who wrote [3]?", "the 7th one", "paper 12"), asked anew of that paper's title.

Why a module: a place is read before any other follow-up (follow_ups.py routes them), and
it reads the answers before, not the store: "summarize the second one" after a list had
been answered with two other papers, and "the 13th one" after a list of 12 with a false "no".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from assistant.errors import BadInputError
from assistant.keywords import query_terms
from assistant.paper_order import asks_for_one
from assistant.tuning import OWN_SUBJECT_TERMS

if TYPE_CHECKING:
    from assistant.types import Answer

# a paper of the answer before, by its number or place: "[3]", "the second one", "the 7th
# one", "paper 7", "the last paper", "the first two" (not "the first layer", "#1 on
# ImageNet", "paper 2 of NIPS 1987")
_PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
           "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
           "seventeenth", "eighteenth", "nineteenth", "twentieth")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
POINTED_TURNS = 3  # how far back a place is looked for
# "the first paper on X", "the last paper by Y" ask of the field, not of a list
_ASKS_OF_FIELD = r"(?:on|about|by|to|in|that|which|for|of|with|from|where|using|at)"
POINTED_RE = re.compile(
    r"\[(?P<bracket>\d{1,3})\]"
    # "paper 7", "result #3" ("paper 2 of NIPS 1987" names a paper of the field)
    r"|\b(?:paper|result|item|source|abstract)\s+#?(?P<numbered>\d{1,3})\b"
    rf"(?!\s*{_ASKS_OF_FIELD}\b)"
    rf"|\bthe\s+(?:(?P<place>{'|'.join(_PLACES)}|last)|(?P<nth>\d{{1,3}})(?:st|nd|rd|th))"
    rf"(?:\s+(?P<count>{'|'.join(_COUNTS)}))?"
    r"(?:\s+(?P<one>(?:one|result|item|abstract|source)s?)(?![\w-])"
    rf"|\s+papers?\b(?!\s+{_ASKS_OF_FIELD}\b)|(?P<end>(?=\s*(?:[?.!,;]|$))))", re.I)


def past_pointed(history: Sequence[tuple[str, str]]) -> Sequence[tuple[str, str]]:
    """``history`` without its last turns that asked of one listed paper ("summarize the
    second one", "who wrote it?" after "the earliest paper on X"): "which of those use X?"
    after them works on the list still."""
    while history and (pointed_at(history[-1][0]) or _it(history[-1][0], history[:-1])):
        history = history[:-1]
    return history


def pointed_at(question: str) -> tuple[re.Match[str], list[int]] | None:
    """Where a follow-up points at papers of the answer before by number or place, and
    which (1 the first, -1 the last): "summarize the second one" → [2], "compare the first
    two" → [1, 2], "who wrote [3]?" → [3]. None when it points at none, or asks about a
    subject of its own (more than OWN_SUBJECT_TERMS keywords besides)."""
    m = POINTED_RE.search(question)
    if m is None or len(query_terms(question[:m.start()] + question[m.end():])) > OWN_SUBJECT_TERMS:
        return None  # "Introduction of attention in sequence models: what was the first paper?"
    if number := m.group("bracket") or m.group("numbered"):
        return m, [int(number)]
    place = (m.group("place") or "").lower()
    if place == "last":
        return m, [-1]
    first = int(m.group("nth")) if m.group("nth") else _PLACES.index(place) + 1
    count = _COUNTS[m.group("count").lower()] if m.group("count") else 1
    return m, list(range(first, first + count))


def resolved(question: str, history: Sequence[tuple[str, str]],
             answer_of: Callable[[str, Sequence[tuple[str, str]]], Answer]) -> str | None:
    """A follow-up pointing at papers of the answer before ("summarize the second one",
    "who wrote [3]?") with their titles in its place ("summarize “Stacked Capsule
    Autoencoders”"), asked anew: the titles are what the answer's search then finds first
    (``name_checks.titled_papers``). The answer before is given again by ``answer_of`` (its
    question and history), its sources in their order. A chat had answered "summarize the
    second one" after a list with two other papers, and "who wrote the third one?" with a
    false "no". "it" after a question asking for one paper is the first (``_it``). None when
    it points at none, or no recent answer numbers papers; BadInputError when it points at
    a number none of them shows, or at "the 0th" (``_past_the_end``)."""
    if not history or (pointed := pointed_at(question) or _it(question, history)) is None:
        return None
    where, numbers = pointed
    # the latest answer showing each number ("[3]"), of the last POINTED_TURNS that were no
    # place themselves: a count's table shows none, and "summarize the third one" then "the
    # second one" is the list's (it had been the summary's second source)
    turns = [turn for turn in range(len(history)) if not pointed_at(history[turn][0])]
    shown = next((turn for turn in reversed(turns[-POINTED_TURNS:])
                  if all(f"[{n}]" in history[turn][1] for n in numbers if n > 0)
                  and re.search(r"\[\d+\]", history[turn][1])), None)
    if shown is None or 0 in numbers:  # "the 0th one" too
        return _past_the_end(where.group(0), [history[t][1] for t in turns[-POINTED_TURNS:]])
    sources = answer_of(history[shown][0], history[:shown]).sources
    picked = [sources[n if n < 0 else n - 1] for n in numbers if 0 < abs(n) <= len(sources)]
    if len(picked) != len(numbers):
        return None
    titles = " and ".join(f"“{source.title}”" for source in picked)
    owned = "'s" if where.group(0).lower() == "its" else ""  # "who are its authors?"
    return f"{question[:where.start()]}{titles}{owned}{question[where.end():]}"


_IT = re.compile(r"\b(?:it|its)\b", re.I)


def _it(question: str, history: Sequence[tuple[str, str]]) -> tuple[re.Match[str], list[int]] | None:
    """"it" or "its" after a question asking for one paper by its order in years ("What is
    the earliest paper on X?"), and the follow-ups asking of it: the first paper of that
    answer's list. "who wrote it?" had been a false "no", and "summarize it" had summarized
    five other papers."""
    m = _IT.search(question)
    before = next((q for q, _ in reversed(history) if not (pointed_at(q) or _IT.search(q))), "")
    return (m, [1]) if m and asks_for_one(before) else None


def _past_the_end(place: str, answers: Sequence[str]) -> None:
    """BadInputError for a place no recent answer numbers, when one numbers papers: after a
    list of 12, "the 13th one" had been searched as words (a false "no"), and "paper 43"
    after 42 had summarized a paper the list did not hold."""
    shown = [int(n) for text in answers for n in re.findall(r"\[(\d+)\]", text)]
    if shown:
        raise BadInputError(f"“{place.strip()}” points at a paper the answers before do not "
                            f"number: they show [1]–[{max(shown)}]; name one of those, or the "
                            "paper's title in quotes")
