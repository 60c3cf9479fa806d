"""Two topics' counts compared ("Are there more papers on GANs or on normalizing flows?"):
the answer's lines, its receipt, and the counted papers of both as its sources.

Why a module: a count comparison is answered from two trends (``ListAnswers.compare_stream``
counts each topic as ``assistant trends`` does); what it says of them, and the papers a
reader checks its two totals by, are decided here, beside the trend's own (``trends.py``).
"""

from __future__ import annotations

from itertools import zip_longest

from assistant.list_lines import cited
from assistant.listing import ListedPaper
from assistant.trend_replies import THIN_YEAR, first_counted, growth_line, growth_span, growth_start, times
from assistant.trends import NO_YEAR, TrendResult
from assistant.types import Answer, Citation, Receipt, SourceRef


def comparison_lines(first: TrendResult, second: TrendResult, growth: bool = False,
                     ranged: bool = False) -> list[str]:
    """Two topics' counts over the same papers: which has more (and, when the question asks
    which ``growth`` is faster, which grew faster: ``growth_lines``), which sources each
    counted (``sources_line``), each one's summary and peaks, then one table of both per
    year beside the papers stored that year."""
    if first.total == second.total:
        verdict = f"As many papers on “{first.topic}” as on “{second.topic}”: {first.total:,} each."
    else:
        more, fewer = (first, second) if first.total > second.total else (second, first)
        verdict = (f"More papers on “{more.topic}” than on “{fewer.topic}”: {more.total:,} "
                   f"against {fewer.total:,}.{overtaken(more, fewer)}")
    lines = [verdict, *(growth_lines(first, second, ranged) if growth else []),
             *([line] if (line := sources_line(first, second)) else [])]
    for trend in (first, second):
        lines += [f"{trend.summary()}.", *([peaks] if (peaks := trend.peaks()) else [])]  # none: no year
    head = ["year", first.topic, second.topic, "of stored"]
    rows: list[list[str]] = []
    for run, gap in zip_longest(first.runs(), first.gaps()):  # the same years: one filter
        rows += [[str(y), str(first.years[y]), str(second.years.get(y, 0)),
                  f"{first.stored.get(y, 0):,}"] for y in run]
        if gap:
            rows.append([str(gap[0]) if gap[0] == gap[1] else f"{gap[0]}–{gap[1]}", "", "",
                         first.gap_label])
    if first.unknown_year or second.unknown_year:
        rows.append([NO_YEAR, str(first.unknown_year), str(second.unknown_year), ""])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return lines + ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
                    for row in [head, *rows]]


def growth_lines(first: TrendResult, second: TrendResult, ranged: bool) -> list[str]:
    """Which of two topics grew faster ("Which grew faster, GANs or VAEs?"), by the multiple
    of each one's count over the same years: the range the question states (``ranged``),
    else from the first year both count SHARE_PAPERS or more in (or any, when one never
    does), to the newest; then each one's growth (``growth_line``). When a topic counts
    none in the first year, or the two are measured over other years, no multiple is set
    against the other: the two lines alone are said."""
    pair = (first, second)
    starts = [growth_start(trend) for trend in pair]
    if None in starts:
        return []
    since = None if ranged else max(y for y in starts if y is not None)
    spans = [growth_span(trend, since)[:2] for trend in pair]
    if since is not None and any(start is None for start, _ in spans):
        since = max(y for trend in pair if (y := first_counted(trend)) is not None)  # R3
        spans = [growth_span(trend, since)[:2] for trend in pair]
    lines = [growth_line(trend, None, since) for trend in pair]
    a, b = spans[0]
    if a is None or b is None or spans[0] != spans[1] or not (first.years[a] and second.years[a]):
        return [line for line in lines if line]
    (fast, f), (slow, s) = sorted([(first, first.years[b] / first.years[a]),
                                   (second, second.years[b] / second.years[a])], key=lambda x: -x[1])
    against = f"{times(f)} its papers, against {times(s)} for “{slow.topic}”"
    if f == s:
        said = f"Neither grew faster from {a} to {b}: each went to {times(f)} its papers."
    elif f > 1:
        said = f"“{fast.topic}” grew faster from {a} to {b}: {against}."
    else:  # neither grew
        said = f"Neither grew from {a} to {b}; “{fast.topic}” kept more of its papers: {against}."
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
    each = f"{fewer.years.get(last, 0):,} against {more.years.get(last, 0):,} in {last}"
    return f" But “{fewer.topic}” has had more each year since {since} ({each})."


