"""The persistent index of abstracts, as the rest of the package uses it: one object over
the rooms that hold it.

- ``store.ChromaStore``: the Chroma collection (embedded or a server), its error guard and
  the version stamp that tells a process another one wrote the store;
- ``keyword_index.KeywordIndex``: BM25 over the chunks, with its copy on disk;
- ``catalog.PaperCatalog``: the stored papers, their venues and words, filters as ``where``;
- ``dense.DenseSearch``: nearest chunks and the vectors stored with them;
- ``ingest.Ingester``: the sync of the store with input files (chunk, embed, write).

The rooms are public attributes, for tests and benches that need a seam; the package calls
the methods here.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from assistant import left_out
from assistant.authors import AuthorBook
from assistant.catalog import PaperCatalog
from assistant.chunking import ProgressFn
from assistant.chunks import LLAMA_KEYS, SENTENCES_KEY, ChunkHit
from assistant.corpus import Paper
from assistant.dense import DenseSearch
from assistant.embedding import Embedder, as_llama_embedding, load_embedding
from assistant.ingest import Ingester, IngestReport
from assistant.keyword_index import KeywordIndex
from assistant.keywords import KeywordStats, SurfaceText
from assistant.left_out import LeftOut
from assistant.naming import PhraseText
from assistant.settings import Settings
from assistant.store import HNSW_CONFIG, ChromaStore, EmbeddingMismatchError, IndexConfigError
from assistant.types import Filters
from assistant.written_forms import WrittenText

if TYPE_CHECKING:  # llama_index is imported by the ingest only: a question needs none of it
    from llama_index.core import VectorStoreIndex
    from llama_index.vector_stores.chroma import ChromaVectorStore

__all__ = ["HNSW_CONFIG", "LLAMA_KEYS", "SENTENCES_KEY", "AbstractIndex", "ChunkHit",
           "EmbeddingMismatchError", "IndexConfigError", "IngestReport", "ProgressFn"]


class AbstractIndex:
    """Opens (or creates) the store under ``settings.data.dir``."""

    def __init__(self, settings: Settings, embed_model: Embedder | None = None,
                 rebuilding: bool = False) -> None:
        self.settings = settings
        self.store = ChromaStore(settings, rebuilding)
        self.dir, self.server = self.store.dir, self.store.server
        self._embed_model = embed_model
        self.keywords = KeywordIndex(self.store)
        self.catalog = PaperCatalog(self.store, self.keywords)
        self.dense = DenseSearch(self.store, lambda: self.embed_model)
        self.ingester = Ingester(settings, self.store, self.keywords, self.catalog,
                                 lambda: self.embed_model)

    @property
    def where(self) -> str:
        """The store, as messages name it: a server and collection, or a directory."""
        return self.store.where

    @property
    def embed_model(self) -> Embedder:
        """The embedding model of the store, loaded when first needed."""
        if self._embed_model is None:
            self._embed_model = load_embedding(self.settings)
        return self._embed_model

    @embed_model.setter
    def embed_model(self, model: Embedder) -> None:
        self._embed_model = model

    @property
    def vector_store(self) -> ChromaVectorStore:
        from llama_index.vector_stores.chroma import ChromaVectorStore

        return ChromaVectorStore(chroma_collection=self.store.collection.unguarded)

    def vector_index(self) -> VectorStoreIndex:
        """LlamaIndex's plain vector index over the same store (the dense-only baseline)."""
        from llama_index.core import VectorStoreIndex

        return VectorStoreIndex.from_vector_store(self.vector_store,
                                                  embed_model=as_llama_embedding(self.embed_model))

    # ------------------------------------------------------------ the store

    def chunk_count(self) -> int:
        return self.store.chunk_count()

    def is_empty(self) -> bool:
        return self.chunk_count() == 0

    def rebuild_under_way(self) -> bool:
        return self.store.rebuild_under_way()

    def ingest(self, paths: Iterable[Path], rebuild: bool = False,
               progress: ProgressFn | None = None, upload: bool = False) -> IngestReport:
        """Sync the store with the given files (``ingest.Ingester``)."""
        return self.ingester.ingest(paths, rebuild, progress, upload)

    def set_titles(self, titles: Mapping[str, tuple[str, str]], rebuild_bm25: bool = True
                   ) -> int:
        """Store model-written titles, paper id → (title, model) (``ingest.Ingester``)."""
        return self.ingester.set_titles(titles, rebuild_bm25)

    def chunk_texts(self) -> tuple[list[str], list[str]]:
        """(paper id, text) of every stored chunk, titles left out (for training the ranker
        on title queries without the title in the documents)."""
        with self.store.lock:
            self.store.refresh()
            got = self.store.collection.get(include=["documents", "metadatas"])
        return [str(m["paper_id"]) for m in got["metadatas"]], list(got["documents"])

    # ------------------------------------------------------------ the papers

    def papers(self) -> dict[str, Paper]:
        return self.catalog.papers()

    def surface_text(self) -> SurfaceText:
        return self.catalog.surface_text()

    def phrase_text(self) -> PhraseText:
        return self.catalog.phrase_text()

    def written_text(self) -> WrittenText:
        return self.catalog.written_text()

    def venues(self) -> list[str]:
        return self.catalog.venues()

    def chroma_where(self, filters: Filters) -> dict[str, Any] | None:
        return self.catalog.chroma_where(filters)

    def left_out(self, filters: Filters | None = None) -> list[LeftOut]:
        """The records of the store's files that were not stored (no abstract) and that
        ``filters`` allow (left_out.py)."""
        return left_out.allowed(left_out.load(self.ingester.left_out_path), filters)

    def author_book(self) -> AuthorBook:
        return self.catalog.author_book()

    def newest_year(self) -> int | None:
        """The newest stored paper's year (None when no paper has one): where "the last
        three years" of a question end (``filters.of_recent``)."""
        return max((p.year for p in self.papers().values() if p.year is not None), default=None)

    def allowed(self, filters: Filters | None) -> frozenset[str] | None:
        """The ids of the papers that pass ``filters`` (None: no filter, every paper)."""
        return self.catalog.allowed(filters) if filters else None

    # ------------------------------------------------------------ keywords

    def search_bm25(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks of stored papers by BM25 (stemmed, stopwords removed)."""
        with self.store.lock:
            self.store.refresh()
            hits = self.keywords.search(query, k)
            if not hits:
                return []
            papers = self.papers()
            return [hit for hit in hits if hit.paper_id in papers]

    def keyword_stats(self) -> KeywordStats:
        """The BM25 vocabulary, document frequencies and chunk count, for keywords.py."""
        with self.store.lock:
            self.store.refresh()
            return self.keywords.stats()

    def bm25_paper_scores(self, query: str, allowed: Container[str] | None = None
                          ) -> dict[str, float]:
        """Every stored paper's best BM25 chunk score for ``query`` (papers scoring 0 left
        out): the whole ranking, so a paper that only the dense side found still gets its
        BM25 score. With ``allowed`` (paper ids passing a filter) every other chunk is
        masked to 0."""
        with self.store.lock:
            self.store.refresh()
            scores = self.keywords.paper_scores(query, allowed)
            if not scores:
                return {}
            papers = self.papers()
            return {pid: score for pid, score in scores.items() if pid in papers}

    def term_papers(self, terms: Iterable[str]) -> dict[str, frozenset[str]]:
        """For each stemmed term the BM25 index knows, the stored papers holding it in their
        title or abstract (``KeywordIndex.term_papers``)."""
        with self.store.lock:
            self.store.refresh()
            return self.keywords.term_papers(terms)

    # ------------------------------------------------------------ vectors

    def search_dense(self, query: str, k: int, vector: np.ndarray | None = None,
                     filters: Filters | None = None) -> list[ChunkHit]:
        """Top-``k`` chunks by cosine similarity of MiniLM vectors (score = cosine); pass the
        question's ``vector`` when it is already embedded. ``filters`` restrict the search
        itself (a Chroma ``where``), so the top ``k`` are all papers that pass."""
        count = self.chunk_count()
        if not count:
            return []
        if vector is None:
            vector = self.query_vector(query)
        where = self.chroma_where(filters) if filters else None
        return self.dense.search(vector, min(k, count), where)

    def query_vector(self, query: str) -> np.ndarray:
        return self.dense.query_vector(query)

    def sentence_vectors(self, papers: Iterable[Paper]) -> dict[str, np.ndarray]:
        return self.dense.sentence_vectors(papers)

    def chunk_vectors(self) -> tuple[list[str], np.ndarray]:
        return self.dense.chunk_vectors()

    def paper_vector(self, paper_id: str) -> np.ndarray | None:
        return self.dense.paper_vector(paper_id)

    def paper_cosines(self, vector: np.ndarray, paper_ids: Iterable[str]) -> dict[str, float]:
        return self.dense.paper_cosines(vector, paper_ids)
