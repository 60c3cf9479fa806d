"""What a stored chunk holds: its id, its metadata (the fields of the paper it belongs to)
and its share of the paper's sentence vectors — the layout on disk, in one place.

A chunk's id is ``<paper id>:<n>``, so a ranking finds the paper without reading metadata.
Every chunk carries its paper's fields (``paper_meta``); the abstract only on chunk 0
(``papers`` reads it there), and chunks of stores written before that layout carry it too.
Changing a key here changes the format stores are read in: ``paper_from_meta`` reads every
layout written so far.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.corpus import Paper

SENTENCES_KEY = "sentence_vectors"  # a chunk's metadata: vectors of the sentences it holds
SENTENCES_FORMAT = "s1"  # bumped when split_sentences or the packing changes
# What LlamaIndex's ``node_to_metadata_dict`` added to every chunk (stores written before
# the lean layout): a JSON copy of the node (the paper's fields and abstract again, ~12 KB a
# chunk on the NeurIPS store) and its document id three times. Nothing of ours reads them,
# and LlamaIndex's own Chroma reader rebuilds a node from the plain keys without them.
LLAMA_KEYS = ("_node_content", "_node_type", "doc_id", "document_id", "ref_doc_id")


@dataclass(frozen=True)
class ChunkHit:
    """One chunk found by a ranking, with the paper it belongs to."""

    chunk_id: str
    paper_id: str
    text: str
    score: float


def chunk_id(paper_id: str, n: int) -> str:
    """A chunk's id: its paper's and its place in the paper (paper ids hold no colon)."""
    return f"{paper_id}:{n}"


def paper_of(chunk_id: str) -> str:
    """The paper of a chunk, from its id alone: no metadata need be read for it."""
    return chunk_id.rsplit(":", 1)[0]


def batches(items: list[Any], size: int = 500) -> Iterator[list[Any]]:
    """``items`` in lists of at most ``size`` (one Chroma call each)."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def paper_meta(paper: Paper) -> dict[str, Any]:
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


def updated_meta(meta: dict[str, Any], paper: Paper) -> dict[str, Any]:
    """A stored chunk's ``meta`` with ``paper``'s fields now (locator, title, file
    identity…); its number, text and sentence vectors stay. For Chroma's ``update``, which
    merges: None removes a key."""
    fresh = {k: v for k, v in paper_meta(paper).items() if k != "abstract"}
    if paper.year is None:
        fresh["year"] = None  # Chroma merges on update; None removes a year no longer given
    # A chunk of the earlier layout sheds LlamaIndex's copy of the node, which would
    # keep the old locator (LlamaIndex's reader prefers it to the plain keys).
    fresh.update({key: None for key in LLAMA_KEYS if key in meta})
    return {**meta, **fresh}


def gather_papers(papers: dict[str, Paper], partial: set[str],
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
        papers[pid] = paper_from_meta(meta)
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


def paper_from_meta(meta: dict[str, Any]) -> Paper:
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


def pack_sentences(items: list[tuple[int, np.ndarray]], total: int) -> str:
    """``format:total:k,k,…:base64(float16 rows)``: a chunk's share of its paper's sentence
    vectors, as one metadata string (Chroma metadata holds no arrays)."""
    numbers = ",".join(str(k) for k, _ in items)
    rows = np.stack([v for _, v in items]).astype(np.float16)
    return f"{SENTENCES_FORMAT}:{total}:{numbers}:{base64.b64encode(rows.tobytes()).decode()}"


def unpack_sentences(packed: Any, total: int) -> list[tuple[int, np.ndarray]]:
    """The (sentence number, vector) pairs of ``pack_sentences``; none when absent, of
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
