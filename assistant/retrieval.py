"""Hybrid retrieval: a question's candidates (candidates.py) screened behind a relevance
floor and the refusals, then reread by the cross-encoder.

Why a floor: a question the corpus cannot answer must retrieve nothing. A paper passes when
its vectors are close to the question or when it holds most of the question's keyword
weight (idf); a bare acronym like "CRAFT" passes on the second even where dense is lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from assistant import name_checks
from assistant.candidates import CandidateRanker, Method, Ranking
from assistant.index import AbstractIndex
from assistant.intent import read_intent
from assistant.keywords import keyword_weights, plain_letters, query_terms
from assistant.ranking import rare_terms, read_coverage, text_terms
from assistant.refusals import (
    DOUBT,
    REFUSAL_TOP,
    Screen,
    first_refusal,
    holds_its_keywords,
    nearest_reason,
    refusal_waived,
)
from assistant.reranking import cross_encoder_reading, reranked
from assistant.settings import RetrievalSettings
from assistant.term_lookups import lookup_alternatives
from assistant.tuning import NEAREST_SHOWN, RERANK_TOP, TITLE_AS_NAME
from assistant.types import Filters, Retrieval, RetrievedPaper, Verdict
from assistant.written_forms import SYMBOLS, as_written, compound_forms, typed_pattern, written_forms


class HybridRetriever:
    """Retrieves papers for a question from an ``AbstractIndex``."""

    def __init__(self, index: AbstractIndex, settings: RetrievalSettings) -> None:
        self.index = index
        self.settings = settings
        self.candidates = CandidateRanker(index, settings)

    def unknown_names(self, question: str, fused: dict[str, float] | None = None,
                      filters: Filters | None = None) -> list[str]:
        """``name_checks.unknown_names`` around the papers found for ``question``: ``fused``,
        else its hybrid ranking under ``filters`` (ranked only when a name needs them)."""
        return name_checks.unknown_names(self.index, question, self._found(question, fused, filters))

    def unwritten_names(self, question: str, fused: dict[str, float] | None = None,
                        filters: Filters | None = None) -> list[str]:
        """``name_checks.unwritten_names`` around the papers found for ``question`` (as
        ``unknown_names``), among the papers ``filters`` allow."""
        return name_checks.unwritten_names(self.index, question, self._found(question, fused, filters),
                                           self.allowed(filters))

    def unstored_title(self, question: str, fused: dict[str, float] | None = None,
                       filters: Filters | None = None) -> tuple[str, str | None] | None:
        """``name_checks.unstored_title`` around the papers found for ``question``."""
        return name_checks.unstored_title(self.index, question, self._found(question, fused, filters))

    def _found(self, question: str, fused: dict[str, float] | None,
               filters: Filters | None) -> name_checks.Found:
        """``fused``, or the question's hybrid ranking under ``filters`` when first asked for."""
        return lambda: fused if fused is not None else self._fused(question, "hybrid", filters).fused

    def allowed(self, filters: Filters | None) -> frozenset[str] | None:
        """The ids of the papers that pass ``filters`` (None: no filter, every paper)."""
        return self.index.allowed(filters)

    def _fused(self, question: str, method: Method, filters: Filters | None = None) -> Ranking:
        """Both rankings and their combination (``CandidateRanker.rank``)."""
        return self.candidates.rank(question, method, filters)

    def abstention_signals(self, question: str) -> tuple[float | None, float | None, bool]:
        """What the refusal of ``question`` rests on, for the eval's score plot and the
        calibration: the learned ranker's raw score of the best paper (the evidence), the
        mean cosine of its nearest papers, and whether it names a method a candidate names
        (which exempts it from the off-topic check)."""
        ranking = self._fused(question, "hybrid")
        writers = name_checks.name_writers(self.index, question, ranking.fused)
        return (ranking.evidence, ranking.nearest,
                name_checks.names_a_method(question, name_checks.named(writers)))

    def retrieve(self, question: str, top_k: int | None = None, method: Method = "hybrid",
                 apply_floor: bool = True, filters: Filters | None = None
                 ) -> list[RetrievedPaper]:
        """The papers to answer ``question`` from (``find``, without its doubt)."""
        return self.find(question, top_k, method, apply_floor, filters).papers

    def find(
        self,
        question: str,
        top_k: int | None = None,
        method: Method = "hybrid",
        apply_floor: bool = True,
        filters: Filters | None = None,
    ) -> Retrieval:
        """``retrieve``'s papers; with none, the check that refused them (``refusals.CHECKS``);
        and whether the joint reading doubts them (an answer's notice, ``Answer.unsure``): it
        reads the logits the refusal and the reread already computed, so a question whose
        first papers hold its keywords, and whose first paper the ranker is sure of, is never
        doubted."""
        top_k = top_k or self.settings.top_k
        reread = self._rereads(method, apply_floor)
        # the floor, the refusals and the reread read as many papers whatever the answer
        # shows: "--top-k 1" must not change which paper comes first, nor what is refused
        screen = self._ranked(question, self._read_for_refusal(top_k) if apply_floor else top_k,
                              method, apply_floor, filters)
        results, read = screen.results, len(screen.ranking.fused)
        if screen.refusal is not None:
            return self._refused(screen, screen.refusal)
        # a term lookup's papers, or the paper whose title is asked about, lead as the exact
        # match put them, read by nothing further
        if not (reread and results) or screen.holders or screen.titled:
            return Retrieval(results[:top_k], read=read)
        screen.exempt, screen.logits = self._refusal_logits(question, results)
        refusal = first_refusal(self, screen, "reading")
        if refusal is not None:
            return self._refused(screen, refusal)
        return Retrieval(reranked(results, screen.logits)[:top_k],
                         doubt=DOUBT.verdict(self, screen), read=read)

    def _refused(self, screen: Screen, refusal: Verdict) -> Retrieval:
        """A refusal: no papers, its verdict, the candidates counted, and the ranking's first
        NEAREST_SHOWN papers, each with its own reason (``refusals.nearest_reason``: the
        question's words it never writes, and its figures), so that a reader can judge the
        "no"; the refusal's own reason is the verdict's."""
        ranking, papers = screen.ranking, self.index.papers()
        stats = self.index.keyword_stats()
        weights = keyword_weights(screen.question, stats)
        rare = rare_terms(weights, stats)
        readings = [] if screen.logits is None else [float(x) for x in screen.logits]
        logits = {r.paper.paper_id: x for r, x in zip(screen.results[:len(readings)], readings,
                                                      strict=True)}
        first = [pid for pid in sorted(ranking.fused, key=lambda p: -ranking.fused[p])
                 if pid in papers][:NEAREST_SHOWN]
        cosines = self._cosines(screen.question, first, ranking)
        # shown nearest first by the similarity each line gives (a run's: 0.05, 0.07, 0.19)
        first.sort(key=lambda pid: -cosines.get(pid, 0.0))
        nearest: list[tuple[RetrievedPaper, str]] = []
        for pid in first:
            paper = papers[pid]
            hit = ranking.dense.get(pid)
            cosine = cosines.get(pid, 0.0)
            coverage, _ = read_coverage(weights, rare, paper.text, paper.title)
            nearest.append((RetrievedPaper(paper, round(ranking.fused[pid], 4),
                                           hit[1].text if hit else paper.text,
                                           round(cosine, 4), round(coverage, 4)),
                            nearest_reason(screen.question, paper, weights, cosine, coverage,
                                           logits.get(pid))))
        return Retrieval([], refusal=refusal, read=len(ranking.fused), nearest=nearest)

    def _cosines(self, question: str, paper_ids: list[str], ranking: Ranking) -> dict[str, float]:
        """The question's cosine with each paper's best chunk: the dense search's, else read
        from the stored vectors (``AbstractIndex.paper_cosines``). A paper BM25 alone found
        had been given 0.00, so a refusal's reason said "similarity 0.00" of a paper close
        to the question."""
        cosines = {pid: ranking.dense[pid][1].score for pid in paper_ids if pid in ranking.dense}
        unread = [pid for pid in paper_ids if pid not in cosines]
        if unread:
            cosines.update(self.index.paper_cosines(self.index.query_vector(question), unread))
        return cosines

    def cross_encoder_reading(self, question: str, results: list[RetrievedPaper],
                              always: bool = True) -> np.ndarray | None:
        """The cross-encoder's logits of the first ``results`` (``reranking.cross_encoder_reading``)."""
        return cross_encoder_reading(question, results, always)

    def holds_its_keywords(self, question: str, results: list[RetrievedPaper]) -> bool:
        """The first ``results`` hold what ``question`` asks about, which waives the
        cross-encoder's refusal (``refusals.holds_its_keywords``)."""
        return holds_its_keywords(self.index, question, results)

    def _refusal_logits(self, question: str, results: list[RetrievedPaper]
                        ) -> tuple[bool, np.ndarray | None]:
        """Whether the cross-encoder's refusal is waived (no threshold chosen, or the first
        papers hold what the question asks about), and the logits it reads of ``results``
        (read anyway when the reread needs them)."""
        exempt = refusal_waived() or self.holds_its_keywords(question, results)
        return exempt, self.cross_encoder_reading(question, results, always=not exempt)

    def refusal_reading(self, question: str) -> float | None:
        """What the cross-encoder's refusal compares with its threshold (the eval's score
        plot): the best logit of the ranker's first REFUSAL_TOP papers, once every earlier
        check has let the question through, as ``retrieve`` with its defaults reads it; None
        when one refused it, when the refusal is waived or off, or when the cross-encoder
        failed."""
        if not self._rereads("hybrid", True):
            return None
        screen = self._ranked(question, self._read_for_refusal(self.settings.top_k),
                              "hybrid", True, None)
        results = screen.results
        if not results or screen.holders:
            return None
        exempt, logits = self._refusal_logits(question, results)
        return None if exempt or logits is None else float(logits[:REFUSAL_TOP].max())

    def _rereads(self, method: Method, apply_floor: bool) -> bool:
        """The cross-encoder's refusal and reread apply: to the learned ranker's hybrid
        ranking, with reranking on and the floor applied."""
        s = self.settings
        return method == "hybrid" and s.fusion == "learned" and s.rerank and apply_floor

    def _read_for_refusal(self, top_k: int) -> int:
        """How many papers the floor and the refusals read: those of a default answer, and
        the first RERANK_TOP the cross-encoder rereads, at least."""
        return max(top_k, self.settings.top_k, RERANK_TOP)

    def _ranked(self, question: str, wanted: int, method: Method, apply_floor: bool,
                filters: Filters | None) -> Screen:
        """The first ``wanted`` papers in the ranker's order (``Screen.results``), and with
        ``apply_floor`` the relevance floor and every refusal before the cross-encoder's
        (no papers and the refusal's verdict when one refuses); with the ranker's evidence,
        which the joint refusal reads beside the cross-encoder."""
        ranking = self._fused(question, method, filters)
        screen = Screen(question, filters, ranking)
        if apply_floor:
            screen.refusal = first_refusal(self, screen, "question")
        if not ranking.fused or screen.refusal is not None:
            return screen
        bm25, fused = ranking.bm25, ranking.fused
        writers = name_checks.name_writers(self.index, question, fused)
        screen.named = name_checks.named(writers)
        boosted = name_checks.boosted(question, writers)
        if method == "hybrid" and boosted:
            for pid in fused:  # a paper that names what was asked about comes first
                fused[pid] = (fused[pid] + (1.0 if pid in boosted else 0.0)) / 2.0
        if method == "hybrid" and bm25:
            name_checks.keep_rare_match(self.index, question, bm25, fused, self.index.keyword_stats())
        screen.holders = self.lookup_holders(question, filters)
        for pid in screen.holders:  # a lookup's paper outside the candidates still counts
            fused.setdefault(pid, 0.0)
        if not screen.holders and symbolic(read_intent(question).lookup_terms):
            fused.clear()  # "F#" written by no abstract: no paper answers (one had been quoted)
        if not screen.holders:  # a paper whose title is asked about comes first
            papers = self.index.papers()
            screen.titled = name_checks.titled_papers(papers, question, self.allowed(filters))
            top = max(fused.values(), default=0.0)
            fused.update(dict.fromkeys(screen.titled, top + 1.0))
            if screen.titled and name_checks.asks_only_of(
                    question, [papers[pid].title for pid in screen.titled], self.a_name):
                for pid in set(fused) - set(screen.titled):  # "summarize “X”" is of X alone
                    del fused[pid]
        self._floor(screen, wanted, apply_floor)
        if apply_floor:
            screen.refusal = first_refusal(self, screen, "ranking")
            if screen.refusal is not None:
                screen.results = []
        return screen

    def lookup_holders(self, question: str, filters: Filters | None = None) -> list[str]:
        """The papers (those ``filters`` allow) holding the words a term lookup asks for
        ("Which paper mentions shareboost?", ``Intent.lookup_terms``): ``term_holders``;
        none when the question is no lookup. Such a paper answers the question whatever
        the ranker, the neighbourhood or the cross-encoder make of it: its words are what
        was asked for."""
        holders, _ = term_holders(self.index, read_intent(question).lookup_terms,
                                  self.allowed(filters), question)
        return holders

    def a_name(self, title: str) -> bool:
        """Whether more than TITLE_AS_NAME other papers write ``title`` ("latent Dirichlet
        allocation"): a method's name as much as one paper's title."""
        terms = query_terms(title)
        held = self.index.term_papers(terms)
        holders = frozenset.intersection(*(held.get(t, frozenset()) for t in terms)) if terms else ()
        written = re.compile(r"[\s-]+".join(map(re.escape, title.split())), re.I)
        papers = self.index.papers()
        return sum(1 for pid in holders if pid in papers and written.search(papers[pid].text)) > TITLE_AS_NAME

    def _floor(self, screen: Screen, wanted: int, apply_floor: bool) -> None:
        """The first ``wanted`` papers in the ranker's order into ``screen.results``, with
        ``apply_floor`` only those past the relevance floor, and for a term lookup only the
        papers holding its words; ``screen.answerable`` when one of those read cleared its
        strict form."""
        s = self.settings
        ranking, named = screen.ranking, screen.named
        bm25, dense, fused = ranking.bm25, ranking.dense, ranking.fused
        papers = self.index.papers()
        weights = keyword_weights(screen.question, self.index.keyword_stats())
        rare = rare_terms(weights, self.index.keyword_stats())
        holders = set(screen.holders)  # a term lookup's papers first, past the floor
        titled = set(screen.titled)
        for pid in sorted(fused, key=lambda p: (p not in holders, -fused[p], bm25.get(p, (1e9,))[0])):
            paper = papers.get(pid)
            if paper is None or (holders and pid not in holders):  # a lookup asks for those
                continue
            dense_hit = dense.get(pid)
            cosine = dense_hit[1].score if dense_hit else 0.0
            coverage, _ = read_coverage(weights, rare, paper.text, paper.title)
            strict = (cosine >= s.min_dense or pid in named or pid in holders or pid in titled
                      or (coverage >= s.min_coverage and not named))
            screen.answerable = screen.answerable or strict
            # Once one paper clears the floor the question is on topic, and the rest of the
            # ranking counts at half the floor (unless the question names something else).
            relaxed = (cosine >= s.min_dense / 2 or coverage >= s.min_coverage / 2) and not named
            if apply_floor and not (strict or relaxed):
                continue
            chunk = dense_hit[1].text if dense_hit else paper.text
            screen.results.append(RetrievedPaper(
                paper=paper,
                score=round(fused[pid], 4),
                chunk=chunk,
                dense=round(cosine, 4),
                coverage=round(coverage, 4),
            ))
            if len(screen.results) >= wanted:
                break


