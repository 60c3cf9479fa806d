"""Read files and folders into ``Paper`` records, one ``FileRead`` per file.

Every problem becomes a ``Skipped`` entry that names the file (and line) and what to do;
a bad file or record never stops the others from being read. Each file read is also a
``FileRead``: its identity (``file_key``: the resolved path, or ``upload:<name>`` for an
upload), the papers found in it, and whether it was read completely — the sync (sync.py)
removes stored papers only on the word of a completely read file.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from assistant.derived_titles import derive_title
from assistant.file_formats import csv_records, jsonl_records, seed_records
from assistant.left_out import REPEATS, LeftOut
from assistant.paper import Paper, file_key, find_links, make_paper_id, normalise, opening
from assistant.skipped import Skipped
from assistant.venues import LATEST_YEAR, canonical_venue, parse_year, venue_from_name

SUPPORTED_SUFFIXES = (".txt", ".csv", ".jsonl")
PLACEHOLDER_WORDS = 10  # a text this short that records of several titles share is no abstract
NO_SUCH_PATH = "no such file or directory"


@dataclass
class FileRead:
    """One file as read: the input of the sync plan for that file."""

    key: str  # identity: resolved path, or "upload:<name>" (never equal to a path)
    name: str  # the base name, as in the papers' locators
    papers: list[Paper] = field(default_factory=list)  # its papers not read before in this ingest
    ids: set[str] = field(default_factory=set)  # every paper id in the file, repeats too
    locators: dict[str, str] = field(default_factory=dict)  # id → its locator in this file
    skipped: list[Skipped] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)  # its records not stored (left_out.py)

    @property
    def complete(self) -> bool:
        """Every record was read: only then may the file's stored papers be removed."""
        return not any(s.incomplete for s in self.skipped)


@dataclass
class ReadResult:
    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: list[FileRead] = field(default_factory=list)


def read_paths(paths: Iterable[Path], max_chars: int = 20_000, upload: bool = False) -> ReadResult:
    """Read every supported file under ``paths`` (files or directories). With ``upload``
    each file is known as ``upload:<name>`` rather than by its (temporary) path."""
    result = ReadResult()
    keys: set[str] = set()
    files: list[tuple[Path, str, list[Paper], list[Skipped], list[LeftOut]]] = []
    for path in _expand(paths, result):
        key = file_key(path, upload)
        if key in keys:
            if upload:  # two uploads of one name in one go: which one is the file?
                result.skipped.append(Skipped(path.name, "another file of this name is in the "
                                              "same upload; upload it on its own", whole_file=True))
            continue  # the same file named twice: read once
        keys.add(key)
        untexted: list[LeftOut] = []  # its records with a title and an empty abstract
        files.append((path, key, *read_file(path, max_chars, key, untexted), untexted))
    placeholders = placeholder_ids(p for _, _, papers, _, _ in files for p in papers)
    seen: dict[str, Paper] = {}
    for path, key, papers, skipped, untexted in files:
        read = _file_read(path.name, key, papers, skipped, seen, placeholders)
        read.left_out[:0] = untexted
        result.files.append(read)
        result.papers.extend(read.papers)
        result.skipped.extend(read.skipped)
    return result


def placeholder_ids(papers: Iterable[Paper]) -> set[str]:
    """The ids of texts too short to be an abstract (under PLACEHOLDER_WORDS words) that
    records of different titles give as theirs: "Abstract Unavailable", under 55 titles of
    the NeurIPS 1987-2021 CSVs, had been stored as one paper and the rest taken for its
    repeats. A real abstract under two titles (a paper listed twice) stays, kept once. A
    text that says only that there is no abstract is one under a single title too: a file
    with one such row ("Abstract Unavailable" alone in the 1990 CSV) had stored it as an
    abstract."""
    titles: dict[str, set[str]] = {}
    for paper in papers:
        if not paper.title_derived and len(paper.text.split()) < PLACEHOLDER_WORDS:
            titles.setdefault(paper.paper_id, set()).add(paper.title.casefold())
            if says_no_abstract(paper.text):
                titles[paper.paper_id].add("")  # counts as a second title
    return {pid for pid, named in titles.items() if len(named) > 1}


