"""Topics' counts compared ("Are there more papers on GANs or on normalizing flows?"):
the answer's lines, its receipt, and the counted papers of all as its sources.

Why a module: a count comparison is answered from its topics' trends
(``ListAnswers.compare_stream`` counts each topic as ``assistant trends`` does); what it
says of them, and the papers a reader checks their totals by, are decided here, beside the
trend's own (``trends.py``).
"""

from __future__ import annotations

from collections import Counter
from itertools import zip_longest

from assistant.count_lines import in_a_row
from assistant.list_lines import cited
from assistant.list_records import ListedPaper
from assistant.trend_replies import (
    THIN_YEAR,
    first_counted,
    growth_line,
    growth_span,
    growth_start,
    times,
)
from assistant.trends import NO_YEAR, TrendResult
from assistant.types import Answer, Citation, Receipt, SourceRef


def comparison_lines(*trends: TrendResult, growth: bool = False, ranged: bool = False) -> list[str]:
    """Topics' counts over the same papers: which has more (and, when the question asks
    which ``growth`` is faster, which grew faster: ``growth_lines``), which sources each
    counted (``sources_line``), each one's summary and peaks, then one table of all per
    year beside the papers stored that year. Two or more topics ("Which grew faster: GANs,
    VAEs or diffusion models?" had been turned away as three)."""
    lines = [verdict_line(*trends), *(growth_lines(*trends, ranged=ranged) if growth else []),
             *([line] if (line := sources_line(*trends)) else [])]
    for trend in trends:
        lines += [f"{trend.summary()}.", *([peaks] if (peaks := trend.peaks()) else [])]  # none: no year
    first = trends[0]
    head = ["year", *(trend.topic for trend in trends), "of stored"]
    rows: list[list[str]] = []
    for run, gap in zip_longest(first.runs(), first.gaps()):  # the same years: one filter
        rows += [[str(y), *(str(trend.years.get(y, 0)) for trend in trends),
                  f"{first.stored.get(y, 0):,}"] for y in run]
        if gap:
            rows.append([str(gap[0]) if gap[0] == gap[1] else f"{gap[0]}–{gap[1]}",
                         *("" for _ in trends), first.gap_label])
    if any(trend.unknown_year for trend in trends):
        rows.append([NO_YEAR, *(str(trend.unknown_year) for trend in trends), ""])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return lines + ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
                    for row in [head, *rows]]


def verdict_line(*trends: TrendResult) -> str:
    """Which topic has more papers: "More papers on “GANs” than on “VAEs”: 244 against
    158." (and since when the other leads each year, ``overtaken``); of three or more, each
    by its count, most first, those tied named together: "Most papers on “GANs”: 244, then
    “VAEs” 158 and “flows” 71."""
    if len(trends) == 2 and trends[0].total == trends[1].total:
        first, second = trends
        return f"As many papers on “{first.topic}” as on “{second.topic}”: {first.total:,} each."
    if len(trends) == 2:
        more, fewer = sorted(trends, key=lambda t: -t.total)
        return (f"More papers on “{more.topic}” than on “{fewer.topic}”: {more.total:,} "
                f"against {fewer.total:,}.{overtaken(more, fewer)}")
    totals = sorted({t.total for t in trends}, reverse=True)
    tied = [[f"“{t.topic}”" for t in trends if t.total == total] for total in totals]
    if len(tied) == 1:
        return f"As many papers on each of {in_a_row(tied[0])}: {totals[0]:,} each."
    each = [" each" if len(names) > 1 else "" for names in tied]
    rest = [f"{in_a_row(names)} {total:,}{one}"
            for names, total, one in zip(tied[1:], totals[1:], each[1:], strict=True)]
    return f"Most papers on {in_a_row(tied[0])}: {totals[0]:,}{each[0]}, then {in_a_row(rest)}."


