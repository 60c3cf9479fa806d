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
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Literal

from assistant.count_comparison import compared_periods
from assistant.filters import of_recent
from assistant.intent import COUNT_RE, OF_A_TOPIC, Intent, asks_a_share, read_intent, share_of_a_topic
from assistant.stated_years import Span, set_against, stated_years
from assistant.trend_questions import change_since
from assistant.trends import TrendResult, share_text
from assistant.types import Filters

Stated = Literal["years", "author"]

# what a topic's papers were, stated after them ("were published before 2018", "are from
# 2019", "appeared after 2015", "were written by Goodfellow"), not which papers are counted
# ("papers from 2019 use RL", "papers by Bengio on GANs"): the verb, then the rest
_STATED_VERB = re.compile(
    r"\s+(?:that\s+|which\s+)?(?:(?:were|was|are|is|ha(?:ve|s|d))\s+(?:been\s+)?(?:\w+ly\s+)?"
    r"(?:(?:published|presented|accepted|released|written|(?:co-?)?authored|appeared)\s+)?"
    r"|(?:published|presented|appeared|came\s+out|written|(?:co-?)?authored)\s+)"
    r"(?=(?:from|in|before|after|since|during|between|up\s+to|until|prior\s+to|by|over|within"
    r"|the\s+(?:last|past))\b)", re.I)
# where they stand, besides ("at NeurIPS", "in the store"), to the question's end
_WHERE = (r"(?:\s+(?:at|in|on|within|from)\s+(?:the\s+)?[\w-]+"
          r"(?:\s+(?:data\s*base|store|corpus|collection))?)?[\s?.!]*$")
_BY_AUTHOR = re.compile(r"by\s+(?P<author>[\w.'’-]+(?:\s+[\w.'’-]+){0,3}?)" + _WHERE, re.I)
# what the year reader leaves of the years' words ("from 2019 or later" leaves "from")
_YEARS_LEFT = re.compile(r"(?:\s+(?:from|in|during|of|the|years?))*" + _WHERE, re.I)


def stated_of_them(question: str) -> Stated | None:
    """What ``question`` asks the share of a topic's papers of: "years" ("What percentage of
    papers on GANs were published before 2018?", "… are from the last five years?", "…
    were published in the 2010s?": whatever ``stated_years`` reads), "author" ("… on GANs
    were written by Goodfellow?", "… of the 2019 papers on GANs were by Goodfellow?"); None
    for any other question: a share of the years' or the author's papers on a topic ("What
    fraction of papers from 2019 use RL?"), or of a topic's papers on another ("… on RL
    published after 2015 use deep networks?", ``intent.share_of_a_topic``)."""
    if not asks_a_share(question):
        return None
    for verb in _STATED_VERB.finditer(question):
        asked = COUNT_RE.match(stated_years(question[:verb.start()])[3] + "?")
        if asked is None or not (asked.group("lead") or asked.group("topic").strip(" ?")):
            continue
        rest = question[verb.end():]
        years, recent, _, left = stated_years(verb.group(0) + rest)  # the verb kept as is
        if (years or recent) and _YEARS_LEFT.match(left[len(verb.group(0).rstrip()):]):
            return "years"
        # "by Goodfellow in 2016", "… over the last five years" too (reviews': his papers' share)
        if ((_BY_AUTHOR.match(rest) or _BY_AUTHOR.match(stated_years(rest)[3].strip()))
                and not re.match(r"by\s+(?:the\s+end\s+of\s+)?(?:19|20)\d\d", rest)):
            return "author"
    return None


def share_asked_of(intent: Intent) -> Stated | None:
    """``stated_of_them`` of the intent's question, an author only where the question names
    a stored one (its filters hold it): "… on GANs are by Google?" names no author, and had
    counted “GANs are by Google” (a review's)."""
    stated = stated_of_them(intent.question)
    return None if stated == "author" and not (intent.filters and intent.filters.author) else stated


_BEING = re.compile(r"(?:are|is|were|was|ha(?:ve|s|d))$", re.I)  # no facet's word: "are in robotics"


