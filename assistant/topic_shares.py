"""A range of years' share of a topic's papers.

"What percentage of papers on GANs were published before 2018?" asks what share of the GAN
papers are of those years. It had been counted within the years and given as a share of all
their papers ("In all, 0.5% of the 7,167 papers"), which answers another question: "What
percentage of papers published before 2018 are on GANs?". Such a question is now counted over
every year, so its table is the topic's whole history, and answered by the range's share of
that count (``range_share``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from assistant.intent import COUNT_RE, asks_a_share
from assistant.trends import TrendResult, share_text
from assistant.types import Filters

# the years stated of a topic's papers, as what they were ("were published before 2018", "are
# from 2019", "appeared after 2015"), not as which papers ("papers from 2019 use RL")
_YEARS_OF_THEM = re.compile(
    r"\s+(?:that\s+|which\s+)?(?:(?:were|was|are|is|ha(?:ve|s|d))\s+(?:been\s+)?(?:\w+ly\s+)?"
    r"(?:(?:published|presented|accepted|released|written|appeared)\s+)?|(?:published|presented"
    r"|appeared|came\s+out)\s+)(?:from|in|before|after|since|during|between|up\s+to|until|prior\s+to"
    r"|by)\s+(?:the\s+(?:year\s+)?)?\d{4}\b"
    # then only more of the range ("or later", "and 2021") and where ("at NeurIPS", "in the store")
    r"(?:\s*(?:,|or|and|to|through|-|–)\s*(?:later|earlier|after|before|since|\d{4}))*"
    r"(?:\s+(?:at|in|on|within|from)\s+(?:the\s+)?[\w-]+(?:\s+(?:data\s*base|store|corpus|collection))?)?"
    r"[\s?.!]*$", re.I)


def years_share_asked(question: str) -> bool:
    """Whether ``question`` asks what share of a topic's papers a range of years holds ("What
    percentage of papers on GANs were published before 2018?", "What fraction of GAN papers
    are from 2019 or later?"), not what share of the years' papers are on it ("What fraction
    of papers from 2019 use RL?"), nor a share of a topic asked of another ("… on RL
    published after 2015 use deep networks?", ``intent.share_of_a_topic``)."""
    asked = COUNT_RE.match(question)
    if asked is None or not asks_a_share(question):
        return False
    rest = asked.group("topic")
    years = _YEARS_OF_THEM.search(rest)  # to the end: not "… after 2015 use deep networks?"
    if years is None:
        return False
    return bool(asked.group("lead") or rest[:years.start()].strip())


def counts_whole_history(question: str, given: Filters | None) -> bool:
    """Whether ``question`` is counted over every year (``years_share_asked``), the years it
    states left for its share line: not when the caller's own filter (``given``) sets years."""
    return years_share_asked(question) and not (given and (given.years or given.recent))


def whole_history(applied: Filters | None, question: str, given: Filters | None) -> Filters | None:
    """The filter to count ``question`` under: ``applied``, without the years the question
    states when it asks their share of a topic (``counts_whole_history``)."""
    if applied is None or not counts_whole_history(question, given):
        return applied
    kept = replace(applied, years=None, named_years=None, recent=None, note=None)
    return kept or None


def range_share(trend: TrendResult, within: Filters) -> str:
    """The share of ``trend``'s papers that the years of ``within`` hold: "Of them, 38 (12.0%)
    are of years up to 2017." ("" when it counted none or ``within`` states no years)."""
    if not trend.total or within.years is None:
        return ""
    low, high = within.years
    named = within.named_years
    count = sum(n for year, n in trend.years.items()
                if low <= year <= high and (named is None or year in named))
    when = Filters(years=within.years, named_years=named).describe()
    return f"Of them, {count:,} ({share_text(count / trend.total)}) are from {when}."


def share_line(trend: TrendResult, question: str, stated: Filters | None, given: Filters | None) -> str:
    """A count's share line: the share of the topic's papers the years ``stated`` by
    ``question`` hold, when it asks that (``counts_whole_history``), else the count's share
    of the papers it was counted among (``TrendResult.overall_share``)."""
    if stated and stated.years and counts_whole_history(question, given):
        return range_share(trend, stated)
    return trend.overall_share()
