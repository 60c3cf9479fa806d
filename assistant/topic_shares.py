"""What share of a topic's papers a range of years, or an author, holds.

"What percentage of papers on GANs were published before 2018?" asks what share of the GAN
papers are of those years. It had been counted within the years and given as a share of all
their papers ("In all, 0.5% of the 7,167 papers"), which answers another question: "What
percentage of papers published before 2018 are on GANs?". "… were written by Goodfellow?"
had likewise been given as a share of Goodfellow's papers. Such a question is counted over
every year and author (its table the topic's whole history) and answered by the share of
that count the years or the author hold (``share_line``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from assistant.intent import COUNT_RE, Intent, asks_a_share
from assistant.trends import TrendResult, share_text
from assistant.types import Filters

Stated = Literal["years", "author"]

# what a topic's papers were, stated after them ("were published before 2018", "are from
# 2019", "appeared after 2015", "were written by Goodfellow"), not which papers are counted
# ("papers from 2019 use RL", "papers by Bengio on GANs"), to the question's end
_STATED_OF_THEM = re.compile(
    r"\s+(?:that\s+|which\s+)?(?:(?:were|was|are|is|ha(?:ve|s|d))\s+(?:been\s+)?(?:\w+ly\s+)?"
    r"(?:(?:published|presented|accepted|released|written|(?:co-?)?authored|appeared)\s+)?"
    r"|(?:published|presented|appeared|came\s+out|written|(?:co-?)?authored)\s+)"
    r"(?:(?P<years>(?:from|in|before|after|since|during|between|up\s+to|until|prior\s+to|by)\s+"
    r"(?:the\s+(?:year\s+)?)?\d{4}\b"
    # more of the range ("or later", "and 2021")
    r"(?:\s*(?:,|or|and|to|through|-|–)\s*(?:later|earlier|after|before|since|\d{4}))*)"
    r"|by\s+(?P<author>[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|van|von|de|der|del|la|le)){0,3}))"
    # and where ("at NeurIPS", "in the store")
    r"(?:\s+(?:at|in|on|within|from)\s+(?:the\s+)?[\w-]+(?:\s+(?:data\s*base|store|corpus|collection))?)?"
    r"[\s?.!]*$")


def stated_of_them(question: str) -> Stated | None:
    """What ``question`` asks the share of a topic's papers of: "years" ("What percentage of
    papers on GANs were published before 2018?", "What fraction of GAN papers are from 2019
    or later?"), "author" ("… on GANs were written by Goodfellow?"); None for any other
    question: a share of the years' or the author's papers on a topic ("What fraction of
    papers from 2019 use RL?"), or of a topic's papers on another ("… on RL published after
    2015 use deep networks?", ``intent.share_of_a_topic``)."""
    asked = COUNT_RE.match(question)
    if asked is None or not asks_a_share(question):
        return None
    rest = asked.group("topic")
    stated = _STATED_OF_THEM.search(rest)
    if stated is None or not (asked.group("lead") or rest[:stated.start()].strip()):
        return None
    return "years" if stated.group("years") else "author"


def share_asked_of(intent: Intent) -> Stated | None:
    """``stated_of_them`` of the intent's question, an author only where the question names
    a stored one (its filters hold it): "… on GANs are by Google?" names no author, and had
    counted “GANs are by Google” (a review's)."""
    stated = stated_of_them(intent.question)
    return None if stated == "author" and not (intent.filters and intent.filters.author) else stated


def counts_whole_history(question: str, given: Filters | None) -> Stated | None:
    """What ``question`` asks the share of (``stated_of_them``), its count made without it:
    not when the caller's own filter (``given``) sets that part."""
    stated = stated_of_them(question)
    if stated == "years" and given and (given.years or given.recent):
        return None
    return None if stated == "author" and given and given.author else stated


def whole_history(applied: Filters | None, question: str, given: Filters | None) -> Filters | None:
    """The filter to count ``question`` under: ``applied``, without the years or the author
    the question asks the share of (``counts_whole_history``)."""
    stated = counts_whole_history(question, given)
    if applied is None or stated is None:
        return applied
    kept = (replace(applied, years=None, named_years=None, recent=None, note=None) if stated == "years"
            else replace(applied, author=None))
    return kept or None


def share_line(trend: TrendResult, question: str, stated: Filters | None, given: Filters | None) -> str:
    """A count's share line: the share of the topic's papers the years or the author
    ``stated`` by ``question`` hold, when it asks that (``counts_whole_history``): "Of them,
    38 (16.0%) are from years up to 2017."; else the count's share of the papers it was
    counted among (``TrendResult.overall_share``)."""
    part = counts_whole_history(question, given)
    if stated is None or part is None or (stated.author if part == "author" else stated.years) is None:
        return trend.overall_share()
    if not trend.total:
        return ""
    within = (Filters(author=stated.author) if part == "author"
              else Filters(years=stated.years, named_years=stated.named_years))
    count = sum(within.allows(listed.paper) for listed in trend.counted)
    what = f"by {stated.author}" if part == "author" else f"from {within.describe()}"
    return f"Of them, {count:,} ({share_text(count / trend.total)}) are {what}."