_NO_ABSTRACT_WORDS = frozenset(("abstract", "unavailable", "not", "available", "missing", "no",
                                "none", "n/a", "na", "null", "tba", "tbd", "pending", "given",
                                "provided", "withheld"))


def says_no_abstract(text: str) -> bool:
    """A text whose every word only says the abstract is missing ("Abstract Unavailable",
    "No abstract.", "N/A"); "Abstract" alone is a heading, not such a text."""
    words = [w.strip(".:;,!()[]-–—*_").casefold() for w in text.split()]
    words = [w for w in words if w]
    return bool(words) and set(words) <= _NO_ABSTRACT_WORDS and set(words) != {"abstract"}


def _file_read(name: str, key: str, papers: list[Paper], skipped: list[Skipped],
               seen: dict[str, Paper], placeholders: set[str]) -> FileRead:
    """One file's papers less those read before in this ingest (``seen``, by id, which
    grows) and the placeholders, each group said in one line that leaves the file fully
    read. A repeat under another title is left out by name (``left_out.REPEATS``): the
    store keeps the abstract once, under the title it fits (``_fitting``), and the other had
    been missing from every count without a word; one under the same title (or none) is the same paper."""
    read = FileRead(key=key, name=name, skipped=skipped)
    repeats: list[str] = []
    unavailable: list[str] = []
    for paper in papers:
        ordinal = paper.source.rsplit("#", 1)[1]
        if paper.paper_id in placeholders:
            unavailable.append(ordinal)
            read.left_out.append(LeftOut.of(paper))
            continue
        read.ids.add(paper.paper_id)
        read.locators.setdefault(paper.paper_id, paper.source)
        if (first := seen.get(paper.paper_id)) is not None:
            repeats.append(ordinal)
            if not paper.title_derived and first.title.casefold() != paper.title.casefold():
                kept, left = _fitting(first, paper, read)
                read.left_out.append(LeftOut.of(left, REPEATS, same_as=kept))
                seen[paper.paper_id] = kept
            continue
        seen[paper.paper_id] = paper
        read.papers.append(paper)
    if unavailable:
        said = next(p.text for p in papers if p.paper_id in placeholders)
        skipped.append(Skipped(name, f"{_records_have(unavailable)} no abstract, only a "
                               f"placeholder (“{said[:60]}”); not stored, and answers say so: "
                               "give them their abstracts", incomplete=False,
                               count=len(unavailable)))
    if repeats:  # one line however many, and the file still counts as fully read
        skipped.append(Skipped(name, _repeats_reason(repeats), incomplete=False,
                               count=len(repeats)))
    read.left_out += [LeftOut.unread(name, s) for s in skipped if s.unread_record]
    return read


def _fitting(first: Paper, later: Paper, read: FileRead) -> tuple[Paper, Paper]:
    """Of two records giving one abstract under two titles, the one kept (in ``read``'s
    papers) and the one left out: the title whose words the abstract writes more of, the
    first on a tie. The first had always been kept, and in most such pairs of the NeurIPS
    CSVs the abstract is the second title's ("Unmixing Hyperspectral Data" had been stored
    as "Invariant Feature Extraction…"). One read in an earlier file stays."""
    def fit(title: str) -> float:
        words = _stems(title)
        return len(words & _stems(later.text)) / len(words) if words else 0.0
    if first not in read.papers or fit(later.title) <= fit(first.title):
        return first, later
    read.papers[read.papers.index(first)] = later
    read.locators[later.paper_id] = later.source
    return later, first


def _stems(text: str) -> set[str]:
    """A text's words of four letters or more, by their first five (a stem, roughly)."""
    return {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())}


def _records_have(ordinals: list[str]) -> str:
    """"record #3 has", "3 records (#3, #5, #9) have", "12 records (#3, #5, #9, …) have"."""
    if len(ordinals) == 1:
        return f"record #{ordinals[0]} has"
    return f"{len(ordinals):,} records ({_first_ordinals(ordinals)}) have"


