"""Read abstracts from seed-format text, CSV and JSONL files into ``Paper`` records.

Every problem becomes a ``Skipped`` entry that names the file (and line) and what to do;
a bad file or record never stops the others from being read. Each file read is also a
``FileRead``: its identity (``file_key``: the resolved path, or ``upload:<name>`` for an
upload), the papers found in it, and whether it was read completely — the sync (sync.py)
removes stored papers only on the word of a completely read file.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SUPPORTED_SUFFIXES = (".txt", ".csv", ".jsonl")
NO_SUCH_PATH = "no such file or directory"
URL_RE = re.compile(r"https?://[^\s<>()\[\]{}\"'`,;]+[^\s<>()\[\]{}\"'`,;.]")
FIELD_ALIASES = {
    "abstract": ("abstract", "summary", "text"),
    "title": ("title", "name"),
    "authors": ("authors", "author"),
    "link": ("link", "url", "paper_link", "pdf", "pdf_url"),
    "year": ("year", "publication_year", "date"),
    "venue": ("venue", "booktitle", "conference", "journal", "collection"),
}


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
    def link(self) -> str:
        """The paper's own link (its link field), not an address quoted in its abstract."""
        return next((u for u in self.links if u not in self.text), "")


@dataclass(frozen=True)
class Skipped:
    """An input that was not ingested, and why."""

    file: str
    reason: str
    line: int | None = None
    whole_file: bool = False  # the file could not be read at all (its stored papers stay)
    # False only for notes that leave the file's reading complete (repeated abstracts):
    # any other skip means the file was not fully read, so it removes no stored papers.
    incomplete: bool = True
    count: int = 1  # records this one line stands for (e.g. 4,999 repeats)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.reason}"


SHOWN_PER_FILE = 5  # skipped records listed one by one per file; the rest are counted


def skip_lines(skipped: Iterable[Skipped], per_file: int = SHOWN_PER_FILE) -> list[str]:
    """One line per skipped input, at most ``per_file`` per file and then how many more: a
    CSV with 5,000 broken rows printed 5,000 lines (a review)."""
    lines: list[str] = []
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    for skip in skipped:
        if shown.get(skip.file, 0) < per_file:
            shown[skip.file] = shown.get(skip.file, 0) + 1
            lines.append(str(skip))
        else:
            hidden[skip.file] = hidden.get(skip.file, 0) + skip.count
    lines += [f"{file}: {n:,} more records skipped (the first {per_file} are listed)"
              for file, n in hidden.items()]
    return lines


@dataclass
class FileRead:
    """One file as read: the input of the sync plan for that file."""

    key: str  # identity: resolved path, or "upload:<name>" (never equal to a path)
    name: str  # the base name, as in the papers' locators
    papers: list[Paper] = field(default_factory=list)  # its papers not read before in this ingest
    ids: set[str] = field(default_factory=set)  # every paper id in the file, repeats too
    locators: dict[str, str] = field(default_factory=dict)  # id → its locator in this file
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every record was read: only then may the file's stored papers be removed."""
        return not any(s.incomplete for s in self.skipped)


@dataclass
class ReadResult:
    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: list[FileRead] = field(default_factory=list)


UPLOAD_PREFIX = "upload:"


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


# ---------------------------------------------------------------- titles

_INTRO = re.compile(
    r"\b(?:propose|proposes|introduce|introduces|present|presents|develop|develops|"
    r"called|termed|named|dubbed|coin|[Oo]ur (?:new )?(?:algorithm|method|framework|approach|model))\b"
)
_NAMEISH = r"[A-Za-z][\w\-]*[A-Z][\w\-]*"
_ACRONYM_AFTER_PHRASE = re.compile(
    r"((?:[A-Z][\w\-]*\s+|(?:of|for|and|on|with|the|in|to|a)\s+){1,9}[A-Z][\w\-]*)\s*"
    r"\((" + _NAMEISH + r")\)"
)
_NAME_THEN_EXPANSION = re.compile(r"\b(" + _NAMEISH + r")\s*\(([A-Z][^()]{4,80})\)")
_NAME_AFTER_VERB = re.compile(
    r"\b(?:propose|proposes|introduce|introduces|present|presents|develop|develops)\s+"
    r"(?:[\w\-]+,?\s+){0,5}?(" + _NAMEISH + r")\b,?\s*(.*)"
)
_LATEX_WRAPPER = re.compile(r"\\(?:emph|textit|textbf|texttt|textsc)\{([^{}]*)\}")
_MATH = re.compile(r"\$[^$]*\$")
_SHORT_MATH = re.compile(r"[$\\{}^_]|\\[a-zA-Z]+")
_STUDY = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:first\s+)?"
    r"(?:study|studies|investigate|investigates|show|shows|propose|proposes|present|presents|"
    r"introduce|introduces|analy[sz]e|characterize|address|addresses|focus on)\s+"
    r"(?:that\s+|whether\s+|how\s+)?(.+)"
)
_SUBJECT_STOP = re.compile(
    r"\s(?:is|are|was|were|has|have|remains?|plays?|poses?|aims?|refers?|excels?|offers?|"
    r"motivates?|encodes?|yields?|hinges?|critically)\b|,|:| \(|—"
)
_COMMON_ACRONYMS = {"LLM", "LLMs", "RL", "SGD", "GNN", "GNNs", "DNN", "DNNs", "AI", "ML"}


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


