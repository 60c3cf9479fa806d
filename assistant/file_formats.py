"""The three input formats as records: seed-format text (an optional header line, then one
abstract per paragraph), CSV with a header row, and JSONL with one object per line.

Each reader returns ``Record``s — (line, ordinal, fields by our names) — and a ``Skipped``
for every record it could not read, naming the line and the fix; building papers from the
records is the file reader's part (reading.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable

from assistant.skipped import Skipped
from assistant.tuning import MAX_HEADER_WORDS
from assistant.venues import names_year_or_venue, parse_header

FIELD_ALIASES = {
    "abstract": ("abstract", "summary", "text"),
    "title": ("title", "name"),
    "authors": ("authors", "author"),
    "link": ("link", "url", "paper_link", "pdf", "pdf_url"),
    "year": ("year", "publication_year", "date"),
    "venue": ("venue", "booktitle", "conference", "journal", "collection"),
}

Record = tuple[int, int, dict[str, str]]  # (line number, 1-based ordinal, fields)


def line_ends(text: str) -> str:
    """``text`` with its line ends as LF: Windows' CRLF, and an old Mac file's lone CRs
    when they outnumber its LFs (a stray CR inside an abstract of an LF file is no line end:
    it would shift line numbers and split the abstract)."""
    text = text.replace("\r\n", "\n")
    return text.replace("\r", "\n") if text.count("\r") > text.count("\n") else text


def seed_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
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
    return names_year_or_venue(line) or bool(_HEADER_WORDS.search(line))


def _header_note(name: str, line: str) -> Skipped | None:
    """Said when a first line of more than a few words, naming no year or venue, was read
    as the header: it may be a short abstract, and the reader should know it was not stored."""
    if len(line.split()) <= MAX_HEADER_WORDS or names_year_or_venue(line):
        return None
    return Skipped(name, f"“{line}” was read as the file's header, not as an abstract; if it "
                   "is one, end it with a period", 1, incomplete=False)


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


def _delimiter(text: str) -> str:
    """The header's separator: a comma, or the semicolon, tab or bar a spreadsheet of some
    locales writes when only that one gives an abstract column (a run: "has no 'abstract'
    column (found: title;authors;year;abstract)")."""
    first = io.StringIO(text).readline()
    for delimiter in (",", ";", "\t", "|"):
        if "abstract" in _pick(next(csv.reader([first], delimiter=delimiter), [])):
            return delimiter
    return ","


def csv_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
    """CSV rows as records. A row whose quoting is broken or whose number of fields differs
    from the header's is skipped and named by line: the csv module reads an unclosed quote
    without complaint, swallowing every following row into one field."""
    csv.field_size_limit(2**31 - 1)
    delimiter = _delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
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
    quoting = _quote_problems(text, delimiter)
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
            skipped.append(Skipped(name, f"record #{ordinal} was not read: {problem}", line,
                                   record=ordinal))
        elif len(row) != len(header):
            skipped.append(Skipped(
                name, f"record #{ordinal} has {len(row)} fields where the header has "
                f"{len(header)}; quote the fields that hold commas", line, record=ordinal))
        else:
            records.append((line, ordinal, {f: row[position[c]] for f, c in columns.items()}))
    return records, skipped


def _quote_problems(text: str, delimiter: str) -> list[tuple[int, str]]:
    """Where the quoting of a CSV breaks the rules, as (line, what): a quote that is never
    closed, or one that ends a quoted field in mid-text. The csv module accepts both and
    merges the rows that follow into one field; its strict mode finds them, so the slow
    scan (which mirrors the module's reading, to give line numbers) runs only then."""
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter):
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
            elif ch in f"{delimiter}\r\n":
                state = "start"
            else:
                problems.append((line, f"the quote opened on line {opened} closes on line {line} "
                                 "in mid-text, so the rows between read as one field; write "
                                 'a quote inside a quoted field as ""'))
                state = "plain"
        elif state == "start" and ch == '"':
            state, opened = "quoted", line
        elif ch in f"{delimiter}\r\n":
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
    with its items' names (Semantic Scholar's ``[{"name": …}]``), one such object its name,
    null as ""; None for what holds no text (another object, true)."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return _item_name(value) or None
    if isinstance(value, bool):
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


def jsonl_records(text: str, name: str) -> tuple[list[Record], list[Skipped]]:
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
            skipped.append(Skipped(name, f"record #{ordinal} is not valid JSON: {exc.msg}", line_no,
                                   record=ordinal))
            continue
        except RecursionError:  # thousands of nested brackets: no abstract, and no crash
            skipped.append(Skipped(name, f"record #{ordinal} is nested too deeply to be an "
                                   "abstract's record", line_no, record=ordinal))
            continue
        if not isinstance(obj, dict):
            skipped.append(Skipped(name, f"record #{ordinal} is not a JSON object", line_no,
                                   record=ordinal))
            continue
        columns = _pick(obj.keys())
        if "abstract" not in columns:
            skipped.append(Skipped(name, f"record #{ordinal} has no 'abstract' field", line_no,
                                   record=ordinal))
            continue
        fields = {fld: _as_text(obj[key]) for fld, key in columns.items()}
        bad = next((key for fld, key in columns.items()
                    if fld in ("title", "abstract") and fields[fld] is None), None)
        if bad is not None:  # an object, or a list of them: no text to store
            skipped.append(Skipped(name, f"record #{ordinal}: its '{bad}' is not text; give it "
                                   "as a string", line_no, record=ordinal))
            continue
        skipped += [Skipped(name, f"record #{ordinal}: its '{key}' is not text, so it is stored "
                            "without it; give it as a string", line_no, incomplete=False, stored=True)
                    for fld, key in columns.items()
                    if fields[fld] is None and (fields.get("abstract") or "").strip()]  # a run's authors
        records.append((line_no, ordinal, {fld: v or "" for fld, v in fields.items()}))
    return records, skipped