def topic_and_facet(intent: Intent) -> tuple[str, str] | None:
    """The topic whose papers a share question counts, and the facet it asks the share of
    among them ("What share of papers on GANs use CelebA?": "GANs", "use CelebA"; "What
    fraction of RL papers are model-based?": "RL", "model-based"); None for any other
    question. Such a question had been searched whole, and listed one GAN paper not writing
    "CelebA" with no share; it is the count of the topic narrowed as "how many of them use
    CelebA?" narrows it in a chat (``FollowUps.answering``)."""
    asked = COUNT_RE.match(intent.search)
    if asked is None or share_asked_of(intent) or not share_of_a_topic(asked):
        return None
    if asked.group("lead"):
        topic, rest = asked.group("lead"), asked.group("topic")
    elif (of := OF_A_TOPIC.match(asked.group("topic"))) is not None:
        topic, rest = of.group("of"), asked.group("topic")[of.start("verb"):]
    else:
        return None
    verb, _, facet = rest.strip().partition(" ")
    facet = (facet if _BEING.match(verb) else f"{verb} {facet}").strip(" ?.!")
    topic = _TOPIC_TAIL.sub("", topic.strip())  # "RL were published (after 2015) and"
    return (topic, facet) if topic and re.search(r"\w", facet) else None


# what a topic's papers were, said between it and the facet: no topic's words (a review's:
# "… on RL were published after 2015 and use deep networks?" had counted “RL were published and”)
_TOPIC_TAIL = re.compile(r"(?:\s+(?:that|which|and|were|was|are|is|been|have|has|published|presented"
                         r"|accepted|released|written|appeared))+$", re.I)


def counts_whole_history(question: str, given: Filters | None) -> Stated | None:
    """What ``question`` asks the share of (``stated_of_them``), or the years since a change
    it asks about (``asks_change_since``), its count made without it: not when the caller's
    own filter (``given``) sets that part."""
    stated = stated_of_them(question) or ("years" if asks_change_since(question) else None)
    if stated == "years" and given and given.states_years:
        return None
    return None if stated == "author" and given and given.author else stated


def asks_change_since(question: str) -> bool:
    """Whether ``question`` asks of a change since a year (``trend_questions.change_since``:
    "Did interest in SVMs decline after 2010?"), not of its growth, top years or peak: its
    count, over every year, holds that year and the years before it."""
    intent = read_intent(question)
    return (intent.trend_topic is not None and not (intent.counts_asked or intent.claimed_years)
            and change_since(question, intent.filters) is not None)


def whole_history(applied: Filters | None, question: str, given: Filters | None) -> Filters | None:
    """The filter to count ``question`` under: ``applied``, without the years or the author
    the question asks the share of (``counts_whole_history``)."""
    stated = counts_whole_history(question, given)
    if applied is None or stated is None:
        return applied
    kept = (applied.without_years() if stated == "years"
            else replace(applied, author=None))
    return kept or None


# "How many more papers on X in 2021 than in 2018?": the two years it sets against each other
_MORE_THAN = re.compile(r"^\s*how\s+many\s+(?:more|fewer|less)\b.*?\b(?P<a>(?:19|20)\d\d)\b.*?\bthan\b"
                        r".*?\b(?P<b>(?:19|20)\d\d)\b", re.I)


# a comparison asking which holds fewer ("the fewest": C67; not "at least")
_FEWER = re.compile(r"\b(?:fewer|fewest|less|(?<!\bat\s)least)\b", re.I)


def asks_fewer(question: str, side: str) -> bool:
    """Whether a period comparison asks which span holds fewer papers: "fewer", "fewest",
    "less" or "least" (not "at least") outside its topic's side, before it or after it
    ("Did MCMC have fewer papers in …"), not in it ("… on learning from less labeled data
    …": C66)."""
    side = side.strip()
    start = question.find(side)
    return bool(_FEWER.search(question if start < 0 else
                              f"{question[:start]} {question[start + len(side):]}"))


_HOW_MANY_MORE = re.compile(r"^\s*how\s+many\s+(?:more|fewer|less)\b", re.I)


def span_difference(trend: TrendResult, spans: tuple[Span, Span]) -> str:
    """How many more (or fewer) papers ``trend`` counted in the first span than in the
    second ("How many more papers on MCMC in the 2010s than in the 1990s?" had given their
    sum alone, 123; C62)."""
    (first, one), (second, other) = _span_counts(trend, spans)
    more = "more" if one >= other else "fewer"
    return f" {abs(one - other):,} {more} in {first} than in {second}."


