"""Runs of words a paper must write as one to hold a topic's words: the words an acronym
is spelled out as, and a hyphenated word's parts.

Why a module: coverage reads a paper's words as a set, so "long" and "short-term memory"
anywhere in an abstract held every word of "long short-term memory" (LSTM), and "multi"
and "task" apart held "multi-task". What a list screens (``listing.py``), the phrases its
topic makes (``topics.py``) and what a trend counts (``trends.py``) read a text's words in
order here, as written and with its hyphenated words joined ("Multi-Task" is also
"multitask", as the store indexes it).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from assistant.corpus import Paper
from assistant.keywords import (
    STOPWORDS,
    PartsOf,
    as_typed,
    compounds,
    joined_compounds,
    stem_of,
)

WORD_RE = re.compile(r"(?u)\b\w\w+\b")  # bm25s's token pattern, as keywords.py reads
STOPS = frozenset(STOPWORDS)


@dataclass(frozen=True)
class Run:
    """Terms a paper holds only written as one: side by side (``terms``, stopwords aside)
    or, for a hyphenated word, as its joined term (``joined``: "multitask", "mixup")."""

    terms: tuple[str, ...]
    joined: str | None = None


@lru_cache(maxsize=16384)
def term_sequence(text: str) -> tuple[str, ...]:
    """The stemmed terms of ``text`` in order, stopwords out (as ``query_terms`` reads them,
    repeats kept): which words stand next to each other."""
    return tuple(stem_of(w) for w in WORD_RE.findall(as_typed(text).lower()) if w not in STOPS)


@lru_cache(maxsize=16384)
def text_sequences(text: str) -> tuple[tuple[str, ...], ...]:
    """``text``'s ``term_sequence`` as written and, when it hyphenates a word, with that
    word joined: "Multi-Task Learning" is (multi, task, learn) and (multitask, learn)."""
    typed = as_typed(text)
    joined = joined_compounds(typed)
    return (term_sequence(text),) + ((term_sequence(joined),) if joined != typed else ())


def neighbours(seq: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The term pairs that stand side by side in ``seq``, in either order ("protein
    design" and "design proteins" alike)."""
    pairs = set(zip(seq, seq[1:], strict=False))
    return frozenset(pairs | {(b, a) for a, b in pairs})


# A paper's terms are asked for once per reading of the topic, one paper after another
# (``readings.Reading.share``): a few papers' are kept, not every abstract's (a cache of
# every abstract's pairs had held 600 MB of a server's memory after a dozen lists).
RECENT_TEXTS = 64


def text_pairs(text: str, runs: tuple[Run, ...] = ()) -> frozenset[tuple[str, str]]:
    """The ``neighbours`` of each of ``read_sequences`` (not cached, as said above)."""
    return frozenset().union(*(neighbours(seq) for seq in read_sequences(text, runs)))


def writes_pair(text: str, pair: tuple[str, str], runs: tuple[Run, ...] = ()) -> bool:
    """Whether ``text_pairs`` of ``text`` holds ``pair``: its terms side by side in either
    order, looked for where they stand rather than with every pair of the text listed."""
    return any(holds_run(seq, pair) or holds_run(seq, pair[::-1])
               for seq in read_sequences(text, runs))


@lru_cache(maxsize=RECENT_TEXTS)
def sequence_terms(text: str, runs: tuple[Run, ...] = ()) -> frozenset[str]:
    """Every term of ``read_sequences`` (the last RECENT_TEXTS kept)."""
    return frozenset().union(*read_sequences(text, runs))


def read_sequences(text: str, runs: tuple[Run, ...] = ()) -> tuple[tuple[str, ...], ...]:
    """``text_sequences`` with each hyphenated word of the topic's ``runs`` written joined
    read as its parts: a paper writing "extreme multilabel classification" writes the
    phrases of "extreme multi-label classification" (its (extrem, multi) and (label,
    classif))."""
    parts = {run.joined: run.terms for run in runs if run.joined}
    sequences = text_sequences(text)
    if not parts:
        return sequences
    return tuple(tuple(t for term in seq for t in parts.get(term, (term,))) for seq in sequences)


def holds_run(seq: Sequence[str], run: Sequence[str]) -> bool:
    """Whether ``seq`` writes ``run``'s terms one after another (looked for where its first
    term stands: a screen asks it of thousands of abstracts)."""
    run = tuple(run)
    if len(run) < 2:
        return not run or run[0] in seq
    at = -1
    try:
        while True:
            at = seq.index(run[0], at + 1)
            if tuple(seq[at:at + len(run)]) == run:
                return True
    except ValueError:  # its first term stands nowhere further on
        return False


def writes_phrase(phrase: tuple[str, ...], paper: Paper) -> bool:
    """Whether the paper's title or abstract writes ``phrase``'s terms one after another
    (stemmed, split at hyphens and joined, so "graph neural network", "Graph Neural
    Networks" and "graph-neural-network" all do; "a neural network on the graph" does
    not)."""
    return any(holds_run(seq, phrase) for seq in text_sequences(f"{paper.title}. {paper.text}"))


