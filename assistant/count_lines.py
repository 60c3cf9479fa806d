"""The words a list's first line and a trend's summary say of how much they looked at: how
many papers match, of how many, and how many were screened, reread and left out unread
("23 papers of the 13,847 (2019-2021) match “topic”; 300 screened, 30 reread").

Why apart: listing.py screens and trends.py counts; both say it in one wording, which
list_lines.py reuses under a list, and listing.py had reached its size limit.
"""

from __future__ import annotations


def count_line(matching: int, in_filter: int, screened: int, where: str = "",
               topic: str = "", reread: int | None = None, left_out: int = 0,
               kept: int = 0, order: str = "", unscreened: int = 0) -> str:
    """How many papers match, of how many, and how many were screened (and reread, and
    left out unread): "23 papers of the 13,847 (2019-2021) match “topic”; 300 screened, 30
    reread, 8 uncertain left out unread" (``order``, ", newest first", after "match"). One
    wording for a list's first line and a trend's summary."""
    noun, verb = ("paper", "matches") if matching == 1 else ("papers", "match")
    where = f" ({where})" if where else ""
    about = f" “{topic}”" if topic else ""
    return (f"{matching:,} {noun} of the {in_filter:,}{where} {verb}{about}{order}; "
            f"{searched_note(screened, reread, left_out, kept, unscreened)}")


def searched_note(screened: int, reread: int | None = None, left_out: int = 0,
                  kept: int = 0, unscreened: int = 0) -> str:
    """How much a list looked at: "300 screened, 30 reread, 8 uncertain left out unread, 5
    kept unread" (``reread`` None: a trend's, screened alone; ``unscreened``: the papers
    holding the topic's words past the pool's bound, "120 holding its words past the pool
    unscreened")."""
    note = f"{screened:,} screened" if reread is None else f"{screened:,} screened, {reread:,} reread"
    note += f", {unscreened:,} holding its words past the pool unscreened" if unscreened else ""
    # the band papers past the reading budget that their cheap score left out, and those it
    # kept (listed, each line marked); nothing when it left none unread
    note += f", {left_out:,} uncertain left out unread" if left_out else ""
    return note + (f", {kept:,} kept unread" if kept else "")


def in_a_row(items: list[str] | list[int]) -> str:
    """Items said in a row: "2001, 2003 and 2007"."""
    said = [str(item) for item in items]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)
