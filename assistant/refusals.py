"""The checks that refuse a question or mark its answer unsure, in the order they run.

Why a list: retrieval used to decide every refusal through booleans inside its ranking, so
an answer could say that it refused but not why. Here each check is named and returns a
short sentence when it refuses (None when it lets the question through); the first to
refuse is the answer's ``Verdict`` (``Retrieval.refusal``, ``assistant ask --json``'s
``refusal``), and a refusal's receipt can show it.

The checks run in stages, as their inputs become known: the question (before ranking), the
ranking (the papers past the relevance floor) and the reading (the cross-encoder's logits
of the first papers). ``DOUBT`` is no refusal: it marks an answer whose sources read only
weakly as answering (``Retrieval.unsure``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

from assistant.corpus import Paper
from assistant.index import AbstractIndex
from assistant.keywords import keyword_weights, query_terms, stem_of
from assistant.name_checks import names_a_method
from assistant.ranking import JointReading, load_ranker, text_terms
from assistant.term_lookups import lookup_terms
from assistant.tuning import FULL_MATCH, REFUSAL_TOP
from assistant.types import Filters, RetrievedPaper, Verdict
from assistant.written_forms import as_written

if TYPE_CHECKING:
    from assistant.candidates import Ranking
    from assistant.retrieval import HybridRetriever

Stage = Literal["question", "ranking", "reading", "mark"]
WORD_RE = re.compile(r"(?u)\b\w[\w-]*\w\b")  # a question's words as typed, hyphens kept
MISSING_SHOWN = 3  # a nearest paper's missing words named in its reason


@dataclass
class Screen:
    """What one question's checks read, filled in stage by stage: the rankings, the papers
    past the floor (``results``), whether one cleared the strict floor, the candidates that
    name everything the question names, and the cross-encoder's reading of the first papers
    (``exempt`` when its refusal is waived)."""

    question: str
    filters: Filters | None
    ranking: Ranking
    results: list[RetrievedPaper] = field(default_factory=list)
    answerable: bool = False
    named: set[str] = field(default_factory=set)
    exempt: bool = True
    logits: np.ndarray | None = None
    refusal: Verdict | None = None
    holders: list[str] = field(default_factory=list)  # papers holding a term lookup's words
    titled: list[str] = field(default_factory=list)  # papers whose title the question writes

    @property
    def evidence(self) -> float | None:
        """The learned ranker's raw score of its best paper (None for a fixed fusion)."""
        return self.ranking.evidence


Reason = Callable[["HybridRetriever", Screen], "str | None"]


@dataclass(frozen=True)
class Check:
    """One named check: the stage it runs in, and what it says when it refuses."""

    name: str
    stage: Stage
    refuses: Reason
    # An exact match overrules it: a paper holds every word a term lookup asks for
    # ("Which paper mentions shareboost?"), and a false "no" is the worst answer.
    overruled_by_holders: bool = True

    def verdict(self, retriever: HybridRetriever, screen: Screen) -> Verdict | None:
        reason = self.refuses(retriever, screen)
        return None if reason is None else Verdict(check=self.name, reason=reason)


def quoted_names(names: Sequence[str]) -> str:
    """Names as a refusal quotes them: “QLoRA”, “NormalFloat”."""
    return ", ".join(f"“{name}”" for name in names)


def nearest_reason(question: str, paper: Paper, weights: Mapping[str, float], cosine: float,
                   coverage: float, logit: float | None = None) -> str:
    """Why one of a refusal's nearest papers does not answer, read from that paper: the
    question's words its title and abstract never write (the weightiest first), or, when it
    writes them all, what read it as not answering (the cross-encoder, or its distance from
    the question); then its own figures, so that each paper's "no" can be judged."""
    held = text_terms(paper.text) | text_terms(paper.title)
    text = f"{paper.title}. {paper.text}"
    found: dict[str, float] = {}
    missing: dict[str, float] = {}
    forms: dict[str, str] = {}  # a word written only as another of its stem: that word
    asked = lookup_terms(question) or WORD_RE.findall(question)  # a lookup's words, not "mentioning"
    for word in dict.fromkeys(asked):
        stems = [t for t in query_terms(word) if t in weights]
        # a word held only in another form of its stem is said so ("spread" as "Spreading":
        # R12's had read "never 'spread'"); not a part of a hyphenated word ("non-convex": C68)
        if stems:
            held_all = all(t in held for t in stems)
            as_asked = held_all and re.search(rf"(?<!\w){as_written(word)}(?!\w)", text, re.I)
            if held_all and not as_asked and len(stems) == 1 and "-" not in word:
                forms[word] = next((w for w in WORD_RE.findall(text) if stem_of(w.lower()) in stems), word)
            (found if as_asked or word in forms else missing)[word] = max(weights[t] for t in stems)
    # the share of the words written, as asked or in another form of their stem (``forms``),
    # as the sentence counts them: a stem's share
    # ("computing" in "computation") had read "writes none of the question's words (42%…)"
    weighed = sum(found.values()) + sum(missing.values())
    share = sum(found.values()) / weighed if weighed else coverage
    figures = f"similarity {cosine:.2f}, {share:.0%} of the question's keywords"
    if logit is not None:
        figures += f", the cross-encoder's reading {logit:.1f}"
    if missing:
        writes = (f"It writes {weightiest(found, forms)}, but never" if found
                  else "It writes none of the question's words:")
        return f"{writes} {weightiest(missing)} ({figures})."
    words = "the question's words" + (" (" + ", ".join(f"“{w}” as “{f}”" for w, f in forms.items())
                                      + ")" if forms else "")
    if logit is not None:
        return f"It writes {words}, but the cross-encoder does not read it as answering ({figures})."
    return f"It writes {words}, but not about what is asked ({figures})."


