"""List and trend questions answered over the whole store: every paper judged to answer
(listing.py's screen, the model's relevance check when one is configured and on), written a
line per paper, or counted per year (trends.py). ``Assistant`` hands these questions here;
this class reads its filters, retriever and model through it."""

from __future__ import annotations

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

from assistant.answering import AnswerStream, check_question, final_answer
from assistant.compared_counts import comparison_answer, comparison_lines
from assistant.corpus import Paper
from assistant.count_comparison import GROWTH_ASKED, names_a_method, versus_topics
from assistant.counted_topics import compared_in, count_topic, counted_topic
from assistant.errors import BadInputError
from assistant.filters import merge
from assistant.generation import relevance_reply
from assistant.intent import Intent, read_intent
from assistant.keywords import keyword_weights
from assistant.left_out import tally
from assistant.list_lines import (
    answer_lines,
    as_answer,
    authors_line,
    filter_lines,
    left_out_line,
    outside_line,
    turned_down_line,
)
from assistant.list_records import ListedPaper, ListResult
from assistant.listing import ListScreen, ScreenSettings
from assistant.naming import unmentioned
from assistant.or_counts import or_parts, union_trend
from assistant.paper_order import Ordered, in_year_order, ordered_in
from assistant.ranking import cached_coverage
from assistant.refusals import nearest_reason
from assistant.respelling import asked_respellings, cue_respellings, respelt, respelt_line
from assistant.retrieval import symbolic
from assistant.settings import MAX_LIST_REREAD
from assistant.store_answers import STORE_PHRASE
from assistant.topic_input import bad_topic, unsearchable
from assistant.topic_shares import held_apart, share_line, whole_history
from assistant.topics import WHO_RE, best_sentence, topic_of, topic_terms, written_as_pair
from assistant.trend_replies import apart_line, replies
from assistant.trends import TREND_MAX_REREAD, TrendResult, gap_label_of, table_lines
from assistant.trends import count as count_trend
from assistant.tuning import COMMON_SHARE, JUDGE_BATCH, JUDGE_MISSES, NEAREST_SHOWN, PHRASE_PAPERS
from assistant.types import EARLIEST_YEAR, Answer, Filters, NearPaper, RetrievedPaper
from assistant.windowed import within_years
from assistant.word_runs import compound_runs, term_sequence, writes_phrase

if TYPE_CHECKING:

    from assistant.index import AbstractIndex
    from assistant.keywords import KeywordStats
    from assistant.pipeline import Assistant


# what turns a list's result into a chat follow-up's, and the line saying how (follow_ups.py)
Shaper = Callable[[ListResult, ListScreen], tuple[ListResult, str]]


