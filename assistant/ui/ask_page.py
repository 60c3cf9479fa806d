"""The Ask tab: a chat whose answers stream in and end with their sources, plus the typed
``/ask`` endpoint. Handlers are plain methods, so tests call them without a server."""

from __future__ import annotations

import html
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.answering import final_answer
from assistant.errors import AssistantError, BadInputError
from assistant.filters import as_text, explicit, top_k_of
from assistant.intent import names_in
from assistant.pipeline import Assistant
from assistant.references import render as render_references
from assistant.types import Answer
from assistant.ui.downloads import DownloadFolder, download_buttons, download_row
from assistant.ui.failures import answers_errors
from assistant.ui.paging import (
    CHAT_PAGE,
    DEFAULT_LIMIT,
    TOP_K_UNUSED,
    Page,
    counts_every_paper,
    first_entries,
    page_json,
    paged,
    wanted,
)
from assistant.ui.render import (
    answer_as_markdown,
    inert,
    own_links,
    render_answer,
    render_error,
    similar_error,
    similar_html,
    streamed,
)

Chat = list[dict[str, Any]]
QA = list[list[str]]
ChatUpdate = tuple[Chat, QA, Any, str]  # chat, (question, answer) pairs, Markdown copy, box
SIMILAR_K = 5  # papers a "More like this" lists
# Runs once when the results panel loads: a click on "More like this" (under a source in the
# chat, or beside a listed paper) puts that paper's locator, read from its <code>, in the box
# and presses the button. (The chat's sanitizer keeps classes, not data attributes or events.)
MORE_LIKE_JS = """
if (!window.__moreLikeThis) {
  window.__moreLikeThis = true;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.more-like");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    const holder = link.closest("details.source, li.similar");
    const code = holder && holder.querySelector("code");
    const box = document.querySelector("#similar-target textarea, #similar-target input");
    if (!code || !box) return;
    box.value = code.textContent;
    box.dispatchEvent(new Event("input", {bubbles: true}));
    setTimeout(() => {
      document.querySelector("#similar").click();
      document.querySelector("#similar-target").scrollIntoView({block: "nearest"});
    }, 50);
  }, true);
}
"""
THINKING = "…"
KEPT_SESSIONS = 1000  # sessions whose last answer is kept for its downloads
ANY_VENUE = "any venue"


