"""A chat follow-up that works on the answer before it: one narrowing its list or count
("Which papers use capsule networks?", then "How many of them are from 2019?", "what about
2018?", "only the ones by Hinton"), asked again under its filters; one keeping the listed
papers that also answer a topic of its own ("which of those use dynamic routing?"); one
pointing at a paper by its place ("summarize the second one"), asked of that paper.

Why: offline, a follow-up is joined to the question before it and given the cited answer of a
few abstracts. A list's follow-up that states a year or an author asks for the same list
narrowed, or its count, which five abstracts cannot give: "How many of them are from 2019?"
had been answered with a comparison of two papers, where the list holds four of 2019.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace as replaced_result
from typing import TYPE_CHECKING

from assistant.answering import AnswerStream, asked_intent, final_answer
from assistant.authors import split_authors
from assistant.compared_counts import counted_by_several
from assistant.facets import read_misses
from assistant.filters import merge, years_in_words
from assistant.follow_up_phrases import (
    order_asked,
    their_papers,
)
from assistant.intent import read_intent
from assistant.keywords import keyword_weights, query_terms
from assistant.list_answers import Shaper
from assistant.list_lines import narrowing_line
from assistant.list_records import ListResult
from assistant.listing import ListScreen
from assistant.name_checks import titled_papers
from assistant.narrowing import (
    HOW_MANY,
    JOINED_TURNS,
    STORE_ASKED,
    Narrowed,
    Readers,
    at_least,
    check_anchored,
    in_order,
    listed_again,
    narrowed,
    per_year,
    shared_within,
    swapped,
    within_list,
)
from assistant.places import resolved
from assistant.store_answers import store_question_stream
from assistant.subjects import spelled_out
from assistant.topics import best_sentence
from assistant.trends import TrendResult, share_text
from assistant.types import Answer, Filters

if TYPE_CHECKING:
    from assistant.pipeline import Assistant



EARLIER_LIST = "the earlier list gave"  # what a follow-up's facet line counts among, by default


class FollowUps:
    """Routes a chat follow-up that works on the answer before it (this module's readings),
    reading the store, lists and answers through ``app``."""

    def __init__(self, app: Assistant) -> None:
        self.app = app
        # answers given again for a place's sources ("the second one"), the last few
        self._given: OrderedDict[tuple[object, ...], Answer] = OrderedDict()
        self._lock = threading.Lock()  # the UI answers several chats at once

    def given_again(self, question: str, history: Sequence[tuple[str, str]],
                    *options: object) -> Answer:
        """The answer ``question`` got after ``history`` (``options``: its top_k, filters,
        every and reading budget), kept for the next few places asked of it: each would
        otherwise ask the model again, and each turn back once more."""
        key = (question, tuple(history), *options)
        with self._lock:
            if key in self._given:
                self._given.move_to_end(key)
                return self._given[key]
        answer = final_answer(self.app.answer_stream(question, history, *options))
        with self._lock:
            self._given[key] = answer
            while len(self._given) > GIVEN_KEPT:
                self._given.popitem(last=False)
        return answer

    def titled(self, question: str) -> list[str]:
        """The papers ``question`` names by title, not a list's ("who wrote X?": "it" is X)."""
        return [] if read_intent(question).wants_list else titled_papers(self.app.index.papers(), question)

    def by_its_authors(self, question: str, history: Sequence[tuple[str, str]]) -> str | None:
        """"What other papers did they write?" after a question naming one paper by title, as
        its authors' papers ("they" had been searched as "write": a run's). None otherwise."""
        if not history or (asked := their_papers(question)) is None:
            return None
        if len(ids := self.titled(history[-1][0])) != 1:
            return None
        names = [n.title() if n == n.lower() else n  # "xiaobo liang" read as a name, not words
                 for n in split_authors(self.app.index.papers()[ids[0]].authors)]
        lead = "How many papers" if HOW_MANY.match(question) else "Which papers"
        return f"{lead} are by {' or '.join(names)}{' ' + asked if asked else ''}?" if names else None

    @property
    def readers(self) -> Readers:
        book = self.app.index.author_book()
        return Readers(lambda q: asked_intent(q, self.app.index), self.app.lists.names_a_topic,
                       lambda name: book.holds(name) and (" " in name or book.more_a_name(name)),
                       self.by_its_authors, book.may_name)

    def route(self, question: str, history: Sequence[tuple[str, str]], top_k: int | None,
              filters: Filters | None, every: bool, reread: int | None
              ) -> tuple[str, Sequence[tuple[str, str]], AnswerStream | None]:
        """The question and history to answer ("summarize the second one" as the paper's title,
        with none), and the stream answering a follow-up on the list before, or None."""
        app, readers = self.app, self.readers
        if (pointed := resolved(question, history, lambda q, h: self.given_again(
                q, h, top_k, filters, every, reread), lambda q: len(self.titled(q)) == 1)) is not None:
            question, history = pointed, ()
        elif (spelled := spelled_out(question, history)) is not None:  # "which papers use it?"
            question = spelled
        elif authored := self.by_its_authors(question, history):  # "what else did they write?"
            question, history = authored, ()
        check_anchored(question, history, readers)
        if every:
            return question, history, None
        if shared := shared_within(question, readers):  # "What share of papers on GANs use CelebA?"
            return question, history, self.faceted(shared, filters, reread)
        if (trend := per_year(question, history, readers)) and trend.also and not trend.keep:  # both again
            return question, history, app.lists.compare_stream(compared(trend.also),
                                                                merge(filters, trend.filters), reread)
        if trend:  # "how many of them per year?"
            return question, history, app.lists.trend_stream(
                trend.question, merge(filters, trend.filters), at_least(reread, trend.least),
                shaped=self.kept(trend.also, self.chained(trend.keep)) if trend.keep else None)  # "which of…"
        if again := listed_again(question, history, readers):
            kept = self.kept(again.also, self.chained(again.keep))
            return question, history, app.lists.list_stream(
                again.question, merge(filters, again.filters), at_least(reread, again.least),
                kept if (oldest := order_asked(question)) is None else in_order(kept, oldest))
        if narrow := narrowed(question, history, readers):
            return question, history, self.narrowed_stream(narrow, filters, reread)
        if (within := within_list(question, history, readers)) and within.counted:  # after the store's
            return question, history, app.lists.trend_stream(
                within.question, merge(filters, within.filters), reread)
        if within:
            return question, history, app.lists.list_stream(
                within.question, merge(filters, within.filters),
                at_least(reread, within.least), self.kept(within.also, self.chained(within.keep)))
        if (other := swapped(question, history, readers)) and other.keep:  # after a facet's share
            return question, history, self.faceted(other, filters, reread)
        if other:  # "what about dropout?"
            stream = app.lists.trend_stream if other.counted else app.lists.list_stream
            return question, history, stream(other.question, merge(filters, other.filters), reread)
        return question, history, None

    def faceted(self, shared: Narrowed, filters: Filters | None, reread: int | None) -> AnswerStream:
        """A share of a topic's papers answering a facet (``narrowing.shared_within``): the
        topic counted as its count is, kept to the papers answering the facet, with their share."""
        return self.app.lists.trend_stream(
            shared.question, merge(filters, shared.filters), at_least(reread, shared.least),
            shaped=self.chained(shared.keep, f"on “{shared.question}”"))

    def narrowed_stream(self, narrow: Narrowed, filters: Filters | None, reread: int | None
                        ) -> AnswerStream:
        """The answer to a follow-up narrowing the list or count before (``narrowed``): a
        count counted again under its filters, with how it stands to the count before (two
        topics' counts compared again); a list listed again, with how it stands to the list
        before (a comparison's topics united first)."""
        app, shown = self.app, merge(filters, narrow.filters)
        if narrow.question == STORE_ASKED and not narrow.keep:  # "2019?" after the store's count
            return store_question_stream(app, "How many papers are in the store?", shown)
        if narrow.counted and narrow.also and not narrow.keep:  # a comparison, narrowed
            return app.lists.compare_stream(compared(narrow.also), shown, reread)
        if narrow.counted:  # a count narrowed by a topic counts what that keeps, with its line
            earlier = merge(filters, narrow.earlier)
            shaped = self.narrowing(earlier, narrow.keep, also=narrow.also) if narrow.keep else None
            noted = None if shaped else self.count_narrowing(narrow.question, earlier, shown, reread)
            return app.lists.trend_stream(narrow.question, shown, reread, noted, shaped)
        before = "count" if narrow.from_count else "list"
        shaper = self.chained(narrow.keep) if narrow.answered else self.narrowing(
            merge(filters, narrow.earlier), narrow.keep, before, narrow.also)
        return app.lists.list_stream(narrow.question, shown, at_least(reread, narrow.least), shaper)

    def joined(self, question: str, history: Sequence[tuple[str, str]]) -> str:
        """A follow-up that leans on the question before, joined to it, and to the ones
        before that while each leans on its own (at most JOINED_TURNS); a fragment that
        narrowed a list ("only the ones from 2018") joined to that list's question, with its
        filters in words ("what about its limitations?" had been searched with the
        fragment's words, a paper on poker, and had lost "only the ones by Hinton")."""
        joined = question
        for turn in reversed(range(max(0, len(history) - JOINED_TURNS), len(history))):
            asked = history[turn][0]
            if narrow := narrowed(asked, history[:turn], self.readers):
                return f"{narrow.question} {joined} {in_words(narrow.filters)}"
            joined = f"{asked} {joined}"
            if not read_intent(asked).follow_up:
                break
        return joined

    def narrowing(self, earlier: Filters | None, keep: tuple[str, ...] = (), before: str = "list",
                  also: tuple[str, ...] = ()) -> Shaper:
        """The narrowed list as screened, with how it stands to the list before
        (``list_lines.narrowing_line``), that list read again under ``earlier``; both kept
        to the papers answering ``keep`` (a "which of those use X?" before: the list before
        had been the whole one, "of the 11 papers" where the chat had shown 3)."""
        kept = self.kept(also, self.chained(keep))  # a comparison's topics united first

        def shaped(result: ListResult, screen: ListScreen) -> tuple[ListResult, str]:
            result, each = kept(result, screen)
            each = each if also else ""  # a comparison's: each topic's count within the filter
            if result.filters is None:
                return result, each
            earlier_list = kept(self.app.lists.list_papers(result.question, earlier, screen), screen)[0]
            allowed = self.app.retriever.allowed(result.filters)
            return result, each + narrowing_line([p.paper.paper_id for p in earlier_list.papers],
                                                 [p.paper.paper_id for p in result.papers], allowed,
                                                 result.filters.describe(), before, "list")
        return shaped

    def count_narrowing(self, question: str, earlier: Filters | None, shown: Filters | None,
                        reread: int | None) -> Callable[[TrendResult], str]:
        """The line saying how a narrowed count stands to the count before, that count
        made again under ``earlier``: a trend of graph neural networks had counted 88 for
        2021, and "How many of them are from 2021?" 101, with nothing said."""
        def noted(trend: TrendResult) -> str:
            if shown is None:
                return ""
            before = self.app.lists.question_trend(question, earlier, reread)
            return narrowing_line(before.paper_ids, trend.paper_ids,
                                  self.app.retriever.allowed(shown), shown.describe(), "count")
        return noted

    def chained(self, topics: tuple[str, ...], of: str = EARLIER_LIST) -> Shaper:
        """The papers answering each of ``topics`` kept (``answering``), their lines one
        after another."""
        shapers = [self.answering(topic, of) for topic in topics]

        def shaped(result: ListResult, screen: ListScreen) -> tuple[ListResult, str]:
            lines = ""
            for shaper in shapers:
                result, line = shaper(result, screen)
                lines += line
            return result, lines
        return shaped

    def kept(self, also: tuple[str, ...], shaper: Shaper) -> Shaper:
        """``shaper``, after a comparison's topics (``also``, ``Narrowed.also``) are united
        (``united``): "which of those are from 2019?" had kept its first topic alone."""
        return self.united(also, shaper) if also else shaper

    def united(self, topics: tuple[str, ...], then: Shaper) -> Shaper:
        """The papers each of ``topics`` counted, in turn, as a comparison of their counts
        counted them (a run's: "list them" after "Are there more papers on GANs or on
        normalizing flows?", 237 and 71, had listed 235 papers read as one "or" topic), with
        a line counting each; then shaped by ``then``."""
        def shaped(result: ListResult, screen: ListScreen) -> tuple[ListResult, str]:
            trends = [self.app.lists.trends(topic, result.filters) for topic in topics]
            stats, listed = self.app.index.keyword_stats(), {}
            for trend, topic in zip(trends, topics, strict=True):  # a count quotes none: each its own
                weights = keyword_weights(topic, stats)
                listed |= {p.paper.paper_id: replaced_result(p, sentence=best_sentence(p.paper, weights))
                           for p in trend.counted if p.paper.paper_id not in listed}
            each = ", ".join(f"{t.total:,} on “{topic}”" for t, topic in zip(trends, topics, strict=True))
            both = counted_by_several(*trends)  # a paper three counted: once
            where = "on both" if len(topics) == 2 else "on more than one"
            # each topic's screen, in all: the largest alone had read fewer than the union
            # matched (C58: "91 papers … match; 74 screened")
            read = {"reread": sum(t.reread for t in trends), "screened": sum(t.screened for t in trends),
                    "unread_left_out": sum(t.unread_left_out for t in trends)}
            united, line = then(replaced_result(result, papers=list(listed.values()),
                                                topic=" or ".join(topics), **read), screen)
            return united, f"The papers each topic compared counted: {each}; {both:,} {where}.\n{line}"
        return shaped

    def answering(self, topic: str, of: str = EARLIER_LIST) -> Shaper:
        """The listed papers that also answer ``topic`` (a facet each must write, or the
        cross-encoder read as answering: ``facets.read_misses``), with a line saying so and
        their share of the papers ``of`` (the earlier list, or a share question's topic)."""
        def shaped(result: ListResult, screen: ListScreen) -> tuple[ListResult, str]:
            missed = read_misses([(topic,)], [p.paper for p in result.papers], self.app.index)
            # each quoting its sentence on this topic most, the list's before it less: "which
            # of them use reinforcement learning?" had quoted each GAN paper's GAN sentence
            stats = self.app.index.keyword_stats()
            weights = {t: w * EARLIER_TOPIC_WEIGHT for t, w in keyword_weights(result.topic, stats).items()}
            weights |= keyword_weights(topic, stats)
            kept = [replaced_result(p, sentence=best_sentence(p.paper, weights)) if p.sentence else p
                    for p in result.papers if p.paper.paper_id not in missed]
            asked = re.sub(r"^(?:also\s+)?(?:use|uses|using|employ|in|on|about|for|with)\s+|^also\s+", "",
                           topic.strip(" ?.!"), flags=re.I)  # "which of them also use FFHQ?": “FFHQ”
            count, one = len(result.papers), len(kept) == 1
            share = f" ({share_text(len(kept) / count)})" if count else ""
            these = (f"{'this' if one else 'these'} {len(kept):,}{share} {'writes' if one else 'write'}"
                     f" “{asked}” or {'is' if one else 'are'} read as answering it"
                     if kept else f"none writes “{asked}” or is read as answering it")
            # counted among the earlier list's: "6 papers of the 12 match", not "of the 13,872"
            joined = "” and “".join(filter(None, [result.topic.rstrip(" ?.!"), asked]))
            return replaced_result(result, papers=kept, papers_in_filter=count, topic=joined), (
                f"Of the {count:,} {'paper' if count == 1 else 'papers'} {of}, {these}.\n")
        return shaped


def compared(topics: tuple[str, ...]) -> str:
    """Topics' counts compared, as a question ("Are there more papers on GANs or on VAEs?",
    "…on GANs, on VAEs or on flows?")."""
    return f"Are there more papers on {', on '.join(topics[:-1])} or on {topics[-1]}?"


EARLIER_TOPIC_WEIGHT = 0.3  # the earlier list's topic in a narrowed list's quoted sentence
GIVEN_KEPT = 8  # answers kept for the places asked of them (FollowUps.given_again)


def rewrite_kept(rewritten: str, question: str, history: Sequence[tuple[str, str]],
                 joined: str | None = None) -> bool:
    """Whether a model's standalone rewrite of a follow-up (``Assistant.standalone_question``)
    may be searched: a question in the conversation's words, every keyword of it in the
    follow-up or the turns before but one ("Who are the authors of X?" for "who wrote
    it?"), and, for a follow-up the offline reading ``joined`` to the questions it leans
    on, one of the keywords the join adds. Gemma 270M had written back the prompt ("Rewrite
    the researcher's last message as one standalone question…"), SmolLM2 135M "Researcher:"
    or a subject of its own ("…the `count` function in Python"), each searched and refused,
    or answered from another paper; and "What problems does it face?" after "What is
    federated learning?" without its subject, answered from a paper on faces."""
    terms = set(query_terms(rewritten))
    said = set(query_terms(" ".join([question, *(f"{q} {a}" for q, a in history)])))
    added = set(query_terms(joined)) - set(query_terms(question)) if joined else set()
    return bool(terms & said) and len(terms - said) <= 1 and (not added or bool(terms & added))


def in_words(filters: Filters) -> str:
    """``filters`` as a question states them, for ``stated`` to read again: "papers by
    Geoffrey Hinton in 2018" ("only the ones by Geoffrey Hinton", a fragment's words,
    states no author inside a longer question, and its name then reads as a subject)."""
    said = [f"papers by {filters.author}"] if filters.author else ["papers"]
    if years := years_in_words(filters):
        said.append(years)
    if filters.venue:
        said.append(f"in {filters.venue}")
    return " ".join(said)
