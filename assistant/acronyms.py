"""A list topic's acronyms: the acronym the field writes for a run of its words ("neural
ordinary differential equations" → "neural ODE"), the words it spells an acronym out as
("DPPs" → "determinantal point processes"), and a paper that defines the acronym as
something else ("segmental neural net (SNN)"), which is read through no such reading.

Why a module: many papers write only the acronym, or only its words, so a list or a trend
searched one way alone had missed them; which spelling the field means is read from the
papers BM25 ranks first for it, not from a table of acronyms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from assistant.corpus import Paper
from assistant.index import AbstractIndex
from assistant.keywords import UNSEEN_WORD_RE, as_typed, spellings, stem_of
from assistant.topics import (
    ACRONYM_RE,
    ALSO,
    EXAMPLES_RE,
    PHRASE_TOGETHER,
    TYPED_ACRONYM_RE,
    abbreviates,
)
from assistant.tuning import SPELLED_OUT_INITIALS
from assistant.word_runs import STOPS, WORD_RE, initials_of, term_sequence, writes_phrase

# Share of an acronym's papers that must spell a two-capital acronym out the same way, and
# how many times the next spelling's count: "RL" (reinforcement learning, 50 of 50) and
# "GP" are read so; "EM" (19 of 50), "KL" and "RF" (random forest 9, receptive field 9)
# are not. Source: by hand, fifteen acronyms of the 13.9k store (docs/lists.md).
TWO_CAPITALS_AGREE = 0.5
TWO_CAPITALS_LEAD = 2.0
ACRONYM_HOLDERS = 50  # papers read for whether they spell an acronym out as the topic's run


def acronym_readings(topic: str, index: AbstractIndex) -> list[str]:
    """The topic with a run of its words written as their acronym (SPELLED_OUT_INITIALS
    letters or more), for each run the field writes so: the acronym is a stored term, and
    at least PHRASE_TOGETHER of the ACRONYM_HOLDERS papers BM25 ranks first for it write the
    run itself ("ordinary differential equations" for ODE, "reinforcement learning from
    human feedback" for RLHF, "mixture of experts" for MOE); the longest run first, none
    overlapping."""
    typed = as_typed(topic)
    words = WORD_RE.findall(typed)
    examples = EXAMPLES_RE.search(typed) is not None  # kept as typed (``_in_typed``)
    content = [w.lower() not in STOPS for w in words]
    taken: set[int] = set()
    readings = []
    for size in range(min(len(words), 8), 1, -1):
        for start in range(len(words) - size + 1):
            span = range(start, start + size)
            if taken & set(span) or not (content[start] and content[span[-1]]):
                continue
            acronym = _written_as(index, [words[i] for i in span],
                                  [content[i] for i in span])
            if acronym:
                taken.update(span)
                readings.append(_in_typed(typed, words, span, acronym) if examples
                                else " ".join([*words[:start], acronym, *words[start + size:]]))
    return readings


def _in_typed(typed: str, words: Sequence[str], span: range, acronym: str) -> str:
    """``typed`` with the run of ``words`` at ``span`` written as ``acronym``, its commas kept:
    a topic giving examples still gives them ("GNNs, e.g. X or Y, for fraud detection" had
    read as "GNN X" or "Y for fraud detection", joined bare)."""
    run = r"[\s-]+".join(re.escape(words[i]) for i in span)
    return re.sub(rf"(?<![\w-]){run}(?![\w-])", acronym, typed, count=1)


def spelled_readings(topic: str, index: AbstractIndex) -> list[str]:
    """The topic with each acronym it names (two capitals or more, as typed) written as the
    phrase the field spells it out as ("DPPs" → "determinantal point processes", "RL" →
    "reinforcement learning"), when enough of the ACRONYM_HOLDERS papers BM25 ranks first
    for it spell it out so (``_spelled_as``): a paper that never writes the acronym is
    found too."""
    readings = []
    for acronym in dict.fromkeys(TYPED_ACRONYM_RE.findall(as_typed(topic))):
        phrase = _spelled_as(index, acronym)
        if phrase:
            readings.append(re.sub(rf"\b{re.escape(acronym)}s?\b", phrase, as_typed(topic)))
    return readings


def otherwise_spelled(searched: str, paper: Paper) -> frozenset[str]:
    """The acronyms of the searched topic (``ListScreen.searched_topic``: its phrasings
    joined by ALSO) that ``paper`` defines as something else, its words before the bracket
    ("segmental neural net (SNN)", for "spiking neural networks | SNN"): a reading through
    such an acronym does not hold for the paper. An acronym counts only when a phrasing of
    the topic spells it out (its meaning is known), and a paper only by its definitions: one
    writing the acronym undefined is taken to mean the field's, and other words of the same
    initials elsewhere ("sigmoidal neural nets") say nothing."""
    acronyms = set(ACRONYM_RE.findall(searched))
    if not acronyms:
        return frozenset()
    sequences = [term_sequence(p) for p in searched.split(ALSO)]
    text = f"{paper.title}. {paper.text}"
    other = set()
    for acronym in acronyms:
        letters = acronym.lower()
        meanings = {tuple(seq[i:i + len(letters)]) for seq in sequences
                    for i in range(len(seq) - len(letters) + 1)
                    if "".join(t[0] for t in seq[i:i + len(letters)]) == letters}
        defined = _definitions(acronym, text)
        if meanings and defined and not any(_same_words(d, m) for d in defined for m in meanings):
            other.add(acronym)
    return frozenset(other)


def _definitions(acronym: str, text: str) -> set[tuple[str, ...]]:
    """What ``text`` defines ``acronym`` as, as stemmed terms: the words just before each
    "(ACRONYM" that it abbreviates (``abbreviates``), hyphenated words joined
    ("self-normalizing neural networks (SNNs)", "a \"Segmental Neural Net\" (SNN)")."""
    found = set()
    for m in re.finditer(rf"\(\s*{re.escape(acronym)}s?\b", text):
        words = re.sub(r"[\"“”‘’']", " ", text[max(0, m.start() - 120):m.start()]).split()
        size = next((n for n in range(len(acronym), 0, -1)
                     if len(words) >= n and abbreviates(acronym, words[-n:])), 0)
        if size:
            found.add(term_sequence(" ".join(words[-size:]).replace("-", "")))
    return found


def _same_words(spelled: tuple[str, ...], meaning: tuple[str, ...]) -> bool:
    """Whether a definition of an acronym says its meaning (both as stemmed terms): each
    word the same as far as the first three letters of one stand in the other (a short
    form, "graph neural nets"; a part, "negative" of "nonnegative"), and the last one free
    ("Markov decision problems" for "… processes")."""
    return len(spelled) == len(meaning) and all(
        a[:3] in b or b[:3] in a for a, b in zip(spelled[:-1], meaning[:-1], strict=True))


def _spelled_as(index: AbstractIndex, acronym: str) -> str | None:
    """The phrase most of the papers writing ``acronym`` spell it out as, or None: at least
    PHRASE_TOGETHER of them; for two capitals, TWO_CAPITALS_AGREE of the papers, and
    TWO_CAPITALS_LEAD times the next phrase's (two letters begin many phrases). Not one
    with a word no term holds: "deep Q-network" read as "deep network" (DQN had counted
    367 papers, 19 writing it)."""
    holders = _holders(index, acronym)
    spelled: Counter[tuple[str, ...]] = Counter()
    surface: dict[tuple[str, ...], str] = {}
    papers: Counter[tuple[str, ...]] = Counter()  # papers, not spellings, of each phrase
    for paper in holders:
        keys = []
        # in order, not as a set: the surface kept must not vary with the hash seed
        for match in dict.fromkeys(spellings(acronym, f"{paper.title}. {paper.text}",
                                             parts_of=index.written_text().split_of)):
            if UNSEEN_WORD_RE.search(match):
                continue
            words = WORD_RE.findall(match)
            key = tuple(stem_of(w) for w in words)
            surface.setdefault(key, " ".join(words))
            spelled[key] += 1
            keys.append(key)
        papers.update(set(keys))
    if not spelled:
        return None
    key, count = spelled.most_common(1)[0]
    if len(acronym.rstrip("s")) >= SPELLED_OUT_INITIALS:
        return surface[key] if count >= PHRASE_TOGETHER * len(holders) else None
    (key, first), *rest = papers.most_common(2)
    lead = first >= TWO_CAPITALS_LEAD * (rest[0][1] if rest else 0)
    return surface[key] if lead and first >= TWO_CAPITALS_AGREE * len(holders) else None


def _written_as(index: AbstractIndex, run: Sequence[str], content: Sequence[bool]) -> str | None:
    """The acronym the field writes for ``run`` (its content words' initials, or every
    word's, or its content words' with a joined word's parts' initials: VAE for "variational
    autoencoder"), or None; not one its papers spell out as another run more often
    (``_spelled_otherwise``)."""
    stems = tuple(stem_of(w.lower()) for w, c in zip(run, content, strict=True) if c)
    parts_of = index.written_text().split_of
    for letters in dict.fromkeys(["".join(w[0] for w, c in zip(run, content, strict=True) if c),
                                  "".join(w[0] for w in run),
                                  "".join(initials_of(w, parts_of)
                                          for w, c in zip(run, content, strict=True) if c)]):
        if (len(letters) < SPELLED_OUT_INITIALS
                or not index.keyword_stats().doc_freq(stem_of(letters.lower()))):
            continue
        holders = _holders(index, letters)
        spelled = sum(1 for p in holders if writes_phrase(stems, p))
        if (holders and spelled >= PHRASE_TOGETHER * len(holders)
                and not _spelled_otherwise(index, letters.upper(), stems, holders, spelled)):
            return letters.upper()
    return None


def _spelled_otherwise(index: AbstractIndex, acronym: str, stems: tuple[str, ...],
                       holders: Sequence[Paper], spelled: int) -> bool:
    """Whether more of the ``holders`` of ``acronym`` spell it out as one other run than
    the ``spelled`` that write the topic's ``stems``: SSL is "semi-supervised learning" to
    more of its papers than "self-supervised learning", and a list of the latter had read
    "use SSL?" and put three semi-supervised papers first (a run's)."""
    parts_of = index.written_text().split_of
    others: Counter[tuple[str, ...]] = Counter()
    for paper in holders:
        found = {tuple(stem_of(w) for w in WORD_RE.findall(match)) for match in
                 spellings(acronym, f"{paper.title}. {paper.text}", parts_of=parts_of)}
        others.update(key for key in found if key != stems and "".join(key) != "".join(stems))
    return bool(others) and others.most_common(1)[0][1] > spelled


def _holders(index: AbstractIndex, acronym: str) -> list[Paper]:
    """The ACRONYM_HOLDERS papers BM25 ranks first for ``acronym``."""
    papers = index.papers()
    ranked = index.bm25_paper_scores(acronym)
    return [papers[pid] for pid in sorted(ranked, key=lambda p: -ranked[p])[:ACRONYM_HOLDERS]
            if pid in papers]
