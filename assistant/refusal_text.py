"""What a refusal says beyond "no": the names of the question no abstract writes, the
filter's papers when only those were searched, and the records of the store's files not
stored that the question asks of.

Why apart from pipeline.py: these are the words of a "no", read by every surface; the
pipeline decides when to refuse (refusals.py the checks), this module how it reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.answering import NO_ANSWER
from assistant.keywords import query_terms
from assistant.name_checks import OF_A_RECORD, in_longer_name, titled_papers
from assistant.refusals import quoted_names
from assistant.retrieval import HybridRetriever
from assistant.types import Filters


def no_sources_text(retriever: HybridRetriever, search: str, applied: Filters | None) -> str:
    """The refusal of a question no paper answers (``no_answer``), and the filter's papers
    when only those were searched."""
    text = no_answer(retriever.unknown_names(search, filters=applied),
                     retriever.unwritten_names(search, filters=applied))
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
    if not named and (unknown := retriever.unstored_title(search, filters=applied)):
        title, nearest = unknown
        near = f"; the nearest stored title is “{nearest}”" if nearest else ""
        return (f"No stored paper is titled “{title}”, nor does an abstract write it{near}: "
                "what follows is from papers sharing its words.\n")
    return "".join(f"{records[key].said()} is a record of the store's files not stored: "
                   f"{records[key].reason}.\n" for key in named)


def no_answer(unknown_names: Sequence[str], unwritten_names: Sequence[str] = ()) -> str:
    """The refusal, saying which names of the question no indexed abstract uses, and which
    (of several words) no indexed abstract writes as a name."""
    text = NO_ANSWER
    if unknown_names:
        text += f" No indexed abstract mentions {quoted_names(unknown_names)}."
    if unwritten_names:
        text += f" No indexed abstract writes {quoted_names(unwritten_names)}."
    return text
