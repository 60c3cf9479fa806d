"""The records of the store's files that were read but not stored, kept beside the store so
that answers can say what the store's count leaves out.

A record with no abstract (a placeholder such as "Abstract Unavailable", 55 rows of the
NeurIPS 1987-2021 CSVs) cannot be a paper here: a paper is its abstract's chunks, its id is
the abstract's hash, and answers quote its sentences. Its title, authors and year are still
the input's, so they are recorded, file by file, as the last ingest of each file found them:
"How many papers did Joshua Alspector publish?" then says that two more records of the
store's files name him but hold no abstract.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.paper import Paper

if TYPE_CHECKING:
    from assistant.types import Filters

FILE_NAME = "left-out"  # + the collection's suffix + ".json", in the data directory
NO_ABSTRACT = "no abstract"


@dataclass(frozen=True)
class LeftOut:
    """One record of an input file that was read and not stored, and why."""

    source: str  # its locator, "file#n"
    title: str
    authors: str = ""
    year: int | None = None
    venue: str = ""
    reason: str = NO_ABSTRACT

    @classmethod
    def of(cls, paper: Paper, reason: str = NO_ABSTRACT) -> LeftOut:
        return cls(paper.source, paper.title, paper.authors, paper.year, paper.venue, reason)

    def as_paper(self) -> Paper:
        """The record as a paper without text, for the filters' test (``Filters.allows``)."""
        return Paper(paper_id="", source=self.source, title=self.title, text="",
                     authors=self.authors, year=self.year, venue=self.venue)


LeftOutByFile = dict[str, list[LeftOut]]  # file key → its records left out


def load(path: Path) -> LeftOutByFile:
    """The saved records, by file; none when there is no file or it cannot be read (a
    record of what is missing must never stop an answer)."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        return {key: [LeftOut(**rec) for rec in recs] for key, recs in saved.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def save(path: Path, records: LeftOutByFile) -> None:
    """Write ``records`` (a read-only data directory keeps the old ones: not worth failing
    an ingest that stored its papers)."""
    kept = {key: [asdict(r) for r in recs] for key, recs in sorted(records.items()) if recs}
    with contextlib.suppress(OSError):
        path.write_text(json.dumps(kept, ensure_ascii=False, indent=0), encoding="utf-8")


def updated(records: LeftOutByFile, read: Iterable[tuple[str, list[LeftOut]]]) -> LeftOutByFile:
    """``records`` with each file read now given what it left out this time."""
    out = dict(records)
    for key, recs in read:
        out[key] = list(recs)
    return {key: recs for key, recs in out.items() if recs}


def allowed(records: LeftOutByFile, filters: Filters | None) -> list[LeftOut]:
    """The records the filters allow (every one with none), once each: the same title,
    authors and year in two files is one record."""
    seen: dict[tuple[str, str, int | None], LeftOut] = {}
    for rec in (r for recs in records.values() for r in recs):
        if not filters or filters.allows(rec.as_paper()):
            seen.setdefault((rec.title.casefold(), rec.authors, rec.year), rec)
    return list(seen.values())