class ListAnswers:
    """Exhaustive lists and per-year counts for one ``Assistant``."""

    def __init__(self, app: Assistant) -> None:
        self.app = app
        self._counts = CountMemo()  # topics' counts, for the stored papers they counted

    @cached_property
    def list_screen(self) -> ListScreen:
        """The list screen with the shipped thresholds and the configured reading budget
        (``retrieval.list_reread``)."""
        return ListScreen(self.app.index, ScreenSettings(
            max_reread=self.app.settings.retrieval.list_reread))

    def screen_for(self, reread: int | None = None, least: int = 0) -> ListScreen:
        """The list screen reading at most ``reread`` uncertain papers (None: the setting)
        and at least ``least``: one question's own budget (``ask --reread``, the Lists tab,
        the MCP tools' argument). A budget outside 1–MAX_LIST_REREAD is BadInputError."""
        if reread is not None and not 1 <= reread <= MAX_LIST_REREAD:
            raise BadInputError(f"the reading budget {reread} is outside 1–{MAX_LIST_REREAD:,}; "
                                "give a number of uncertain papers to read, e.g. 100")
        budget = max(least, reread or self.list_screen.settings.max_reread)
        if budget == self.list_screen.settings.max_reread:
            return self.list_screen
        return ListScreen(self.app.index, replace(self.list_screen.settings, max_reread=budget))

    def list_papers(self, question: str, filters: Filters | None = None,
                    screen: ListScreen | None = None) -> ListResult:
        """Every stored paper judged to answer a list question (listing.py), within
        ``filters`` and the range the question states, by ``screen`` (the configured one
        when None); the model's relevance check judges the uncertain ones when one is
        configured and the check is on. A filter that leaves no paper is bad input
        (BadInputError), a list of none a valid answer."""
        cues = cue_respellings(check_question(question), self.app.index.keyword_stats())
        question = respelt(check_question(question), cues)  # "Wich papers…": "Which"
        applied, search, ignored = self.app.question_filters(question, filters)
        if ignored or (applied and not self.app.retriever.allowed(applied)):
            raise self.app.no_paper_error(ignored or applied)
        search = STORE_PHRASE.sub(" ", search).strip()  # "…did Bengio publish in the store?"
        topic = topic_of(search, or_question=False)
        lookup = bool(read_intent(search).lookup_terms)  # a lookup asks for words as typed
        respelt_words = cues | asked_respellings(self.app.index, topic, lookup)
        search, topic = respelt(search, respelt_words), respelt(topic, respelt_words)
        named = self.names_a_topic(topic, lookup=lookup) or symbolic(read_intent(search).lookup_terms)  # C++
        # "How many papers were published in 2015?", "What has Bengio published?": every
        # paper of the filter; common words under a range alone ("…from 2019 about this")
        # are a question that lost its topic, one line as before
        if not named and applied and (applied.author or not re.search(r"\w", topic)):
            return self.every_paper_of(question, applied)
        if not named:
            raise BadInputError(unsearchable(topic) or no_topic(topic, self.app.index.keyword_stats()))
        judge = self.judge if self.judged() else None
        result = (screen or self.list_screen).screen(search, applied, judge)
        result.question = question
        result.filters = applied
        result.respelt = respelt_words
        # "Which papers use GPT-4?" lists GPT-2 and GPT-3 papers: the answer says that none
        # of them names what was asked, as a single answer's citations are checked
        result.unmentioned = unmentioned(search, [p.paper for p in result.papers],
                                         self.app.index.surface_text().proper)
        # "Which recent papers use GANs?": every surface (the CLI, --json, the Lists tab,
        # the MCP tools) lists from here, in this order
        return in_year_order(result, oldest=False) if read_intent(question).newest_first else result

    def every_paper_of(self, question: str, filters: Filters | None) -> ListResult:
        """A list that names no topic, only its filters ("Which papers are by Sara Sabour?",
        "How many papers were published in 2015?"), or none (every stored paper: "How many
        papers per year?"): every paper they leave, newest first, each with its opening
        sentence."""
        papers = self.app.index.papers()
        allowed = self.app.retriever.allowed(filters)
        chosen = sorted((papers[pid] for pid in (papers if allowed is None else allowed)),
                        key=lambda p: (-(p.year or 0), p.title.casefold()))
        listed = [ListedPaper(p, 1.0, best_sentence(p, {}), False) for p in chosen]  # the first
        return ListResult(question=question, topic="", papers=listed,  # all of them count
                          papers_in_store=len(papers), papers_in_filter=len(listed),
                          screened=len(listed), reread=0, filters=filters, newest_first=True)

    def of_author_alone(self, intent: Intent, filters: Filters | None = None) -> bool:
        """Whether a question names an author, or ``filters`` do, and the question no topic
        ("Summarize the papers by Sara Sabour"): answered by the author's papers listed,
        since a search for "the papers" finds nothing to answer with."""
        named = any(f and f.author for f in (intent.filters, filters))
        return named and not self.names_a_topic(topic_of(intent.search, or_question=False),
                                                lookup=bool(intent.lookup_terms))

    def names_a_topic(self, topic: str, lookup: bool = False) -> bool:
        """Whether ``topic`` holds a word to search for, and one specific to some papers (in
        at most COMMON_SHARE of the chunks): "the of and" or "study it" hold none, and had
        answered "No paper of the 13,847 answers" as if searched; "use" or "models" only
        words nearly half the abstracts write, and had listed arbitrary papers, unless they
        make a phrase a paper writes (``written_as_one``). A term
        lookup (``lookup``) asks for its words as written, however common: "Which papers
        mention learning?" lists the 7,213 writing it."""
        stats = self.app.index.keyword_stats()
        terms = topic_terms(topic, stats)
        if not terms:
            return False
        joined = [run.joined for run in compound_runs(topic) if run.joined]  # "Q-learning"
        if lookup or any(stats.doc_freq(t) <= COMMON_SHARE * stats.n_docs
                         for t in [*terms, *joined]):
            return True
        return written_as_one(topic, self.app.index)

    def judge(self, question: str, papers: list[Paper]) -> list[bool | None]:
        """The model's relevance check over ``papers``, a few at a time; None for each paper
        of a batch whose reply is not the check's format (prose, a chatty model): it judged
        none of them, and the cross-encoder reads them instead. After JUDGE_MISSES such
        replies in a row the model is not asked again for this list: a model that does not
        follow the check would cost seconds a batch for no verdict. A failed call (the
        endpoint's error, ASSISTANT_LLM_TIMEOUT) ends the list with its one-line error, as
        it ends any model-mode answer."""
        verdicts: list[bool | None] = []
        misses = 0
        for start in range(0, len(papers), JUDGE_BATCH):
            batch = [RetrievedPaper(p, 0.0, p.text, 0.0, 0.0)
                     for p in papers[start:start + JUDGE_BATCH]]
            model = self.app.chat_model
            assert model is not None
            listed = None if misses >= JUDGE_MISSES else relevance_reply(
                model, question, batch, model.deadline())
            misses = misses + 1 if listed is None else 0
            verdicts += [None if listed is None else n in listed
                         for n in range(1, len(batch) + 1)]
        return verdicts

    def list_stream(self, question: str, filters: Filters | None = None,
                    reread: int | None = None, shaped: Shaper | None = None,
                    ordered: Ordered | None = None) -> AnswerStream:
        """A list answer written line by line (the count, then a paper a line), then the
        typed Answer, as ``ask_stream`` gives one (``final_answer`` reads it); ``reread``
        is its reading budget (``screen_for``). A chat follow-up's list is ``shaped``
        (follow_ups.py: the list narrowed, or kept to a topic of its own) with a line; one
        asking for the papers in year order ("the earliest paper on X") is put so (``ordered``:
        that order when the caller has read it already)."""
        asked = question  # what the answer says was asked (the Markdown export's question)
        if shaped is None and (ordered := ordered or ordered_in(question, self.app.index, filters)):
            question, shaped = ordered.question, ordered.shaped  # the chat, Lists tab, MCP, --all
        screen = self.screen_for(reread)
        result = self.list_papers(question, filters, screen)
        result, shape_line = shaped(result, screen) if shaped else (result, "")
        described = result.filters.describe() if result.filters else None
        records = self.app.index.left_out(result.filters)  # read once: a line and the receipt
        notes = (respelt_line(result.respelt) + filter_lines(self.app.index, result.filters, result.question,
                                                             result.written if result.topic else "")
                 + left_out_line(records, result) + outside_line(self.app.index, result)
                 + turned_down_line(result) + shape_line)
        who = bool(WHO_RE.match(question))  # "Who works on X?": the people too
        if who:
            notes += authors_line(result)
        text = ""
        for n, line in enumerate(answer_lines(result, described, authors=who)):
            text += line + (notes if n == 0 else "")
            yield line
            if n == 0 and notes:
                yield notes
        answer = as_answer(result, text.rstrip("\n"), self.app.settings.llm.model)
        answer.question, answer.filters = asked, described
        if answer.receipt is not None:
            (answer.receipt.left_out, answer.receipt.left_out_repeats,
             answer.receipt.left_out_unread) = tally(records)
            answer.receipt.nearest = list_nearest(result, self.app.index)
        yield answer

    def trend_stream(self, question: str, filters: Filters | None = None,
                     reread: int | None = None, noted: Callable[[TrendResult], str] | None = None,
                     shaped: Shaper | None = None) -> AnswerStream:
        """A trend question answered with its topic's papers counted per year (``trends``
        of ``Intent.trend_topic``, under the range the question states): the count line,
        then the table a line at a time, then the typed Answer (its receipt's ``matching``:
        the papers counted; its sources and citations: those papers, newest first); a chat
        follow-up's line (``noted``) after the count line."""
        question = check_question(question)
        if shaped is None:
            trend = self.question_trend(question, filters, reread)
        else:  # "how many of them per year?" after "which of those use X?": what it kept
            screen = self.screen_for(reread)
            result, line = shaped(self.list_papers(question, filters, screen), screen)
            trend, noted = self._counted(result), lambda _: line
        intent = read_intent(question, self.app.index.venues(), self.app.index.author_book())
        how = [] if intent.trend_topic is not None or shaped else [trend.how_counted(), share_line(
            trend, question, intent.filters, filters, self.app.index.newest_year())]
        note = noted(trend).rstrip("\n") if noted else ""  # a chat follow-up's (follow_ups.py)
        people = filter_lines(self.app.index, merge(filters, intent.filters), question, trend.topic).rstrip()
        lines = [f"{trend.summary()}.", *filter(None, (apart_line(trend), people, note)), *how,
                 *replies(trend, intent), *table_lines(trend)]
        for line in lines:
            yield line + "\n"
        yield trend.as_answer(question, "\n".join(lines))

    def compare_stream(self, question: str, filters: Filters | None = None,
                       reread: int | None = None) -> AnswerStream:
        """A question comparing topics by their papers' count (``Intent.compared_topics``:
        "Are there more papers on GANs or on normalizing flows?", or on three) answered with
        each topic counted as a trend is (``_topic_trend``, under the range the question
        states): which has more, each one's count, and all per year (``comparison_lines``).
        Its sources and citations are the papers any topic counted (``comparison_answer``),
        its receipt counts them; its ``read`` is the largest screen."""
        question = check_question(question)
        applied, search, ignored = self.app.question_filters(question, filters)
        if ignored:
            raise self.app.no_paper_error(ignored)
        topics = compared_in(read_intent(search, self.app.index.venues()), self.app.index)
        if topics is None:
            raise BadInputError("the question compares no two topics by their papers' count")
        trends = [self._topic_trend(topic, applied, reread) for topic in topics]
        lines = comparison_lines(*trends, growth=bool(GROWTH_ASKED.search(search)),
                                 ranged=bool(applied and applied.states_years))
        for line in lines:
            yield line + "\n"
        yield comparison_answer(question, lines, *trends)

    def list_answer(self, question: str, filters: Filters | None = None,
                    reread: int | None = None) -> Answer:
        return final_answer(self.list_stream(question, filters, reread))

    def question_trend(self, question: str, filters: Filters | None = None,
                       reread: int | None = None) -> TrendResult:
        """A trend question's counts: its ``Intent.trend_topic`` (or a count question's
        ``count_topic``) under ``filters`` and the range or author the question states."""
        applied, search, ignored = self.app.question_filters(check_question(question), filters)
        if ignored and (applied := held_apart(ignored, question, filters, self.app.index.allowed)) is None:
            raise self.app.no_paper_error(ignored)
        intent = replace(read_intent(search, self.app.index.venues()), filters=applied, question=question)
        topic = counted_topic(intent)
        applied = whole_history(applied, question, filters)  # "… on GANs were published before 2018?"
        topic = search if topic is None else topic  # "": an author's papers, or bad input
        if intent.trend_topic == "" and not applied:  # "How many papers per year?": the store's
            return self._counted(self.every_paper_of(search, None))
        return self._topic_trend(topic, applied, reread)

    def trends(self, topic: str, filters: Filters | None = None,
               reread: int | None = None) -> TrendResult:
        """The papers on ``topic`` (the list screen, reading ``reread`` uncertain papers and
        at least TREND_MAX_REREAD) counted per year, over the years the store holds papers
        of within the filter, and per venue when they come from several. A trend question
        given as the topic (the Lists tab, `assistant trends "How many papers has Bengio
        published per year?"`) is read as one (``question_trend``)."""
        if ordered := ordered_in(topic, self.app.index, filters):  # "the earliest paper on X"
            topic = ordered.question
        asked = read_intent(topic, self.app.index.venues()) if _ASKED.match(topic) else None
        # a question comparing two topics is refused, and a bare "A vs B" naming a method ("GANs
        # vs VAEs" had counted 175 papers, neither topic's nor both's) unless the field writes
        # it as one; a trade-off of concepts ("privacy vs utility", "Privacy vs Utility") is one
        sides, index = None if asked else versus_topics(topic), self.app.index
        named = sides is not None and names_a_method(sides)  # "CNNs vs transformers"
        if asked and compared_in(asked, index) or sides and named and not written_as_pair(*sides, index):
            raise BadInputError(f"“{topic.strip()}” compares two topics; a trend counts one: "
                                "give each its own, or `ask` the question for both at once")
        if asked and (asked.trend_topic is not None or count_topic(asked)):
            return self.question_trend(topic, filters, reread)
        return self._topic_trend(topic, filters, reread)

    def _topic_trend(self, topic: str, filters: Filters | None = None,
                     reread: int | None = None) -> TrendResult:
        """``trends`` of a topic. An empty topic, or a filter no stored paper passes, is
        BadInputError; no topic under a filter counts every paper it leaves."""
        if filters and not topic.strip(" ?.!\"'"):
            if not self.app.retriever.allowed(filters):  # no stored paper: one line, not 0
                raise self.app.no_paper_error(filters)
            return self._counted(self.every_paper_of(topic, filters))
        if refused := bad_topic(topic, lambda: self.names_a_topic(topic)):
            raise refused
        if len(parts := or_parts(topic)) > 1 and all(self.names_a_topic(p) for p in parts):
            return union_trend(topic.strip().rstrip("?!. "),  # either part's papers: or_counts
                               [self._topic_trend(part, filters, reread) for part in parts])
        # a count reads every uncertain paper (a title and a sentence each), not a list's
        # few; it pools every paper holding the whole topic, as a list does
        screen = self.screen_for(reread, TREND_MAX_REREAD)
        screen = ListScreen(self.app.index, replace(screen.settings, deep_pool=None,
                                                    quotes=False))  # no sentence shown
        # the note too: Filters compare without it ("the last 3 years, as the newest …")
        key = (topic, filters, filters.note if filters else None, screen.settings.max_reread,
               self.judged())
        trend = self._counts.once(self.app.index.papers(), key, lambda: self._counted(
            windowed(self, topic, filters, screen)))
        trend.budget = screen.settings.max_reread
        return trend

    def judged(self) -> bool:
        """Whether the model's relevance check (configured and on) judges a list's uncertain papers."""
        return bool(self.app.chat_model and self.app.settings.llm.relevance_check)

    def _counted(self, result: ListResult) -> TrendResult:
        """``result``'s papers counted per year, beside the papers stored each year within
        its filter (an author's papers of no topic: beside all the year's, not his own)."""
        base = result.filters
        if base and not result.topic:  # every paper of the filter: a share of 100% says nothing
            base = replace(base, author=None)
        allowed = self.app.retriever.allowed(base)
        stored = Counter(p.year for pid, p in self.app.index.papers().items()
                         if p.year is not None and (allowed is None or pid in allowed))
        trend = count_trend(result, stored)
        asked = result.filters or Filters()
        trend.filters, trend.named_years = asked.describe() or None, asked.named_years
        trend.stored_within, trend.gap_label = base.describe() if base else None, gap_label_of(base)
        trend.asked_from = asked.years[0] if asked.years and asked.years[0] > EARLIEST_YEAR else None
        trend.left_out, trend.left_out_repeats, trend.left_out_unread = tally(
            self.app.index.left_out(result.filters))
        return trend


