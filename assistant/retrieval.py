"""Hybrid retrieval: BM25 and dense rankings fused per paper, behind a relevance floor.

Why distribution-based fusion: among 13.9k distractor abstracts either ranking can be the
one that knows (BM25 for a rare term, dense for a paraphrase), and fusing by rank alone lets
the weaker list drown the stronger. DBSF scales each list by its own spread, so a first
place that stands far above the rest counts for more. On the eval questions with the
distractors it beat BM25 alone, dense alone and every RRF weighting tried in MRR and hit@1
(bench/fusion.py, bench/results/fusion-data-distractors.json).

Why a floor: a question the corpus cannot answer must retrieve nothing. A paper passes when
its vectors are close to the question or when it holds most of the question's keyword
weight (idf); a bare acronym like "CRAFT" passes on the second even where dense is lost.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
from dataclasses import dataclass
from typing import Literal

import numpy as np

from assistant.index import AbstractIndex, ChunkHit
from assistant.intent import read_intent
from assistant.keywords import KeywordStats, keyword_weights, mentions, query_terms
from assistant.naming import acronyms_of, authors_read, name_forms, several_word_names, writes
from assistant.ranking import (
    NEAREST,
    NEAREST_CHUNKS,
    RARE_CHUNKS,
    candidate_features,
    load_ranker,
    rare_terms,
    read_coverage,
    text_terms,
)
from assistant.refusals import (
    DOUBT,
    FULL_MATCH,
    REFUSAL_TOP,
    Screen,
    first_refusal,
    refusal_waived,
)
from assistant.reranking import CrossEncoder, RerankerError, passage_of, reread_order
from assistant.settings import RetrievalSettings
from assistant.types import Filters, Retrieval, RetrievedPaper, Verdict

Method = Literal["hybrid", "bm25", "dense"]
POOL = 30  # papers taken from each ranking for the learned ranker to order
NEARBY = 10  # papers searched for an unknown acronym's spelled-out phrase
RERANK_TOP = 3  # papers the cross-encoder rereads (median ~0.08 s for three on 2 cores)
RERANK_BELOW = 0.9  # ...when the ranker's probability of its first is below this (dev)
NEAREST_SHOWN = 3  # a refusal's nearest papers, each shown with why it does not answer
# A name that more of the candidates write than this is the field's word (RL, GAN, UCI), not
# what the answer's paper is named by: the named-paper boost leaves it out (bench/key_facts.py's
# first 120 blind questions and the dev split: the same first places from 0 to 5, one fewer
# from 8 on; boosting every name loses 8 of the bench's 270 first places and wins none).
COMMON_NAME_PAPERS = 3
log = logging.getLogger(__name__)


def _rank_papers(hits: list[ChunkHit]) -> dict[str, tuple[int, ChunkHit]]:
    """1-based rank of each paper by its best chunk (hits are sorted best first)."""
    ranks: dict[str, tuple[int, ChunkHit]] = {}
    for hit in hits:
        if hit.paper_id not in ranks:
            ranks[hit.paper_id] = (len(ranks) + 1, hit)
    return ranks


def fuse(
    bm25: dict[str, tuple[int, ChunkHit]],
    dense: dict[str, tuple[int, ChunkHit]],
    weights: tuple[float, float],
    how: str,
    rrf_k: int,
) -> dict[str, float]:
    """Fused paper scores in [0, 1].

    ``rrf``: weighted reciprocal-rank fusion, w / (k + rank). ``dbsf``: distribution-based
    score fusion (as in Qdrant): each ranking's scores are scaled by their own spread
    (mean ± 3 standard deviations → 0…1), so a ranking whose first place stands far above
    the rest counts for more than one whose scores are all alike.
    """
    parts = [(bm25, weights[0]), (dense, weights[1])]
    fused: dict[str, float] = {}
    total = sum(w for _, w in parts) or 1.0
    for ranking, weight in parts:
        if not ranking or not weight:
            continue
        if how == "dbsf":
            values = [hit.score for _, hit in ranking.values()]
            mean = statistics.fmean(values)
            spread = 6 * statistics.pstdev(values) or 1.0
            for pid, (_, hit) in ranking.items():
                scaled = min(1.0, max(0.0, (hit.score - (mean - spread / 2)) / spread))
                fused[pid] = fused.get(pid, 0.0) + weight * scaled / total
        else:
            for pid, (rank, _) in ranking.items():
                fused[pid] = fused.get(pid, 0.0) + weight * (rrf_k + 1) / (rrf_k + rank) / total
    return fused


@dataclass
class Ranking:
    """One question's rankings: each side's papers (rank, best chunk), the combined scores,
    and the learned ranker's raw score of its first paper (``evidence``; None for a fixed
    fusion), the number abstention is calibrated on."""

    bm25: dict[str, tuple[int, ChunkHit]]
    dense: dict[str, tuple[int, ChunkHit]]
    fused: dict[str, float]
    evidence: float | None = None
    nearest: float | None = None  # mean cosine of the store's NEAREST papers (learned hybrid)


class HybridRetriever:
    """Retrieves papers for a question from an ``AbstractIndex``."""

    def __init__(self, index: AbstractIndex, settings: RetrievalSettings) -> None:
        self.index = index
        self.settings = settings

    def _keep_rare_match(self, question: str, bm25: dict[str, tuple[int, ChunkHit]],
                         fused: dict[str, float], stats: KeywordStats) -> None:
        """BM25's first paper stays in the fused top 3 when it holds a question term that
        almost no abstract uses: fusion dilutes such an exact match, and it is how
        researchers search (a word in one abstract was 12th in the fused ranking)."""
        rare = [t for t in query_terms(question) if 0 < stats.doc_freq(t) <= RARE_CHUNKS]
        first = min(bm25, key=lambda pid: bm25[pid][0])
        paper = self.index.papers().get(first)
        if not rare or paper is None or first not in fused:
            return
        if not set(rare) & text_terms(f"{paper.title}. {paper.text}"):
            return
        ranked = sorted(fused.values(), reverse=True)
        if len(ranked) > 3 and fused[first] < ranked[2]:
            fused[first] = ranked[2] + 1e-6

    def unknown_names(self, question: str, fused: dict[str, float] | None = None,
                      filters: Filters | None = None) -> list[str]:
        """Names in the question that no stored title or abstract uses at all: no paper can
        be about them, so the question gets no sources (rather than near misses). An
        acronym counts as used when one of the papers found for the question spells it out."""
        names = read_intent(question).proper_names
        if not names:
            return []
        corpus = self.index.surface_text()
        unknown = [name for name in names if not corpus.knows(name)]
        if not unknown:
            return []
        nearby = self._nearby(question, fused, filters)
        return [name for name in unknown if not corpus.knows(name, nearby)]

    def unwritten_names(self, question: str, fused: dict[str, float] | None = None,
                        filters: Filters | None = None) -> list[str]:
        """Names of several words in the question ("Hindsight Curriculum Distillation",
        ``naming.several_word_names``) that none of the NEARBY papers found for it writes
        (``naming.writes``: as a phrase, run together or as its initials) and no stored paper
        (that the filter allows) writes as a phrase (``naming.PhraseText``), each in any of
        its ``naming.name_forms``: the corpus knows each word, so ``unknown_names`` lets
        them through, and the answer would quote papers on hindsight or on distillation as if
        they were about the thing asked. Outside the eval, among the 13,847 papers, of 663
        questions naming real things it refuses 2 that were answered before (it catches 16
        names, none of which an abstract writes as asked: "Terry Sejnowski"), and none of 200
        real names mined from the abstracts (bench/multiword_names.py)."""
        proper = self.index.surface_text().proper
        names = several_word_names(question, proper)
        if not names:
            return []
        nearby = self._nearby(question, fused, filters, authors=True)
        allowed = self.allowed(filters)
        stats = self.index.keyword_stats()
        # a closing word in one chunk of 1,000 or more is a kind ("Relaxation", "Buffer")
        floor = max(3, self.index.chunk_count() // 1000)

        def common(word: str) -> bool:
            terms = query_terms(word)
            return bool(terms) and all(stats.doc_freq(term) >= floor for term in terms)

        missing = []
        for name in names:
            forms = name_forms(question, name, proper, common)
            if any(writes(form, text) for form in forms for text in nearby):
                continue
            # then any stored paper, which need not rank among the first ("Private Eye":
            # 46th), read for a counted acronym of three initials or more too ("A3C"; the
            # plain ones, lower-cased, are words and surnames somewhere, "TEM", "Kar", and
            # so is a counted pair, "F2" for Forward-Forward)
            forms += [a for form in forms for a in acronyms_of(form, shortest=3) if not a.isalpha()]
            writers = set().union(*(self.index.phrase_text().writers(form) for form in forms))
            if not (writers if allowed is None else writers & allowed):
                missing.append(name)
        return missing

    def _nearby(self, question: str, fused: dict[str, float] | None, filters: Filters | None,
                authors: bool = False) -> list[str]:
        """The title and abstract (and authors, also without middle initials: "Hinton's …",
        "Richard Sutton") of the NEARBY papers the question ranks first."""
        if fused is None:
            fused = self._fused(question, "hybrid", filters).fused
        papers = [self.index.papers().get(pid) for pid in sorted(fused, key=lambda p: -fused[p])[:NEARBY]]
        return [f"{p.title} {p.text}" + (f" | {authors_read(p.authors)}" if authors else "")
                for p in papers if p is not None]

    def allowed(self, filters: Filters | None) -> set[str] | None:
        """The ids of the papers that pass ``filters`` (None: no filter, every paper)."""
        if not filters:
            return None
        return {pid for pid, paper in self.index.papers().items() if filters.allows(paper)}

    def _fused(self, question: str, method: Method, filters: Filters | None = None) -> Ranking:
        """Both rankings and their combination: the learned ranker's probabilities over the
        pooled candidates, or a fixed fusion. ``filters`` narrow both rankings before they
        are cut to their candidates (a BM25 mask, a Chroma ``where``)."""
        s = self.settings
        allowed = self.allowed(filters)
        if allowed is not None and not allowed:
            return Ranking({}, {}, {})
        bm25_hits: list[ChunkHit] = []
        dense_hits: list[ChunkHit] = []
        lexical: dict[str, float] = {}
        vector = None
        if method in ("hybrid", "bm25"):
            lexical = self.index.bm25_paper_scores(question, allowed)
            bm25_hits = [ChunkHit("", pid, "", lexical[pid])
                         for pid in sorted(lexical, key=lambda p: -lexical[p])[:s.candidates]]
        if method in ("hybrid", "dense"):
            vector = self.index.query_vector(question)
            dense_hits = self.index.search_dense(question, max(s.candidates, NEAREST_CHUNKS), vector,
                                                 filters)
        bm25 = _rank_papers(bm25_hits)
        dense = _rank_papers(dense_hits[:s.candidates])
        if method == "hybrid" and s.fusion == "learned" and vector is not None:
            fused, evidence, unfiltered = self._learned(question, lexical, dense, vector, allowed)
            return Ranking(bm25, dense, fused, evidence,
                           self._nearest(question, vector, unfiltered or dense_hits))
        weights = {"hybrid": (s.bm25_weight, s.dense_weight), "bm25": (1.0, 0.0),
                   "dense": (0.0, 1.0)}[method]
        how = "dbsf" if s.fusion == "learned" else s.fusion
        return Ranking(bm25, dense, fuse(bm25, dense, weights, how, s.rrf_k))

    def _nearest(self, question: str, vector: np.ndarray, hits: list[ChunkHit]) -> float | None:
        """The mean cosine of the question's NEAREST papers in the whole store, each by its
        best chunk (``hits``: the store's nearest chunks); when one paper's chunks crowd them
        out, the store is searched further once. None in a store of fewer papers."""
        if len(_rank_papers(hits)) < NEAREST and len(hits) >= NEAREST_CHUNKS:
            hits = self.index.search_dense(question, 10 * NEAREST_CHUNKS, vector)
        nearest = [hit for _, hit in _rank_papers(hits).values()][:NEAREST]
        return statistics.fmean(h.score for h in nearest) if len(nearest) == NEAREST else None

    def _learned(self, question: str, lexical: dict[str, float],
                 dense: dict[str, tuple[int, ChunkHit]], vector: np.ndarray,
                 allowed: set[str] | None = None
                 ) -> tuple[dict[str, float], float | None, list[ChunkHit]]:
        """The learned ranker over the first POOL papers of each ranking: every candidate
        gets both scores (its cosine read from the stored vectors when the dense search did
        not return it), then the ranker's probability.

        With a filter (``allowed``) only those papers are ranked, but the unfiltered first
        POOL papers join the candidates' features as the yardstick: the features are
        normalised per question over the candidates, and the abstention threshold was
        calibrated on unfiltered pools, so a lone paper in a narrow filter would otherwise
        lose its standing (the one relevant paper of 2012 was refused). Those unfiltered
        chunk hits are returned too (empty without a filter): the off-topic check measures
        the question's neighbourhood in the whole store, not in the filter's slice of it
        ("…since 1980?" must not make an off-topic question answerable)."""
        cosines = {pid: hit.score for pid, (_, hit) in dense.items()}
        ids = list(dict.fromkeys(sorted(lexical, key=lambda p: -lexical[p])[:POOL]
                                 + sorted(cosines, key=lambda p: -cosines[p])[:POOL]))
        unfiltered: list[ChunkHit] = []
        if allowed is not None:
            lexical = self.index.bm25_paper_scores(question)  # the allowed scores are the same
            unfiltered = self.index.search_dense(question, max(self.settings.candidates, NEAREST_CHUNKS),
                                                 vector)
            every = _rank_papers(unfiltered[:self.settings.candidates])
            cosines.update({pid: hit.score for pid, (_, hit) in every.items() if pid not in cosines})
            ids = list(dict.fromkeys(ids + sorted(lexical, key=lambda p: -lexical[p])[:POOL]
                                     + sorted(every, key=lambda p: every[p][0])[:POOL]))
        cosines.update(self.index.paper_cosines(vector, [p for p in ids if p not in cosines]))
        papers = self.index.papers()
        texts = {pid: papers[pid].text for pid in ids if pid in papers}
        found = candidate_features(question, ids, lexical, cosines, texts, self.index.keyword_stats())
        ranker = load_ranker()
        scores = ranker.scores(found)
        if allowed is not None:  # the yardstick's papers leave again
            keep = [i for i, pid in enumerate(ids) if pid in allowed]
            ids, scores = [ids[i] for i in keep], scores[keep]
        probabilities = ranker.probabilities(scores)
        evidence = float(scores.max()) if len(scores) else None
        return dict(zip(ids, probabilities.tolist(), strict=True)), evidence, unfiltered

    def cross_encoder_reading(self, question: str, results: list[RetrievedPaper],
                              always: bool = True) -> np.ndarray | None:
        """The cross-encoder's logits for the first RERANK_TOP of ``results`` (the papers an
        answer leads with, in the ranker's order); None when there is nothing to read, when
        not ``always`` and the ranker is at least RERANK_BELOW sure of its first (no reread
        needed), or when it fails to run (not to load), with a warning."""
        unsure = len(results) >= 2 and results[0].score < RERANK_BELOW
        top = results[:RERANK_TOP if unsure else REFUSAL_TOP]  # a third only for the reread
        if not top or (not always and not unsure):
            return None
        try:
            return CrossEncoder().scores(question, [passage_of(r.paper) for r in top])
        except RerankerError:
            raise
        except Exception as error:  # the tokenizer or onnxruntime, on this input
            log.warning("the cross-encoder failed (%s); its reading is left out", error)
            return None

    def holds_its_keywords(self, question: str, results: list[RetrievedPaper]) -> bool:
        """One of the first REFUSAL_TOP of ``results`` holds every keyword of the question, or
        one holds its most specific keyword (the highest ``keyword_weights``, anywhere in the
        text, any case): the cross-encoder reads a dataset or a name mentioned in passing as
        no answer ("which papers evaluate on svhn?" scores -8.5 on an abstract reporting
        SVHN results), and it reads only an abstract's first 256 tokens."""
        top = results[:REFUSAL_TOP]
        if any(r.coverage >= FULL_MATCH for r in top):
            return True
        weights = keyword_weights(question, self.index.keyword_stats())
        if not weights:
            return False
        specific = max(weights, key=lambda t: (weights[t], t))
        return any(specific in text_terms(f"{r.paper.title}. {r.paper.text}") for r in top)

    @staticmethod
    def _reranked(results: list[RetrievedPaper], logits: np.ndarray | None) -> list[RetrievedPaper]:
        """``results`` with its first RERANK_TOP reread (``logits``) when the ranker is less
        than RERANK_BELOW sure of the first, and ordered by log-probability + logit (the
        ranker's belief as the prior, the cross-encoder's reading as the evidence). The places
        keep their scores, so how close the first few are stays as the ranker had it
        (bench/cross_encoder.py: dev hit@1 0.852 → 0.885, 2 of 61 questions; dev is flat for
        thresholds 0.8–1.0; rereading three rather than two: dev MRR 0.914 → 0.917, hit@1
        the same, and no deeper reread or other weighting does better on dev)."""
        top = results[:RERANK_TOP]
        if logits is None or len(top) < 2 or top[0].score >= RERANK_BELOW:
            return results
        order = reread_order([r.score for r in top], logits.tolist())
        return [dataclasses.replace(top[i], score=place.score)
                for place, i in zip(top, order, strict=True)] + results[len(top):]

    @staticmethod
    def names_a_method(question: str, named: set[str]) -> bool:
        """Some candidate names what the question names, and that is more than two letters:
        "UK" or "GP" names no method, and occurs in papers on anything."""
        return bool(named) and any(len(n) > 2 for n in read_intent(question).names)

    def _writers(self, question: str, fused: dict[str, float]) -> dict[str, set[str]]:
        """For each name the question writes (methods, acronyms), the candidates that name
        it as researchers write it (``keywords.mentions``, in the title or abstract)."""
        papers = self.index.papers()
        texts = {pid: f"{papers[pid].title} {papers[pid].text}" for pid in fused if pid in papers}
        return {name: {pid for pid, text in texts.items() if mentions(text, name)}
                for name in read_intent(question).names}

    @staticmethod
    def _named(writers: dict[str, set[str]]) -> set[str]:
        """The candidates that name everything the question names (``_writers``)."""
        return set.intersection(*writers.values()) if writers else set()

    @staticmethod
    def _boosted(question: str, writers: dict[str, set[str]]) -> set[str]:
        """The candidates the named-paper boost puts first: those that name everything the
        question names (``writers``), a name that more than COMMON_NAME_PAPERS of the
        candidates write left out (the question's "RL" or "GAN" is named by most of its
        candidates, and the boost would put them all ahead of the one paper that writes
        "reinforcement learning"); none when no name is left. A summary ("Summarize the
        papers on … for LLM reasoning") keeps every name: it lists the papers that name what
        it asks about."""
        kept = [pids for pids in writers.values()
                if read_intent(question).summary or len(pids) <= COMMON_NAME_PAPERS]
        return set.intersection(*kept) if kept else set()

    def abstention_signals(self, question: str) -> tuple[float | None, float | None, bool]:
        """What the refusal of ``question`` rests on, for the eval's score plot and the
        calibration: the learned ranker's raw score of the best paper (the evidence), the
        mean cosine of its nearest papers, and whether it names a method a candidate names
        (which exempts it from the off-topic check)."""
        ranking = self._fused(question, "hybrid")
        return (ranking.evidence, ranking.nearest,
                self.names_a_method(question, self._named(self._writers(question, ranking.fused))))

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
        # a term lookup's papers lead as the exact match put them, read by nothing further
        if not (reread and results) or screen.holders:
            return Retrieval(results[:top_k], read=read)
        screen.exempt, screen.logits = self._refusal_logits(question, results)
        refusal = first_refusal(self, screen, "reading")
        if refusal is not None:
            return self._refused(screen, refusal)
        return Retrieval(self._reranked(results, screen.logits)[:top_k],
                         doubt=DOUBT.verdict(self, screen), read=read)

    def _refused(self, screen: Screen, refusal: Verdict) -> Retrieval:
        """A refusal: no papers, its verdict, the candidates counted, and the ranking's first
        NEAREST_SHOWN papers, each with the refusal's reason and its own figures (its best
        chunk's similarity to the question, its share of the question's keyword weight, and
        the cross-encoder's reading where it read it), so that a reader can judge the "no"."""
        ranking, papers = screen.ranking, self.index.papers()
        stats = self.index.keyword_stats()
        weights = keyword_weights(screen.question, stats)
        rare = rare_terms(weights, stats)
        readings = [] if screen.logits is None else [float(x) for x in screen.logits]
        logits = {r.paper.paper_id: x for r, x in zip(screen.results[:len(readings)], readings,
                                                      strict=True)}
        nearest: list[tuple[RetrievedPaper, str]] = []
        for pid in sorted(ranking.fused, key=lambda p: -ranking.fused[p]):
            paper = papers.get(pid)
            if paper is None:
                continue
            hit = ranking.dense.get(pid)
            cosine = hit[1].score if hit else 0.0
            coverage, _ = read_coverage(weights, rare, paper.text, paper.title)
            figures = f"similarity {cosine:.2f}, {coverage:.0%} of the question's keywords"
            if pid in logits:
                figures += f", the cross-encoder's reading {logits[pid]:.1f}"
            nearest.append((RetrievedPaper(paper, round(ranking.fused[pid], 4),
                                           hit[1].text if hit else paper.text,
                                           round(cosine, 4), round(coverage, 4)),
                            f"{refusal.reason} This paper: {figures}."))
            if len(nearest) >= NEAREST_SHOWN:
                break
        return Retrieval([], refusal=refusal, read=len(ranking.fused), nearest=nearest)

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
        writers = self._writers(question, fused)
        screen.named = self._named(writers)
        boosted = self._boosted(question, writers)
        if method == "hybrid" and boosted:
            for pid in fused:  # a paper that names what was asked about comes first
                fused[pid] = (fused[pid] + (1.0 if pid in boosted else 0.0)) / 2.0
        if method == "hybrid" and bm25:
            self._keep_rare_match(question, bm25, fused, self.index.keyword_stats())
        screen.holders = self.lookup_holders(question, filters)
        for pid in screen.holders:  # a lookup's paper outside the candidates still counts
            fused.setdefault(pid, 0.0)
        self._floor(screen, wanted, apply_floor)
        if apply_floor:
            screen.refusal = first_refusal(self, screen, "ranking")
            if screen.refusal is not None:
                screen.results = []
        return screen

    def lookup_holders(self, question: str, filters: Filters | None = None) -> list[str]:
        """The papers (those ``filters`` allow) whose title or abstract holds every word a
        term lookup asks for ("Which paper mentions shareboost?", ``Intent.lookup_terms``),
        stem and all, best BM25 first; none when the question is no lookup. Such a paper
        answers the question whatever the ranker, the neighbourhood or the cross-encoder
        make of it: its words are what was asked for."""
        words = read_intent(question).lookup_terms
        terms = {term for word in words for term in query_terms(word)}
        if not terms:
            return []
        scores = self.index.bm25_paper_scores(" ".join(words), self.allowed(filters))
        papers = self.index.papers()
        return [pid for pid in sorted(scores, key=lambda p: (-scores[p], p)) if pid in papers
                and terms <= text_terms(f"{papers[pid].title}. {papers[pid].text}")]

    def _floor(self, screen: Screen, wanted: int, apply_floor: bool) -> None:
        """The first ``wanted`` papers in the ranker's order into ``screen.results``, with
        ``apply_floor`` only those past the relevance floor; ``screen.answerable`` when one of
        those read cleared its strict form."""
        s = self.settings
        ranking, named = screen.ranking, screen.named
        bm25, dense, fused = ranking.bm25, ranking.dense, ranking.fused
        papers = self.index.papers()
        weights = keyword_weights(screen.question, self.index.keyword_stats())
        rare = rare_terms(weights, self.index.keyword_stats())
        holders = set(screen.holders)  # a term lookup's papers first, past the floor
        for pid in sorted(fused, key=lambda p: (p not in holders, -fused[p], bm25.get(p, (1e9,))[0])):
            paper = papers.get(pid)
            if paper is None:
                continue
            dense_hit = dense.get(pid)
            cosine = dense_hit[1].score if dense_hit else 0.0
            coverage, _ = read_coverage(weights, rare, paper.text, paper.title)
            strict = (cosine >= s.min_dense or pid in named or pid in holders
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
