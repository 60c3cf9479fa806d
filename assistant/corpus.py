"""The corpus's public names in one place: the paper record, the file readers, derived
titles, year and venue, and skipped-record reporting, each from the module that holds it.

Callers import from here (``from assistant.corpus import Paper, read_paths``) so that they
need not know which room a name lives in:

- ``paper.py``: ``Paper``, its id, a file's identity in the store, links and sentences;
- ``reading.py``: files and folders read into papers, one ``FileRead`` per file;
- ``file_formats.py``: seed-format text, CSV and JSONL as records;
- ``derived_titles.py``: a label for an abstract given without a title;
- ``venues.py``: years, venues and a seed file's header;
- ``skipped.py``: what was not read, and how it is told.
"""

from __future__ import annotations

from assistant.derived_titles import derive_title
from assistant.file_formats import FIELD_ALIASES, MAX_HEADER_WORDS, Record, line_ends
from assistant.paper import (
    UPLOAD_PREFIX,
    URL_RE,
    Paper,
    file_key,
    find_links,
    is_upload_key,
    make_paper_id,
    normalise,
    split_sentences,
)
from assistant.reading import (
    NO_SUCH_PATH,
    SUPPORTED_SUFFIXES,
    FileRead,
    ReadResult,
    decode,
    read_file,
    read_paths,
)
from assistant.skipped import SHOWN_PER_FILE, Skipped, skip_lines
from assistant.venues import (
    KNOWN_VENUES,
    canonical_venue,
    parse_header,
    parse_year,
    venue_from_name,
)

__all__ = [
    "FIELD_ALIASES",
    "KNOWN_VENUES",
    "MAX_HEADER_WORDS",
    "NO_SUCH_PATH",
    "SHOWN_PER_FILE",
    "SUPPORTED_SUFFIXES",
    "UPLOAD_PREFIX",
    "URL_RE",
    "FileRead",
    "Paper",
    "ReadResult",
    "Record",
    "Skipped",
    "canonical_venue",
    "decode",
    "derive_title",
    "file_key",
    "find_links",
    "is_upload_key",
    "line_ends",
    "make_paper_id",
    "normalise",
    "parse_header",
    "parse_year",
    "read_file",
    "read_paths",
    "skip_lines",
    "split_sentences",
    "venue_from_name",
]
