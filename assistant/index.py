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

With ``ASSISTANT_DATA_CHROMA_URL`` the store is a Chroma server (``chroma run``) that
processes on several machines share: the stamp then lives in the collection's metadata, and
each process rebuilds its BM25 index from the store's documents when the stamp changes
(keeping a copy in its own data directory). Chroma 1.5's own sparse/BM25 search is refused
by a self-hosted server ("Sparse vector indexing is not enabled in local").
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import re
import shutil
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

import bm25s
import chromadb
import httpx
import numpy as np
import tiktoken
from chromadb.api import ServerAPI
from chromadb.api.models.Collection import Collection
from chromadb.config import DEFAULT_DATABASE, DEFAULT_TENANT, System
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError, InternalError, NotFoundError

from assistant.corpus import (
    NO_SUCH_PATH,
    SUPPORTED_SUFFIXES,
    Paper,
    ReadResult,
    Skipped,
    derive_title,
    is_upload_key,
    read_file,
    read_paths,
    split_sentences,
)
from assistant.embedding import (
    Embedder,
    MiniLMOnnxEmbedding,
    Span,
    as_llama_embedding,
    dimension_mismatch,
    load_embedding,
)
from assistant.errors import AssistantError, BadInputError, add_secret
from assistant.imports import importing
from assistant.keywords import (
    TOKENIZER_VERSION,
    KeywordStats,
    SurfaceText,
    best_reading_scores,
    document_frequencies,
    query_terms,
    tokenize,
)
from assistant.naming import PhraseText
from assistant.settings import DEFAULT_COLLECTION, Settings
from assistant.sync import Gone, Kept, plan_sync
from assistant.types import Filters

if TYPE_CHECKING:  # llama_index is imported by the ingest only: a question needs none of it
    from llama_index.core import VectorStoreIndex
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.schema import TextNode
    from llama_index.vector_stores.chroma import ChromaVectorStore

# Chroma's defaults found a stored vector only 67–93% of the time at 20k vectors on these
# machines; a wider graph and search beam buy recall for ~1 ms (bench/ann_recall.py).
HNSW_CONFIG = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32}
ProgressFn = Callable[[int, int, str], None]
VERSION_FILE = "store-version"  # rewritten after every write; readers compare it
VERSION_KEY = "store_version"  # the same stamp in the collection's metadata, with a server
REFRESH_SECONDS = 1.0  # how often a read path looks at it
QUERY_CACHE = 256  # question vectors remembered (``query_vector``)
PAGE_CHUNKS = 1000  # chunks' metadata read at a time (``papers``)
SENTENCES_KEY = "sentence_vectors"  # a chunk's metadata: vectors of the sentences it holds
SENTENCES_FORMAT = "s1"  # bumped when split_sentences or the packing changes
# What LlamaIndex's ``node_to_metadata_dict`` added to every chunk (stores written before
# the lean layout): a JSON copy of the node (the paper's fields and abstract again, ~12 KB a
# chunk on the NeurIPS store) and its document id three times. Nothing of ours reads them,
# and LlamaIndex's own Chroma reader rebuilds a node from the plain keys without them.
LLAMA_KEYS = ("_node_content", "_node_type", "doc_id", "document_id", "ref_doc_id")


class IndexConfigError(AssistantError):
    """The index cannot be used as configured; the message says what to do."""


class EmbeddingMismatchError(IndexConfigError):
    pass