# Topics' counts a process keeps (``ListAnswers._topic_trend``): a comparison of two topics
# counts each as its trend does, and a server asked the trend, then the comparison, or two
# comparisons sharing a topic, screens that topic once. By hand: a count holds the stored
# papers it counted, not copies of them.
COUNTS_KEPT = 32
CountKey = tuple[str, Filters | None, str | None, int, bool]  # topic, filters, note, budget, judged


class CountMemo:
    """Topics' counts, each made once for as long as the stored papers are the same (the
    last COUNTS_KEPT kept): a trend and a comparison sharing a topic screen it once."""

    def __init__(self) -> None:
        self._counts: tuple[dict[str, Paper], OrderedDict[CountKey, TrendResult]] = (
            {}, OrderedDict())
        self._lock = threading.Lock()

    def once(self, papers: dict[str, Paper], key: CountKey,
             count: Callable[[], TrendResult]) -> TrendResult:
        """The count of ``key`` over ``papers`` (the store's), made by ``count`` the first
        time, and a copy of it given each time: a chart drawn for one is not another's."""
        with self._lock:
            if self._counts[0] is not papers:  # the store was written: every count anew
                self._counts = (papers, OrderedDict())
            kept = self._counts[1].get(key)
            if kept is not None:
                self._counts[1].move_to_end(key)
        if kept is None:
            kept = count()
            with self._lock:
                if self._counts[0] is papers:  # kept only for the papers it counted over
                    counts = self._counts[1]
                    counts[key] = kept
                    while len(counts) > COUNTS_KEPT:
                        counts.popitem(last=False)
        return replace(kept)
