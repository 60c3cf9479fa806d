"""Terminal output shared by the CLI, `assistant serve` and the eval runner: two consoles and
a progress display. Imports nothing of the pipeline, so every surface can use it."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from assistant.errors import redact

err = Console(stderr=True, soft_wrap=True)  # no hard line breaks inside paths
out = Console(highlight=False, soft_wrap=True)
ProgressFn = Callable[[int, int, str], None]


def progress_seconds() -> float:
    """Seconds between two plain progress lines (``ASSISTANT_PROGRESS_SECONDS``, default 10;
    not a setting: an environment variable read here alone, like ``ASSISTANT_DEBUG``)."""
    try:
        return max(0.05, float(os.environ.get("ASSISTANT_PROGRESS_SECONDS", "10")))
    except ValueError:
        return 10.0


# C0 controls but tab and newline, DEL and C1: a model's reply could clear the screen,
# recolour a line or plant a terminal hyperlink (OSC 8) with them
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` fit for a terminal: no control sequences, which only a model or an abstract
    would send (printed as the text they were part of)."""
    return _CONTROLS.sub("", text)


def warn(message: str) -> None:
    """One yellow line on stderr; the text is redacted, never read as markup, and holds no
    control sequence."""
    err.print(f"[yellow]{escape(printable(redact(message)))}[/]", highlight=False, soft_wrap=True)


@contextmanager
def progress_bar(enabled: bool = True, console: Console | None = None) -> Iterator[ProgressFn]:
    """Progress on stderr; the callback takes (done, total, what). On a terminal a rich bar;
    otherwise (a file, a pipe, a CI log) a plain line every ``progress_seconds()`` and one at
    the end, so a long ingest is never silent."""
    console = console or err
    if not enabled:
        yield lambda done, total, what: None
        return
    if not console.is_terminal:
        with _plain_progress(console) as update:
            yield update
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task("reading", total=None)

        def update(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=what)

        yield update


class _PlainProgress:
    """The latest (done, total, what), and a line for it: count, rate since the step began,
    ETA. Callbacks may come from any thread."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lock = threading.Lock()
        self.state: tuple[int, int, str] | None = None
        self.step_start = (0.0, 0)  # when the current `what` began, and its count then
        self.step_end: float | None = None  # when it reached its total
        self.printed: tuple[int, int, str] | None = None

    def update(self, done: int, total: int, what: str) -> None:
        with self.lock:
            if self.state is None or self.state[2] != what:
                self.step_start, self.step_end = (time.monotonic(), done), None
            if total and done >= total and self.step_end is None:
                self.step_end = time.monotonic()
            self.state = (done, total, what)

    def line(self, final: bool = False) -> None:
        """Print the state; again when unchanged (a sign of life), unless it is finished."""
        with self.lock:
            state = self.state
            if state is None or ((final or self.step_end) and state == self.printed):
                return
            self.printed = state
            done, total, what = state
            seconds = (self.step_end or time.monotonic()) - self.step_start[0]
            rate = (done - self.step_start[1]) / seconds if seconds > 0 else 0.0
            parts = [f"{what}: {done}/{total}" if total else f"{what}: {done}"]
            if total:
                parts[0] += f" ({100 * done / total:.0f}%)"
            parts.append(f"{rate:.1f}/s" if rate >= 0.1 or not rate else f"{rate:.3f}/s")  # slow: a model
            if final or (total and done >= total):
                parts.append(f"{seconds:.0f} s")
            elif rate > 0 and total:
                parts.append(f"ETA {_clock((total - done) / rate)}")
            self.console.print(escape(" · ".join(parts)), highlight=False, soft_wrap=True)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@contextmanager
def _plain_progress(console: Console) -> Iterator[ProgressFn]:
    """A thread prints a line every interval, whether or not a callback came (a long
    batch, the BM25 build), and one line at the end."""
    state = _PlainProgress(console)
    stop = threading.Event()
    interval = progress_seconds()

    def tick() -> None:
        while not stop.wait(interval):
            state.line()

    ticker = threading.Thread(target=tick, name="progress-lines", daemon=True)
    ticker.start()
    try:
        yield state.update
    finally:
        stop.set()
        ticker.join()
        state.line(final=True)
