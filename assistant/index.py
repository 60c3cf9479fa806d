"""The persistent index: chunk vectors in a Chroma collection, a BM25 index beside it.

Ingesting is a sync per input file: papers new to the store are chunked, embedded and
added; papers of that file that are no longer in it (an edited or removed abstract) are
deleted; papers that only moved get their locator updated. So a second ingest of the same
files adds nothing, and an edited abstract replaces its old chunks.
"""

from __future__ import annotations

import json
import math
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bm25s
import bm25s.stopwords
import chromadb
import numpy as np
import Stemmer
import tiktoken
from chromadb.config import Settings as ChromaSettings
from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import Document, TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.chroma import ChromaVectorStore

from assistant.corpus import Paper, ReadResult, Skipped, read_paths
from assistant.embedding import load_embedding
from assistant.settings import Settings

# Chroma's defaults found a stored vector only 67–93% of the time at 20k vectors on these
# machines; a wider graph and search beam buy recall for ~1 ms (bench/ann_recall.py).
HNSW_CONFIG = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32}
ProgressFn = Callable[[int, int, str], None]


class IndexConfigError(RuntimeError):
    """The index cannot be used as configured; the message says what to do."""


class EmbeddingMismatchError(IndexConfigError):
    pass


@dataclass
class IngestReport:
    """What an ingest did, for the CLI's summary line and the UI's upload summary."""

    added: int = 0
    replaced: int = 0
    removed: int = 0
    moved: int = 0
    unchanged: int = 0
    chunks_added: int = 0
    papers_total: int = 0
    chunks_total: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class ChunkHit:
    """One chunk found by a ranking, with the paper it belongs to."""

    chunk_id: str
    paper_id: str
    text: str
    score: float


# bm25s's English list has 33 words; questions also carry these, which say nothing about
# which paper is meant ("What does this paper propose?").
STOPWORDS = sorted(set(bm25s.stopwords.STOPWORDS_EN) | set("""
about above after again all also am any because been before being below between both can
could did do does doing done down during each few from further had has have having he her
here hers him his how i its itself just me more most my myself nor now only other our
ours out over own same she should so some than them themselves those through too under
until up very we were what when where which while who whom why would you your yours paper
papers work works abstract abstracts method methods approach approaches explain describe
tell summarize summarise summary give list show find study studies propose proposed
""".split()))
TOKENIZER_VERSION = f"porter-english-stop{len(STOPWORDS)}"


def bm25_tokenize(texts: Sequence[str], stemmer: Stemmer.Stemmer) -> Any:
    return bm25s.tokenize(list(texts), stopwords=STOPWORDS, stemmer=stemmer, show_progress=False)