def _clip(phrase: str, words: int = 10) -> str:
    parts = phrase.strip(" .,;:").split()
    clipped = " ".join(parts[:words]).rstrip(",;:")
    return clipped + ("…" if len(parts) > words else "")


def _method_name(sentence: str) -> str | None:
    """``NAME: description`` for the method an intro sentence names, if any."""
    m = _ACRONYM_AFTER_PHRASE.search(sentence)
    if m and m.group(2) not in _COMMON_ACRONYMS:
        phrase = re.sub(r"^(?:(?:the|a|an|of|for|and|on|with|in|to)\s+)+", "", m.group(1), flags=re.I)
        return f"{m.group(2)}: {phrase.strip()}"
    m = _NAME_THEN_EXPANSION.search(sentence)
    if m and m.group(1) not in _COMMON_ACRONYMS:
        return f"{m.group(1)}: {m.group(2).strip()}"
    m = _NAME_AFTER_VERB.search(sentence)
    if m and m.group(1) not in _COMMON_ACRONYMS:
        rest = re.sub(r"^(?:which|that)\s+", "", m.group(2))
        if not rest:
            return m.group(1)
        joiner = ": " if re.match(r"(?:an?|the)\s", rest) else " "
        return f"{m.group(1)}{joiner}{_clip(rest, 8)}"
    return None


def derive_title(text: str) -> str:
    """A short label for an abstract without a title: the method it introduces where it names
    one (``"TCCM: Time-Conditioned Contraction Matching"``), else a topic phrase taken from
    what the authors say they study, else the first sentence's subject."""
    plain = _LATEX_WRAPPER.sub(r"\1", _LATEX_WRAPPER.sub(r"\1", text)).replace("**", "")
    plain = _MATH.sub(lambda m: _SHORT_MATH.sub("", m.group(0)) if len(m.group(0)) < 12 else "", plain)
    sentences = split_sentences(plain)
    for sentence in sentences:
        if _INTRO.search(sentence) and (name := _method_name(sentence)):
            return name
    for sentence in sentences:
        if m := _STUDY.search(sentence):
            topic = _clip(m.group(1), 10)
            break
    else:
        first = sentences[0] if sentences else plain
        topic = _SUBJECT_STOP.split(first, maxsplit=1)[0].strip(" .")
        topic = _clip(topic if len(topic.split()) >= 2 else first, 10)
    return (topic[:1].upper() + topic[1:]) or "Untitled abstract"


# ---------------------------------------------------------------- readers


def read_paths(paths: Iterable[Path], max_chars: int = 20_000, upload: bool = False) -> ReadResult:
    """Read every supported file under ``paths`` (files or directories). With ``upload``
    each file is known as ``upload:<name>`` rather than by its (temporary) path."""
    result = ReadResult()
    seen: set[str] = set()
    keys: set[str] = set()
    for path in _expand(paths, result):
        key = file_key(path, upload)
        if key in keys:
            if upload:  # two uploads of one name in one go: which one is the file?
                result.skipped.append(Skipped(path.name, "another file of this name is in the "
                                              "same upload; upload it on its own", whole_file=True))
            continue  # the same file named twice: read once
        keys.add(key)
        papers, skipped = read_file(path, max_chars=max_chars, key=key)
        read = FileRead(key=key, name=path.name, skipped=skipped)
        repeats: list[str] = []
        for paper in papers:
            read.ids.add(paper.paper_id)
            read.locators.setdefault(paper.paper_id, paper.source)
            if paper.paper_id in seen:
                repeats.append(paper.source.rsplit("#", 1)[1])
                continue
            seen.add(paper.paper_id)
            read.papers.append(paper)
        if repeats:  # one line however many, and the file still counts as fully read
            skipped.append(Skipped(path.name, _repeats_reason(repeats), incomplete=False,
                                   count=len(repeats)))
        result.files.append(read)
        result.papers.extend(read.papers)
        result.skipped.extend(skipped)
    return result


