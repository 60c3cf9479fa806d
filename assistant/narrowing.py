"""How a chat follow-up reads the list or count before it: which list it narrows and under
which filters ("How many of them are from 2019?", "only the ones by Hinton", "what about
2018?"), which of its papers must answer a topic of its own too ("which of those use dynamic
routing?"), and which topic it swaps in ("what about dropout?").

Why a module: follow_ups.py routes a follow-up and asks the pipeline again; reading what it
narrows is a role of its own, read from the chat's history alone (``Readers``), and had
grown follow_ups.py to its size limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import replace as replaced_result
from functools import lru_cache

from assistant.count_comparison import compared_sides, names_a_method, versus_topics
from assistant.counted_topics import count_topic, counted_topic
from assistant.errors import BadInputError
from assistant.exclusions import opens_with_exclusion
from assistant.filters import beyond, replaced, reverted, years_in_words
from assistant.follow_up_phrases import (
    THOSE_LISTED_RE,
    THOSE_RE,
    asks_for_list_before,
    asks_per_year,
    beyond_asked,
    chooses_among_before,
    fragment_filters,
    swapped_topic,
)
from assistant.intent import Intent, as_count
from assistant.keywords import query_terms
from assistant.leaning import CONTINUES_RE, MAY_POINT_BACK_RE
from assistant.list_answers import Shaper
from assistant.list_records import ListResult
from assistant.listing import ListScreen
from assistant.paper_order import in_year_order, ordered_question
from assistant.places import past_pointed, pointed_at
from assistant.stated_years import stated_years
from assistant.store_answers import about_store
from assistant.subjects import spelled_out
from assistant.topic_shares import asks_change_since, share_asked_of, topic_and_facet, whole_history
from assistant.topics import topic_of
from assistant.trends import TREND_MAX_REREAD
from assistant.types import Filters

_OPENING = r"^\W*(?:(?:and|so|ok(?:ay)?|then|now|but)\W+)*"  # "and …", "ok, then …"
HOW_MANY = re.compile(rf"{_OPENING}how\s+many\b", re.I)  # "and how many…"
# a follow-up asking for papers ("which of those are from 2019?", "list those by Hinton"), not
# their count, nor only naming the narrowing ("what about 2018?", "only 2019")
WHICH = re.compile(rf"{_OPENING}(?:which|list|show|name)\b", re.I)
JOINED_TURNS = 3  # the questions before a follow-up it may be joined to (FollowUps.joined)
STORE_ASKED = "How many papers are?"  # the store's papers (under a filter, if any), as a list's question


def within_list(question: str, history: Sequence[tuple[str, str]], readers: Readers
                ) -> Narrowed | None:
    """What a follow-up asking which of the listed papers answer a topic of its own works
    within ("which of those use dynamic routing?", "how many of them use transformers?"):
    the list before (or the list a narrowing before narrowed), under the follow-up's filters
    too, its topic added to those the papers must answer (``Narrowed.keep``). A chat had
    searched "dynamic routing" anew and answered with a paper on packet routing, where the
    list before held "Dynamic Routing Between Capsules"."""
    history = past_pointed(history)
    if not history or not THOSE_RE.search(question):
        return None
    asked = readers.intent(THOSE_RE.sub(" papers ", question))  # "which papers use X?"
    topic = count_topic(asked) or topic_of(asked.search, False)
    topic = re.sub(r"^(?:are|were|is|was)\s+(?:on|about)\s+(?=\w)", "", topic, flags=re.I)  # “are on GANs”
    if not readers.names_a_topic(topic):
        return None
    if (earlier := list_before(history, readers)) is None:
        return None
    earlier = as_listed(earlier, readers)  # after a count, what it counted (a run's "no")
    said = replaced(earlier.filters, asked.filters) if asked.filters else earlier.filters
    if earlier.question == STORE_ASKED and not earlier.keep:  # the store's papers: the topic's own,
        counted = bool(HOW_MANY.match(question))  # counted as its count is (a review's: 51 for 56)
        return Narrowed(f"{'How many' if counted else 'Which'} papers are on {topic}?", said, counted, said)
    return Narrowed(earlier.question, said, False, said, (*earlier.keep, topic), earlier.least,
                    also=earlier.also)


@dataclass(frozen=True)
class Narrowed:
    """The earlier question a follow-up narrows, under which filters, and whether that was
    a count or a trend (answered so again) rather than a list. "How many of them…?" after a
    list is the list narrowed, whose first line counts it: a trend of the list's question
    had counted 56 papers of 2019 where the list held 6."""

    question: str
    filters: Filters
    counted: bool
    earlier: Filters | None = None  # the filters of the list or count it narrows
    keep: tuple[str, ...] = ()  # topics its papers must answer too (a "which of those" before)
    least: int = 0  # the reading budget at least: a count listed again reads as it counted
    answered: bool = False  # the turn before answered a question, and listed nothing
    also: tuple[str, ...] = ()  # topics whose counted papers are listed instead (a comparison's)
    from_count: bool = False  # a count listed (``as_listed``): its narrowing says "the earlier count"


@dataclass(frozen=True)
class Readers:
    """How a follow-up is read: a question's routing intent, whether a topic names
    something to search for (``ListAnswers.names_a_topic``), whether words are a stored
    author's name (``AuthorBook.holds``; one word only when the store holds it more as a
    name, ``AuthorBook.more_a_name``: "What about Adam?" after optimizers asks of Adam the
    optimizer, not of the authors named Adam)."""

    intent: Callable[[str], Intent]
    names_a_topic: Callable[[str], bool]
    is_author: Callable[[str], bool]
    authored: Callable[[str, Sequence[tuple[str, str]]], str | None] = lambda q, h: None
    # whether a name no stored paper has may still name a person (``AuthorBook.may_name``:
    # "Nobody Atall", whose words the abstracts do not write; not "Sparse Attention")
    may_name: Callable[[str], bool] = lambda name: False


def said_filters(question: str, readers: Readers, fragments: bool = True) -> Filters | None:
    """The filters a follow-up states to narrow the list before it: those of a question
    that points back and names no topic ("How many of them are from 2019?", "Which of
    these are by Hinton?"), or of a fragment whose words are only years, a stored author's
    name and words that point back ("only the ones by Hinton", "what about 2018?", "only
    2019 and 2020"), which had searched "ones" or the year as a topic, of a range stated
    alone ("since 2019?", or bare: "2019?", "The 2010s?", which had been searched as a
    topic and refused), or none of a count naming no topic ("how many?"). None otherwise."""
    asked = readers.intent(question)
    topic = HOW_MANY.sub("", topic_of(asked.search, False))  # "many" is no topic word
    if asked.filters and ((asked.follow_up and not readers.names_a_topic(topic))
                          or opens_with_exclusion(question)):  # "but not routing"
        return asked.filters
    if asked.filters and _range_alone(question):  # "since 2019?" (C64: a COVID-19 paper quoted)
        return asked.filters
    if not fragments:  # with nothing before it, "Only papers by Hinton" stands alone
        return None
    if asked.filters is None and (bare := _bare_range(question)):  # "2019?", "The 2010s?"
        return readers.intent(bare).filters
    if (HOW_MANY.match(question) and not re.search(r"\bpapers?\b", question, re.I)
            and not readers.names_a_topic(topic)):  # "how many?", "how many are there since 2019?"
        return asked.filters or Filters()  # a run's had quoted a paper on counting species
    return fragment_filters(question, readers.is_author)


def _range_alone(question: str) -> bool:
    """Whether ``question`` states a range of years and nothing else ("since 2019?", "in
    2018?"): the year reader leaves no letter of it."""
    span, recent, named, rest = stated_years(question)
    return (span, recent, named) != (None, None, None) and not re.search(r"[^\W\d_]", rest)


def _bare_range(question: str) -> str | None:
    """A follow-up that is one year or span and its question mark ("2019?", "The 2010s?",
    "2019 or 2021?"), as the year reader reads it ("in 2019?"); None else: "2019" alone is
    a lookup, "2019? 2020?" two questions."""
    bare = f"in {question.strip()}"
    return bare if bare.endswith("?") and bare.count("?") == 1 and _range_alone(bare) else None


def narrowed(question: str, history: Sequence[tuple[str, str]], readers: Readers
             ) -> Narrowed | None:
    """What a follow-up narrows: the latest earlier question that asked for a list, a count
    or a trend, when the follow-up states filters to narrow it by (``said_filters``), which
    replace the earlier question's ("Which papers from 2018 use GANs?", then "And from
    2019?": 2019's); a narrowing follow-up before it narrows too ("And since 2019?", then
    "Which of them are by Hinton?": both). After an answer, not a list, its question's
    papers under the filters: "only the ones by Hinton" after "What is dropout?" had listed
    a paper of his writing "ones". After a comparison of counts, one asking for papers
    ("which of those are from 2019?") lists both topics' papers, any other ("what about
    since 2019?") compares the counts again under its filters (R9: it had listed them), but
    not after a list of their papers ("only the ones by Bengio" after "show me the ones from
    2020" lists: C64).
    None for any other question."""
    history = past_pointed(history)
    said = said_filters(question, readers) if history else None
    if said is None:
        return None
    if (before := list_before(history, readers)) is None:  # an answer before: its question's
        if readers.intent(question).filters is None and _bare_range(question):
            return None  # "2017?" after "When was the Transformer introduced?" asks if it was (C67)
        answered = answered_before(history, readers)  # papers ("What is dropout?")
        return answered and replaced_result(answered, filters=replaced(answered.filters, said))
    # "what about Bengio?" after a share of GANs, or after "what about VAEs?" asked it again of
    # VAEs (the share that follow-up stood for: a review's "author Bengio and Goodfellow")
    if not WHICH.match(question) and (shared := _author_swapped(before.question, said, readers)
                                      or _author_swapped(history[-1][0], said, readers)
                                      or _years_swapped(before.question, said, readers)
                                      or _years_swapped(history[-1][0], said, readers)):
        return Narrowed(shared, Filters(), True)
    which = bool(WHICH.match(question))
    # "what about since 2019?" after a comparison (not after a list of its papers): compared again
    again = bool(before.also) and not which and not before.from_count
    from_count = not again and (bool(before.also) or (before.counted and which))  # a comparison's
    if from_count:
        before = as_listed(before, readers)  # "which of those are from 2019?" after a count: its papers
    return Narrowed(before.question, replaced(before.filters, said), before.counted or again,
                    reverted(before.filters, before.earlier, said), before.keep, before.least,
                    also=before.also, from_count=from_count)


def shared_within(question: str, readers: Readers) -> Narrowed | None:
    """A share of a topic's papers answering another ("What share of papers on GANs use
    CelebA?", ``topic_and_facet``): the topic's count kept to the papers answering the
    facet, as "how many of them use CelebA?" keeps it after "How many papers on GANs?"."""
    asked = readers.intent(question)
    if (split := topic_and_facet(asked)) is None or not all(map(readers.names_a_topic, split)):
        return None
    return Narrowed(split[0], asked.filters, True, asked.filters, (split[1],),
                    TREND_MAX_REREAD)  # read as the topic's count reads (``as_listed``)


def answered_before(history: Sequence[tuple[str, str]], readers: Readers) -> Narrowed | None:
    """The papers answering the question of the last turn of ``history``, an answer that
    listed nothing, under its filters: what a follow-up narrowing it or asking for its papers
    lists. When that question leaned on the one before ("What are its limitations?", "what
    about the datasets?"), the list before it, if one: "which of them is the oldest?" after
    a list and such a follow-up had been answered from a paper writing "oldest"."""
    asked = readers.intent(history[-1][0])
    if asked.follow_up and len(history) > 1:
        return list_before(history[:-1], readers)
    return Narrowed(history[-1][0], asked.filters, False, asked.filters, answered=True)


def list_before(history: Sequence[tuple[str, str]], readers: Readers) -> Narrowed | None:
    """The list, count or trend the last turn of ``history`` gave, under its filters: a
    follow-up's own (a narrowing, "list them", "which of those use X?"), read first ("only
    the ones by Sabour" reads as a list of "only the ones": "what about 2021?" after it
    had asked for that, a false "no"), else the turn's question. None when it gave none.
    Each history is read once per ``readers`` (one route's): the follow-ups before read
    the ones before them again, and a chat of 20 "what about X?" turns had taken 30 s."""
    return _list_before(tuple((q, a) for q, a in history), readers)


@lru_cache(maxsize=1024)
def _list_before(history: tuple[tuple[str, str], ...], readers: Readers) -> Narrowed | None:
    last, earlier = history[-1][0], history[:-1]
    # "which papers use it?": of the chat's subject; "what else did they write?": its authors'
    last = spelled_out(last, earlier) or readers.authored(last, earlier) or last
    if chained := (per_year(last, earlier, readers) or narrowed(last, earlier, readers)
                   or listed_again(last, earlier, readers) or within_list(last, earlier, readers)
                   or swapped(last, earlier, readers) or shared_within(last, readers)):
        return chained  # "what about dropout?" too: a list of its own
    ordered = ordered_question(last, readers.is_author)  # "the earliest paper on X": its list
    before = readers.intent(ordered.question if ordered else last)
    # "Are there more papers on GANs or on VAEs?", "How many papers on GANs vs VAEs?" (each
    # counted, a method named: a review's "what about 2016?" had counted “GANs vs VAEs”): both
    if compared := before.compared_topics or _versus_counted(before):
        if (sides := compared_sides(compared)) is None:  # more than MAX_COMPARED: refused
            return None
        # "GANs (StyleGAN)": GANs, as the answer counted (a review's); three or more, each
        return Narrowed(f"Which papers are on {sides[0]}?", before.filters, False, before.filters,
                        also=sides)
    if about_store(before.search, before.filters):  # "How many stored papers (from 2020)?": "2019?"
        return Narrowed(STORE_ASKED, before.filters, False, before.filters)  # had been an error
    if share_asked_of(before):  # "… on GANs were written by Goodfellow?": his, beside them all
        return Narrowed(f"How many papers on {count_topic(before)}?", before.filters, True,
                        whole_history(before.filters, last, None))
    counted = counted_topic(before) is not None
    if before.wants_list or counted:  # "What percentage of papers are from 2020?": how many
        # "Did X decline after 2010?" was counted over every year (a review's: "list them" had
        # listed 2011 on alone, 106 of the 294 counted)
        kept = whole_history(before.filters, last, None) if asks_change_since(last) else before.filters
        return Narrowed(as_count(before.search), kept, counted, kept)
    return None


def _versus_counted(before: Intent) -> tuple[str, str] | None:
    """The two sides a count's topic sets against each other when one is a method's name
    ("How many papers on GANs vs VAEs?", which ``compared_in`` counts side by side)."""
    sides = versus_topics(count_topic(before) or before.trend_topic)
    return sides if sides and names_a_method(sides) else None


def swapped(question: str, history: Sequence[tuple[str, str]], readers: Readers
            ) -> Narrowed | None:
    """The list or count before asked again of the topic a follow-up names instead
    (``swapped_topic``: "what about dropout?" after "Which papers use capsule networks?"),
    under the filters before (joined to it, a table of five capsule papers, none writing
    dropout), past follow-ups asking of the list's papers ("what about the proposed
    method?": a run's). None for any other follow-up."""
    history = past_pointed(history)
    if not history or not (topic := swapped_topic(question, readers.names_a_topic)):
        return None
    before, back = list_before(history, readers), history
    while (before is None and len(back) > 1 and len(history) - len(back) < JOINED_TURNS
           and readers.intent(back[-1][0]).follow_up):
        back = back[:-1]  # past each aspect follow-up, JOINED_TURNS at most
        before = list_before(back, readers)
    if before is None:
        return None
    # a share asked again of the topic, the share a follow-up before stood for too; a person's
    # full name after an author's share, whose words no paper writes, is that author's ("what
    # about Nobody Atall?" had counted papers matching the name: refused now, naming the
    # nearest); "what about Sparse Attention?" stays a topic
    for share in (before.question, back[-1][0]):
        if (_FULL_NAME.match(topic) and (named := _author_swapped(share, Filters(author=topic), readers))
                and readers.may_name(topic)):  # the store's scan last: a review's 1.8 s
            return Narrowed(named, Filters(), True)
        if shared := _share_swapped(share, topic, readers):
            return Narrowed(shared, Filters(), True)
    if faceted := shared_within(back[-1][0], readers):  # "what about VAEs?" after a CelebA share
        return _facet_swapped(faceted, topic)
    # after a comparison, a count (a review's list), unless a list was asked of it since
    last = history[-1][0]  # "Can you list them?" too; not the comparison itself ("Which has
    # more papers: GANs or VAEs?" had made "what about transformers?" a list, C57)
    listed = THOSE_LISTED_RE.match(last) or (WHICH.match(last) and not readers.intent(last).compared_topics)
    counted = before.counted or (bool(before.also) and not listed)
    lead = "How many papers" if counted else "Which papers"
    asked = (requalified(readers.intent(before.question), topic, lead, readers.intent)  # "what about for X?"
             or f"{lead} on {topic}?")
    said = readers.intent(asked).filters  # "what about VAEs in 2019?": its years replace
    filters = replaced(before.filters, said) if said else before.filters
    if filters and filters.excluded:  # "what about StyleGAN?" after "… but not StyleGAN" asks of it now
        filters = replaced_result(filters, excluded=tuple(
            x for x in filters.excluded if x.casefold() not in topic.casefold()))
    return Narrowed(asked, filters, counted, filters)


# what qualifies a topic ("for", "in", "with" …), not what names one ("on", "about")
_QUALIFYING = re.compile(r"^(?P<word>for|in|with|to|via|using|under)\s+(?!(?:it|them|this|that|these|those"
                         r"|detail|general|particular|short|brief|practice|theory|total|all)\W*$)\S", re.I)


def requalified(earlier: Intent, topic: str, lead: str, intent: Callable[[str], Intent]) -> str | None:
    """The question the list or count asked by ``earlier`` asks with what qualifies its
    topic replaced by a follow-up's ``topic`` that opens with the same preposition, or added
    to it ("what about for generative modelling?" after "Which papers use optimal transport
    for domain adaptation?": "Which papers use optimal transport for generative
    modelling?"; R12's had searched "for generative modelling" alone), opening with
    ``lead``. None when ``topic`` opens with no such word or states a filter or an order
    ("in NeurIPS 2020", "in recent years"), or "on" names a topic ("what about on VAEs?":
    C68)."""
    if (m := _QUALIFYING.match(topic)) is None:
        return None
    if (probe := intent(f"Which papers {topic}?")).filters or probe.newest_first:
        return None
    counted = earlier.trend_topic or count_topic(earlier)  # a count's topic, no verb of its own
    subject = (counted or topic_of(earlier.search, False)).strip(" ?.!")
    if not subject or about_store(earlier.search, earlier.filters):  # an author's list, the store's
        return None  # count: no topic to qualify (C69: "Which papers on are in the store for GANs?")
    head, found, _ = subject.rpartition(f" {m['word'].lower()} ")
    asked = f"{head if found else subject} {topic}"
    # "on" where the topic had it ("List papers on GANs", a count's), not before its verb
    # ("Which papers use optimal transport …", "… do action recognition …": C70)
    named = counted or re.search(rf"\b(?:on|about)\s+{re.escape(subject)}", earlier.search, re.I)
    return f"{lead} on {asked}?" if named else f"{lead} {asked}?"


def _share_swapped(asked: str, topic: str, readers: Readers) -> str | None:
    """A share of a topic's papers held by years or an author (``share_asked_of``) asked of
    ``topic`` instead: "what about VAEs?" after "What share of papers on GANs were written by
    Goodfellow?" had given the share of Goodfellow's papers on VAEs (a review's)."""
    before = readers.intent(asked)
    if not share_asked_of(before) or not (counted := count_topic(before)) or counted not in asked:
        return None
    return asked.replace(counted, topic, 1)


def _facet_swapped(before: Narrowed, named: str) -> Narrowed:
    """A share of a topic's papers answering a facet (``shared_within``) asked again of what
    a follow-up names: the facet's variant when it shares a word with the facet ("what about
    model-free?" after "… RL papers are model-based?"), else the topic ("what about VAEs?"
    after "… papers on GANs use CelebA?"). Both had been dropped: a count of VAEs alone."""
    (facet,) = before.keep
    if set(query_terms(named)) & set(query_terms(facet)):
        return replaced_result(before, keep=(named,))
    return replaced_result(before, question=named)


def _author_swapped(asked: str, said: Filters, readers: Readers) -> str | None:
    """An author's share of a topic's papers asked again of the author ``said`` names: "what
    about Yoshua Bengio?" after "… on GANs were written by Goodfellow?" had given the share
    of Bengio's papers on GANs (5.9% of his 85), not of the GAN papers his (2.1%)."""
    before = readers.intent(asked)
    if not said.author or said.years or said.venue or share_asked_of(before) != "author":
        return None
    # the name after "by", to a year's or venue's words or the end: the question's own range kept
    # (a review's: "… by Goodfellow in 2016?" then "what about Bengio?" had counted every year)
    swapped, named = _AUTHOR_NAMED.subn(f"by {said.author}", asked, count=1)
    return swapped if named else None


def _years_swapped(asked: str, said: Filters, readers: Readers) -> str | None:
    """An author's share of a topic's papers asked again of the years ``said`` names: "what
    about 2019?" after "What share of papers on GANs are by Goodfellow?" had counted his
    papers of 2019 among his GAN papers ("1 paper of the 2", a review's), not the share of
    2019's GAN papers his; a later "what about Bengio?" keeps the years."""
    before = readers.intent(asked)
    if (not said.years or said.author or said.venue or share_asked_of(before) != "author"
            or not (topic := count_topic(before)) or before.filters is None):
        return None
    venue = f" at {before.filters.venue}" if before.filters.venue else ""
    return f"What share of papers on {topic}{venue} are by {before.filters.author} {years_in_words(said)}?"


# a person's full name as a follow-up may name one: "Ian Goodfelow", "Nobody Atall" (not "GAN
# VAE", an acronym's capitals, nor one word: "what about VAEs?" names a topic)
_FULL_NAME = re.compile(r"^[A-Z][a-z][\w'’.-]*(?:\s+[A-Z][a-z][\w'’.-]*){1,3}$")
_AUTHOR_NAMED = re.compile(r"\bby\s+.+?(?=\s+(?:in|from|since|before|after|during|between|at|until|till"
                           r"|through|up\s+to)\b"
                           r"|[\s?.!]*$)", re.I)


def at_least(reread: int | None, least: int) -> int | None:
    """A follow-up's reading budget: the one asked for (None: the setting), at least
    ``least`` (a count listed again, and what narrows it, read as the count did)."""
    return max(reread or 0, least) or reread


def in_order(shaper: Shaper, oldest: bool) -> Shaper:
    """``shaper``'s list in year order, oldest or newest first (``paper_order.in_year_order``),
    its count line saying so: "and more recent ones?" after a list had given a comparison
    of two papers of 2018 and 2019, where the list ran to 2021."""
    def shaped(result: ListResult, screen: ListScreen) -> tuple[ListResult, str]:
        kept, line = shaper(result, screen)
        return in_year_order(kept, oldest=oldest), line
    return shaped


def listed_again(question: str, history: Sequence[tuple[str, str]], readers: Readers
                 ) -> Narrowed | None:
    """What a follow-up asking for the papers before lists ("list them", "which ones?",
    ``THOSE_LISTED_RE``): the list, count or trend before (or the list a follow-up before
    narrowed), under its filters. After "How many papers on capsule networks are there?"
    (12), "list them" had given five papers with nothing said of the other seven, and
    "which ones?" a paper on profile alignment; "and more recent ones?" asks past the list's
    years (``filters.beyond``). None for any other question."""
    history = past_pointed(history)
    if not history or not asks_for_list_before(question):
        return None
    if (before := list_before(history, readers)) is None:  # "list them in chronological
        return answered_before(history, readers)  # order" after an answer: had listed "list"
    if (newer := beyond_asked(question)) is not None and (past := beyond(before.filters, newer)):
        before = replaced_result(before, filters=past)
    return as_listed(before, readers)


def per_year(question: str, history: Sequence[tuple[str, str]], readers: Readers) -> Narrowed | None:
    """The list or count before, as the trend of its topic, for a follow-up asking for it per
    year and nothing else ("how many of them per year?", "show the trend over time"); None
    for any other question. A list narrowed by a topic ("which of them use X?") keeps it
    (``Narrowed.keep``): its papers are counted, as a trend counts one topic alone, and a
    follow-up after the count narrows what it counted (a review's: "which of those are
    from 2021?" had dropped the topic, 44 papers where the table showed 11)."""
    history = past_pointed(history)
    if not history or not asks_per_year(question) or (before := list_before(history, readers)) is None:
        return None
    return replaced_result(before, counted=True)


def as_listed(before: Narrowed, readers: Readers) -> Narrowed:
    """A count or trend before as the list of what it counted, read as it counted (its
    topic; no topic: an author's papers, "How many papers has Hinton published per year?",
    or the filter's every paper: the count's question had been searched as a topic, a "no")."""
    if not before.counted:
        return before
    topic = counted_topic(readers.intent(before.question))  # a list counted per year: as asked
    listed = topic or ("Which papers?" if before.filters and topic is not None else before.question)
    return replaced_result(before, question=listed, counted=False, least=TREND_MAX_REREAD, from_count=True)


def check_anchored(question: str, history: Sequence[tuple[str, str]], readers: Readers) -> None:
    """BadInputError for a follow-up that points back with nothing before it, as the CLI's
    ``ask`` and a chat's first turn have: one naming a paper by its place ("summarize the
    second one"), one pointing back ("them", "And…", "what about…") that would narrow a list
    or count (``said_filters``: "How many of them are from 2019?"), quoted from papers near
    "them" or refused; one asking for the papers of a list before ("list them", "which
    ones?": ``asks_for_list_before``). "Only 2019 papers" stands alone."""
    pointed = [] if history else [where for where, _ in pointed_at(question)]
    if pointed and (pointed[0].group("one") or pointed[0].group("count") or
                    pointed[0].group("end") is not None):  # "summarize the second one"
        raise BadInputError(
            f"“{question.strip()}” points at a paper of an earlier answer "
            f"(“{pointed[0].group(0).strip()}”), and there is none before it: name the paper, "
            "e.g. its title in quotes")
    points = not history and (CONTINUES_RE.search(question) or MAY_POINT_BACK_RE.search(question))
    if points and (said := said_filters(question, readers, fragments=False)):  # not "Only 2019 papers"
        raise BadInputError(
            f"“{question.strip()}” narrows an earlier list or count ({said.describe()}), "
            "and there is none before it: ask for the list itself with its topic, e.g. "
            "“Which papers on graph neural networks are from 2019?”")
    if not history and (asks_for_list_before(question, pointing=True)
                        or chooses_among_before(question)):
        raise BadInputError(
            f"“{question.strip()}” asks for the papers of an earlier list or count, and there "
            "is none before it: ask for the list itself, e.g. “Which papers use capsule "
            "networks?”")