class AskPage:
    """Questions in, cited answers out. ``stream_interval`` is the least time between two
    streamed updates: each update renders and sends the text so far, so one per token made a
    long reply cost O(n²) (55 s for 50,000 words); one per interval bounds the updates by the
    stream's duration instead of its length."""

    def __init__(self, app: Assistant, stream_interval: float = 0.15) -> None:
        self.app = app
        self.stream_interval = stream_interval
        # Each session's last answer, for its Markdown and BibTeX downloads (written after
        # the answer, so the chat's outputs stay as they are for gradio_client callers).
        self._answers: OrderedDict[str, Answer] = OrderedDict()
        self._files: dict[str, Path] = {}
        self._answers_lock = threading.Lock()
        self._folder = DownloadFolder()

    # ------------------------------------------------------------ handlers

    def respond(self, message: str, chat: Chat, qa: QA, top_k: int,
                picked: tuple[str, str] | None = None, request: gr.Request | None = None
                ) -> Iterator[ChatUpdate]:
        """Stream an answer into the chat; the last update adds its sources (or the error).
        ``picked`` is the (years, venue) filter the page's fields held when it was sent."""
        message = (message or "").strip()
        if not message:
            yield chat, qa, gr.skip(), ""
            return
        # The history is the turns still in the chat it was given: a client that sends an
        # empty chat starts over, whatever this session asked before.
        turns = sum(1 for m in chat if m.get("role") == "assistant")
        qa = qa[-turns:] if turns else []
        chat = [*chat, {"role": "user", "content": inert(message)},
                {"role": "assistant", "content": THINKING}]
        yield chat, qa, gr.skip(), ""
        deltas: list[str] = []
        last_sent = 0.0
        try:
            years, venue = picked or ("", ANY_VENUE)
            filters = explicit(years, None if venue == ANY_VENUE else venue)
            # a list question gets every paper (streamed a line a paper) and a trend question
            # its counts per year, as the CLI answers them
            for event in self.app.answer_stream(message, history=[(q, a) for q, a in qa],
                                                top_k=top_k_of(top_k), filters=filters):
                if isinstance(event, Answer):
                    self._remember(request, event)  # its downloads: every paper
                    shown = chat_message(event, self.links_of)
                    chat = [*chat[:-1], {"role": "assistant", "content": shown}]
                    yield chat, [*qa, [message, event.answer]], answer_as_markdown(event), ""
                    return
                deltas.append(event)
                now = time.monotonic()
                if now - last_sent >= self.stream_interval:
                    last_sent = now
                    chat = [*chat[:-1], {"role": "assistant",
                                         "content": streamed(first_entries("".join(deltas)))
                                         or THINKING}]
                    yield chat, qa, gr.skip(), ""
        except AssistantError as exc:  # GenerationError is an EndpointError
            chat = [*chat[:-1], {"role": "assistant", "content": render_error(exc)}]
            self._forget(request)  # the copy and downloads are of the last answer: none now
            yield chat, qa, "", ""

    @staticmethod
    def pick_filters(years: str, venue: str) -> tuple[str, str]:
        """The filter fields as a question is sent (kept in the session for ``respond``, so
        that ``/chat`` takes the same inputs for gradio_client callers as before)."""
        return years or "", venue or ANY_VENUE

    @staticmethod
    def clear() -> tuple[Chat, QA, str]:
        return [], [], ""

    # ------------------------------------------------------------ downloads

    def _remember(self, request: gr.Request | None, answer: Answer) -> None:
        session = getattr(request, "session_hash", None)
        if not session:
            return
        with self._answers_lock:
            self._answers[session] = answer
            self._answers.move_to_end(session)
            while len(self._answers) > KEPT_SESSIONS:
                old, _ = self._answers.popitem(last=False)
                self._drop_files(old)

    def _forget(self, request: gr.Request | None) -> None:
        session = getattr(request, "session_hash", None) or ""
        with self._answers_lock:
            self._answers.pop(session, None)
            self._drop_files(session)

    def _drop_files(self, session: str) -> None:
        folder = self._files.pop(session, None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)

    def download_files(self, answer: Answer) -> tuple[Path, Path]:
        """The answer with its references as ``answer.md`` and the cited papers as
        ``references.bib``, in a folder of their own."""
        return self._folder.write(answer)

    def downloads(self, request: gr.Request | None = None) -> tuple[Any, Any]:
        """The two download buttons for the session's last answer (off when there is none).
        Gradio copies the files into its cache, so the session's earlier ones are removed."""
        session = getattr(request, "session_hash", None) or ""
        with self._answers_lock:
            answer = self._answers.get(session)
            if answer is None:
                return download_buttons()
            self._drop_files(session)
            markdown, bib = self.download_files(answer)
            self._files[session] = markdown.parent
        return download_buttons(markdown, bib)

    def forget(self, request: gr.Request | None = None) -> tuple[Any, Any]:
        """*Clear*: the session's last answer and its downloads go too."""
        self._forget(request)
        return self.downloads(request)

    @answers_errors("question")
    def ask(self, question: str, top_k: int = 5, years: str = "", venue: str = "",
            author: str = "", limit: int = DEFAULT_LIMIT, offset: int = 0,
            abstracts: bool = False) -> dict[str, Any]:
        """Answer a question from the abstracts, with numbered citations. A list question
        ("Which papers use X?") gets every paper judged to answer it, and a trend question
        ("How has interest in X grown?") its papers counted per year, as list_papers gives
        them: a page of them at a time (limit, offset), the receipt counting them all.

        Args:
            question: a question in plain language ("since 2019" in it filters the sources).
            top_k: how many papers to retrieve as sources (1-50).
            years: only papers of these years: "2019", "2019,2021", "2019-2021", "2019-" or "-2000" ("" any).
            venue: only papers of this venue or collection, e.g. "NeurIPS" ("" for any).
            author: only papers with this author, e.g. "Yoshua Bengio" or "Bengio" ("" any).
            limit: a list's or trend's papers to give, 1-500 (the receipt counts them all).
            offset: the first of them to give (0: the first; page.next_offset: the next page).
            abstracts: true: a list's or trend's citations carry their abstracts (text).

        Returns:
            the answer {question, answer, mode, citations, sources, filters, receipt, ...}
            every [n] in the answer referring to the citation with that n
            filters naming the filter applied
            unmentioned listing names of the question no cited abstract mentions
            unsure true when the sources read only weakly as answering it
            receipt counting the papers in the store, those the filter left, read and cited
            for a refusal, receipt.nearest: the nearest papers and why each does not answer
            for a list or trend, page {offset, limit, returned, total, next_offset, note}
            and its answer and sources the page's papers
            for bad input or a failing model, {question, error (one line), partial}
        """
        page = Page.of(limit, offset)
        answer = self._answer(question, top_k, years, venue, author)
        if not counts_every_paper(answer):
            return answer.public_json()
        return page_json(answer, page, wanted("abstracts", abstracts), (TOP_K_UNUSED,))

    def _answer(self, question: str, top_k: object, years: str, venue: str,
                author: str = "") -> Answer:
        """An API caller's question answered as the chat and `assistant ask` answer it: a
        list question with every paper, a trend question with its counts per year (the
        endpoints had answered both with a top 5)."""
        return final_answer(self.app.answer_stream(
            as_text(question), top_k=top_k_of(top_k), filters=explicit(years, venue, author)))

    @answers_errors("question")
    def answer_with_references(self, question: str, fmt: str = "bibtex", top_k: int = 5,
                               years: str = "", venue: str = "") -> str | dict[str, Any]:
        """Answer a question and return it as Markdown with its reference list, or just the
        BibTeX entries of the papers it cites.

        Args:
            question: a question in plain language.
            fmt: "markdown" (the answer, numbered references) or "bibtex" (an entry a cited paper).
            top_k: how many papers to retrieve as sources (1-50).
            years: only papers of these years: "2019", "2019,2021", "2019-2021", "2019-" or "-2000" ("" any).
            venue: only papers of this venue or collection, e.g. "NeurIPS" ("" for any).

        Returns:
            the Markdown or BibTeX text ("" in BibTeX when the answer cites nothing)
            for bad input, {question, error} with the one-line reason, as every endpoint
        """
        if fmt not in ("markdown", "bibtex"):
            raise BadInputError(f"unknown format '{fmt}': use markdown or bibtex")
        answer = self._answer(question, top_k, years, venue)
        return render_references(answer, "markdown" if fmt == "markdown" else "bibtex")

    # ------------------------------------------------------------ related papers

    @answers_errors("target", "query")
    def similar_papers(self, target: str, top_k: int = 5) -> dict[str, Any]:
        """List the indexed papers most like a given paper, or like a piece of text.

        Args:
            target: a paper's locator ("file#n"), its 16-hex paper id, or free text (a sentence).
            top_k: how many papers to return (1-50).

        Returns:
            {query, kind: "paper" or "text", paper, results}, best first, the paper left out
            each result {rank, paper_id, title, source, score, authors, year, venue, url}
            for a locator or id that names no stored paper, or other bad input, {query, error}
        """
        return self.app.similar(as_text(target), top_k=top_k_of(top_k)).public_json()

    def more_like_this(self, target: str) -> str:
        """The results panel for the box's locator, paper id or text."""
        if not (target or "").strip():
            return ('<p class="note">Press <i>More like this</i> under a source, or enter a '
                    "locator (file#n), a paper id or some text.</p>")
        try:
            return similar_html(self.app.similar(target, top_k=SIMILAR_K))
        except AssistantError as exc:
            return similar_error(exc)

    # ------------------------------------------------------------ helpers

    def links_of(self, paper_id: str) -> tuple[str, ...]:
        """A source's own links (the only links an answer shows)."""
        paper = self.app.index.papers().get(paper_id)
        return own_links(paper) if paper else ()

    def example_questions(self, limit: int = 6) -> list[str]:
        """Questions about papers in the corpus: "What is X?" for named methods, a summary."""
        questions: list[str] = []
        for paper in sorted(self.app.index.papers().values(), key=lambda p: p.source):
            names = names_in(paper.title.split(":")[0]) if ":" in paper.title else []
            if names and len(questions) < limit - 1:
                questions.append(f"What is {names[0]}?")
        questions.append("Which papers study interpretability of model predictions?")
        return questions

    def venue_choices(self) -> Any:
        """The venue list as a page opens: the stored venues now, not at the server's start."""
        return gr.Dropdown(choices=[ANY_VENUE, *self.app.index.venues()])

    # ------------------------------------------------------------ layout

    def build(self) -> None:
        """The tab's components and events (call inside ``gr.Blocks``)."""
        with gr.Tab("Ask"):
            qa_state = gr.State([])
            picked = gr.State(None)  # (years, venue) as the question was sent
            chatbot = gr.Chatbot(label="Conversation", height=560, sanitize_html=True,
                                 allow_tags=False, latex_delimiters=[], feedback_options=None,
                                 # no per-message copy: it copied the inert HTML (&#40;,
                                 # <br>, cite links); the Markdown copy below is the text
                                 buttons=[], elem_id="chat")
            with gr.Row():
                question = gr.Textbox(placeholder="Ask a question, e.g. What is CRAFT?",
                                      show_label=False, scale=6, elem_id="question",
                                      autofocus=True)
                send = gr.Button("Ask", variant="primary", scale=1, elem_id="ask")
                clear_btn = gr.Button("Clear", scale=1, elem_id="clear")
            years, venue = filter_row(self.app.index.venues())
            self.venue = venue
            download_md, download_bib = download_row()
            with gr.Row():
                similar_target = gr.Textbox(
                    label="More like this", max_lines=1, scale=6, elem_id="similar-target",
                    placeholder="A source's locator (file#n), a paper id, or text")
                similar_btn = gr.Button("More like this", scale=1, elem_id="similar")
            similar_view = gr.HTML(elem_id="similar-results", js_on_load=MORE_LIKE_JS)
            gr.Examples(self.example_questions(), inputs=question, label="Try")
            with gr.Accordion("Settings and Markdown copy", open=False):
                top_k = gr.Slider(1, 20, value=self.app.settings.retrieval.top_k, step=1,
                                  label="Sources per question (this session only)",
                                  elem_id="top-k")
                gr.Markdown(f"Answers by **{html.escape(self.app.mode_label)}**.")
                copy_md = gr.Textbox(label="Last answer as Markdown, with references", lines=6,
                                     buttons=["copy"], interactive=False, elem_id="markdown")
        submit = {"fn": self.respond, "inputs": [question, chatbot, qa_state, top_k, picked],
                  "outputs": [chatbot, qa_state, copy_md, question]}
        # The UI's own events stay callable by gradio_client without being advertised.
        files = {"outputs": [download_md, download_bib], "api_visibility": "private"}
        pick = {"fn": self.pick_filters, "inputs": [years, venue], "outputs": picked,
                "api_visibility": "private", "queue": False}
        send.click(**pick).then(api_name="chat", api_visibility="undocumented", **submit).then(
            self.downloads, **files)
        question.submit(**pick).then(api_visibility="private", **submit).then(
            self.downloads, **files)
        clear_btn.click(self.clear, outputs=[chatbot, qa_state, copy_md], api_visibility="private"
                        ).then(self.forget, **files)
        more = {"fn": self.more_like_this, "inputs": similar_target, "outputs": similar_view,
                "api_visibility": "private"}
        similar_btn.click(**more)
        similar_target.submit(**more)

    def endpoints(self) -> None:
        """The typed endpoints (MCP tools) of this page's questions (call inside
        ``gr.Blocks``, outside ``gr.Tabs``: there, Gradio shows a tab twice)."""
        gr.api(self.ask, api_name="ask")
        gr.api(self.similar_papers, api_name="similar_papers")
        gr.api(self.answer_with_references, api_name="answer_with_references")


