"""The Lists tab: every paper that answers a list question, a page at a time (and as Markdown
and BibTeX to download), and a topic's papers counted per year as a chart beside a table;
plus the typed ``/list_papers`` and ``/topic_trends`` endpoints (MCP tools). Handlers are
plain methods, so tests call them without a server; the screening runs in Gradio's worker
threads, and a long list is sent a page at a time, so the page never waits on it."""

from __future__ import annotations

import math
import shutil
import threading
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gradio as gr

from assistant.errors import AssistantError, BadInputError, redact
from assistant.filters import as_text, explicit
from assistant.intent import read_intent
from assistant.list_lines import KEPT_UNREAD_MARK, TITLED_MARK
from assistant.pipeline import Assistant
from assistant.references import NEAREST_HEADING, nearest_lines
from assistant.settings import MAX_LIST_REREAD
from assistant.trend_replies import replies
from assistant.trends import TREND_HEAD, chart_figure, table_rows
from assistant.types import Answer
from assistant.ui.downloads import DownloadFolder, download_buttons, download_row
from assistant.ui.failures import answers_errors
from assistant.ui.paging import DEFAULT_LIMIT, Page, page_json, trend_page, wanted
from assistant.ui.render import inert

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PAGE = 25  # papers a page of a list shows
KEPT_LISTS = 100  # the latest lists whose download files are kept
Rows = list[list[str]]
EMPTY_COUNTS = {"headers": TREND_HEAD, "data": []}  # the trend table with no trend
HEADERS = ["#", "title", "year", "quoted sentence", "locator"]
COLUMN_WIDTHS = ["4%", "30%", "6%", "44%", "16%"]  # the sentence widest, "#" and year narrow


