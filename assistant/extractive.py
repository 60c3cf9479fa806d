"""The offline answer: the retrieved abstracts' own sentences that best answer the question.

No language model is involved, so nothing can be invented: every sentence is quoted from
the abstract whose [n] follows it. A sentence's score mixes its MiniLM similarity to the
question with the share of the question's keyword weight it contains, scaled by how well
its paper ranked. Summary-style questions get one line per paper.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import numpy as np

from assistant.answering import (
    AnswerStream,
    NumberedSource,
    build_citations,
    quoted,
    shown_title,
    without_references,
)
from assistant.compare import compose_table
from assistant.corpus import Paper, split_sentences
from assistant.index import AbstractIndex
from assistant.intent import read_intent
from assistant.keywords import coverage_of_terms, keyword_weights, mentions
from assistant.name_checks import quoted_title, titled_papers
from assistant.ranking import text_terms
from assistant.references import byline
from assistant.tuning import (
    BACKGROUND_FACTOR,
    CLOSE_RATIO,
    COMPLETE_GAIN,
    DEFINITION_BONUS,
    KEEP_RATIO,
    MAX_SENTENCES,
    QUANTITY_BONUS,
    SUMMARY_RATIO,
)
from assistant.types import Answer

NOTICE = "Extractive answer (quoted from the abstracts; no language model configured):"
NUMBER_RE = re.compile(r"\d|\b(two|three|four|five|six|seven|eight|nine|ten|twenty|hundred)\b", re.I)
# An abstract opens with its field's problem and earlier work, then turns to what the authors
# did ("we propose…", "in this paper…"). A question that describes the problem resembles the
# opening sentences most; when it asks what was done or found (``Intent.contribution``)
# the answer is what follows, so before the first sentence in which the authors speak a
# sentence's score counts BACKGROUND_FACTOR. A question about the problem itself ("Why is X
# hard?", "What do earlier methods lack?") keeps the opening at full weight.
# Where the authors speak of their own work: "we", "our", "this paper", a single author's
# "I", "Here, …", or a passive proposal ("A new algorithm is derived").
OWN_WORK_RE = re.compile(
    r"\b([Ww]e|[Oo]ur|[Tt]his (paper|work|study|article|note|letter|chapter|thesis|contribution))"
    r"\b|\bI\b|^Here\b|\b(is|are) (proposed|presented|introduced|derived|described|developed)\b")
POINTER_RE = re.compile(
    r"https?://|\b(code|benchmark|data) (is|are) (publicly )?(available|provided|released)", re.I)
INTRO_RE = re.compile(r"\b(propose|proposes|introduce|introduces|present|presents|called|"
                      r"named|is a|is an)\b")
# "How can X be done?" (``Intent.method``): the answer names the authors' approach, in the
# sentence where they propose it (past the abstract's opening); when the best sentences leave it
# out, it is quoted too (one beyond MAX_SENTENCES, as the definition's next sentence is).
PROPOSES_RE = re.compile(
    r"\b([Ww]e|[Oo]ur|I|[Tt]his (paper|work))\b.*\b(propos|introduc|present|develop|devis|design"
    r"|call|dub)\w*|\b(is|are) (proposed|presented|introduced)\b")
# "What did X find?", "How well does X do?" (``Intent.finding``): the answer is the abstract's
# result sentence, which shares few words with a question that describes the method; when none
# of the best sentences states a result, the best paper's best result sentence is quoted too
# (one beyond MAX_SENTENCES, as for the how-question).
RESULT_RE = re.compile(
    r"\b(experiments?|results?|empirical\w*|simulations?|evaluations?|tests?|studies)\b.*"
    r"\b(show|shows|shown|demonstrat\w*|indicat\w*|suggest\w*|confirm\w*|reveal\w*|verif\w*)\b"
    r"|\b(outperform\w*|state[- ]of[- ]the[- ]art|orders? of magnitude|superior to|better than"
    r"|compared (to|with)|competitive with)\b|\d\s?%", re.I)
# A paper is quoted when the ranker's belief in it (its probability) is close to the first
# paper's: CLOSE_RATIO for near-ties of a single answer, a wider band (SUMMARY_RATIO) for
# "which papers…" summaries.


def states_number(sentence: str) -> bool:
    """The sentence states a number (a reference marker, "Farwell & Donchin [4]", is none)."""
    return bool(NUMBER_RE.search(without_references(sentence)))


def close_papers(question: str, paper_scores: dict[int, float],
                 named: AbstractSet[int] = frozenset()) -> set[int]:
    """The numbers of the sources ranked close enough to the first to be quoted, and the
    ``named`` ones (``each_named``) whatever their rank."""
    if not paper_scores:
        return set()
    top = max(paper_scores.values())
    ratio = SUMMARY_RATIO if read_intent(question).summary else CLOSE_RATIO
    return {n for n, score in paper_scores.items() if score >= ratio * top or n in named}


def each_named(question: str, sources: Sequence[NumberedSource]) -> set[int]:
    """For a question asking of several papers that names several things ("Compare CRAFT
    and MuRating."), the first source writing each (its title or abstract, as typed): a
    summary is of each, and CRAFT, ranked far under MuRating, had been left out (the table
    had shown MuRating twice). Written as ``keywords.mentions`` reads a name."""
    asked = read_intent(question)
    if not asked.summary or len(asked.names) < 2:
        return set()
    texts = {s.n: f"{s.found.paper.title} {s.found.paper.text}" for s in sources}
    firsts = (next((n for n, text in texts.items() if mentions(text, name)), None) for name in asked.names)
    return {n for n in firsts if n is not None}


@dataclass(frozen=True)
class ScoredSentence:
    n: int
    position: int
    text: str
    score: float
    terms: frozenset[str] = frozenset()  # its stemmed words: which of the question's it holds
    background: bool = False  # in the abstract's opening, before the authors' own work


def introduces(sentence: str, question: str, names: Sequence[str] | None = None) -> bool:
    """The sentence introduces something the question names ("we propose CRAFT, a …")."""
    names = read_intent(question).names if names is None else names
    return any(n in sentence for n in names) and bool(INTRO_RE.search(sentence))


def defines(sentence: str, names: Sequence[str]) -> bool:
    """The sentence spells out an acronym of ``names`` before it in brackets ("… Partially
    Observable Tree (DESPOT)" for "What is R-DESPOT?"), the way abstracts define one."""
    return any(f"({part})" in sentence for name in names
               for part in [name, *(p for p in re.split(r"[-/]", name)
                                    if p != name and sum(c.isupper() for c in p) >= 2)])


def own_work_from(sentences: list[str]) -> int:
    """The position of the first sentence in which the authors speak of their own work
    (0 when none does: then no sentence is taken for background)."""
    return next((i for i, t in enumerate(sentences) if OWN_WORK_RE.search(t)), 0)


@dataclass(frozen=True)
class _PaperSentences:
    """A paper's sentences with their vectors (float32, as embedded), stemmed terms and where
    the authors' own work begins."""

    sentences: list[str]
    vectors: np.ndarray
    terms: list[frozenset[str]]
    own_work_from: int  # the sentences before this one are background


_CACHE: OrderedDict[tuple[str, str, str], _PaperSentences] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_PAPERS = 4096  # papers whose sentence vectors are remembered (~10 MB per 1,000)


def _sentences_of(papers: list[Paper], index: AbstractIndex) -> list[_PaperSentences]:
    """Each paper's sentences with their vectors, remembered per process (keyed by the
    embedding model, the paper id and its text, so an edited abstract is read again). The
    vectors come from the store, made at ingest from each chunk's own run of the model
    (``index.sentence_vectors``); a paper stored without them (another embedding model, an
    older index) has its sentences embedded here, each paper on its own, so its vectors never
    depend on which other papers a question brought along."""
    model = index.settings.index.embed_model
    found: dict[str, _PaperSentences] = {}
    with _CACHE_LOCK:
        for paper in papers:
            hit = _CACHE.get((model, paper.paper_id, paper.text))
            if hit is not None:
                _CACHE.move_to_end((model, paper.paper_id, paper.text))
                found[paper.paper_id] = hit
    missing = [p for p in papers if p.paper_id not in found]
    stored = index.sentence_vectors(missing) if missing else {}
    for paper in missing:
        sentences = split_sentences(paper.text)
        vectors = stored.get(paper.paper_id)
        if vectors is None:
            vectors = (index.embed_model.embed(sentences) if sentences
                       else np.zeros((0, 0), dtype=np.float32))
        vectors.setflags(write=False)
        made = found[paper.paper_id] = _PaperSentences(sentences, vectors,
                                                       [text_terms(t) for t in sentences],
                                                       own_work_from(sentences))
        with _CACHE_LOCK:
            _CACHE[(model, paper.paper_id, paper.text)] = made
            while len(_CACHE) > CACHE_PAPERS:
                _CACHE.popitem(last=False)
    return [found[p.paper_id] for p in papers]


def score_sentences(
    question: str, sources: list[NumberedSource], index: AbstractIndex,
    weights: dict[str, float],
) -> list[ScoredSentence]:
    """Every sentence of ``sources``, scored; ``weights``: the question's keyword weights
    (``keyword_weights``)."""
    parts = _sentences_of([s.found.paper for s in sources], index)
    items = [(s, i, sent, i < part.own_work_from) for s, part in zip(sources, parts, strict=True)
             for i, sent in enumerate(part.sentences)]
    if not items:
        return []
    question_vector = np.asarray(index.query_vector(question), dtype=np.float64)
    cosines = (np.concatenate([p.vectors for p in parts if p.sentences]).astype(np.float64)
               @ question_vector)
    terms = [t for p in parts for t in p.terms]
    top = max(s.found.score for s in sources) or 1.0
    intent = read_intent(question)
    names = intent.names
    quantitative = intent.quantity
    opening = BACKGROUND_FACTOR if intent.contribution else 1.0
    scored = []
    for (source, position, text, background), cosine, present in zip(items, cosines, terms,
                                                                     strict=True):
        lexical = coverage_of_terms(weights, present)
        paper_weight = 0.5 + 0.5 * source.found.score / top
        score = (0.5 * float(cosine) + 0.5 * lexical) * paper_weight
        if background:
            score *= opening
        if introduces(text, question, names) or defines(text, names):
            score += DEFINITION_BONUS
        if quantitative and states_number(text):
            score += QUANTITY_BONUS
        if text.endswith("?") or POINTER_RE.search(text):  # a question or "code is at …"
            score *= 0.5
        scored.append(ScoredSentence(source.n, position, text, score, present, background))
    return scored


def states_result(s: ScoredSentence) -> bool:
    """The sentence states a result ("experiments show…", "outperforms…"), past the
    abstract's opening."""
    return not s.background and bool(RESULT_RE.search(s.text))


def proposes(s: ScoredSentence) -> bool:
    """The sentence states the authors' approach ("we propose…", "…, called X"), past the
    abstract's opening."""
    return not s.background and bool(PROPOSES_RE.search(s.text))


def _one_more(chosen: list[ScoredSentence], scored: list[ScoredSentence], n: int,
              kind: Callable[[ScoredSentence], bool],
              order: Callable[[ScoredSentence], float]) -> list[ScoredSentence]:
    """Paper ``n``'s first sentence of a ``kind`` by ``order``, when none of ``chosen`` of
    that paper is of that kind (else nothing): one beyond MAX_SENTENCES."""
    if any(s.n == n and kind(s) for s in chosen):
        return []
    return sorted((s for s in scored if s.n == n and kind(s) and s not in chosen
                   and _quotable(s)), key=order)[:1]


def _quotable(s: ScoredSentence) -> bool:
    """Not a question of the abstract's own and not a pointer ("code is at …")."""
    return not s.text.endswith("?") and not POINTER_RE.search(s.text)


def completed(chosen: list[ScoredSentence], scored: list[ScoredSentence],
              weights: dict[str, float],
              title_terms: Mapping[int, AbstractSet[str]] | None = None) -> list[ScoredSentence]:
    """``chosen`` plus the sentences of the same papers that hold what it leaves out of the
    question ("How many models were tested, and where did accuracy plateau?": the plateau's
    sentence scores best, the count is in another): while one adds COMPLETE_GAIN of the
    question's keyword weight, the one that adds most, up to MAX_SENTENCES in all. The
    answer leads each paper with its title, so what a quoted paper's ``title_terms`` (by
    source number) say is said already: a sentence that only repeats the paper's subject
    ("brain-computer interface") adds nothing, and the one with the figures asked for keeps
    its place."""
    total = sum(weights.values())
    if not total or not chosen:
        return chosen
    papers = {s.n for s in chosen}
    covered = set().union(*(s.terms for s in chosen),
                          *((title_terms or {}).get(n, frozenset()) for n in papers))
    chosen = list(chosen)
    while len(chosen) < MAX_SENTENCES:
        gains = [(sum(w for t, w in weights.items() if t in s.terms and t not in covered), s)
                 for s in scored if s.n in papers and s not in chosen and _quotable(s)]
        gain, best = max(gains, key=lambda g: (g[0], g[1].score), default=(0.0, None))
        if best is None or gain < COMPLETE_GAIN * total:
            break
        chosen.append(best)
        covered |= best.terms
    return chosen


def select(question: str, scored: list[ScoredSentence], paper_scores: dict[int, float],
           weights: dict[str, float], title_terms: Mapping[int, AbstractSet[str]] | None = None,
           named: AbstractSet[int] = frozenset()) -> list[ScoredSentence]:
    """The sentences to quote, in answer order: for a summary the best sentence of each paper
    that ranked close to the first (of one paper, also the sentences in which it proposes
    its approach and states a result, when the best is neither: "Summarize Dynamic Routing
    Between Capsules." had quoted one sentence on routing-by-agreement); otherwise up to
    MAX_SENTENCES sentences close to the best one, from papers that ranked close to the
    first, then (``completed``, by the question's keyword ``weights``) those of the same
    papers that hold the question's other keywords (their titles' ``title_terms`` counted as
    said), then the best sentence's paper's next best until MAX_SENTENCES are quoted; for
    "What is X?" answered by the sentence that introduces X, the sentence after it as well
    (one beyond MAX_SENTENCES), for "How can X be done?" the sentence in which the best
    paper's authors propose their approach, when none quoted does, and for "What did X
    find?" the best paper's best sentence stating a result, when none quoted states one."""
    if not scored:
        return []
    close = close_papers(question, paper_scores, named)
    intent = read_intent(question)
    if intent.summary:
        per_paper: dict[int, ScoredSentence] = {}
        for s in scored:
            if s.n not in per_paper or s.score > per_paper[s.n].score:
                per_paper[s.n] = s
        kept = [s for n, s in sorted(per_paper.items()) if n in close]
        if len(kept) == 1:  # one paper's summary: what it proposes and what it found too
            kept += _one_more(kept, scored, kept[0].n, proposes, lambda s: s.position)
            kept += _one_more(kept, scored, kept[0].n, states_result, lambda s: -s.score)
        return sorted(kept, key=lambda s: (s.n, s.position))
    scored = [s for s in scored if s.n in close]
    best = max(scored, key=lambda s: s.score)
    chosen = [best]
    for s in sorted(scored, key=lambda s: -s.score):
        if len(chosen) >= MAX_SENTENCES or s.score < KEEP_RATIO * best.score:
            break
        if s is not best:
            chosen.append(s)
    chosen = completed(chosen, scored, weights, title_terms)
    # The best sentence's paper is quoted up to MAX_SENTENCES: a fact the question asks for
    # often sits in a sentence that scores below the one that names the method.
    chosen += sorted((s for s in scored if s.n == best.n and s not in chosen and _quotable(s)),
                     key=lambda s: -s.score)[:max(0, MAX_SENTENCES - len(chosen))]
    # "What is X?": the sentence that introduces X rarely says how it works; the abstract's
    # next sentence usually does, so it is quoted too.
    if intent.definition and introduces(best.text, question):
        chosen += [s for s in scored if s.n == best.n and s.position == best.position + 1
                   and s not in chosen and _quotable(s)]
    if intent.method:  # the first proposal sentence
        chosen += _one_more(chosen, scored, best.n, proposes, lambda s: s.position)
    if intent.finding:  # the best result sentence
        chosen += _one_more(chosen, scored, best.n, states_result, lambda s: -s.score)
    # Group by paper (best paper first), original order inside a paper.
    paper_order = list(dict.fromkeys(s.n for s in chosen))
    return sorted(chosen, key=lambda s: (paper_order.index(s.n), s.position))


def with_each_titled(question: str, sources: Sequence[NumberedSource],
                     scored: Sequence[ScoredSentence], chosen: list[ScoredSentence]
                     ) -> list[ScoredSentence]:
    """``chosen`` with the best sentence of each source the question names by its title in
    quotes that none of them quotes: "how do “A” and “B” differ?" (a follow-up's "papers 2
    and 5", its places replaced by their titles) had been answered from “A” alone."""
    quoted = {s.n for s in chosen}
    named = [s.n for s in sources if s.n not in quoted and quoted_title(s.found.paper.title, question)]
    return chosen + [max((s for s in scored if s.n == n), key=lambda s: s.score)
                     for n in named if any(s.n == n for s in scored)]


def headings(question: str, sources: Sequence[NumberedSource]) -> dict[int, str]:
    """Each source's title as its paragraph's heading; a paper the question names by its
    title is headed by where, when and by whom too ("Who wrote Dynamic Routing Between
    Capsules?", "When was … published?"), which the quoted sentences never say."""
    named = set(titled_papers({s.found.paper.paper_id: s.found.paper for s in sources}, question))
    shown: dict[int, str] = {}
    for s in sources:
        said = byline(s.ref(), every_author=True) if s.found.paper.paper_id in named else ""
        shown[s.n] = (f"**{shown_title(s.found.paper.title)}{s.found.paper.title_mark}**"
                      + (f" ({said})" if said else ""))
    return shown


def compose(question: str, sources: list[NumberedSource], index: AbstractIndex) -> AnswerStream:
    """Stream the extractive answer sentence by sentence (a comparison or "which
    papers…" question: a table, compare.py); the last event is the Answer."""
    named = each_named(question, sources)
    close = close_papers(question, {s.n: s.found.score for s in sources}, named)
    candidates = [s for s in sources if s.n in close]  # all that select reads
    weights = keyword_weights(question, index.keyword_stats())
    scored = score_sentences(question, candidates, index, weights)
    chosen = with_each_titled(question, candidates, scored, select(
        question, scored, {s.n: s.found.score for s in candidates}, weights,
        {s.n: text_terms(s.found.paper.title) for s in candidates}, named))
    titles = headings(question, sources)  # bold, with a titled paper's byline
    intent = read_intent(question)
    if intent.summary and intent.comparison:  # a table: problem / method / result, a row a paper
        yield from compose_table(question, sources, list(dict.fromkeys(s.n for s in chosen)), NOTICE)
        return
    summary = intent.summary and len({s.n for s in chosen}) > 1  # one paper's: a paragraph
    pieces = [NOTICE + "\n\n"]
    yield pieces[0]
    previous = None
    for s in chosen:
        text = quoted(s.text)
        if summary:
            piece = f"- {titles[s.n]}: {text} [{s.n}]\n"
        elif s.n != previous:  # a new paragraph, led by the paper's title, for each paper
            piece = ("\n\n" if previous else "") + f"{titles[s.n]}: {text} [{s.n}]"
        else:
            piece = f" {text} [{s.n}]"
        previous = s.n
        pieces.append(piece)
        yield piece
    text = "".join(pieces).strip()
    highlights: dict[int, list[str]] = {}
    for s in chosen:
        highlights.setdefault(s.n, []).append(s.text)
    yield Answer(
        question=question,
        answer=text,
        mode="extractive",
        citations=build_citations(text, sources, highlights),
        sources=[s.ref() for s in sources],
    )
