"""The one object the CLI, the UI and the evals share: retrieve, then answer.

``Assistant.ask_stream`` yields text as it is written and ends with the typed ``Answer``;
``Assistant.ask`` returns just the Answer. The mode follows the settings: an endpoint and
model configured → the model answers; otherwise the extractive composer does.
"""

from __future__ import annotations

import re
import time
from collections.abc import Generator, Sequence
from functools import cached_property
from pathlib import Path

from assistant.answering import (
    AnswerStream,
    asked_intent,
    check_question,
    final_answer,
    folded,
    number_sources,
    prompt,
)
from assistant.asides import asides, without_asides
from assistant.chat_prompt import check_fits
from assistant.citesafe import answer as cite_safe_answer
from assistant.claims import ClaimChecker
from assistant.counted_topics import compared_in, count_topic
from assistant.errors import BadInputError
from assistant.extractive import compose
from assistant.filters import merge, no_paper_of, of_recent, set_aside_filters, with_spellings
from assistant.follow_ups import FollowUps, rewrite_kept
from assistant.framing import unframed
from assistant.generation import ChatModel, helpful_sources
from assistant.index import AbstractIndex, IngestReport, ProgressFn
from assistant.intent import read_intent
from assistant.keywords import keyword_weights
from assistant.left_out import tally
from assistant.list_answers import ListAnswers
from assistant.list_records import ListResult
from assistant.name_checks import titled_outside
from assistant.naming import unmentioned
from assistant.paper_order import ordered_in
from assistant.readings import unwritten_own_words
from assistant.refusal_text import no_sources_text, unstored
from assistant.refusals import nearest_reason
from assistant.respelling import asked_respellings, respelt, respelt_line
from assistant.retrieval import HybridRetriever, Method, term_holders
from assistant.settings import Settings
from assistant.similar import SimilarResult, similar
from assistant.store_answers import about_store, store_question_stream
from assistant.term_lookups import lookup_terms
from assistant.titles import TitlesReport, write_titles
from assistant.trends import TrendResult
from assistant.tuning import NEAREST_SHOWN
from assistant.types import (
    Answer,
    Filters,
    NearPaper,
    Receipt,
    Retrieval,
    RetrievedPaper,
    Verdict,
)

History = Sequence[tuple[str, str]]  # (question, answer) pairs, oldest first
# The model's relevance check (ASSISTANT_LLM_RELEVANCE_CHECK) as a refusal's verdict.
BARE_WORDS = 2  # a query of this many words at most, none a question's, is a bare keyword
# what a chat's user says that is no keyword, leading a bare query ("thanks", "hello there",
# "define dropout": a question, which had listed the 2 papers writing "define" and "dropout")
CHAT_WORDS = frozenset("thanks thank thx hi hello hey help ok okay yes no bye cheers define"
                       .split())
RELEVANCE_CHECK = Verdict(check="relevance_check",
                          reason="The model read none of the papers found as answering the question.")