def weightiest(words: Mapping[str, float], forms: Mapping[str, str] | None = None) -> str:
    """The MISSING_SHOWN weightiest of ``words`` (word → keyword weight), quoted, each with
    the form it is written in where another (``forms``: “spread” (as “Spreading”)), and how
    many more: “Quokkaformer”, “architecture” or 2 more."""
    named = sorted(words, key=lambda w: -words[w])
    more = f" or {len(named) - MISSING_SHOWN} more" if len(named) > MISSING_SHOWN else ""
    forms = forms or {}
    return ", ".join(quoted_names([w]) + (f" (as “{forms[w]}”)" if w in forms else "")
                     for w in named[:MISSING_SHOWN]) + more


def no_candidates(retriever: HybridRetriever, screen: Screen) -> str | None:
    """Nothing to rank: an empty store, or filters that leave no paper."""
    if screen.ranking.fused:
        return None
    return "No stored paper is a candidate: the store is empty or the filters leave none."


def no_known_word(retriever: HybridRetriever, screen: Screen) -> str | None:
    """No word of the question occurs in any abstract: dense alone would be guessing."""
    vocab = retriever.index.keyword_stats().vocab
    if any(term in vocab for term in query_terms(screen.question)):
        return None
    return "No word of the question occurs in any stored abstract."


def unknown_names(retriever: HybridRetriever, screen: Screen) -> str | None:
    """Names no stored title or abstract uses (``HybridRetriever.unknown_names``)."""
    names = retriever.unknown_names(screen.question, screen.ranking.fused, screen.filters)
    return f"No stored title or abstract uses {quoted_names(names)}." if names else None


def unwritten_names(retriever: HybridRetriever, screen: Screen) -> str | None:
    """Names of several words no stored paper writes (``HybridRetriever.unwritten_names``)."""
    names = retriever.unwritten_names(screen.question, screen.ranking.fused, screen.filters)
    return f"No stored abstract writes {quoted_names(names)} as a name." if names else None


def below_the_floor(retriever: HybridRetriever, screen: Screen) -> str | None:
    """No paper cleared the strict relevance floor (close enough to the question, or holding
    enough of its keyword weight, or naming what it names)."""
    if screen.answerable:
        return None
    return "No paper found is close enough to the question or holds enough of its keywords."


def off_topic(retriever: HybridRetriever, screen: Screen) -> str | None:
    """The store's off-topic check, unless the question names a paper's method or the first
    paper holds every keyword of it ("What is Buckwild?"): on topic whatever its
    neighbourhood."""
    if (names_a_method(screen.question, screen.named)
            or (bool(screen.results) and screen.results[0].coverage >= FULL_MATCH)
            or in_a_neighbourhood(retriever.index, screen.ranking)):
        return None
    return "The question's nearest papers in the store are all far from it: not its topic."


def weak_evidence(retriever: HybridRetriever, screen: Screen) -> str | None:
    """The calibrated abstention (``enough_evidence``)."""
    if enough_evidence(screen.evidence, screen.results):
        return None
    return "The ranker's evidence for its best paper is under the calibrated threshold."


def not_read_as_answering(retriever: HybridRetriever, screen: Screen) -> str | None:
    """The cross-encoder's refusal (``read_as_answering``), unless waived."""
    if screen.exempt or read_as_answering(screen.logits):
        return None
    return "Read with the question, none of the first papers reads as answering it."


def joint_refusal(retriever: HybridRetriever, screen: Screen) -> str | None:
    """The joint refusal (``read_with_evidence``), waived as the cross-encoder's is."""
    if screen.exempt or read_with_evidence(retriever.index, screen.evidence, screen.logits,
                                           screen.filters):
        return None
    return ("The ranker's evidence and the cross-encoder's reading, weighed together, fall "
            "under the refusal's bound.")


def doubted(retriever: HybridRetriever, screen: Screen) -> str | None:
    """The unsure mark: the joint score, where the logits were read (over the bound, or
    exempt from it), is under ``doubt_below``."""
    joint = _joint(retriever.index, screen.evidence, screen.logits, screen.filters, mark=True)
    if joint is None or not joint[0].doubts(*joint[1:]):
        return None
    return ("The ranker's evidence and the cross-encoder's reading, weighed together, are "
            "under the doubt level: the sources may not say what was asked.")


