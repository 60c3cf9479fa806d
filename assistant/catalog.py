"""The stored papers as the rest of the package reads them: every paper by id, their venues,
their words and phrases, and a filter as the Chroma ``where`` that selects them — each
cached until the store is written, here or by another process.
"""

from __future__ import annotations

from typing import Any

from assistant.authors import AuthorBook
from assistant.chunks import gather_papers
from assistant.corpus import Paper
from assistant.keyword_index import KeywordIndex
from assistant.keywords import SurfaceText
from assistant.naming import PhraseText
from assistant.store import ChromaStore
from assistant.types import Filters
from assistant.written_forms import WrittenText

ALLOWED_KEPT = 64  # filters whose papers are kept (a server sees few at a time)


class PaperCatalog:
    """The papers of ``store``, read from the copy ``keywords`` saved or from Chroma."""

    def __init__(self, store: ChromaStore, keywords: KeywordIndex) -> None:
        self.store, self.keywords = store, keywords
        self._papers: dict[str, Paper] | None = None
        self._venues: tuple[dict[str, Paper], list[str]] | None = None
        self._authors: tuple[dict[str, Paper], AuthorBook] | None = None
        self._surface: tuple[dict[str, Paper], SurfaceText] | None = None
        self._phrases: tuple[dict[str, Paper], PhraseText] | None = None
        self._written: tuple[dict[str, Paper], WrittenText] | None = None
        self._allowed: tuple[dict[str, Paper], dict[Filters, frozenset[str]]] | None = None
        store.on_change(self.forget)

    def forget(self) -> None:
        """Drop the papers read (the store was written): read again when next asked."""
        self._papers = None

    def papers(self) -> dict[str, Paper]:
        """All stored papers by id, read from the chunks' metadata (cached until a write,
        here or by another process): the copy saved beside the BM25 index when it was made
        for the store as it is now (reading every chunk's metadata from Chroma took 10-15 s
        at 13.9k papers, most of a new process's first answer), else Chroma's."""
        with self.store.lock:
            self.store.refresh()
            if self._papers is None:
                self._papers = self.keywords.saved_papers()
            if self._papers is None:
                self._papers = {}
                partial: set[str] = set()  # see gather_papers
                for got in self.store.pages(["metadatas"]):
                    gather_papers(self._papers, partial, got["metadatas"] or [])
            return self._papers

    def surface_text(self) -> SurfaceText:
        """The stored titles and abstracts as plain text, to tell whether a name in a
        question occurs anywhere at all: saved beside the BM25 index (from the same chunk
        texts, which hold every title and abstract), else built once per paper cache (3-4 s
        at 13.9k papers, which the first answered question pays)."""
        with self.store.lock:
            self.store.refresh()
            self.keywords.load()
            if self.keywords.surface is not None:
                return self.keywords.surface
            papers = self.papers()
            if self._surface is None or self._surface[0] is not papers:
                self._surface = (papers, SurfaceText.of((f"{p.title} {p.text}" for p in papers.values()),
                                                        (p.text for p in papers.values())))
            return self._surface[1]

    def phrase_text(self) -> PhraseText:
        """The stored papers as one string for phrase look-ups (``naming.PhraseText``),
        built once per paper cache."""
        with self.store.lock:
            papers = self.papers()
            if self._phrases is None or self._phrases[0] is not papers:
                self._phrases = (papers, PhraseText.of(papers))
            return self._phrases[1]

    def written_text(self) -> WrittenText:
        """The stored papers as one string for how they write compounds
        (``written_forms.WrittenText``), built once per paper cache."""
        with self.store.lock:
            papers = self.papers()
            if self._written is None or self._written[0] is not papers:
                self._written = (papers, WrittenText.of(papers))
            return self._written[1]

    def venues(self) -> list[str]:
        """The stored venues and collections (for the UI's filter and every question's
        stated venue; kept until the paper cache changes)."""
        with self.store.lock:
            papers = self.papers()
            if self._venues is None or self._venues[0] is not papers:
                self._venues = (papers, sorted({p.venue for p in papers.values() if p.venue},
                                               key=str.casefold))
            return self._venues[1]

    def author_book(self) -> AuthorBook:
        """The stored author lists, for a question's reading to confirm a name that its
        words alone leave in doubt ("papers from Hinton"); a new book once the paper cache
        changes, so a reading cached with the old one is not reused."""
        with self.store.lock:
            papers = self.papers()
            if self._authors is None or self._authors[0] is not papers:
                if self._authors is not None:
                    self._authors[1].retire()
                self._authors = (papers, AuthorBook((p.authors for p in papers.values()),
                                                       (p.text for p in papers.values())))
            return self._authors[1]

    def allowed(self, filters: Filters) -> frozenset[str]:
        """The ids of the papers that pass ``filters``, kept until the paper cache changes:
        an author filter reads every stored author list (0.2 s at 13.9k papers), and one
        question asks for the same filter's papers four or five times."""
        with self.store.lock:
            papers = self.papers()
            if self._allowed is None or self._allowed[0] is not papers:
                self._allowed = (papers, {})
            known = self._allowed[1]
            if filters not in known:
                if len(known) >= ALLOWED_KEPT:
                    known.clear()
                known[filters] = frozenset(pid for pid, paper in papers.items()
                                           if filters.allows(paper))
            return known[filters]

    def chroma_where(self, filters: Filters) -> dict[str, Any] | None:
        """``filters`` as a Chroma ``where``: the same papers as ``Filters.allows`` (a venue
        matches case-insensitively, so it becomes the stored spellings that match)."""
        clauses: list[dict[str, Any]] = []
        if filters.years is not None:
            clauses += [{"year": {"$gte": filters.years[0]}}, {"year": {"$lte": filters.years[1]}}]
        if filters.named_years is not None:
            clauses.append({"year": {"$in": sorted(filters.named_years)}})
        if filters.venue:
            wanted = filters.venue.casefold()
            spellings = [v for v in self.venues() if v.casefold() == wanted] or [filters.venue]
            clauses.append({"venue": {"$in": spellings}})
        if filters.author or filters.excluded or filters.excluded_author:  # no metadata operator
            # reads a name in a list or a paper's words: the papers' ids
            clauses.append({"paper_id": {"$in": sorted(self.allowed(filters)) or [""]}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}
