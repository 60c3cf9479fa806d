"""The sync plan as a table: what is stored, what was read → what the ingest does. Pure:
no store, no files; each row is one rule of sync.py."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from assistant.corpus import FileRead, Paper, Skipped, make_paper_id
from assistant.sync import SyncPlan, plan_sync

SEEDS = "/data/seeds/000.txt"
UPLOAD = "upload:000.txt"


def paper(text: str, key: str, n: int, title: str = "", name: str = "") -> Paper:
    """A paper known by a short text ("A", "B2"…); its locator is ``<file name>#n``."""
    name = name or key.removeprefix("upload:").rsplit("/", 1)[-1]
    return Paper(paper_id=make_paper_id(text), source=f"{name}#{n}", title=title or f"T {text}",
                 text=text, file_key=key)


def stored(*papers: Paper) -> dict[str, Paper]:
    return {p.paper_id: p for p in papers}


def read(key: str, *texts: str, skipped: tuple[Skipped, ...] = (), repeats: tuple[str, ...] = (),
         titles: dict[str, str] | None = None) -> FileRead:
    """A file read as ``texts`` in order; ``repeats`` are abstracts it also holds that an
    earlier file of the same ingest already gave."""
    name = key.removeprefix("upload:").rsplit("/", 1)[-1]
    papers = [paper(t, key, n, (titles or {}).get(t, "")) for n, t in enumerate(texts, start=1)]
    locators = {p.paper_id: p.source for p in papers} | {
        make_paper_id(t): f"{name}#{n}" for n, t in enumerate(repeats, start=len(texts) + 1)}
    return FileRead(key=key, name=name, papers=papers, ids=set(locators), locators=locators,
                    skipped=list(skipped))


def unreadable(name: str, line: int | None = None, whole: bool = False) -> Skipped:
    return Skipped(name, "is not valid here", line, whole_file=whole)


@dataclass
class Expected:
    add: list[str] = field(default_factory=list)  # texts
    replace: list[tuple[str, str]] = field(default_factory=list)  # (old text, new text)
    remove: list[str] = field(default_factory=list)
    relocate: list[tuple[str, str]] = field(default_factory=list)  # (text, new locator)
    adopt: list[str] = field(default_factory=list)
    unchanged: int = 0
    kept: list[str] = field(default_factory=list)


def summary(plan: SyncPlan, before: dict[str, Paper]) -> Expected:
    return Expected(
        add=[p.text for p in plan.add],
        replace=[(before[old].text, new.text) for old, new in plan.replace],
        remove=[before[pid].text for pid in plan.remove],
        relocate=[(p.text, p.source) for p in plan.relocate],
        adopt=[p.text for p in plan.adopt],
        unchanged=len(plan.unchanged),
        kept=[str(k) for k in plan.kept],
    )


A, B, C = (paper(t, SEEDS, n) for n, t in enumerate("ABC", start=1))
# Stored by the version before file identities: no file_key.
LEGACY_A, LEGACY_B = paper("A", "", 1, name="000.txt"), paper("B", "", 2, name="000.txt")

