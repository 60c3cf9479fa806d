"""The records of the store's files that were read but not stored, kept beside the store so
that answers can say what the store's count leaves out.

A record with no abstract (a placeholder such as "Abstract Unavailable", 55 rows of the
NeurIPS 1987-2021 CSVs) cannot be a paper here: a paper is its abstract's chunks, its id is
the abstract's hash, and answers quote its sentences. Its title, authors and year are still
the input's, so they are recorded, file by file, as the last ingest of each file found them:
"How many papers did Joshua Alspector publish?" then says that two more records of the
store's files name him but hold no abstract. A record giving another record's abstract
under a title of its own is recorded too: the store keeps that abstract once, under the
title it fits best (``reading._fitting``), and the other would be missing without a word.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from assistant.paper import Paper

if TYPE_CHECKING:
    from assistant.types import Filters

FILE_NAME = "left-out"  # + the collection's suffix + ".json", in the data directory
NO_ABSTRACT = "no abstract"
REPEATS = "another record's abstract"  # kept once, under the title it fits (reading._fitting)
LEFT_OUT_SHOWN = 10  # records named in a line (a list of a filter's papers, an error)


@dataclass(frozen=True)
class LeftOut:
    """One record of an input file that was read and not stored, and why."""

    source: str  # its locator, "file#n"
    title: str
    authors: str = ""
    year: int | None = None
    venue: str = ""
    reason: str = NO_ABSTRACT
    same_as: str = ""  # a repeat: the stored paper whose abstract it gives, "“Title” (file#n)"

    @classmethod
    def of(cls, paper: Paper, reason: str = NO_ABSTRACT, same_as: Paper | None = None) -> LeftOut:
        kept = f"“{same_as.title}” ({same_as.source})" if same_as else ""
        return cls(paper.source, paper.title, paper.authors, paper.year, paper.venue, reason, kept)

    def said(self) -> str:
        """The record for a line naming it: "“Title” (1988, file.csv#6)", and a repeat's
        paper ("…; its abstract is that of “Other” (file.csv#2)")."""
        where = f"{f'{self.year}, ' if self.year else ''}{self.source}"
        same = f"; its abstract is that of {self.same_as}" if self.same_as else ""
        return f"“{self.title}” ({where}{same})"

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


class Tally(NamedTuple):
    """A receipt's counts of records not stored (``Receipt.left_out``, ``left_out_repeats``)."""

    left_out: int
    left_out_repeats: int


def tally(records: Sequence[LeftOut]) -> Tally:
    """``records`` counted, and those of them giving another record's abstract."""
    return Tally(len(records), sum(r.reason == REPEATS for r in records))


def why(left_out: int, repeats: int) -> str:
    """Why ``left_out`` records were not stored, ``repeats`` of them for giving another
    record's abstract: "no abstract", "another record's abstract", or "55 no abstract, 21
    another record's abstract"."""
    if not repeats:
        return NO_ABSTRACT
    if repeats == left_out:
        return REPEATS
    return f"{left_out - repeats:,} {NO_ABSTRACT}, {repeats:,} {REPEATS}"


def allowed(records: LeftOutByFile, filters: Filters | None) -> list[LeftOut]:
    """The records the filters allow (every one with none), once each: the same title,
    authors and year in two files is one record."""
    seen: dict[tuple[str, str, int | None], LeftOut] = {}
    for rec in (r for recs in records.values() for r in recs):
        if not filters or filters.allows(rec.as_paper()):
            seen.setdefault((rec.title.casefold(), rec.authors, rec.year), rec)
    return list(seen.values())