def symbolic(words: Sequence[str]) -> bool:
    """Whether a looked-up word is written with symbols the keyword index cannot hold."""
    return any(map(SYMBOLS.search, words))


def _written_as_is(index: AbstractIndex, words: Sequence[str],
                   allowed: AbstractSet[str] | None) -> list[str]:
    """The papers whose title or abstract writes each of ``words`` as it is written, newest
    first: every paper is read, as no index holds them."""
    patterns = [typed_pattern(w) for w in words]
    papers = index.papers()
    held = [p for pid, p in papers.items() if (allowed is None or pid in allowed)
            and all(x.search(f"{p.title}. {p.text}") for x in patterns)]
    return [p.paper_id for p in sorted(held, key=lambda p: (-(p.year or 0), p.paper_id))]


def term_holders(index: AbstractIndex, words: Sequence[str],
                 allowed: AbstractSet[str] | None = None,
                 asked: str = "") -> tuple[list[str], bool]:
    """The papers whose title or abstract holds ``words`` (a term lookup's), best BM25
    first, and whether they write the words as asked. The closest to the words as asked
    come alone when there are any: the words written together as a phrase ("hidden clique",
    a word or two between them allowed), else each written as asked anywhere ("musicality",
    not every paper on music that a shared stem matches), else each word's stem
    ("tensorization" written "tensorized"). A word as asked may be in the singular or the
    plural (``as_written``), and part of a hyphenated compound ("GAN-based"). The words a
    question ``asked`` joins with "and" ("both dropout and batch normalization":
    ``term_lookups.lookup_groups``) are each group's phrase, the groups anywhere; the
    alternatives it joins with "or" (``lookup_alternatives``) each hold theirs, and a paper
    holding any answers, those of the first alternative first (only those holding theirs
    as asked, when any do)."""
    alternatives = lookup_alternatives(read_intent(asked).search) if asked else ()
    if len(alternatives) > 1:  # "Tetris or chess", "C++ or CUDA"
        found = [_holders(index, [w for group in groups for w in group], allowed, groups)
                 for groups in alternatives]
        as_asked = any(a for _, a in found)
        return list(dict.fromkeys(pid for ids, a in found if a or not as_asked for pid in ids)), as_asked
    return _holders(index, words, allowed, alternatives[0] if alternatives else ())