class Assistant:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()

    @cached_property
    def index(self) -> AbstractIndex:
        return AbstractIndex(self.settings)

    @cached_property
    def retriever(self) -> HybridRetriever:
        return HybridRetriever(self.index, self.settings.retrieval)

    @cached_property
    def claim_checker(self) -> ClaimChecker:
        """Scores a model answer's sentences against the abstracts they cite."""
        return ClaimChecker.for_index(self.index)

    @cached_property
    def chat_model(self) -> ChatModel | None:
        return ChatModel(self.settings.llm) if self.settings.llm.enabled else None

    @property
    def mode_label(self) -> str:
        model = self.settings.llm.model
        return f"model {model}" if self.chat_model and model else "extractive (offline)"

    # ------------------------------------------------------------ corpus

    def ingest(self, paths: Sequence[Path], rebuild: bool = False,
               progress: ProgressFn | None = None, upload: bool = False) -> IngestReport:
        """Sync the index with ``paths``; ``upload`` for files handed over by the UI (known
        by name, and never removing papers another file stored)."""
        if rebuild and "index" not in self.__dict__:  # opened even if another model built it
            self.__dict__["index"] = AbstractIndex(self.settings, rebuilding=True)
        return self.index.ingest(paths, rebuild=rebuild, progress=progress, upload=upload)

    def ensure_corpus(self, show_progress: bool = True) -> IngestReport | None:
        """Ingest the seeds into an empty index, so that a first question works; says so on
        stderr, with a progress bar (the one place the CLI, the UI and the evals do this)."""
        if not self.index.is_empty():
            return None
        if self.index.rebuild_under_way():
            raise BadInputError(f"the index at {self.index.where} is being rebuilt by `assistant "
                                "ingest --rebuild` in another process: ask again once it is done")
        from assistant.console import err, progress_bar

        seeds = self.settings.data.seeds
        if not seeds.is_dir() or not any(seeds.glob("*.txt")):
            raise BadInputError(f"the index is empty and the seeds folder {seeds} is missing or "
                                "holds no .txt files; reinstall the package, point "
                                "ASSISTANT_DATA_SEEDS at a folder of abstracts, or run "
                                "`assistant ingest FILES` first")
        err.print(f"The index is empty: ingesting {seeds} first.")
        with progress_bar(show_progress) as progress:
            report = self.ingest([seeds], progress=progress)
        if not report.papers_total:
            raise BadInputError(f"the seeds folder {seeds} gave no abstracts ("
                                + "; ".join(str(s) for s in report.skipped[:3])
                                + "); point ASSISTANT_DATA_SEEDS at a folder of abstracts")
        return report

    # ------------------------------------------------------------ answering

    def retrieve(self, question: str, top_k: int | None = None,
                 method: Method = "hybrid", filters: Filters | None = None
                 ) -> list[RetrievedPaper]:
        return self.retriever.retrieve(question, top_k=top_k, method=method, filters=filters)

    def question_filters(self, question: str, filters: Filters | None = None
                         ) -> tuple[Filters | None, str, Filters | None]:
        """The filter to answer ``question`` under (``filters`` given explicitly win, field
        by field, over a range the question states; an exclusion with its other spellings),
        the question to search with (less the words that stated its range), and the range it
        states that no stored paper falls in ("in ICML 2025" in a store of NeurIPS papers):
        not applied, and the answer says so; with ``filters``, the two together."""
        intent = read_intent(question, self.index.venues(), self.index.author_book())
        filters, said = (with_spellings(f, self.index) for f in (filters, intent.filters))  # SVM
        rest = intent.search
        if said and said.recent is not None:  # "in the last three years"
            said = of_recent(said, self.index.newest_year())
        if said and not self.retriever.allowed(said):
            return filters, rest, said
        merged = merge(filters, said)
        if filters and said and not self.retriever.allowed(merged):  # only the two together
            return filters, rest, merged
        return merged, rest, None

    def no_paper_error(self, filters: Filters) -> BadInputError:
        """The one-line error for ``filters`` no stored paper passes (``filters.no_paper_of``)."""
        papers = self.index.papers().values()
        return no_paper_of(filters, self.index.venues(), (paper.authors for paper in papers),
                           (paper.year for paper in papers if paper.year is not None),
                           self.index.left_out(filters))

    def standalone_question(self, question: str, history: History,
                            deadline: float | None = None) -> str:
        """A follow-up made self-contained: rewritten by the model (within ``deadline``) in the
        conversation's words (``rewrite_kept``), else joined to the questions it leans on
        ("and how does it differ…": ``FollowUps.joined``), else asked as it is."""
        if not history:
            return question
        joined = self.follow_ups.joined(question, history) if read_intent(question).follow_up \
            else question
        if self.chat_model is None:
            return joined
        turns = "\n".join(f"Researcher: {q}\nAssistant: {a}" for q, a in history[-3:])
        text = prompt("condense_question").format(history=turns, question=question)
        lines = self.chat_model.complete([{"role": "user", "content": text}], 120, deadline).splitlines()
        rewritten = lines[0].strip() if lines else ""
        return rewritten if rewrite_kept(rewritten, question, history[-3:], joined) else joined

    def ask_stream(self, question: str, history: History = (), top_k: int | None = None,
                   filters: Filters | None = None) -> AnswerStream:
        started = time.perf_counter()
        question = check_question(question)  # too long or empty: refused before any call
        deadline = None  # ASSISTANT_LLM_TIMEOUT bounds the answer from its first model call
        if self.chat_model is not None:
            check_fits(question, self.settings.llm)
            checks = bool(history) or self.settings.llm.relevance_check
            deadline = self.chat_model.deadline() if checks else None
        standalone = self.standalone_question(question, history, deadline)
        standalone = bare_lookup(standalone, self.index, follow_up=bool(history))
        applied, search, ignored = self.question_filters(standalone, filters)
        if applied and not self.retriever.allowed(applied):  # exit 2, as lists and trends do
            raise self.no_paper_error(applied)
        read = asked_respellings(self.index, search, bool(read_intent(search).lookup_terms))
        search, note, applied = noted(self.retriever, search, read, applied, filters)
        if note:
            yield note
        retrieval = self.retriever.find(search, top_k=top_k, filters=applied)
        found, refusal = retrieval.papers, retrieval.refusal
        if found and self.chat_model is not None and self.settings.llm.relevance_check:
            found = helpful_sources(self.chat_model, standalone, found, deadline)
            refusal = None if found else RELEVANCE_CHECK
        retrieved = time.perf_counter()
        sources = number_sources(found)
        if not sources:
            answer = Answer(question=question, answer=no_sources_text(self.retriever, search, applied),
                            mode="llm" if (by_model := refusal is RELEVANCE_CHECK) else "extractive",
                            model=self.settings.llm.model if by_model else None,  # its check alone
                            refusal=refusal)
            yield answer.answer
        elif self.chat_model is not None:
            answer = yield from _relay(cite_safe_answer(
                respelt(standalone, read), sources, self.chat_model, deadline, checker=self.claim_checker,
                fallback=lambda kept: compose(search, kept, self.index)))
        else:
            answer = yield from _relay(compose(search, sources, self.index))
        answer.answer = note + answer.answer
        if sources:
            cited = {c.n for c in answer.citations}
            papers = [s.found.paper for s in sources if s.n in cited]
            answer.unmentioned = list(dict.fromkeys([
                *unmentioned(search, papers, self.index.surface_text().proper),
                *(unwritten_own_words(search, papers, self.index) if papers else [])]))
            answer.unsure = retrieval.unsure and bool(cited)  # a reply citing nothing has no quotes
        answer.question = question
        answer.standalone_question = standalone if standalone != question else None
        answer.filters = applied.describe() if applied else None
        if ignored:
            answer.filters = (f"{answer.filters or 'none'} (not applied: no indexed paper of "
                              f"{ignored.describe()}, as the question states)")
        answer.receipt = self.receipt(applied, retrieval, found, answer, search)
        done = time.perf_counter()
        answer.timings_ms = {
            "retrieve": round((retrieved - started) * 1000, 1),
            "generate": round((done - retrieved) * 1000, 1),
            "total": round((done - started) * 1000, 1),
        }
        yield answer

    def receipt(self, applied: Filters | None, retrieval: Retrieval,
                kept: list[RetrievedPaper], answer: Answer, question: str = "") -> Receipt:
        """How much ``answer`` looked at: the store, what the filter left, the candidates
        retrieval scored, the papers cited; for a refusal, the papers ranked nearest and why
        each does not answer (retrieval's reasons, or, when the model's relevance check
        kept none or the model's answer says the sources do not answer, the model's verdict
        with each paper's own reading, ``refusals.nearest_reason``): a model's "no" shows
        what it read, so the user can judge it."""
        in_store = len(self.index.papers())
        allowed = self.retriever.allowed(applied)
        nearest = retrieval.nearest
        model_refused = not answer.citations and not answer.sources
        if retrieval.papers and (not kept or model_refused):
            weights = keyword_weights(question, self.index.keyword_stats())
            first = retrieval.papers[:NEAREST_SHOWN]
            # each paper's own cosine: ``dense`` is 0.0 for one the dense search did not return
            cosines = self.index.paper_cosines(self.index.query_vector(question),
                                               [f.paper.paper_id for f in first])
            nearest = [(f, "The model read it as not answering. " + nearest_reason(
                question, f.paper, weights, cosines.get(f.paper.paper_id, f.dense), f.coverage))
                for f in first]
        return Receipt(
            in_store=in_store, in_filter=in_store if allowed is None else len(allowed),
            read=retrieval.read, cited=len({c.paper_id for c in answer.citations}),
            **tally(self.index.left_out(applied))._asdict(),
            nearest=[] if answer.citations else [
                NearPaper(paper_id=f.paper.paper_id, title=f.paper.title, source=f.paper.source,
                          title_derived=f.paper.title_derived,
                          title_model=f.paper.title_model, reason=reason)
                for f, reason in nearest[:NEAREST_SHOWN]])

    def ask(self, question: str, history: History = (), top_k: int | None = None,
            filters: Filters | None = None) -> Answer:
        return final_answer(self.ask_stream(question, history, top_k, filters))

    # ------------------------------------------------------------ lists (list_answers.py)

    @cached_property
    def lists(self) -> ListAnswers:
        return ListAnswers(self)

    @cached_property
    def follow_ups(self) -> FollowUps:
        return FollowUps(self)

    def list_papers(self, question: str, filters: Filters | None = None) -> ListResult:
        return self.lists.list_papers(question, filters)

    def list_stream(self, question: str, filters: Filters | None = None,
                    reread: int | None = None) -> AnswerStream:
        return self.lists.list_stream(question, filters, reread)

    def list_answer(self, question: str, filters: Filters | None = None,
                    reread: int | None = None) -> Answer:
        return self.lists.list_answer(question, filters, reread)

    def trends(self, topic: str, filters: Filters | None = None,
               reread: int | None = None) -> TrendResult:
        return self.lists.trends(topic, filters, reread)

    def answer_stream(self, question: str, history: History = (), top_k: int | None = None,
                      filters: Filters | None = None, every: bool = False,
                      reread: int | None = None) -> AnswerStream:
        """``routed_stream`` of the question less what no abstract answers (``asides``: how a
        paper was received, instructions to the assistant), under a line naming it, and less
        its chat framing (``unframed``: "hey", "roughly how many", "pull up everything on
        X"), in a chat whose turns are read so too (``without_asides``)."""
        aside = asides(check_question(question))  # as searched: "Ｉｇｎｏｒｅ" is "Ignore" (a review's)
        history = [(unframed(asked), said) for asked, said in without_asides(history)]
        return with_note(aside.note(), question, self.routed_stream(unframed(aside.question), history, top_k,
                         set_aside_filters(self.index, aside.set_aside, filters), every, reread))

    def routed_stream(self, question: str, history: History = (), top_k: int | None = None,
                      filters: Filters | None = None, every: bool = False,
                      reread: int | None = None) -> AnswerStream:
        """The answer a question asks for: a trend or count question ("How many papers on
        X?", ``count_topic``) its topic's papers per year (``trend_stream``), two topics'
        counts compared ("GANs vs VAEs", ``compared_in``) both so (``compare_stream``), a
        list question (or ``every``) every paper that answers (``list_stream``), and so a term
        lookup (``bare_lookup`` too) several papers hold (``several_hold``), any other the
        cited answer (``ask_stream``), and a chat follow-up working on the answer before
        ("How many of them are from 2019?", "summarize the second one": ``FollowUps.route``)
        that list or count narrowed, or the paper it names.
        ``reread``: a list's or trend's budget (None: setting)."""
        question, history, routed = self.follow_ups.route(question, history, top_k, filters,
                                                           every, reread)
        if routed is not None:  # a follow-up on the list before ("what about 2018?")
            return routed
        ordered = None if every else ordered_in(question, self.index, filters)
        if ordered:  # "the earliest paper on X", "Hinton's latest paper" (not "GANs' …")
            return self.lists.list_stream(question, filters, reread, ordered=ordered)
        intent = asked_intent(question, self.index)
        if about_store(intent.search, intent.filters) and not every:  # "How many … in the store?"
            return store_question_stream(self, question, filters)
        if compared_in(intent, self.index) is not None and not every:
            return self.lists.compare_stream(question, filters, reread)
        if (intent.trend_topic is not None or count_topic(intent)) and not every:
            return self.lists.trend_stream(question, filters, reread)
        looked_up = bare_lookup(question, self.index, follow_up=bool(history))
        if looked_up != question:  # "Yoshua Bengio": "Which papers are by Yoshua Bengio?"
            intent = asked_intent(looked_up, self.index)
        if (every or intent.wants_list or self.lists.of_author_alone(intent, filters)
                or self.several_hold(folded(looked_up), filters)):
            return self.lists.list_stream(looked_up, filters, reread)
        return self.ask_stream(question, history, top_k, filters)

    def several_hold(self, question: str, filters: Filters | None = None) -> bool:
        """Whether ``question`` is a term lookup ("Which paper mentions Tetris?") whose words
        several papers within the filters hold (``HybridRetriever.lookup_holders``): answered
        by the list of them all (one asking for "the paper" does not know there are six)."""
        applied, search, ignored = self.question_filters(question, filters)
        if ignored or not read_intent(search).lookup_terms or (
                applied and not self.retriever.allowed(applied)):
            return False
        search = respelt(search, asked_respellings(self.index, search, lookup=True))  # "zebrafsh"
        return len(self.retriever.lookup_holders(search, applied)) > 1

    def write_titles(self, progress: ProgressFn | None = None) -> TitlesReport:
        """Model-written titles for the papers whose input gave none (titles.py)."""
        if self.chat_model is None:
            raise BadInputError("titles are written by a model, and none is configured: set "
                                "ASSISTANT_LLM_BASE_URL and ASSISTANT_LLM_MODEL (see "
                                ".env.example); the titles derived from the abstracts stay")
        return write_titles(self.index, self.chat_model, self.settings.llm.model or "model",
                            progress)

    def similar(self, target: str, top_k: int = 5) -> SimilarResult:
        """The ``top_k`` papers most like a stored paper (locator or id) or free text."""
        return similar(self.index, target, k=top_k)