CASES: list[tuple[str, dict[str, Paper], list[FileRead], Expected]] = [
    ("same file again changes nothing",
     stored(A, B, C), [read(SEEDS, "A", "B", "C")], Expected(unchanged=3)),
    ("an edited abstract replaces the one at its locator",
     stored(A, B, C), [read(SEEDS, "A", "B2", "C")], Expected(replace=[("B", "B2")], unchanged=2)),
    ("a moved abstract only gets its new locator",
     stored(A, B, C), [read(SEEDS, "A", "C", "B")],
     Expected(relocate=[("C", "000.txt#2"), ("B", "000.txt#3")], unchanged=1)),
    ("a retitled abstract is relocated (metadata only)",
     stored(A), [read(SEEDS, "A", titles={"A": "New title"})],
     Expected(relocate=[("A", "000.txt#1")])),
    ("an abstract removed from its file leaves the store",
     stored(A, B, C), [read(SEEDS, "A", "C")],
     Expected(relocate=[("C", "000.txt#2")], remove=["B"], unchanged=1)),
    ("a file of the same name in another folder is another file",
     stored(A, B), [read("/other/000.txt", "D")], Expected(add=["D"])),
    ("an upload named like a stored file removes none of its papers",
     stored(A, B, C), [read(UPLOAD, "D")], Expected(add=["D"])),
    ("an upload never takes over a paper another file stored (it is recorded as holding it)",
     stored(A, B), [read(UPLOAD, "B", "D")], Expected(add=["D"], adopt=["B"])),
    ("a later upload of that name replaces what the earlier upload added",
     stored(A, paper("D", UPLOAD, 1), paper("E", UPLOAD, 2)), [read(UPLOAD, "F")],
     Expected(replace=[("D", "F")], remove=["E"])),
    ("a file that could not be read at all keeps its papers",
     stored(A, B), [read(SEEDS, skipped=(unreadable("000.txt", whole=True),))],
     Expected(kept=["kept 2 stored papers of 000.txt: the file could not be read "
                    "(is not valid here)"])),
    ("a file read in part adds its good records and removes nothing",
     stored(A, B, C), [read(SEEDS, "A", "D", skipped=(unreadable("000.txt", 3),))],
     Expected(add=["D"], unchanged=1,
              kept=["kept 2 stored papers of 000.txt: line 3 could not be read"])),
    ("several unread records are summed up",
     stored(A, B, C), [read(SEEDS, "A", skipped=(unreadable("000.txt", 3), unreadable("000.txt", 7)))],
     Expected(unchanged=1,
              kept=["kept 2 stored papers of 000.txt: line 3 could not be read (and 1 more records)"])),
    ("repeated abstracts do not stop a file's sync",
     stored(A, B, C),
     [read(SEEDS, "A", "B", skipped=(Skipped("000.txt", "1 repeat", incomplete=False),))],
     Expected(remove=["C"], unchanged=2)),
    ("a paper moving from one file to another moves, and is not removed",
     stored(A, B), [read(SEEDS, "A"), read("/data/seeds/001.txt", "B")],
     Expected(relocate=[("B", "001.txt#1")], unchanged=1)),
    ("a paper repeated in a second file stays with the first, which is recorded as holding it",
     stored(A), [read(SEEDS, "A"), read("/data/seeds/001.txt", "D", repeats=("A",))],
     Expected(add=["D"], adopt=["A"])),
    ("same-named files in one ingest: one replacement, one addition",
     stored(A), [read(SEEDS, "D"), read("/elsewhere/000.txt", "E")],
     Expected(replace=[("A", "D")], add=["E"])),
    ("earlier-version papers are adopted, never removed, and the rest is said once",
     stored(LEGACY_A, LEGACY_B), [read(SEEDS, "A", "C")],
     Expected(adopt=["A"], add=["C"],
              kept=["kept 1 stored paper of 000.txt: stored by an earlier version that did not "
                    "record the file's path, and not found in it now; `assistant ingest "
                    "--rebuild` starts over"])),
    ("an earlier-version paper read at a new place is adopted and relocated",
     stored(LEGACY_A), [read(SEEDS, "B", "A")], Expected(add=["B"], relocate=[("A", "000.txt#2")])),
    ("an upload takes over no earlier-version paper and removes none (it is recorded)",
     stored(LEGACY_A, LEGACY_B), [read(UPLOAD, "A")], Expected(adopt=["A"])),
]


@pytest.mark.parametrize(("case", "before", "files", "expected"), CASES, ids=[c[0] for c in CASES])
def test_plan(case: str, before: dict[str, Paper], files: list[FileRead], expected: Expected) -> None:
    plan = plan_sync(before, files)
    assert summary(plan, before) == expected
    # Every deletion is reported: as a removal, or as the replaced half of a replacement.
    assert sorted(plan.to_delete) == sorted(plan.remove + [old for old, _ in plan.replace])
    deleted = set(plan.to_delete)
    # Only papers of a file read completely in this ingest are ever deleted.
    complete = {f.key for f in files if f.complete}
    assert all(before[pid].file_key in complete for pid in deleted)


def test_plan_is_pure() -> None:
    before = stored(A, B, C)
    files = [read(SEEDS, "A", "B2")]
    first, second = plan_sync(before, files), plan_sync(before, files)
    assert first == second and before == stored(A, B, C)


def test_a_file_gone_from_its_folder_takes_its_papers_unless_read_again() -> None:
    other = "/data/seeds/001.txt"
    before = stored(A, paper("D", other, 1), paper("E", other, 2), paper("F", UPLOAD, 1))
    plan = plan_sync(before, [read(SEEDS, "A", "E")], deleted={other})
    assert summary(plan, before) == Expected(remove=["D"], relocate=[("E", "000.txt#2")],
                                             unchanged=1)
    assert [str(g) for g in plan.gone] == [
        "removed 1 stored paper of 001.txt: the file is no longer in its folder"]
    # Without the folder read, the same files remove nothing of 001.txt.
    assert summary(plan_sync(before, [read(SEEDS, "A", "E")]), before).remove == []


