"""Filters from the command line, the UI and the question itself.

``explicit`` reads ``--year 2019-2021 --venue NeurIPS`` (and the same strings from the UI and
the API); the range a question gives in words ("since 2019", "in NeurIPS 2025") is read with
the rest of the question (``intent.read_intent``: ``Intent.filters``). ``merge``: what was set
explicitly and what the question says both apply; filters no paper can pass together are
one line naming both. A chat follow-up's filters beside the list's: ``replaced`` ("what about
2018?"), ``reverted``, ``beyond`` ("and more recent ones?"), and its years written back into
a question (``years_in_words``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.acronyms import acronym_readings, spelled_readings
from assistant.authors import author_names, given_first, name_words, nearest_names, written_by
from assistant.corpus import canonical_venue
from assistant.errors import BadInputError
from assistant.intent import read_intent
from assistant.left_out import LEFT_OUT_SHOWN, LeftOut, tally, why
from assistant.settings import MAX_TOP_K
from assistant.types import EARLIEST_YEAR, LATEST_YEAR, OPEN_END, OPEN_START, Filters

if TYPE_CHECKING:
    from assistant.index import AbstractIndex

CLI_YEARS = re.compile(r"^\s*(\d{4})?\s*(?:(-|–|\.\.)\s*(\d{4})?)?\s*$")
YEARS_HELP = ("a year, years or a range such as 2019, 2019,2021, 2019-2021, 2019- (from 2019) "
              "or -2000 (up to 2000)")
NAMED_YEARS = re.compile(r"^\s*\d{4}(?:\s*,\s*\d{4})+\s*$")  # "2019,2021": those years alone


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


def years_in_words(filters: Filters) -> str:
    """The years of ``filters`` as a question states them, for ``stated`` to read again:
    "in 2018", "in 2014, 2016 and 2019" (the years named), "since 2015", "before 2000", "from
    2015 to 2019"; "" when it states none. A range's open end written out as a year ("from
    2019 to 9999") had been read as a topic's words (a review's)."""
    if filters.named_years:  # "in 2014, 2016 and 2019": "and" alone read back only two
        *rest, last = map(str, sorted(filters.named_years))
        return f"in {', '.join(rest)} and {last}" if rest else f"in {last}"
    if filters.years is None:
        return ""
    start, end = filters.years
    if start == end:
        return f"in {start}"
    if end >= OPEN_END:
        return f"since {start}"
    if start <= OPEN_START:
        return f"before {end + 1}"
    return f"from {start} to {end}"


def beyond(said: Filters | None, newer: bool) -> Filters | None:
    """``said`` with its years moved past their range: "and more recent ones?" after "only
    the ones from 2019" is 2020 on, "older ones?" up to 2018 (``follow_up_phrases.beyond_asked``;
    it had listed 2019's papers again, newest first). None when ``said`` states no closed end
    on that side."""
    if said is None or said.years is None:
        return None
    start, end = said.years  # "except in 2019" is 1800–2027 but 2019: no end to pass
    if (end >= min(OPEN_END, LATEST_YEAR)) if newer else (start <= max(OPEN_START, EARLIEST_YEAR)):
        return None
    years = (end + 1, OPEN_END) if newer else (OPEN_START, start - 1)
    return replace(said, years=years, named_years=None, recent=None, note=None)


def replaced(earlier: Filters | None, said: Filters) -> Filters:
    """``earlier`` with each field ``said`` states replaced: the years (a range, the years
    named, the last so many) together, the venue, the author; the phrases ``said`` excludes
    added to ``earlier``'s ("but not EM" after "… but not routing" leaves out both)."""
    taken = _taken(earlier, said, said)
    return replace(taken, excluded=tuple(dict.fromkeys((*(earlier.excluded if earlier else ()),
                                                        *said.excluded))))