def growth_lines(*trends: TrendResult, ranged: bool) -> list[str]:
    """Which topic grew fastest ("Which grew faster, GANs or VAEs?"), by the multiple of each
    one's count over the same years: the range the question states (``ranged``), else from
    the first year all count SHARE_PAPERS or more in (or any, when one never does), to the
    newest; then each one's growth (``growth_line``). When a topic counts none in the first
    year, or they are measured over different years, no multiple is set against another:
    the lines alone are said."""
    starts = [growth_start(trend) for trend in trends]
    if None in starts:
        return []
    since = None if ranged else max(y for y in starts if y is not None)
    spans = [growth_span(trend, since)[:2] for trend in trends]
    if since is not None and any(start is None for start, _ in spans):
        since = max(y for trend in trends if (y := first_counted(trend)) is not None)  # R3
        spans = [growth_span(trend, since)[:2] for trend in trends]
    lines = [growth_line(trend, None, since) for trend in trends]
    a, b = spans[0]
    if a is None or b is None or len(set(spans)) > 1 or not all(t.years[a] for t in trends):
        return [line for line in lines if line]
    ranked = sorted(((t, t.years[b] / t.years[a]) for t in trends), key=lambda x: -x[1])
    f = ranked[0][1]
    fast = in_a_row([f"“{t.topic}”" for t, x in ranked if x == f])  # those tied first, together
    slower = [(t, x) for t, x in ranked if x != f]
    two, tied = len(trends) == 2, len(ranked) - len(slower) > 1
    against = (f"{times(f)} {'their' if tied else 'its'} papers{' each' if tied else ''}, against "
               + in_a_row([f"{times(x)} for “{t.topic}”" for t, x in slower]))
    if not slower:
        said = (f"{'Neither' if two else 'None'} grew faster from {a} to {b}: each went to "
                f"{times(f)} its papers.")
    elif f > 1:
        said = f"{fast} grew {'faster' if two else 'fastest'} from {a} to {b}: {against}."
    else:  # none grew
        said = (f"{'Neither' if two else 'None'} grew from {a} to {b}; {fast} kept "
                f"{'more' if two else 'most'} of {'their' if tied else 'its'} papers: {against}.")
    return [said, *lines]


def overtaken(more: TrendResult, fewer: TrendResult) -> str:
    """The years since which the topic with fewer papers in all has had more each year, when
    it has in the latest year either counted any: "Did transformers overtake CNNs in number of papers?"
    had been answered "More papers on “CNNs” …: 354 against 144", its table showing 111
    against 78 in 2021 (a review's); "" when the one with more leads the latest year too. A
    year of few stored papers (``THIN_YEAR``: the 38 seeds of 2025 beside 2,333 of 2021) is
    no year to lead in."""
    most = max(more.stored.values(), default=0)
    years = sorted(y for y in set(more.years) | set(fewer.years) if (more.years.get(y) or fewer.years.get(y))
                   and more.stored.get(y, 0) >= THIN_YEAR * most)  # not a sample's year (a review's)
    since = None
    for year in reversed(years):
        if fewer.years.get(year, 0) <= more.years.get(year, 0):
            break
        since = year
    if since is None:
        return ""
    last = years[-1]
    each = f"{fewer.years.get(last, 0):,} against {more.years.get(last, 0):,}"
    if since == last:  # one year is no "each year since" (R7)
        return f" But “{fewer.topic}” had more in {last} ({each})."
    return f" But “{fewer.topic}” has had more each year since {since} ({each} in {last})."


def compared_papers(*trends: TrendResult) -> list[ListedPaper]:
    """The papers any topic counted, in the order they are cited: by the first topic that
    counted each, then the last (of two: those of the first alone, those both counted, those
    of the second alone, so that each topic's are one run of numbers, ``sources_line``);
    within each, newest year first and best first within a year (as a trend's sources),
    those without a year last. A paper several counted is cited once."""
    ids = [set(trend.paper_ids) for trend in trends]
    by_id = {p.paper.paper_id: p for trend in reversed(trends) for p in trend.counted}  # first's score

    def group(pid: str) -> tuple[int, int]:
        held = [i for i, counted in enumerate(ids) if pid in counted] or [len(ids)]
        return held[0], held[-1]

    return sorted(by_id.values(), key=lambda p: (*group(p.paper.paper_id), -(p.paper.year or 0),
                                                 -p.score, p.paper.paper_id))