def _repeats_reason(ordinals: list[str]) -> str:
    if len(ordinals) == 1:
        return f"abstract #{ordinals[0]} repeats an abstract already read; kept once"
    return (f"{len(ordinals):,} repeats of abstracts already read "
            f"({_first_ordinals(ordinals)}); kept once")


def _first_ordinals(ordinals: list[str]) -> str:
    """"#3, #5, #9, …": the first three of a file's records, and whether there are more."""
    return ", ".join(f"#{n}" for n in ordinals[:3]) + (", …" if len(ordinals) > 3 else "")


def _expand(paths: Iterable[Path], result: ReadResult) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            entries = sorted(p for p in path.iterdir() if not p.name.startswith("."))
            children = [p for p in entries if p.is_file()]
            for other in entries:  # said, not passed over in silence (a review)
                if other.is_dir():
                    result.skipped.append(Skipped(str(other), "is a folder inside a folder: "
                                                  "only a folder's own files are read; give it "
                                                  "on its own", incomplete=False))
                elif not other.is_file():
                    result.skipped.append(Skipped(str(other), "is not a regular file (a broken "
                                                  "link, a pipe or a device)", incomplete=False))
            if not entries:
                result.skipped.append(Skipped(str(path), "directory holds no files"))
            yield from children
        elif path.is_file():
            yield path
        else:
            result.skipped.append(Skipped(str(path), NO_SUCH_PATH, whole_file=True))


def read_file(path: Path, max_chars: int = 20_000, key: str = "",
              left_out: list[LeftOut] | None = None) -> tuple[list[Paper], list[Skipped]]:
    """Parse one file; never raises for bad content. ``key`` is the file's identity, given
    to each paper; ``left_out`` gets its records that give a title and no abstract, kept
    beside the store as a placeholder's are (a run's receipts had never counted them)."""
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        return [], [Skipped(name, f"unsupported file type '{suffix or '(none)'}'; "
                    "use .txt (seed format), .csv or .jsonl", whole_file=True)]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return [], [Skipped(name, f"cannot read the file: {exc.strerror or exc}", whole_file=True)]
    text, problem = decode(raw, name)
    if text is None:  # and ``problem`` says why
        return [], [problem] if problem else []
    if suffix == ".txt":
        records, skipped = seed_records(text, name)
    elif suffix == ".csv":
        records, skipped = csv_records(text, name)
    else:
        records, skipped = jsonl_records(text, name)
    skipped[:0] = [problem] if problem else []  # lines read as Windows-1252: a note
    papers: list[Paper] = []
    for line, ordinal, rec in records:
        abstract = normalise(rec.get("abstract", ""))
        if not abstract:
            skipped.append(Skipped(name, f"record #{ordinal} has an empty abstract", line))
            if left_out is not None and (record := _untexted(rec, f"{name}#{ordinal}")):
                left_out.append(record)
            continue
        if len(abstract) > max_chars:
            abstract, note = _cut(abstract, max_chars, name, ordinal, line)
            skipped.append(note)
            if not abstract:
                continue
        year, note = _year(rec.get("year", ""), name, ordinal, line)
        skipped += [note] if note else []
        link = normalise(rec.get("link", ""))
        links = tuple(dict.fromkeys(([link] if link else []) + list(find_links(abstract))))
        title = normalise(rec.get("title", ""))
        papers.append(Paper(
            paper_id=make_paper_id(abstract),
            source=f"{name}#{ordinal}",
            title=title or derive_title(abstract),
            text=abstract,
            authors=normalise(rec.get("authors", "")),
            links=links,
            file_key=key,
            year=year,
            venue=_venue(rec, name),
            title_derived=not title,
        ))
    if not records and not any(s.incomplete for s in skipped):
        skipped[:] = [Skipped(name, "holds no abstracts (empty or header only)", whole_file=True)]
    return papers, skipped