def reverted(filters: Filters | None, earlier: Filters | None, said: Filters) -> Filters | None:
    """The list a narrowing stands beside: ``filters`` with each field ``said`` replaces
    taken back to ``earlier``'s (the list's before the narrowing that set it). "what
    about 2019?" then "and 2020?" is 2020 beside the whole list, not beside 2019's two
    papers ("Of the 2 papers the earlier list gave, 0 pass" had said)."""
    return None if filters is None else _taken(filters, earlier, said) or None


def _taken(base: Filters | None, source: Filters | None, said: Filters) -> Filters:
    """``base`` with each field ``said`` states taken from ``source`` (None: no filter):
    the years (a range, the years named, the last so many, their note) together, the
    venue, the author, the phrases excluded."""
    years = source if said.years is not None or said.recent is not None else base
    venue, author = (source if said.venue else base), (source if said.author else base)
    excluded = source if said.excluded else base
    return Filters(years=years.years if years else None,
                   named_years=years.named_years if years else None,
                   recent=years.recent if years else None, note=years.note if years else None,
                   venue=venue.venue if venue else None, author=author.author if author else None,
                   excluded=excluded.excluded if excluded else ())


def with_spellings(said: Filters | None, index: AbstractIndex) -> Filters | None:
    """``said`` with each phrase it excludes also in the other spelling the store's papers
    use: "SVM" and "support vector machine", "RL" and "reinforcement learning"
    (``acronyms``), so that a paper writing either is left out; and an author typed by a
    nickname as the one stored person it stands for ("geoff hinton": Geoffrey Hinton,
    ``AuthorBook.by_nickname``), which the filter then names."""
    if said and said.author and (person := index.author_book().by_nickname(said.author)):
        said = replace(said, author=person)
    if not said or not said.excluded:
        return said
    spelled = [s for phrase in said.excluded
               for s in (phrase, *acronym_readings(phrase, index), *spelled_readings(phrase, index))]
    return replace(said, excluded=tuple(dict.fromkeys(spelled)))


def set_aside_filters(index: AbstractIndex, sentences: Sequence[str],
                      filters: Filters | None) -> Filters | None:
    """``filters`` with the range the sentences set aside from the search state ("Say we
    only care about NeurIPS papers.", "Answer that for papers from 2019.": ``asides.py``),
    ``filters`` winning field by field: their words are not searched, their range applies."""
    said = read_intent(" ".join(sentences), index.venues(), index.author_book()).filters \
        if sentences else None
    if said is None:
        return filters
    if said.recent is not None:  # "Say I only read papers from the last three years."
        said = of_recent(said, index.newest_year())
    return merge(filters, said)


def of_recent(said: Filters, newest: int | None) -> Filters:
    """``said`` with its last so many years ("in the last three years": ``Filters.recent``)
    read as the years up to ``newest``, the newest stored paper's year, and the line saying
    so ("years 2019–2021 — the last 3 years, as the newest stored papers are of 2021"): the
    store's own newest year, not today's, as the papers it can list end there. A store of
    papers without years reads them up to the present year."""
    if said.recent is None:
        return said
    if said.recent < 1:
        raise BadInputError(f"“the last {said.recent} years” holds no year; give one or more, "
                            "e.g. “in the last 3 years”")
    end = newest if newest is not None else datetime.date.today().year
    why = (f"as the newest stored papers are of {newest}" if newest is not None
           else "counted back from this year, as no stored paper has a year")
    count = f"the last {said.recent} years" if said.recent > 1 else "the last year"
    return replace(said, years=(end - said.recent + 1, end), recent=None,
                   note=f"{count}, {why}")


