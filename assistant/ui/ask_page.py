"""The Ask tab: a chat whose answers stream in and end with their sources, plus the typed
``/ask`` endpoint. Handlers are plain methods, so tests call them without a server."""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from typing import Any

import gradio as gr

from assistant.errors import AssistantError, redact
from assistant.pipeline import Assistant
from assistant.retrieval import names_in
from assistant.types import Answer
from assistant.ui.render import (
    answer_as_markdown,
    inert,
    own_links,
    render_answer,
    render_error,
    streamed,
)

Chat = list[dict[str, Any]]
QA = list[list[str]]
ChatUpdate = tuple[Chat, QA, Any, str]  # chat, (question, answer) pairs, Markdown copy, box
THINKING = "…"


class AskPage:
    """Questions in, cited answers out. ``stream_interval`` is the least time between two
    streamed updates: each update renders and sends the text so far, so one per token made a
    long reply cost O(n²) (55 s for 50,000 words); one per interval bounds the updates by the
    stream's duration instead of its length."""

    def __init__(self, app: Assistant, stream_interval: float = 0.15) -> None:
        self.app = app
        self.stream_interval = stream_interval

    # ------------------------------------------------------------ handlers

    def respond(self, message: str, chat: Chat, qa: QA, top_k: int) -> Iterator[ChatUpdate]:
        """Stream an answer into the chat; the last update adds its sources (or the error)."""
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
            for event in self.app.ask_stream(message, history=[(q, a) for q, a in qa],
                                             top_k=int(top_k)):
                if isinstance(event, Answer):
                    chat = [*chat[:-1], {"role": "assistant",
                                         "content": render_answer(event, self.links_of)}]
                    yield chat, [*qa, [message, event.answer]], answer_as_markdown(event), ""
                    return
                deltas.append(event)
                now = time.monotonic()
                if now - last_sent >= self.stream_interval:
                    last_sent = now
                    chat = [*chat[:-1], {"role": "assistant",
                                         "content": streamed("".join(deltas)) or THINKING}]
                    yield chat, qa, gr.skip(), ""
        except AssistantError as exc:  # GenerationError is an EndpointError
            chat = [*chat[:-1], {"role": "assistant", "content": render_error(exc)}]
            yield chat, qa, gr.skip(), ""

    @staticmethod
    def clear() -> tuple[Chat, QA, str]:
        return [], [], ""

    def ask(self, question: str, top_k: int = 5) -> dict[str, Any]:
        """Answer a question from the abstracts, with numbered citations.

        Args:
            question: a question in plain language.
            top_k: how many papers to retrieve as sources (1-50).

        Returns:
            {question, answer, mode, citations, sources, timings_ms, usage}; every [n] in the
            answer refers to the citation with that n.
        """
        try:
            return self.app.ask(question, top_k=max(1, min(int(top_k), 50))).public_json()
        except AssistantError as exc:  # GenerationError is an EndpointError
            failed: dict[str, Any] = {"question": question, "error": redact(str(exc))}
            partial = str(getattr(exc, "partial", "") or "")
            if partial:
                failed["partial"] = redact(partial)
            return failed

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

    # ------------------------------------------------------------ layout

    def build(self) -> None:
        """The tab's components and events (call inside ``gr.Blocks``)."""
        with gr.Tab("Ask"):
            qa_state = gr.State([])
            chatbot = gr.Chatbot(label="Conversation", height=560, sanitize_html=True,
                                 allow_tags=False, latex_delimiters=[], feedback_options=None,
                                 buttons=["copy"], elem_id="chat")
            with gr.Row():
                question = gr.Textbox(placeholder="Ask a question, e.g. What is CRAFT?",
                                      show_label=False, scale=6, elem_id="question",
                                      autofocus=True)
                send = gr.Button("Ask", variant="primary", scale=1, elem_id="ask")
                clear_btn = gr.Button("Clear", scale=1, elem_id="clear")
            gr.Examples(self.example_questions(), inputs=question, label="Try")
            with gr.Accordion("Settings and Markdown copy", open=False):
                top_k = gr.Slider(1, 20, value=self.app.settings.retrieval.top_k, step=1,
                                  label="Sources per question (this session only)",
                                  elem_id="top-k")
                gr.Markdown(f"Answers by **{html.escape(self.app.mode_label)}**.")
                copy_md = gr.Textbox(label="Last answer as Markdown, with references", lines=6,
                                     buttons=["copy"], interactive=False, elem_id="markdown")
        submit = {"fn": self.respond, "inputs": [question, chatbot, qa_state, top_k],
                  "outputs": [chatbot, qa_state, copy_md, question]}
        # The UI's own events stay callable by gradio_client without being advertised.
        send.click(api_name="chat", api_visibility="undocumented", **submit)
        question.submit(api_visibility="private", **submit)
        clear_btn.click(self.clear, outputs=[chatbot, qa_state, copy_md], api_visibility="private")
        gr.api(self.ask, api_name="ask")
