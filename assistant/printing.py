"""How the CLI prints an answer: its text as it streams, then its notes, filter, sources and
receipt on a terminal; or the whole answer as JSON, Markdown or BibTeX (``--format``).

Why apart from cli.py: the commands stay a thin layer of options over the pipeline, and
every answer (``ask``, a list, a trend question) is printed by these same few functions.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING

from assistant.console import err, out, printable, warn
from assistant.errors import AssistantError

if TYPE_CHECKING:
    from assistant.answering import AnswerStream
    from assistant.types import Answer


class OutputFormat(StrEnum):
    """``assistant ask --format`` (the renderers are in assistant/references.py)."""

    text = "text"
    markdown = "markdown"
    bibtex = "bibtex"
    json = "json"


def print_after_answer(answer: Answer) -> None:
    """What follows a streamed answer: its notes, filter, sources (a list's lines are its
    own) and receipt, and, when a list's reading budget or a trend's left papers out
    unread, how to read them."""
    from assistant.references import derived_line

    out.print()
    print_notes(answer)
    if answer.filters:
        out.print(f"\nfilter: {printable(answer.filters)}", markup=False, highlight=False)
    if answer.receipt is None or answer.receipt.matching is None:
        print_sources(answer)
    elif untitled := derived_line(answer.sources):  # a list's lines name them too
        out.print(f"[dim]{untitled}[/]")
    print_receipt(answer)
    if answer.receipt is not None:
        warn_unread(answer.receipt.unread_left_out)


def warn_unread(left_out: int) -> None:
    """How to read the uncertain papers a list's or a trend's reading budget left out."""
    if left_out:
        warn(f"{left_out:,} uncertain papers were left out unread: ask again with a larger "
             "--reread to read them")


def stream_answer(events: AnswerStream, show: bool) -> Answer:
    """The answer's text written to stdout as it arrives (when ``show``), and its Answer; an
    answer cut off by an error is marked as the part it is in what a pipe or a file got."""
    from assistant.types import Answer

    answer: Answer | None = None
    streamed = False
    try:
        for event in events:
            if isinstance(event, Answer):
                answer = event
            elif show:
                sys.stdout.write(printable(event))
                sys.stdout.flush()
                streamed = True
    except AssistantError:
        if streamed:
            sys.stdout.write(" [cut off]\n")
            sys.stdout.flush()
        raise
    assert answer is not None
    return answer


def print_rendered(answer: Answer, fmt: OutputFormat) -> None:
    """The answer as JSON, Markdown or BibTeX on stdout (BibTeX's notes on stderr)."""
    from assistant.references import render

    if fmt is OutputFormat.bibtex and not answer.citations:
        err.print("[yellow]the answer cites no source, so there are no BibTeX entries[/]")
    elif fmt is OutputFormat.bibtex:
        print_notes(answer)  # the entries have no place for them
    rendered = render(answer, fmt.value)
    sys.stdout.write(rendered if fmt is OutputFormat.json else printable(rendered))


def print_receipt(answer: Answer) -> None:
    """How much the answer looked at (one line), after a refusal's nearest papers."""
    from assistant.references import NEAREST_HEADING, nearest_lines, receipt_line

    if answer.receipt is None:
        return
    if answer.receipt.nearest:
        out.print(f"\n{NEAREST_HEADING}", markup=False, highlight=False)
        for line in nearest_lines(answer.receipt):
            out.print(printable(f"  - {line}"), markup=False, highlight=False)
    out.print(printable(receipt_line(answer.receipt)), style="dim", markup=False,
              highlight=False)


def print_notes(answer: Answer) -> None:
    """The answer's warnings, on stderr: no source cited, sentences no cited abstract
    supports, names no cited abstract mentions, sources that read only weakly as answering,
    invented citations removed."""
    from assistant.references import (
        UNCITED_NOTE,
        UNSURE_NOTE,
        placed_note,
        unmentioned_note,
        unsupported_note,
    )

    if answer.unchecked:  # the model's reply is in --json (model_reply)
        warn(answer.unchecked)
    if answer.uncited and not answer.unchecked:
        warn(UNCITED_NOTE)
    if unsupported := unsupported_note(answer):
        warn(unsupported)
    if answer.unmentioned:
        warn(unmentioned_note(answer))
    if answer.unsure:
        warn(UNSURE_NOTE)
    if answer.dropped_citations:
        warn("removed citation(s) to sources that were not given: "
             + ", ".join(f"[{n}]" for n in answer.dropped_citations))
    if placed := placed_note(answer):
        warn(placed)


def print_sources(answer: Answer) -> None:
    from assistant.references import answered_by, byline, derived_line, noted_title

    if not answer.sources:
        return
    cited = {c.n for c in answer.citations}
    out.print("\n[bold]Sources[/] (* cited)")
    for s in answer.sources:
        mark = "*" if s.n in cited else " "
        known = byline(s)  # venue, year and authors, when the input gave them
        title = noted_title(s, derived=False)  # a model's title says so
        out.print(printable(f"{mark}[{s.n}] {title} — {s.source} (score {s.score:.2f})"
                            + (f" · {known}" if known else "")), markup=False)
    if untitled := derived_line(answer.sources):
        out.print(f"[dim]{untitled}[/]")
    out.print(f"[dim]{answered_by(answer)} · {answer.timings_ms.get('total', 0):.0f} ms[/]")