def explicit(years: str | None = None, venue: str | None = None,
             author: str | None = None) -> Filters | None:
    """The filters given as options or fields ("" and None mean none); bad values raise
    ``BadInputError`` with a one-line reason."""
    years, venue = as_text(years), as_text(venue)  # from the API: None, or 2019 as a number
    span, named = years_of(years) if years and years.strip() else (None, None)
    name = canonical_venue(venue) if venue and venue.strip() else None
    if name is not None and len(name) > 200:
        raise BadInputError("bad venue filter: longer than 200 characters")
    writer = given_first(" ".join(as_text(author).split())) or None  # "LeCun, Y.": Y. LeCun
    names = author_names(writer or "")
    if writer is not None and (len(writer) > 200 or not names
                               or not all(name_words(n) for n in names)):  # "and", "1999"
        raise BadInputError(f"bad author filter '{writer[:40]}': give a name such as "
                            "\"Yoshua Bengio\" or \"Bengio\"")
    found = Filters(years=span, named_years=named, venue=name, author=writer)
    return found or None


def years_of(text: str) -> tuple[tuple[int, int], frozenset[int] | None]:
    """``--year`` as a range and, for years named one by one ("2019,2021"), those years
    (``Filters.named_years``); else ``parse_years``' range."""
    if not NAMED_YEARS.match(text):
        return parse_years(text), None
    named = frozenset(int(y) for y in text.split(","))
    return (min(named), max(named)), named


def as_text(value: object) -> str:
    """An API caller's text argument: ``None`` is empty (refused with its one-line reason
    downstream, not an AttributeError) and a number is its digits."""
    return "" if value is None else str(value)


def top_k_of(value: object) -> int:
    """How many papers an API caller asks for: a whole number from 1 to MAX_TOP_K, the
    CLI's ``--top-k`` range; anything else (``"abc"``, ``None``, 2.5, 0, 500) is refused,
    not clamped (500 had answered with 50)."""
    return whole_number("top_k", value, 1, MAX_TOP_K)


