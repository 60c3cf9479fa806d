"""Read abstracts from seed-format text, CSV and JSONL files into ``Paper`` records.

Every problem becomes a ``Skipped`` entry that names the file (and line) and what to do;
a bad file or record never stops the others from being read.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SUPPORTED_SUFFIXES = (".txt", ".csv", ".jsonl")
URL_RE = re.compile(r"https?://[^\s<>()\[\]{}\"'`,;]+[^\s<>()\[\]{}\"'`,;.]")
FIELD_ALIASES = {
    "abstract": ("abstract", "summary", "text"),
    "title": ("title", "name"),
    "authors": ("authors", "author"),
    "link": ("link", "url", "paper_link", "pdf", "pdf_url"),
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

    @property
    def file(self) -> str:
        return self.source.rsplit("#", 1)[0]


@dataclass(frozen=True)
class Skipped:
    """An input that was not ingested, and why."""

    file: str
    reason: str
    line: int | None = None
    whole_file: bool = False  # the file could not be read at all (its stored papers stay)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.reason}"


@dataclass
class ReadResult:
    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def normalise(text: str) -> str:
    return " ".join(text.split())


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


def read_paths(paths: Iterable[Path], max_chars: int = 20_000) -> ReadResult:
    """Read every supported file under ``paths`` (files or directories)."""
    result = ReadResult()
    seen: set[str] = set()
    for path in _expand(paths, result):
        papers, skipped = read_file(path, max_chars=max_chars)
        result.files.append(path.name)
        result.skipped.extend(skipped)
        for paper in papers:
            if paper.paper_id in seen:
                result.skipped.append(
                    Skipped(paper.file, f"abstract #{paper.source.rsplit('#', 1)[1]} "
                            "repeats an abstract already read; kept once")
                )
                continue
            seen.add(paper.paper_id)
            result.papers.append(paper)
    return result


def _expand(paths: Iterable[Path], result: ReadResult) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            children = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not children:
                result.skipped.append(Skipped(str(path), "directory holds no files"))
            yield from children
        elif path.is_file():
            yield path
        else:
            result.skipped.append(Skipped(str(path), "no such file or directory"))


def read_file(path: Path, max_chars: int = 20_000) -> tuple[list[Paper], list[Skipped]]:
    """Parse one file; never raises for bad content."""
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
        papers.append(Paper(
            paper_id=make_paper_id(abstract),
            source=f"{name}#{ordinal}",
            title=normalise(rec.get("title", "")) or derive_title(abstract),
            text=abstract,
            authors=normalise(rec.get("authors", "")),
            links=links,
        ))
    if not papers and not skipped:
        skipped.append(Skipped(name, "holds no abstracts (empty or header only)", whole_file=True))
    return papers, skipped


def decode(raw: bytes, name: str) -> tuple[str | None, Skipped | None]:
    """UTF-8 text, or a reason naming the first bad line."""
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


def _seed_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    """Seed format: an optional short header line, then one abstract per paragraph."""
    records: list[Record] = []
    line_no = 1
    paragraphs: list[tuple[int, str]] = []
    for block in re.split(r"(\n[ \t]*\n)", text):
        if block.strip() and not re.fullmatch(r"\n[ \t]*\n", block):
            leading = len(block) - len(block.lstrip("\n"))
            paragraphs.append((line_no + leading, block.strip()))
        line_no += block.count("\n")
    if paragraphs and _is_header(paragraphs[0][1]):
        paragraphs = paragraphs[1:]
    for ordinal, (line, para) in enumerate(paragraphs, start=1):
        records.append((line, ordinal, {"abstract": para}))
    return records, []


def _is_header(paragraph: str) -> bool:
    return "\n" not in paragraph and len(paragraph) <= 120 and not paragraph.endswith(".")


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
    csv.field_size_limit(2**31 - 1)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = reader.fieldnames
    except csv.Error as exc:
        return [], [Skipped(name, f"is not valid CSV: {exc}", 1, whole_file=True)]
    if not header:
        return [], [Skipped(name, "holds no abstracts (empty file)", whole_file=True)]
    columns = _pick(header)
    if "abstract" not in columns:
        return [], [Skipped(name, "has no 'abstract' column (found: "
                            f"{', '.join(h for h in header if h)}); add one", 1, whole_file=True)]
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
        ordinal += 1
        records.append((line, ordinal, {f: row.get(c) or "" for f, c in columns.items()}))
    return records, skipped


def _jsonl_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    records: list[Record] = []
    skipped: list[Skipped] = []
    ordinal = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        ordinal += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            skipped.append(Skipped(name, f"record #{ordinal} is not valid JSON: {exc.msg}", line_no))
            continue
        if not isinstance(obj, dict):
            skipped.append(Skipped(name, f"record #{ordinal} is not a JSON object", line_no))
            continue
        columns = _pick(obj.keys())
        if "abstract" not in columns:
            skipped.append(Skipped(name, f"record #{ordinal} has no 'abstract' field", line_no))
            continue
        fields: dict[str, str] = {}
        for fld, key in columns.items():
            value = obj[key]
            if isinstance(value, list):
                value = ", ".join(str(v) for v in value)
            fields[fld] = "" if value is None else str(value)
        records.append((line_no, ordinal, fields))
    return records, skipped
