"""Counts and trends: how many stored papers answer a topic, per year (and per venue).

Why: "How has interest in graph neural networks grown?" is a count over the whole store, not
an answer from its best five papers. The papers are chosen by the list screen
(``listing.ListScreen``, the same as ``ask --all``), then counted by year and, when the matching
papers come from several venues, by venue too; ``draw_chart`` writes the counts as a PNG bar
chart (matplotlib, headless) beside the table ``table_lines`` prints.
"""

from __future__ import annotations

import math
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby, zip_longest
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.corpus import Paper
from assistant.count_lines import count_line, in_a_row
from assistant.list_lines import cited
from assistant.list_records import MODEL, ListedPaper, ListResult
from assistant.listing import ScreenSettings
from assistant.readings import relation_verb
from assistant.topics import OR_RE
from assistant.types import Answer, Citation, Filters, Receipt, SourceRef, consecutive_runs
from assistant.word_runs import (
    sequence_terms,
    term_sequence,
    text_pairs,
    text_sequences,
    writes_phrase,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NO_YEAR = "year unknown"
NO_PAPERS = "no papers stored"
# Papers a year must count for its share to be named the largest: the 38 seeds of 2025 gave
# 2 papers the largest share of a topic whose peak was 26 papers of 2021. By hand.
SHARE_PAPERS = 5
# The cosine with the topic's sense (``Candidate.sense``) that a paper holding the words of
# the topic's phrase apart must reach to count: the list's own cut for a paper close to the
# topic whatever its words (``ScreenSettings.sense_keeps``), not a new one.
TREND_SENSE = ScreenSettings().sense_keeps
# Uncertain papers a trend's screen rereads at most, or the list's budget when that is larger
# (retrieval.list_reread):
# a count must read the papers of a broad topic that write it in other words ("networks of
# spiking neurons"). Source: by hand, bench/trends.py (a title and one sentence a paper).
TREND_MAX_REREAD = 200
TREND_HEAD = ["year", "papers", "of stored", "share"]  # a trend table's columns, venues after


@dataclass
class TrendResult:
    """A topic's matching papers counted per year (every year the store holds papers of
    within the filter, zeros included; a year it holds none of is a gap, not a zero), each
    beside the papers stored that year, and per venue within each year when several."""

    topic: str
    years: dict[int, int]
    venues: dict[str, dict[int, int]]  # venue → year → count; empty with a single venue
    paper_ids: list[str]
    papers_in_store: int
    papers_in_filter: int
    screened: int
    unread_left_out: int = 0  # uncertain papers the reading budget left out (ListResult's)
    reread: int = 0  # papers the cross-encoder (or the model) read (ListResult's)
    kept_unread: int = 0  # counted papers kept on their cheap score past the reading budget
    budget: int = 0  # the reading budget the count was screened with (max_reread)
    store_read: int = 0  # a range's count: the papers the store's screen read (windowed.py)
    unknown_year: int = 0  # matching papers without a year (not in ``years``)
    left_out: int = 0  # records of the store's files within the filter not stored (left_out.py)
    left_out_repeats: int = 0  # of those, the records giving another record's abstract
    left_out_unread: int = 0  # and those their file's reader could not read
    filters: str | None = None
    chart: str | None = None  # where the PNG was written
    seconds: float = 0.0
    by_year: dict[int, list[str]] = field(default_factory=dict, repr=False)
    # papers stored per year within the filter: a year's count is a share of these (a
    # conference that grew tenfold would show any topic "growing")
    stored: dict[int, int] = field(default_factory=dict)
    # the filter ``stored`` counts within (None: the whole store); an author's count of no
    # topic leaves the author out of it, so that a share is of all the year's papers
    stored_within: str | None = None
    # how the table and the chart name a run of years with no paper stored within it
    # (``gap_label_of``)
    gap_label: str = NO_PAPERS
    # the years asked one by one ("in 2018 or 2021"): the years between them are not asked,
    # which the table says, not "no papers stored"
    named_years: frozenset[int] | None = None
    # the first year the filter asks for (None: open): years before the first stored are a gap
    asked_from: int | None = None
    # the counted papers as the list kept them (score, quoted sentence): the answer's sources
    counted: list[ListedPaper] = field(default_factory=list, repr=False)
    # listed papers not counted: the topic's words apart (``counts_for``)
    set_apart: list[Paper] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        return len(self.paper_ids)

    @property
    def apart(self) -> int:
        """How many listed papers the count set apart (``set_apart``)."""
        return len(self.set_apart)

    def share(self, year: int) -> float | None:
        """The year's count over the papers stored that year (None: none stored)."""
        return self.years.get(year, 0) / self.stored[year] if self.stored.get(year) else None

    def runs(self) -> list[list[int]]:
        """The counted years in runs of consecutive years: a break between two runs is a
        gap, years the store holds no paper of."""
        return consecutive_runs(self.years)

    def leading_gap(self) -> tuple[int, int] | None:
        """The years asked for before the first counted ("in the last 3 years" of a store
        whose newest papers are of 2025 alone: 2023–2024), or None."""
        if self.years and self.asked_from is not None and self.asked_from < min(self.years):
            return self.asked_from, min(self.years) - 1
        return None

    def gaps(self) -> list[tuple[int, int]]:
        """The runs of years inside the span that the store holds no paper of (first,
        last): shown as such, not as years of no interest."""
        runs = self.runs()
        return [(a[-1] + 1, b[0] - 1) for a, b in zip(runs, runs[1:], strict=False)]

    def peaks(self) -> str:
        """When the topic was first counted and when most (in papers, and in share of the
        year's papers when that peaks elsewhere): "First counted in 2016; most in 2021: 46
        papers (2.0% of 2,333)." — what "Which year had the most…?" asks. "" when none."""
        counted = [y for y, n in self.years.items() if n]
        if not counted:
            return ""
        top = max(self.years[y] for y in counted)
        tied = [y for y in counted if self.years[y] == top]  # "most in 2019, 2020 and 2021" when tied
        line = f"First counted in {counted[0]}; most in {in_a_row(tied)}: " \
               f"{top:,} {'paper' if top == 1 else 'papers'}{' each' if len(tied) > 1 else ''}"
        if len(tied) == 1 and (share := self.share(tied[0])) is not None:
            line += f" ({share_text(share)} of {self.stored[tied[0]]:,})"
        # a share of a paper or two says little: only years of SHARE_PAPERS or more compete
        shared = [y for y in counted if self.years[y] >= SHARE_PAPERS] or [tied[-1]]
        by_share = max(shared, key=lambda y: (self.share(y) or 0.0, y))
        if by_share != tied[-1] and (largest := self.share(by_share)) is not None:
            # with its count: a year of few stored papers has a large share of a paper or two
            line += (f"; the largest share in {by_share}: {share_text(largest)} "
                     f"({self.years[by_share]:,} of {self.stored[by_share]:,})")
        return line + "."

    def public_json(self) -> dict[str, object]:
        """The numbers and the matching papers' ids (``assistant trends --json``, the API's and
        MCP tool's ``topic_trends``), with ``receipt``, the one a trend answered through `ask
        --json` has (``in_store``, ``in_filter``, ``read``, ``cited``, ``left_out``…).
        ``papers_in_filter``, ``screened`` and ``unread_left_out`` stay beside it: the MCP
        tool's description and docs/lists.md name them, and a client may read them."""
        return {"topic": self.topic, "filters": self.filters, "total": self.total,
                "years": {str(y): n for y, n in self.years.items()},
                "stored": {str(y): n for y, n in self.stored.items()},
                "stored_within": self.stored_within,
                "shares": {str(y): round(s, 5) for y in self.years
                           if (s := self.share(y)) is not None},
                "venues": {v: {str(y): n for y, n in c.items()} for v, c in self.venues.items()},
                "unknown_year": self.unknown_year, "receipt": self.receipt().model_dump(),
                "papers_in_filter": self.papers_in_filter, "screened": self.screened,
                "unread_left_out": self.unread_left_out, "kept_unread": self.kept_unread,
                "reread": self.reread, "listed_apart": self.apart,
                "listed_apart_ids": [p.paper_id for p in self.set_apart],
                "paper_ids": self.paper_ids,
                "paper_ids_by_year": {str(y): ids for y, ids in self.by_year.items()},
                "chart": self.chart}

    def receipt(self) -> Receipt:
        """How much the trend looked at, as an answer's receipt: the papers counted are its
        ``matching`` and their ids its ``counted`` (each one cited, ``sources``), with those
        the reading budget left out unread."""
        return Receipt(in_store=self.papers_in_store, in_filter=self.papers_in_filter,
                       read=self.screened, cited=len(self.counted), matching=self.total,
                       unread_left_out=self.unread_left_out, kept_unread=self.kept_unread,
                       counted=self.paper_ids, left_out=self.left_out,
                       left_out_repeats=self.left_out_repeats,
                       left_out_unread=self.left_out_unread)

    def as_answer(self, question: str, text: str) -> Answer:
        """The trend's typed answer: ``text`` (its count line and table), its receipt, and the
        counted papers as its sources and citations (``sources``)."""
        sources, citations = self.sources()
        return Answer(question=question, answer=text, mode="extractive", filters=self.filters,
                      receipt=self.receipt(), sources=sources, citations=citations)

    def sources(self) -> tuple[list[SourceRef], list[Citation]]:
        """The counted papers as an answer's sources and citations (each its quoted sentence
        highlighted), newest year first and by the list's score within a year, those without
        a year last: a count a reader or a script can check paper by paper, as a list's."""
        return cited(sorted(self.counted, key=lambda p: (-(p.paper.year or 0), -p.score)))

    def summary(self) -> str:
        """One line: "42 papers of the 13,847 match “graph neural networks”; 360 screened"
        (and ", 8 uncertain left out unread, 5 kept unread" when the reading budget left
        some unread, and "; 3 more listed, not counted: the topic's words apart" when a list
        on the topic keeps papers the count does not, ``counts_for``)."""
        line = count_line(self.total, self.papers_in_filter, self.screened,
                          self.filters or "", self.topic, left_out=self.unread_left_out,
                          kept=self.kept_unread)
        if self.apart:
            line += f"; {self.apart:,} more listed, not counted: the topic's words apart"
        return line

    def shares_within(self) -> str:
        """" within the filter (author X)" when the year's stored papers a share is of are a
        filter's, not the store's (C60: "40.0% of 5" of Bengio's had read as all of 2018's);
        "" else."""
        return f" within the filter ({self.stored_within})" if self.gap_label != NO_PAPERS else ""

    def overall_share(self) -> str:
        """The count's share of the papers it was counted among: "In all, 7.2% of the 13,872
        papers." ("What fraction of papers use RL?" asks it; "" when none is in the filter)."""
        if not self.papers_in_filter:
            return ""
        share = share_text(self.total / self.papers_in_filter)
        return f"In all, {share} of the {self.papers_in_filter:,} papers."

    def how_counted(self) -> str:
        """How the count was made, for a question asking how many papers answer a topic
        (answered by its trend, as `trends` counts it, not by a list's shorter reading):
        "Counted as a trend is counted: every pooled paper screened, 200 of the uncertain ones
        read (a budget of 200), 156 kept unread past it on their words alone." """
        unread = (f", {self.kept_unread:,} kept unread past it on their words alone (marked"
                  " in the sources)" if self.kept_unread else ", none kept unread past it")
        if self.store_read:  # within a range: the store's screen, restricted (windowed.py)
            return (f"Counted as the store's count is, restricted to the range: every pooled paper "
                    f"screened, {self.reread:,} of the range's uncertain ones read, of the "
                    f"{self.store_read:,} the store's screen read (a budget of {self.budget:,}){unread}.")
        return (f"Counted as a trend is counted: every pooled paper screened, {self.reread:,} of "
                f"the uncertain ones read (a budget of {self.budget:,}){unread}.")


def gap_label_of(within: Filters | None) -> str:
    """How a trend counted ``within`` a filter names a run of years with no paper stored in
    it: "no papers stored", or, under an author, a venue or an exclusion, "none stored
    within the filter" (a run's: 2012 read "no papers stored" under Levine's filter, where
    the store holds 367 papers of 2012)."""
    narrowed = within is not None and bool(within.venue or within.author or within.excluded
                                           or within.excluded_author)
    return "none stored within the filter" if narrowed else NO_PAPERS


def topic_phrases(topic: str, verb: str | None = None) -> list[tuple[str, ...]]:
    """The topic's phrases as stemmed terms, stopwords out: the topic and, when it joins
    alternatives with "or", each of them ("graph neural networks" → (graph, neural,
    network)); each as written and with its hyphenated words joined ("multi-task
    learning": (multi, task, learn) and (multitask, learn), ``text_sequences``); without
    ``verb``, a list question's verb (``readings.relation_verb``), where one leads: the
    papers' relation to the phrase, not a word of it ("use reinforcement learning" →
    (reinforc, learn); no paper writes "use reinforcement learning" as one)."""
    parts = [p for p in OR_RE.split(topic) if term_sequence(p)]
    texts = [topic, *parts] if len(parts) > 1 else [topic]
    phrases = (seq for text in texts for seq in text_sequences(text))
    return list(dict.fromkeys(seq[1:] if len(seq) > 1 and seq[0] == verb else seq
                              for seq in phrases))


def holds_apart(phrase: tuple[str, ...], paper: Paper) -> bool:
    """Whether the paper's title or abstract holds every term of ``phrase`` (stemmed) but
    never its first, the word that makes the phrase specific, beside another of them
    (stopwords aside, either order): "inexact graph matching … analog neural networks"
    holds (graph, neural, network) apart; "networks of spiking neurons" and "convolutional
    networks on graphs" write part of theirs together."""
    text = f"{paper.title}. {paper.text}"
    first, rest = phrase[0], set(phrase[1:]) - {phrase[0]}
    if not rest or not set(phrase) <= sequence_terms(text):  # "learning to learn": no apart
        return False
    return not any((first, term) in text_pairs(text) for term in rest)


def counts_for(topic: str, listed: ListedPaper, sense: float = 0.0,
               verb: str | None = None) -> bool:
    """Whether a paper the list screen kept counts for the topic's trend (``sense``: its
    cosine with the topic's sense, ``Candidate.sense``): the list's own keep rule, so that
    a trend counts what a list on the topic lists, but for one case. A paper holding the
    words of the topic's phrase apart (``holds_apart``), which writes no phrase of the
    topic (``writes_phrase``), whose title does not name it (``ListedPaper.titled``) and
    which the model did not read, counts only when it stands close to the topic's sense
    (TREND_SENSE): the cross-encoder reads words, and a sentence holding "graph" and
    "neural networks" reads to it as "graph neural networks" wherever they stand (a paper
    on graph matching with analog neural networks had been the topic's first), and a
    paper kept unread past the budget was kept on the words alone. A count of papers on
    "graph neural networks" must not count every paper with a graph and a neural network;
    the trend's summary says how many listed papers it left out so (``TrendResult.apart``).
    A paper the list kept for its sense alone (read as not answering, "Canonical
    Capsules" for "capsule networks") counts: it had been listed and not counted. ``verb``:
    the list question's, no word of its phrase (``topic_phrases``)."""
    if listed.reader == MODEL or listed.titled or sense >= TREND_SENSE:
        return True  # the model read it and kept it; its title names the topic; its sense
    # apart only when every phrase it holds the words of is held apart: a paper on one "or"
    # alternative is not apart for writing the whole topic's words scattered; a phrase it
    # does not hold the words of it does not write, and one of a term it holds it writes
    terms = sequence_terms(f"{listed.paper.title}. {listed.paper.text}")
    held = [p for p in topic_phrases(topic, verb) if set(p) <= terms]
    apart = [p for p in held if len(p) > 1]
    if not apart or len(apart) < len(held):
        return True
    return (not all(holds_apart(p, listed.paper) for p in apart)
            or any(writes_phrase(p, listed.paper) for p in apart))


def count(result: ListResult, stored: Mapping[int, int]) -> TrendResult:
    """The screen's matching papers that count for the topic (``counts_for``) counted per
    year, over every year of ``stored`` (the papers the store holds per year within the
    filter): a year with papers and no match is a zero, one without papers a gap."""
    senses = {c.paper.paper_id: c.sense for c in result.candidates}
    topic = result.written or result.topic  # "pre training" counted as "pre-training"
    verb = relation_verb(result.question)
    counted: list[ListedPaper] = []
    set_apart: list[Paper] = []  # one pass: testing each against ``counted`` had cost 0.3 s at 1,000
    for listed in result.papers:
        if counts_for(topic, listed, senses.get(listed.paper.paper_id, 0.0), verb):
            counted.append(listed)
        else:
            set_apart.append(listed.paper)
    papers = [p.paper for p in counted]
    years, by_year, venues = tallied(papers, [y for y, n in stored.items() if n])
    return TrendResult(
        topic=result.topic.strip().rstrip("?!. ") or result.topic,  # as shown: no "?"
        years=years, venues=venues,
        paper_ids=[p.paper_id for p in papers], papers_in_store=result.papers_in_store,
        papers_in_filter=result.papers_in_filter, screened=result.screened,
        unread_left_out=result.unread_left_out,
        unknown_year=sum(p.year is None for p in papers),
        reread=result.reread, kept_unread=sum(p.kept_unread for p in counted),
        store_read=result.store_read,
        seconds=result.seconds, by_year=by_year,
        stored={y: stored.get(y, 0) for y in years}, counted=counted, set_apart=set_apart)


def tallied(papers: Sequence[Paper], years: Iterable[int]
            ) -> tuple[dict[int, int], dict[int, list[str]], dict[str, dict[int, int]]]:
    """``papers`` counted per year over ``years`` (each a zero first; a paper's own year
    added), their ids per year, and per venue within each year when several (else none)."""
    counts = dict.fromkeys(years, 0)
    by_year: dict[int, list[str]] = {}
    per_venue: dict[str, Counter[int]] = {}
    for paper in papers:
        if paper.year is not None:
            counts[paper.year] = counts.get(paper.year, 0) + 1
            by_year.setdefault(paper.year, []).append(paper.paper_id)
            per_venue.setdefault(paper.venue or "no venue", Counter())[paper.year] += 1
    venues = ({v: {y: c.get(y, 0) for y in counts} for v, c in sorted(per_venue.items())}
              if len(per_venue) > 1 else {})
    return dict(sorted(counts.items())), dict(sorted(by_year.items())), venues


def table_lines(trend: TrendResult) -> list[str]:
    """The counts as a plain table (``table_rows``), its columns aligned."""
    head, rows = table_rows(trend)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
            for row in [head, *rows]]


