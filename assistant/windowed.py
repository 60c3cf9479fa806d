"""A count within a range of years: the whole store's count, restricted to those years.

Why a module: a count reads its uncertain papers up to a budget (``TREND_MAX_REREAD``), best
first. Screened within a range, the band is a fraction of the store's, so the budget
reaches far weaker papers, which the cross-encoder reads leniently: "How many papers on
Bayesian optimization were published between 2010 and 2015?" had counted 99 papers, of
which 10 write "Bayesian optimization", where the store's count holds 18 papers of those
years (a researcher's run, R6). A year's count is now the same with or without a range
around it, as the topic's readings and sense already are (``ListScreen._context``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from assistant.list_records import ListResult
from assistant.listing import ScreenSettings
from assistant.types import Filters


def within_years(whole: ListResult, filters: Filters, allowed: Collection[str] | None,
                 settings: ScreenSettings) -> ListResult:
    """``whole`` (the screen of the store without the range) restricted to the papers
    ``allowed`` (those ``filters`` leave): its kept papers, its pool (``screened``), the
    papers of it read, and those of its band left unread past the budget, of the range
    alone."""
    def inside(paper_id: str) -> bool:
        return allowed is None or paper_id in allowed

    pool = [c for c in whole.candidates if inside(c.paper.paper_id)]
    kept = [p for p in whole.papers if inside(p.paper.paper_id)]
    listed = {p.paper.paper_id for p in kept}
    unread = [c for c in pool if c.reader is None and settings.uncertain(c)
              and c.paper.paper_id not in listed]
    return replace(whole, papers=kept, filters=filters, candidates=pool, screened=len(pool),
                   papers_in_filter=whole.papers_in_filter if allowed is None else len(allowed),
                   reread=sum(c.reader is not None for c in pool), unread_left_out=len(unread),
                   store_read=whole.reread,
                   mentions=[p for p in whole.mentions if inside(p.paper.paper_id)])