class ListsPage:
    """List every paper on a question, or count a topic's papers per year."""

    def __init__(self, app: Assistant) -> None:
        self.app = app
        self._folder = DownloadFolder("assistant-lists-")
        self._written: deque[Path] = deque()  # the latest lists' download folders
        self._lock = threading.Lock()

    # ------------------------------------------------------------ handlers

    def list_rows(self, question: str, years: str = "", venue: str = "",
                  reread: float | None = None) -> tuple[str, Rows, int, str, Any, Any]:
        """(the count line or a one-line error, every listed paper as a row, page 0, the
        first page's note, and the list's downloads: as Markdown, and its papers as
        BibTeX); ``reread`` is the "papers to read" box (empty: the setting)."""
        try:
            answer = self.app.list_answer(as_text(question), explicit(years, venue),
                                          budget(reread))
        except AssistantError as exc:
            return (f"**{inert(redact(str(exc)))}**", [], 0, "", *download_buttons())
        rows = rows_of(answer)
        first_line = answer.answer.splitlines()[0] if answer.answer else ""
        left_out = answer.receipt.unread_left_out if answer.receipt else 0
        return (inert(first_line) + read_more(left_out) + nearest_note(answer), rows, 0,
                page_note(0, len(rows)), *self.downloads(answer))

    def downloads(self, answer: Answer) -> tuple[Any, Any]:
        """The list's download buttons: the list as ``papers.md`` (its count, each paper's
        quoted sentence, the references) and its papers as ``references.bib``. Gradio reads
        the files as it sends the buttons, so those of the latest KEPT_LISTS lists stay."""
        markdown, bib = self._folder.write(answer, "papers")
        with self._lock:  # lists are made in Gradio's worker threads
            self._written.append(markdown.parent)
            old = [self._written.popleft() for _ in range(len(self._written) - KEPT_LISTS)]
        for folder in old:
            shutil.rmtree(folder, ignore_errors=True)
        return download_buttons(markdown, bib)

    @staticmethod
    def page(rows: Rows, page: int, step: int) -> tuple[Rows, int, str]:
        """The rows of the page ``step`` away from ``page`` (kept within the list)."""
        last = max(0, (len(rows) - 1) // PAGE)
        page = min(max(0, page + step), last)
        return rows[page * PAGE:(page + 1) * PAGE], page, page_note(page, len(rows))

    def trend_view(self, topic: str, years: str = "", venue: str = "",
                   reread: float | None = None) -> tuple[str, Figure | None, dict[str, Any]]:
        """(the summary line or a one-line error, the chart as a figure Gradio draws, no file
        written, the table as {headers, data})."""
        try:
            trend = self.app.trends(as_text(topic), explicit(years, venue), budget(reread))
        except AssistantError as exc:
            return f"**{inert(redact(str(exc)))}**", None, EMPTY_COUNTS
        chart = chart_figure(trend) if trend.total else None
        peaks = "".join(f" {line}" for line in replies(trend, read_intent(as_text(topic))))
        summary = inert(f"{trend.summary()}.{peaks}") + read_more(trend.unread_left_out, trend.budget)
        head, rows = table_rows(trend)
        return summary, chart, {"headers": head, "data": rows}

    @answers_errors("question")
    def list_papers(self, question: str, years: str = "", venue: str = "",
                    reread: int = 0, author: str = "", limit: int = DEFAULT_LIMIT,
                    offset: int = 0, abstracts: bool = False) -> dict[str, Any]:
        """List every indexed paper that answers a list question, not only the best five: a
        page of them at a time (limit, offset), the receipt counting them all.

        Args:
            question: what the papers should be about ("Which papers use capsule networks?").
            years: only papers of these years: "2019", "2019,2021", "2019-2021", "2019-" or "-2000" ("" any).
            venue: only papers of this venue or collection, e.g. "NeurIPS" ("" for any).
            reread: uncertain papers to read at most, 1-5000 (0: the server's setting, 30 unless set).
            author: only papers with this author, e.g. "Yoshua Bengio" or "Bengio" ("" any).
            limit: the papers to give, 1-500 (the receipt counts them all).
            offset: the first of them to give (0: the first; page.next_offset: the next page).
            abstracts: true: the citations carry their abstracts (text).

        Returns:
            the answer object of /ask, its sources and citations the page's papers, best first
            each citation its quoted sentence (its abstract only with abstracts)
            newest first for "recent papers on X"
            page {offset, limit, returned, total, next_offset, note} and notes
            receipt {matching, in_filter, read (screened), in_store, unconfirmed, ...}
            receipt.unread_left_out: the uncertain papers past the reading budget left out
            when none matches, the papers naming the topic unread as answering as sources
            (counted in receipt.unconfirmed, matching 0)
            when none names it, receipt.nearest: the nearest papers and why each does not answer
            for bad input, {question, error}
        """
        page, whole = Page.of(limit, offset), wanted("abstracts", abstracts)
        return page_json(self.app.list_answer(as_text(question), explicit(years, venue, author),
                                              budget(reread)), page, whole)

    @answers_errors("topic")
    def topic_trends(self, topic: str, years: str = "", venue: str = "",
                     reread: int = 0, author: str = "", limit: int = DEFAULT_LIMIT,
                     offset: int = 0) -> dict[str, Any]:
        """Count the indexed papers on a topic per year (and per venue when several).

        Args:
            topic: a research topic ("graph neural networks").
            years: only papers of these years: "2019", "2019,2021", "2019-2021", "2019-" or "-2000" ("" any).
            venue: only papers of this venue or collection, e.g. "NeurIPS" ("" for any).
            reread: uncertain papers to read at most, 1-5000 (0: the server's; a count reads 200 or more).
            author: only papers with this author, e.g. "Yoshua Bengio" or "Bengio" ("" any).
            limit: the counted papers' ids to give, 1-500 (the counts count them all).
            offset: the first of them to give (0: the first; page.next_offset: the next page).

        Returns:
            {topic, total, years (year: count), venues (venue: year: count), page, receipt}
            paper_ids and paper_ids_by_year: the page's counted papers
            papers: the page's counted papers as [{paper_id, title, year}], as paper_ids
            page {offset, limit, returned, total, next_offset, note}
            receipt {in_store, in_filter, read (screened), cited (counted), matching, ...}
            receipt.unread_left_out: the uncertain papers the reading budget left out
            receipt.left_out: the records not stored (no abstract, or another's)
            for bad input, {topic, error}
        """
        page = Page.of(limit, offset)
        shown = trend_page(self.app.trends(as_text(topic), explicit(years, venue, author),
                                           budget(reread)).public_json(), page)
        stored = self.app.index.papers()  # an agent reads titles, not ids (a run)
        shown["papers"] = [{"paper_id": pid, "title": stored[pid].title, "year": stored[pid].year}
                           for pid in shown["paper_ids"] if pid in stored]
        return shown

    # ------------------------------------------------------------ layout

    def build(self) -> None:
        """The tab's components and events (call inside ``gr.Blocks``)."""
        with gr.Tab("Lists & trends"):
            with gr.Row():
                query = gr.Textbox(placeholder="Which papers use capsule networks? · or a "
                                   "topic to count per year", show_label=False, scale=6,
                                   elem_id="list-query")
                years = gr.Textbox(placeholder="years, e.g. 2019-2021", show_label=False,
                                   scale=1, elem_id="list-years")
                venue = gr.Textbox(placeholder="venue", show_label=False, scale=1,
                                   elem_id="list-venue")
                # no minimum or maximum here: Gradio's range check is a toast that leaves
                # the last list shown under a new question; the list's own is one line
                reread = gr.Number(self.app.settings.retrieval.list_reread, precision=0,
                                   scale=1,
                                   label="papers to read", elem_id="list-reread",
                                   info=f"uncertain papers read at most (1–{MAX_LIST_REREAD:,})")
            with gr.Row():
                list_btn = gr.Button("List every paper", variant="primary", elem_id="list-go")
                trend_btn = gr.Button("Count per year", elem_id="trend-go")
            summary = gr.Markdown(elem_id="list-summary")
            downloads = list(download_row("list", "List"))
            rows = gr.State([])
            page = gr.State(0)
            table = gr.Dataframe(value=[], headers=HEADERS, interactive=False, wrap=True,
                                 column_widths=COLUMN_WIDTHS, elem_id="list-table")
            with gr.Row():
                prev_btn = gr.Button("◀ Previous", size="sm", elem_id="list-prev")
                note = gr.Markdown(elem_id="list-page")
                next_btn = gr.Button("Next ▶", size="sm", elem_id="list-next")
            chart = gr.Plot(format="png", label="papers per year", elem_id="trend-chart")
            counts = gr.Dataframe(value=[], headers=TREND_HEAD, interactive=False,
                                  elem_id="trend-table")
        listed = list_btn.click(self.list_rows, inputs=[query, years, venue, reread],
                                outputs=[summary, rows, page, note, *downloads],
                                api_visibility="private")
        listed.success(lambda r, p: (*self.page(r, p, 0), None, EMPTY_COUNTS),
                       inputs=[rows, page], outputs=[table, page, note, chart, counts],
                       api_visibility="private", queue=False)  # the last trend's go
        prev_btn.click(lambda r, p: self.page(r, p, -1), inputs=[rows, page],
                       outputs=[table, page, note], api_visibility="private", queue=False)
        next_btn.click(lambda r, p: self.page(r, p, 1), inputs=[rows, page],
                       outputs=[table, page, note], api_visibility="private", queue=False)
        counted = trend_btn.click(self.trend_view, inputs=[query, years, venue, reread],
                                  outputs=[summary, chart, counts], api_visibility="private")
        counted.success(lambda: ([], 0, [], "", *download_buttons()),  # the last list's
                        outputs=[rows, page, table, note, *downloads],  # go, under a new one
                        api_visibility="private", queue=False)

    def endpoints(self) -> None:
        """The typed list and trend endpoints (MCP tools); outside ``gr.Tabs``, as
        AskPage's."""
        gr.api(self.list_papers, api_name="list_papers")
        gr.api(self.topic_trends, api_name="topic_trends")


def budget(reread: object) -> int | None:
    """A reading budget as typed ("papers to read", the tools' ``reread``), rounded: None
    (the setting) when empty or 0; a number out of range is refused by the list itself,
    and one that is no number (NaN, infinity, an API caller's "abc") here, as bad input
    (a JSON "100" is 100, as ``top_k`` takes "5")."""
    if reread is None:
        return None
    try:
        number = float(reread)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise BadInputError(f"the reading budget {str(reread)[:40]} is no number of papers; "
                            "give one, e.g. 100")
    return round(number) or None


def nearest_note(answer: Answer) -> str:
    """Under a list of none, its nearest papers and why none answers, as an answer's
    refusal shows them (titles and locators are untrusted: inert); "" otherwise."""
    if answer.receipt is None or not answer.receipt.nearest:
        return ""
    return f"\n\n{NEAREST_HEADING}\n" + "".join(f"\n- {inert(line)}"
                                               for line in nearest_lines(answer.receipt))


def read_more(left_out: int, budget: int = 0) -> str:
    """The hint after a summary whose reading budget left uncertain papers out unread: for a
    count, above the ``budget`` it read with, which a smaller box does not lower (a run's:
    "raise papers to read" under a count that reads 200 with the box at 30)."""
    above = f" above {budget:,}" if budget else ""
    return f" — raise *papers to read*{above} to read them" if left_out else ""


def rows_of(answer: Answer) -> Rows:
    """A list answer's papers as table rows: number, title, year, quoted sentence (marked
    when the paper was kept unread, as its line in the answer is), locator."""
    quotes = {c.n: (c.highlights[0] if c.highlights else "") for c in answer.citations}
    return [[str(s.n), s.title, str(s.year or ""),
             quotes.get(s.n, "") + (f" {KEPT_UNREAD_MARK}" if s.kept_unread
                                    else f" {TITLED_MARK}" if s.titled else ""), s.source]
            for s in answer.sources]


def page_note(page: int, total: int) -> str:
    if not total:
        return ""
    last = (total - 1) // PAGE
    shown = f"papers {page * PAGE + 1}–{min(total, (page + 1) * PAGE)} of {total}"
    return f"{shown} · page {page + 1} of {last + 1}"
