"""The persistent index: chunk vectors in a Chroma collection, a BM25 index beside it.

Ingesting is a sync per input file, planned by ``sync.plan_sync`` (a pure function: what is
added, replaced, removed, relocated or kept) and carried out here, adds before deletes, so
a failure part-way never loses a stored paper. A second ingest of the same files adds
nothing; an edited abstract replaces its old chunks.

Another process may write the same store (``assistant ingest`` beside a running
``assistant serve``): every write stamps ``store-version`` in the data directory, and the
read paths look at that stamp at most once a second; when another writer changed it they
drop their caches (papers, BM25) and reopen Chroma, whose vector index is otherwise held in
memory as it was when opened.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bm25s
import chromadb
import numpy as np
import tiktoken
from chromadb.api import ServerAPI
from chromadb.api.models.Collection import Collection
from chromadb.config import DEFAULT_DATABASE, DEFAULT_TENANT, System
from chromadb.config import Settings as ChromaSettings
from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import Document, TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.chroma import ChromaVectorStore

from assistant.corpus import Paper, ReadResult, Skipped, read_paths
from assistant.embedding import load_embedding
from assistant.errors import AssistantError
from assistant.keywords import (
    TOKENIZER_VERSION,
    KeywordStats,
    SurfaceText,
    document_frequencies,
    query_terms,
    tokenize,
)
from assistant.settings import Settings
from assistant.sync import Kept, plan_sync

# Chroma's defaults found a stored vector only 67–93% of the time at 20k vectors on these
# machines; a wider graph and search beam buy recall for ~1 ms (bench/ann_recall.py).
HNSW_CONFIG = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32}
ProgressFn = Callable[[int, int, str], None]
VERSION_FILE = "store-version"  # rewritten after every write; readers compare it
REFRESH_SECONDS = 1.0  # how often a read path looks at it


class IndexConfigError(AssistantError):
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
    # Stored papers not removed although their file no longer showed them, and why
    # ("kept 2 stored papers of v.csv: line 3 could not be read"); one line each.
    kept: list[Kept] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class ChunkHit:
    """One chunk found by a ranking, with the paper it belongs to."""

    chunk_id: str
    paper_id: str
    text: str
    score: float


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
        self._version_seen = self._read_version()
        self._version_checked = time.monotonic()
        self._collection = self._open_collection()
        self._embed_model = embed_model
        self._bm25: bm25s.BM25 | None = None
        self._bm25_ids: list[str] = []
        self._bm25_df: np.ndarray | None = None
        self._papers: dict[str, Paper] | None = None
        self._surface: tuple[dict[str, Paper], SurfaceText] | None = None

    # ------------------------------------------------------------ opening

    def _open_collection(self) -> Any:
        name = self.settings.data.collection
        existing = {c.name for c in self._client.list_collections()}
        if name in existing:
            return self._checked(self._client.get_collection(name))
        return self._client.create_collection(
            name,
            metadata={"embed_model": self._embed_name, "created": time.time()},
            configuration={"hnsw": HNSW_CONFIG},
        )

    def _checked(self, collection: Any) -> Any:
        built_with = (collection.metadata or {}).get("embed_model")
        if built_with and built_with != self._embed_name:
            raise EmbeddingMismatchError(
                f"the index in {self.dir} was built with the embedding model '{built_with}', "
                f"but '{self._embed_name}' is configured. Rebuild it with "
                "`assistant ingest --rebuild`, or set "
                f"ASSISTANT_INDEX_EMBED_MODEL={built_with}."
            )
        return collection

    # ------------------------------------------------------------ other writers

    def _read_version(self) -> str:
        try:
            return (self.dir / VERSION_FILE).read_text()
        except OSError:
            return ""

    def _stamp(self) -> None:
        """Mark the store as written (after every write), for readers in other processes."""
        stamp = f"{time.time_ns()} {os.getpid()} {uuid.uuid4().hex}"
        tmp = self.dir / f".{VERSION_FILE}.{os.getpid()}.{threading.get_ident()}"
        tmp.write_text(stamp)
        os.replace(tmp, self.dir / VERSION_FILE)
        self._version_seen = stamp

    def _refresh(self, force: bool = False) -> None:
        """When someone else wrote the store since we last looked (at most once a second
        unless ``force``): drop the caches and reopen Chroma. Caller holds the lock."""
        now = time.monotonic()
        if not force and now - self._version_checked < REFRESH_SECONDS:
            return
        self._version_checked = now
        current = self._read_version()
        if current == self._version_seen:
            return
        self._papers, self._bm25, self._bm25_ids, self._bm25_df = None, None, [], None
        if self._reopen_collection():
            self._version_seen = current  # else: looked at again next time

    def _reopen_collection(self) -> bool:
        """A Chroma view of the store as it is now. Chroma keeps one client per path per
        process, holding the vector index as it was loaded; a private one of our own sees
        what the other process wrote, and leaves anyone else's client in this process be.
        The one it replaces is left to the garbage collector: a search may still use it."""
        settings = ChromaSettings(anonymized_telemetry=False, allow_reset=True,
                                  is_persistent=True, persist_directory=str(self.dir / "chroma"))
        system = System(settings)
        api = system.instance(ServerAPI)
        system.start()
        try:
            model = api.get_collection(self.settings.data.collection, tenant=DEFAULT_TENANT,
                                       database=DEFAULT_DATABASE)
        except Exception:  # e.g. mid-way through another process's --rebuild
            system.stop()
            return False
        self._collection = self._checked(Collection(client=api, model=model))
        return True

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
        with self._lock:
            self._refresh()
            return int(self._collection.count())

    def papers(self) -> dict[str, Paper]:
        """All stored papers by id, read from the chunks' metadata (cached until a write,
        here or by another process)."""
        with self._lock:
            self._refresh()
            if self._papers is None:
                self._papers = {}
                got = self._collection.get(include=["metadatas"])
                for meta in got["metadatas"] or []:
                    pid = str(meta["paper_id"])
                    if pid not in self._papers:
                        self._papers[pid] = _paper_from_meta(meta)
            return self._papers

    def surface_text(self) -> SurfaceText:
        """The stored titles and abstracts as plain text (built once per version of the
        paper cache), to tell whether a name in a question occurs anywhere at all."""
        with self._lock:
            papers = self.papers()
            if self._surface is None or self._surface[0] is not papers:
                self._surface = (papers, SurfaceText.of(f"{p.title} {p.text}" for p in papers.values()))
            return self._surface[1]

    def is_empty(self) -> bool:
        return self.chunk_count() == 0

    # ------------------------------------------------------------ writing

    def ingest(
        self,
        paths: Iterable[Path],
        rebuild: bool = False,
        progress: ProgressFn | None = None,
        upload: bool = False,
    ) -> IngestReport:
        """Sync the store with the given files (see sync.py for the rules). With ``upload``
        the files are uploads, known by name (``upload:<name>``), never by their path."""
        started = time.perf_counter()
        read: ReadResult = read_paths(list(paths), max_chars=self.settings.index.max_abstract_chars,
                                      upload=upload)
        report = IngestReport(skipped=read.skipped)
        with self._lock:
            self._refresh(force=True)  # never write from a stale view of the store
            if rebuild:
                self._reset()
            plan = plan_sync(self.papers(), read.files)
            report.added, report.replaced = len(plan.add), len(plan.replace)
            report.removed, report.moved = len(plan.remove), len(plan.relocate)
            report.unchanged = len(plan.unchanged) + len(plan.adopt)
            report.kept = plan.kept
            # Add (in batches of whole papers, so an interrupted ingest keeps what it
            # embedded) before deleting anything: a failure never loses stored papers.
            for nodes in self._embedded_batches(plan.to_embed, progress):
                self.vector_store.add(nodes)
                report.chunks_added += len(nodes)
                self._papers = None
                self._stamp()
            for ids in _batches(plan.to_delete):
                self._collection.delete(where={"paper_id": {"$in": ids}})
            for papers in _batches(plan.to_update):
                self._update_metadata(papers)
            if plan.to_embed or plan.to_delete or plan.to_update or rebuild:
                self._papers = None
                self._stamp()
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
        self._stamp()

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

    def _update_metadata(self, papers: list[Paper]) -> None:
        """Rewrite the stored metadata of ``papers`` (locator, title, file identity…) on all
        their chunks; the text and vectors stay."""
        by_id = {p.paper_id: p for p in papers}
        got = self._collection.get(where={"paper_id": {"$in": list(by_id)}}, include=["metadatas"])
        metas = []
        for meta in got["metadatas"]:
            paper = by_id[str(meta["paper_id"])]
            metas.append({**meta, **{k: v for k, v in _paper_meta(paper).items() if k != "abstract"}})
        if got["ids"]:
            self._collection.update(ids=got["ids"], metadatas=metas)

    # ------------------------------------------------------------ BM25

    def _build_bm25(self) -> None:
        got = self._collection.get(include=["documents", "metadatas"])
        ids: list[str] = list(got["ids"])
        if not ids:
            shutil.rmtree(self.dir / "bm25", ignore_errors=True)
            self._bm25, self._bm25_ids, self._bm25_df = None, [], None
            return
        # Titles are searched too: a CSV title often holds the method's name.
        texts = [
            f"{m.get('title', '')}. {d}" if m.get("chunk") == 0 else d
            for d, m in zip(got["documents"], got["metadatas"], strict=True)
        ]
        tokens = tokenize(texts)
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        df = document_frequencies(tokens.ids, len(tokens.vocab))
        self._bm25, self._bm25_ids, self._bm25_df = retriever, ids, df
        self._save_bm25(retriever, ids, df)

    def _save_bm25(self, retriever: bm25s.BM25, ids: list[str], df: np.ndarray) -> None:
        """Write beside the old copy, then swap: a reader in another process finds the
        whole old one, the whole new one, or none (and builds its own)."""
        tag = f"{os.getpid()}-{threading.get_ident()}"
        tmp, old, final = self.dir / f".bm25-new-{tag}", self.dir / f".bm25-old-{tag}", self.dir / "bm25"
        shutil.rmtree(tmp, ignore_errors=True)
        retriever.save(str(tmp))
        (tmp / "ids.json").write_text(json.dumps(
            {"tokenizer": TOKENIZER_VERSION, "version": self._version_seen, "ids": ids}))
        np.save(tmp / "df.npy", df)
        with contextlib.suppress(FileNotFoundError):  # none yet
            final.rename(old)
        tmp.rename(final)
        shutil.rmtree(old, ignore_errors=True)

    def _load_bm25(self) -> bm25s.BM25 | None:
        """The BM25 index saved for the store as it is now, else one built afresh."""
        if self._bm25 is None:
            bm25_dir = self.dir / "bm25"
            try:
                saved = json.loads((bm25_dir / "ids.json").read_text())
                current = (saved["tokenizer"] == TOKENIZER_VERSION
                           and saved.get("version", "") == self._version_seen
                           and len(saved["ids"]) == self._collection.count())
                if current:
                    self._bm25 = bm25s.BM25.load(str(bm25_dir))
                    self._bm25_ids = saved["ids"]
                    self._bm25_df = np.load(bm25_dir / "df.npy")
            except (OSError, ValueError, KeyError, TypeError):
                self._bm25 = None  # missing, or being replaced by another process
            if self._bm25 is None and self._collection.count():  # stale, interrupted, or old
                self._build_bm25()
        return self._bm25

    # ------------------------------------------------------------ searching

    def search_bm25(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks by BM25 (stemmed, stopwords removed)."""
        with self._lock:
            self._refresh()
            retriever = self._load_bm25()
            if retriever is None:
                return []
            vocab = retriever.vocab_dict
            known = [vocab[t] for t in query_terms(query) if t in vocab]
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

    def keyword_stats(self) -> KeywordStats:
        """The BM25 vocabulary, document frequencies and chunk count, for keywords.py."""
        with self._lock:
            self._refresh()
            self._load_bm25()
            vocab = self._bm25.vocab_dict if self._bm25 else {}
            return KeywordStats(n_docs=len(self._bm25_ids), vocab=vocab, df=self._bm25_df)

    def search_dense(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks by cosine similarity of MiniLM vectors (score = cosine)."""
        count = self.chunk_count()
        if not count:
            return []
        vector = self.embed_model.get_query_embedding(query)
        result = self.vector_store.query(
            VectorStoreQuery(query_embedding=vector, similarity_top_k=min(k, count))
        )
        hits = []
        for node, sim in zip(result.nodes or [], result.similarities or [], strict=True):
            cosine = 1.0 + math.log(max(sim, 1e-12))  # the store reports exp(-distance)
            hits.append(ChunkHit(node.node_id, str(node.metadata["paper_id"]), node.text, cosine))
        return hits


def _batches(items: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _paper_meta(paper: Paper) -> dict[str, Any]:
    return {
        "paper_id": paper.paper_id,
        "source": paper.source,
        "file": paper.file,
        "file_key": paper.file_key,
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
        file_key=str(meta.get("file_key", "")),
    )