def bare_lookup(question: str, index: AbstractIndex | None = None, follow_up: bool = False
                ) -> str:
    """A bare keyword ("ucbzero", "Gaussian splatting": two words at most, each with a
    letter, none a stopword) as the lookup it is, "Which paper mentions ucbzero?": it had
    been refused, its one paper among the nearest (issue 36 item 0: a term lookup is never
    refused when a paper holds it). Any other question as it is; a topic given to a list or
    a trend is no question, and is never read so. With ``index``, only words its papers
    hold as typed (a rare one too: "veraging" is its paper's word); else a stored author's
    name ("Yoshua Bengio") is "Which papers are by Yoshua Bengio?", and any other query goes
    the question's way: "transfomers" respelt, a word no paper holds refused as typed, not
    as "mentions …". A chat's follow-up ("Limitations?", ``follow_up``) is never a lookup,
    nor "thanks" (``CHAT_WORDS``)."""
    words, name = question.split(), question.strip().rstrip("?.!")
    asked = f"Which paper mentions {name}?"
    terms = lookup_terms(asked)
    if follow_up or not (0 < len(words) <= BARE_WORDS and len(terms) == len(words)
            and all(re.search(r"[^\W\d_]", word) for word in words)):
        return question
    if words[0].lower().strip("!.?,") in CHAT_WORDS:  # "thanks", "hello": no keyword
        return question
    if index is None:
        return asked
    holders, as_typed = term_holders(index, terms)
    if holders and as_typed:
        return asked
    return f"Which papers are by {name}?" if index.author_book().holds(name) else question


def noted(retriever: HybridRetriever, search: str, read: dict[str, str], applied: Filters | None,
          given: Filters | None) -> tuple[str, str, Filters | None]:
    """The question as searched (respelt as ``read``), the lines heading its answer (how
    it was read, the records not stored it asks of, a titled paper outside the years it
    states), and the filter to answer under (``titled_outside``: not those years)."""
    applied, outside = titled_outside(retriever.index.papers(), search, applied, given)
    note = respelt_line(read) + unstored(retriever, search, applied) + outside
    return respelt(search, read), note, applied


def with_note(note: str, question: str, events: AnswerStream) -> AnswerStream:
    """``events`` under ``note`` (streamed first, and heading the final answer), the answer
    keeping the ``question`` as asked (not as searched: less its asides and its framing)."""
    if note:
        yield note
    for event in events:
        if isinstance(event, Answer):
            event.answer, event.question = note + event.answer, question.strip()
        yield event


def _relay(events: AnswerStream) -> Generator[str, None, Answer]:
    """Pass text deltas on and return the final Answer (``answer = yield from _relay(...)``)."""
    for event in events:
        if isinstance(event, Answer):
            return event
        yield event
    raise RuntimeError("the answer stream ended without an answer")
