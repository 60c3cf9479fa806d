"""What a trend question asks of its counts, answered in a line beside the table: whether
the years it names were the peak (``claim_check``), how much the topic grew between two
years (``growth_line``), its busiest years (``top_years_line``), its decades
(``decades_line``).

Why a module: the counts are the trend's (trends.py); which of them answers the question
("By what percentage did papers on GANs grow from 2018 to 2021?", "Which decade had the
most papers on X?") is read from its words (``trend_questions.CountsAsked``) and said here,
each count beside the papers stored that year, so that a conference that grew tenfold does
not read as every topic's growth.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from assistant.trend_questions import CountsAsked
from assistant.trends import SHARE_PAPERS, TrendResult, year_runs
from assistant.types import Filters

if TYPE_CHECKING:
    from assistant.intent import Intent

THIN_YEAR = 0.1  # a year holding fewer stored papers than this share of the fullest year's
_FOLDED = {2.0: "doubled", 3.0: "tripled", 4.0: "quadrupled"}


def replies(trend: TrendResult, intent: Intent) -> list[str]:
    """The lines answering what a trend question asks of its counts beyond the table: the
    check of the years a peak question claims (``Intent.claimed_years``), and its growth,
    top years or decades (``Intent.counts_asked``); none when the counts hold no paper."""
    claimed, asked = intent.claimed_years, intent.counts_asked
    lines = [claim_check(trend, *claimed) if claimed and trend.total else "",
             reply_line(trend, asked, intent.filters) if asked and trend.total else ""]
    return [line for line in lines if line]


def reply_line(trend: TrendResult, asked: CountsAsked, stated: Filters | None) -> str:
    """The line answering what ``asked`` asks of the counts ("" when they hold no answer);
    ``stated``: the range the question states, which a growth is measured across."""
    if asked.kind == "growth":
        ranged = bool(stated and (stated.years or stated.recent))  # else from its first paper
        return growth_line(trend, asked.factor, None if ranged else first_counted(trend))
    return top_years_line(trend, asked.n) if asked.kind == "top_years" else decades_line(trend)


def growth_line(trend: TrendResult, factor: float | None, since: int | None) -> str:
    """The change in the topic's count from the first year to the last (``growth_span``:
    from ``since``, or over the range the question states when None), with each year's
    share of its stored papers, and, for a yes-or-no question asking a multiple
    (``factor``: "Did X double?"), the verdict on the count, and on the share when that
    differs."""
    if (span := growth_span(trend, since)) is None:
        return ""
    first, last, thin = span
    before, after = trend.years[first], trend.years[last]
    change = f"{before:,} to {after:,} papers"
    if before:
        ratio = after / before
        change += f" ({'up' if ratio >= 1 else 'down'} {abs(ratio - 1):,.0%}, {times(ratio)})"
    line = f"From {first} to {last}, {_papers_of(trend)} went from {change}"
    shares = (trend.share(first), trend.share(last))
    if shares[0] is not None and shares[1] is not None:
        line += (f"; as a share of each year's stored papers, from {shares[0]:.1%} of "
                 f"{trend.stored[first]:,} to {shares[1]:.1%} of {trend.stored[last]:,}")
    line += "." + "".join(f" {y} is left out: it holds {trend.stored.get(y, 0):,} stored papers."
                          for y in thin)
    if factor is None:
        return line
    word = _FOLDED.get(factor, f"grown {factor:g}-fold")
    grew = bool(before) and after >= factor * before
    more = "more than " if grew and after > factor * before else ""
    verdict = f"{'Yes' if grew else 'No'}, {more if grew else 'not '}{word} in papers"
    if before and shares[0] and shares[1] is not None and (shares[1] >= factor * shares[0]) != grew:
        verdict += f", but {'not ' if grew else ''}as a share of each year's papers"
    return f"{verdict}. {line}"


def growth_span(trend: TrendResult, since: int | None = None) -> tuple[int, int, list[int]] | None:
    """The first and the last year a growth is measured between: the trend's years from
    ``since`` on (every one when None), less a year at an end holding few stored papers
    beside the year next to it (the 38 seeds of 2025 after 2,333 papers of 2021), given
    third to be said; None with fewer than two years."""
    years = [y for y in sorted(trend.years) if since is None or y >= since]
    thin = [y for y in (years[-1:] if len(years) > 2 else []) if _thin(trend, y, years[-2])]
    thin += [y for y in (years[:1] if len(years) > 2 else []) if _thin(trend, y, years[1])]
    years = [y for y in years if y not in thin]
    return (years[0], years[-1], thin) if len(years) > 1 else None


def times(ratio: float) -> str:
    """A multiple as said: 0.47 → "0.47×", 4.5 → "4.5×", 111 → "111×"."""
    return f"{ratio:.2g}×" if ratio < 10 else f"{ratio:,.0f}×"


def first_counted(trend: TrendResult) -> int | None:
    """The first year the trend counts any paper in, or None."""
    return min((y for y, n in trend.years.items() if n), default=None)


def _thin(trend: TrendResult, year: int, beside: int) -> bool:
    """Whether ``year`` holds few stored papers beside ``beside`` (``THIN_YEAR``)."""
    return trend.stored.get(year, 0) < THIN_YEAR * trend.stored.get(beside, 0)


def top_years_line(trend: TrendResult, n: int) -> str:
    """The ``n`` years counting the most papers, most first (the newest first among ties),
    each with its count, and the years of the largest share of their stored papers when
    their order differs (only years of SHARE_PAPERS or more compete: a paper or two of a
    small year says little)."""
    counted = [y for y, c in trend.years.items() if c]
    top = sorted(counted, key=lambda y: (-trend.years[y], -y))[:n]
    few = f" (only {len(counted)} counted any)" if len(counted) < n else ""
    line = (f"The {len(top)} {'year' if len(top) == 1 else 'years'} with the most {_papers_of(trend)}"
            f"{few}: " + ", ".join(f"{y} ({trend.years[y]:,})" for y in top))
    if len(top) == n and (tied := [y for y in counted if y not in top
                                   and trend.years[y] == trend.years[top[-1]]]):
        line += f"; {' and '.join(map(str, sorted(tied)))} also {'count' if len(tied) > 1 else 'counts'} " \
                f"{trend.years[top[-1]]:,}"
    shared = [y for y in counted if trend.years[y] >= SHARE_PAPERS and trend.share(y) is not None]
    by_share = sorted(shared, key=lambda y: (-(trend.share(y) or 0.0), -y))[:n]
    if by_share and by_share != top:
        line += "; by share of each year's stored papers: " + ", ".join(
            f"{y} ({trend.share(y) or 0.0:.1%})" for y in by_share)
    return line + "."


def decades_line(trend: TrendResult) -> str:
    """The topic's papers per decade, each beside the decade's stored papers and the years
    of it the store holds when not all ten, then the decade of the most papers, and of the
    largest share when another (a decade's count is of its stored years alone)."""
    decades = {d: list(ys) for d, ys in groupby(sorted(trend.years), key=lambda y: y // 10 * 10)}
    parts, counts, shares = [], {}, {}
    for decade, years in decades.items():
        counts[decade] = sum(trend.years[y] for y in years)
        stored = sum(trend.stored.get(y, 0) for y in years)
        shares[decade] = counts[decade] / stored if stored else 0.0
        held = "" if len(years) == 10 else f"; {_spans(years)} only"
        parts.append(f"{decade}s {counts[decade]:,} ({shares[decade]:.1%} of {stored:,}{held})")
    most = max(counts, key=lambda d: (counts[d], d))
    of = _papers_of(trend)
    line = f"{of[0].upper()}{of[1:]} by decade: {', '.join(parts)}. The most in the {most}s"
    largest = max(shares, key=lambda d: (shares[d], d))
    return line + ("; the largest share too." if largest == most else
                   f"; the largest share in the {largest}s.")


def _spans(years: list[int]) -> str:
    """Years in runs: [2020, 2021, 2025] → "2020–2021 and 2025"."""
    runs = year_runs(years)
    spans = [str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return " and ".join([", ".join(spans[:-1]), spans[-1]] if len(spans) > 1 else spans)


def _papers_of(trend: TrendResult) -> str:
    """What a line says was counted: papers on the topic, or the counted papers."""
    return f"papers on “{trend.topic}”" if trend.topic else "the counted papers"


def claim_check(trend: TrendResult, first: int, last: int) -> str:
    """How the years a question names compare with the rest ("Did research on GANs
    peak in 2019?"): the year of that span with the most papers, its count and share,
    and its rank among the counted years by papers and by share ("2019: 56 papers (3.9%
    of 1,427); 1st of 35 years by papers, tied with 2020; 2nd by share."), so that the
    claim can be checked against the table. "" when the span holds no counted year."""
    inside = [y for y in trend.years if first <= y <= last]
    if not inside or not trend.years:
        return ""
    best = max(inside, key=lambda y: (trend.years[y], trend.share(y) or 0.0))
    count, share = trend.years[best], trend.share(best)
    ahead = sum(1 for n in trend.years.values() if n > count) + 1
    tied = [str(y) for y, n in trend.years.items() if n == count and y != best]
    line = "" if first == last else f"Within {Filters(years=(first, last)).describe()}, " \
                                     f"the most in "
    line += f"{best}: {count:,} {'paper' if count == 1 else 'papers'}"
    if share is not None:
        line += f" ({share:.1%} of {trend.stored[best]:,})"
    line += f"; {ordinal(ahead)} of {len(trend.years)} years by papers"
    if tied and count:
        line += f", tied with {' and '.join(tied[:3])}{' …' if len(tied) > 3 else ''}"
    # a share of a paper or two says little: only years of SHARE_PAPERS or more compete
    if share is not None and count >= SHARE_PAPERS:
        shares = [s for y, n in trend.years.items()
                  if n >= SHARE_PAPERS and (s := trend.share(y)) is not None]
        line += f"; {ordinal(sum(1 for s in shares if s > share) + 1)} by share"
    return line + "."


def ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