def _given_holds(given: Filters | None, spans: tuple[Span, ...]) -> bool:
    """Whether the filter given beside the question (``--year``) holds every year of
    ``spans``: one it cuts would be labelled with years never counted (C62)."""
    return given is None or (given.years is None and given.named_years is None) or _counted_in(given, *spans)


def _cut_by_given(given: Filters | None, spans: tuple[Span, ...]) -> str:
    """The line for spans set against each other that the years given beside the question
    (``--year``) cut: counted only where both hold, so not compared (C63: the count had
    said nothing of the spans it left out)."""
    each = " and ".join(_span_label(span) for span in spans)
    within = given.describe() if given else ""
    return f" The filter given ({within}) does not hold all of {each}: ask without it to compare them."


def difference(trend: TrendResult, first: int, second: int) -> str:
    """How many more (or fewer) papers ``trend`` counted in ``first`` than in ``second``: a
    run's "How many more papers on optimal transport in 2021 than in 2018?" had given both
    counts in its table and left the subtraction to the reader."""
    one, other = trend.years.get(first, 0), trend.years.get(second, 0)
    more = "more" if one >= other else "fewer"
    return f" That is {abs(one - other):,} {more} in {first} than in {second} ({one:,} against {other:,})."


def _counted_in(stated: Filters | None, *spans: tuple[int, int]) -> bool:
    """Whether the years ``stated`` (the question's filter, read by the year reader) hold
    every year of ``spans``: a sentence of each span's count is only of years counted (a
    review's: "… in 2018 and 2019 vs 2020?" had said "0 in 2020", 2020 never counted)."""
    return (stated is not None and stated.years is not None
            and all(stated.holds_year(year) for a, b in spans for year in range(a, b + 1)))


def _span_counts(trend: TrendResult, spans: tuple[Span, ...]) -> list[tuple[str, int]]:
    """Each span of years (its label: "2019", "1990–1999") with the papers ``trend`` counted in it."""
    return [(_span_label((a, b)), sum(n for year, n in trend.years.items() if a <= year <= b))
            for a, b in spans]


def _span_label(span: Span) -> str:
    """A span of years as a line names it: "2019", "1990–1999"."""
    return str(span[0]) if span[0] == span[1] else f"{span[0]}–{span[1]}"


def spans_line(trend: TrendResult, spans: tuple[Span, ...]) -> str:
    """Each span's count and its share of the papers stored in it ("That is 13 in 1990–1999
    and 110 in 2010–2019; as a share of each one's stored papers, 0.9% of 1,423 and 1.9% of
    5,823."): spans of unlike size are weighed by share; a span the store holds no paper of
    says so (C62: "0 in 1975" had read as a count)."""
    counts, stored = _span_counts(trend, spans), _span_stored(trend, spans)
    line = "That is " + " and ".join(f"{n:,} in {label}" for label, n in counts)
    if not all(stored):
        empty = [label for (label, _), held in zip(counts, stored, strict=True) if not held]
        return f"{line}. No paper of {' or '.join(empty)} is stored."
    return line + f"; as a share of each one's stored papers{trend.shares_within()}, " + " and ".join(
        f"{share_text(n / held)} of {held:,}" for (_, n), held in zip(counts, stored, strict=True)) + "."


def which_more(trend: TrendResult, spans: tuple[Span, Span], fewer: bool = False) -> str:
    """Which of two spans holds more of ``trend``'s papers (``fewer``: fewer), by count and
    by share, for a question asking so ("Were there more papers on MCMC in the 1990s or the
    2010s?": "More in 2010–2019, by count and by share."; C64: "Which decade had fewer…"
    had been answered with the span of more); "" when a span holds no stored paper."""
    (first, one), (second, other) = _span_counts(trend, spans)
    stored = _span_stored(trend, spans)
    if not all(stored):
        return ""
    if one == other == 0:
        return " None in either."
    shares = [n / held for n, held in zip((one, other), stored, strict=True)]
    even = share_text(shares[0]) == share_text(shares[1])
    (word, size), pick = (("Fewer", "smaller"), min) if fewer else (("More", "larger"), max)
    by_share = first if pick(shares[0], shares[1]) == shares[0] else second
    if one == other:
        return " As many in each" + ("." if even else f"; a {size} share in {by_share}.")
    by_count = first if pick(one, other) == one else second
    if even or by_share == by_count:
        return f" {word} in {by_count}" + ("." if even else ", by count and by share.")
    return f" {word} papers in {by_count}; a {size} share of its papers in {by_share}."