def whole_number(name: str, value: object, least: int, most: int | None = None) -> int:
    """An API caller's count ``name``: a whole number from ``least`` to ``most`` (None: no
    top), a JSON 5.0 or "5" being 5; anything else is ``BadInputError``, not a traceback."""
    span = f"from {least} to {most}" if most is not None else f"of {least} or more"
    refused = BadInputError(f"{name} must be a whole number {span}, not {str(value)[:40]!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
        whole = int(number)
    except (TypeError, ValueError, OverflowError):
        raise refused from None
    if number != whole or whole < least or (most is not None and whole > most):
        raise refused
    return whole


def merge(given: Filters | None, said: Filters | None) -> Filters | None:
    """Explicit filters (options, UI, API) and the question's own, both applied: the years
    both ranges hold (``--year 2015-2021`` and "since 2019": 2019–2021), the papers with
    both authors (one name that holds the other's words is one person: "Bengio" and "Yoshua
    Bengio"), the venue both name. Filters that no paper can pass together (``--year
    2019`` and "since 2020", two venues) are BadInputError naming both and the fix: the
    explicit ones had won silently, answering "Which GAN papers were published since
    2020?" with 2019's papers."""
    if not said:
        return given or None
    if not given:
        return said
    years = given.years if said.years is None else said.years if given.years is None \
        else (max(given.years[0], said.years[0]), min(given.years[1], said.years[1]))
    named = _both_named(years, given.named_years, said.named_years)
    if years is not None and (years[0] > years[1] or named == frozenset()):
        raise _apart(_years_only(given), _years_only(said), "year")
    if given.venue and said.venue and given.venue.casefold() != said.venue.casefold():
        raise _apart(Filters(venue=given.venue), Filters(venue=said.venue), "paper")
    merged = Filters(years=years, named_years=named, venue=given.venue or said.venue,
                     author=_both_authors(given.author, said.author),
                     note=said.note if years == said.years else None,
                     excluded=tuple(dict.fromkeys(given.excluded + said.excluded)),
                     excluded_author=given.excluded_author or said.excluded_author)
    return merged or None


def _years_only(filters: Filters) -> Filters:
    """``filters``' years alone, as a refusal names them."""
    return Filters(years=filters.years, named_years=filters.named_years)


def _both_named(years: tuple[int, int] | None, *named: frozenset[int] | None
                ) -> frozenset[int] | None:
    """The years named one by one that both filters allow, within ``years`` (None: every
    year of the range; empty: none, which ``merge`` refuses)."""
    sets = [n for n in named if n is not None]
    if not sets or years is None:
        return None
    both = frozenset.intersection(*sets)
    return frozenset(y for y in both if years[0] <= y <= years[1])


def _both_authors(given: str | None, said: str | None) -> str | None:
    """The author filter of papers by both ``given`` and ``said``: one of them when it
    names the other (its words hold the other's: "Yoshua Bengio" for "Bengio"), else both
    ("Hinton and LeCun", which ``authors.written_by`` reads as papers by both)."""
    if not given or not said:
        return given or said
    mine, theirs = set(name_words(given)), set(name_words(said))
    if theirs <= mine:
        return given
    if mine <= theirs:
        return said
    return f"{given} and {said}"


def _apart(given: Filters, said: Filters, what: str) -> BadInputError:
    return BadInputError(f"the filter given ({given.describe()}) and the question's own "
                         f"({said.describe()}) leave no {what} in common; leave one of them "
                         "out or make them meet")


def _apart_only(asked: str, lists: list[str]) -> str:
    """For several names that each wrote stored papers but none together, each one's count
    ("Andrew Barto: 19, Yann LeCun: 21"); "" when one of them wrote none (or one is asked)."""
    names = author_names(asked)
    counts = [sum(written_by(authors, name) for authors in lists) for name in names]
    if len(names) < 2 or not all(counts):
        return ""
    return ", ".join(f"{name.strip()}: {n:,}" for name, n in zip(names, counts, strict=True))


def no_paper_of(filters: Filters, venues: list[str], author_lists: Iterable[str] = (),
                years: Iterable[int] = (), left_out: Sequence[LeftOut] = ()) -> BadInputError:
    """The error for a filter no stored paper passes, naming the fix: a wider range (for a
    range alone, with the years the store's papers span, from ``years``: "since 2030" is
    after its newest), for a venue no stored paper has the venues the store holds
    (``venues``; with a range too: "ICML 2020" had said to widen the range), for an
    author no paper has the stored names nearest to it (from ``author_lists``, the papers'
    author lists; the store holds no institutions, so "DeepMind" gets none), or the records
    of the store's files that name the author but were not stored (``left_out``: "papers by
    Hilary Tunley" had been "no such author", her one record repeating another's abstract)."""
    lists = list(author_lists)
    if filters.author and not any(written_by(authors, filters.author) for authors in lists):
        if left_out:
            named = ", ".join(r.said() for r in left_out[:LEFT_OUT_SHOWN])
            return BadInputError(f"no indexed paper is by {filters.author}: the store's files "
                                 f"name them only in records not stored ({why(*tally(left_out))}):"
                                 f" {named}")
        if joint := _apart_only(filters.author, lists):
            return BadInputError(f"no indexed paper is by {filters.author} together ({joint} "
                                 "on their own); ask for one of them")
        near = nearest_names(filters.author, lists)
        hint = (f"the nearest are {', '.join(near)}" if near else "check the spelling (the "
                "store holds authors' names, not their institutions)")
        return BadInputError(f"no indexed paper has an author named {filters.author}; "
                             f"{hint}, or leave the author out")
    if filters.venue and filters.venue.casefold() not in {v.casefold() for v in venues}:
        named = ", ".join(venues) or "none named"  # the venue, whatever range goes with it
        return BadInputError(f"no indexed paper is of venue {filters.venue}; the store's "
                             f"venues are {named}: choose one or leave it out")
    dated = sorted(set(years))
    span = "" if not dated or filters != _years_only(filters) else \
        f" (the store's papers are of {dated[0]}{f'–{dated[-1]}' if len(dated) > 1 else ''})"
    return BadInputError(f"no indexed paper is of {filters.describe()}; widen the range "
                         f"or leave it out{span}")