class _Guarded:
    """A Chroma client or collection whose failures are one line naming the store: a
    server that stops answering (it was a traceback of httpx's, in the CLI and in every
    UI handler) or an embedded store that cannot write (a full disk: Chroma's
    InternalError). Its NotFoundError passes: the code reads it as another process's
    --rebuild. A collection a call returns is guarded too."""

    def __init__(self, target: Any, where: str, server: str | None) -> None:
        self._target, self._where, self._server = target, where, server

    @property
    def unguarded(self) -> Any:
        return self._target

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = value(*args, **kwargs)
            except httpx.TransportError as exc:
                raise IndexConfigError(_unreachable(self._server or "", exc)) from exc
            except NotFoundError:
                raise
            except InternalError as exc:
                raise IndexConfigError(
                    f"the index at {self._where} failed: {exc}; check that its disk has free "
                    "space and is writable, then run the command again (what was stored "
                    "before stays)") from exc
            except ChromaError as exc:
                raise IndexConfigError(f"the index at {self._where} refused a request: "
                                       f"{exc}") from exc
            return _Guarded(result, self._where, self._server) if isinstance(
                result, Collection) else result

        return call


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
    # Stored papers removed because their file is no longer in a folder the ingest read.
    gone: list[Gone] = field(default_factory=list)
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

    def __init__(self, settings: Settings, embed_model: Embedder | None = None,
                 rebuilding: bool = False) -> None:
        self.settings = settings
        self.dir = Path(settings.data.dir)
        self._lock = threading.RLock()
        self._rebuilding = rebuilding  # a --rebuild replaces the collection whatever built it
        self.server = _without_credentials(settings.data.chroma_url)
        self._latest: Any = None  # a server's collection as ``_read_version`` last saw it
        # Each collection of a data dir has its own BM25 copy and version stamp (another
        # collection's copy of as many chunks was read as this one's); the default keeps
        # the names stores have always had.
        own = "" if settings.data.collection == DEFAULT_COLLECTION else f"-{settings.data.collection}"
        self._bm25_dir = self.dir / f"bm25{own}"
        self._version_file = self.dir / f"{VERSION_FILE}{own}"
        if self.server:
            self._client = _Guarded(_http_client(self.server), self.server, self.server)
            # This process's copy of the BM25 index, apart from an embedded store's.
            where = urlsplit(self.server)
            self._bm25_dir = self.dir / (f"bm25-{where.hostname}-{where.port or 'default'}-"
                                         f"{settings.data.collection}")
            with contextlib.suppress(OSError):  # no copy on disk then: rebuilt when needed
                self.dir.mkdir(parents=True, exist_ok=True)
        else:
            try:
                (self.dir / "chroma").mkdir(parents=True, exist_ok=True)
                self._client = _Guarded(chromadb.PersistentClient(
                    path=str(self.dir / "chroma"),
                    settings=ChromaSettings(anonymized_telemetry=False, allow_reset=True),
                ), str(self.dir), None)
            except Exception as exc:  # OSError, or Chroma's own errors for an unusable path
                raise IndexConfigError(f"cannot open the index in {self.dir}: {exc}; choose "
                                       "another directory with --data-dir or "
                                       "ASSISTANT_DATA_DIR") from exc
        self._embed_name = settings.index.embed_model
        if self.server:  # the version lives in the collection: open it first
            self._collection = self._open_collection()
            self._version_seen = self._read_version()
        else:
            self._version_seen = self._read_version()
            self._collection = self._open_collection()
        if not self.server and not self._version_seen and self._collection.count():
            # a store written before its collection had a stamp of its own (another collection
            # of the dir, or a version without stamps): stamped once, so that its BM25 copy and
            # papers are saved and read, not rebuilt from Chroma by every process
            with contextlib.suppress(OSError):  # a read-only data dir: rebuilt each time then
                self._stamp()
        self._version_checked = time.monotonic()
        self._embed_model = embed_model
        self._query_vectors: OrderedDict[str, np.ndarray] = OrderedDict()  # LRU, QUERY_CACHE
        self._bm25: bm25s.BM25 | None = None
        self._bm25_ids: list[str] = []
        self._bm25_df: np.ndarray | None = None
        self._bm25_owner: list[str] | None = None  # the _bm25_ids the two below were made for
        self._bm25_pids = np.zeros(0, dtype=object)  # each paper once, in chunk order
        self._bm25_owner_of = np.zeros(0, dtype=np.int64)
        self._bm25_order = np.zeros(0, dtype=np.int64)  # chunks grouped by paper, in pid order
        self._bm25_starts = np.zeros(0, dtype=np.int64)  # where each paper's group starts
        self._count: tuple[str, int] | None = None  # (store version, chunks) last counted
        self._venues: tuple[dict[str, Paper], list[str]] | None = None
        self._papers: dict[str, Paper] | None = None
        self._surface: tuple[dict[str, Paper], SurfaceText] | None = None
        self._bm25_surface: SurfaceText | None = None  # saved with the BM25 index, same texts
        self._phrases: tuple[dict[str, Paper], PhraseText] | None = None

    # ------------------------------------------------------------ opening

    def _open_collection(self) -> Any:
        name = self.settings.data.collection
        existing = {c.name for c in self._client.list_collections()}
        if name in existing:
            return self._checked(self._client.get_collection(name))
        try:
            return self._client.create_collection(
                name,
                metadata={"embed_model": self._embed_name, "created": time.time()},
                configuration={"hnsw": HNSW_CONFIG},
            )
        except Exception as exc:  # a server: another process may have just created it
            if not self.server:
                raise
            try:
                return self._checked(self._client.get_collection(name))
            except EmbeddingMismatchError:
                raise
            except Exception:
                raise IndexConfigError(f"cannot create the collection '{name}' at {self.where}: "
                                       f"{exc}") from exc

    def _checked(self, collection: Any) -> Any:
        """``collection``, refused when another embedding model built it; an empty one (a
        first ingest that failed, with a mistyped model) is not (an ingest then labels it
        with the configured model), and a --rebuild replaces it anyway."""
        built_with = (collection.metadata or {}).get("embed_model")
        if built_with and built_with != self._embed_name and not self._rebuilding:
            if collection.count() == 0:  # relabelled by this process's first write only
                return collection
            raise EmbeddingMismatchError(
                f"the index at {self.where} was built with the embedding model '{built_with}', "
                f"but '{self._embed_name}' is configured. Rebuild it with "
                "`assistant ingest --rebuild`, or set "
                f"ASSISTANT_INDEX_EMBED_MODEL={built_with}."
            )
        return collection

    # ------------------------------------------------------------ other writers

    @property
    def where(self) -> str:
        """The store, as messages name it: a server and collection, or a directory."""
        if self.server:
            return f"{self.server} (collection '{self.settings.data.collection}')"
        return str(self.dir)

    def _read_version(self) -> str:
        """The store's version: a file beside the embedded store; in server mode the
        collection's id and its metadata's stamp (processes may share no disk)."""
        if not self.server:
            try:
                return self._version_file.read_text()
            except (OSError, ValueError):  # none, or garbage (not UTF-8): written anew
                return ""
        try:
            collection = self._client.get_collection(self.settings.data.collection)
        except NotFoundError:  # mid-way through another process's --rebuild
            self._latest = None
            return ""
        self._latest = collection
        return f"{collection.id} {(collection.metadata or {}).get(VERSION_KEY, '')}"

    def _stamp(self) -> None:
        """Mark the store as written (after every write), for readers in other processes."""
        stamp = f"{time.time_ns()} {os.getpid()} {uuid.uuid4().hex}"
        if self.server:
            # Only this key changes; the others (embed_model, created) are set at creation.
            self._collection.modify(metadata={**(self._collection.metadata or {}),
                                              VERSION_KEY: stamp})
            self._version_seen = f"{self._collection.id} {stamp}"
            return
        tmp = self.dir / f".{self._version_file.name}.{os.getpid()}.{threading.get_ident()}"
        tmp.write_text(stamp)
        os.replace(tmp, self._version_file)
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
        self._bm25_surface = None
        if self._reopen_collection():
            self._version_seen = current  # else: looked at again next time

    def _reopen_collection(self) -> bool:
        """A Chroma view of the store as it is now. Chroma keeps one client per path per
        process, holding the vector index as it was loaded; a private one of our own sees
        what the other process wrote, and leaves anyone else's client in this process be.
        The one it replaces is left to the garbage collector: a search may still use it.
        A server always answers with the store as it is now: only a --rebuild elsewhere
        (a new collection id) needs the handle that ``_read_version`` just fetched."""
        if self.server:
            if self._latest is None:
                return False
            self._collection = self._checked(self._latest)
            return True
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
        self._collection = self._checked(_Guarded(Collection(client=api, model=model),
                                                  str(self.dir), None))
        return True

    @property
    def embed_model(self) -> Embedder:
        if self._embed_model is None:
            self._embed_model = load_embedding(self.settings)
        return self._embed_model

    @property
    def vector_store(self) -> ChromaVectorStore:
        from llama_index.vector_stores.chroma import ChromaVectorStore

        return ChromaVectorStore(chroma_collection=self._collection.unguarded)

    def vector_index(self) -> VectorStoreIndex:
        """LlamaIndex's plain vector index over the same store (the dense-only baseline)."""
        from llama_index.core import VectorStoreIndex

        return VectorStoreIndex.from_vector_store(self.vector_store,
                                                  embed_model=as_llama_embedding(self.embed_model))

    # ------------------------------------------------------------ reading

    def chunk_count(self) -> int:
        """The stored chunks, counted again only when the store's version changed (a count
        cost Chroma ~10 ms, once per question)."""
        with self._lock:
            self._refresh()
            if self._count is None or self._count[0] != self._version_seen or not self._version_seen:
                self._count = (self._version_seen, int(self._collection.count()))
            return self._count[1]

    def papers(self) -> dict[str, Paper]:
        """All stored papers by id, read from the chunks' metadata (cached until a write,
        here or by another process): the copy saved beside the BM25 index when it was made
        for the store as it is now (reading every chunk's metadata from Chroma took 10-15 s
        at 13.9k papers, most of a new process's first answer), else Chroma's."""
        with self._lock:
            self._refresh()
            if self._papers is None:
                self._papers = self._saved_papers()
            if self._papers is None:
                self._papers = {}
                # In pages: one get of every chunk's metadata held 1.2 GB at 21.8k chunks
                # (the allocator kept it), pages of PAGE_CHUNKS about a third of that.
                offset = 0
                partial: set[str] = set()  # see _gather_papers
                while True:
                    got = self._collection.get(include=["metadatas"], limit=PAGE_CHUNKS,
                                               offset=offset)
                    _gather_papers(self._papers, partial, got["metadatas"] or [])
                    offset += PAGE_CHUNKS
                    if len(got["ids"]) < PAGE_CHUNKS:
                        break
            return self._papers

    def _saved_copy(self) -> dict[str, Any] | None:
        """``ids.json`` of the copy saved beside the store (BM25, the papers, the corpus
        words) when it was made for the store as it is now: same collection, tokenizer,
        version stamp and chunk count, and the proper words in it (a copy saved before they were kept is
        built again, once, rather than every process building them: 3-4 s at 13.9k)."""
        try:
            saved = json.loads((self._bm25_dir / "ids.json").read_text())
            current = (saved["tokenizer"] == TOKENIZER_VERSION
                       and saved.get("collection") == str(self._collection.id)
                       and saved.get("version", "") == self._version_seen
                       and len(saved["ids"]) == self.chunk_count()
                       and isinstance(saved.get("proper"), list))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none saved, or being replaced by another process
        return saved if current else None

    def _saved_papers(self) -> dict[str, Paper] | None:
        if not self._version_seen or self._saved_copy() is None:
            return None
        try:
            metas = json.loads((self._bm25_dir / "papers.json").read_text(encoding="utf-8"))
            if metas.get("version") != self._version_seen:  # both files of one save
                return None
            return {str(m["paper_id"]): _paper_from_meta(m) for m in metas["papers"]}
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none saved, an older copy, or one being replaced

    def surface_text(self) -> SurfaceText:
        """The stored titles and abstracts as plain text, to tell whether a name in a
        question occurs anywhere at all: saved beside the BM25 index (from the same chunk
        texts, which hold every title and abstract), else built once per paper cache (3-4 s
        at 13.9k papers, which the first answered question pays)."""
        with self._lock:
            self._refresh()
            self._load_bm25()
            if self._bm25_surface is not None:
                return self._bm25_surface
            papers = self.papers()
            if self._surface is None or self._surface[0] is not papers:
                self._surface = (papers, SurfaceText.of((f"{p.title} {p.text}" for p in papers.values()),
                                                        (p.text for p in papers.values())))
            return self._surface[1]

    def phrase_text(self) -> PhraseText:
        """The stored papers as one string for phrase look-ups (``naming.PhraseText``),
        built once per paper cache."""
        with self._lock:
            papers = self.papers()
            if self._phrases is None or self._phrases[0] is not papers:
                self._phrases = (papers, PhraseText.of(papers))
            return self._phrases[1]

    def is_empty(self) -> bool:
        return self.chunk_count() == 0

    @property
    def _rebuild_marker(self) -> Path:
        return self.dir / f".rebuilding-{self.settings.data.collection}"

    def rebuild_under_way(self) -> bool:
        """Another process's --rebuild has emptied this store and is filling it again:
        seeding it now would mix the seeds into the rebuilt index. A marker whose process is
        gone (an interrupted rebuild) is stale, and removed."""
        if self.server:
            return False
        try:
            pid = int(self._rebuild_marker.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            self._rebuild_marker.unlink(missing_ok=True)
            return False
        except PermissionError:  # another user's live process
            return True
        return True

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
        paths = [Path(p) for p in paths]
        read: ReadResult = read_paths(paths, max_chars=self.settings.index.max_abstract_chars,
                                      upload=upload)
        report = IngestReport(skipped=read.skipped)
        # a path that is not there, or a file that cannot be read (not a README beside them)
        unread = [s.file for s in read.skipped if s.whole_file and (
            s.reason == NO_SUCH_PATH or Path(s.file).suffix.lower() in SUPPORTED_SUFFIXES)]
        if rebuild and (unread or not read.papers):  # a mistyped path must not empty the store
            what = f"could not read {', '.join(unread)}" if unread else "read no abstract"
            raise BadInputError(f"--rebuild {what}, so the index at {self.where} was left as "
                                "it was; check the paths and run it again")
        before: set[str] = set()  # a --rebuild's stored papers, to count what it removes
        with self._lock:
            self._refresh(force=True)  # never write from a stale view of the store
            built_with = (self._collection.metadata or {}).get("embed_model")
            if not rebuild and built_with != self._embed_name and self.chunk_count() == 0:
                # an empty collection a failed first ingest labelled: this model's now
                self._collection.modify(metadata={**(self._collection.metadata or {}),
                                                  "embed_model": self._embed_name})
            if rebuild:
                # the model must embed before anything is deleted (an endpoint that is down)
                self.embed_model.embed([read.papers[0].text[:200]])
                before = set(self.papers())
                with contextlib.suppress(OSError):  # for other processes: not empty, refilling
                    self._rebuild_marker.write_text(f"{os.getpid()}\n")
                self._reset()
            stored = self.papers()
            keys = _file_keys(stored)
            present = self._files_on_disk(keys)
            deleted = set() if upload else _deleted_from(paths, read, keys - present)
            plan = plan_sync(stored, read.files, deleted, present)
            unknown = {pid for pid in plan.to_delete if stored[pid].held_by is None}
            if unknown:  # stored before holders were recorded: look in the files on disk
                found = self._held_elsewhere(unknown, present - {f.key for f in read.files})
                if found:
                    stored = {**stored, **{pid: replace(stored[pid], held_by=holders)
                                           for pid, holders in found.items()}}
                    plan = plan_sync(stored, read.files, deleted, present)
            report.added, report.replaced = len(plan.add), len(plan.replace)
            report.removed, report.moved = len(plan.remove), len(plan.relocate)
            report.unchanged = len(plan.unchanged) + len(plan.adopt)
            report.kept, report.gone = plan.kept, plan.gone
            # Add (in batches of whole papers, so an interrupted ingest keeps what it
            # embedded) before deleting anything: a failure never loses stored papers. A
            # thread writes each batch while the next is embedded: one write at a time, in
            # order, and the one under way always finishes, even on an interrupt.
            def write(nodes: list[TextNode]) -> int:
                self._add_nodes(nodes)
                self._papers = None
                self._stamp()
                return len(nodes)

            with ThreadPoolExecutor(1, thread_name_prefix="chroma-write") as writer:
                pending: Future[int] | None = None
                try:
                    for nodes in self._embedded_batches(plan.to_embed, progress):
                        if pending is not None:
                            report.chunks_added += pending.result()
                        pending = writer.submit(write, nodes)
                    if pending is not None:
                        report.chunks_added += pending.result()
                except NotFoundError as exc:  # the collection went: another process's rebuild
                    raise IndexConfigError(
                        f"another process rebuilt the index at {self.where} while this ingest "
                        "ran; run the ingest again to add these files to it") from exc
            for ids in _batches(plan.to_delete):
                self._collection.delete(where={"paper_id": {"$in": ids}})
            for papers in _batches(plan.to_update):
                self._update_metadata(papers)
            if plan.to_embed or plan.to_delete or plan.to_update or rebuild:
                self._papers = None
                self._stamp()
                self._build_bm25()
            if rebuild:  # a stored paper the files no longer hold is counted as removed
                report.removed = len(before - set(self.papers()))
                self._rebuild_marker.unlink(missing_ok=True)
            report.papers_total = len(self.papers())
            report.chunks_total = self.chunk_count()
        report.seconds = time.perf_counter() - started
        return report

    @staticmethod
    def _files_on_disk(keys: set[str]) -> set[str]:
        """The stored files still there (a link whose drive is away too: no deletion), and
        every upload: a paper moving from one of them to another file leaves it recorded as
        a holder."""
        return {k for k in keys if is_upload_key(k) or (k and os.path.lexists(k))}

    def _held_elsewhere(self, ids: set[str], keys: set[str]) -> dict[str, tuple[tuple[str, str], ...]]:
        """For papers stored before their holders were recorded, the other stored files on
        disk that hold them (read now; one that cannot be read counts as holding none)."""
        found: dict[str, dict[str, str]] = {}
        for key in sorted(k for k in keys if k and not is_upload_key(k)):
            try:
                papers, _ = read_file(Path(key), self.settings.index.max_abstract_chars, key)
            except OSError:
                continue
            for paper in papers:
                if paper.paper_id in ids:
                    found.setdefault(paper.paper_id, {}).setdefault(key, paper.source)
        return {pid: tuple(holders.items()) for pid, holders in found.items()}

    def _reset(self) -> None:
        self._client.delete_collection(self.settings.data.collection)
        shutil.rmtree(self._bm25_dir, ignore_errors=True)
        self._collection = self._open_collection()
        self._papers = None
        self._bm25, self._bm25_surface = None, None
        self._stamp()

    def _add_nodes(self, nodes: list[TextNode]) -> None:
        """Write embedded chunks: each with its paper's fields (``_paper_meta``), its number
        and its sentence vectors; the abstract only on chunk 0 (``papers`` reads it there).
        None of LlamaIndex's ``LLAMA_KEYS``: they were 60% of a chunk's bytes, and its
        ChromaVectorStore reads the plain layout too (the eval's dense baseline)."""
        from llama_index.core.schema import MetadataMode

        metadatas = []
        for node in nodes:
            meta = {k: "" if v is None else v for k, v in node.metadata.items()}
            if meta.get("chunk", 0) != 0:
                meta.pop("abstract", None)
            metadatas.append(meta)
        for start in range(0, len(nodes), 5000):
            part = slice(start, start + 5000)
            self._collection.add(
                ids=[n.node_id for n in nodes[part]],
                embeddings=[n.get_embedding() for n in nodes[part]],
                metadatas=metadatas[part],
                documents=[n.get_content(metadata_mode=MetadataMode.NONE) for n in nodes[part]],
            )

    def _splitter(self) -> SentenceSplitter:
        from llama_index.core.node_parser import SentenceSplitter

        encoding = tiktoken.get_encoding("cl100k_base")
        return SentenceSplitter(
            chunk_size=self.settings.index.chunk_size,
            chunk_overlap=self.settings.index.chunk_overlap,
            tokenizer=encoding.encode,
        )

    def _embedded_batches(
        self, papers: list[Paper], progress: ProgressFn | None
    ) -> Iterator[list[TextNode]]:
        """Chunk and embed ``papers``; yields embedded nodes, whole papers per batch (about
        32 embedding batches: 1,024 chunks by default, about a minute of work on 2 cores that
        an interrupt loses; each is sorted by length before it is embedded, and the bigger it is, the less
        padding: on the 2016 abstracts 6% more tokens than one global sort at 256 chunks, 2%
        at 1,024), for the caller to write as they come.

        For throughput (bench/ingest.py): a thread chunks the next batches while this one is
        embedded (onnxruntime and the tokenizers release the GIL); a batch is embedded in one
        call, tokenized once and run in length-sorted sub-batches (``_embed_nodes``), and the
        caller writes it while the next is embedded. Progress counts abstracts."""
        if not papers:
            return
        per_write = max(16, 32 * self.settings.index.embed_batch_size)  # chunks, about
        stop = threading.Event()
        chunked: queue.Queue[tuple[int, list[TextNode]] | BaseException | None] = queue.Queue(2)

        def put(item: tuple[int, list[TextNode]] | BaseException | None) -> None:
            while not stop.is_set():
                with contextlib.suppress(queue.Full):
                    chunked.put(item, timeout=0.2)
                    return

        def chunk_all() -> None:
            try:
                with importing():  # LlamaIndex's first import: ~2 s before the first chunk
                    from llama_index.core.schema import Document

                splitter = self._splitter()
                batch: list[TextNode] = []
                count, first = 0, True
                for paper in papers:
                    if stop.is_set():
                        return
                    doc = Document(text=paper.text, doc_id=paper.paper_id,
                                   metadata=_paper_meta(paper))
                    doc.excluded_embed_metadata_keys = list(doc.metadata)
                    doc.excluded_llm_metadata_keys = list(doc.metadata)
                    nodes = splitter.get_nodes_from_documents([doc])
                    for i, node in enumerate(nodes):
                        node.id_ = _chunk_id(paper.paper_id, i)
                        node.metadata["chunk"] = i
                    batch.extend(nodes)
                    count += 1
                    if len(batch) >= per_write or (first and len(batch) >= per_write // 32):
                        put((count, batch))  # a small first batch starts the embedder early
                        batch, count, first = [], 0, False
                if batch:
                    put((count, batch))
                put(None)
            except BaseException as exc:  # handed to the caller's thread, raised there
                put(exc)

        chunker = threading.Thread(target=chunk_all, name="chunker", daemon=True)
        chunker.start()
        try:
            model = self.embed_model  # loads while the first batch is chunked
            got = self._collection.get(limit=1, include=["embeddings"])
            stored = got.get("embeddings")
            stored_dim = len(stored[0]) if stored is not None and len(stored) else None
            total, done = len(papers), 0
            if progress:
                progress(0, total, "embedding abstracts")
            while (item := chunked.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                count, nodes = item
                embedded = [0]  # texts of this batch embedded so far

                def step(n: int, before: int = done, count: int = count, size: int = len(nodes),
                         embedded: list[int] = embedded) -> None:
                    embedded[0] += n
                    if progress:
                        progress(before + count * embedded[0] // size, total, "embedding abstracts")

                vectors = _embed_nodes(model, nodes, step)
                if stored_dim is not None and len(vectors) and vectors.shape[1] != stored_dim:
                    raise dimension_mismatch(vectors.shape[1], stored_dim, model.model_name)
                stored_dim = stored_dim or (vectors.shape[1] if len(vectors) else None)
                for node, vector in zip(nodes, vectors.tolist(), strict=True):
                    node.embedding = vector
                done += count
                if progress:
                    progress(done, total, "embedding abstracts")
                yield nodes
        finally:
            stop.set()

    def set_titles(self, titles: Mapping[str, tuple[str, str]], rebuild_bm25: bool = True
                   ) -> int:
        """Store model-written titles, paper id → (title, model), on the papers' chunks (a
        paper no longer stored is passed over); the text, vectors and BM25 terms stay (BM25
        never reads a model's title). ``rebuild_bm25=False`` defers the saved copy of the
        papers to a later call, for writers that store titles a batch at a time. Returns how
        many papers got their title."""
        with self._lock:
            self._refresh(force=True)
            stored = self.papers()
            papers = [replace(stored[pid], title=title, title_model=model)
                      for pid, (title, model) in titles.items() if pid in stored]
            for batch in _batches(papers):
                self._update_metadata(batch)
            if papers:
                self._papers = None
                self._stamp()
            if rebuild_bm25 and (papers or self._saved_copy() is None):
                self._build_bm25()
            return len(papers)

    def _update_metadata(self, papers: list[Paper]) -> None:
        """Rewrite the stored metadata of ``papers`` (locator, title, file identity…) on all
        their chunks; the text and vectors stay."""
        by_id = {p.paper_id: p for p in papers}
        got = self._collection.get(where={"paper_id": {"$in": list(by_id)}}, include=["metadatas"])
        metas = []
        for meta in got["metadatas"]:
            paper = by_id[str(meta["paper_id"])]
            fresh = {k: v for k, v in _paper_meta(paper).items() if k != "abstract"}
            if paper.year is None:
                fresh["year"] = None  # Chroma merges on update; None removes a year no longer given
            # A chunk of the earlier layout sheds LlamaIndex's copy of the node, which would
            # keep the old locator (LlamaIndex's reader prefers it to the plain keys).
            fresh.update({key: None for key in LLAMA_KEYS if key in meta})
            metas.append({**meta, **fresh})
        if got["ids"]:
            self._collection.update(ids=got["ids"], metadatas=metas)

    # ------------------------------------------------------------ BM25

    def _build_bm25(self) -> None:
        got = self._get_all(["documents", "metadatas"])
        ids: list[str] = list(got["ids"])
        if not ids:
            shutil.rmtree(self._bm25_dir, ignore_errors=True)
            self._bm25, self._bm25_ids, self._bm25_df = None, [], None
            self._bm25_surface = None
            return
        # Titles are searched too: a CSV title often holds the method's name.
        texts = [
            f"{_searched_title(m)}. {d}" if m.get("chunk") == 0 else d
            for d, m in zip(got["documents"], got["metadatas"], strict=True)
        ]
        tokens = tokenize(texts)
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        df = document_frequencies(tokens.ids, len(tokens.vocab))
        self._bm25, self._bm25_ids, self._bm25_df = retriever, ids, df
        papers: dict[str, Paper] = {}
        _gather_papers(papers, set(), got["metadatas"])
        self._bm25_surface = SurfaceText.of(texts, (p.text for p in papers.values()))
        try:
            self._save_bm25(retriever, ids, df, self._bm25_surface,
                            [_paper_meta(p) for p in papers.values()])
        except OSError:
            if not self.server:  # with a server the copy on disk is only a shortcut
                raise

    def _get_all(self, include: list[str]) -> dict[str, list[Any]]:
        """Every chunk's ids and ``include`` fields, read PAGE_CHUNKS at a time: one get of
        all of them fails past ~32k chunks in the embedded store ("too many SQL
        variables", bench/scale.py at 50k)."""
        out: dict[str, list[Any]] = {"ids": [], **{key: [] for key in include}}
        offset = 0
        while True:
            got = self._collection.get(include=include, limit=PAGE_CHUNKS, offset=offset)
            for key in out:
                page = got[key]  # embeddings come as one numpy array
                out[key].extend([] if page is None else page)
            offset += PAGE_CHUNKS
            if len(got["ids"]) < PAGE_CHUNKS:
                return out

    def _save_bm25(self, retriever: bm25s.BM25, ids: list[str], df: np.ndarray,
                   surface: SurfaceText, papers: list[dict[str, Any]]) -> None:
        """Write beside the old copy, then swap: a reader in another process finds the
        whole old one, the whole new one, or none (and builds its own)."""
        tag = f"{os.getpid()}-{threading.get_ident()}"
        tmp, old, final = self.dir / f".bm25-new-{tag}", self.dir / f".bm25-old-{tag}", self._bm25_dir
        shutil.rmtree(tmp, ignore_errors=True)
        retriever.save(str(tmp))
        (tmp / "ids.json").write_text(json.dumps(
            {"tokenizer": TOKENIZER_VERSION, "version": self._version_seen, "ids": ids,
             "proper": sorted(surface.proper),
             # whose copy: a data dir's collections shared one before, and such a copy of as
             # many chunks passed for another's (an older copy, without it, is built again)
             "collection": str(self._collection.id)}))
        np.save(tmp / "df.npy", df)
        (tmp / "surface.txt").write_text("\n".join(sorted(surface.words)), encoding="utf-8")
        (tmp / "papers.json").write_text(json.dumps({"version": self._version_seen,
                                                     "papers": papers}), encoding="utf-8")
        with contextlib.suppress(FileNotFoundError):  # none yet
            final.rename(old)
        tmp.rename(final)
        shutil.rmtree(old, ignore_errors=True)

    def _load_bm25(self) -> bm25s.BM25 | None:
        """The BM25 index saved for the store as it is now, else one built afresh."""
        if self._bm25 is None:
            bm25_dir = self._bm25_dir
            try:
                saved = self._saved_copy()
                if saved is not None:
                    self._bm25 = bm25s.BM25.load(str(bm25_dir))
                    self._bm25_ids = saved["ids"]
                    self._bm25_df = np.load(bm25_dir / "df.npy")
                    self._bm25_surface = None
                    with contextlib.suppress(OSError):  # a copy saved before it was kept
                        words = (bm25_dir / "surface.txt").read_text(encoding="utf-8").split("\n")
                        self._bm25_surface = SurfaceText(frozenset(words) - {""},
                                                         frozenset(saved["proper"]))
            except (OSError, ValueError, KeyError, TypeError, EOFError):
                self._bm25, self._bm25_surface = None, None  # missing, damaged, or being replaced
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
                pid = _paper_of(cid)
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
        # Straight to Chroma: LlamaIndex's query rebuilt a node from JSON for every hit.
        # No metadata: the paper is in the chunk's id, and the metadata (the abstract, its
        # sentence vectors, LlamaIndex's node copy; ~13 KB a chunk) doubled the query's time.
        try:
            got = self._collection.query(query_embeddings=[vector.tolist()],
                                         n_results=min(k, count), where=where,
                                         include=["documents", "distances"])
        except Exception as exc:  # an openai: endpoint now serving another model
            expected = re.search(r"dimension of (\d+)", str(exc))
            if expected is None:
                raise
            raise dimension_mismatch(len(vector), int(expected.group(1)),
                                     self._embed_name) from exc
        return [ChunkHit(cid, _paper_of(cid), text or "", 1.0 - float(distance))
                for cid, text, distance in zip(got["ids"][0], got["documents"][0],
                                               got["distances"][0], strict=True)]

    def sentence_vectors(self, papers: Iterable[Paper]) -> dict[str, np.ndarray]:
        """The stored vectors of each paper's sentences (``split_sentences`` order), for the
        papers whose chunks hold all of them (indexed by this version with MiniLM); the
        others are left out, and the caller embeds their sentences itself."""
        wanted = {p.paper_id: len(split_sentences(p.text)) for p in papers}
        if not wanted:
            return {}
        with self._lock:
            self._refresh()
            got = self._collection.get(where={"paper_id": {"$in": list(wanted)}},
                                       include=["metadatas"])
        rows: dict[str, dict[int, np.ndarray]] = {}
        for meta in got["metadatas"] or []:
            pid = str(meta["paper_id"])
            unpacked = _unpack_sentences(meta.get(SENTENCES_KEY), wanted.get(pid, -1))
            for i, vector in unpacked:
                rows.setdefault(pid, {})[i] = vector
        out = {}
        for pid, count in wanted.items():
            found = rows.get(pid, {})
            if count and len(found) == count:
                out[pid] = np.stack([found[i] for i in range(count)]).astype(np.float32)
        return out

    def chunk_texts(self) -> tuple[list[str], list[str]]:
        """(paper id, text) of every stored chunk, titles left out (for training the ranker
        on title queries without the title in the documents)."""
        with self._lock:
            self._refresh()
            got = self._collection.get(include=["documents", "metadatas"])
        return [str(m["paper_id"]) for m in got["metadatas"]], list(got["documents"])

    def chunk_vectors(self) -> tuple[list[str], np.ndarray]:
        """Every stored chunk's paper id and vector (benches that learn from the store)."""
        with self._lock:
            self._refresh()
            got = self._get_all(["embeddings"])
        return [_paper_of(cid) for cid in got["ids"]], np.asarray(got["embeddings"], dtype=np.float32)

    def query_vector(self, query: str) -> np.ndarray:
        """The question's vector (unit length, as the store's), for ``paper_cosines``;
        remembered for the last QUERY_CACHE questions (retrieval and the extractive composer
        both need it, and the UI's examples come back)."""
        with self._lock:
            found = self._query_vectors.get(query)
            if found is not None:
                self._query_vectors.move_to_end(query)
                return found
        vector = np.asarray(self.embed_model.embed([query])[0], dtype=np.float32)
        vector.setflags(write=False)
        with self._lock:
            self._query_vectors[query] = vector
            while len(self._query_vectors) > QUERY_CACHE:
                self._query_vectors.popitem(last=False)
        return vector

    def venues(self) -> list[str]:
        """The stored venues and collections (for the UI's filter and every question's
        stated venue; kept until the paper cache changes)."""
        with self._lock:
            papers = self.papers()
            if self._venues is None or self._venues[0] is not papers:
                self._venues = (papers, sorted({p.venue for p in papers.values() if p.venue},
                                               key=str.casefold))
            return self._venues[1]

    def chroma_where(self, filters: Filters) -> dict[str, Any] | None:
        """``filters`` as a Chroma ``where``: the same papers as ``Filters.allows`` (a venue
        matches case-insensitively, so it becomes the stored spellings that match)."""
        clauses: list[dict[str, Any]] = []
        if filters.years is not None:
            clauses += [{"year": {"$gte": filters.years[0]}}, {"year": {"$lte": filters.years[1]}}]
        if filters.venue:
            wanted = filters.venue.casefold()
            spellings = [v for v in self.venues() if v.casefold() == wanted] or [filters.venue]
            clauses.append({"venue": {"$in": spellings}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def bm25_paper_scores(self, query: str, allowed: Container[str] | None = None
                          ) -> dict[str, float]:
        """Every paper's best BM25 chunk score for ``query`` (papers scoring 0 left out): the
        whole ranking, so a paper that only the dense side found still gets its BM25 score.
        With ``allowed`` (paper ids passing a filter) every other chunk is masked to 0."""
        with self._lock:
            self._refresh()
            retriever = self._load_bm25()
            if retriever is None:
                return {}
            if self._bm25_owner is not self._bm25_ids:  # chunk → paper, once per BM25 index
                pids = [_paper_of(cid) for cid in self._bm25_ids]
                self._bm25_pids = np.array(list(dict.fromkeys(pids)), dtype=object)
                position = {pid: i for i, pid in enumerate(self._bm25_pids)}
                self._bm25_owner_of = np.fromiter((position[p] for p in pids), dtype=np.int64)
                # chunks sorted by paper, for one maximum per paper (reduceat, not ufunc.at)
                self._bm25_order = np.argsort(self._bm25_owner_of, kind="stable")
                owners = self._bm25_owner_of[self._bm25_order]
                self._bm25_starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
                self._bm25_owner = self._bm25_ids
            mask = None
            if allowed is not None:
                keep = np.fromiter((pid in allowed for pid in self._bm25_pids), dtype=bool,
                                   count=len(self._bm25_pids))
                mask = keep[self._bm25_owner_of].astype(np.float32)
            scores = best_reading_scores(query, retriever.vocab_dict,
                                         lambda ids: retriever.get_scores(ids, weight_mask=mask))
            if scores is None:
                return {}
            best = np.maximum.reduceat(scores[self._bm25_order],
                                       self._bm25_starts)
            found = np.flatnonzero(best > 0)
            papers = self.papers()
            return {pid: score for pid, score in zip(self._bm25_pids[found].tolist(),
                                                     best[found].tolist(), strict=True)
                    if pid in papers}

    def paper_vector(self, paper_id: str) -> np.ndarray | None:
        """The mean of a stored paper's chunk vectors, unit length (None when no such paper):
        the query vector for papers like it, read from the store, so nothing is re-embedded."""
        with self._lock:
            self._refresh()
            got = self._collection.get(where={"paper_id": paper_id}, include=["embeddings"])
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
        with self._lock:
            self._refresh()
            # vectors only: the paper is in the chunk's id ("<paper>:<n>"), and the metadata
            # (the abstract, the sentence vectors) would be most of the bytes read
            got = self._collection.get(where={"paper_id": {"$in": ids}}, include=["embeddings"])
        best: dict[str, float] = {}
        embeddings = got["embeddings"]
        if embeddings is None or not len(embeddings):
            return best
        sims = np.asarray(embeddings, dtype=np.float32) @ vector
        for cid, sim in zip(got["ids"], sims, strict=True):
            pid = _paper_of(cid)
            best[pid] = max(best.get(pid, -1.0), float(sim))
        return best


def _without_credentials(url: str | None) -> str | None:
    """The server URL as messages and the page show it: scheme, host and port. A user,
    password, path, query or fragment in it is never used (the client takes host and port)
    and never shown; the password and query values are kept out of every message."""
    url = (url or "").strip()
    if not url:
        return None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise IndexConfigError("bad Chroma server URL in ASSISTANT_DATA_CHROMA_URL or "
                               "--chroma-url: expected http://HOST:PORT") from None
    if parts.password:
        add_secret(parts.password)
    for _, value in parse_qsl(parts.query) + [("", parts.fragment)]:
        if value:
            add_secret(value)  # "?token=…": never sent, never shown
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return f"{parts.scheme}://{netloc}" if parts.scheme and netloc else url


def _unreachable(url: str, exc: BaseException | None = None) -> str:
    port = urlsplit(url).port or 8000
    why = f" ({type(exc).__name__})" if exc is not None else ""
    return (f"cannot reach a Chroma server at {url}{why}: start one with `chroma run --path DIR "
            f"--port {port}` (the chromadb package installs `chroma`), or unset "
            "ASSISTANT_DATA_CHROMA_URL / --chroma-url to use the index on disk; what was "
            "stored before stays")


# chromadb's own client waits forever: a server that accepts and never answers hung every
# command. The heartbeat gets 10 s; a call afterwards (a page of 13.9k papers' metadata) 120.
HEARTBEAT_TIMEOUT = httpx.Timeout(10.0)
SERVER_TIMEOUT = httpx.Timeout(120.0, connect=10.0)


def _http_client(url: str) -> Any:
    """A client of the Chroma server at ``url`` (telemetry off), or a one-line reason."""
    parts = urlsplit(url)  # checked by _without_credentials
    port = parts.port or (443 if parts.scheme == "https" else 8000)
    if parts.scheme not in ("http", "https") or not parts.hostname or not port:
        raise IndexConfigError(f"bad Chroma server URL '{url}': expected http://HOST:PORT "
                               "(ASSISTANT_DATA_CHROMA_URL or --chroma-url)")
    try:  # first a heartbeat that may wait only so long: a server that never answers hung
        httpx.get(f"{url}/api/v2/heartbeat", timeout=HEARTBEAT_TIMEOUT).raise_for_status()
        client = chromadb.HttpClient(host=parts.hostname, port=port, ssl=parts.scheme == "https",
                                     settings=ChromaSettings(anonymized_telemetry=False))
    except Exception as exc:  # refused, no such host, no answer, or not a Chroma server
        raise IndexConfigError(_unreachable(url, exc)) from exc
    session = getattr(getattr(client, "_server", None), "_session", None)
    if isinstance(session, httpx.Client):  # and every later call of this client
        session.timeout = SERVER_TIMEOUT
    return client


def _embed_nodes(model: Embedder, nodes: list[TextNode], on_progress: Callable[[int], None]
                 ) -> np.ndarray:
    """The chunks' vectors; with MiniLM also each paper's sentence vectors, from the same
    run (``embed_with_spans``), packed into the chunks' metadata: the extractive answer
    scores every sentence of the abstracts it quotes, and embedding them per question was
    most of an answer's time (bench/latency.py). A sentence no chunk holds whole (an
    abstract past the word-piece limit) is embedded on its own."""
    texts = [n.text for n in nodes]
    if not isinstance(model, MiniLMOnnxEmbedding):
        return model.embed(texts, on_progress)
    by_paper: dict[str, list[int]] = {}
    for i, node in enumerate(nodes):
        by_paper.setdefault(str(node.metadata["paper_id"]), []).append(i)
    plans: list[list[Span]] = [[] for _ in nodes]
    owners: list[list[int]] = [[] for _ in nodes]  # the sentence number of each span
    sentences_of: dict[str, list[str]] = {}
    for pid, members in by_paper.items():
        # Exact places, not a search in the chunk (a sentence repeated, or inside a longer
        # one, would take the other's words): each sentence's start in the abstract by a
        # cursor, each chunk's from the splitter (``start_char_idx``, found the same way).
        abstract = str(nodes[members[0]].metadata["abstract"])
        sentences = sentences_of[pid] = split_sentences(abstract)
        starts, cursor = [], 0
        for sentence in sentences:
            at = abstract.find(sentence, cursor)
            starts.append(at)
            cursor = at + len(sentence) if at >= 0 else cursor
        for i in members:
            begin = nodes[i].start_char_idx
            if begin is None or abstract[begin:begin + len(texts[i])] != texts[i]:
                continue  # no trustworthy offsets: its sentences are embedded alone
            for k, (sentence, at) in enumerate(zip(sentences, starts, strict=True)):
                if at >= begin and at + len(sentence) <= begin + len(texts[i]):
                    plans[i].append((at - begin, at - begin + len(sentence)))
                    owners[i].append(k)
    vectors, pooled = model.embed_with_spans(texts, plans, on_progress)
    missing: list[tuple[str, int]] = []
    chosen: dict[str, dict[int, tuple[int, np.ndarray]]] = {}
    for pid, members in by_paper.items():
        best = chosen.setdefault(pid, {})
        for i in members:
            for k, vector in zip(owners[i], pooled[i], strict=True):
                if k not in best and vector.any():
                    best[k] = (i, vector)
        missing += [(pid, k) for k in range(len(sentences_of[pid])) if k not in best]
    if missing:
        alone = model.embed([sentences_of[pid][k] for pid, k in missing])
        for (pid, k), vector in zip(missing, alone, strict=True):
            chosen[pid][k] = (by_paper[pid][0], vector)
    for pid, best in chosen.items():
        per_node: dict[int, list[tuple[int, np.ndarray]]] = {}
        for k, (i, vector) in best.items():
            per_node.setdefault(i, []).append((k, vector))
        for i, items in per_node.items():
            nodes[i].metadata[SENTENCES_KEY] = _pack_sentences(sorted(items, key=lambda x: x[0]),
                                                               len(sentences_of[pid]))
    return vectors


def _pack_sentences(items: list[tuple[int, np.ndarray]], total: int) -> str:
    """``format:total:k,k,…:base64(float16 rows)``: a chunk's share of its paper's sentence
    vectors, as one metadata string (Chroma metadata holds no arrays)."""
    numbers = ",".join(str(k) for k, _ in items)
    rows = np.stack([v for _, v in items]).astype(np.float16)
    return f"{SENTENCES_FORMAT}:{total}:{numbers}:{base64.b64encode(rows.tobytes()).decode()}"


def _unpack_sentences(packed: Any, total: int) -> list[tuple[int, np.ndarray]]:
    """The (sentence number, vector) pairs of ``_pack_sentences``; none when absent, of
    another format, or made for a different sentence count than the paper has now."""
    if not isinstance(packed, str):
        return []
    try:
        fmt, count, numbers, data = packed.split(":", 3)
        if fmt != SENTENCES_FORMAT or int(count) != total:
            return []
        ks = [int(k) for k in numbers.split(",")]
        rows = np.frombuffer(base64.b64decode(data), dtype=np.float16).reshape(len(ks), -1)
    except ValueError:
        return []
    return [(k, row.astype(np.float32)) for k, row in zip(ks, rows, strict=True)]


def _chunk_id(paper_id: str, n: int) -> str:
    """A chunk's id: its paper's and its place in the paper (paper ids hold no colon)."""
    return f"{paper_id}:{n}"


def _paper_of(chunk_id: str) -> str:
    """The paper of a chunk, from its id alone: no metadata need be read for it."""
    return chunk_id.rsplit(":", 1)[0]


def _batches(items: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _deleted_from(paths: list[Path], read: ReadResult, missing: set[str]) -> set[str]:
    """The ``missing`` files (stored, not on disk) that were in a folder this ingest read:
    deleted, renamed or moved away. A folder that gave no input file (a drive not mounted
    there) counts none."""
    folders = {str(p.resolve()) for p in paths if p.is_dir()}
    folders &= {str(Path(f.key).parent) for f in read.files}
    return {k for k in missing if k and str(Path(k).parent) in folders}


def _file_keys(papers: dict[str, Paper]) -> set[str]:
    """Every file the store knows: those papers are stored with, and those recorded as
    holding them."""
    return {p.file_key for p in papers.values()} | {
        key for p in papers.values() for key, _ in p.held_by or ()}


def _searched_title(meta: dict[str, Any]) -> str:
    """The title BM25 reads: the input's, or the one derived from the abstract, never a
    model's (its words are not the paper's; titling leaves search as it was)."""
    if meta.get("title_model"):
        return derive_title(str(meta.get("abstract", "")))
    return str(meta.get("title", ""))


def _paper_meta(paper: Paper) -> dict[str, Any]:
    """A chunk's metadata: the paper it belongs to. Chroma takes no None, so ``year`` is
    there only when known (a year filter then leaves out papers of unknown year)."""
    meta: dict[str, Any] = {
        "paper_id": paper.paper_id,
        "source": paper.source,
        "file": paper.file,
        "file_key": paper.file_key,
        "title": paper.title,
        "title_derived": paper.title_derived,
        "title_model": paper.title_model,
        "authors": paper.authors,
        "venue": paper.venue,
        "links": " ".join(paper.links),
        "abstract": paper.text,
        "held_by": json.dumps([list(h) for h in paper.held_by or ()], ensure_ascii=False),
    }
    if paper.year is not None:
        meta["year"] = paper.year
    return meta


def _gather_papers(papers: dict[str, Paper], partial: set[str],
                   metas: Iterable[dict[str, Any]]) -> None:
    """Add the papers of ``metas`` (chunks' metadata, in any order, perhaps a page of
    them) to ``papers``, each from a chunk that holds its abstract: chunk 0 since the lean
    layout, any chunk before it. ``partial``: the papers so far read from a chunk without
    one, replaced when their chunk 0 comes (in the dict's place: first-seen order)."""
    for meta in metas:
        pid = str(meta["paper_id"])
        if pid in papers and pid not in partial:
            continue
        if pid in papers and "abstract" not in meta:
            continue
        papers[pid] = _paper_from_meta(meta)
        if "abstract" in meta:
            partial.discard(pid)
        else:
            partial.add(pid)


def _holders(value: object) -> tuple[tuple[str, str], ...] | None:
    """``Paper.held_by`` from its stored form (JSON: a file name may hold any character);
    None when not recorded (stored before holders were kept) or unreadable."""
    try:
        entries = json.loads(str(value))
        return tuple((str(key), str(source)) for key, source in entries)
    except (ValueError, TypeError):
        return None


def _paper_from_meta(meta: dict[str, Any]) -> Paper:
    """The paper of a chunk's metadata; papers stored by earlier versions lack ``year``,
    ``venue`` and ``title_derived`` (seed-format files never carry titles)."""
    source = str(meta["source"])
    year = meta.get("year")
    return Paper(
        paper_id=str(meta["paper_id"]),
        source=source,
        title=str(meta.get("title", "")),
        text=str(meta.get("abstract", "")),
        authors=str(meta.get("authors", "")),
        links=tuple(str(meta.get("links", "")).split()),
        file_key=str(meta.get("file_key", "")),
        year=int(year) if isinstance(year, int | float) and not isinstance(year, bool) else None,
        venue=str(meta.get("venue", "")),
        title_derived=bool(meta.get("title_derived", source.rsplit("#", 1)[0].endswith(".txt"))),
        title_model=str(meta.get("title_model", "")),
        held_by=_holders(meta["held_by"]) if "held_by" in meta else None,
    )
