"""What a refusal says beyond "no": the names of the question no abstract writes (and whose
they are when stored authors have them), the filter's papers when only those were searched,
and the records of the store's files not stored that the question asks of.

Why apart from pipeline.py: these are the words of a "no", read by every surface; the
pipeline decides when to refuse (refusals.py the checks), this module how it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from assistant.answering import NO_ANSWER
from assistant.authors import AuthorBook, name_words, split_authors
from assistant.intent import read_intent
from assistant.keywords import query_terms
from assistant.left_out import LeftOut
from assistant.name_checks import OF_A_RECORD, in_longer_name, titled_papers
from assistant.refusals import quoted_names
from assistant.retrieval import HybridRetriever
from assistant.types import Filters


def no_sources_text(retriever: HybridRetriever, search: str, applied: Filters | None) -> str:
    """The refusal of a question no paper answers (``no_answer``), and the filter's papers
    when only those were searched."""
    unknown = retriever.unknown_names(search, filters=applied)
    text = no_answer(unknown, retriever.unwritten_names(search, filters=applied))
    # a stored author's name no abstract writes, whether or not a paper found is theirs
    # (``unknown_names`` lets those through: "Krizhevsky et al.'s network")
    corpus = retriever.index.surface_text()
    text += authors_named(retriever.index.author_book(),
                          [name for name in read_intent(search).proper_names if not corpus.knows(name)])
    if applied:
        matching = len(retriever.allowed(applied) or ())
        of = "" if applied.describe().startswith("not ") else "of "  # "papers not writing “X”"
        text += f" (Searched only the {matching:,} papers {of}{applied.describe()}.)"
    return text


def unstored(retriever: HybridRetriever, search: str, applied: Filters | None) -> str:
    """A line for each record of the store's files not stored that the question asks of by
    its title, where it is and why; "" for none. "Who wrote Boosting Decision Trees?" had
    been answered from another paper, and a question of a record left out a bare "no",
    without a word of the record (a run's). Asked of: its title written as
    ``name_checks.titled_papers`` reads one, every keyword of the question but one the
    title's, and no capitalised word beside it ("What is Neural Architecture Search?" asks
    of no 1988 record "Neural Architecture", a review). Else a line for a title the question
    types that no stored paper has (``name_checks.unstored_title``), with the nearest."""
    records = {r.source: r for r in retriever.index.left_out(applied) if r.title}
    asked = set(query_terms(search)) - OF_A_RECORD  # "What year was X published?" asks of X
    named = [key for key in titled_papers({k: r.as_paper() for k, r in records.items()}, search)
             if len(asked - set(query_terms(records[key].title))) <= 1
             and not in_longer_name(records[key].title, search)]
    papers, filtered = retriever.index.papers(), bool(applied and applied.author)

    def their_titles(names: list[str]) -> list[str]:  # the filter's papers, or those by ``names``
        by = applied if filtered else Filters(author=" or ".join(names))
        return [papers[pid].title for pid in retriever.allowed(by) or () if pid in papers]

    named += [key for key, record in records.items()
              if key not in named and by_and_titled(record, asked, their_titles, filtered)]
    if not named and (unknown := retriever.unstored_title(search, filters=applied)):
        title, nearest = unknown
        near = f"; the nearest stored title is “{nearest}”" if nearest else ""
        return (f"No stored paper is titled “{title}”, nor does an abstract write it{near}: "
                "what follows is from papers sharing its words.\n")
    return "".join(f"{records[key].said()} is a record of the store's files not stored: "
                   f"{records[key].reason}.\n" for key in named)


def by_and_titled(record: LeftOut, asked: set[str], their_titles: Callable[[list[str]], list[str]],
                  filtered: bool) -> bool:
    """Whether a question asks of ``record`` by its authors and its title's words: it names
    the family name of one of its authors (or the filter is an author's, which ``record``
    passes: ``filtered``), every keyword but one is its title's or its authors', and no
    stored title of those authors' (``their_titles`` of their names) holds the words of its
    title the question asks: those papers would answer it. "What did Drucker and Cortes
    find about boosting decision trees?" had been a bare "no", their record's abstract
    another record's (R10); a given name, or words their stored papers are titled with, had
    named records of "What did John Smith find about speech recognition?" and "What did Koch
    find about motion?" (C63, C65); another Zhang's paper on job-shop scheduling, counted as
    theirs, had hidden Zhang and Dietterich's record (C66)."""
    title = set(query_terms(record.title))
    families = {name: words[-1] for name in split_authors(record.authors) if (words := name_words(name))}
    named = [name for name, family in families.items() if set(query_terms(family)) & asked]
    held = asked & title
    if not held or not (named or filtered):
        return False
    if len(asked - title - set(query_terms(" ".join(families.values())))) > 1:
        return False
    return not any(held <= set(query_terms(stored)) for stored in their_titles(named))


def no_answer(unknown_names: Sequence[str], unwritten_names: Sequence[str] = ()) -> str:
    """The refusal, saying which names of the question no indexed abstract uses, and which
    (of several words) no indexed abstract writes as a name."""
    text = NO_ANSWER
    if unknown_names:
        text += f" No indexed abstract mentions {quoted_names(unknown_names)}."
    if unwritten_names:
        text += f" No indexed abstract writes {quoted_names(unwritten_names)}."
    return text


def authors_named(book: AuthorBook, names: Sequence[str]) -> str:
    """A refusal's sentence for each name no abstract writes that stored authors have ("What
    did Drucker and Cortes find about …?", read as no author's papers as no stored paper is
    by both: R10's refusal had read as if the store knew no Cortes): whose it is, and how
    to ask for their papers."""
    said = ""
    for name in names:
        people = book.people(name) if book.holds(name) else []
        if people:
            who = ", ".join(f"{person} ({n:,} {'paper' if n == 1 else 'papers'})" for person, n in people[:2])
            said += f" “{name}” is a stored author's name: {who}; “Which papers by {name} …?” lists theirs."
    return said
