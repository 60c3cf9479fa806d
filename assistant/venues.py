"""Year and venue: the year a field or header names, a venue's usual spelling, and the
venue a file name or a seed file's header names ("NeurIPS 2025 Papers").

Stored venues go through ``canonical_venue`` so that filters and the question reader
(filters.py, intent.py) find a paper whatever spelling its file used.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from assistant.paper import normalise

# the years a question or a record can name: an earlier or later "year" is a number ("after
# 2048 steps"), or none yet ("2099")
EARLIEST_YEAR, LATEST_YEAR = 1800, datetime.date.today().year + 1
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


def names_year_or_venue(line: str) -> bool:
    """``line`` names a year or a known venue (a seed file's header usually does)."""
    return bool(_YEAR.search(line) or set(re.findall(r"[a-z]+", line.lower())) & KNOWN_VENUES.keys())
