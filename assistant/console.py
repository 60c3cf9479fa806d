"""Terminal output shared by the CLI, `assistant serve` and the eval runner: two consoles and
a progress display. Imports nothing of the pipeline, so every surface can use it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from assistant.errors import redact

err = Console(stderr=True, soft_wrap=True)  # no hard line breaks inside paths
out = Console(highlight=False, soft_wrap=True)
ProgressFn = Callable[[int, int, str], None]


def warn(message: str) -> None:
    """One yellow line on stderr; the text is redacted and never read as markup."""
    err.print(f"[yellow]{escape(redact(message))}[/]", highlight=False, soft_wrap=True)


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[ProgressFn]:
    """A rich progress bar on stderr; the callback takes (done, total, what)."""
    if not enabled:
        yield lambda done, total, what: None
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task("reading", total=None)

        def update(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=what)

        yield update
