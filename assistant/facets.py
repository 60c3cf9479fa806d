"""The facets of a qualified list topic, and whether a paper answers each.

"Which papers use diffusion models for planning?" asks for papers on both: the thing
(diffusion models) and what it is for (planning). The screen reads a paper against the
whole topic, and the cross-encoder, trained to rank search results, reads a paper on
diffusion models alone as answering it (logits 3–4): 16 papers were listed, none on
planning. A paper the screen keeps by its reading or its sense must also answer each facet:
write its keywords (``FACET_WRITTEN`` of their weight, under one of its phrasings or "or"
parts), or be read by the cross-encoder as answering that facet alone. A facet most papers hold ("machine
learning" in "apply machine learning to weather data") is no facet: every paper of the
store answers it, and the topic's other part is what the screen already reads.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from assistant.corpus import Paper
from assistant.index import AbstractIndex
from assistant.keywords import UNSEEN_WORD_RE, stem_of, topic_terms
from assistant.ranking import cached_coverage
from assistant.readings import own_words
from assistant.reranking import CrossEncoder
from assistant.topics import (
    ALSO,
    OR_RE,
    or_readings,
    reread_pairs,
    topic_weights,
    without_examples,
)
from assistant.word_runs import term_sequence, typed_run, writes_phrase

log = logging.getLogger(__name__)

# what ties a thing to what it is for or applied to: "X for Y", "X applied to Y", "X in Y"
RELATION_RE = re.compile(r"\s+(?:for|to|in|on|with|using|via)\s+", re.I)
# "both X and Y" ("study both X and Y", "are about both X and Y"): one alone does not answer
BOTH_RE = re.compile(r"\bboth\s+(.+?)\s+and\s+(.+)$", re.I)
# a facet that this share of the papers or more write (``written_share``), and at least
# FACET_COMMON_PAPERS of them, is no facet (in a store of 40 papers, 4 are 10%): "machine
# learning" and "deep learning", not "reinforcement learning" nor "transformers"
# (docs/decisions.md)
FACET_COMMON = 0.10
FACET_COMMON_PAPERS = 25
# ...and of those, this share write a facet of several words as one phrase, its stems side
# by side (among the 13.9k: "machine learning" 0.69, "deep learning" 0.33, "generative
# models" 0.27, "image classification" 0.14, "domain adaptation" 0.05; docs/decisions.md)
FACET_PHRASE_SHARE = 0.25
# a facet is written when the paper holds this share of its keyword weight (idf ** 2, as
# the screen weighs a topic's words: "graph" outweighs "neural networks"); under a half, so
# that either word of a pair of like weight does ("driving" is 0.47 of "autonomous driving")
FACET_WRITTEN = 0.45
FACET_IDF_POWER = 2.0
# the cross-encoder's reading of passages against a text: a logit each
FacetReader = Callable[[str, list[str]], Sequence[float]]


def topic_facets(topic: str, index: AbstractIndex, verb: str | None = None
                 ) -> list[tuple[str, ...]]:
    """The two facets of a qualified topic, each as its phrasings write it ("use GANs for
    data augmentation? | use generative adversarial networks for data augmentation?" →
    ("GANs", "generative adversarial networks"), ("data augmentation",); "both dropout and
    batch normalization" → ("dropout",), ("batch normalization",)), or none: for a topic of
    one part, for a relation after the question's own verb (``verb``: "fill in missing
    parts", "build on ODEs", a verb and its particle), and when one facet is common
    (``FACET_COMMON``)."""
    split = [_parts(phrasing, verb) for phrasing in topic.split(ALSO)]
    if len(split[0]) != 2:
        return []
    stats = index.keyword_stats()
    facets = [tuple(dict.fromkeys(p[i] for p in split if len(p) == 2)) for i in range(2)]
    if not all(topic_terms(texts[0], stats) for texts in facets):
        return []
    # common only when every phrasing is: "RL for dialogue" reads as "reinforcement learning
    # for dialogue" does, and "GANs" keeps its check though "generative adversarial
    # networks" is held by any paper writing "adversarial" (6%)
    papers = len(index.papers())
    common = max(FACET_COMMON, FACET_COMMON_PAPERS / max(papers, 1))
    return facets if all(not all(common_facet((text,), index, common) for text in f)
                         for f in facets) else []


def _parts(phrasing: str, verb: str | None) -> list[str]:
    """A phrasing's two facets ("X for Y", "both X and Y"), without the question's verb
    leading it, or the phrasing alone ("fill in missing parts": a verb and its particle)."""
    words = without_examples(phrasing).strip().rstrip("?!.").split()
    if verb and words and stem_of(words[0].lower()) == verb:  # "apply" is read as "appli"
        words = words[1:]
    phrasing = " ".join(words)
    if both := BOTH_RE.search(phrasing):
        return [both.group(1), both.group(2)]
    parts = RELATION_RE.split(phrasing, maxsplit=1)
    return parts if len(parts) == 2 and all(part.strip() for part in parts) else [phrasing]


def common_facet(facet: tuple[str, ...], index: AbstractIndex, common: float) -> bool:
    """Whether ``common`` of the stored papers write ``facet`` (``written_share``), and
    FACET_PHRASE_SHARE of those write its words as one phrase: "domain adaptation" is
    written by 17% of the 13.9k by "domain" alone, as one phrase by 0.7%, and had not been
    checked ("Which papers use the Wasserstein distance for domain adaptation?" listed 25,
    16 never naming a domain); "machine learning" (13%, 9% as a phrase) is common."""
    loose = written_share(facet, index)
    return loose >= common and written_share(facet, index, as_phrase=True) >= FACET_PHRASE_SHARE * loose


def written_share(facet: tuple[str, ...], index: AbstractIndex, as_phrase: bool = False) -> float:
    """The share of the stored papers that write ``facet`` as ``writes_facet`` reads it
    (``FACET_WRITTEN`` of the keyword weight of one of its alternatives): "apply machine
    learning" is written by any paper holding "machine learning", though few hold "apply"
    with it; "images or videos" by any paper holding "images". ``as_phrase``: a text of
    several keywords counts only as a phrase (``_run_writers``)."""
    writers: set[str] = set()
    stats = index.keyword_stats()
    for text in facet_texts(facet):
        weights = topic_weights(text, stats, FACET_IDF_POWER)
        if as_phrase and len(weights) > 1:  # "domain adaptation" as such, not "domain" alone
            writers.update(_run_writers(text, index))
            continue
        needed, held = FACET_WRITTEN * sum(weights.values()), Counter[str]()
        for term, papers in index.term_papers(weights).items():
            held.update(dict.fromkeys(papers, weights[term]))
        writers.update(pid for pid, weight in held.items() if weight >= needed)
    return len(writers) / max(len(index.papers()), 1)


def _run_writers(text: str, index: AbstractIndex) -> set[str]:
    """The ids of the papers writing ``text``'s terms side by side, as stems ("generative
    modelling" in "a generative model"): among those holding every term."""
    run, papers = term_sequence(text), index.papers()
    holders = [set(found) for found in index.term_papers(dict.fromkeys(run, 1.0)).values()]
    if not run or len(holders) < len(set(run)):
        return set()
    return {pid for pid in set.intersection(*holders)
            if pid in papers and writes_phrase(run, papers[pid])}


def writes_facet(alternatives: Sequence[dict[str, float]], paper: Paper) -> bool:
    """Whether ``paper`` holds ``FACET_WRITTEN`` of the keyword weight of one of a facet's
    ``alternatives`` (``facet_alternatives``)."""
    text = f"{paper.title}. {paper.text}"
    return any(cached_coverage(weights, text) >= FACET_WRITTEN for weights in alternatives)


def facet_alternatives(facet: tuple[str, ...], index: AbstractIndex) -> list[dict[str, float]]:
    """The keyword weights (idf ** ``FACET_IDF_POWER``) of each phrasing of the facet and of
    each of its "or" parts, single words included ("images or videos": "images", "videos";
    "seismic or earthquake data": "seismic data", "earthquake data" too): a paper writing
    one answers the facet."""
    stats = index.keyword_stats()
    return [weights for text in facet_texts(facet)
            if (weights := topic_weights(text, stats, FACET_IDF_POWER))]


def facet_texts(facet: tuple[str, ...]) -> list[str]:
    """Each phrasing of the facet and each of its "or" parts ("images or videos": "images",
    "videos"; "seismic or earthquake data": "seismic data", "earthquake data" too)."""
    texts: list[str] = []
    for phrasing in facet:
        parts = [part for part in OR_RE.split(phrasing) if part.strip()]
        texts += [phrasing, *parts, *or_readings(phrasing)] if len(parts) > 1 else [phrasing]
    return list(dict.fromkeys(texts))


def unanswered(facets: Sequence[tuple[str, ...]], papers: Sequence[Paper],
               index: AbstractIndex, logits: FacetReader | None) -> set[str]:
    """The ids of ``papers`` that leave a facet unanswered: they do not write it and the
    cross-encoder (``logits``: a text and passages → one logit each) does not read them as
    answering any of its phrasings (a logit under 0). ``logits`` is None for papers left
    unread: writing is then the only answer."""
    missing: set[str] = set()
    stats = index.keyword_stats()
    for facet in facets:
        alternatives = facet_alternatives(facet, index)
        # "transformers" is written as itself, not by "transformation" (its Porter stem's):
        # a facet of one phrasing needs each such word written (``readings.own_words``)
        own = [pattern for _, pattern, _ in own_words(facet[0], index)] if len(facet) == 1 else []
        typed = _typed_forms(facet)
        patterns = [[pattern] for pattern in own] + ([typed] if typed else [])  # each: any of
        unwritten = [p for p in papers if p.paper_id not in missing
                     and not (writes_facet(alternatives, p)
                              and all(any(r.search(f"{p.title}. {p.text}") for r in each)
                                      for each in patterns))]
        if not unwritten or logits is None:
            missing.update(p.paper_id for p in unwritten)
            continue
        pairs = [reread_pairs(phrasing, unwritten, stats) for phrasing in facet]
        best = np.max([logits(text, passages) for texts, passages in pairs for text in texts],
                      axis=0)
        missing.update(p.paper_id for p, x in zip(unwritten, best.tolist(), strict=True) if x < 0)
    return missing


# a compound of words joined by hyphens: "model-based", "self-supervised"
_COMPOUND = re.compile(r"(?<![\w-])[^\W\d_]{2,}(?:-[^\W\d_]{2,})+(?![\w-])")


def _typed_forms(facet: tuple[str, ...]) -> list[re.Pattern[str]]:
    """The forms a facet is written in as typed, with and without its leading word (its
    verb), when each of its "or" parts has a word no term holds ("use Q-learning":
    "learning" alone; a run: every RL paper had "written" Q-learning); none when a part is
    read as usual ("Q-learning or SARSA")."""
    parts = [part for phrasing in facet for part in OR_RE.split(phrasing)]
    if all(map(_COMPOUND.search, parts)) and not any(map(UNSEEN_WORD_RE.search, parts)):
        # "model-based": the compound as such ("model based", "model-based"), not "based on";
        # a review's: 453 of 1,003 RL papers "wrote" it, 95 do
        return [typed_run((m.group(0),)) for part in parts for m in _COMPOUND.finditer(part)]
    if not all(UNSEEN_WORD_RE.search(part) for part in parts):
        return []
    forms = []
    for part in parts:
        words = part.strip(" ?.!").split()
        forms += [typed_run(tuple(words[lead:])) for lead in (0, 1) if words[lead:]]
    return forms


def facet_misses(topic: str, verb: str | None, read: Sequence[Paper], unread: Sequence[Paper],
                 index: AbstractIndex) -> set[str]:
    """The ids of the papers of ``read`` (kept by the cross-encoder's reading or the topic's
    sense) and ``unread`` (kept unread past the budget) that leave a facet of ``topic``, a
    qualified topic, unanswered (``unanswered``); none for a topic of one facet (``verb``:
    the question's, ``topic_facets``)."""
    facets = topic_facets(topic, index, verb)
    if not facets:
        return set()
    return read_misses(facets, read, index) | unanswered(facets, unread, index, None)


def read_misses(facets: Sequence[tuple[str, ...]], papers: Sequence[Paper],
                index: AbstractIndex) -> set[str]:
    """``unanswered`` with the cross-encoder reading the papers that do not write a facet,
    or, when it fails, the writing alone."""
    try:
        return unanswered(facets, papers, index, CrossEncoder().scores)
    except Exception as error:  # the reranker's package or onnxruntime, on this input
        log.warning("the cross-encoder failed (%s); facets are read as written", error)
        return unanswered(facets, papers, index, None)
