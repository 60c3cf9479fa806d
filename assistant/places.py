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
from assistant.follow_up_phrases import EDGE_OF_LIST_RE
from assistant.keywords import query_terms
from assistant.leaning import DEFINES_RE
from assistant.paper_order import asks_for_one
from assistant.tuning import OWN_SUBJECT_TERMS

if TYPE_CHECKING:
    from assistant.types import Answer

# a paper of the answer before, by its number or place: "[3]", "the second one", "the 7th
# one", "paper 7", "the last paper", "the first two", "the first and third ones", "papers 2
# and 5", "the second-to-last one" (not "the first layer", "#1 on ImageNet", "paper 2 of
# NIPS 1987")
_PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
           "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
           "seventeenth", "eighteenth", "nineteenth", "twentieth")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
POINTED_TURNS = 3  # how far back a place is looked for
# "the first paper on X", "the last paper by Y" ask of the field, not of a list
_ASKS_OF_FIELD = r"(?:on|about|by|to|in|that|which|for|of|with|from|where|using|at)"
_PLACE = (rf"(?:(?:{'|'.join(_PLACES)}|next)[- ]to[- ]last|penultimate"
          rf"|{'|'.join(_PLACES)}|last|\d{{1,3}}(?:st|nd|rd|th))")
# one place of a list of them, and the place a "…-to-last" counts back from
_PLACE_RE = re.compile(rf"(?P<back>{'|'.join(_PLACES)}|next)[- ]to[- ]last|{_PLACE}", re.I)
_JOINED = r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s+)"  # "the first, third and fifth"
POINTED_RE = re.compile(
    r"\[(?P<bracket>\d{1,3})\]"
    # "paper 7", "result #3", "papers 2 and 5" ("paper 2 of NIPS 1987" names a paper of the field)
    rf"|\b(?:paper|result|item|source|abstract)s?\s+(?P<numbered>#?\d{{1,3}}(?:{_JOINED}#?\d{{1,3}})*)\b"
    rf"(?!\s*{_ASKS_OF_FIELD}\b)"
    rf"|\bthe\s+(?P<places>{_PLACE}(?:{_JOINED}(?:the\s+)?{_PLACE})*)"
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


Pointed = list[tuple[re.Match[str], list[int]]]  # where a question points, and at which papers


def pointed_at(question: str) -> Pointed:
    """Where a follow-up points at papers of the answer before by number or place, and
    which (1 the first, -1 the last): "summarize the second one" → [2], "compare the first
    two" → [1, 2], "compare [1] and [3]" → [1] and [3], "the second-to-last one" → [-2].
    Empty when it points at none, or asks about a subject of its own (more than
    OWN_SUBJECT_TERMS keywords besides). "compare [1] and [3]" had compared [1] alone, and
    "the first and third ones" been a false "no"."""
    found = list(POINTED_RE.finditer(question))
    if not found or len(query_terms(POINTED_RE.sub("", question))) > OWN_SUBJECT_TERMS:
        return []  # "Introduction of attention in sequence models: what was the first paper?"
    return [(m, _numbers(m)) for m in found]


def _numbers(m: re.Match[str]) -> list[int]:
    """The papers one place names: "the first two" → [1, 2], "the last two" → [-2, -1],
    "the first and third" → [1, 3], "papers 2 and 5" → [2, 5]."""
    if number := m.group("bracket") or m.group("numbered"):
        return [int(n) for n in re.findall(r"\d+", number)]
    places = [_place(p) for p in _PLACE_RE.finditer(m.group("places"))]
    if len(places) > 1 or not m.group("count"):
        return places
    count = _COUNTS[m.group("count").lower()]  # "the first two", "the last two"
    return list(range(places[0], places[0] + count) if places[0] > 0 else
                range(places[0] - count + 1, places[0] + 1))


def _place(m: re.Match[str]) -> int:
    """One place, from the first (1) or from the last (-1): "third" → 3, "12th" → 12,
    "penultimate" and "second-to-last" → -2."""
    word = m.group(0).lower()
    if back := m.group("back"):
        return -2 if back.lower() == "next" else -1 - _PLACES.index(back.lower())
    if word == "penultimate":
        return -2
    if word == "last":
        return -1
    return int(word[:-2]) if word[0].isdigit() else _PLACES.index(word) + 1


def resolved(question: str, history: Sequence[tuple[str, str]],
             answer_of: Callable[[str, Sequence[tuple[str, str]]], Answer],
             names_one: Callable[[str], bool] = lambda _: False) -> str | None:
    """A follow-up pointing at papers of the answer before ("summarize the second one",
    "who wrote [3]?") with their titles in its place ("summarize “Stacked Capsule
    Autoencoders”"), asked anew: the titles are what the answer's search then finds first
    (``name_checks.titled_papers``). The answer before is given again by ``answer_of`` (its
    question and history), its sources in their order. A chat had answered "summarize the
    second one" after a list with two other papers, and "who wrote the third one?" with a
    false "no". "it" after a question asking for one paper (by its order in years, or its
    title: ``names_one``) is the first (``_it``). None when
    it points at none, or no recent answer numbers papers; BadInputError when it points at
    a number none of them shows, or at "the 0th" (``_past_the_end``)."""
    if not history or not (pointed := pointed_at(question) or _it(question, history, names_one)):
        return None
    numbers = [n for _, places in pointed for n in places]
    # the latest answer showing each number ("[3]"), of the last POINTED_TURNS that were no
    # place themselves: a count's table shows none, and "summarize the third one" then "the
    # second one" is the list's (it had been the summary's second source)
    turns = [turn for turn in range(len(history))
             if not (pointed_at(history[turn][0]) or _it(history[turn][0], history[:turn], names_one))]
    shown = next((turn for turn in reversed(turns[-POINTED_TURNS:])
                  if all(f"[{n}]" in history[turn][1] for n in numbers if n > 0)
                  and re.search(r"\[\d+\]", history[turn][1])), None)
    if shown is None or 0 in numbers:  # "the 0th one" too
        return _past_the_end(" and ".join(where.group(0).strip() for where, _ in pointed),
                             [history[t][1] for t in turns[-POINTED_TURNS:]])
    sources = answer_of(history[shown][0], history[:shown]).sources
    if not all(0 < abs(n) <= len(sources) for n in numbers):
        return None
    for where, places in reversed(pointed):  # from the end, so the earlier places stay put
        titles = " and ".join(f"“{sources[n if n < 0 else n - 1].title}”" for n in places)
        said = where.group(0).lower()
        owned = "'s" if said in ("its", "their") else ""  # "its authors"
        titles = f"of {titles}" if said == "one" and where.re is _THEY else titles  # "which one"
        question = f"{question[:where.start()]}{titles}{owned}{question[where.end():]}"
    return question


_IT = re.compile(r"\b(?:it|its)\b", re.I)
# "they", "their", "them" of the papers a follow-up pointed at ("what datasets do they use?"
# after "what about the fifth one?"), not "which of them", "among those", nor an "it" that
# points at nothing ("Is it true that…", "Why is it that…")
_THEY = re.compile(r"(?<!\bof\s)(?<!\bamong\s)\b(?:it(?!\s+(?:true|possible|known|that)\b)|its|they"
                   r"|their|them|(?<=\bwhich\s)one(?!\s+of\b))\b", re.I)  # "which one is best?": of them


def _it(question: str, history: Sequence[tuple[str, str]],
        names_one: Callable[[str], bool] = lambda _: False) -> Pointed:
    """"it", "its", "they", "their" or "them" after a follow-up pointing at papers of a list
    ("summarize the third one", then "who wrote it?"), and the like follow-ups after it (at
    most POINTED_TURNS): those papers again; "it" or "its" after a question asking for one
    paper by its order in years ("What is the earliest paper on X?"), and the follow-ups
    asking of it: the first paper of that answer's list; or after "which of them is the
    oldest?" (``_one_of_list``), or after a question naming one paper by its title
    (``names_one``: "who wrote dynamic routing between capsules?", then "what datasets does
    it use?" had been answered from STAR-Caps) unless it names a subject of its own. Each
    "who wrote it?" had been searched with the words of the place before ("third one
    wrote", a false "no"), or answered from other papers."""
    if (m := _THEY.search(question)) and not _own_subject(question) and (
            before := _pointed_before(history)):
        return [(m, [n for _, places in before for n in places])]
    m = _IT.search(question)
    before_q = next((q for q, _ in reversed(history) if not (pointed_at(q) or _IT.search(q))), "")
    titled = names_one(before_q) and not _own_subject(question)
    return [(m, [1])] if m and (asks_for_one(before_q) or _one_of_list(before_q) or titled) else []


def _pointed_before(history: Sequence[tuple[str, str]]) -> Pointed:
    """Where the latest turn pointing at papers pointed, past the pronoun follow-ups after it
    (at most POINTED_TURNS back: a chain of them had been read recursively, a review's 1,000
    turns a RecursionError); none when another question stands between."""
    for question, _ in list(reversed(history))[:POINTED_TURNS]:
        if pointed := pointed_at(question):
            return pointed
        if not _THEY.search(question) or _own_subject(question):
            return []
    return []


def _own_subject(question: str) -> bool:
    """Whether a question names a subject of its own besides its pronouns: more than
    OWN_SUBJECT_TERMS keywords, a thing it defines ("What is dropout and how is it used?"),
    or a question of its own before an "and"/"but" ahead of the pronoun, holding two
    keywords or followed by another question ("what about federated learning and its
    privacy?", "how does dropout work and why is it useful?": a review). "What loss function
    does it use?", "Thanks, and who wrote it?" and "Which benchmarks and metrics do they
    report?" have none (later reviews)."""
    first = _THEY.search(question)
    joined = re.search(r"\b(?:and|but)\s+", question[:first.start()] if first else "")
    head = question[:joined.start()] if joined else ""
    terms = query_terms(head)
    return (DEFINES_RE.match(question) is not None
            or len(query_terms(_THEY.sub("", question))) > OWN_SUBJECT_TERMS
            or (joined is not None and bool(_ASKS.match(head)) and bool(terms)
                and (len(terms) > 1 or bool(_ASKS.match(question[joined.end():])))))


# a question's own opening words: "how does…", "what about…", "is it…"
_ASKS = re.compile(r"\s*(?:how|what|why|which|who|when|where|does|do|did|is|are|was|were|can"
                   r"|could|would|should|will)\b", re.I)


def _one_of_list(question: str) -> bool:
    """Whether ``question`` asks which one paper of the list before is the oldest or newest
    ("which of them is the oldest?", ``EDGE_OF_LIST_RE``): its answer lists them in that
    order, and "who wrote it?" after it had been searched as "wrote" and "oldest"."""
    return (EDGE_OF_LIST_RE.match(question) is not None
            and re.search(r"\b(?:are|were|ones|papers)\b", question, re.I) is None)


def _past_the_end(place: str, answers: Sequence[str]) -> None:
    """BadInputError for a place no recent answer numbers, when one numbers papers: after a
    list of 12, "the 13th one" had been searched as words (a false "no"), and "paper 43"
    after 42 had summarized a paper the list did not hold."""
    shown = [int(n) for text in answers for n in re.findall(r"\[(\d+)\]", text)]
    if shown:  # "they show only [1]" after a list of one ("[1]–[1]" had read as a slip)
        said = f"[1]–[{max(shown)}]" if max(shown) > 1 else "only [1]"
        raise BadInputError(f"“{place.strip()}” points at a paper the answers before do not "
                            f"number: they show {said}; name one of those, or the "
                            "paper's title in quotes")