def _repeats_reason(ordinals: list[str]) -> str:
    if len(ordinals) == 1:
        return f"abstract #{ordinals[0]} repeats an abstract already read; kept once"
    shown = ", ".join(f"#{n}" for n in ordinals[:3]) + (", …" if len(ordinals) > 3 else "")
    return f"{len(ordinals):,} repeats of abstracts already read ({shown}); kept once"


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


def read_file(path: Path, max_chars: int = 20_000, key: str = "") -> tuple[list[Paper], list[Skipped]]:
    """Parse one file; never raises for bad content. ``key`` is the file's identity, given
    to each paper."""
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
    if problem:
        return [], [problem]
    assert text is not None
    if suffix == ".txt":
        records, skipped = _seed_records(text, name)
    elif suffix == ".csv":
        records, skipped = _csv_records(text, name)
    else:
        records, skipped = _jsonl_records(text, name)
    papers: list[Paper] = []
    for line, ordinal, rec in records:
        abstract = normalise(rec.get("abstract", ""))
        if not abstract:
            skipped.append(Skipped(name, f"record #{ordinal} has an empty abstract", line))
            continue
        if len(abstract) > max_chars:
            skipped.append(Skipped(
                name, f"record #{ordinal} is {len(abstract):,} characters, over the "
                f"{max_chars:,}-character limit for one abstract; split it into abstracts "
                "separated by blank lines or raise ASSISTANT_INDEX_MAX_ABSTRACT_CHARS", line))
            continue
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
            year=parse_year(rec.get("year", "")),
            venue=canonical_venue(normalise(rec.get("venue", ""))) or venue_from_name(name),
            title_derived=not title,
        ))
    if not records and not any(s.incomplete for s in skipped):
        skipped[:] = [Skipped(name, "holds no abstracts (empty or header only)", whole_file=True)]
    return papers, skipped


def decode(raw: bytes, name: str) -> tuple[str | None, Skipped | None]:
    """UTF-8 text (UTF-16 or UTF-32 with its byte-order mark too: Windows tools save it so), or a
    reason naming the first bad line."""
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
        line = raw[: exc.start].count(b"\n") + 1
        return None, Skipped(name, f"is not UTF-8 (byte 0x{raw[exc.start]:02x} at offset "
                             f"{exc.start}); re-save the file as UTF-8", line, whole_file=True)


Record = tuple[int, int, dict[str, str]]  # (line number, 1-based ordinal, fields)


def line_ends(text: str) -> str:
    """``text`` with its line ends as LF: Windows' CRLF, and an old Mac file's lone CRs
    when they outnumber its LFs (a stray CR inside an abstract of an LF file is no line end:
    it would shift line numbers and split the abstract)."""
    text = text.replace("\r\n", "\n")
    return text.replace("\r", "\n") if text.count("\r") > text.count("\n") else text


def _seed_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    """Seed format: an optional short header line, then one abstract per paragraph."""
    text = line_ends(text)
    records: list[Record] = []
    line_no = 1
    paragraphs: list[tuple[int, str]] = []
    for block in re.split(r"(\n[ \t]*\n)", text):
        if block.strip() and not re.fullmatch(r"\n[ \t]*\n", block):
            leading = len(block) - len(block.lstrip("\n"))
            paragraphs.append((line_no + leading, block.strip()))
        line_no += block.count("\n")
    header: dict[str, str] = {}
    notes: list[Skipped] = []
    if paragraphs and _is_header(paragraphs[0][1]):
        header = parse_header(paragraphs[0][1])
        notes = [note] if (note := _header_note(name, paragraphs[0][1])) else []
        paragraphs = paragraphs[1:]
    for ordinal, (line, para) in enumerate(paragraphs, start=1):
        records.append((line, ordinal, {"abstract": para, **header}))
    return records, notes


_HEADER_WORDS = re.compile(
    r"\b(?:papers?|abstracts?|proceedings|accepted|track|workshop|reading\s+list|readings|"
    r"bibliography|transactions|journal|volume|selected|collection)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us)\b", re.I)  # abstracts speak so, headers never
MAX_HEADER_WORDS = 6  # a line this short naming no year or venue is a title, not an abstract


def _is_header(paragraph: str) -> bool:
    """A first paragraph that names the file's papers ("NeurIPS 2025 Papers", "Reading list:
    diffusion models"), not a short abstract written without a final period ("We release a
    dataset of 2019 arXiv papers"), which would be lost as a header and give every paper of
    the file its words as venue and year."""
    if "\n" in paragraph or len(paragraph) > 120 or _FIRST_PERSON.search(paragraph):
        return False
    words = len(paragraph.split())
    if paragraph.endswith((".", "?", "!")):  # a sentence, unless a bare "NeurIPS 2025 Papers."
        return words <= MAX_HEADER_WORDS and _names_a_collection(paragraph)
    return _names_a_collection(paragraph) or words <= MAX_HEADER_WORDS


