"""Filters from the command line, the UI and the question itself.

``explicit`` reads ``--year 2019-2021 --venue NeurIPS`` (and the same strings from the UI and
the API); ``stated`` finds the range a question gives in words ("since 2019", "before 2000",
"between 2010 and 2012", "in NeurIPS 2025") and returns the question without those words, so
that "2019" does not count as a keyword that no abstract holds. ``merge``: what was set
explicitly wins, field by field, over what the question says.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from assistant.corpus import KNOWN_VENUES, canonical_venue
from assistant.errors import BadInputError
from assistant.settings import MAX_TOP_K
from assistant.types import OPEN_END, OPEN_START, Filters

YEAR = r"((?:19|20)\d\d)"
# "in 2048 dimensions" is a count, not a year, and so are "after 2000 training documents"
# and "in 2000 GPU hours": up to two words that are no preposition may stand before the unit.
_UNITS = (r"(?:dimensions?|steps?|samples?|tokens?|parameters?|images?|nodes?|layers?|"
          r"examples?|iterations?|epochs?|words?|languages?|classes?|points?|users?|items?|"
          r"times?|tasks?|questions?|queries|documents?|hours?|features?|agents?|patients?|"
          r"genes?|species|rounds?|runs?|trials?|seconds?|minutes?|ms|episodes?|frames?|"
          r"sentences?|pixels?|neurons?|units?|[%×x])")
_MODIFIER = r"(?:(?!(?:on|for|in|of|and|or|to|with|about|by|the|a|an|at|from)\b)[a-z][\w-]*\s+)"
NOT_A_COUNT = rf"(?![\d.,]\d)(?!\s*{_MODIFIER}{{0,2}}{_UNITS}\b)(?!\s*[%×])"
END = r"(?!\d)(?![\'’]?s\b)" + NOT_A_COUNT  # "1990s" is a decade (DECADE below)
# "in the 1990s", "from the 2010s": the ten years (a decade's "since" runs on).
DECADE = re.compile(r"\b(in|from|during|since)\s+(?:the\s+)?((?:19|20)\d0)[\'’]?s\b", re.I)
# (pattern, what it gives: "range" a..b, "from" a.., "after" a+1.., "to" ..a, "before" ..a-1, "in" a)
YEAR_PHRASES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bbetween\s+{YEAR}\s+and\s+{YEAR}{END}", re.I), "range"),
    (re.compile(rf"\b(?:from|in)\s+{YEAR}\s*(?:-|–|—|to|until|through|till)\s*{YEAR}{END}", re.I),
     "range"),
    (re.compile(rf"(?<![\w-]){YEAR}\s*(?:-|–|—)\s*{YEAR}{END}", re.I), "range"),
    (re.compile(rf"\b(?:since|from)\s+{YEAR}\s+(?:on|onwards?)\b", re.I), "from"),
    (re.compile(rf"\b(?:since|in\s+or\s+after|starting\s+(?:in|from))\s+{YEAR}{END}", re.I),
     "from"),
    (re.compile(rf"\b(?:in\s+)?{YEAR}\s+(?:or\s+later|and\s+later|onwards?|and\s+after)\b", re.I),
     "from"),
    (re.compile(rf"\bafter\s+{YEAR}{END}", re.I), "after"),
    (re.compile(rf"\bbefore\s+{YEAR}{END}", re.I), "before"),
    (re.compile(rf"\b(?:until|till|up\s+to|through|in\s+or\s+before)\s+{YEAR}{END}", re.I),
     "to"),
    (re.compile(rf"\b(?:in\s+)?{YEAR}\s+(?:or\s+earlier|and\s+earlier|and\s+before)\b", re.I),
     "to"),
    (re.compile(rf"\b(?:in|from|during)\s+{YEAR}(?!\s*(?:-|–|—|to|until|till)\s*\d){END}", re.I),
     "in"),
]
LATEST_YEAR = datetime.date.today().year + 1  # a later "year" in a question is a number
CLI_YEARS = re.compile(r"^\s*(\d{4})?\s*(?:(-|–|\.\.)\s*(\d{4})?)?\s*$")
YEARS_HELP = "a year or a range such as 2019, 2019-2021, 2019- (from 2019) or -2000 (up to 2000)"


def parse_years(text: str) -> tuple[int, int]:
    """``--year`` as a range: "2019" → (2019, 2019), "2019-2021", "2019-" and "-2000" open."""
    m = CLI_YEARS.match(text or "")
    if not m or not (m.group(1) or m.group(3)) or (m.group(2) is None and m.group(3)):
        raise BadInputError(f"bad year filter '{text}': give {YEARS_HELP}")
    start = int(m.group(1)) if m.group(1) else OPEN_START
    if m.group(2) is None:
        return start, start
    end = int(m.group(3)) if m.group(3) else OPEN_END
    if start > end:
        raise BadInputError(f"bad year filter '{text}': {start} is after {end}; write "
                            f"{end}-{start}")
    return start, end


def explicit(years: str | None = None, venue: str | None = None) -> Filters | None:
    """The filters given as options or fields ("" and None mean none); bad values raise
    ``BadInputError`` with a one-line reason."""
    years, venue = as_text(years), as_text(venue)  # from the API: None, or 2019 as a number
    span = parse_years(years) if years and years.strip() else None
    name = canonical_venue(venue) if venue and venue.strip() else None
    if name is not None and len(name) > 200:
        raise BadInputError("bad venue filter: longer than 200 characters")
    found = Filters(years=span, venue=name)
    return found or None


def as_text(value: object) -> str:
    """An API caller's text argument: ``None`` is empty (refused with its one-line reason
    downstream, not an AttributeError) and a number is its digits."""
    return "" if value is None else str(value)


def top_k_of(value: object) -> int:
    """How many papers an API caller asks for, clamped to 1–50; what is no whole number
    (``"abc"``, ``None``) is ``BadInputError``, not a traceback."""
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        raise BadInputError(f"top_k must be a whole number from 1 to {MAX_TOP_K}, not "
                            f"{str(value)[:40]!r}") from None
    return max(1, min(number, MAX_TOP_K))


def _years_of(kind: str, values: list[int]) -> tuple[int, int]:
    first = values[0]
    return {
        "range": (min(values), max(values)),
        "from": (first, OPEN_END),
        "after": (first + 1, OPEN_END),
        "to": (OPEN_START, first),
        "before": (OPEN_START, first - 1),
        "in": (first, first),
    }[kind]


def _venue_pattern(venues: Iterable[str]) -> re.Pattern[str] | None:
    names = {canonical_venue(v) for v in venues if len(v.strip()) >= 3}
    names |= set(KNOWN_VENUES.values())
    spellings = {n.lower(): n for n in names} | KNOWN_VENUES
    if not spellings:
        return None
    alternatives = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    venue = rf"(?<![\w-])({alternatives})(?![\w-])"
    # A venue counts only where it is meant as one: "in/at/from NeurIPS", "NeurIPS 2025",
    # "NeurIPS papers".
    return re.compile(
        rf"(?:\b(?:in|at|from|of)\s+(?:the\s+)?{venue}(?:\s+{YEAR}{END})?)"
        rf"|(?:{venue}\s+{YEAR}{END})"
        rf"|(?:{venue}(?=\s+(?:papers?|abstracts?|proceedings)\b))", re.I)


def stated(question: str, venues: Iterable[str] = ()) -> tuple[Filters | None, str]:
    """The filter a question states in words, and the question without those words (the
    question itself when nothing else would be left)."""
    rest = question
    span: tuple[int, int] | None = None
    venue: str | None = None
    pattern = _venue_pattern(venues)
    m = next((m for m in pattern.finditer(rest) if _meant_as_venue(m)), None) if pattern else None
    if m:
        venue = canonical_venue(_typed_venue(m))
        year = m.group(2) or m.group(4)
        if year and int(year) <= LATEST_YEAR:
            span = (int(year), int(year))
        rest = _cut(rest, m)
    if span is None and (m := DECADE.search(rest)) and int(m.group(2)) <= LATEST_YEAR:
        first = int(m.group(2))
        span = (first, OPEN_END) if m.group(1).lower() == "since" else (first, first + 9)
        rest = _cut(rest, m)
    if span is None:
        for phrase, kind in YEAR_PHRASES:
            m = phrase.search(rest)
            values = [int(g) for g in m.groups() if g] if m else []
            if m and max(values) <= LATEST_YEAR:  # "from 2048 …" is a number, not a year
                span = _years_of(kind, values)
                rest = _cut(rest, m)
                break
    found = Filters(years=span, venue=venue)
    if not found:
        return None, question
    rest = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", rest)).strip(" ,;:")
    return found, rest if re.search(r"\w", rest) else question


def _meant_as_venue(m: re.Match[str]) -> bool:
    """A venue written as one: with its year or "papers" after it, or with its capitals ("in
    Nature", "at ICML", "in Neurips"), not as a word ("processes in nature", "of the www")."""
    if m.group(1) is None or m.group(2):  # "NeurIPS 2025", "nips papers", "in NeurIPS 2025"
        return True
    return _typed_venue(m) != _typed_venue(m).lower()


def _typed_venue(m: re.Match[str]) -> str:
    """The venue as the question writes it, in whichever of ``_venue_pattern``'s forms."""
    return next(g for g in (m.group(1), m.group(3), m.group(5)) if g)


def _cut(text: str, m: re.Match[str]) -> str:
    return f"{text[:m.start()]} {text[m.end():]}"


def merge(given: Filters | None, said: Filters | None) -> Filters | None:
    """Explicit filters (options, UI, API) win, field by field, over the question's own."""
    if not said:
        return given or None
    if not given:
        return said
    merged = Filters(years=given.years if given.years is not None else said.years,
                     venue=given.venue or said.venue)
    return merged or None
