"""The Gradio app behind `assistant serve`: chat with cited answers, browse and add abstracts.

One class per tab (``AskPage``, ``CorpusPage``) holds that tab's handlers as plain methods;
``render`` turns answers and papers into inert HTML; ``server`` holds the login throttle, the
MCP guard and the security headers. CSS and JS live in ``static/``.
"""

from __future__ import annotations

import time
from importlib.resources import files

import gradio as gr  # importing assistant.ui ran assistant/__init__ (offline env) first
from starlette.middleware import Middleware

from assistant.console import err, warn
from assistant.errors import add_secret
from assistant.pipeline import Assistant
from assistant.settings import Settings
from assistant.ui.ask_page import AskPage
from assistant.ui.corpus_page import CorpusPage
from assistant.ui.server import GuardMiddleware, LoginGuard, exposure_warning

__all__ = ["AskPage", "CorpusPage", "build_app", "launch", "static_text"]


def build_app(app: Assistant) -> gr.Blocks:
    """The two tabs over one assistant, with the typed endpoints /ask and /search_abstracts."""
    ask, corpus = AskPage(app), CorpusPage(app)
    with gr.Blocks(title="Abstracts assistant", analytics_enabled=False) as demo:
        gr.Markdown("## Abstracts assistant\nAsk about the indexed research abstracts; every "
                    "claim cites its paper.")
        facts = gr.Markdown(corpus.facts())
        ask.build()
        corpus.build(facts)
    return demo


def static_text(name: str) -> str:
    """A file of ``assistant/ui/static`` (shipped in the wheel as package data)."""
    return files("assistant.ui").joinpath("static", name).read_text(encoding="utf-8")


def mcp_available() -> bool:
    try:
        import mcp  # noqa: F401
    except ImportError:
        return False
    return True


def launch(settings: Settings, block: bool = True, started: float | None = None
           ) -> tuple[gr.Blocks, str]:
    """Open the index (ingesting the seeds into an empty one), then serve the app."""
    started = started if started is not None else time.monotonic()
    username = settings.serve.username
    password = settings.serve.password.get_secret_value() if settings.serve.password else ""
    login = bool(username and password)
    warning = exposure_warning(settings.serve.host, login)
    if warning:
        warn(warning)
    app = Assistant(settings)
    app.ensure_corpus()
    demo = build_app(app)
    auth = None
    if login and username:
        add_secret(password)
        auth = LoginGuard(username, password).check
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
        css=static_text("style.css"),
        js=static_text("app.js"),
        app_kwargs={"middleware": [Middleware(GuardMiddleware)]},
    )
    err.print(f"Serving on {url} ({time.monotonic() - started:.1f} s after start; answers by "
              f"{app.mode_label}). Ctrl+C stops it.")
    if block:
        try:
            demo.block_thread()
        except KeyboardInterrupt:
            demo.close()
    return demo, url