def filter_row(venues: list[str]) -> tuple[gr.Textbox, gr.Dropdown]:
    """The years and venue a question is asked under (a row of the Ask tab)."""
    with gr.Row():
        years = gr.Textbox(label="Years", placeholder="any, or 2019-2021, 2019-, -2000",
                           max_lines=1, scale=2, elem_id="years")
        venue = gr.Dropdown([ANY_VENUE, *venues], value=ANY_VENUE, label="Venue or collection",
                            scale=2, elem_id="venue", allow_custom_value=True)
    return years, venue


def chat_message(answer: Answer, links_of: Callable[[str], tuple[str, ...]]) -> str:
    """A finished answer as the chat shows it: a list or trend of more than CHAT_PAGE papers
    shows its first CHAT_PAGE (a message of 1,963 froze the browser for 17 s), then says how
    many more there are and where they all are; its receipt counts them all."""
    total = len(answer.sources)
    if total <= CHAT_PAGE or not counts_every_paper(answer):
        return render_answer(answer, links_of) + filter_note(answer)
    return render_answer(paged(answer, Page(0, CHAT_PAGE)), links_of, total) + filter_note(answer)


def filter_note(answer: Answer) -> str:
    """The filter the sources were chosen under, under the answer (empty when none)."""
    if not answer.filters:
        return ""
    return f'<p class="filter">Filter: {inert(answer.filters)}</p>'

