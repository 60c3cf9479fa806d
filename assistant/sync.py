"""The sync plan: what an ingest adds, replaces, removes, relocates and keeps — a pure
function of what is stored and what was read, so every rule is tested without a store.

The rules, all about never losing what a researcher stored:

- A file is known by its identity (``Paper.file_key``): its resolved path, or
  ``upload:<name>`` for an upload. A stored paper is removed only when that very file was
  read again, *completely*, and no longer holds it. A file with any unread or suspicious
  record removes nothing; the plan says how many papers it kept and why.
- An upload never takes over a paper stored from another file, so it can only ever remove
  papers that an upload of the same name added.
- Papers stored by the version before file identities (``file_key == ""``) are never
  removed by a sync. When a path ingest reads one again it is adopted (given that file's
  identity, and its locator if it moved); the papers of that name that are not found again
  stay, and the plan says so once per file. ``--rebuild`` is the way to drop them.
- A file gone from a folder this ingest read (deleted, renamed or moved away) takes its
  papers with it, unless they were read again; the plan names the file and the count. A
  folder that holds no input file at all (say, a drive not mounted there) removes nothing.
- A paper is stored once, with the first file that gave it, and every other file that
  holds it is recorded with it (``Paper.held_by``, each at its locator, as of that file's
  last ingest). When its file drops it (or goes), it moves to the next of those instead of
  leaving the store (a paper in a conference file and a reading list stays when either
  drops it, uploads included); the plan names where it went. A file read whole without it
  leaves that record.
- A paper read again elsewhere is never removed: it moves (a path ingest) or stays where it
  is (an upload), the file it leaves recorded as holding it while that file is on disk. A
  new abstract at the locator of one removed from the same file is a replacement; every
  removal is counted, as replaced or removed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from assistant.corpus import UPLOAD_PREFIX, FileRead, Paper, is_upload_key


@dataclass(frozen=True)
class Kept:
    """Stored papers a sync would have removed but kept, and why."""

    file: str
    count: int
    reason: str

    def __str__(self) -> str:
        papers = "paper" if self.count == 1 else "papers"
        return f"kept {self.count:,} stored {papers} of {self.file}: {self.reason}"


@dataclass(frozen=True)
class Gone:
    """Stored papers removed because their file is no longer in its folder."""

    file: str
    count: int

    def __str__(self) -> str:
        papers = "paper" if self.count == 1 else "papers"
        return f"removed {self.count:,} stored {papers} of {self.file}: the file is no longer in its folder"


@dataclass
class SyncPlan:
    add: list[Paper] = field(default_factory=list)  # new papers
    replace: list[tuple[str, Paper]] = field(default_factory=list)  # (old id, new paper at its locator)
    remove: list[str] = field(default_factory=list)  # ids their file no longer holds
    relocate: list[Paper] = field(default_factory=list)  # stored, with a new locator/title/links
    # Stored papers whose metadata is rewritten in place, counted as unchanged: earlier-version
    # papers given their file's key, and papers given details an earlier version did not
    # store (year, venue, whether the title is derived).
    adopt: list[Paper] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)
    gone: list[Gone] = field(default_factory=list)  # files no longer in their folder
    # Papers not read, whose record of other files holding them changes (metadata only).
    released: list[Paper] = field(default_factory=list)

    @property
    def to_embed(self) -> list[Paper]:
        return self.add + [paper for _, paper in self.replace]

    @property
    def to_delete(self) -> list[str]:
        return self.remove + [old for old, _ in self.replace]

    @property
    def to_update(self) -> list[Paper]:
        """Papers whose stored metadata is rewritten (their chunks and vectors stay)."""
        return self.relocate + self.adopt + self.released


def _shown(paper: Paper) -> tuple[str, str, str, tuple[str, ...]]:
    return paper.source, paper.title, paper.authors, paper.links


def _details(paper: Paper) -> tuple[int | None, str, bool]:
    return paper.year, paper.venue, paper.title_derived


def plan_sync(stored: Mapping[str, Paper], files: Sequence[FileRead],
              deleted: Collection[str] = (), present: Collection[str] | None = None) -> SyncPlan:
    """The plan for syncing ``stored`` (paper id → paper, with its ``file_key``) with the
    ``files`` just read; ``deleted`` are the keys of stored files that are no longer in a
    folder this ingest read, ``present`` those still on disk (None: all of them). See the
    module docstring for the rules."""
    plan = SyncPlan()
    holdings = _Holdings(files, deleted, present)
    new, adopted_by = _plan_read(plan, stored, holdings)
    unread = _plan_unread(plan, stored, holdings)
    _pair_replacements(plan, new, unread.gone)
    _note_kept(plan, stored, holdings, unread, adopted_by)
    return plan


class _Holdings:
    """Which files hold each paper, as this ingest found them: the files read (each with
    the ids it holds), the stored files deleted from their folder, and those still on disk."""

    def __init__(self, files: Sequence[FileRead], deleted: Collection[str],
                 present: Collection[str] | None) -> None:
        self.files = files
        self.deleted = deleted
        self.present = present
        self.read_ids = {pid for f in files for pid in f.ids}
        self.by_key = {f.key: f for f in files}
        self.holding: dict[str, dict[str, str]] = {}  # paper id → the files of this ingest holding it
        for f in files:
            for pid, locator in f.locators.items():
                self.holding.setdefault(pid, {})[f.key] = locator

    def dropped(self, key: str, pid: str) -> bool:
        """The file ``key`` no longer holds the paper: read whole without it, or deleted."""
        if key in self.by_key:
            return self.by_key[key].complete and pid not in self.by_key[key].ids
        return key in self.deleted

    def holders(self, pid: str, primary: str, old: Paper | None) -> tuple[tuple[str, str], ...]:
        """The other files holding the paper: those recorded and still holding it, the one
        it moves away from if still there, and those of this ingest, at their locators."""
        found = dict(old.held_by or ()) if old else {}
        if old and old.file_key:
            found.setdefault(old.file_key, old.source)
        found = {k: v for k, v in found.items() if not self.dropped(k, pid)
                 and (self.present is None or k in self.present or k in self.by_key)}
        found.update(self.holding.get(pid, {}))
        found.pop(primary, None)
        return tuple(found.items())


def _sort(plan: SyncPlan, old: Paper, paper: Paper) -> None:
    """A stored paper read again: relocated, adopted (metadata only) or unchanged."""
    if _shown(old) != _shown(paper):
        plan.relocate.append(paper)
    elif (old.file_key, _details(old), old.held_by) != (
            paper.file_key, _details(paper), paper.held_by):
        plan.adopt.append(paper)
    else:
        plan.unchanged.append(paper.paper_id)


def _plan_read(plan: SyncPlan, stored: Mapping[str, Paper],
               holdings: _Holdings) -> tuple[list[Paper], Counter[str]]:
    """Sort the papers read: stored ones into the plan, the rest returned as new (to be added
    or to replace a removed one), with how many earlier-version papers each path file adopted."""
    new: list[Paper] = []
    adopted_by: Counter[str] = Counter()  # path file key → earlier-version papers it adopted
    for f in holdings.files:
        for paper in f.papers:
            old = stored.get(paper.paper_id)
            if old is None:
                new.append(replace(paper, held_by=holdings.holders(paper.paper_id, paper.file_key, None)))
                continue
            if old.file_key != paper.file_key and is_upload_key(paper.file_key):
                kept_as = old  # an upload takes nothing over
            else:
                if not old.file_key:
                    adopted_by[f.key] += 1
                kept_as = paper
                if old.title_model and paper.title_derived:  # a model's title is written once
                    kept_as = replace(paper, title=old.title, title_model=old.title_model)
            _sort(plan, old, replace(kept_as, held_by=holdings.holders(old.paper_id, kept_as.file_key, old)))
    return new, adopted_by


@dataclass
class _Unread:
    """What became of the stored papers this ingest did not read, for the plan's notes."""

    gone: list[Paper] = field(default_factory=list)  # removed, unless a new paper replaces one
    kept_unread: Counter[str] = field(default_factory=Counter)  # file key → kept, file read in part
    deleted_from: Counter[str] = field(default_factory=Counter)  # file key → papers gone with it
    moved_to: dict[str, Counter[str]] = field(default_factory=dict)  # file key → files its papers moved to
    released: Counter[str] = field(default_factory=Counter)  # file key → stored papers it no longer holds