def held(p: Paper, *holders: tuple[str, str]) -> Paper:
    return replace(p, held_by=holders)


def test_a_leaving_paper_another_file_holds_moves_there() -> None:
    reading = "/data/lists/reading.txt"
    before = stored(A, held(B, (reading, "reading.txt#4")), C)
    plan = plan_sync(before, [read(SEEDS, "A", "D")])
    # B moves to the file that holds it; C leaves; D, at B's place, is added, not a replacement
    assert summary(plan, before) == Expected(add=["D"], remove=["C"], relocate=[("B", "reading.txt#4")],
                                             unchanged=1,
                                             kept=["kept 1 stored paper of 000.txt: another "
                                                   "stored file holds it now (reading.txt)"])
    assert plan.relocate[0].file_key == reading and plan.relocate[0].held_by == ()
    # a file read in part keeps its papers where they are, held elsewhere or not
    partial = plan_sync(before, [read(SEEDS, "A", skipped=(unreadable("000.txt", 3),))])
    assert partial.relocate == [] and partial.to_delete == []
    # the holder read whole without it leaves the record, so a later drop removes it
    plan = plan_sync(before, [read(reading, "E")])
    assert [(p.text, p.held_by) for p in plan.released] == [("B", ())] and plan.remove == []
    # ...said, and not counted among the file's unchanged papers (review)
    assert plan.unchanged == [] and [str(k) for k in plan.kept] == [
        "kept 1 stored paper of reading.txt: it no longer holds it; the files it is stored "
        "with do"]


def test_a_holder_record_is_kept_true() -> None:
    """Reviews of the holders: a paper moved to a recorded holder no longer on disk while
    another was there; and a record of a file read whole without the paper survived when
    the paper's own file was read in part (two papers later shared one locator)."""
    b, c = "/data/lists/b.txt", "/data/lists/c.txt"
    before = stored(A, held(B, (b, "b.txt#1"), (c, "c.txt#2")), C)
    plan = plan_sync(before, [read(SEEDS, "A", "C")], present={SEEDS, c})
    assert [(p.text, p.source, p.held_by) for p in plan.relocate if p.text == "B"] == [
        ("B", "c.txt#2", ())]
    plan = plan_sync(before, [read(SEEDS, "A", skipped=(unreadable("000.txt", 3),)),
                              read(b, "X")])
    assert [(p.text, p.held_by) for p in plan.released] == [("B", ((c, "c.txt#2"),))]
    assert plan.to_delete == []


def test_every_file_holding_a_paper_is_recorded_and_kept_up_to_date() -> None:
    reading, upload = "/data/lists/reading.txt", "upload:list.txt"
    # read once from SEEDS, the reading list (all repeats) and an upload are recorded
    plan = plan_sync({}, [read(SEEDS, "A"), read(reading, repeats=("A",)),
                          read(upload, repeats=("A",))])
    assert plan.add[0].held_by == ((reading, "reading.txt#1"), (upload, "list.txt#1"))
    # a path file reading it again takes it over; the one it left, still there, holds it
    before = stored(A)
    plan = plan_sync(before, [read(reading, "X", "A")])
    assert [(p.source, p.held_by) for p in plan.relocate] == [
        ("reading.txt#2", ((SEEDS, "000.txt#1"),))]
    # ...unless that file is gone from the disk (a rename)
    plan = plan_sync(before, [read(reading, "X", "A")], present=())
    assert plan.relocate[0].held_by == ()
    # an upload takes nothing over, and is recorded
    plan = plan_sync(before, [read(upload, "A")])
    assert [(p.source, p.held_by) for p in plan.adopt] == [("000.txt#1", ((upload, "list.txt#1"),))]
    # two files of one name are named by path in the notes
    twin, third = "/data/other/000.txt", "/data/third/000.txt"
    before = stored(held(A, (twin, "000.txt#7")), paper("B", twin, 1), paper("E", third, 1))
    plan = plan_sync(before, [read(SEEDS, "C")], deleted={third})
    assert [str(k) for k in plan.kept] == [
        f"kept 1 stored paper of {SEEDS}: another stored file holds it now ({twin})"]
    assert [str(g) for g in plan.gone] == [
        f"removed 1 stored paper of {third}: the file is no longer in its folder"]
