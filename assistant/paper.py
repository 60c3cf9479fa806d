"""The paper record and its identity: ``Paper``, the id made from an abstract's normalised
text, a file's identity in the store, the links an abstract quotes, and its sentences.

Everything that reads, stores, ranks or quotes an abstract shares these, so they hold no
file format and import only the standard library.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

URL_RE = re.compile(r"https?://[^\s<>()\[\]{}\"'`,;]+[^\s<>()\[\]{}\"'`,;.]")


@dataclass(frozen=True)
class Paper:
    """One abstract. ``paper_id`` depends only on the normalised text, so moving a paper to
    another file or position keeps its id; ``source`` is the human locator ``file#n``."""

    paper_id: str
    source: str
    title: str
    text: str
    authors: str = ""
    links: tuple[str, ...] = ()
    # The identity of the file the paper was read from: its resolved path, or
    # ``upload:<name>``; "" for papers stored by a version that did not record it.
    file_key: str = ""
    year: int | None = None  # publication year, when the input gives one
    venue: str = ""  # venue or collection ("NeurIPS"), when the input gives one
    title_derived: bool = False  # the input had no title: ``title`` is derive_title's label
    # The model that wrote ``title`` for a paper whose input gave none (``assistant ingest
    # --titles``, titles.py); "" when the title is the input's or derived.
    title_model: str = ""
    # Other files that hold the same abstract, as (file key, locator there) at their last
    # ingest: where the paper moves when its own file drops it (sync.py). None: not known
    # (stored before they were recorded).
    held_by: tuple[tuple[str, str], ...] | None = ()

    @property
    def file(self) -> str:
        return self.source.rsplit("#", 1)[0]

    @property
    def title_mark(self) -> str:
        """What follows the title wherever an answer or a list shows it: the note that a
        model wrote it ("" for the input's title and for a derived label)."""
        return f" ({MODEL_TITLE_NOTE.format(model=self.title_model)})" if self.title_model else ""

    @property
    def link(self) -> str:
        """The paper's own link (its link field), not an address quoted in its abstract."""
        return next((u for u in self.links if u not in self.text), "")


UPLOAD_PREFIX = "upload:"
MODEL_TITLE_NOTE = "title written by the model {model}"


def file_key(path: Path, upload: bool = False) -> str:
    """A file's identity in the store. A path is known by where it really is (two
    ``mixed.jsonl`` in two folders are two files); an upload by its name, in a namespace
    of its own, because the UI hands over temporary paths."""
    return f"{UPLOAD_PREFIX}{path.name}" if upload else str(path.resolve())


def is_upload_key(key: str) -> bool:
    return key.startswith(UPLOAD_PREFIX)


# PDF text extraction leaves a soft hyphen at a line break as "(cid:173)": "la(cid:173) beled"
# is "labeled" (5,341 of them in the NeurIPS 1987–2021 abstracts).
_SOFT_HYPHEN = re.compile(r"\(cid:173\)\s*")


def normalise(text: str) -> str:
    return " ".join(_SOFT_HYPHEN.sub("", text).split())


def make_paper_id(text: str) -> str:
    return hashlib.sha256(normalise(text).casefold().encode()).hexdigest()[:16]


def find_links(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(URL_RE.findall(text)))


_ABBREVIATION_END = re.compile(r"(?:\b(?:e\.g|i\.e|cf|vs|al|Fig|Eq|Sec|approx)\.)$")


def split_sentences(text: str) -> list[str]:
    """Sentences of an abstract: a split after . ! or ? when a capital, math or bracket
    follows; "i.i.d. sampling" stays whole because a lower-case word follows."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z$\\(\[])", normalise(text))
    sentences: list[str] = []
    for part in parts:
        if sentences and _ABBREVIATION_END.search(sentences[-1]):
            sentences[-1] += " " + part
        elif part:
            sentences.append(part)
    return sentences


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z$\\(\[])")  # as split_sentences splits


def opening(text: str, limit: int) -> str:
    """The longest start of ``text`` that ends a sentence within ``limit`` characters, or ""
    when no sentence ends there: a whole paper given as its abstract (23 rows of the NeurIPS
    2004 CSV) is kept by its opening, which is where the abstract is, never cut mid-sentence."""
    text = normalise(text)
    if len(text) <= limit:
        return text
    # normalised, so one space ends a sentence: its match starts at most at ``limit``
    ends = [m.start() for m in _SENTENCE_END.finditer(text, 0, limit + 2)
            if not _ABBREVIATION_END.search(text, 0, m.start())]
    return text[:max(ends)] if ends else ""
