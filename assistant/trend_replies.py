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

from assistant.count_lines import in_a_row
from assistant.trend_questions import CountsAsked, change_since
from assistant.trends import NO_PAPERS, SHARE_PAPERS, TrendResult, share_text, table_lines
from assistant.tuning import APART_SHOWN
from assistant.types import Filters, consecutive_runs

if TYPE_CHECKING:
    from assistant.intent import Intent

# a year holding fewer stored papers than this share of another: of the fullest year's
# (``compared_counts.overtaken``), or of the year beside it at a span's end (``growth_span``)
THIN_YEAR = 0.1
_FOLDED = {2.0: "doubled", 3.0: "tripled", 4.0: "quadrupled"}


def replies(trend: TrendResult, intent: Intent) -> list[str]:
    """The lines under a trend's count line, before its table: when the topic was first
    counted and most (``TrendResult.peaks``), then what the question asks of the counts:
    the check of the years a peak question claims (``Intent.claimed_years``), its growth,
    top years or decades (``Intent.counts_asked``). None when the counts hold no paper."""
    if not trend.total:
        return []
    claimed, asked = intent.claimed_years, intent.counts_asked
    # "Did X decline after 2010?": its growth from 2010 on (counted over every year)
    since = None if claimed or asked else change_since(intent.question, intent.filters)
    lines = [trend.peaks(), claim_check(trend, *claimed) if claimed else "",
             reply_line(trend, asked, intent.filters) if asked else "",
             growth_line(trend, None, since) if since else ""]
    return [line for line in lines if line]


def reply_line(trend: TrendResult, asked: CountsAsked, stated: Filters | None) -> str:
    """The line answering what ``asked`` asks of the counts ("" when they hold no answer);
    ``stated``: the range the question states, which a growth is measured across. With no
    range, a growth is measured from the first year counting SHARE_PAPERS or more, not from
    a stray paper ("deep learning" had grown 188× from one paper of 2007; a review's)."""
    if asked.kind == "growth":
        if stated and stated.states_years:
            return growth_line(trend, asked.factor, None)
        since = growth_start(trend)
        line = growth_line(trend, asked.factor, since)
        return line + (f" No years were asked: it is measured from {since}, the first year "
                       f"counting {SHARE_PAPERS} or more." if line and since != first_counted(trend) else "")
    return top_years_line(trend, asked.n) if asked.kind == "top_years" else decades_line(trend, asked.fewest)


def growth_line(trend: TrendResult, factor: float | None, since: int | None) -> str:
    """The change in the topic's count from the first year to the last (``growth_span``:
    from ``since``, or over the range the question states when None), with each year's
    share of its stored papers, and, for a yes-or-no question asking a multiple
    (``factor``: "Did X double?"), the verdict on the count, and on the share when that
    differs."""
    first, last, said = growth_span(trend, since)
    if first is None or last is None:
        too_few = f"Too few years to measure the growth of {_papers_of(trend)}."
        return " ".join([too_few, *said]) if said else ""
    before, after = trend.years[first], trend.years[last]
    change = f"{before:,} to {after:,} papers"
    if before:
        ratio = after / before
        yearly = _yearly(ratio, last - first)
        change += f" ({'up' if ratio >= 1 else 'down'} {abs(ratio - 1):,.0%}, {times(ratio)}{yearly})"
    line = f"From {first} to {last}, {_papers_of(trend)} went from {change}"
    shares = (trend.share(first), trend.share(last))
    within = trend.shares_within()  # an author's or a venue's papers, not the store's
    if shares[0] is not None and shares[1] is not None:
        line += (f"; as a share of each year's stored papers{within}, from {share_text(shares[0])} of "
                 f"{trend.stored[first]:,} to {share_text(shares[1])} of {trend.stored[last]:,}")
    line = " ".join([line + ".", *said])
    if factor is None:
        return line
    word = _FOLDED.get(factor, f"grown {factor:g}-fold")
    if not before:
        return f"No multiple to tell: none in {first}. {line}"
    grew = after >= factor * before
    more = "more than " if grew and after > factor * before else ""
    verdict = f"{'Yes' if grew else 'No'}, {more if grew else 'not '}{word} in papers"
    if shares[0] and shares[1] is not None and (shares[1] >= factor * shares[0]) != grew:
        verdict += f", but {'not ' if grew else ''}as a share of each year's papers"
    return f"{verdict}. {line}"