def _year(typed: str, name: str, ordinal: int, line: int) -> tuple[int | None, Skipped | None]:
    """A record's year, and a stored note when its field holds none ("20xx", "3021") or one
    still to come ("2099": a run's filter "last year" had then read 2099)."""
    typed, year = normalise(typed), parse_year(typed)
    if not typed or (year is not None and year <= LATEST_YEAR):
        return year, None
    shown = typed if len(typed) <= 24 else f"{typed[:23]}…"  # "two thousand ninetee" had been cut
    return None, Skipped(name, f"record #{ordinal} gives the year “{shown}”, which is "
                         f"{'no year' if year is None else 'still to come'}: stored with none",
                         line, incomplete=False, stored=True)


def _untexted(rec: Mapping[str, str], source: str) -> LeftOut | None:
    """A record with an empty abstract as one left out, when it gives a title."""
    title = normalise(rec.get("title", ""))
    return LeftOut(source, title, normalise(rec.get("authors", "")), parse_year(rec.get("year", "")),
                   _venue(rec, source.rsplit("#", 1)[0])) if title else None


def _venue(rec: Mapping[str, str], name: str) -> str:
    """A record's venue as the store names it: its own field's, else the file name's."""
    return canonical_venue(normalise(rec.get("venue", ""))) or venue_from_name(name)


def _cut(abstract: str, max_chars: int, name: str, ordinal: int, line: int
         ) -> tuple[str, Skipped]:
    """An abstract field over the limit as its opening sentences, with the note that says so
    (a whole paper given as its abstract, 23 rows of the NeurIPS 2004 CSV, had been dropped
    with its title); a field where no sentence ends within the limit ("word " × 200,000)
    is no abstract: "" and the reason it is skipped."""
    kept = opening(abstract, max_chars)
    over = (f"record #{ordinal} is {len(abstract):,} characters, over the {max_chars:,}-character "
            "limit for one abstract")
    if not kept:
        return "", Skipped(name, f"{over}, and no sentence ends within it; split it into "
                           "abstracts separated by blank lines or raise "
                           "ASSISTANT_INDEX_MAX_ABSTRACT_CHARS", line)
    return kept, Skipped(name, f"{over}: kept its opening {len(kept):,} characters, cut at a "
                         "sentence end; to keep it whole raise ASSISTANT_INDEX_MAX_ABSTRACT_CHARS",
                         line, incomplete=False, stored=True)


def decode(raw: bytes, name: str) -> tuple[str | None, Skipped | None]:
    """UTF-8 text (UTF-16 or UTF-32 with its byte-order mark too: Windows tools save it so), with
    a note naming the lines read as Windows-1252 (``_per_line``), or the reason it is none."""
    for bom, encoding in ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                          (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if raw.startswith(bom):
            with contextlib.suppress(UnicodeDecodeError):
                return raw.decode(encoding), None
            break
    if b"\x00" in raw[:8192]:
        return None, Skipped(name, "looks like a binary file (NUL bytes); give a UTF-8 "
                             "text, CSV or JSONL file", whole_file=True)
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return _per_line(raw.removeprefix(b"\xef\xbb\xbf"), name, exc)


def _per_line(raw: bytes, name: str, first: UnicodeDecodeError) -> tuple[str, Skipped]:
    """Text not all UTF-8 read a line at a time: in a line that is not, each byte that is
    not UTF-8 is read as Windows-1252 (a superset of Latin-1, what spreadsheets on Windows
    save), and the note names those lines. One Latin-1 row had skipped a whole CSV, its
    message naming only that row."""
    lines, bad = [], []
    for number, line in enumerate(raw.split(b"\n"), 1):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:  # its UTF-8 kept, each other byte read as Windows-1252
            lines.append(re.sub("[\udc80-\udcff]", lambda m: bytes([ord(m.group(0)) - 0xDC00]).decode(
                "cp1252", errors="replace"), line.decode("utf-8", errors="surrogateescape")))
            bad.append(number)
    shown = ", ".join(map(str, bad[:5])) + (f" and {len(bad) - 5:,} more" if len(bad) > 5 else "")
    return "\n".join(lines), Skipped(
        name, f"is not UTF-8 (byte 0x{raw[first.start]:02x} at offset {first.start}): "
        f"line{'s' if len(bad) > 1 else ''} {shown} read as Windows-1252, the rest as UTF-8; "
        "re-save the file as UTF-8 if a character reads wrong", bad[0], incomplete=False,
        stored=True)