def _plan_unread(plan: SyncPlan, stored: Mapping[str, Paper], holdings: _Holdings) -> _Unread:
    """Sort the stored papers not read this time: moved to another file holding them, gone
    with their file, or kept (with their record of the files holding them brought up to date)."""
    unread = _Unread()
    for pid, old in stored.items():
        if pid in holdings.read_ids:
            continue
        others = holdings.holders(pid, old.file_key, old) if old.held_by else ()
        leaving = bool(old.file_key) and holdings.dropped(old.file_key, pid)
        if leaving and others:  # another file holds it: it moves there
            (key, locator), rest = others[0], others[1:]
            plan.relocate.append(replace(old, file_key=key, source=locator, held_by=rest))
            unread.moved_to.setdefault(old.file_key, Counter())[key] += 1
            continue
        if leaving:
            unread.gone.append(old)
            if old.file_key not in holdings.by_key:
                unread.deleted_from[old.file_key] += 1
            continue
        if old.file_key in holdings.by_key:  # read in part: kept where it is
            unread.kept_unread[old.file_key] += 1
        if old.held_by and others != old.held_by:  # a file recorded as holding it no longer does
            plan.released.append(replace(old, held_by=others))
            for key in dict(old.held_by).keys() - dict(others).keys():
                unread.released[key] += 1
    return unread


