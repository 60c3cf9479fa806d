"""The Corpus tab: search and browse the abstracts, open one, upload files; plus the typed
``/search_abstracts`` endpoint. Handlers are plain methods, so tests call them directly."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.answering import check_question
from assistant.corpus import Paper
from assistant.errors import AssistantError, redact
from assistant.filters import as_text, explicit, top_k_of
from assistant.pipeline import Assistant
from assistant.references import noted_title
from assistant.types import SourceRef
from assistant.ui.failures import answers_errors
from assistant.ui.render import inert, own_links, render_paper, upload_summary

Rows = list[list[str]]


class CorpusPage:
    """What is indexed, and a way to add to it."""

    def __init__(self, app: Assistant) -> None:
        self.app = app

    # ------------------------------------------------------------ handlers

    def facts(self) -> str:
        """One Markdown line: papers, chunks, embedding, data directory, answer mode."""
        settings = self.app.settings
        return (f"**{len(self.app.index.papers())}** papers · **{self.app.index.chunk_count()}** "
                f"chunks · embedding {inert(settings.index.embed_model)} · data "
                f"{inert(self.app.index.where)} · answers by "
                f"**{html.escape(self.app.mode_label)}**")

    def search_table(self, query: str) -> tuple[Rows, list[str]]:
        """Rows (title, locator, links) for a query, best first; every paper when empty."""
        if query and query.strip():
            papers = [r.paper for r in self.app.retrieve(query.strip(), top_k=50)]
        else:
            papers = sorted(self.app.index.papers().values(), key=locator_key)
        rows = [[noted_title(SourceRef.of(0, p, 0.0), derived=False), p.source,
                 " ".join(own_links(p))] for p in papers]
        return rows, [p.paper_id for p in papers]

    def open_row(self, ids: list[str], row: int | None) -> str:
        """The paper shown in table row ``row`` (ids are the table's paper ids, in order)."""
        if not ids or row is None or not 0 <= row < len(ids):
            return ""
        paper = self.app.index.papers().get(ids[row])
        return render_paper(paper) if paper else ""

    def open_paper(self, ids: list[str], evt: gr.SelectData) -> str:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        return self.open_row(ids, row)

    def upload(self, files: list[str] | None, progress: gr.Progress = gr.Progress()  # noqa: B008
               ) -> tuple[str, Rows, list[str], str]:
        """Ingest uploaded files as uploads (they can only ever replace papers they added
        themselves) and report what happened."""
        if not files:
            rows, ids = self.search_table("")
            return "Choose one or more .txt, .csv or .jsonl files first.", rows, ids, self.facts()
        progress(0, desc="reading files")
        try:
            report = self.app.ingest(
                [Path(f) for f in files], upload=True,
                progress=lambda done, total, what: progress(done / max(total, 1), desc=what))
        except AssistantError as exc:
            summary = f"Nothing was added: {inert(redact(str(exc)))}"
        else:
            summary = upload_summary(report)
        rows, ids = self.search_table("")
        return summary, rows, ids, self.facts()

    def on_load(self) -> tuple[str, Rows, list[str]]:
        """A page as it opens: the corpus line and table as the store is now (uploads and other
        processes' ingests since the server started included, not as it was built)."""
        rows, ids = self.search_table("")
        return self.facts(), rows, ids

    @answers_errors("query")
    def search_abstracts(self, query: str, top_k: int = 5, years: str = "", venue: str = ""
                         ) -> list[dict[str, Any]] | dict[str, Any]:
        """Search the indexed research-paper abstracts (hybrid BM25 + dense retrieval).

        Args:
            query: keywords, a method name, or a question.
            top_k: how many papers to return (1-50).
            years: only papers of these years: "2019", "2019,2021", "2019-2021", "2019-" or "-2000" ("" any).
            venue: only papers of this venue or collection, e.g. "NeurIPS" ("" for any).

        Returns:
            papers best first, each with title, locator ("file#n"), score, abstract, year, venue
            for bad input (an empty or over-long query, a bad top_k), {query, error}
            and so for a filter that is malformed or leaves no stored paper, as /ask says
        """
        filters, count = explicit(years, venue), top_k_of(top_k)
        check_question(as_text(query))  # empty or over-long: refused as `assistant ask` is
        if filters and not self.app.retriever.allowed(filters):
            raise self.app.no_paper_error(filters)
        found = self.app.retrieve(as_text(query), top_k=count, filters=filters)
        return [{"title": r.paper.title, "source": r.paper.source, "paper_id": r.paper.paper_id,
                 "score": r.score, "abstract": r.paper.text, "links": list(r.paper.links),
                 "year": r.paper.year, "venue": r.paper.venue,
                 "title_model": r.paper.title_model}
                for r in found]

    # ------------------------------------------------------------ layout

    def build(self, facts: gr.Markdown) -> None:
        """The tab's components and events (call inside ``gr.Blocks``); ``facts`` is the
        corpus line an upload refreshes."""
        with gr.Tab("Corpus"):
            with gr.Row():
                search = gr.Textbox(placeholder="Search titles and abstracts", show_label=False,
                                    scale=6, elem_id="search")
                search_btn = gr.Button("Search", scale=1)
            # filled as each page opens (``on_load``), not baked into the page's config too:
            # at 13.9k papers that sent the whole table twice
            row_ids = gr.State([])
            self.row_ids = row_ids
            table = gr.Dataframe(value=[], headers=["title", "locator", "links"],
                                 datatype=["str", "str", "str"], interactive=False, wrap=True,
                                 elem_id="papers", max_height=420)
            self.table = table
            paper_view = gr.HTML(elem_id="paper")
            with gr.Accordion("Add abstracts", open=False):
                files = gr.File(file_count="multiple", file_types=[".txt", ".csv", ".jsonl"],
                                label="Seed-format .txt, or CSV/JSONL with title, authors, "
                                      "link, abstract")
                add = gr.Button("Add to corpus", variant="primary", elem_id="add")
                added = gr.Markdown(elem_id="added")
        search_btn.click(self.search_table, inputs=search, outputs=[table, row_ids],
                         api_name="browse", api_visibility="undocumented")
        search.submit(self.search_table, inputs=search, outputs=[table, row_ids],
                      api_visibility="private")
        table.select(self.open_paper, inputs=row_ids, outputs=paper_view,
                     api_visibility="private")
        add.click(self.upload, inputs=files, outputs=[added, table, row_ids, facts],
                  api_name="upload", api_visibility="undocumented")

    def endpoints(self) -> None:
        """The typed search endpoint (an MCP tool); outside ``gr.Tabs``, as AskPage's."""
        gr.api(self.search_abstracts, api_name="search_abstracts")


def locator_key(paper: Paper) -> tuple[str, int]:
    """Sort key: file, then the abstract's number within it."""
    file, _, n = paper.source.rpartition("#")
    return file, int(n) if n.isdigit() else 0