def _names_a_collection(line: str) -> bool:
    return _names_year_or_venue(line) or bool(_HEADER_WORDS.search(line))


def _names_year_or_venue(line: str) -> bool:
    return bool(_YEAR.search(line) or set(re.findall(r"[a-z]+", line.lower())) & KNOWN_VENUES.keys())


def _header_note(name: str, line: str) -> Skipped | None:
    """Said when a first line of more than a few words, naming no year or venue, was read
    as the header: it may be a short abstract, and the reader should know it was not stored."""
    if len(line.split()) <= MAX_HEADER_WORDS or _names_year_or_venue(line):
        return None
    return Skipped(name, f"“{line}” was read as the file's header, not as an abstract; if it "
                   "is one, end it with a period", 1, incomplete=False)


# ---------------------------------------------------------------- year and venue

_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d)(?!\d)")
_GENERIC_EDGE = re.compile(r"^(?:(?:the|proceedings|of|accepted|papers?|abstracts?)[\s:,]+)+|"
                           r"(?:(?:^|\s+)(?:the|of|accepted|papers?|abstracts?|proceedings|track))+$", re.I)
# Venue names a file name may carry ("neurips_abstract_1987.csv"), in their usual spelling.
KNOWN_VENUES = {v.lower(): v for v in (
    "NeurIPS ICML ICLR AAAI IJCAI COLT AISTATS UAI KDD ACL EMNLP NAACL CVPR ICCV ECCV "
    "SIGIR WWW TMLR JMLR").split()} | {"nips": "NeurIPS"}


def canonical_venue(venue: str) -> str:
    """A venue as stored and filtered: known spellings ("neurips", "NIPS") become the usual
    one, so a filter for NeurIPS finds the papers a file called NIPS."""
    venue = " ".join(venue.split())
    return KNOWN_VENUES.get(venue.lower(), venue)


def parse_year(value: str) -> int | None:
    """The year in a year or date field ("2019", "2019-05-01", "1987.0"), else None."""
    m = _YEAR.search(str(value))
    return int(m.group(1)) if m else None


def parse_header(line: str) -> dict[str, str]:
    """The venue and year a seed file's header names: ``NeurIPS 2025 Papers`` → NeurIPS, 2025
    (the words before the year, else the header less words such as "Papers")."""
    line = normalise(line)
    m = _YEAR.search(line)
    before = line[:m.start()] if m else line
    venue = _strip_generic(before) or (_strip_generic(line[m.end():]) if m else "")
    fields = {"venue": venue} if venue else {}
    return fields | ({"year": m.group(1)} if m else {})


def _strip_generic(text: str) -> str:
    """``text`` less the generic words at its edges ("Accepted Papers:")."""
    while True:
        stripped = _GENERIC_EDGE.sub("", text.strip(" ,:;-–—()")).strip(" ,:;-–—()")
        if stripped == text:
            return text
        text = stripped


def venue_from_name(name: str) -> str:
    """A known venue named in a file name ("neurips_abstract_1987.csv" → NeurIPS), else ""."""
    words = re.split(r"[^a-z]+", Path(name).stem.lower())
    return next((KNOWN_VENUES[w] for w in words if w in KNOWN_VENUES), "")


def _pick(columns: Iterable[str]) -> dict[str, str]:
    """Map our field names to the input's column names, case-insensitively."""
    lowered = {c.strip().lower(): c for c in columns if c}
    chosen: dict[str, str] = {}
    for fld, aliases in FIELD_ALIASES.items():
        for alias in aliases:
            if alias in lowered:
                chosen[fld] = lowered[alias]
                break
    return chosen


