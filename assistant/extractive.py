"""The offline answer: the retrieved abstracts' own sentences that best answer the question.

No language model is involved, so nothing can be invented: every sentence is quoted from
the abstract whose [n] follows it. A sentence's score mixes its MiniLM similarity to the
question with the share of the question's keyword weight it contains, scaled by how well
its paper ranked. Summary-style questions get one line per paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from assistant.answering import AnswerStream, NumberedSource, build_citations
from assistant.corpus import split_sentences
from assistant.index import AbstractIndex
from assistant.keywords import coverage, keyword_weights
from assistant.retrieval import names_in
from assistant.types import Answer

NOTICE = "Extractive answer (quoted from the abstracts; no language model configured):"
SUMMARY_RE = re.compile(
    r"\b(summari[sz]e|summary|overview|which (papers|works|abstracts)|what (papers|works)|"
    r"list|compare|comparison|papers (on|about|that)|work on|survey)\b",
    re.I,
)
MAX_SENTENCES = 3
KEEP_RATIO = 0.75  # further sentences must score this close to the best one
DEFINITION_BONUS = 0.15  # "What is X?": the sentence that introduces X answers it best
QUANTITY_RE = re.compile(r"\b(how (many|much|large|big|fast|long)|what (share|range|percentage|"
                         r"rate|size)|by how much|which (datasets|benchmarks))\b", re.I)
NUMBER_RE = re.compile(r"\d|\b(two|three|four|five|six|seven|eight|nine|ten|twenty|hundred)\b", re.I)
QUANTITY_BONUS = 0.1  # "How many…?": a sentence with a number in it is likelier the answer
POINTER_RE = re.compile(
    r"https?://|\b(code|benchmark|data) (is|are) (publicly )?(available|provided|released)", re.I)
INTRO_RE = re.compile(r"\b(propose|proposes|introduce|introduces|present|presents|called|"
                      r"named|is a|is an)\b")
SUMMARY_RATIO = 0.8  # a paper gets a summary line when it ranked this close to the first


@dataclass(frozen=True)
class ScoredSentence:
    n: int
    position: int
    text: str
    score: float


def is_summary_question(question: str) -> bool:
    return bool(SUMMARY_RE.search(question))


def score_sentences(
    question: str, sources: list[NumberedSource], index: AbstractIndex
) -> list[ScoredSentence]:
    items = [(s, i, sent) for s in sources for i, sent in enumerate(split_sentences(s.found.paper.text))]
    if not items:
        return []
    vectors = np.asarray(index.embed_model.get_text_embedding_batch([question] + [t for *_, t in items]))
    cosines = vectors[1:] @ vectors[0]
    top = max(s.found.score for s in sources) or 1.0
    names = names_in(question)
    quantitative = bool(QUANTITY_RE.search(question))
    weights = keyword_weights(question, index.keyword_stats())
    scored = []
    for (source, position, text), cosine in zip(items, cosines, strict=True):
        lexical = coverage(weights, text)
        paper_weight = 0.5 + 0.5 * source.found.score / top
        score = (0.5 * float(cosine) + 0.5 * lexical) * paper_weight
        if names and any(n in text for n in names) and INTRO_RE.search(text):
            score += DEFINITION_BONUS
        if quantitative and NUMBER_RE.search(text):
            score += QUANTITY_BONUS
        if text.endswith("?") or POINTER_RE.search(text):  # a question or "code is at …"
            score *= 0.5
        scored.append(ScoredSentence(source.n, position, text, score))
    return scored


def select(question: str, scored: list[ScoredSentence], paper_scores: dict[int, float]
           ) -> list[ScoredSentence]:
    """The sentences to quote, in answer order: for a summary the best sentence of each paper
    that ranked close to the first; otherwise up to three sentences close to the best one,
    from papers that ranked close to the first."""
    if not scored:
        return []
    top = max(paper_scores.values())
    close = {n for n, score in paper_scores.items() if score >= SUMMARY_RATIO * top}
    if is_summary_question(question):
        per_paper: dict[int, ScoredSentence] = {}
        for s in scored:
            if s.n not in per_paper or s.score > per_paper[s.n].score:
                per_paper[s.n] = s
        return [s for n, s in sorted(per_paper.items()) if n in close]
    scored = [s for s in scored if s.n in close]
    best = max(scored, key=lambda s: s.score)
    chosen = [best]
    for s in sorted(scored, key=lambda s: -s.score):
        if len(chosen) >= MAX_SENTENCES or s.score < KEEP_RATIO * best.score:
            break
        if s is not best:
            chosen.append(s)
    # Group by paper (best paper first), original order inside a paper.
    paper_order = list(dict.fromkeys(s.n for s in chosen))
    return sorted(chosen, key=lambda s: (paper_order.index(s.n), s.position))


def compose(question: str, sources: list[NumberedSource], index: AbstractIndex) -> AnswerStream:
    """Stream the extractive answer sentence by sentence; the last event is the Answer."""
    chosen = select(question, score_sentences(question, sources, index),
                    {s.n: s.found.score for s in sources})
    titles = {s.n: s.found.paper.title for s in sources}
    summary = is_summary_question(question)
    pieces = [NOTICE + "\n\n"]
    yield pieces[0]
    previous = None
    for s in chosen:
        if summary:
            piece = f"- **{titles[s.n]}**: {s.text} [{s.n}]\n"
        elif s.n != previous:  # a new paragraph, led by the paper's title, for each paper
            piece = ("\n\n" if previous else "") + f"**{titles[s.n]}**: {s.text} [{s.n}]"
        else:
            piece = f" {s.text} [{s.n}]"
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