# A topic typed as a question ("How many papers…", "Plot…"), read as `ask` reads it; a
# topic of plain words ("user interest in recommender systems over time") is searched as is
_ASKED = re.compile(r"^\s*(?:how|what|which|when|is|are|has|have|did|plot|chart|count|show"
                    r"|number\s+of)\b", re.I)


def no_topic(topic: str, stats: KeywordStats) -> str:
    """Why a list question names no topic, and what to ask instead: it has no word to
    search for, or only words too common to ("Which papers use models?")."""
    example = "e.g. \"Which papers use diffusion models for planning?\""
    if not topic_terms(topic, stats):
        return f"the question names no topic to list papers on; ask {example}"
    return (f"the question names no topic to list papers on: “{topic.strip(' ?.!')}” has "
            f"only words found in a large share of all abstracts; name a narrower one, "
            f"{example}")


def written_as_one(topic: str, index: AbstractIndex) -> bool:
    """Whether a topic of several common words is a phrase some paper writes, its words
    in order (stopwords aside) among BM25's first papers for it: "learning to learn"
    (32 of the 13.9k write it) is a topic though "learn" is in 45% of the chunks."""
    run = term_sequence(topic)
    if len(run) < 2:
        return False
    scores, papers = index.bm25_paper_scores(topic), index.papers()
    first = sorted(scores, key=lambda pid: -scores[pid])[:PHRASE_PAPERS]
    return any(writes_phrase(run, papers[pid]) for pid in first if pid in papers)