def compared_papers(first: TrendResult, second: TrendResult) -> list[ListedPaper]:
    """The papers either topic counted, in the order they are cited: those of the first
    alone, those both counted, those of the second alone, so that each topic's are one run
    of numbers (``sources_line``); within each, newest year first and best first within a
    year (as a trend's sources), those without a year last. A paper both counted is cited
    once."""
    ids = (set(first.paper_ids), set(second.paper_ids))
    by_id = {p.paper.paper_id: p for p in [*second.counted, *first.counted]}  # first's score
    groups = (ids[0] - ids[1], ids[0] & ids[1], ids[1] - ids[0])
    return [p for group in groups
            for p in sorted((by_id[pid] for pid in group),
                            key=lambda p: (-(p.paper.year or 0), -p.score, p.paper.paper_id))]


def sources_line(first: TrendResult, second: TrendResult) -> str:
    """Which sources each topic counted ("Sources: [1]–[237] counted on “GANs”, [231]–[301]
    on “normalizing flows”; 7 counted on both."), "" when neither counted any."""
    if not first.total and not second.total:
        return ""
    both = len(set(first.paper_ids) & set(second.paper_ids))
    start = first.total - both + 1  # the second's run begins with the papers both counted
    spans = [span(1, first.total), span(start, start + second.total - 1)]
    parts = [f"{spans[0]} counted on “{first.topic}”" if first.total
             else f"none counted on “{first.topic}”",
             f"{spans[1]} on “{second.topic}”" if second.total else f"none on “{second.topic}”"]
    shared = f"; {both:,} counted on both" if both else ""
    return f"Sources: {', '.join(parts)}{shared}."


def span(first: int, last: int) -> str:
    """Source numbers first to last: "[3]", "[1]–[237]"."""
    return f"[{first}]" if first == last else f"[{first}]–[{last}]"


def comparison_sources(first: TrendResult, second: TrendResult
                       ) -> tuple[list[SourceRef], list[Citation]]:
    """The papers either topic counted as the answer's sources and citations
    (``compared_papers``), each as a trend cites it."""
    return cited(compared_papers(first, second))


def comparison_receipt(first: TrendResult, second: TrendResult) -> Receipt:
    """The receipt of two topics' counts compared: the papers either counted (each cited
    once, ``compared_papers``), read as the larger of the two screens, those of them kept
    unread past the reading budget as their sources are marked (a paper both counted, as
    the first did: its source's mark), with the records of the store's files the filter
    allows that have no abstract (one filter: either's). The kept unread had been left at
    0 while the answer said hundreds and its sources marked them."""
    papers = compared_papers(first, second)
    return Receipt(in_store=first.papers_in_store, in_filter=first.papers_in_filter,
                   read=max(first.screened, second.screened), cited=len(papers),
                   matching=len(papers),
                   unread_left_out=first.unread_left_out + second.unread_left_out,
                   kept_unread=sum(p.kept_unread for p in papers),
                   counted=[p.paper.paper_id for p in papers], left_out=first.left_out,
                   left_out_repeats=first.left_out_repeats, left_out_unread=first.left_out_unread)


def comparison_answer(question: str, first: TrendResult, second: TrendResult,
                      lines: list[str]) -> Answer:
    """The comparison's typed answer: its ``lines``, its receipt, and both topics' counted
    papers as its sources and citations (``comparison_sources``)."""
    sources, citations = comparison_sources(first, second)
    return Answer(question=question, answer="\n".join(lines), mode="extractive",
                  filters=first.filters, sources=sources, citations=citations,
                  receipt=comparison_receipt(first, second))