def growth_span(trend: TrendResult, since: int | None = None) -> tuple[int | None, int | None, list[str]]:
    """The first and the last year a growth is measured between, and what is said of the
    years left out: the trend's years from ``since`` on (every one when None), less a year
    of the store's at an end holding few stored papers beside the year next to it (the 38
    seeds of 2025 after 2,333 papers of 2021; not an author's year of few papers), and
    from the first year counting any ("since 2015" of a topic first counted in 2017: 0 had
    read "No, not doubled"; a review's). (None, None, said) with fewer than two years."""
    years = [y for y in sorted(trend.years) if since is None or y >= since]
    said: list[str] = []
    for end, beside in ((-1, -2), (0, 1)):
        if trend.gap_label == NO_PAPERS and len(years) > 1 and _thin(trend, years[end], years[beside]):
            n = trend.stored.get(years[end], 0)
            said.append(f"{years[end]} is left out: it holds only {n:,} stored "
                        f"{'paper' if n == 1 else 'papers'}, against {trend.stored[years[beside]]:,} "
                        f"in {years[beside]}.")
            del years[end]
    counted = [y for y in years if trend.years[y]]
    if len(years) > 1 and counted and years[0] < counted[0] < years[-1]:
        said.append(f"None in {years[0]}: it is measured from {counted[0]}, the first year counting any.")
        years = [y for y in years if y >= counted[0]]
    return (years[0], years[-1], said) if len(years) > 1 else (None, None, said)


def _yearly(ratio: float, years: int) -> str:
    """The compound rate a year over ``years`` years ("; up about 11% a year"), so that a
    question asking for a growth rate per year gets one, not the span's total (a review's:
    "up 83%" over six years read as the yearly rate); none over a year or less, or to 0."""
    if years < 2 or ratio <= 0:
        return ""
    rate = ratio ** (1 / years) - 1
    return f"; {'up' if rate >= 0 else 'down'} about {abs(rate):.0%} a year"


def times(ratio: float) -> str:
    """A multiple as said: 0.47 → "0.47×", 4.5 → "4.5×", 111 → "111×"."""
    return f"{ratio:.2g}×" if ratio < 10 else f"{ratio:,.0f}×"


def first_counted(trend: TrendResult, least: int = 1) -> int | None:
    """The first year the trend counts ``least`` papers or more in, or None."""
    return min((y for y, n in trend.years.items() if n >= least), default=None)


def growth_start(trend: TrendResult) -> int | None:
    """The year a growth asked of no years starts at: the first counting SHARE_PAPERS or
    more, not a stray early paper, else the first counting any."""
    return first_counted(trend, SHARE_PAPERS) or first_counted(trend)


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
        line += f"; {in_a_row(sorted(tied))} also {'count' if len(tied) > 1 else 'counts'} " \
                f"{trend.years[top[-1]]:,}"
    shared = [y for y in counted if trend.years[y] >= SHARE_PAPERS and trend.share(y) is not None]
    by_share = sorted(shared, key=lambda y: (-(trend.share(y) or 0.0), -y))[:n]
    if by_share and by_share != top:
        line += "; by share of each year's stored papers: " + ", ".join(
            f"{y} ({share_text(trend.share(y) or 0.0)})" for y in by_share)
    return line + "."


