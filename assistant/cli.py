"""`assistant ingest | ask | serve | eval`: a thin layer over ``assistant.pipeline``.

Every expected failure (bad input, unreachable endpoint, mismatched index) ends with a
one-line reason on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.markup import escape

from assistant import IMPORTED_AT
from assistant.console import err, out, printable, progress_bar, warn
from assistant.errors import EXIT_BAD_INPUT, AssistantError, add_secret, redact, redact_logs
from assistant.imports import importing
from assistant.printing import (
    OutputFormat,
    print_after_answer,
    print_rendered,
    stream_answer,
    warn_unread,
)
from assistant.settings import MAX_LIST_REREAD, MAX_TOP_K, Settings

if TYPE_CHECKING:  # the pipeline's imports are heavy; `assistant --help` should not wait
    from assistant.pipeline import Assistant
    from assistant.types import Filters

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Cited answers from research-paper abstracts.")
DEBUG = os.environ.get("ASSISTANT_DEBUG", "") not in ("", "0", "false", "False")


def error_line(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(printable(redact(message)))}", highlight=False,
              soft_wrap=True)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    error_line(message)
    raise typer.Exit(code)


def main() -> None:
    """The ``assistant`` command: the typer app, with click's usage errors (an unknown
    option, a value out of its range) as one line naming the option and where its help is,
    like every other bad input, instead of a boxed usage text. ``assistant`` alone still
    prints the help."""
    # typer (pinned) vendors its own click: these are the errors its parser raises
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    try:
        code = app(prog_name="assistant", standalone_mode=False)
    except NoArgsIsHelpError as exc:  # typer printed the help before raising it
        code = exc.exit_code
    except UsageError as exc:
        if DEBUG:
            raise
        where = exc.ctx.command_path if exc.ctx else "assistant"
        message = exc.format_message().rstrip(".")
        error_line(f"{message[:1].lower()}{message[1:]}; see {where} --help")
        code = exc.exit_code
    except ClickException as exc:  # a file option that cannot be opened, and the like
        error_line(exc.format_message())
        code = exc.exit_code
    except typer.Abort:  # end of input at a prompt, as click reports it
        error_line("aborted")
        code = 1
    sys.exit(code if isinstance(code, int) else 0)


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
    except BrokenPipeError:  # the reader left (`| head -1`): click stops quietly, exit 1
        raise
    except OSError as exc:  # the disk or a file, not our code: say which
        if DEBUG:
            raise
        where = f": {exc.filename}" if exc.filename else ""
        fail(f"{exc.strerror or exc}{where}")
    except KeyboardInterrupt:
        fail("interrupted", 130)


def load_settings(data_dir: Path | None = None, chroma_url: str | None = None) -> Settings:
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
    if chroma_url is not None:
        settings.data.chroma_url = chroma_url
    return settings


DataDir = Annotated[Path | None, typer.Option("--data-dir", help="Index directory (default "
                                              "ASSISTANT_DATA_DIR, else ~/.local/share/"
                                              "abstracts-assistant on Linux).")]
ChromaUrl = Annotated[str | None, typer.Option("--chroma-url", help="A Chroma server, e.g. "
                                               "http://127.0.0.1:8000 (default "
                                               "ASSISTANT_DATA_CHROMA_URL; unset: on disk).")]
Year = Annotated[str | None, typer.Option(
    "--year", help="Only papers of these years: 2019, 2019,2021, 2019-2021, 2019- or -2000.")]
Venue = Annotated[str | None, typer.Option(
    "--venue", help="Only papers of this venue or collection, e.g. NeurIPS.")]
Author = Annotated[str | None, typer.Option("--author", help="Only papers with this author: "
                                             "\"Yoshua Bengio\", \"Y. Bengio\" or \"Bengio\".")]
Reread = Annotated[int | None, typer.Option(
    "--reread", min=1, max=MAX_LIST_REREAD, help="Uncertain papers a list reads at most "
    "(default 30, ASSISTANT_RETRIEVAL_LIST_REREAD; a trend reads at least 200): when its "
    "first line says some were left out unread, a larger number reads them.")]


def given_filters(year: str | None, venue: str | None, author: str | None) -> Filters | None:
    """The ``--year``, ``--venue`` and ``--author`` options as filters; an option given
    empty (``--author ""``) is one line, exit 2: it had been taken for no filter, and 253
    papers listed unfiltered (R10)."""
    from assistant.filters import explicit

    for option, value in (("--year", year), ("--venue", venue), ("--author", author)):
        if value is not None and not value.strip():
            fail(f"{option} is empty; give a value (see --help) or leave the option out")
    with friendly_errors():  # a bad --year is one line
        return explicit(year, venue, author)


@app.command()
def ingest(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or directories "
                                                      "(.txt seed format, .csv, .jsonl).")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Delete the index first.")] = False,
    titles: Annotated[bool, typer.Option("--titles", help="Then have the configured model "
                                         "write a title for each paper whose input gave "
                                         "none (once per abstract; resumable).")] = False,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """Add abstracts to the index (default: the seeds). Re-running adds nothing new."""
    with importing():
        from assistant.pipeline import Assistant

    settings = load_settings(data_dir, chroma_url)
    if titles and not settings.llm.enabled:
        fail("--titles needs a model to write them, and none is configured: set "
             "ASSISTANT_LLM_BASE_URL and ASSISTANT_LLM_MODEL (see .env.example)")
    targets = paths or [settings.data.seeds]
    with friendly_errors():
        assistant = Assistant(settings)
        with progress_bar() as progress:
            report = assistant.ingest(targets, rebuild=rebuild, progress=progress)
    from assistant.corpus import skip_lines
    from assistant.skipped import STORED_CHANGED

    skipped = [s for s in report.skipped if not s.stored]
    for label, notes, done in (("skipped", skipped, "skipped"),
                               ("stored", [s for s in report.skipped if s.stored], STORED_CHANGED)):
        for line in skip_lines(notes, done=done):
            err.print(f"[yellow]{label}[/] {escape(printable(line))}", highlight=False,
                      soft_wrap=True)
    for note in [*report.kept, *report.gone]:
        warn(str(note))
    changes = [f"{report.added} added"]
    for label, count in (("replaced", report.replaced), ("removed", report.removed),
                         ("relocated", report.moved)):
        if count:
            changes.append(f"{count} {label}")
    out.print(
        f"papers: {report.papers_total} ({', '.join(changes)}, {report.unchanged} unchanged) · "
        f"chunks: {report.chunks_total} (+{report.chunks_added}) · "
        f"skipped: {sum(s.count for s in skipped)} · {report.seconds:.1f} s"
    )
    if skipped and not report.added and not report.unchanged and not report.moved:
        raise typer.Exit(EXIT_BAD_INPUT)
    if titles:
        write_titles(assistant)


def write_titles(assistant: Assistant) -> None:
    """``ingest --titles``: the model's titles, with a progress bar and ETA; one line says
    what was written, and, when the run stopped early, why and that it can go on."""
    with friendly_errors(), progress_bar() as progress:
        report = assistant.write_titles(progress)
    rejected = (f" · {len(report.rejected)} repl{'y' if len(report.rejected) == 1 else 'ies'} "
                f"not a title (kept the derived one: {', '.join(report.rejected[:3])}"
                f"{' …' if len(report.rejected) > 3 else ''})" if report.rejected else "")
    out.print(printable(f"titles: {report.written} written by {assistant.settings.llm.model} "
                        f"of {report.total} untitled{rejected} · {report.seconds:.1f} s"),
              markup=False, highlight=False)
    if report.stopped:
        fail(f"{report.stopped}; the {report.written} titles written are kept: run "
             "`assistant ingest --titles` again to go on", report.exit_code)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your question, in quotes.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object "
                                          "(the same as --format json).")] = False,
    output_format: Annotated[OutputFormat, typer.Option(
        "--format", help="text streams the answer, then its sources; markdown is the answer "
        "with its references; bibtex one entry per cited paper.")] = OutputFormat.text,
    top_k: Annotated[int | None, typer.Option("--top-k", min=1, max=MAX_TOP_K)] = None,
    year: Year = None,
    venue: Venue = None,
    author: Author = None,
    list_all: Annotated[bool, typer.Option(
        "--all", help="List every paper that answers it, not the first few (what a list "
        "question, \"Which papers use capsule networks?\", gets anyway).")] = False,
    reread: Reread = None,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """Answer a question with citations (streams the answer, then the sources). What the
    question states ("since 2019", "in NeurIPS 2025", "papers by Bengio") filters too."""
    if not question.strip():
        fail("the question is empty; ask something like: assistant ask \"What is CRAFT?\"")
    if as_json and output_format not in (OutputFormat.text, OutputFormat.json):
        fail(f"--json and --format {output_format.value} ask for two formats; give one of them")
    fmt = OutputFormat.json if as_json else output_format
    filters = given_filters(year, venue, author)
    settings = load_settings(data_dir, chroma_url)
    from assistant.embedding import preload

    preload(settings)  # the model loads while the pipeline's imports run
    with importing():
        from assistant.pipeline import Assistant

    with friendly_errors():
        assistant = Assistant(settings)
        assistant.ensure_corpus()
        events = assistant.answer_stream(question, top_k=top_k, filters=filters, every=list_all,
                                         reread=reread)
        answer = stream_answer(events, show=fmt is OutputFormat.text)
    listed = answer.receipt is not None and answer.receipt.matching is not None
    if fmt is not OutputFormat.text:
        print_rendered(answer, fmt)
    else:
        print_after_answer(answer)
    if top_k and listed:
        warn("--top-k was not used: a list gives every paper that answers")
    if reread and not listed:
        warn("--reread was not used: it is a list's or a trend's reading budget")


@app.command()
def similar(
    target: Annotated[str, typer.Argument(help="A locator (file#n), a paper id, or text in "
                                          "quotes.")],
    top_k: Annotated[int, typer.Option("-k", "--top-k", min=1, max=MAX_TOP_K,
                                       help="How many papers.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """List the papers most like a stored paper or a piece of text, with scores."""
    import json

    with importing():
        from assistant.pipeline import Assistant
        from assistant.references import byline
        from assistant.types import SourceRef

    settings = load_settings(data_dir, chroma_url)
    with friendly_errors():
        assistant = Assistant(settings)
        assistant.ensure_corpus()
        result = assistant.similar(target, top_k=top_k)
    if as_json:
        sys.stdout.write(json.dumps(result.public_json(), ensure_ascii=False, indent=2) + "\n")
        return
    what = (f"{result.paper.title} ({result.paper.source})" if result.paper
            else f"\u201c{result.query}\u201d")
    out.print(printable(f"Papers like {what}:"), markup=False, highlight=False)
    for i, r in enumerate(result.results, start=1):
        known = byline(SourceRef.of(i, r.paper, r.score))
        out.print(printable(f"{i:>2}. {r.score:.3f}  {r.paper.title} \u2014 {r.paper.source}"
                            + (f" \u00b7 {known}" if known else "")), markup=False,
                  highlight=False)


@app.command()
def trends(
    topic: Annotated[str, typer.Argument(help="A topic in quotes, e.g. \"graph neural "
                                         "networks\".")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts and the matching "
                                          "papers' ids as one JSON object.")] = False,
    chart: Annotated[Path | None, typer.Option(
        "--chart", help="Where to write the PNG chart: a .png path in a folder that exists "
        "(default trends-<topic>.png here).")] = None,
    year: Year = None,
    venue: Venue = None,
    author: Author = None,
    reread: Reread = None,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """Count the papers on a topic per year (and per venue): a table and a PNG chart."""
    import json

    if not topic.strip():
        fail("the topic is empty; give one, e.g. assistant trends \"graph neural networks\"")
    filters = given_filters(year, venue, author)
    settings = load_settings(data_dir, chroma_url)
    with importing():
        from assistant.filters import merge
        from assistant.intent import read_intent
        from assistant.list_lines import undated_line
        from assistant.pipeline import Assistant
        from assistant.trend_replies import trend_lines
        from assistant.trends import chart_name, draw_chart, unwritable

    if chart is not None and (problem := unwritable(chart)):
        fail(f"cannot write the chart to {chart}: {problem}; give --chart a .png path in a "
             "folder you can write")

    with friendly_errors():
        assistant = Assistant(settings)
        assistant.ensure_corpus()
        trend = assistant.trends(topic, filters, reread)
        # --json alone writes no file, nor does a count of none (a run's: an empty chart)
        if trend.total and (chart is not None or not as_json):
            draw_chart(trend, chart or Path(chart_name(trend.topic or trend.filters or "")))
    if as_json:
        sys.stdout.write(json.dumps(trend.public_json(), ensure_ascii=False, indent=2) + "\n")
        return
    intent = read_intent(topic)
    stated = merge(filters, intent.filters)  # "--year 2010-" or "X since 2010" (C66)
    undated = undated_line(assistant.index, stated, topic, trend.topic or "")  # C65
    for line in trend_lines(trend, intent, undated):
        out.print(printable(line), markup=False, highlight=False)
    if trend.chart:
        out.print(f"chart: {printable(trend.chart)}", markup=False, highlight=False)
    elif chart is not None:
        out.print(f"no chart written to {printable(str(chart))}: no paper counted", markup=False,
                  highlight=False)
    warn_unread(trend.unread_left_out)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Default 127.0.0.1 (loopback).")] = None,
    port: Annotated[int | None, typer.Option(help="Default 7860.")] = None,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """Start the chat UI in the browser."""
    from assistant.ui.loading import LoadingServer

    settings = load_settings(data_dir, chroma_url)
    if host:
        settings.serve.host = host
    if port:
        settings.serve.port = port
    # The port answers with a "loading" page within a second; the app takes it over when built.
    with friendly_errors(), LoadingServer.for_settings(settings.serve, IMPORTED_AT) as loading:
        from assistant.ui import launch

        launch(settings, started=IMPORTED_AT, loading=loading)


@app.command("eval")
def run_eval(
    dataset: Annotated[Path | None, typer.Option(help="Default evals/qa.jsonl.")] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Report directory.")] = Path("artifacts/eval"),
    compare: Annotated[Path | None, typer.Option(help="An earlier results JSON.")] = None,
    distractors: Annotated[Path | None, typer.Option(help="Also index this corpus (in a "
                                                     "separate data directory) and rerun.")] = None,
    baselines: Annotated[bool, typer.Option(help="Also score BM25-only and dense-only.")] = True,
    data_dir: DataDir = None,
    chroma_url: ChromaUrl = None,
) -> None:
    """Score the pipeline against stored question–answer pairs."""
    from assistant.evals import run_cli

    settings = load_settings(data_dir, chroma_url)
    with friendly_errors():
        code = run_cli(settings, dataset, out_dir, compare, distractors, baselines, out, err)
    raise typer.Exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