def sources_line(*trends: TrendResult) -> str:
    """Which sources each topic counted ("Sources: [1]–[237] counted on “GANs”, [231]–[301]
    on “normalizing flows”; 7 counted on both."; of three or more, how many each counted,
    their runs crossing), "" when none counted any."""
    if not any(trend.total for trend in trends):
        return ""
    if len(trends) > 2:
        counted = set().union(*(trend.paper_ids for trend in trends))
        shared = counted_by_several(*trends)
        each = ", ".join(f"{f'{trend.total:,}' if trend.total else 'none'} on “{trend.topic}”"
                         for trend in trends)
        return (f"Sources: the {len(counted):,} {'paper' if len(counted) == 1 else 'papers'} counted, {each}"
                f"{f'; {shared:,} counted on more than one' if shared else ''}.")
    first, second = trends
    both = len(set(first.paper_ids) & set(second.paper_ids))
    start = first.total - both + 1  # the second's run begins with the papers both counted
    spans = [span(1, first.total), span(start, start + second.total - 1)]
    parts = [f"{spans[0]} counted on “{first.topic}”" if first.total
             else f"none counted on “{first.topic}”",
             f"{spans[1]} on “{second.topic}”" if second.total else f"none on “{second.topic}”"]
    shared = f"; {both:,} counted on both" if both else ""
    return f"Sources: {', '.join(parts)}{shared}."


def counted_by_several(*trends: TrendResult) -> int:
    """How many papers more than one of the topics counted (each once)."""
    counted = Counter(pid for trend in trends for pid in set(trend.paper_ids))
    return sum(1 for n in counted.values() if n > 1)


def span(first: int, last: int) -> str:
    """Source numbers first to last: "[3]", "[1]–[237]"."""
    return f"[{first}]" if first == last else f"[{first}]–[{last}]"


def comparison_sources(*trends: TrendResult) -> tuple[list[SourceRef], list[Citation]]:
    """The papers any topic counted as the answer's sources and citations
    (``compared_papers``), each as a trend cites it."""
    return cited(compared_papers(*trends))


def comparison_receipt(*trends: TrendResult) -> Receipt:
    """The receipt of topics' counts compared: the papers any counted (each cited once,
    ``compared_papers``), read as the largest of the screens, those of them kept unread
    past the reading budget as their sources are marked (a paper several counted, as the
    first did: its source's mark), with the records of the store's files the filter allows
    that have no abstract (one filter: any's). The kept unread had been left at 0 while
    the answer said hundreds and its sources marked them."""
    first, papers = trends[0], compared_papers(*trends)
    return Receipt(in_store=first.papers_in_store, in_filter=first.papers_in_filter,
                   read=max(trend.screened for trend in trends), cited=len(papers),
                   matching=len(papers),
                   unread_left_out=sum(trend.unread_left_out for trend in trends),
                   kept_unread=sum(p.kept_unread for p in papers),
                   counted=[p.paper.paper_id for p in papers], left_out=first.left_out,
                   left_out_repeats=first.left_out_repeats, left_out_unread=first.left_out_unread)


def comparison_answer(question: str, lines: list[str], *trends: TrendResult) -> Answer:
    """The comparison's typed answer: its ``lines``, its receipt, and every topic's counted
    papers as its sources and citations (``comparison_sources``)."""
    sources, citations = comparison_sources(*trends)
    return Answer(question=question, answer="\n".join(lines), mode="extractive",
                  filters=trends[0].filters, sources=sources, citations=citations,
                  receipt=comparison_receipt(*trends))