def _gap_rows(trend: TrendResult, gap: tuple[int, int], venues: int) -> list[list[str]]:
    """The rows of a run of years the store holds no paper of: its years not asked ("not
    counting 2021") apart from those asked and not stored."""
    rows = []
    for asked, years in groupby(range(gap[0], gap[1] + 1), key=lambda y: (
            trend.named_years is None or y in trend.named_years)):
        first, last = (run := list(years))[0], run[-1]
        rows.append([f"{first}" if first == last else f"{first}–{last}", "",
                     trend.gap_label if asked else "not asked", "", *("" for _ in range(venues))])
    return rows


def table_rows(trend: TrendResult) -> tuple[list[str], list[list[str]]]:
    """The counts as a table's head and rows: a row per year with the papers stored that
    year and the share that matches, a column per venue when several, and a row for each
    run of years the store holds no paper of (the CLI's table, the Lists tab's)."""
    venues = list(trend.venues)
    head = [*TREND_HEAD, *venues]
    rows: list[list[str]] = []
    if leading := trend.leading_gap():
        rows += _gap_rows(trend, leading, len(venues))
    for run, gap in zip_longest(trend.runs(), trend.gaps()):
        rows += [[str(y), str(trend.years[y]), f"{trend.stored.get(y, 0):,}",
                  share_text(trend.share(y)), *(str(trend.venues[v][y]) for v in venues)]
                 for y in run]
        if gap:  # a run of years the store holds no paper of, after the run before it
            rows += _gap_rows(trend, gap, len(venues))
    if trend.unknown_year:
        rows.append([NO_YEAR, str(trend.unknown_year), "", "", *("" for _ in venues)])
    return head, rows


