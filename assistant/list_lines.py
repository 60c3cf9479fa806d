"""A list's answer as written: its count line, a line per paper (or per unconfirmed
mention), and the typed ``Answer`` every surface reads (the CLI, ``--json``, the UI, the MCP
tools). Apart from listing.py, which decides the papers: this module only words them."""
from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from assistant.authors import people_counts, short_authors
from assistant.count_lines import searched_note
from assistant.intent import read_intent
from assistant.keywords import query_terms, stem_of
from assistant.left_out import LEFT_OUT_SHOWN, tally, why
from assistant.list_records import ListedPaper, ListResult
from assistant.readings import relation_verb, writes_topic
from assistant.topics import OR_RE
from assistant.tuning import AUTHORS_SHOWN, TURNED_DOWN_SHOWN
from assistant.types import Answer, Citation, Receipt, SourceRef, Verdict
from assistant.word_runs import typed_run

if TYPE_CHECKING:
    from assistant.index import AbstractIndex
    from assistant.left_out import LeftOut
    from assistant.types import Filters

PEOPLE_SHOWN = 5  # stored people a family name alone shares, named on its list


def _shown(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


KEPT_UNREAD_MARK = "(kept unread)"  # ends the line of a paper kept unread past the budget
TITLED_MARK = "(kept for its title)"  # ends the line of a paper its title kept, unread


def answer_lines(result: ListResult, filters: str | None = None, authors: bool = False
                 ) -> Iterator[str]:
    """The list answer as it is written: the count first, then one line per paper in the
    list's order ("[3] Title (2019): “its sentence”"; with ``authors``, for "Who works on
    X?", "[3] Title — A. One, B. Two (2019): …"), each ending with a newline; a list of none
    says so, then gives its unconfirmed mentions, if any, the same way."""
    where = f" ({filters})" if filters else ""
    topic = result.topic.rstrip(" ?!.")  # the question's mark is no word of it: “insect hearing?”
    searched = searched_note(result.screened, result.reread, result.unread_left_out,
                             unscreened=result.unscreened)  # none kept
    if result.mentions and result.lookup:
        count = len(result.mentions)
        yield (f"No paper of the {result.papers_in_filter:,}{where} writes “{topic}” "
               f"as asked; {searched}. {count:,} {'writes' if count == 1 else 'write'} a word "
               f"of the same stem, listed unconfirmed{result.order}:\n")
    elif result.mentions:
        count = len(result.mentions)
        yield (f"No paper of the {result.papers_in_filter:,}{where} was read as answering "
               f"“{topic}”; {searched}. {count:,} {'names' if count == 1 else 'name'}"
               f" it in full, listed unconfirmed{result.order}:\n")
    elif not result.papers:
        yield (f"No paper of the {result.papers_in_filter:,}{where} answers "
               f"“{topic}”; {searched}.\n")
        return
    else:
        yield f"{result.count_line(filters or '')}.\n"
    for n, listed in enumerate(result.papers or result.mentions, start=1):
        title = _shown(listed.paper.title, 160) + listed.paper.title_mark
        year = f" ({listed.paper.year})" if listed.paper.year else ""
        if authors and listed.paper.authors:
            year = f" — {short_authors(listed.paper.authors)}{year}"
        unread = (f" {KEPT_UNREAD_MARK}" if listed.kept_unread
                  else f" {TITLED_MARK}" if listed.titled else "")
        yield f"[{n}] {title}{year}: “{_shown(listed.sentence)}” [{n}]{unread}\n"


def turned_down_line(result: ListResult) -> str:
    """The papers the reading turned down though they write the topic as asked, counted,
    the first TURNED_DOWN_SHOWN named: the reader judges what a paper is about, and a
    paper using the thing in passing reads as about something else. A run: "Which papers
    from 2019 use transformers?" listed 9 with nothing said of 17 that write it (XLNet,
    ViLBERT, FastSpeech), each read at a logit near −10; "" when there are none."""
    if result.mentions or OR_RE.search(result.written):  # listed unconfirmed; or one of
        return ""  # the "or" parts, not the whole: a paper writing "GANs" of "GANs or VAEs"
    listed = {p.paper.paper_id for p in result.papers}
    asked, words = _topic_words(result)
    topic, typed = " ".join(words), typed_run(tuple(words))
    down = [c.paper for c in sorted(result.candidates,
                                    key=lambda c: -(c.logit if c.logit is not None else -1e9))
            if c.reader is not None and c.judged is False and c.paper.paper_id not in listed
            and writes_topic(asked, result.written, c.paper)  # the nearest to kept first
            and typed.search(f"{c.paper.title}. {c.paper.text}")]
    if not down:
        return ""
    one, shown = len(down) == 1, down[:TURNED_DOWN_SHOWN]
    named = "; ".join(f"“{_shown(p.title, 80)}”{f' ({p.year})' if p.year else ''}" for p in shown)
    return (f"{len(down):,} more {'paper writes' if one else 'papers write'} “{topic}” but "
            f"{'was' if one else 'were'} read as not answering it: {named}"
            f"{f'; and {len(down) - len(shown):,} more' if len(down) > len(shown) else ''}.\n")


def narrowing_line(earlier: Collection[str], now: Collection[str],
                   allowed: AbstractSet[str] | None, filters: str, what: str = "list",
                   now_what: str | None = None) -> str:
    """How a chat follow-up's list or count (the ids ``now``: "How many of them are from
    2019?") stands to the ``what`` it narrows (the ids ``earlier``): how many of those pass
    its ``filters`` (``allowed`` their ids) and how many more reading within them alone
    kept (``now_what``: "list" or "count", the ``what`` unless given). The earlier list
    reads 30 uncertain papers of the whole store, the narrowed one as many of the filter's,
    so it finds papers the first left unread: "5 papers of year 2019" after a list holding
    2 of 2019 had read as a contradiction."""
    before, kept = set(earlier), set(now)
    within = before if allowed is None else before & allowed
    count = len(before)
    line = (f"Of the {count:,} {'paper' if count == 1 else 'papers'} the earlier {what} gave, "
            f"{len(within):,} {'passes' if len(within) == 1 else 'pass'} this filter ({filters})")
    if dropped := len(within - kept):
        line += f", {dropped:,} of them not kept on this reading"
    if more := len(kept - before):
        done = "listed" if (now_what or what) == "list" else "counted"
        line += f"; {more:,} more {('are', 'is')[more == 1]} {done} from reading the filter's papers alone"
    return line + ".\n"


def authors_line(result: ListResult) -> str:
    """For a question asking who works on a topic ("Who works on federated learning with
    non-i.i.d. data?"), the authors with most of the listed papers, so that the answer names
    people and not only papers; "" when no author has two of them (each line names its
    paper's authors, ``answer_lines``)."""
    counts = people_counts(listed.paper.authors for listed in result.papers)  # spellings joined
    if not counts or counts.most_common(1)[0][1] < 2:  # each line names its own
        return ""
    shown = ", ".join(f"{name} ({n:,})" for name, n in counts.most_common(AUTHORS_SHOWN) if n > 1)
    return (f"Authors with the most of these papers: {shown}; {len(counts):,} "
            f"{'author' if len(counts) == 1 else 'authors'} in all.\n")


def as_answer(result: ListResult, text: str, model: str | None = None) -> Answer:
    """The typed answer of a list: every listed paper (or, in a list of none, every
    unconfirmed mention) a source and a citation (its quoted sentence highlighted), with the
    counts in its receipt (``matching``: the listed papers alone); labelled by what judged it:
    "llm" (with ``model``'s name) only when the model judged at least one paper, else
    "extractive" (the cross-encoder and the cheap screen, offline)."""
    mode = "llm" if result.model_judged else "extractive"
    shown = result.papers or result.mentions  # the unconfirmed mentions of a list of none
    sources, citations = cited(shown)
    # a list of none says why, as a refused answer does (a scripter's run: null, where a
    # singular "Which paper mentions X?" refused gave its check)
    unconfirmed = f"; {len(result.mentions):,} name its topic, unconfirmed" if result.mentions else ""
    refusal = None if result.papers else Verdict(
        check="list_screen", reason=f"None of the {result.screened:,} papers screened was read as "
        f"answering it{unconfirmed}.")
    return Answer(question=result.question, answer=text, refusal=refusal,
                  mode=mode, model=model if mode == "llm" else None,
                  sources=sources, citations=citations, unmentioned=result.unmentioned,
                  receipt=Receipt(in_store=result.papers_in_store,
                                  in_filter=result.papers_in_filter, read=result.screened,
                                  cited=len(shown), matching=len(result.papers),
                                  unconfirmed=len(result.mentions),
                                  unread_left_out=result.unread_left_out,
                                  kept_unread=result.kept_unread, titled=result.titled,
                                  unscreened=result.unscreened),
                  timings_ms={"total": round(result.seconds * 1000, 1)})


def cited(shown: Sequence[ListedPaper]) -> tuple[list[SourceRef], list[Citation]]:
    """``shown`` as an answer's sources and citations, numbered in order, each citation its
    quoted sentence highlighted (a list's, a trend's counted papers; none when it quotes
    none, as a trend's papers: a trend's citations had held the highlight "")."""
    numbered = list(enumerate(shown, start=1))
    return ([SourceRef.of(n, p.paper, p.score, p.kept_unread, p.titled) for n, p in numbered],
            [Citation(n=n, paper_id=p.paper.paper_id, title=p.paper.title, source=p.paper.source,
                      text=p.paper.text, highlights=[p.sentence] if p.sentence else [])
             for n, p in numbered])


def people_line(index: AbstractIndex, filters: Filters | None) -> str:
    """For an author filter of a family name alone that several stored people share,
    the line naming them ("“Bengio” names 3 stored authors: Yoshua Bengio (85 papers),
    …"), so that a list of all of them is not taken for one's; "" otherwise."""
    if not filters or not filters.author:
        return ""
    people = index.author_book().people(filters.author)
    if len(people) < 2:
        return ""
    shown = [f"{name} ({n:,} paper{'s' if n != 1 else ''})" for name, n in people[:PEOPLE_SHOWN]]
    more = f" and {len(people) - PEOPLE_SHOWN:,} more" if len(people) > PEOPLE_SHOWN else ""
    return (f"“{filters.author}” names {len(people):,} stored authors: {', '.join(shown)}"
            f"{more}; give a full name to keep to one.\n")


def filter_lines(index: AbstractIndex, filters: Filters | None, question: str = "", written: str = "") -> str:
    """What a list or count says of its filter before its papers: the people a family name
    stands for (``people_line``), the papers of no year a range leaves out (``undated_line``)."""
    return people_line(index, filters) + undated_line(index, filters, question, written)


def undated_line(index: AbstractIndex, filters: Filters | None, question: str = "", written: str = "") -> str:
    """For a filter of years, the line saying how many stored papers writing the topic
    (``written``, as ``question`` asks it: ``writes_topic``; any, with none) it leaves out for
    having no year: R11's "How many papers on Boltzmann machines since 2010?" had said 0 of
    a store whose 25 such papers are all undated, and said nothing of them; "" otherwise."""
    if not filters or not filters.states_years:
        return ""
    rest = filters.without_years()
    asked = read_intent(question).search if written else ""
    undated = sum(1 for paper in index.papers().values() if paper.year is None and rest.allows(paper)
                  and (not written or writes_topic(asked, written, paper)))
    if not undated:
        return ""
    one, on = undated == 1, f" writing “{written.strip(' ?.!')}”" if written else ""
    return (f"{undated:,} stored paper{'' if one else 's'}{on} {'has' if one else 'have'} no year, so "
            "no range of years holds them; ask without the years to include them.\n")


def _topic_words(result: ListResult) -> tuple[str, list[str]]:
    """The list's question as searched, and its topic's words as written less the verb the
    question says them with ("use"), the filters' words out: not the topic's first word
    ("capsule" of "Which papers on capsule networks?" had been read as one)."""
    asked = read_intent(result.question).search
    words = result.written.strip(" ?.!").split()
    if len(words) > 1 and stem_of(words[0].lower()) == relation_verb(asked):
        words = words[1:]
    return asked, words


def outside_line(index: AbstractIndex, result: ListResult) -> str:
    """For a list of none under a filter, how many stored papers outside it write the topic
    (``writes_topic``): R12's "what about the Chinese restaurant process?" after a list of
    Zoubin Ghahramani's papers had said "No paper of the 54 …" and no more, where 14 papers
    of the store write it. "" otherwise."""
    if result.papers or not result.filters or not result.topic:
        return ""
    asked, words = _topic_words(result)
    holders = [ids for ids in index.term_papers(query_terms(result.written)).values() if ids]
    papers, rarest = index.papers(), min(holders, key=len, default=frozenset())
    outside = sum(1 for pid in rarest if (paper := papers.get(pid)) is not None
                  and not result.filters.allows(paper) and writes_topic(asked, result.written, paper))
    if not outside:
        return ""
    one = outside == 1
    return (f"{outside:,} stored paper{'' if one else 's'} outside the filter ({result.filters.describe()}) "
            f"write{'s' if one else ''} “{' '.join(words)}”; ask without it to list "
            f"{'it' if one else 'them'}.\n")


def left_out_line(records: Sequence[LeftOut], result: ListResult) -> str:
    """The ``records`` of the store's files the list's filter allows (``AbstractIndex.left_out``)
    and so not stored, named, for a list of every paper of a filter (an author's, with no
    topic: "2 more records of the store's files have no abstract and are not stored: “…”
    (1988, neurips_abstract_1988.csv#6), …"; "How many papers did Joshua Alspector publish?"
    had said 4 where the files hold 6), or for a list on a topic, those whose title writes
    the topic as one (``writes_topic``): "What did Harris Drucker write about boosting?" had
    left his "Boosting Decision Trees", its abstract another record's, unnamed (R10). ""
    otherwise (a topic cannot be judged without an abstract: the receipt counts them)."""
    if result.topic:  # a record is judged by its title alone, as the list reads a paper's words
        asked = read_intent(result.question).search
        records = [r for r in records if r.title and writes_topic(asked, result.written, r.as_paper())]
    if (not result.filters and not result.topic) or not records:
        return ""
    named = [r.said() for r in records[:LEFT_OUT_SHOWN]]
    more = f" and {len(records) - LEFT_OUT_SHOWN:,} more" if len(records) > LEFT_OUT_SHOWN else ""
    one, counts = len(records) == 1, tally(records)
    titled = f" whose title{'' if one else 's'} name{'s' if one else ''} the topic" if result.topic else ""
    if counts.left_out_repeats or counts.left_out_unread:  # each says why it is not stored
        return (f"{len(records):,} more record{'' if one else 's'} of the store's files{titled} "
                f"{'is' if one else 'are'} not stored ({why(*counts)}): "
                f"{', '.join(named)}{more}.\n")
    return (f"{len(records):,} more record{'' if one else 's'} of the store's files{titled} "
            f"{'has' if one else 'have'} no abstract and so {'is' if one else 'are'} not "
            f"stored: {', '.join(named)}{more}.\n")