# The refusals, in the order they run; the first to refuse is the answer's refusal.
# The question's checks run before the lookup's papers are known, and refuse only what no
# paper can hold (a filter leaving none, words or names no abstract uses).
CHECKS: tuple[Check, ...] = (
    Check("candidates", "question", no_candidates, overruled_by_holders=False),
    Check("known_words", "question", no_known_word, overruled_by_holders=False),
    Check("unknown_names", "question", unknown_names, overruled_by_holders=False),
    Check("unwritten_names", "question", unwritten_names, overruled_by_holders=False),
    Check("relevance_floor", "ranking", below_the_floor),
    Check("off_topic", "ranking", off_topic),
    Check("evidence", "ranking", weak_evidence),
    Check("cross_encoder", "reading", not_read_as_answering),
    Check("joint_reading", "reading", joint_refusal),
)
DOUBT = Check("joint_doubt", "mark", doubted)


def first_refusal(retriever: HybridRetriever, screen: Screen, stage: Stage) -> Verdict | None:
    """The first check of ``stage`` that refuses ``screen``'s question, in CHECKS' order;
    one an exact match overrules refuses nothing when papers hold a term lookup's words, or
    when the question writes a stored paper's title."""
    exact = screen.holders or screen.titled
    for check in CHECKS:
        if check.stage != stage or (exact and check.overruled_by_holders):
            continue
        if (verdict := check.verdict(retriever, screen)) is not None:
            return verdict
    return None


def in_a_neighbourhood(index: AbstractIndex, ranking: Ranking) -> bool:
    """The store's off-topic check (``ranking.Neighbourhood``): a large store answers only
    questions whose nearest papers in the whole store (under a filter too) are close
    enough; always true where the check does not apply (a small store, another embedding
    model, a fixed fusion)."""
    check = load_ranker().neighbourhood
    if check is None or ranking.nearest is None or not check.applies(
            index.chunk_count(), index.settings.index.embed_model):
        return True
    return ranking.nearest >= check.below


def enough_evidence(evidence: float | None, results: list[RetrievedPaper]) -> bool:
    """The calibrated abstention: the ranker's score of its best paper clears the threshold
    chosen on the dev split (bench/calibrate_abstention.py), or the first paper holds every
    keyword of the question (a bare name: "What is Buckwild?")."""
    threshold = load_ranker().abstain_below
    if evidence is None or threshold is None or not results:
        return True
    return evidence >= threshold or results[0].coverage >= FULL_MATCH


def read_as_answering(logits: np.ndarray | None) -> bool:
    """The cross-encoder's refusal: one of the ranker's first REFUSAL_TOP papers reads as
    answering the question (its logit at least the ``cross_encoder_below`` chosen on the dev
    split, bench/calibrate_abstention.py), else no sources. The ranker's signals score each
    side apart; reading question and abstract together tells "Mamba on DNA" from a paper on
    DNA that never names Mamba. True when there is no reading (none needed, or it failed)."""
    threshold = load_ranker().cross_encoder_below
    return threshold is None or logits is None or float(logits[:REFUSAL_TOP].max()) >= threshold


def refusal_waived() -> bool:
    """The cross-encoder's refusal has no threshold chosen (nor then the joint one)."""
    return load_ranker().cross_encoder_below is None


def holds_its_keywords(index: AbstractIndex, question: str, results: list[RetrievedPaper]) -> bool:
    """One of the first REFUSAL_TOP of ``results`` holds every keyword of the question, or
    one holds its most specific keyword (the highest ``keyword_weights``, anywhere in the
    text, any case): the cross-encoder reads a dataset or a name mentioned in passing as
    no answer ("which papers evaluate on svhn?" reads as none on an abstract reporting
    SVHN results), and it reads only an abstract's first RERANK_MAX_TOKENS tokens."""
    top = results[:REFUSAL_TOP]
    if any(r.coverage >= FULL_MATCH for r in top):
        return True
    weights = keyword_weights(question, index.keyword_stats())
    if not weights:
        return False
    specific = max(weights, key=lambda t: (weights[t], t))
    return any(specific in text_terms(f"{r.paper.title}. {r.paper.text}") for r in top)


def _joint(index: AbstractIndex, evidence: float | None, logits: np.ndarray | None,
           filters: Filters | None, mark: bool = False) -> tuple[JointReading, float, float] | None:
    """The joint reading (``ranking.JointReading``) where its refusal applies (``mark``: its
    unsure mark), with the ranker's evidence and the cross-encoder's best logit of the first
    REFUSAL_TOP papers it weighs; None where it does not (a small store, another embedding
    model, a filtered question) or reads nothing."""
    joint = load_ranker().joint_reading
    if joint is None or evidence is None or logits is None or filters:
        return None
    applies = joint.marks if mark else joint.applies
    if not applies(index.chunk_count(), index.settings.index.embed_model):
        return None
    return joint, evidence, float(logits[:REFUSAL_TOP].max())


def read_with_evidence(index: AbstractIndex, evidence: float | None, logits: np.ndarray | None,
                       filters: Filters | None) -> bool:
    """The joint refusal: evidence and reading, weighed together, clear its bound (True where
    it does not apply)."""
    joint = _joint(index, evidence, logits, filters)
    return joint is None or not joint[0].refuses(*joint[1:])