class AbstractIndex:
    """Opens (or creates) the store under ``settings.data.dir``."""

    def __init__(self, settings: Settings, embed_model: BaseEmbedding | None = None) -> None:
        self.settings = settings
        self.dir = Path(settings.data.dir)
        self._lock = threading.RLock()
        try:
            (self.dir / "chroma").mkdir(parents=True, exist_ok=True)
            self._client = chromadb.PersistentClient(
                path=str(self.dir / "chroma"),
                settings=ChromaSettings(anonymized_telemetry=False, allow_reset=True),
            )
        except Exception as exc:  # OSError, or Chroma's own errors for an unusable path
            raise IndexConfigError(f"cannot open the index in {self.dir}: {exc}; choose another "
                                   "directory with --data-dir or ASSISTANT_DATA_DIR") from exc
        self._embed_name = settings.index.embed_model
        self._collection = self._open_collection()
        self._embed_model = embed_model
        self._bm25: bm25s.BM25 | None = None
        self._bm25_ids: list[str] = []
        self._bm25_df: np.ndarray | None = None
        self._stemmer = Stemmer.Stemmer("english")
        self._papers: dict[str, Paper] | None = None

    # ------------------------------------------------------------ opening

    def _open_collection(self) -> Any:
        name = self.settings.data.collection
        existing = {c.name for c in self._client.list_collections()}
        if name in existing:
            collection = self._client.get_collection(name)
            built_with = (collection.metadata or {}).get("embed_model")
            if built_with and built_with != self._embed_name:
                raise EmbeddingMismatchError(
                    f"the index in {self.dir} was built with the embedding model '{built_with}', "
                    f"but '{self._embed_name}' is configured. Rebuild it with "
                    "`assistant ingest --rebuild`, or set "
                    f"ASSISTANT_INDEX_EMBED_MODEL={built_with}."
                )
            return collection
        return self._client.create_collection(
            name,
            metadata={"embed_model": self._embed_name, "created": time.time()},
            configuration={"hnsw": HNSW_CONFIG},
        )

    @property
    def embed_model(self) -> BaseEmbedding:
        if self._embed_model is None:
            self._embed_model = load_embedding(self.settings)
        return self._embed_model

    @property
    def vector_store(self) -> ChromaVectorStore:
        return ChromaVectorStore(chroma_collection=self._collection)

    def vector_index(self) -> VectorStoreIndex:
        """LlamaIndex's plain vector index over the same store (the dense-only baseline)."""
        return VectorStoreIndex.from_vector_store(self.vector_store, embed_model=self.embed_model)

    # ------------------------------------------------------------ reading

    def chunk_count(self) -> int:
        return self._collection.count()

    def papers(self) -> dict[str, Paper]:
        """All stored papers by id, read from the chunks' metadata (cached until a write)."""
        with self._lock:
            if self._papers is None:
                self._papers = {}
                got = self._collection.get(include=["metadatas"])
                for meta in got["metadatas"] or []:
                    pid = str(meta["paper_id"])
                    if pid not in self._papers:
                        self._papers[pid] = _paper_from_meta(meta)
            return self._papers

    def is_empty(self) -> bool:
        return self.chunk_count() == 0

    # ------------------------------------------------------------ writing

    def ingest(
        self,
        paths: Iterable[Path],
        rebuild: bool = False,
        progress: ProgressFn | None = None,
    ) -> IngestReport:
        """Sync the store with the given files; see the module docstring."""
        started = time.perf_counter()
        read: ReadResult = read_paths(list(paths), max_chars=self.settings.index.max_abstract_chars)
        report = IngestReport(skipped=read.skipped)
        with self._lock:
            if rebuild:
                self._reset()
            stored = self.papers()
            new_ids = {p.paper_id for p in read.papers}
            read_files = set(read.files) - {s.file for s in read.skipped if s.whole_file}
            # Papers of a file that was read again but no longer hold that abstract.
            gone = [
                pid for pid, p in stored.items() if p.file in read_files and pid not in new_ids
            ]
            gone_sources = {stored[pid].source for pid in gone}
            to_add: list[Paper] = []
            moved: list[Paper] = []
            for paper in read.papers:
                old = stored.get(paper.paper_id)
                if old is None:
                    to_add.append(paper)
                    if paper.source in gone_sources:
                        report.replaced += 1
                    else:
                        report.added += 1
                elif old.source != paper.source or old.title != paper.title:
                    moved.append(paper)
                else:
                    report.unchanged += 1
            report.removed = len(gone) - report.replaced
            report.moved = len(moved)
            # Add (in batches of whole papers, so an interrupted ingest keeps what it
            # embedded) before deleting anything: a failure never loses stored papers.
            for nodes in self._embedded_batches(to_add, progress):
                self.vector_store.add(nodes)
                report.chunks_added += len(nodes)
                self._papers = None
            for pid in gone:
                self._collection.delete(where={"paper_id": pid})
            for paper in moved:
                self._update_metadata(paper)
            if to_add or gone or moved or rebuild:
                self._papers = None
                self._build_bm25()
            report.papers_total = len(self.papers())
            report.chunks_total = self.chunk_count()
        report.seconds = time.perf_counter() - started
        return report

    def _reset(self) -> None:
        self._client.delete_collection(self.settings.data.collection)
        shutil.rmtree(self.dir / "bm25", ignore_errors=True)
        self._collection = self._open_collection()
        self._papers = None
        self._bm25 = None

    def _splitter(self) -> SentenceSplitter:
        encoding = tiktoken.get_encoding("cl100k_base")
        return SentenceSplitter(
            chunk_size=self.settings.index.chunk_size,
            chunk_overlap=self.settings.index.chunk_overlap,
            tokenizer=encoding.encode,
        )

    def _embedded_batches(
        self, papers: list[Paper], progress: ProgressFn | None
    ) -> Iterator[list[TextNode]]:
        """Chunk and embed ``papers``; yields embedded nodes, whole papers per batch."""
        if not papers:
            return
        splitter = self._splitter()
        per_paper: list[list[TextNode]] = []
        for paper in papers:
            doc = Document(text=paper.text, doc_id=paper.paper_id, metadata=_paper_meta(paper))
            doc.excluded_embed_metadata_keys = list(doc.metadata)
            doc.excluded_llm_metadata_keys = list(doc.metadata)
            nodes = splitter.get_nodes_from_documents([doc])
            for i, node in enumerate(nodes):
                node.id_ = f"{paper.paper_id}:{i}"
                node.metadata["chunk"] = i
            per_paper.append(nodes)
        total = sum(len(n) for n in per_paper)
        done = 0
        batch: list[TextNode] = []
        for i, nodes in enumerate(per_paper):
            batch.extend(nodes)
            if len(batch) >= 256 or i == len(per_paper) - 1:
                vectors = self.embed_model.get_text_embedding_batch([n.text for n in batch])
                for node, vector in zip(batch, vectors, strict=True):
                    node.embedding = vector
                done += len(batch)
                if progress:
                    progress(done, total, "embedding chunks")
                yield batch
                batch = []

    def _update_metadata(self, paper: Paper) -> None:
        got = self._collection.get(where={"paper_id": paper.paper_id}, include=["metadatas"])
        metas = []
        for meta in got["metadatas"]:
            updated = dict(meta)
            updated.update({k: v for k, v in _paper_meta(paper).items() if k != "abstract"})
            metas.append(updated)
        self._collection.update(ids=got["ids"], metadatas=metas)

    # ------------------------------------------------------------ BM25

    def _build_bm25(self) -> None:
        got = self._collection.get(include=["documents", "metadatas"])
        ids: list[str] = list(got["ids"])
        bm25_dir = self.dir / "bm25"
        shutil.rmtree(bm25_dir, ignore_errors=True)
        if not ids:
            self._bm25, self._bm25_ids, self._bm25_df = None, [], None
            return
        # Titles are searched too: a CSV title often holds the method's name.
        texts = [
            f"{m.get('title', '')}. {d}" if m.get("chunk") == 0 else d
            for d, m in zip(got["documents"], got["metadatas"], strict=True)
        ]
        tokens = bm25_tokenize(texts, self._stemmer)
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        df = np.zeros(len(tokens.vocab), dtype=np.int32)
        for doc in tokens.ids:
            df[np.unique(np.asarray(doc, dtype=np.int64))] += 1
        retriever.save(str(bm25_dir))
        (bm25_dir / "ids.json").write_text(json.dumps({"tokenizer": TOKENIZER_VERSION, "ids": ids}))
        np.save(bm25_dir / "df.npy", df)
        self._bm25, self._bm25_ids, self._bm25_df = retriever, ids, df

    def _load_bm25(self) -> bm25s.BM25 | None:
        if self._bm25 is None:
            bm25_dir = self.dir / "bm25"
            ids_file = bm25_dir / "ids.json"
            saved = json.loads(ids_file.read_text()) if ids_file.exists() else {}
            current = isinstance(saved, dict) and saved.get("tokenizer") == TOKENIZER_VERSION
            ids = saved["ids"] if current else None
            if ids is not None and len(ids) == self.chunk_count():
                self._bm25 = bm25s.BM25.load(str(bm25_dir))
                self._bm25_ids = ids
                self._bm25_df = np.load(bm25_dir / "df.npy")
            elif self.chunk_count():  # missing, stale after an interrupted ingest, or old
                self._build_bm25()
        return self._bm25

    # ------------------------------------------------------------ searching

    def search_bm25(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks by BM25 (stemmed, stopwords removed)."""
        with self._lock:
            retriever = self._load_bm25()
            if retriever is None:
                return []
            vocab = retriever.vocab_dict
            known = [vocab[t] for t in self._query_terms(query) if t in vocab]
            if not known:
                return []
            k = min(k, len(self._bm25_ids))
            docs, scores = retriever.retrieve([known], k=k, show_progress=False, n_threads=1)
            papers = self.papers()
            hits = []
            for doc, score in zip(docs[0], scores[0], strict=True):
                if score <= 0:
                    continue
                cid = self._bm25_ids[int(doc)]
                pid = cid.rsplit(":", 1)[0]
                if pid in papers:
                    hits.append(ChunkHit(cid, pid, "", float(score)))
            return hits

    def _query_terms(self, query: str) -> list[str]:
        tokens = bm25_tokenize([query], self._stemmer)
        inverse = {i: t for t, i in tokens.vocab.items()}
        return list(dict.fromkeys(inverse[i] for i in tokens.ids[0]))

    def idf(self, term: str) -> float:
        """BM25's idf for a stemmed term; terms the corpus never uses get the highest."""
        n = len(self._bm25_ids)
        vocab = self._bm25.vocab_dict if self._bm25 else {}
        df = int(self._bm25_df[vocab[term]]) if term in vocab and self._bm25_df is not None else 0
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def keyword_weights(self, query: str) -> dict[str, float]:
        """The question's stemmed terms with their idf: computed once per question, then
        used by ``coverage`` for every candidate paper or sentence."""
        with self._lock:
            self._load_bm25()
            return {t: self.idf(t) for t in self._query_terms(query)}

    def coverage(self, weights: dict[str, float], text: str) -> float:
        """Share of the question's keyword weight (idf) that ``text`` contains."""
        total = sum(weights.values())
        if not total:
            return 0.0
        present = set(self._query_terms(text))
        return sum(w for t, w in weights.items() if t in present) / total

    def search_dense(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks by cosine similarity of MiniLM vectors (score = cosine)."""
        if self.is_empty():
            return []
        vector = self.embed_model.get_query_embedding(query)
        result = self.vector_store.query(
            VectorStoreQuery(query_embedding=vector, similarity_top_k=min(k, self.chunk_count()))
        )
        hits = []
        for node, sim in zip(result.nodes or [], result.similarities or [], strict=True):
            cosine = 1.0 + math.log(max(sim, 1e-12))  # the store reports exp(-distance)
            hits.append(ChunkHit(node.node_id, str(node.metadata["paper_id"]), node.text, cosine))
        return hits


def _paper_meta(paper: Paper) -> dict[str, Any]:
    return {
        "paper_id": paper.paper_id,
        "source": paper.source,
        "file": paper.file,
        "title": paper.title,
        "authors": paper.authors,
        "links": " ".join(paper.links),
        "abstract": paper.text,
    }


def _paper_from_meta(meta: dict[str, Any]) -> Paper:
    return Paper(
        paper_id=str(meta["paper_id"]),
        source=str(meta["source"]),
        title=str(meta.get("title", "")),
        text=str(meta.get("abstract", "")),
        authors=str(meta.get("authors", "")),
        links=tuple(str(meta.get("links", "")).split()),
    )
