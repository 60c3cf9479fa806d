"""What was not read, and why: ``Skipped`` names the file (and line) and what to do, and
``skip_lines`` tells it one line each, a few per file and then a count.

The CLI, the UI and the sync all read these; the file readers make them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Skipped:
    """An input that was not ingested, and why."""

    file: str
    reason: str
    line: int | None = None
    whole_file: bool = False  # the file could not be read at all (its stored papers stay)
    # False only for notes that leave the file's reading complete (repeated abstracts):
    # any other skip means the file was not fully read, so it removes no stored papers.
    incomplete: bool = True
    count: int = 1  # records this one line stands for (e.g. 4,999 repeats)
    # True for a note on a record that was stored, changed as the reason says (an abstract
    # field over the limit kept by its opening): a warning, not counted as skipped.
    stored: bool = False
    record: int | None = None  # the record's place in its file, when one record was not read

    @property
    def unread_record(self) -> bool:
        """One record of a file that could not be read (left out by name, left_out.py)."""
        return self.record is not None and self.incomplete and not self.stored

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.reason}"


STORED_CHANGED = "stored changed"  # what befell the records a stored note counts
SHOWN_PER_FILE = 5  # skipped records listed one by one per file; the rest are counted


def skip_lines(skipped: Iterable[Skipped], per_file: int = SHOWN_PER_FILE,
               done: str = "skipped") -> list[str]:
    """One line per skipped input, at most ``per_file`` per file and then how many more: a
    CSV with 5,000 broken rows printed 5,000 lines (a review). ``done`` is what befell the
    records counted (STORED_CHANGED for abstracts kept by their opening, lines read as
    Windows-1252, or years that are none)."""
    lines: list[str] = []
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    for skip in skipped:
        if shown.get(skip.file, 0) < per_file:
            shown[skip.file] = shown.get(skip.file, 0) + 1
            lines.append(str(skip))
        else:
            hidden[skip.file] = hidden.get(skip.file, 0) + skip.count
    lines += [f"{file}: {n:,} more records {done} (the first {per_file} are listed)"
              for file, n in hidden.items()]
    return lines