def decades_line(trend: TrendResult, fewest: bool = False) -> str:
    """The topic's papers per decade, each beside the decade's stored papers and the years
    of it the store holds when not all ten, then the decade of the most papers (``fewest``:
    of the fewest), and of the largest (smallest) share when another (a decade's count is
    of its stored years alone)."""
    decades = {d: list(ys) for d, ys in groupby(sorted(trend.years), key=lambda y: y // 10 * 10)}
    parts, counts, shares = [], {}, {}
    for decade, years in decades.items():
        counts[decade] = sum(trend.years[y] for y in years)
        stored = sum(trend.stored.get(y, 0) for y in years)
        shares[decade] = counts[decade] / stored if stored else 0.0
        held = "" if len(years) == 10 else f"; {_spans(years)} only"
        parts.append(f"{decade}s {counts[decade]:,} ({share_text(shares[decade])} of {stored:,}{held})")
    pick = min if fewest else max
    first = [d for d in counts if counts[d] == pick(counts.values())]  # ties named, each
    of = _papers_of(trend)
    line = f"{of[0].upper()}{of[1:]} by decade: {', '.join(parts)}. The {'fewest' if fewest else 'most'} " \
           f"in the {in_a_row([f'{d}s' for d in first])}"
    # a share of a paper or two says little: only decades of SHARE_PAPERS or more compete
    # for the largest; every decade for the smallest (C65: of three at 0.0%, one had been named)
    if not (shared := [d for d in shares if fewest or counts[d] >= SHARE_PAPERS]):
        return line + "."
    best = share_text(pick(shares[d] for d in shared))  # ties as shown named, each (C66)
    chosen = [d for d in shared if share_text(shares[d]) == best]
    size = "smallest" if fewest else "largest"
    return line + (f"; the {size} share too." if chosen == first
                   else f"; the {size} share in the {in_a_row([f'{d}s' for d in chosen])}.")


def _spans(years: list[int]) -> str:
    """Years in runs: [2020, 2021, 2025] → "2020–2021 and 2025"."""
    runs = consecutive_runs(years)
    return in_a_row([str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs])


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
    if not inside:
        return ""
    best = max(inside, key=lambda y: (trend.years[y], trend.share(y) or 0.0))
    count, share = trend.years[best], trend.share(best)
    ahead = sum(1 for n in trend.years.values() if n > count) + 1
    tied = [str(y) for y, n in trend.years.items() if n == count and y != best]
    line = "" if first == last else f"Within {Filters(years=(first, last)).describe()}, " \
                                     f"the most in "
    line += f"{best}: {count:,} {'paper' if count == 1 else 'papers'}"
    if share is not None:
        line += f" ({share_text(share)} of {trend.stored[best]:,})"
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


def apart_line(trend: TrendResult) -> str:
    """The papers the count's own screen keeps that the count does not
    (``TrendResult.set_apart``: the topic's words apart; its reading budget is larger than a
    list's, so a list may not show them all: C69), the first APART_SHOWN named: R12's
    `trends "Hopfield networks"` said "12 more listed, not counted" and showed none of
    them, for the reader to judge; "" when there are none."""
    if not trend.set_apart:
        return ""
    shown = trend.set_apart[:APART_SHOWN]
    named = "; ".join(f"“{p.title}”{f' ({p.year})' if p.year else ''}" for p in shown)
    more = len(trend.set_apart) - len(shown)
    return f"Those set apart: {named}{f'; and {more:,} more' if more > 0 else ''}."


def trend_lines(trend: TrendResult, intent: Intent, undated: str = "") -> list[str]:
    """What `assistant trends` prints: the count line, the papers the count set apart
    (``apart_line``: "Those set apart: …"), the undated papers a range leaves out
    (``undated``), the replies the topic's question asks (``replies``: "… by decade?") and
    the table."""
    return [f"{trend.summary()}.", *filter(None, (apart_line(trend), undated.rstrip())),
            *replies(trend, intent), *(table_lines(trend) if trend.total else [])]
