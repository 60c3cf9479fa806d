"""The ingest: a sync of the store with input files, planned by ``sync.plan_sync`` (a pure
function: what is added, replaced, removed, relocated or kept) and carried out here, adds
before deletes, so a failure part-way never loses a stored paper. A second ingest of the
same files adds nothing; an edited abstract replaces its old chunks.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from chromadb.errors import NotFoundError

from assistant import left_out
from assistant.catalog import PaperCatalog
from assistant.chunking import ChunkEmbedder, ProgressFn
from assistant.chunks import batches, updated_meta
from assistant.corpus import (
    NO_SUCH_PATH,
    SUPPORTED_SUFFIXES,
    Paper,
    ReadResult,
    Skipped,
    is_upload_key,
    read_file,
    read_paths,
)
from assistant.embedding import Embedder
from assistant.errors import BadInputError
from assistant.keyword_index import KeywordIndex
from assistant.settings import Settings
from assistant.store import ChromaStore, IndexConfigError
from assistant.sync import Gone, Kept, SyncPlan, plan_sync

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode


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


class Ingester:
    """Carries out ingests into ``store``, keeping ``keywords`` and ``catalog`` true."""

    def __init__(self, settings: Settings, store: ChromaStore, keywords: KeywordIndex,
                 catalog: PaperCatalog, embedder: Callable[[], Embedder]) -> None:
        self.settings, self.store, self.keywords, self.catalog = settings, store, keywords, catalog
        self._embedder = embedder
        self.chunker = ChunkEmbedder(settings, store, embedder)

    def ingest(self, paths: Iterable[Path], rebuild: bool = False,
               progress: ProgressFn | None = None, upload: bool = False) -> IngestReport:
        """Sync the store with the given files (see sync.py for the rules). With ``upload``
        the files are uploads, known by name (``upload:<name>``), never by their path."""
        started = time.perf_counter()
        paths = [Path(p) for p in paths]
        read = self._read(paths, rebuild, upload)
        report = IngestReport(skipped=read.skipped)
        before: set[str] = set()  # a --rebuild's stored papers, to count what it removes
        with self.store.lock:
            self.store.refresh(force=True)  # never write from a stale view of the store
            if rebuild:
                before = self._start_rebuild(read)
            else:
                self.store.label()
            plan = self._plan(paths, read, upload)
            report.added, report.replaced = len(plan.add), len(plan.replace)
            report.removed, report.moved = len(plan.remove), len(plan.relocate)
            report.unchanged = len(plan.unchanged) + len(plan.adopt)
            report.kept, report.gone = plan.kept, plan.gone
            report.chunks_added = self._add(plan.to_embed, progress)
            for ids in batches(plan.to_delete):
                self.store.collection.delete(where={"paper_id": {"$in": ids}})
            for papers in batches(plan.to_update):
                self._update_metadata(papers)
            if plan.to_embed or plan.to_delete or plan.to_update or rebuild:
                self.catalog.forget()
                self.store.stamp()
                self.keywords.build()
            if rebuild:  # a stored paper the files no longer hold is counted as removed
                report.removed = len(before - set(self.catalog.papers()))
                self.store.rebuild_marker.unlink(missing_ok=True)
            report.papers_total = len(self.catalog.papers())
            self._record_left_out(read, rebuild)
            report.chunks_total = self.store.chunk_count()
        report.seconds = time.perf_counter() - started
        return report

    @property
    def left_out_path(self) -> Path:
        """Where the records of the store's files that were not stored are kept
        (left_out.py): beside the store, one file per collection."""
        return self.store.dir / f"{left_out.FILE_NAME}{self.store.own_suffix}.json"

    def _record_left_out(self, read: ReadResult, rebuild: bool) -> None:
        """Record what each file read now left out (a --rebuild starts afresh), and forget
        the files the store no longer knows (deleted, or all their papers gone)."""
        records = {} if rebuild else left_out.load(self.left_out_path)
        records = left_out.updated(records, ((f.key, f.left_out) for f in read.files))
        known = _file_keys(self.catalog.papers()) | {f.key for f in read.files}
        left_out.save(self.left_out_path, {k: v for k, v in records.items() if k in known})

    def _read(self, paths: list[Path], rebuild: bool, upload: bool) -> ReadResult:
        """The papers of ``paths``; a --rebuild that could not read them all is refused."""
        read = read_paths(paths, max_chars=self.settings.index.max_abstract_chars, upload=upload)
        # a path that is not there, or a file that cannot be read (not a README beside them)
        unread = [s for s in read.skipped if s.whole_file and (
            s.reason == NO_SUCH_PATH or Path(s.file).suffix.lower() in SUPPORTED_SUFFIXES)]
        if rebuild and (unread or not read.papers):  # a mistyped path must not empty the store
            # each file's problem said (R11: "could not read noabstract.csv" had not; C66)
            what = ("could not read " + " · ".join(f"{s.file}: {s.reason}" for s in unread)
                    if unread else "read no abstract")
            raise BadInputError(f"--rebuild {what}, so the index at {self.store.where} was left "
                                "as it was; check the paths and run it again")
        return read

    def _start_rebuild(self, read: ReadResult) -> set[str]:
        """Empty the store for a --rebuild, once the model has shown it embeds; the papers
        stored before."""
        # the model must embed before anything is deleted (an endpoint that is down)
        self._embedder().embed([read.papers[0].text[:200]])
        before = set(self.catalog.papers())
        with contextlib.suppress(OSError):  # for other processes: not empty, refilling
            self.store.rebuild_marker.write_text(f"{os.getpid()}\n")
        self.reset()
        return before

    def reset(self) -> None:
        """Empty the store: its collection made anew (for the configured model), its BM25
        copy removed."""
        self.store.recreate()
        self.keywords.remove()
        with contextlib.suppress(OSError):
            self.left_out_path.unlink(missing_ok=True)
        self.catalog.forget()
        self.store.stamp()

    def _plan(self, paths: list[Path], read: ReadResult, upload: bool) -> SyncPlan:
        """The sync of the stored papers with ``read`` (sync.py)."""
        stored = self.catalog.papers()
        keys = _file_keys(stored)
        present = self.files_on_disk(keys)
        deleted = set() if upload else _deleted_from(paths, read, keys - present)
        plan = plan_sync(stored, read.files, deleted, present)
        unknown = {pid for pid in plan.to_delete if stored[pid].held_by is None}
        if unknown:  # stored before holders were recorded: look in the files on disk
            found = self._held_elsewhere(unknown, present - {f.key for f in read.files})
            if found:
                stored = {**stored, **{pid: replace(stored[pid], held_by=holders)
                                       for pid, holders in found.items()}}
                plan = plan_sync(stored, read.files, deleted, present)
        return plan

    def _add(self, papers: list[Paper], progress: ProgressFn | None) -> int:
        """Chunk, embed and write ``papers``; the chunks written.

        In batches of whole papers, so an interrupted ingest keeps what it embedded, before
        anything is deleted: a failure never loses stored papers. A thread writes each batch
        while the next is embedded: one write at a time, in order, and the one under way
        always finishes, even on an interrupt."""
        def write(nodes: list[TextNode]) -> int:
            self.add_nodes(nodes)
            self.catalog.forget()
            self.store.stamp()
            return len(nodes)

        added = 0
        with ThreadPoolExecutor(1, thread_name_prefix="chroma-write") as writer:
            pending: Future[int] | None = None
            try:
                for nodes in self.chunker.batches(papers, progress):
                    if pending is not None:
                        added += pending.result()
                    pending = writer.submit(write, nodes)
                if pending is not None:
                    added += pending.result()
            except NotFoundError as exc:  # the collection went: another process's rebuild
                raise IndexConfigError(
                    f"another process rebuilt the index at {self.store.where} while this "
                    "ingest ran; run the ingest again to add these files to it") from exc
        return added

    def add_nodes(self, nodes: list[TextNode]) -> None:
        """Write embedded chunks: each with its paper's fields (``chunks.paper_meta``), its
        number and its sentence vectors; the abstract only on chunk 0 (``papers`` reads it
        there). None of LlamaIndex's ``LLAMA_KEYS``: they were 60% of a chunk's bytes, and
        its ChromaVectorStore reads the plain layout too (the eval's dense baseline)."""
        from llama_index.core.schema import MetadataMode

        metadatas = []
        for node in nodes:
            meta = {k: "" if v is None else v for k, v in node.metadata.items()}
            if meta.get("chunk", 0) != 0:
                meta.pop("abstract", None)
            metadatas.append(meta)
        for start in range(0, len(nodes), 5000):
            part = slice(start, start + 5000)
            self.store.collection.add(
                ids=[n.node_id for n in nodes[part]],
                embeddings=[n.get_embedding() for n in nodes[part]],
                metadatas=metadatas[part],
                documents=[n.get_content(metadata_mode=MetadataMode.NONE) for n in nodes[part]],
            )

    def set_titles(self, titles: Mapping[str, tuple[str, str]], rebuild_bm25: bool = True
                   ) -> int:
        """Store model-written titles, paper id → (title, model), on the papers' chunks (a
        paper no longer stored is passed over); the text, vectors and BM25 terms stay (BM25
        never reads a model's title). ``rebuild_bm25=False`` defers the saved copy of the
        papers to a later call, for writers that store titles a batch at a time. Returns how
        many papers got their title."""
        with self.store.lock:
            self.store.refresh(force=True)
            stored = self.catalog.papers()
            papers = [replace(stored[pid], title=title, title_model=model)
                      for pid, (title, model) in titles.items() if pid in stored]
            for batch in batches(papers):
                self._update_metadata(batch)
            if papers:
                self.catalog.forget()
                self.store.stamp()
            if rebuild_bm25 and (papers or self.keywords.saved_copy() is None):
                self.keywords.build()
            return len(papers)

    def _update_metadata(self, papers: list[Paper]) -> None:
        """Rewrite the stored metadata of ``papers`` (locator, title, file identity…) on all
        their chunks; the text and vectors stay."""
        by_id = {p.paper_id: p for p in papers}
        got = self.store.collection.get(where={"paper_id": {"$in": list(by_id)}},
                                        include=["metadatas"])
        metas = [updated_meta(meta, by_id[str(meta["paper_id"])]) for meta in got["metadatas"]]
        if got["ids"]:
            self.store.collection.update(ids=got["ids"], metadatas=metas)

    @staticmethod
    def files_on_disk(keys: set[str]) -> set[str]:
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