def share_text(share: float | None) -> str:
    """A share of a year's papers as a percentage: "3.8%" ("" for none stored). A share
    under 0.1% keeps two significant digits, and one that one decimal would round to all
    says it is short of all: 3 papers of 13,872 are "0.022%", not "0.0%", which reads as none
    (a count of epilepsy papers had said "In all, 0.0% of the 13,872 papers")."""
    if share is None:
        return ""
    percent = 100 * share
    if 0 < percent < 0.095:  # two significant digits, never in exponent form ("5e-05%")
        return f"{percent:.{1 - math.floor(math.log10(percent))}f}%"
    if 99.95 <= percent < 100:
        return ">99.9%"
    return f"{percent:.1f}%"


def chart_name(topic: str) -> str:
    """A file name for a topic's chart: "trends-graph-neural-networks.png"."""
    slug = re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-")[:60] or "topic"
    return f"trends-{slug}.png"


def chart_figure(trend: TrendResult) -> Figure:
    """The counts as a bar chart (stacked by venue when there are several): a matplotlib
    Figure, not registered with pyplot, so any thread may draw one and nothing is left open;
    the UI hands it to Gradio as it is, with no file written."""
    import matplotlib

    matplotlib.use("Agg")  # no display: Gradio's encoding imports pyplot, from any thread
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 4), dpi=100)
    axes = figure.subplots()
    years = list(trend.years)
    if trend.venues:
        bottom = [0] * len(years)
        for venue, counts in trend.venues.items():
            heights = [counts.get(y, 0) for y in years]
            axes.bar(years, heights, bottom=bottom, label=venue)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    else:
        axes.bar(years, [trend.years[y] for y in years], color="#4c72b0")
    for n, (first, last) in enumerate([*filter(None, [trend.leading_gap()]), *trend.gaps()]):
        axes.axvspan(first - 0.5, last + 0.5, color="#dddddd", zorder=0,
                     label="_nolegend_" if n else trend.gap_label)
    shares = axes.twinx()  # the share of each year's papers: a growing store grows counts
    for n, run in enumerate(trend.runs()):  # the line breaks where the store holds no paper
        shares.plot(run, [100 * (trend.share(y) or 0.0) for y in run], color="#dd8452",
                    marker=".", label="_nolegend_" if n else "share of the year's papers")
    shares.set_ylabel("% of the year's papers")
    shares.set_ylim(bottom=0)
    about = f"on “{trend.topic}”" if trend.topic else f"of {trend.filters or 'the store'}"
    axes.set_title(f"Papers {about} per year ({trend.total} in all)"[:100])
    axes.set_xlabel("year")
    axes.set_ylabel("papers")
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.xaxis.get_major_locator().set_params(integer=True)  # no year 2024.6
    if len(years) == 1:  # one bar, not the chart's whole width, and no years around it
        first = (trend.leading_gap() or years)[0]
        axes.set_xlim(min(years[0] - 3, first - 1), years[0] + 3)
        axes.set_xticks(range(first, years[0] + 1))
    handles = [h for ax in (axes, shares) for h in ax.get_legend_handles_labels()[0]]
    axes.legend(handles=handles, fontsize="small", loc="upper left")
    figure.tight_layout()
    return figure


def draw_chart(trend: TrendResult, path: Path) -> Path:
    """The counts as a PNG bar chart at ``path`` (``chart_figure``), in a folder that exists
    (``unwritable`` says why not, before the count)."""
    figure = chart_figure(trend)
    figure.savefig(path, format="png")
    trend.chart = str(path)
    return path


def unwritable(path: Path) -> str | None:
    """Why the PNG chart cannot be written at ``path``, or None, checked (with a scratch
    file written and removed there) before a trend's screening rather than after it. A
    missing folder is named, not made: a mistyped path had made /nonexistent/dir at the
    filesystem's root. A suffix other than .png is refused: the chart is a PNG, and
    ``x.txt`` had held one under that name."""
    if path.is_dir():
        return "it is a folder"
    if path.suffix.lower() != ".png":
        return f"the chart is a PNG, not {path.suffix}" if path.suffix else "it has no .png suffix"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if folder != path.parent:
        return f"the folder {path.parent} does not exist"
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