def _span_stored(trend: TrendResult, spans: tuple[Span, ...]) -> list[int]:
    """The papers stored in each span of years, as ``trend`` counted them."""
    return [sum(n for year, n in trend.stored.items() if a <= year <= b) for a, b in spans]


def _asked_part(part: Stated | None, stated: Filters) -> Filters:
    """The part of ``stated`` a share is asked of: its author, or its years."""
    return (Filters(author=stated.author) if part == "author"
            else Filters(years=stated.years, named_years=stated.named_years))


def held_apart(ignored: Filters, question: str, given: Filters | None,
               allowed: Callable[[Filters], AbstractSet[str] | None]) -> Filters | None:
    """The filter a share question states that no stored paper passes (``ignored``), when
    its papers are there without the part the share is asked of (``whole_history``): "…
    on capsule networks were written by Ann Lee in 2019?" holds none of hers in 2019, and is
    "0 (0.0%)", where it had been refused. None when they are not there either, or when
    the part itself holds no stored paper (an author the store does not hold, a misspelling:
    refused as before, naming it)."""
    kept = whole_history(ignored, question, given)
    part = _asked_part(counts_whole_history(question, given), ignored)
    if kept == ignored or (kept and not allowed(kept)) or not allowed(part):
        return None
    return ignored


def share_line(trend: TrendResult, question: str, stated: Filters | None, given: Filters | None,
               newest: int | None = None) -> str:
    """A count's share line: the share of the topic's papers the years or the author
    ``stated`` by ``question`` hold, when it asks that (``counts_whole_history``): "Of them,
    38 (16.0%) are from years up to 2017."; else the count's share of the papers it was
    counted among (``TrendResult.overall_share``), with, for two years or spans set against
    each other (``compared_periods``, ``set_against``), each one's count and share
    (``spans_line``), which holds more when asked (``which_more``), the difference of "how
    many more" (``difference``, ``span_difference``), or that the filter ``given`` cuts them
    (``_cut_by_given``). The last so many years end at ``newest``, the newest stored paper's
    year (``filters.of_recent``)."""
    part = counts_whole_history(question, given)
    stated = of_recent(stated, newest) if stated is not None else None
    periods = compared_periods(question)  # "Were there more … in the 1990s or the 2010s?"
    # "… in 2019 vs 2020?": each span its own, when both were counted (``given`` too: C62)
    against = (periods[1], periods[2]) if periods else set_against(question)
    counted = against is not None and _counted_in(stated, *against)
    if part is None and counted and not _given_holds(given, against):
        return trend.overall_share() + _cut_by_given(given, against)
    against = against if counted and _given_holds(given, against) else None
    ranges = against is not None and any(first != last for first, last in against)  # "the 2010s than …"
    if (part is None and not ranges and (more := _MORE_THAN.match(question))  # "… in 2021 than in 2018?"
            and _counted_in(stated, (int(more.group("a")),) * 2, (int(more.group("b")),) * 2)):
        return trend.overall_share() + difference(trend, int(more.group("a")), int(more.group("b")))
    if part is None and against:
        said = f"{trend.overall_share()} {spans_line(trend, against)}"
        if _HOW_MANY_MORE.match(question):  # "How many more … in the 2010s than in the 1990s?"
            return said + span_difference(trend, against)
        return said + (which_more(trend, against, asks_fewer(question, periods[0])) if periods else "")
    if stated is None or part is None or (stated.author if part == "author" else stated.years) is None:
        return trend.overall_share()
    within = _asked_part(part, stated)
    what = f"by {stated.author}" if part == "author" else f"from {within.describe()}"
    if not trend.total:  # "… by Goodfellow in 1990?": none to take a share of (a review's)
        return f"None counted, so none is {what}."
    if part == "years" and against:  # a review's: "2019 vs 2020" had been one share of both
        return "Of them, " + " and ".join(f"{n:,} ({share_text(n / trend.total)}) {'is' if n == 1 else 'are'}"
                                          f" from {label}" for label, n in _span_counts(trend, against)) + "."
    count = sum(within.allows(listed.paper) for listed in trend.counted)
    return f"Of them, {count:,} ({share_text(count / trend.total)}) {'is' if count == 1 else 'are'} {what}."
