"""The Gradio app behind `assistant serve`: chat with cited answers, browse and add abstracts.

Everything from an abstract or a model is HTML-escaped before it is shown, so markup in an
abstract or an answer appears as text. Each answer carries its own sources (title, locator,
score, the abstract with the quoted sentences highlighted); its [n] markers open them.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import gradio as gr  # importing assistant.ui ran assistant/__init__ (offline env) first

from assistant.answering import Answer
from assistant.corpus import Paper
from assistant.generation import GenerationError
from assistant.pipeline import Assistant
from assistant.retrieval import names_in
from assistant.settings import Settings

CSS = """
.cite { font-weight: 600; text-decoration: none; cursor: pointer; }
.sources { margin-top: .6em; border-top: 1px solid var(--border-color-primary); padding-top: .4em; }
.sources summary { cursor: pointer; }
.source { margin: .3em 0 .3em .6em; }
.source.flash { outline: 2px solid var(--color-accent); border-radius: 4px; }
.source mark { background: #fde68a; color: inherit; }
.mode { opacity: .7; font-size: .85em; }
"""
# A click on a citation marker opens its source below the same answer and scrolls to it.
# (The chat's HTML sanitizer keeps classes and text but not data attributes, so the marker
# finds its source by the "[n]" its summary starts with.)
OPEN_CITATIONS_JS = """
() => {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.cite");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    let scope = link.parentElement;
    while (scope && !scope.querySelector("details.sources")) scope = scope.parentElement;
    if (!scope) return;
    const target = [...scope.querySelectorAll("details.source")].find(
      (d) => d.querySelector("summary").textContent.startsWith(link.textContent));
    if (!target) return;
    target.closest("details.sources").open = true;
    target.open = true;
    target.classList.add("flash");
    setTimeout(() => target.classList.remove("flash"), 1500);
    target.scrollIntoView({block: "nearest"});
  }, true);
}
"""
MARKER_RE = re.compile(r"\[(\d+)\]")


# ---------------------------------------------------------------- rendering (pure)


def _highlight(text: str, sentences: list[str]) -> str:
    escaped = html.escape(text)
    for sentence in sentences:
        quoted = html.escape(sentence)
        if quoted in escaped:
            escaped = escaped.replace(quoted, f"<mark>{quoted}</mark>", 1)
    return escaped


def mode_line(answer: Answer) -> str:
    who = f"model {answer.model}" if answer.mode == "llm" else "extractive (offline, no model)"
    total = answer.timings_ms.get("total")
    return f"{who}" + (f" · {total / 1000:.1f} s" if total else "")


def links_html(urls: Iterable[str]) -> str:
    """Escaped links that open in a new tab; anything but http(s) is left out."""
    return " ".join(f'<a href="{html.escape(u, quote=True)}" target="_blank" rel="noopener">'
                    f"{html.escape(u)}</a>" for u in urls if u.startswith(("http://", "https://")))


def render_answer(answer: Answer, papers: Mapping[str, Paper] | None = None) -> str:
    """The chat message for an answer: escaped text with clickable [n], then its sources."""
    body = html.escape(answer.answer).replace("\n", "  \n")
    valid = {s.n for s in answer.sources}

    def link(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if n not in valid:
            return m.group(0)
        return f'<a href="#" class="cite" title="open source {n}">[{n}]</a>'

    body = MARKER_RE.sub(link, body)
    parts = [body]
    if answer.dropped_citations:
        dropped = ", ".join(f"[{n}]" for n in answer.dropped_citations)
        parts.append(f"\n\n*Removed citation(s) to sources that were not given: {dropped}*")
    if answer.sources:
        cited = {c.n: c for c in answer.citations}
        items = []
        for s in answer.sources:
            citation = cited.get(s.n)
            abstract = (_highlight(citation.text, citation.highlights) if citation
                        else "<i>Retrieved, not cited.</i>")
            paper = (papers or {}).get(s.paper_id)
            link_html = links_html(paper.links) if paper else ""
            mark = "cited" if citation else "not cited"
            items.append(
                f'<details class="source"><summary>[{s.n}] '
                f"<b>{html.escape(s.title)}</b> · <code>{html.escape(s.source)}</code> · "
                f"score {s.score:.2f} · {mark}</summary><p>{abstract}</p>"
                + (f"<p>{link_html}</p>" if link_html else "") + "</details>"
            )
        parts.append(
            f'\n\n<details class="sources"><summary>Sources ({len(cited)} cited of '
            f"{len(answer.sources)})</summary>{''.join(items)}</details>"
        )
    parts.append(f'\n\n<span class="mode">{html.escape(mode_line(answer))}</span>')
    return "".join(parts)


def answer_as_markdown(answer: Answer) -> str:
    """The answer with a reference list, for pasting into notes."""
    lines = [answer.answer.strip(), ""]
    if answer.citations:
        lines.append("References:")
        for c in answer.citations:
            lines.append(f"[{c.n}] {c.title}. {c.source}.")
    lines.append(f"\n({mode_line(answer)})")
    return "\n".join(lines).strip()


def example_questions(app: Assistant, limit: int = 6) -> list[str]:
    """Questions about papers in the corpus: "What is X?" for named methods, a summary."""
    questions: list[str] = []
    for paper in sorted(app.index.papers().values(), key=lambda p: p.source):
        names = names_in(paper.title.split(":")[0]) if ":" in paper.title else []
        if names and len(questions) < limit - 1:
            questions.append(f"What is {names[0]}?")
    questions.append("Which papers study interpretability of model predictions?")
    return questions


# ---------------------------------------------------------------- the app


def build_app(app: Assistant) -> gr.Blocks:
    settings = app.settings

    def corpus_facts() -> str:
        papers = app.index.papers()
        return (f"**{len(papers)}** papers · **{app.index.chunk_count()}** chunks · "
                f"embedding `{settings.index.embed_model}` · data `{settings.data.dir}` · "
                f"answers by **{app.mode_label}**")

    def respond(message: str, chat: list[dict[str, Any]], qa: list[list[str]], top_k: int
                ) -> Iterator[tuple[list[dict[str, Any]], list[list[str]], str, str]]:
        """Stream an answer into the chat; the last update adds its sources."""
        message = (message or "").strip()
        if not message:
            yield chat, qa, gr.skip(), ""
            return
        chat = [*chat, {"role": "user", "content": html.escape(message)},
                {"role": "assistant", "content": "…"}]
        yield chat, qa, gr.skip(), ""
        text = ""
        try:
            for event in app.ask_stream(message, history=[tuple(p) for p in qa], top_k=int(top_k)):
                if isinstance(event, Answer):
                    chat[-1] = {"role": "assistant", "content": render_answer(event, app.index.papers())}
                    qa = [*qa, [message, event.answer]]
                    yield chat, qa, answer_as_markdown(event), ""
                    return
                text += event
                chat[-1] = {"role": "assistant", "content": html.escape(text).replace("\n", "  \n")}
                yield chat, qa, gr.skip(), ""
        except GenerationError as exc:
            chat[-1] = {"role": "assistant", "content": html.escape(
                f"⚠️ No answer: {exc}. The conversation is kept; ask again when it is fixed.")}
            yield chat, qa, gr.skip(), ""

    def clear() -> tuple[list[Any], list[Any], str]:
        return [], [], ""

    def search_table(query: str) -> tuple[list[list[str]], list[str]]:
        if query and query.strip():
            papers = [r.paper for r in app.retrieve(query.strip(), top_k=50)]
        else:
            papers = sorted(app.index.papers().values(), key=_locator_key)
        rows = [[p.title, p.source, " ".join(p.links)] for p in papers]
        return rows, [p.paper_id for p in papers]

    def open_paper(ids: list[str], evt: gr.SelectData) -> str:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        if not ids or row is None or row >= len(ids):
            return ""
        paper = app.index.papers().get(ids[row])
        return render_paper(paper) if paper else ""

    def upload(files: list[str] | None, progress: gr.Progress = gr.Progress()  # noqa: B008
               ) -> tuple[str, list[list[str]], list[str], str]:
        if not files:
            rows, ids = search_table("")
            return "Choose one or more .txt, .csv or .jsonl files first.", rows, ids, corpus_facts()
        progress(0, desc="reading files")
        report = app.ingest([Path(f) for f in files],
                            progress=lambda done, total, what: progress(done / max(total, 1), desc=what))
        lines = [f"**{report.added}** added, **{report.replaced}** replaced, "
                 f"**{report.unchanged}** already there, **{len(report.skipped)}** skipped "
                 f"({report.seconds:.1f} s). The corpus now holds {report.papers_total} papers."]
        lines += [f"- skipped {html.escape(str(s))}" for s in report.skipped]
        rows, ids = search_table("")
        return "\n".join(lines), rows, ids, corpus_facts()

    # Typed functions for gradio_client and MCP agents.
    def search_abstracts(query: str, top_k: int = 5) -> list[dict[str, Any]]:
        """Search the indexed research-paper abstracts (hybrid BM25 + dense retrieval).

        Args:
            query: keywords, a method name, or a question.
            top_k: how many papers to return (1-50).

        Returns:
            Papers best first, each with title, locator ("file#n"), score and abstract text.
        """
        found = app.retrieve(query, top_k=max(1, min(int(top_k), 50)))
        return [{"title": r.paper.title, "source": r.paper.source, "paper_id": r.paper.paper_id,
                 "score": r.score, "abstract": r.paper.text, "links": list(r.paper.links)}
                for r in found]

    def ask(question: str, top_k: int = 5) -> dict[str, Any]:
        """Answer a question from the abstracts, with numbered citations.

        Args:
            question: a question in plain language.
            top_k: how many papers to retrieve as sources (1-50).

        Returns:
            {question, answer, mode, citations, sources, timings_ms, usage}; every [n] in the
            answer refers to the citation with that n.
        """
        try:
            return app.ask(question, top_k=max(1, min(int(top_k), 50))).public_json()
        except GenerationError as exc:
            return {"question": question, "error": str(exc)}

    with gr.Blocks(title="Abstracts assistant", analytics_enabled=False) as demo:
        gr.Markdown("## Abstracts assistant\nAsk about the indexed research abstracts; every "
                    "claim cites its paper.")
        facts = gr.Markdown(corpus_facts())
        with gr.Tab("Ask"):
            qa_state = gr.State([])
            chatbot = gr.Chatbot(label="Conversation", height=560, sanitize_html=True,
                                 allow_tags=False, feedback_options=None, buttons=["copy"],
                                 elem_id="chat")
            with gr.Row():
                question = gr.Textbox(placeholder="Ask a question, e.g. What is CRAFT?",
                                      show_label=False, scale=6, elem_id="question", autofocus=True)
                send = gr.Button("Ask", variant="primary", scale=1, elem_id="ask")
                clear_btn = gr.Button("Clear", scale=1, elem_id="clear")
            gr.Examples(example_questions(app), inputs=question, label="Try")
            with gr.Accordion("Settings and Markdown copy", open=False):
                top_k = gr.Slider(1, 20, value=settings.retrieval.top_k, step=1,
                                  label="Sources per question (this session only)", elem_id="top-k")
                gr.Markdown(f"Answers by **{html.escape(app.mode_label)}**.")
                copy_md = gr.Textbox(label="Last answer as Markdown, with references", lines=6,
                                     buttons=["copy"], interactive=False, elem_id="markdown")
        with gr.Tab("Corpus"):
            with gr.Row():
                search = gr.Textbox(placeholder="Search titles and abstracts", show_label=False,
                                    scale=6, elem_id="search")
                search_btn = gr.Button("Search", scale=1)
            rows0, ids0 = search_table("")
            row_ids = gr.State(ids0)
            table = gr.Dataframe(value=rows0, headers=["title", "locator", "links"],
                                 interactive=False, wrap=True, elem_id="papers", max_height=420)
            paper_view = gr.HTML(elem_id="paper")
            with gr.Accordion("Add abstracts", open=False):
                files = gr.File(file_count="multiple", file_types=[".txt", ".csv", ".jsonl"],
                                label="Seed-format .txt, or CSV/JSONL with title, authors, link, abstract")
                add = gr.Button("Add to corpus", variant="primary", elem_id="add")
                added = gr.Markdown(elem_id="added")

        submit_args = {"fn": respond, "inputs": [question, chatbot, qa_state, top_k],
                       "outputs": [chatbot, qa_state, copy_md, question]}
        # Only search_abstracts and ask are public (and so MCP tools); the UI's own events
        # stay callable by gradio_client without being advertised.
        send.click(api_name="chat", api_visibility="undocumented", **submit_args)
        question.submit(api_visibility="private", **submit_args)
        clear_btn.click(clear, outputs=[chatbot, qa_state, copy_md], api_visibility="private")
        search_btn.click(search_table, inputs=search, outputs=[table, row_ids], api_name="browse",
                         api_visibility="undocumented")
        search.submit(search_table, inputs=search, outputs=[table, row_ids], api_visibility="private")
        table.select(open_paper, inputs=row_ids, outputs=paper_view, api_visibility="private")
        add.click(upload, inputs=files, outputs=[added, table, row_ids, facts], api_name="upload",
                  api_visibility="undocumented")
        gr.api(search_abstracts, api_name="search_abstracts")
        gr.api(ask, api_name="ask")
    return demo


def render_paper(paper: Paper) -> str:
    links = links_html(paper.links)
    authors = f"<p><i>{html.escape(paper.authors)}</i></p>" if paper.authors else ""
    return (f"<h3>{html.escape(paper.title)}</h3><p><code>{html.escape(paper.source)}</code></p>"
            f"{authors}<p>{html.escape(paper.text)}</p><p>{links}</p>")


def _locator_key(paper: Paper) -> tuple[str, int]:
    file, _, n = paper.source.rpartition("#")
    return file, int(n) if n.isdigit() else 0


def mcp_available() -> bool:
    try:
        import mcp  # noqa: F401
    except ImportError:
        return False
    return True


def launch(settings: Settings, block: bool = True, started: float | None = None
           ) -> tuple[gr.Blocks, str]:
    """Open the index (ingesting the seeds into an empty one), then serve the app."""
    from assistant.console import err

    started = started if started is not None else time.monotonic()
    app = Assistant(settings)
    app.ensure_corpus()
    demo = build_app(app)
    auth = None
    if settings.serve.username and settings.serve.password:
        auth = (settings.serve.username, settings.serve.password.get_secret_value())
    _, url, _ = demo.queue(default_concurrency_limit=4).launch(
        server_name=settings.serve.host,
        server_port=settings.serve.port,
        auth=auth,
        share=False,
        prevent_thread_lock=True,
        quiet=True,
        show_error=False,
        mcp_server=mcp_available(),
        footer_links=["api"],
        ssr_mode=False,
        css=CSS,
        js=OPEN_CITATIONS_JS,
    )
    err.print(f"Serving on {url} ({time.monotonic() - started:.1f} s after start; answers by "
              f"{app.mode_label}). Ctrl+C stops it.")
    if block:
        try:
            demo.block_thread()
        except KeyboardInterrupt:
            demo.close()
    return demo, url