# a name's version glued on after a letter ("MobileNetV2", "ResNet50"): the name, as a
# hyphen had been ("GPT-3"); R7's "Which papers mention MobileNets?" had found 9 of 18
_VERSION = r"(?:(?<=[^\W\d_])[vV]?\d+)?"


def _versioned(forms: Sequence[str], index: AbstractIndex) -> list[str]:
    """The stored terms writing one of ``forms`` (of a name ending in a letter) with its
    version glued on: "mobilenetv2" for "MobileNet", which BM25 holds as a term apart."""
    named = [re.escape(f.lower()) for f in forms if f[-1:].isalpha() and len(f) > 2]
    if not named:
        return []
    versioned = re.compile(rf"(?:{'|'.join(named)})v?\d+")
    return [t for t in index.keyword_stats().vocab if versioned.fullmatch(t)]


def _holders(index: AbstractIndex, words: Sequence[str], allowed: AbstractSet[str] | None,
             groups: Sequence[Sequence[str]]) -> tuple[list[str], bool]:
    """``term_holders`` of one alternative's ``words`` in their ``groups``."""
    terms = {term for word in words for term in query_terms(word)}
    written = index.written_text()
    spelled = {w: compound_forms(w, written) for w in words}  # "pretraining", "pre-training"
    if symbols := [w for w in words if SYMBOLS.search(w)]:  # "C++", "F#": as written alone
        held = _written_as_is(index, symbols, allowed)
        if others := [w for w in words if w not in symbols]:  # "C++ and CUDA": both (a review's)
            also = set(_holders(index, others, allowed, ())[0])
            held = [pid for pid in held if pid in also]
        return held, True
    if not terms:
        return [], False
    forms = [form for word in words for one in spelled[word] for form in written_forms(one)]  # "matrices"
    scores = index.bm25_paper_scores(" ".join([*forms, *_versioned(forms, index)]), allowed)
    papers = index.papers()
    # accents aside: "Nystrom" is written "Nyström" as often (``plain_letters``)
    texts = {pid: plain_letters(f"{papers[pid].title}. {papers[pid].text}")
             for pid in scores if pid in papers}
    ranked = sorted(texts, key=lambda p: (-scores[p], p))
    def exact(phrase: Sequence[str]) -> str:  # "GAN-based" writes GAN; "won't" no "won"
        forms = ("|".join(as_written(plain_letters(f)) for f in spelled.get(w, [w])) for w in phrase)
        return r"(?:\W+\w+){0,2}?\W+".join(rf"(?<!\w)(?:{form}){_VERSION}(?!\w)(?!['’]t\b)" for form in forms)
    phrases = [g for g in groups if g] if len(groups) > 1 else [words] if len(words) > 1 else []
    tiers = [[re.compile(exact(phrase), re.I) for phrase in phrases],
             [re.compile(exact([word]), re.I) for word in words]]
    for patterns in tiers:
        held = [pid for pid in ranked if patterns and all(p.search(texts[pid]) for p in patterns)]
        if held:
            return held, True
    return [pid for pid in ranked if terms <= text_terms(texts[pid])], False
