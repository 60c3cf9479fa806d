"""A question's candidates and their combined scores: BM25 and dense rankings, ordered by
the learned ranker or fused per paper.

Why distribution-based fusion: among 13.9k distractor abstracts either ranking can be the
one that knows (BM25 for a rare term, dense for a paraphrase), and fusing by rank alone lets
the weaker list drown the stronger. DBSF scales each list by its own spread, so a first
place that stands far above the rest counts for more. On the eval questions with the
distractors it beat BM25 alone, dense alone and every RRF weighting tried in MRR and hit@1
(bench/fusion.py, bench/results/fusion-data-distractors.json). The learned ranker, the
default, orders the pooled candidates of both rankings instead (ranking.py).
"""

from __future__ import annotations

import statistics
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

import numpy as np

from assistant.index import AbstractIndex, ChunkHit
from assistant.ranking import candidate_features, load_ranker
from assistant.settings import RetrievalSettings
from assistant.tuning import NEAREST, NEAREST_CHUNKS, POOL
from assistant.types import Filters

Method = Literal["hybrid", "bm25", "dense"]


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


class CandidateRanker:
    """Ranks a question's candidates in an ``AbstractIndex`` (``HybridRetriever`` screens
    them: the floor, the refusals, the reread)."""

    def __init__(self, index: AbstractIndex, settings: RetrievalSettings) -> None:
        self.index = index
        self.settings = settings

    def rank(self, question: str, method: Method, filters: Filters | None = None) -> Ranking:
        """Both rankings and their combination: the learned ranker's probabilities over the
        pooled candidates, or a fixed fusion. ``filters`` narrow both rankings before they
        are cut to their candidates (a BM25 mask, a Chroma ``where``)."""
        s = self.settings
        allowed = self.index.allowed(filters)
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
                 allowed: AbstractSet[str] | None = None
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