def _csv_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    """CSV rows as records. A row whose quoting is broken or whose number of fields differs
    from the header's is skipped and named by line: the csv module reads an unclosed quote
    without complaint, swallowing every following row into one field."""
    csv.field_size_limit(2**31 - 1)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        return [], [Skipped(name, f"is not valid CSV: {exc}", 1, whole_file=True)]
    if not header:
        return [], [Skipped(name, "holds no abstracts (empty file)", whole_file=True)]
    columns = _pick(header)
    if "abstract" not in columns:
        return [], [Skipped(name, "has no 'abstract' column (found: "
                            f"{', '.join(h for h in header if h)}); add one", 1, whole_file=True)]
    position = {h: i for i, h in reversed(list(enumerate(header)))}
    quoting = _quote_problems(text)
    records: list[Record] = []
    skipped: list[Skipped] = []
    ordinal = 0
    while True:
        line = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            skipped.append(Skipped(name, f"is not valid CSV here: {exc}", line))
            break
        if not row:  # a blank line
            continue
        ordinal += 1
        problem = next((msg for at, msg in quoting if line <= at <= reader.line_num), None)
        if problem:
            skipped.append(Skipped(name, f"record #{ordinal} was not read: {problem}", line))
        elif len(row) != len(header):
            skipped.append(Skipped(
                name, f"record #{ordinal} has {len(row)} fields where the header has "
                f"{len(header)}; quote the fields that hold commas", line))
        else:
            records.append((line, ordinal, {f: row[position[c]] for f, c in columns.items()}))
    return records, skipped


def _quote_problems(text: str) -> list[tuple[int, str]]:
    """Where the quoting of a CSV breaks the rules, as (line, what): a quote that is never
    closed, or one that ends a quoted field in mid-text. The csv module accepts both and
    merges the rows that follow into one field; its strict mode finds them, so the slow
    scan (which mirrors the module's reading, to give line numbers) runs only then."""
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), strict=True):
            pass
        return []
    except csv.Error:
        pass
    problems: list[tuple[int, str]] = []
    line, opened, state = 1, 1, "start"
    for ch in text:
        if state == "quoted":
            if ch == '"':
                state = "quote"
        elif state == "quote":  # just after a quote inside a quoted field
            if ch == '"':
                state = "quoted"  # "" is a quote character
            elif ch in ",\r\n":
                state = "start"
            else:
                problems.append((line, f"the quote opened on line {opened} closes on line {line} "
                                 "in mid-text, so the rows between read as one field; write "
                                 'a quote inside a quoted field as ""'))
                state = "plain"
        elif state == "start" and ch == '"':
            state, opened = "quoted", line
        elif ch in ",\r\n":
            state = "start"
        else:
            state = "plain"
        if ch == "\n":
            line += 1
    if state == "quoted":
        last = line - 1 if text.endswith("\n") else line
        problems.append((opened, f"the quote opened on line {opened} is never closed, so "
                         f"lines {opened}–{last} read as one field; close the quote"))
    return problems


def _as_text(value: object) -> str | None:
    """A JSONL field as stored text: a string or number as written, a list (authors) joined
    with its items' names (Semantic Scholar's ``[{"name": …}]``), null as ""; None for what
    holds no text (an object, true)."""
    if value is None:
        return ""
    if isinstance(value, bool | dict):
        return None
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list):
        if any(isinstance(v, list) for v in value):  # [["Smith", "John"]]: no text as given
            return None
        names = [_item_name(v) for v in value]
        return ", ".join(n for n in names if n) if any(names) or not value else None
    return None


def _item_name(item: object) -> str:
    """One item of a JSONL list as text: a string or number, a ``{"name": …}``'s name."""
    if isinstance(item, dict):
        return str(item.get("name") or "")
    return "" if item is None or isinstance(item, bool) else str(item)


def _jsonl_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    records: list[Record] = []
    skipped: list[Skipped] = []
    ordinal = 0
    # lines end at LF only: U+2028 or U+0085 inside a JSON string is text, not a line end
    for line_no, line in enumerate(line_ends(text).split("\n"), start=1):
        if not line.strip():
            continue
        ordinal += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            skipped.append(Skipped(name, f"record #{ordinal} is not valid JSON: {exc.msg}", line_no))
            continue
        except RecursionError:  # thousands of nested brackets: no abstract, and no crash
            skipped.append(Skipped(name, f"record #{ordinal} is nested too deeply to be an "
                                   "abstract's record", line_no))
            continue
        if not isinstance(obj, dict):
            skipped.append(Skipped(name, f"record #{ordinal} is not a JSON object", line_no))
            continue
        columns = _pick(obj.keys())
        if "abstract" not in columns:
            skipped.append(Skipped(name, f"record #{ordinal} has no 'abstract' field", line_no))
            continue
        fields = {fld: _as_text(obj[key]) for fld, key in columns.items()}
        bad = next((key for fld, key in columns.items()
                    if fld in ("title", "abstract") and fields[fld] is None), None)
        if bad is not None:  # an object, or a list of them: no text to store
            skipped.append(Skipped(name, f"record #{ordinal}: its '{bad}' is not text; give it "
                                   "as a string", line_no))
            continue
        records.append((line_no, ordinal, {fld: v or "" for fld, v in fields.items()}))
    return records, skipped