def _pair_replacements(plan: SyncPlan, new: list[Paper], gone: list[Paper]) -> None:
    """A new abstract where its file's removed one stood replaces it; the other new papers
    are added and the other gone ones removed."""
    at = {(g.file_key, g.source): g for g in gone}
    for paper in new:
        old = at.pop((paper.file_key, paper.source), None)
        if old is None:
            plan.add.append(paper)
        else:
            plan.replace.append((old.paper_id, paper))
    replaced = {old for old, _ in plan.replace}
    plan.remove = [g.paper_id for g in gone if g.paper_id not in replaced]


def _note_kept(plan: SyncPlan, stored: Mapping[str, Paper], holdings: _Holdings,
               unread: _Unread, adopted_by: Counter[str]) -> None:
    """The plan's notes: files gone from their folder, and stored papers kept (or moved)
    that a sync would otherwise have removed, each with its reason."""
    moved_to, released = unread.moved_to, unread.released
    named = _names({*unread.deleted_from, *moved_to, *(k for c in moved_to.values() for k in c),
                    *released})
    plan.gone = [Gone(named[key], count) for key, count in unread.deleted_from.items()]
    for key, count in released.items():
        plan.kept.append(Kept(named[key], count, "it no longer holds "
                              f"{'it' if count == 1 else 'them'}; the files "
                              f"{'it is' if count == 1 else 'they are'} stored with do"))
    for key, went in moved_to.items():
        plan.kept.append(Kept(named[key], went.total(), "another stored file holds "
                              f"{'it' if went.total() == 1 else 'them'} now "
                              f"({', '.join(named[k] for k in went)})"))
    for f in holdings.files:
        if unread.kept_unread[f.key]:
            plan.kept.append(Kept(f.name, unread.kept_unread[f.key], _unread_reason(f)))
        if adopted_by[f.key] and f.complete:
            legacy = sum(1 for pid, p in stored.items()
                         if not p.file_key and p.file == f.name and pid not in holdings.read_ids)
            if legacy:
                plan.kept.append(Kept(
                    f.name, legacy, "stored by an earlier version that did not record the "
                    "file's path, and not found in it now; `assistant ingest --rebuild` starts over"))


def _names(keys: Collection[str]) -> dict[str, str]:
    """How notes name files: by name, or by path where two of them share a name."""
    def name(key: str) -> str:
        return key.removeprefix(UPLOAD_PREFIX).replace("\\", "/").rsplit("/", 1)[-1]

    counts = Counter(name(k) for k in keys)
    return {k: name(k) if counts[name(k)] == 1 else k for k in keys}


def _unread_reason(f: FileRead) -> str:
    """"line 3 could not be read": why a file's removals were suspended."""
    problems = [s for s in f.skipped if s.incomplete]
    first = problems[0]
    if first.whole_file:
        return f"the file could not be read ({first.reason})"
    where = f"line {first.line}" if first.line else "a record"
    more = sum(s.count for s in problems) - 1
    return f"{where} could not be read" + (f" (and {more:,} more records)" if more else "")
