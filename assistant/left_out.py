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
So is a record that could not be read (a CSV row with more fields than the header, a line
that is not JSON): the ingest said so once, and answers had counted only the others.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from assistant.paper import Paper
from assistant.skipped import Skipped

if TYPE_CHECKING:
    from assistant.types import Filters

FILE_NAME = "left-out"  # + the collection's suffix + ".json", in the data directory
NO_ABSTRACT = "no abstract"
REPEATS = "another record's abstract"  # kept once, under the title it fits (reading._fitting)
UNREAD = "unreadable"  # the file's reader could not read the record (its problem in ``detail``)
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
    detail: str = ""  # an unreadable record: what its reader found ("has 7 fields where…")

    @classmethod
    def of(cls, paper: Paper, reason: str = NO_ABSTRACT, same_as: Paper | None = None) -> LeftOut:
        kept = f"“{same_as.title}” ({same_as.source})" if same_as else ""
        return cls(paper.source, paper.title, paper.authors, paper.year, paper.venue, reason, kept)

    @classmethod
    def unread(cls, name: str, skipped: Skipped) -> LeftOut:
        """A record its file's reader could not read (``Skipped.unread_record``)."""
        return cls(f"{name}#{skipped.record}", "", reason=UNREAD, detail=skipped.reason)

    def said(self) -> str:
        """The record for a line naming it: "“Title” (1988, file.csv#6)", a repeat's
        paper ("…; its abstract is that of “Other” (file.csv#2)"), an unreadable record's
        problem ("file.csv#12, unreadable: record #12 has 7 fields…")."""
        if self.reason == UNREAD:
            return f"{self.source}, {UNREAD}: {self.detail}"
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
    """A receipt's counts of records not stored (``Receipt.left_out``, ``left_out_repeats``,
    ``left_out_unread``)."""

    left_out: int
    left_out_repeats: int
    left_out_unread: int = 0


def tally(records: Sequence[LeftOut]) -> Tally:
    """``records`` counted, those of them giving another record's abstract, and those
    that could not be read."""
    return Tally(len(records), sum(r.reason == REPEATS for r in records),
                 sum(r.reason == UNREAD for r in records))


def why(left_out: int, repeats: int, unread: int = 0) -> str:
    """Why ``left_out`` records were not stored, ``repeats`` of them for giving another
    record's abstract and ``unread`` for being unreadable: "no abstract", "another record's
    abstract", or "55 no abstract, 21 another record's abstract, 1 unreadable"."""
    counts = [(left_out - repeats - unread, NO_ABSTRACT), (repeats, REPEATS), (unread, UNREAD)]
    kinds = [(n, kind) for n, kind in counts if n > 0]
    if len(kinds) == 1:
        return kinds[0][1]
    return ", ".join(f"{n:,} {kind}" for n, kind in kinds) or NO_ABSTRACT


def allowed(records: LeftOutByFile, filters: Filters | None) -> list[LeftOut]:
    """The records the filters allow (every one with none), once each: the same title,
    authors and year in two files is one record."""
    seen: dict[tuple[str, str, int | None], LeftOut] = {}
    for rec in (r for recs in records.values() for r in recs):
        if not filters or filters.allows(rec.as_paper()):  # an unreadable one: by its place
            seen.setdefault((rec.title.casefold() or rec.source, rec.authors, rec.year), rec)
    return list(seen.values())