def list_nearest(result: ListResult, index: AbstractIndex) -> list[NearPaper]:
    """A list of none's nearest papers (none when it lists or shows any): the
    NEAREST_SHOWN candidates the screen ranked first, each with why it does not answer
    (``refusals.nearest_reason``: the topic's words it never writes, or what read it as
    not answering, and its figures), as an answer's refusal shows them: "List papers on
    quokka detection" had said "No paper … answers" and shown none it looked at."""
    if result.papers or result.mentions:
        return []
    weights = keyword_weights(result.topic, index.keyword_stats())
    nearest = sorted(result.candidates, key=lambda c: -c.cheap)[:NEAREST_SHOWN]
    return [NearPaper(paper_id=c.paper.paper_id, title=c.paper.title,
                      source=c.paper.source, title_derived=c.paper.title_derived,
                      title_model=c.paper.title_model,
                      reason=nearest_reason(result.topic, c.paper, weights, c.cosine,
                                            cached_coverage(weights, f"{c.paper.title}. {c.paper.text}"),
                                            c.logit))
            for c in nearest]


def windowed(lists: ListAnswers, topic: str, filters: Filters | None, screen: ListScreen) -> ListResult:
    """The papers a count of ``topic`` keeps under ``filters``: within a range of years, the
    whole store's count restricted to it (``windowed.py``), so that a year counts the same
    with or without a range around it; a range no stored paper falls in is BadInputError."""
    applied, search, ignored = lists.app.question_filters(topic, filters)
    if ignored or not (applied and applied.years):
        return lists.list_papers(topic, filters, screen)
    if not (allowed := lists.app.retriever.allowed(applied)):
        raise lists.app.no_paper_error(applied)
    # the topic less the words that stated its range ("deep learning since 2019"), which
    # would be read again as a range (C58)
    whole = lists.list_papers(search, applied.without_years(), screen)
    return within_years(whole, applied, allowed, screen.settings)
