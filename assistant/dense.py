"""Dense reads of the store: the nearest chunks to a question's vector, and the vectors
stored with the chunks (a paper's mean vector, a paper's best cosine, its sentences'
vectors), so that nothing already embedded is embedded again.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from assistant.chunks import SENTENCES_KEY, ChunkHit, paper_of, unpack_sentences
from assistant.corpus import Paper, split_sentences
from assistant.embedding import Embedder, dimension_mismatch
from assistant.store import ChromaStore

QUERY_CACHE = 256  # question vectors remembered (``query_vector``)


class DenseSearch:
    """Vector reads of ``store``; ``embedder`` gives the model a question is embedded with
    (loaded when first needed)."""

    def __init__(self, store: ChromaStore, embedder: Callable[[], Embedder]) -> None:
        self.store, self._embedder = store, embedder
        self._query_vectors: OrderedDict[str, np.ndarray] = OrderedDict()  # LRU, QUERY_CACHE

    def query_vector(self, query: str) -> np.ndarray:
        """The question's vector (unit length, as the store's), for ``paper_cosines``;
        remembered for the last QUERY_CACHE questions (retrieval and the extractive composer
        both need it, and the UI's examples come back)."""
        with self.store.lock:
            found = self._query_vectors.get(query)
            if found is not None:
                self._query_vectors.move_to_end(query)
                return found
        vector = np.asarray(self._embedder().embed([query])[0], dtype=np.float32)
        vector.setflags(write=False)
        with self.store.lock:
            self._query_vectors[query] = vector
            while len(self._query_vectors) > QUERY_CACHE:
                self._query_vectors.popitem(last=False)
        return vector

    def search(self, vector: np.ndarray, k: int, where: dict[str, Any] | None) -> list[ChunkHit]:
        """The ``k`` chunks nearest ``vector`` that pass ``where`` (score = cosine)."""
        # Straight to Chroma: LlamaIndex's query rebuilt a node from JSON for every hit.
        # No metadata: the paper is in the chunk's id, and the metadata (the abstract, its
        # sentence vectors, LlamaIndex's node copy; ~13 KB a chunk) doubled the query's time.
        try:
            got = self.store.collection.query(query_embeddings=[vector.tolist()], n_results=k,
                                              where=where, include=["documents", "distances"])
        except Exception as exc:  # an openai: endpoint now serving another model
            expected = re.search(r"dimension of (\d+)", str(exc))
            if expected is None:
                raise
            raise dimension_mismatch(len(vector), int(expected.group(1)),
                                     self.store.embed_name) from exc
        return [ChunkHit(cid, paper_of(cid), text or "", 1.0 - float(distance))
                for cid, text, distance in zip(got["ids"][0], got["documents"][0],
                                               got["distances"][0], strict=True)]

    def sentence_vectors(self, papers: Iterable[Paper]) -> dict[str, np.ndarray]:
        """The stored vectors of each paper's sentences (``split_sentences`` order), for the
        papers whose chunks hold all of them (indexed by this version with MiniLM); the
        others are left out, and the caller embeds their sentences itself."""
        wanted = {p.paper_id: len(split_sentences(p.text)) for p in papers}
        if not wanted:
            return {}
        with self.store.lock:
            self.store.refresh()
            got = self.store.collection.get(where={"paper_id": {"$in": list(wanted)}},
                                            include=["metadatas"])
        rows: dict[str, dict[int, np.ndarray]] = {}
        for meta in got["metadatas"] or []:
            pid = str(meta["paper_id"])
            unpacked = unpack_sentences(meta.get(SENTENCES_KEY), wanted.get(pid, -1))
            for i, vector in unpacked:
                rows.setdefault(pid, {})[i] = vector
        out = {}
        for pid, count in wanted.items():
            found = rows.get(pid, {})
            if count and len(found) == count:
                out[pid] = np.stack([found[i] for i in range(count)]).astype(np.float32)
        return out

    def chunk_vectors(self) -> tuple[list[str], np.ndarray]:
        """Every stored chunk's paper id and vector (benches that learn from the store)."""
        with self.store.lock:
            self.store.refresh()
            got = self.store.get_all(["embeddings"])
        return [paper_of(cid) for cid in got["ids"]], np.asarray(got["embeddings"], dtype=np.float32)

    def paper_vector(self, paper_id: str) -> np.ndarray | None:
        """The mean of a stored paper's chunk vectors, unit length (None when no such paper):
        the query vector for papers like it, read from the store, so nothing is re-embedded."""
        with self.store.lock:
            self.store.refresh()
            got = self.store.collection.get(where={"paper_id": paper_id}, include=["embeddings"])
        embeddings = got["embeddings"]
        if embeddings is None or not len(embeddings):
            return None
        mean = np.asarray(embeddings, dtype=np.float32).mean(axis=0)
        return mean / max(float(np.linalg.norm(mean)), 1e-12)

    def paper_cosines(self, vector: np.ndarray, paper_ids: Iterable[str]) -> dict[str, float]:
        """Cosine of ``vector`` with each paper's best chunk, read from the stored vectors
        (for candidates the dense search did not return)."""
        ids = list(paper_ids)
        if not ids:
            return {}
        with self.store.lock:
            self.store.refresh()
            # vectors only: the paper is in the chunk's id ("<paper>:<n>"), and the metadata
            # (the abstract, the sentence vectors) would be most of the bytes read
            got = self.store.collection.get(where={"paper_id": {"$in": ids}},
                                            include=["embeddings"])
        best: dict[str, float] = {}
        embeddings = got["embeddings"]
        if embeddings is None or not len(embeddings):
            return best
        sims = np.asarray(embeddings, dtype=np.float32) @ vector
        for cid, sim in zip(got["ids"], sims, strict=True):
            pid = paper_of(cid)
            best[pid] = max(best.get(pid, -1.0), float(sim))
        return best
