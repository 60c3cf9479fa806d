"""The Gradio app behind `assistant serve`: chat with cited answers, browse and add abstracts.

One class per tab (``AskPage``, ``CorpusPage``) holds that tab's handlers as plain methods;
``render`` turns answers and papers into inert HTML; ``server`` holds the login throttle, the
MCP guard and the security headers; ``loading`` the page shown while the app loads. CSS and
JS live in ``static/``.

Gradio and the pipeline are imported inside the functions (and the tab classes on first use),
so that ``assistant.ui.loading`` can bind the port before those seconds of imports.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from assistant.console import err, warn
from assistant.errors import BadInputError, add_secret
from assistant.settings import Settings
from assistant.ui.server import exposure_warning

if TYPE_CHECKING:
    import gradio as gr

    from assistant.pipeline import Assistant
    from assistant.ui.ask_page import AskPage
    from assistant.ui.corpus_page import CorpusPage
    from assistant.ui.loading import LoadingServer

__all__ = ["AskPage", "CorpusPage", "build_app", "launch", "static_text"]


def __getattr__(name: str) -> Any:
    """``AskPage`` and ``CorpusPage`` on first use (they import Gradio)."""
    if name == "AskPage":
        from assistant.ui.ask_page import AskPage
        return AskPage
    if name == "CorpusPage":
        from assistant.ui.corpus_page import CorpusPage
        return CorpusPage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_app(app: Assistant) -> gr.Blocks:
    """The three tabs (Ask, Lists & trends, Corpus) over one assistant, with their typed
    endpoints (/ask, /search_abstracts, /list_papers, …)."""
    import gradio as gr  # importing assistant.ui ran assistant/__init__ (offline env) first

    from assistant.ui.ask_page import AskPage
    from assistant.ui.corpus_page import CorpusPage
    from assistant.ui.lists_page import ListsPage

    ask, corpus, lists = AskPage(app), CorpusPage(app), ListsPage(app)
    with gr.Blocks(title="Abstracts assistant", analytics_enabled=False) as demo:
        gr.Markdown("## Abstracts assistant\nAsk about the indexed research abstracts; every "
                    "claim cites its paper.")
        facts = gr.Markdown(corpus.facts())
        with gr.Tabs():  # one tab at a time (without, the three were shown at once)
            ask.build()
            lists.build()
            corpus.build(facts)
        for page in (ask, lists, corpus):
            page.endpoints()
        # what the page was built with is the store at the server's start: refreshed on load
        demo.load(corpus.on_load, outputs=[facts, corpus.table, corpus.row_ids],
                  api_visibility="private", queue=False)
        demo.load(ask.venue_choices, outputs=ask.venue, api_visibility="private", queue=False)
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


@contextmanager
def handover(loading: LoadingServer | None) -> Iterator[None]:
    """Close the loading page at the last moment: just before Gradio binds the port (its
    ``http_server.start_server``), so the port is unanswered for milliseconds, not for the
    second Gradio spends building its routes. Should that hook ever go, close it first."""
    if loading is None or not loading.running:
        yield
        return
    from gradio import http_server

    original: Callable[..., Any] | None = getattr(http_server, "start_server", None)
    if original is None:
        loading.close()
        yield
        return

    def start_server(*args: Any, **kwargs: Any) -> Any:
        loading.close()
        return original(*args, **kwargs)

    http_server.start_server = start_server  # type: ignore[assignment]
    try:
        yield
    finally:
        http_server.start_server = original  # type: ignore[assignment]
        loading.close()


def launch(settings: Settings, block: bool = True, started: float | None = None,
           loading: LoadingServer | None = None) -> tuple[gr.Blocks, str]:
    """Open the index (ingesting the seeds into an empty one), then serve the app; a running
    ``loading`` page gives its port over to it."""
    started = started if started is not None else time.monotonic()
    username = settings.serve.username
    password = settings.serve.password.get_secret_value() if settings.serve.password else ""
    login = bool(username and password)
    warning = exposure_warning(settings.serve.host, login)
    if warning:
        warn(warning)

    def stage(text: str) -> None:
        if loading is not None:
            loading.stage = text

    stage("loading the search libraries")
    from assistant.pipeline import Assistant
    from assistant.ui.server import LoginGuard, json_tool_results

    stage("opening the index")
    app = Assistant(settings)
    if app.index.is_empty():
        stage("indexing the seed abstracts (first start only, about a minute)")
    app.ensure_corpus()
    stage("building the app")
    demo = build_app(app)
    auth = None
    if login and username:
        add_secret(password)
        auth = LoginGuard(username, password).check
    url = _serve(demo, settings.serve.host, settings.serve.port, auth, loading)
    json_tool_results(demo.mcp_server_obj)
    err.print(f"Serving on {url} ({time.monotonic() - started:.1f} s after start; answers by "
              f"{app.mode_label}). Ctrl+C stops it.")
    if block:
        try:
            demo.block_thread()
        except KeyboardInterrupt:
            demo.close()
    return demo, url


def _serve(demo: gr.Blocks, host: str, port: int, auth: Callable[..., Any] | None,
           loading: LoadingServer | None) -> str:
    """Start Gradio on ``host:port`` without blocking (the loading page handing its port
    over), and return its URL; a port another program took is bad input, not a traceback."""
    from starlette.middleware import Middleware

    from assistant.ui.server import GuardMiddleware

    try:
        with handover(loading):
            _, url, _ = demo.queue(default_concurrency_limit=4).launch(
                server_name=host,
                server_port=port,
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
    except OSError as exc:  # Gradio found the port taken (another program got it first)
        if "port" not in str(exc).lower():
            raise
        raise BadInputError(f"cannot serve on {host}:{port}: the port was taken by another "
                            f"program ({exc.strerror or 'in use'}); choose another port with "
                            "--port (or ASSISTANT_SERVE_PORT)") from None
    return url
