"""The keyword index: BM25 over the stored chunks (a chunk 0 with its paper's title), built
from the store after every write and saved beside it with the papers and the corpus words,
so that a new process reads them instead of every chunk's metadata.

A copy is used only when it was made for the store as it is now (same collection, tokenizer,
version stamp and chunk count); else it is built afresh. With a Chroma server each process
keeps its own copy in its data directory, rebuilt from the store's documents when the stamp
changes. Chroma 1.5's own sparse/BM25 search is refused by a self-hosted server ("Sparse
vector indexing is not enabled in local").
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import threading
from collections.abc import Container, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import bm25s
import numpy as np

from assistant.chunks import ChunkHit, gather_papers, paper_from_meta, paper_meta, paper_of
from assistant.corpus import Paper, derive_title
from assistant.keywords import (
    TOKENIZER_VERSION,
    KeywordStats,
    SurfaceText,
    best_reading_scores,
    document_frequencies,
    query_terms,
    tokenize,
)
from assistant.store import ChromaStore


class KeywordIndex:
    """BM25 of the chunks of ``store``, its copy on disk in ``dir``, and what was saved
    with it (the papers, the corpus words in ``surface``). Callers hold ``store.lock``."""

    def __init__(self, store: ChromaStore) -> None:
        self.store = store
        # Each collection of a data dir has its own copy (another collection's copy of as
        # many chunks was read as this one's); the default keeps the name it always had.
        self.dir = store.dir / f"bm25{store.own_suffix}"
        if store.server:  # this process's copy, apart from an embedded store's
            where = urlsplit(store.server)
            self.dir = store.dir / f"bm25-{where.hostname}-{where.port or 'default'}-{store.name}"
        self._bm25: bm25s.BM25 | None = None
        self.ids: list[str] = []  # the chunk of each BM25 document
        self._df: np.ndarray | None = None
        self.surface: SurfaceText | None = None  # saved with the BM25 index, same texts
        self._owner: list[str] | None = None  # the ids the four below were made for
        self._pids = np.zeros(0, dtype=object)  # each paper once, in chunk order
        self._owner_of = np.zeros(0, dtype=np.int64)
        self._order = np.zeros(0, dtype=np.int64)  # chunks grouped by paper, in pid order
        self._starts = np.zeros(0, dtype=np.int64)  # where each paper's group starts
        store.on_change(self.forget)

    def forget(self) -> None:
        """Drop the index in memory (the store changed): read or built again when needed."""
        self._bm25, self.ids, self._df, self.surface = None, [], None, None

    def remove(self) -> None:
        """Drop the index and its copy on disk (the store was emptied)."""
        shutil.rmtree(self.dir, ignore_errors=True)
        self._bm25, self.surface = None, None

    # ------------------------------------------------------------ the copy on disk

    def saved_copy(self) -> dict[str, Any] | None:
        """``ids.json`` of the copy saved beside the store (BM25, the papers, the corpus
        words) when it was made for the store as it is now: same collection, tokenizer,
        version stamp and chunk count, and the proper words and capitals in it (a copy saved
        before they were kept is built again, once, rather than every process building them:
        3-4 s at 13.9k)."""
        try:
            saved = json.loads((self.dir / "ids.json").read_text())
            current = (saved["tokenizer"] == TOKENIZER_VERSION
                       and saved.get("collection") == str(self.store.collection.id)
                       and saved.get("version", "") == self.store.version
                       and len(saved["ids"]) == self.store.chunk_count()
                       and isinstance(saved.get("proper"), list)
                       and isinstance(saved.get("capitals"), list))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none saved, or being replaced by another process
        return saved if current else None

    def saved_papers(self) -> dict[str, Paper] | None:
        """The papers saved with the copy, when it is the store's as it is now."""
        version = self.store.version
        if not version or self.saved_copy() is None:
            return None
        try:
            metas = json.loads((self.dir / "papers.json").read_text(encoding="utf-8"))
            if metas.get("version") != version:  # both files of one save
                return None
            return {str(m["paper_id"]): paper_from_meta(m) for m in metas["papers"]}
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none saved, an older copy, or one being replaced

    def build(self) -> None:
        """BM25 of every stored chunk, made afresh and saved (none when the store is empty)."""
        got = self.store.get_all(["documents", "metadatas"])
        ids: list[str] = list(got["ids"])
        if not ids:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.forget()
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
        self._bm25, self.ids, self._df = retriever, ids, df
        papers: dict[str, Paper] = {}
        gather_papers(papers, set(), got["metadatas"])
        self.surface = SurfaceText.of(texts, (p.text for p in papers.values()))
        try:
            self._save(retriever, ids, df, self.surface, [paper_meta(p) for p in papers.values()])
        except OSError:
            if not self.store.server:  # with a server the copy on disk is only a shortcut
                raise

    def _save(self, retriever: bm25s.BM25, ids: list[str], df: np.ndarray,
              surface: SurfaceText, papers: list[dict[str, Any]]) -> None:
        """Write beside the old copy, then swap: a reader in another process finds the
        whole old one, the whole new one, or none (and builds its own)."""
        tag = f"{os.getpid()}-{threading.get_ident()}"
        parent, version = self.store.dir, self.store.version
        tmp, old, final = parent / f".bm25-new-{tag}", parent / f".bm25-old-{tag}", self.dir
        shutil.rmtree(tmp, ignore_errors=True)
        retriever.save(str(tmp))
        (tmp / "ids.json").write_text(json.dumps(
            {"tokenizer": TOKENIZER_VERSION, "version": version, "ids": ids,
             "proper": sorted(surface.proper), "capitals": sorted(surface.capitals),
             # whose copy: a data dir's collections shared one before, and such a copy of as
             # many chunks passed for another's (an older copy, without it, is built again)
             "collection": str(self.store.collection.id)}))
        np.save(tmp / "df.npy", df)
        (tmp / "surface.txt").write_text("\n".join(sorted(surface.words)), encoding="utf-8")
        (tmp / "papers.json").write_text(json.dumps({"version": version, "papers": papers}),
                                         encoding="utf-8")
        with contextlib.suppress(FileNotFoundError):  # none yet
            final.rename(old)
        tmp.rename(final)
        shutil.rmtree(old, ignore_errors=True)

    def load(self) -> bm25s.BM25 | None:
        """The BM25 index saved for the store as it is now, else one built afresh."""
        if self._bm25 is None:
            try:
                saved = self.saved_copy()
                if saved is not None:
                    self._bm25 = bm25s.BM25.load(str(self.dir))
                    self.ids = saved["ids"]
                    self._df = np.load(self.dir / "df.npy")
                    self.surface = self._saved_surface(self.dir, saved)
            except (OSError, ValueError, KeyError, TypeError, EOFError):
                self._bm25, self.surface = None, None  # missing, damaged, or being replaced
            if self._bm25 is None and self.store.collection.count():  # stale, interrupted, or old
                self.build()
        return self._bm25

    @staticmethod
    def _saved_surface(bm25_dir: Path, saved: dict[str, Any]) -> SurfaceText | None:
        with contextlib.suppress(OSError):  # a copy saved before it was kept
            words = (bm25_dir / "surface.txt").read_text(encoding="utf-8").split("\n")
            return SurfaceText(frozenset(words) - {""}, frozenset(saved["proper"]),
                               frozenset(saved["capitals"]))
        return None

    # ------------------------------------------------------------ searching

    def search(self, query: str, k: int) -> list[ChunkHit]:
        """Top-``k`` chunks by BM25 (stemmed, stopwords removed), papers of any store
        state (the caller keeps those stored)."""
        retriever = self.load()
        if retriever is None:
            return []
        vocab = retriever.vocab_dict
        known = [vocab[t] for t in query_terms(query) if t in vocab]
        if not known:
            return []
        k = min(k, len(self.ids))
        docs, scores = retriever.retrieve([known], k=k, show_progress=False, n_threads=1)
        hits = []
        for doc, score in zip(docs[0], scores[0], strict=True):
            if score <= 0:
                continue
            cid = self.ids[int(doc)]
            hits.append(ChunkHit(cid, paper_of(cid), "", float(score)))
        return hits

    def stats(self) -> KeywordStats:
        """The BM25 vocabulary, document frequencies and chunk count, for keywords.py."""
        self.load()
        vocab = self._bm25.vocab_dict if self._bm25 else {}
        return KeywordStats(n_docs=len(self.ids), vocab=vocab, df=self._df)

    def paper_scores(self, query: str, allowed: Container[str] | None = None
                     ) -> dict[str, float]:
        """Every paper's best BM25 chunk score for ``query`` (papers scoring 0 left out).
        With ``allowed`` (paper ids passing a filter) every other chunk is masked to 0."""
        retriever = self.load()
        if retriever is None:
            return {}
        if self._owner is not self.ids:  # chunk → paper, once per BM25 index
            self._group_by_paper()
        mask = None
        if allowed is not None:
            keep = np.fromiter((pid in allowed for pid in self._pids), dtype=bool,
                               count=len(self._pids))
            mask = keep[self._owner_of].astype(np.float32)
        scores = best_reading_scores(query, retriever.vocab_dict,
                                     lambda ids: retriever.get_scores(ids, weight_mask=mask))
        if scores is None:
            return {}
        best = np.maximum.reduceat(scores[self._order], self._starts)
        found = np.flatnonzero(best > 0)
        return dict(zip(self._pids[found].tolist(), best[found].tolist(), strict=True))

    def term_papers(self, terms: Iterable[str]) -> dict[str, frozenset[str]]:
        """For each stemmed term the index knows, the papers with a chunk holding it (a
        BM25 score above 0 for that term alone: every held term scores, none else)."""
        retriever = self.load()
        if retriever is None:
            return {}
        if self._owner is not self.ids:
            self._group_by_paper()
        vocab = retriever.vocab_dict
        return {term: frozenset(self._pids[np.unique(self._owner_of[np.flatnonzero(
                    np.asarray(retriever.get_scores([vocab[term]])) > 0)])].tolist())
                for term in dict.fromkeys(terms) if term in vocab}

    def _group_by_paper(self) -> None:
        pids = [paper_of(cid) for cid in self.ids]
        self._pids = np.array(list(dict.fromkeys(pids)), dtype=object)
        position = {pid: i for i, pid in enumerate(self._pids)}
        self._owner_of = np.fromiter((position[p] for p in pids), dtype=np.int64)
        # chunks sorted by paper, for one maximum per paper (reduceat, not ufunc.at)
        self._order = np.argsort(self._owner_of, kind="stable")
        owners = self._owner_of[self._order]
        self._starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
        self._owner = self.ids


def _searched_title(meta: dict[str, Any]) -> str:
    """The title BM25 reads: the input's, or the one derived from the abstract, never a
    model's (its words are not the paper's; titling leaves search as it was)."""
    if meta.get("title_model"):
        return derive_title(str(meta.get("abstract", "")))
    return str(meta.get("title", ""))
