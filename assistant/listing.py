"""Exhaustive lists: every stored paper that answers a list question, not the first five.

Why: a list question ("Which papers use diffusion models for planning?") has as many answers
as the store holds, and top-k retrieval silently drops all but a few. The screen reads a wide
pool, the union of BM25's and the dense search's candidates within the filters, and decides
for each paper whether it answers the question:

1. cheaply, for every candidate: the share of the topic's keyword weight (idf) the title and
   abstract hold, under the best of the topic's readings (``topics.py``, ``readings.py``),
   less a share for each phrase ("diffusion models") the paper never writes as one, and the
   MiniLM cosine of its best chunk; a paper clearly in (``keep_at``) or clearly out
   (``drop_below``) is decided here;
2. the uncertain band between is reread by the cross-encoder (or judged by a configured
   model's relevance check, ``Judge``), at most ``max_reread`` papers, best first; one past
   it is kept on its cheap score only if it writes the topic or is near its sense;
3. a paper the cross-encoder turns down (it reads words, not meaning: "portfolio
   selection" is not "portfolio optimization" to it) is still kept when it stands close to
   the topic's sense, the mean vector of the papers the cheap screen is surest of;
4. a list of none is never a false "no": the papers naming the topic in full are shown as
   unconfirmed mentions (``ListResult.mentions``), not counted, for the user to judge.

The cross-encoder reads a paper's title and its one sentence holding the topic's words
(``focus_passage``), pair by pair, and only the band. The thresholds are chosen on the dev
split of evals/lists.jsonl (bench/lists.py).
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import numpy as np

from assistant.acronyms import acronym_readings, otherwise_spelled, spelled_readings
from assistant.american import in_american
from assistant.corpus import Paper
from assistant.facets import facet_misses
from assistant.index import AbstractIndex
from assistant.intent import read_intent
from assistant.list_records import CHEAP, CROSS_ENCODER, MODEL, Candidate, ListedPaper, ListResult
from assistant.readings import (
    Reading,
    coverage_readings,
    relation_verb,
    with_nouns,
    within_reach,
    without_kind,
    without_verb,
    writes_topic,
)
from assistant.reranking import CrossEncoder
from assistant.retrieval import term_holders
from assistant.topics import (
    ACRONYM_RE,
    ALSO,
    best_sentence,
    raw_topic,
    reread_pairs,
    stated_acronyms,
    topic_of,
    topic_weights,
)
from assistant.tuning import TITLED_RISE
from assistant.types import Filters
from assistant.written_forms import compound_forms, short_forms, written_topic

log = logging.getLogger(__name__)

# Judges a batch of papers for a question: True for each that answers it, None for each it
# could not judge (the model's check; the cross-encoder reads those).
Judge = Callable[[str, list[Paper]], list[bool | None]]
# The logit of a reading that does not apply to a paper (an acronym it spells otherwise):
# below any the cross-encoder gives, and finite for the sigmoid of the verdict.
NO_READING = -30.0
EMPTY_READS = 3  # reading budgets more a list spends while it keeps none


@dataclass(frozen=True)
class ScreenSettings:
    """The screen's pool and thresholds, chosen on the dev split by ``bench/lists.py DIR
    --tune`` over the 13.9k store."""

    bm25_pool: int = 200  # papers taken from BM25's ranking
    dense_chunks: int = 300  # chunks taken from the dense search
    # BM25 papers read for a clear cheap match beyond bm25_pool (None: all, as a count reads;
    # a bound leaves those past it unscreened, counted in ListResult.unscreened)
    deep_pool: int | None = None
    deep_coverage: float = 0.99  # ...admitted when they hold this share of the topic's weight
    dense_weight: float = 0.6  # cheap score = coverage + dense_weight × cosine
    keep_at: float = 1.7  # cheap score from which a paper is kept unread
    drop_below: float = 0.6  # cheap score under which a paper is dropped unread
    reread_keeps: float = 0.0  # the cross-encoder's logit that counts as neither in nor out
    # a reread paper is kept when cheap + reread_weight × (sigmoid(logit - reread_keeps) - ½)
    # reaches the band's middle: the reading moves the cheap score, by at most ½ × weight
    reread_weight: float = 100.0  # 100: the band left to the reading alone (1.6: moved by it)
    max_reread: int = 30  # papers the cross-encoder (or model) reads at most
    reread_question: bool = False  # the cross-encoder reads the question (False: the topic)
    idf_power: float = 2.0  # keyword weight = idf ** idf_power (higher: rare words count more)
    phrase_weight: float = 0.5  # share of coverage lost for topic pairs not written together
    sense_papers: int = 10  # the surest papers (by cheap score) whose mean vector is the sense
    # a paper the cross-encoder turns down is kept when its best chunk's cosine with the
    # sense reaches this (above 1: never)
    sense_keeps: float = 0.65
    acronyms: bool = True  # a run of the topic's words the field writes as an acronym
    titles: bool = True  # a paper whose title names the topic is kept unread (Reading.titles)
    quotes: bool = True  # each listed paper's sentence to quote (a trend's count shows none)
    facets: bool = True  # a qualified topic's paper answers each facet (facets.py)

    def uncertain(self, candidate: Candidate) -> bool:
        """Whether the reading decides ``candidate``: in the band, not kept for its title."""
        return not candidate.titled and self.drop_below <= candidate.cheap < self.keep_at


def unanswering(topic: str, verb: str | None, read: Sequence[Candidate],
                kept_unread: Sequence[Candidate], budget: int, index: AbstractIndex) -> set[str]:
    """The ids of the papers ``read`` kept and of ``kept_unread`` that leave a facet of the
    qualified ``topic`` unanswered (``facet_misses``): one the cross-encoder kept
    within the first ``budget`` may answer a facet by its reading; one read past it must
    write each facet, as one kept unread must (C59: the cross-encoder had read three GNN
    papers as on "spiking neural networks for graph classification")."""
    crossed = [(i, c.paper) for i, c in enumerate(read) if c.judged and c.reader == CROSS_ENCODER]
    return facet_misses(topic, verb, [p for i, p in crossed if i < budget],
                        [c.paper for c in kept_unread] + [p for i, p in crossed if i >= budget], index)


class ListScreen:
    """Screens an index's papers for a list question (``screen``)."""

    def __init__(self, index: AbstractIndex, settings: ScreenSettings | None = None) -> None:
        self.index = index
        self.settings = settings or ScreenSettings()
        self._searched: dict[tuple[str, int], str] = {}  # raw topic, store size → searched

    def candidates(self, question: str, filters: Filters | None = None) -> list[Candidate]:
        """The pool with its cheap signals, best cheap score first (``pooled``)."""
        return self.pooled(question, filters)[0]

    def pooled(self, question: str, filters: Filters | None = None
               ) -> tuple[list[Candidate], int]:
        """The pool with its cheap signals, best cheap score first: BM25's first
        ``bm25_pool`` papers, the papers of the dense search's first ``dense_chunks`` chunks,
        and any paper BM25 ranks (its first ``deep_pool`` when set) that holds (nearly) every
        keyword of the topic (``deep_coverage``) or whose title names it: a topic of
        thousands of papers is not cut at the pool. With the number of such papers past a
        ``deep_pool`` bound, left unscreened (0 without one): a list says so, never cut
        silently. The topic's readings and sense are the whole store's, whatever the years
        or venue (``_context``; an author's own under an author filter): such a filter only
        narrows what is screened, never how."""
        s = self.settings
        topic = self.searched_topic(question)
        allowed = self.index.allowed(filters)
        if allowed is not None and not allowed:
            return [], 0
        papers = self.index.papers()
        vector = self.index.query_vector(topic)
        # an author's papers keep their own: the surest of the author's work teach the
        # sense of the topic as that author writes it (the store's lost an author list's
        # papers: 17 → 14 of Yoshua Bengio's on deep learning), when the surest are a few of
        # that work, not most of it (Ian Goodfellow's 11 papers: the sense of his work, near
        # each of his GAN papers, kept three for "adversarial examples", a run's)
        readings, sense = self._context(question, topic, vector,
                                        filters if self._own_sense(filters) else None)

        def read(pid: str) -> tuple[float, bool]:
            return self._read(readings, topic, papers[pid])

        by_bm25, cosines = self._search(topic, vector, allowed, filters)
        covered = {pid: read(pid) for pid in self._top(by_bm25, cosines) if pid in papers}
        # a term lookup lists every paper holding the words, not BM25's first deep_pool
        deep_pool = None if read_intent(question).lookup_terms else s.deep_pool
        deep = within_reach(readings, self.index, by_bm25[s.bm25_pool:deep_pool], s.deep_coverage)
        covered.update({pid: r for pid in deep
                        if (r := read(pid))[0] >= s.deep_coverage or r[1]})
        past = [] if deep_pool is None else within_reach(
            readings, self.index, by_bm25[max(deep_pool, s.bm25_pool):], s.deep_coverage)
        unscreened = sum(1 for pid in past if pid not in covered
                         and ((r := read(pid))[0] >= s.deep_coverage or r[1]))
        found = self._scored(covered, cosines, vector)
        senses = ({} if sense is None else
                  self.index.paper_cosines(sense, [c.paper.paper_id for c in found]))
        return [replace(c, sense=senses.get(c.paper.paper_id, 0.0)) for c in found], unscreened

    def _own_sense(self, filters: Filters | None) -> bool:
        """Whether an author's papers teach the topic's sense: the filter names an author
        of more than twice ``sense_papers`` papers."""
        if not (filters and filters.author):
            return False
        written = self.index.allowed(Filters(author=filters.author))
        return written is None or len(written) > 2 * self.settings.sense_papers

    def _read(self, readings: Sequence[Reading], topic: str, paper: Paper
              ) -> tuple[float, bool]:
        """The paper's coverage (its best reading's share) and whether its title names a
        reading."""
        # "SNN" of a segmental neural net: every reading writing it is skipped, the whole
        # joined topic's too; the paper is read by the others alone
        other = otherwise_spelled(topic, paper)
        apply = [r for r in readings if not r.acronyms & other]
        return (max((r.share(paper, self.settings.phrase_weight) for r in apply), default=0.0),
                self.settings.titles and any(r.titles(paper) for r in apply))

    def _search(self, topic: str, vector: np.ndarray, allowed: Collection[str] | None,
                  filters: Filters | None) -> tuple[list[str], dict[str, float]]:
        """BM25's whole ranking of the topic within the filters, and the best cosine of each
        paper among the dense search's first ``dense_chunks`` chunks within them."""
        lexical = self.index.bm25_paper_scores(with_nouns(topic, self.index), allowed)
        cosines: dict[str, float] = {}
        for hit in self.index.search_dense(topic, self.settings.dense_chunks, vector, filters):
            cosines[hit.paper_id] = max(cosines.get(hit.paper_id, -1.0), hit.score)
        return sorted(lexical, key=lambda p: -lexical[p]), cosines

    def _top(self, by_bm25: Sequence[str], cosines: dict[str, float]) -> list[str]:
        """The first pool: BM25's first ``bm25_pool`` papers and the dense search's."""
        return list(dict.fromkeys([*by_bm25[:self.settings.bm25_pool], *cosines]))

    def _scored(self, covered: dict[str, tuple[float, bool]], cosines: dict[str, float],
                vector: np.ndarray) -> list[Candidate]:
        """The ``covered`` papers as candidates, best cheap score first (each one's cosine
        read from the store where the dense search did not reach it)."""
        s, papers = self.settings, self.index.papers()
        cosines = {**cosines, **self.index.paper_cosines(
            vector, [pid for pid in covered if pid not in cosines])}
        return sorted((Candidate(papers[pid], c, cosines.get(pid, 0.0),
                                 c + s.dense_weight * cosines.get(pid, 0.0), titled=titled)
                       for pid, (c, titled) in covered.items()), key=lambda c: -c.cheap)

    def _context(self, question: str, topic: str, vector: np.ndarray,
                 filters: Filters | None = None) -> tuple[list[Reading], np.ndarray | None]:
        """The topic's readings (its phrases learnt from the papers first pooled) and its
        sense (the unit mean vector of the ``sense_papers`` of those of highest cheap
        score), both from the whole store's first pool, not the filter's: a paper then reads
        the same under any filter, and a year's count within a window is its count without
        one ("capsule networks" had counted 3 papers of 2021 unfiltered and 4 under --year
        2019-2021, the sense learnt from the window's surest papers). ``filters``: an
        author's, whose own papers teach them."""
        s, papers = self.settings, self.index.papers()
        by_bm25, cosines = self._search(topic, vector, self.index.allowed(filters), filters)
        first = [papers[pid] for pid in self._top(by_bm25, cosines) if pid in papers]
        readings = coverage_readings(question, topic, self.index, first, s.idf_power)
        covered = {paper.paper_id: self._read(readings, topic, paper) for paper in first}
        surest = [v for c in self._scored(covered, cosines, vector)[:s.sense_papers]
                  if (v := self.index.paper_vector(c.paper.paper_id)) is not None]
        if not surest:
            return readings, None
        mean = np.mean(surest, axis=0)
        return readings, (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)

    def searched_topic(self, question: str) -> str:
        """The topic as searched: ``topic_of`` the question, and, when the field writes a
        run of its words as an acronym, that phrasing too ("build on neural ordinary
        differential equations? | build on neural ODE"): many write only "ODE"; and with an
        acronym the question gives in brackets written instead of its words ("use capsule
        networks (CapsNets)?": "use capsule networks? | use CapsNets?"), each word in
        American spelling ("normalising" is "normalizing") and each compound in its
        papers' commonest form ("finetuning" as "fine-tuning": ``written_topic``), a name
        without its kind word ("the ImageNet dataset"). A lookup is searched as asked."""
        raw = raw_topic(question)
        if read_intent(question).lookup_terms:
            return stated_acronyms(raw)[0]
        topic, stated = stated_acronyms(without_kind(raw))
        if not self.settings.acronyms:
            return topic
        key = (raw, len(self.index.papers()))  # asked twice a screen; a new paper reads anew
        if key not in self._searched:
            topic = written_topic(in_american(topic), self.index.written_text())
            # an acronym's spelled-out "networks" also as the field's short "nets" (not a typed
            # topic's: "neural networks" had read the band past its budget, 2,528 → 2,327)
            spelled = [*acronym_readings(topic, self.index), *spelled_readings(stated or topic, self.index)]
            self._searched[key] = ALSO.join(dict.fromkeys(
                [topic, *([stated] if stated else []), *spelled,
                 *(short for p in spelled for short in short_forms(p))]))
        return self._searched[key]

    def screen(self, question: str, filters: Filters | None = None,
               judge: Judge | None = None) -> ListResult:
        """Every paper of the pool judged to answer ``question``, best first (``judge``: the
        model's check for the uncertain band; None: the cross-encoder's)."""
        started = time.perf_counter()
        s = self.settings
        pool, unscreened = self.pooled(question, filters)
        # a term lookup ("Which papers mention X?") is answered by the papers holding the
        # words as asked (term_holders), and by those only: no reading overrules an exact
        # match (a false "no" is the worst answer), and none adds a paper without the words
        words = read_intent(question).lookup_terms
        quoted = [f for w in words for f in compound_forms(w, self.index.written_text())]  # "honey bees"
        stems: list[Candidate] = []  # a lookup's papers writing only its words' stems
        if words:
            ids, as_asked = term_holders(self.index, words, self.index.allowed(filters), question)
            held, papers = set(ids), self.index.papers()
            pooled = {c.paper.paper_id for c in pool}  # a holder past the pool still answers
            pool += [Candidate(papers[pid], 1.0, 0.0, 1.0) for pid in ids if pid not in pooled]
            holders = [c for c in pool if c.paper.paper_id in held]
            sure, stems = (holders, []) if as_asked else ([], holders)
            band: list[Candidate] = []
        else:
            sure = [c for c in pool if c.cheap >= s.keep_at or c.titled]
            band = [c for c in pool if s.uncertain(c)]
        topic = topic_of(question)
        read, unread, kept_unread = self._decided(question, band, judge, bool(sure))
        kept = sure + [c for c in read if c.judged] + kept_unread
        # none kept: the papers naming the topic in full (every keyword of it, or of one of
        # its alternatives, its phrases as one) are shown, unconfirmed (a false "no" is the
        # worst answer: "study diffusion models" among the seeds had read none)
        unconfirmed = stems if words else [c for c in pool if c.coverage >= s.deep_coverage]
        mentioned = [] if kept else unconfirmed
        weights = topic_weights(topic, self.index.keyword_stats())
        allowed = self.index.allowed(filters)
        total = len(self.index.papers())
        read_ids = {c.paper.paper_id for c in read}
        return ListResult(
            question=question, topic=topic,
            papers=self._listed(kept, weights, {c.paper.paper_id for c in kept_unread}, quoted),
            papers_in_store=total, papers_in_filter=total if allowed is None else len(allowed),
            screened=len(pool), reread=len(read), unread_left_out=len(unread) - len(kept_unread),
            unscreened=unscreened,
            seconds=time.perf_counter() - started,
            candidates=[*read, *(c for c in pool if c.paper.paper_id not in read_ids)],
            mentions=self._listed(mentioned, weights, (), quoted), lookup=bool(words),
            written=self.searched_topic(question).split(ALSO)[0])

    def _decided(self, question: str, band: list[Candidate], judge: Judge | None, any_sure: bool
                 ) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
        """``band``'s papers read, left unread, and kept unread, each kept one answering each
        facet. While none is kept (``any_sure``: the cheap screen's), it reads on a budget at
        a time (``EMPTY_READS``): "spiking neural networks for reinforcement learning" had
        said "no" with its three papers among the 50 left unread."""
        s, searched, verb = self.settings, self.searched_topic(question), relation_verb(question)
        read: list[Candidate] = []
        qualified = without_verb(searched, question, self.index.keyword_stats())  # "X for Y"
        for _ in range(EMPTY_READS + 1):
            read += self.reread(question, band[len(read):len(read) + s.max_reread], judge)
            unread = band[len(read):]
            kept_unread = [c for c in unread if c.cheap >= self._middle() and (
                c.sense >= s.sense_keeps or writes_topic(question, searched, c.paper))]
            missing = unanswering(qualified, verb, read, kept_unread, s.max_reread,
                                  self.index) if s.facets else set()
            read = [replace(c, judged=False) if c.paper.paper_id in missing else c for c in read]
            kept_unread = [c for c in kept_unread if c.paper.paper_id not in missing]
            if any_sure or kept_unread or any(c.judged for c in read) or not unread:
                break
        return read, unread, kept_unread

    def _listed(self, kept: Sequence[Candidate], weights: dict[str, float],
                unread: Collection[str] = (), words: Sequence[str] = ()) -> list[ListedPaper]:
        """``kept`` as listed, best first, each with its sentence holding most of the topic's
        keyword weight, or of a lookup's ``words`` (``unread``: kept unread past the budget)."""
        listed = [ListedPaper(c.paper, round(self._rank_score(c), 4),
                              best_sentence(c.paper, weights, words) if self.settings.quotes else "",
                              c.reader is not None, c.logit, c.reader, c.paper.paper_id in unread, c.titled)
                  for c in kept]
        return sorted(listed, key=lambda p: -p.score)

    def reread(self, question: str, band: list[Candidate], judge: Judge | None = None
               ) -> list[Candidate]:
        """``band`` read against list ``question``: its topic, without its verb where that
        leads and is common (``without_verb``), as the screen reads its uncertain band."""
        plain = self.settings.reread_question
        return self._reread(question if plain else without_verb(
            self.searched_topic(question), question, self.index.keyword_stats()),
                            band, judge, question if plain else topic_of(question))

    def _reread(self, question: str, band: list[Candidate], judge: Judge | None,
                asked: str) -> list[Candidate]:
        """``band`` with each paper's verdict and who gave it (``reader``): the model's
        (``judge``, reading ``asked``) where it gave one, else the cross-encoder's (reading
        ``question``, the searched topic) logit against
        ``reread_keeps``; a failed reading falls back to the cheap score."""
        if not band:
            return []
        verdicts: list[bool | None] = [None] * len(band)
        if judge is not None:  # the model reads ``asked``: the topic in the asker's words
            verdicts = judge(asked, [c.paper for c in band])
        unjudged = [c for c, v in zip(band, verdicts, strict=True) if v is None]
        read = {c.paper.paper_id: c for c in self._cross_read(question, unjudged)}
        return [read.get(c.paper.paper_id) or replace(c, judged=v, reader=MODEL)
                for c, v in zip(band, verdicts, strict=True)]

    def _cross_read(self, question: str, band: list[Candidate]) -> list[Candidate]:
        """``band`` read by the cross-encoder, each paper's title and its sentence holding
        the topic's words (``focus_passage``), against each of ``reread_texts``: a paper's
        logit is its best."""
        if not band:
            return []
        texts, passages = reread_pairs(question, [c.paper for c in band],
                                       self.index.keyword_stats())
        # a reading through an acronym the paper defines as something else is no reading
        other = [otherwise_spelled(question, c.paper) for c in band]
        through = [frozenset(ACRONYM_RE.findall(text)) for text in texts]  # each text's acronyms
        try:
            encoder = CrossEncoder()
            logits = np.max([np.where([bool(acronyms & o) for o in other], NO_READING,
                                      encoder.scores(text, passages))
                             for text, acronyms in zip(texts, through, strict=True)], axis=0)
        except Exception as error:  # the reranker's package or onnxruntime, on this input
            log.warning("the cross-encoder failed (%s); the cheap screen decides", error)
            return [replace(c, judged=c.cheap >= self._middle(), reader=CHEAP) for c in band]
        return [replace(c, logit=float(x), judged=self.read_keeps(c.cheap, float(x), c.sense),
                        reader=CROSS_ENCODER)
                for c, x in zip(band, logits.tolist(), strict=True)]

    def read_keeps(self, cheap: float, logit: float, sense: float = 0.0) -> bool:
        """A reread paper's verdict: its cheap score moved by the cross-encoder's reading
        (``reread_weight``) reaches the band's middle, or it stands close to the topic's
        sense (``sense_keeps``) whatever the reading."""
        s = self.settings
        return (cheap + s.reread_weight * self._nudge(logit) >= self._middle()
                or sense >= s.sense_keeps)

    def _middle(self) -> float:
        """The middle of the uncertain band, between the drop and keep thresholds."""
        return (self.settings.keep_at + self.settings.drop_below) / 2

    def _nudge(self, logit: float) -> float:
        """A cross-encoder logit as a move of -0.5..0.5, centred on the keep threshold."""
        return 1.0 / (1.0 + math.exp(-(logit - self.settings.reread_keeps))) - 0.5

    def _rank_score(self, candidate: Candidate) -> float:
        """The list's order: the cheap score, nudged by the cross-encoder where it read, as
        far as a sure reading for a title naming the topic (it had come last: a run's)."""
        if candidate.logit is not None:
            return candidate.cheap + 0.5 * self._nudge(candidate.logit)
        return candidate.cheap + (TITLED_RISE if candidate.titled else 0.0)