def writes_run(text: str, run: Run) -> bool:
    """Whether ``text`` writes ``run`` as one (``Run``)."""
    if run.joined and run.joined in sequence_terms(text):
        return True
    return len(run.terms) > 1 and any(holds_run(seq, run.terms) for seq in text_sequences(text))


def name_runs(reading: str, acronyms: Collection[str], parts_of: PartsOf | None = None
              ) -> list[Run]:
    """The runs of ``reading``'s words that spell out one of ``acronyms`` (their content
    words' initials, or every word's; with ``parts_of``, a joined word's parts' initials
    too: "variational autoencoder" for VAE): "long short-term memory" for LSTM, "ordinary
    differential equations" for ODE. Such a run is the name the field writes as one."""
    wanted = {a.lower() for a in acronyms}
    if not wanted:
        return []
    words = WORD_RE.findall(as_typed(reading))
    content = [w.lower() not in STOPS for w in words]
    letters = [initials_of(w, parts_of) for w in words]
    shortest = 1 if parts_of else min(len(a) for a in wanted)
    runs = []
    for start in range(len(words)):
        for end in range(start + shortest, min(len(words), start + 9) + 1):
            span = range(start, end)
            if not (content[start] and content[end - 1]):
                continue
            initials = {"".join(words[i][0] for i in span if content[i]).lower(),
                        "".join(words[i][0] for i in span).lower(),
                        "".join(letters[i] for i in span if content[i])}
            if initials & wanted:
                runs.append(Run(tuple(stem_of(words[i].lower()) for i in span if content[i])))
    return runs


def initials_of(word: str, parts_of: PartsOf | None = None) -> str:
    """A word's initial (lower case), or a joined word's parts' initials when ``parts_of``
    knows its parts ("autoencoder": "ae", as papers write "auto-encoder")."""
    parts = parts_of(word.lower()) if parts_of else None
    return "".join(p[0] for p in parts) if parts else word[0].lower()


def compound_runs(reading: str) -> list[Run]:
    """Each hyphenated word of ``reading`` as a ``Run`` of its parts' terms: "multi-task" is
    multi and task side by side, or "multitask"; "mix-up" (one part not a stopword) is
    "mixup" or "mix-up" alone, not every paper that mixes (and weighs as "mixup":
    ``readings.coverage_readings``)."""
    runs = []
    for word, joined in compounds(as_typed(reading)):
        terms = term_sequence(word)
        if terms:
            runs.append(Run(terms, stem_of(joined.lower())))
    return runs


def run_terms(runs: Sequence[Run], paper: Paper) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of the ``runs`` the paper's title and abstract write as one, for a
    hyphenated word's (held: "multitask" holds multi and task), and the terms of those it
    does not (unheld: a paper on "short-term memory" that says "long" elsewhere does not
    hold "long short-term memory"): coverage reads the first as present, the second as
    absent."""
    if not runs:
        return frozenset(), frozenset()
    text = f"{paper.title}. {paper.text}"
    written = [writes_run(text, run) for run in runs]
    held = frozenset(t for run, w in zip(runs, written, strict=True) if w and run.joined
                     for t in run.terms)
    unheld = frozenset(t for run, w in zip(runs, written, strict=True) if not w
                       for t in run.terms)
    return held, unheld


@lru_cache(maxsize=256)
def typed_run(words: tuple[str, ...]) -> re.Pattern[str]:
    """The topic's words as a text writes them: in order, their parts apart only by spaces,
    hyphens or punctuation ("Q-learning" and "Q learning" alike), each with an ending of
    its own ("policies" for "policy", "networks" for "network"), a word all in capitals in
    capitals ("GLUE", not the verb "glue"), brackets and commas typed around a word aside.
    Where stems mislead: "capsulate" is no "capsule networks", "its mean" no "k-means",
    "learning" no "Q-learning"."""
    def word(typed: str) -> str:
        body = _ENDING.sub("", typed) if len(typed) > 4 else typed
        pattern = re.escape(body) + (r"\w{0,4}" if len(body) > 2 else "")  # "Q" is no "Quick"
        return pattern if typed.isupper() and len(typed) > 1 else f"(?i:{pattern})"
    parts = [p for w in words for p in _PARTS.split(w.strip(_AROUND)) if p]
    return re.compile(r"(?<!\w)" + r"[\W_]+".join(word(p) for p in parts) + r"(?!\w)")


_ENDING = re.compile(r"(?:ies|es|is|s|y)$")  # "policy"/"policies", "analysis"/"analyses"
_PARTS = re.compile(r"[-\u2010\u2011/]+")
_AROUND = "()[]{},;:.!?\"'“”‘’"
