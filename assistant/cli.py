"""`assistant ingest | ask | serve | eval`: a thin layer over ``assistant.pipeline``.

Every expected failure (bad input, unreachable endpoint, mismatched index) ends with a
one-line reason on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.markup import escape

from assistant import IMPORTED_AT
from assistant.console import err, out, progress_bar
from assistant.errors import EXIT_BAD_INPUT, AssistantError, add_secret, redact, redact_logs
from assistant.settings import Settings

if TYPE_CHECKING:  # the pipeline's imports are heavy; `assistant --help` should not wait
    from assistant.types import Answer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Cited answers from research-paper abstracts.")
DEBUG = os.environ.get("ASSISTANT_DEBUG", "") not in ("", "0", "false", "False")


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(redact(message))}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """The project's own failures become one line and their exit code; anything else is a
    bug and keeps its traceback. ``ASSISTANT_DEBUG=1`` shows the traceback for both."""
    try:
        yield
    except AssistantError as exc:
        if DEBUG:
            raise
        fail(str(exc), exc.exit_code)
    except OSError as exc:  # the disk or a file, not our code: say which
        if DEBUG:
            raise
        where = f": {exc.filename}" if exc.filename else ""
        fail(f"{exc.strerror or exc}{where}")
    except KeyboardInterrupt:
        fail("interrupted", 130)


def load_settings(data_dir: Path | None = None) -> Settings:
    from pydantic import ValidationError

    try:
        settings = Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "ASSISTANT_" + "_".join(str(p) for p in first["loc"]).upper()
        fail(f"bad setting {name}: {first['msg']} (see .env.example)")
    add_secret(settings.llm.key)
    if settings.serve.password is not None:
        add_secret(settings.serve.password.get_secret_value())
    redact_logs()
    if data_dir is not None:
        settings.data.dir = data_dir
    return settings


DataDir = Annotated[Path | None, typer.Option("--data-dir", help="Index directory "
                                              "(default ASSISTANT_DATA_DIR or .data).")]


@app.command()
def ingest(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or directories "
                                                      "(.txt seed format, .csv, .jsonl).")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Delete the index first.")] = False,
    data_dir: DataDir = None,
) -> None:
    """Add abstracts to the index (default: the seeds). Re-running adds nothing new."""
    from assistant.pipeline import Assistant

    settings = load_settings(data_dir)
    targets = paths or [settings.data.seeds]
    with friendly_errors():
        assistant = Assistant(settings)
        with progress_bar() as progress:
            report = assistant.ingest(targets, rebuild=rebuild, progress=progress)
    for skip in report.skipped:
        err.print(f"[yellow]skipped[/] {escape(str(skip))}", highlight=False, soft_wrap=True)
    for note in report.kept:
        err.print(escape(str(note)), style="yellow", highlight=False, soft_wrap=True)
    changes = [f"{report.added} added"]
    for label, count in (("replaced", report.replaced), ("removed", report.removed),
                         ("relocated", report.moved)):
        if count:
            changes.append(f"{count} {label}")
    out.print(
        f"papers: {report.papers_total} ({', '.join(changes)}, {report.unchanged} unchanged) · "
        f"chunks: {report.chunks_total} (+{report.chunks_added}) · "
        f"skipped: {sum(s.count for s in report.skipped)} · {report.seconds:.1f} s"
    )
    if report.skipped and not report.added and not report.unchanged and not report.moved:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your question, in quotes.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    top_k: Annotated[int | None, typer.Option("--top-k", min=1, max=50)] = None,
    data_dir: DataDir = None,
) -> None:
    """Answer a question with citations (streams the answer, then the sources)."""
    from assistant.pipeline import Assistant
    from assistant.types import Answer

    if not question.strip():
        fail("the question is empty; ask something like: assistant ask \"What is CRAFT?\"")
    settings = load_settings(data_dir)
    with friendly_errors():
        assistant = Assistant(settings)
        assistant.ensure_corpus()
        answer: Answer | None = None
        for event in assistant.ask_stream(question, top_k=top_k):
            if isinstance(event, Answer):
                answer = event
            elif not as_json:
                sys.stdout.write(event)
                sys.stdout.flush()
    assert answer is not None
    if as_json:
        sys.stdout.write(json.dumps(answer.public_json(), ensure_ascii=False) + "\n")
        return
    out.print()
    if answer.dropped_citations:
        err.print(f"[yellow]removed citation(s) to sources that were not given: "
                  f"{', '.join(f'[{n}]' for n in answer.dropped_citations)}[/]")
    print_sources(answer)


def print_sources(answer: Answer) -> None:
    if not answer.sources:
        return
    cited = {c.n for c in answer.citations}
    out.print("\n[bold]Sources[/] (* cited)")
    for s in answer.sources:
        mark = "*" if s.n in cited else " "
        out.print(f"{mark}[{s.n}] {s.title} — {s.source} (score {s.score:.2f})", markup=False)
    mode = answer.model if answer.mode == "llm" else "extractive, offline"
    out.print(f"[dim]{mode} · {answer.timings_ms.get('total', 0):.0f} ms[/]")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Default 127.0.0.1 (loopback).")] = None,
    port: Annotated[int | None, typer.Option(help="Default 7860.")] = None,
    data_dir: DataDir = None,
) -> None:
    """Start the chat UI in the browser."""
    from assistant.ui import launch

    settings = load_settings(data_dir)
    if host:
        settings.serve.host = host
    if port:
        settings.serve.port = port
    with friendly_errors():
        launch(settings, started=IMPORTED_AT)


@app.command("eval")
def run_eval(
    dataset: Annotated[Path | None, typer.Option(help="Default evals/qa.jsonl.")] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Report directory.")] = Path("artifacts/eval"),
    compare: Annotated[Path | None, typer.Option(help="An earlier results JSON.")] = None,
    distractors: Annotated[Path | None, typer.Option(help="Also index this corpus (in a "
                                                     "separate data directory) and rerun.")] = None,
    baselines: Annotated[bool, typer.Option(help="Also score BM25-only and dense-only.")] = True,
    data_dir: DataDir = None,
) -> None:
    """Score the pipeline against stored question–answer pairs."""
    from assistant.evals import run_cli

    settings = load_settings(data_dir)
    with friendly_errors():
        code = run_cli(settings, dataset, out_dir, compare, distractors, baselines, out, err)
    raise typer.Exit(code)


if __name__ == "__main__":  # pragma: no cover
    app()
