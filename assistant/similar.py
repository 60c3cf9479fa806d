"""Related papers: the stored papers most like a given paper, or like a piece of text.

A stored paper (named by its locator ``file#n``, its 16-hex id, its link or its own title as
typed) is represented by the mean of its stored chunk vectors, so nothing is re-embedded; free
text is embedded as a question is. Each other paper scores by its best chunk's cosine with that
vector. A share of BM25 (the paper's title and abstract as the query, scaled by the best BM25
score) can be mixed in (``bm25_weight``), but it is off: it made the ranking worse on the seeds
(below). The paper itself is never among its own related papers.

Measured on the seeds, with the papers that the eval's eight multi-paper questions group
together as the related ones (19 queries: each grouped paper asks for the papers like it,
scored by the best rank of another paper of its group): cosine alone MRR 0.876, hit@1 0.789,
hit@3 0.947; with BM25 at 0.1 MRR 0.811, at 0.3 0.761, at 0.5 0.696, BM25
alone 0.561. A whole abstract as a BM25 query matches common words, not the topic. The mean
chunk vector against each paper's mean (instead of its best chunk) gave MRR 0.860.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from assistant.corpus import Paper
from assistant.errors import BadInputError
from assistant.index import AbstractIndex
from assistant.tuning import CHUNKS_PER_PAPER, MIN_CANDIDATES, SIMILAR_BM25_WEIGHT

MAX_TEXT_CHARS = 4000  # as a question: longer text is refused, not silently cut
LOCATOR_RE = re.compile(r"[^\s#]+#\d+")
PAPER_ID_RE = re.compile(r"[0-9a-f]{16}")
URL_RE = re.compile(r"https?://\S+")
FILE_NAME_RE = re.compile(r"[^\s#]+\.(?:txt|csv|jsonl)", re.I)  # a file, without its #n
WORD_RE = re.compile(r"\w+")


@dataclass(frozen=True)
class SimilarPaper:
    """One related paper and how close it is (``score`` 0–1 mixes ``dense`` and ``bm25``)."""

    paper: Paper
    score: float
    dense: float
    bm25: float

    def public_json(self, rank: int) -> dict[str, Any]:
        p = self.paper
        return {"rank": rank, "paper_id": p.paper_id, "title": p.title, "source": p.source,
                "score": round(self.score, 4), "dense": round(self.dense, 4),
                "bm25": round(self.bm25, 4), "authors": p.authors, "year": p.year,
                "venue": p.venue, "url": p.link}


@dataclass(frozen=True)
class SimilarResult:
    """What was asked (a stored ``paper`` or free ``text``) and the papers like it, best first."""

    query: str
    kind: Literal["paper", "text"]
    paper: Paper | None
    results: list[SimilarPaper]

    def public_json(self) -> dict[str, Any]:
        of = ({"paper_id": self.paper.paper_id, "title": self.paper.title,
               "source": self.paper.source} if self.paper else None)
        return {"query": self.query, "kind": self.kind, "paper": of,
                "results": [r.public_json(i) for i, r in enumerate(self.results, start=1)]}


def resolve(index: AbstractIndex, target: str) -> Paper | None:
    """The stored paper ``target`` names (a locator or a paper id), None for free text; a
    locator or id that names no stored paper is a ``BadInputError`` naming it."""
    target = target.strip()
    if not target:
        raise BadInputError("nothing to compare with: give a locator (file#n), a paper id or "
                            "some text, e.g. assistant similar \"temporal graph link prediction\"")
    papers = index.papers()
    exact = next((p for p in papers.values() if p.source == target), None)
    if exact is not None:  # a stored locator, spaces in its file name and all
        return exact
    if PAPER_ID_RE.fullmatch(target.lower()):  # as copied from anywhere, in any case
        if target.lower() in papers:
            return papers[target.lower()]
        raise BadInputError(f"no stored paper has the id '{target}'; `assistant similar` "
                            "takes a paper id as `assistant ask --json` shows it")
    if URL_RE.fullmatch(target):  # a paper's own link, as its source shows it
        linked = next((p for p in papers.values() if target.rstrip("/") in
                       (u.rstrip("/") for u in p.links)), None)
        if linked is not None:
            return linked
        raise BadInputError(f"no stored paper has the link '{target}'; give its locator "
                            "(file#n), its paper id, or some of its text in quotes")
    if FILE_NAME_RE.fullmatch(target) or target.startswith("#"):
        raise BadInputError(f"'{target}' names no paper: a locator is a file and the "
                            "abstract's number in it, file#n, as the sources of an answer "
                            "show them (e.g. seeds.txt#3)")
    if LOCATOR_RE.fullmatch(target):
        found = next((p for p in papers.values() if p.source == target), None)
        if found is not None:
            return found
        raise BadInputError(f"no stored paper has the locator '{target}'; locators are "
                            "file#n as the sources of an answer show them")
    if len(target) > MAX_TEXT_CHARS:
        raise BadInputError(f"the text is {len(target):,} characters long; the limit is "
                            f"{MAX_TEXT_CHARS:,}: give a shorter text or a paper's locator")
    return titled(papers.values(), target)


@lru_cache(maxsize=65536)  # every stored title, once per question that may name one
def title_key(title: str) -> str:
    """A title as compared with a typed one: case, punctuation and spacing aside."""
    return " ".join(WORD_RE.findall(title.casefold()))


def titled(papers: Iterable[Paper], target: str) -> Paper | None:
    """The stored paper whose own title (not a derived or model-written label) ``target`` is,
    so that a pasted title asks for the papers like that paper rather than like its words,
    which ranked the paper itself below others; of several with the title, the first locator."""
    key = title_key(target)
    if not key:
        return None
    same = [p for p in papers if not p.title_derived and not p.title_model
            and title_key(p.title) == key]
    return min(same, key=lambda p: p.source) if same else None


def similar(index: AbstractIndex, target: str, k: int = 5,
            bm25_weight: float = SIMILAR_BM25_WEIGHT) -> SimilarResult:
    """The ``k`` stored papers most like ``target`` (a locator, a paper id or free text)."""
    if k < 1:
        raise BadInputError(f"asked for {k} papers; ask for at least 1")
    paper = resolve(index, target)
    if paper is not None:
        vector = index.paper_vector(paper.paper_id)
        if vector is None:  # removed between resolving and reading: as if never stored
            raise BadInputError(f"no stored paper has the locator '{paper.source}'")
        text = f"{paper.title}. {paper.text}"
    else:
        text = target.strip()
        vector = index.query_vector(text)
    exclude = paper.paper_id if paper else None
    ranked = rank(index, vector, text, k, exclude, bm25_weight)
    return SimilarResult(query=target.strip(), kind="paper" if paper else "text", paper=paper,
                         results=ranked)


def rank(index: AbstractIndex, vector: np.ndarray, text: str, k: int, exclude: str | None,
         bm25_weight: float = SIMILAR_BM25_WEIGHT) -> list[SimilarPaper]:
    """Papers scored by best-chunk cosine with ``vector`` and scaled BM25 for ``text``."""
    papers = index.papers()
    wanted = k + (1 if exclude else 0)
    dense: dict[str, float] = {}
    for hit in index.search_dense("", max(MIN_CANDIDATES, CHUNKS_PER_PAPER * wanted), vector):
        dense[hit.paper_id] = max(dense.get(hit.paper_id, -1.0), hit.score)
    lexical = index.bm25_paper_scores(text) if bm25_weight > 0 else {}
    lexical.pop(exclude or "", None)
    top_bm25 = max(lexical.values(), default=0.0) or 1.0
    # Papers the BM25 side ranks high but the dense candidates missed get their cosine too.
    strong = sorted(lexical, key=lambda pid: -lexical[pid])[:max(MIN_CANDIDATES, 2 * wanted)]
    missing = [pid for pid in strong if pid not in dense]
    dense.update(index.paper_cosines(vector, missing))
    found = []
    for pid, cosine in dense.items():
        if pid == exclude or pid not in papers:
            continue
        bm25 = lexical.get(pid, 0.0) / top_bm25
        score = (1 - bm25_weight) * cosine + bm25_weight * bm25
        found.append(SimilarPaper(papers[pid], score, cosine, bm25))
    found.sort(key=lambda s: (-s.score, s.paper.source))
    return found[:k]
