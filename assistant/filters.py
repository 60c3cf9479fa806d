"""Filters from the command line, the UI and the question itself.

``explicit`` reads ``--year 2019-2021 --venue NeurIPS`` (and the same strings from the UI and
the API); the range a question gives in words ("since 2019", "in NeurIPS 2025") is read with
the rest of the question (``intent.read_intent``: ``Intent.filters``). ``merge``: what was set
explicitly wins, field by field, over what the question says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.authors import author_names, name_words, nearest_names, written_by
from assistant.corpus import canonical_venue
from assistant.errors import BadInputError
from assistant.settings import MAX_TOP_K
from assistant.types import OPEN_END, OPEN_START, Filters

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


def explicit(years: str | None = None, venue: str | None = None,
             author: str | None = None) -> Filters | None:
    """The filters given as options or fields ("" and None mean none); bad values raise
    ``BadInputError`` with a one-line reason."""
    years, venue = as_text(years), as_text(venue)  # from the API: None, or 2019 as a number
    span = parse_years(years) if years and years.strip() else None
    name = canonical_venue(venue) if venue and venue.strip() else None
    if name is not None and len(name) > 200:
        raise BadInputError("bad venue filter: longer than 200 characters")
    writer = " ".join(as_text(author).split()) or None
    names = author_names(writer or "")
    if writer is not None and (len(writer) > 200 or not names
                               or not all(name_words(n) for n in names)):  # "and", "1999"
        raise BadInputError(f"bad author filter '{writer[:40]}': give a name such as "
                            "\"Yoshua Bengio\" or \"Bengio\"")
    found = Filters(years=span, venue=name, author=writer)
    return found or None


def as_text(value: object) -> str:
    """An API caller's text argument: ``None`` is empty (refused with its one-line reason
    downstream, not an AttributeError) and a number is its digits."""
    return "" if value is None else str(value)


def top_k_of(value: object) -> int:
    """How many papers an API caller asks for: a whole number from 1 to MAX_TOP_K, the
    CLI's ``--top-k`` range (a JSON 5.0 or "5" is 5); anything else (``"abc"``, ``None``,
    2.5, 0, 500) is ``BadInputError``, not a traceback, and not clamped (500 had answered
    with 50)."""
    refused = BadInputError(f"top_k must be a whole number from 1 to {MAX_TOP_K}, not "
                            f"{str(value)[:40]!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
        whole = int(number)
    except (TypeError, ValueError, OverflowError):
        raise refused from None
    if number != whole or not 1 <= whole <= MAX_TOP_K:
        raise refused
    return whole


def merge(given: Filters | None, said: Filters | None) -> Filters | None:
    """Explicit filters (options, UI, API) win, field by field, over the question's own."""
    if not said:
        return given or None
    if not given:
        return said
    merged = Filters(years=given.years if given.years is not None else said.years,
                     venue=given.venue or said.venue, author=given.author or said.author)
    return merged or None


def _apart_only(asked: str, lists: list[str]) -> str:
    """For several names that each wrote stored papers but none together, each one's count
    ("Andrew Barto: 19, Yann LeCun: 21"); "" when one of them wrote none (or one is asked)."""
    names = author_names(asked)
    counts = [sum(written_by(authors, name) for authors in lists) for name in names]
    if len(names) < 2 or not all(counts):
        return ""
    return ", ".join(f"{name.strip()}: {n:,}" for name, n in zip(names, counts, strict=True))


def no_paper_of(filters: Filters, venues: list[str],
                author_lists: Iterable[str] = ()) -> BadInputError:
    """The error for a filter no stored paper passes, naming the fix: a wider range, for a
    venue alone the venues the store holds (``venues``), for an author no paper has the
    stored names nearest to it (from ``author_lists``, the papers' author lists; the store
    holds no institutions, so "DeepMind" gets none)."""
    lists = list(author_lists)
    if filters.author and not any(written_by(authors, filters.author) for authors in lists):
        if joint := _apart_only(filters.author, lists):
            return BadInputError(f"no indexed paper is by {filters.author} together ({joint} "
                                 "on their own); ask for one of them")
        near = nearest_names(filters.author, lists)
        hint = (f"the nearest are {', '.join(near)}" if near else "check the spelling (the "
                "store holds authors' names, not their institutions)")
        return BadInputError(f"no indexed paper has an author named {filters.author}; "
                             f"{hint}, or leave the author out")
    if filters.years is None and filters.venue and not filters.author:
        named = ", ".join(venues) or "none named"
        return BadInputError(f"no indexed paper is of {filters.describe()}; the store's "
                             f"venues are {named}: choose one or leave it out")
    return BadInputError(f"no indexed paper is of {filters.describe()}; widen the range "
                         "or leave it out")
