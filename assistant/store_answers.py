"""Questions about the store itself ("How many papers are in the store?", "What years does
the collection cover?"), answered with its own counts: papers, years and venues, as the
receipt counts them.

Why a module of its own: such a question names no topic, only the store, and had been read
as a list on the topic "store" ("4 papers match": papers that write "store"); the answer is
the catalogue's own figures, which no search finds.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from assistant.answering import AnswerStream, check_question
from assistant.corpus import Paper
from assistant.intent import SHARE_WORDS, asks_a_share
from assistant.keywords import STOPWORDS
from assistant.left_out import tally, why
from assistant.trends import share_text
from assistant.types import Answer, Filters, Receipt

if TYPE_CHECKING:
    from assistant.index import AbstractIndex
    from assistant.pipeline import Assistant

# Words that name the store ("in the store", "the indexed papers", "in your collection")
STORE_WORDS = frozenset("""store stored collection corpus index indexed database library
archive catalogue catalog""".split())
# Words that ask for its size or span, and the papers' nouns
ABOUT_WORDS = frozenset("""many much number count total altogether overall big large size
hold holds held contain contains contained cover covers covered span spans spanned include
includes included currently now all entire whole year years venue venues range paper papers
abstract abstracts article articles publication publications document documents""".split())
# that papers are there at all ("How many papers exist?", "…were published in the store?")
BEING_WORDS = frozenset("exist exists existed publish published available".split())
# ...or came out, said of the papers themselves: after their noun or an auxiliary ("How many
# papers by Bengio appeared in 2016?", "…were presented in 2010?": a run's 0), not of a
# topic's thing ("How many papers on datasets released?": a review's)
CAME_OUT_WORDS = frozenset("appeared presented accepted released".split())
ABOUT_WORDS |= BEING_WORDS | CAME_OUT_WORDS
# ...asked at a question's end ("How many papers on GANs exist?"), not inside a topic
# ("…on publicly available datasets?")
_CAME_OUT = rf"(?:{'|'.join(sorted(CAME_OUT_WORDS))}|came\s+out)"
_AUXILIARY = r"(?:were|was|are|is|have\s+been|has\s+been|got)"  # "were presented", "got accepted"
BEING_END = re.compile(rf"(?:^|\s)(?:{'|'.join(sorted(BEING_WORDS))})\s*[?.!]*\s*$"
                       rf"|(?:^\s*|(?:^|\s){_AUXILIARY}\s+){_CAME_OUT}\s*[?.!]*\s*$", re.I)
# ...and when its year or venue follows it in the question ("How many papers on GANs released
# in 2019?": the papers', a review's), the word alone ending the question read without them
DATED_CAME_OUT = re.compile(rf"\b(?i:{_CAME_OUT})\s+(?i:in|at|to|during|since|before|after|between|from"
                            r"|until|over|within)\s+(?:(?i:the|early|late|mid)\s+)?(?:\d|[A-Z]|(?i:last|past)\b)")
# ...taken off with its auxiliary ("…on GANs got accepted in 2019?": a review's "GANs got")
CAME_OUT_END = re.compile(rf"\s(?:(?:{_AUXILIARY}|get|been)\s+)?"
                          rf"{_CAME_OUT}(?:\s+(?:in|at|to|for))?\s*[?.!]*\s*$", re.I)  # its venue taken
COUNT_WORDS = frozenset({"many", "number", "count", "total"})
# ...or a share of them ("What percentage of papers are from 2020?": the store's share)
ABOUT_WORDS |= SHARE_WORDS
PAPER_NOUNS = frozenset({"paper", "papers", "abstract", "abstracts", "article", "articles",
                         "publication", "publications"})
VENUES_NAMED = 5  # venues named with their counts; the rest counted
# the store named inside a question ("…on GANs are in the store?", "…does the store have
# …?"): after a preposition or before "have", and only the words no topic writes so
# ("the index" and "the database" may be a topic's: "index coding", "query the database")
_NAMED_STORE = (r"(?:(?:the|this)\s+(?:store|collection|corpus)|(?:your|my|our)\s+(?:"
                + "|".join(sorted(STORE_WORDS)) + "))")
STORE_PHRASE = re.compile(rf"\b(?:(?:in|within|inside|from)\s+{_NAMED_STORE}"
                          rf"|{_NAMED_STORE}\s+(?:have|has|hold|holds|contain|contains))\b", re.I)


def about_store(search: str, stated: Filters | None = None) -> bool:
    """Whether ``search`` (a question less its stated range) asks about the store itself:
    its words, stopwords aside, all name the store, its size or span, or papers, and one
    names the store ("How many papers are in the store?", "What years does the corpus
    cover?"), or it only counts papers ("How many papers do you have?"); a store's word
    alone asks what it is ("What is a database?"). Papers only counted under a range or
    author the question states ("How many papers did Ada Lovelace publish?", ``stated``)
    are those papers, listed (``ListAnswers.every_paper_of``), as is any author's. Any topic word
    ("How many papers in the store use GANs?") makes it a list question."""
    said = set(re.findall(r"[a-z]+", search.lower()))
    words = said - set(STOPWORDS)
    if not words <= STORE_WORDS | ABOUT_WORDS or not said & ABOUT_WORDS:  # "What is a database?"
        return False
    # a share of the papers of a range or an author the question states, no topic named: the
    # store's ("What % of papers are by Yoshua Bengio?" had been a search for "percentage")
    shares = (words <= SHARE_WORDS | BEING_WORDS | {"papers"} and asks_a_share(search)  # "%": no word
              and bool(said & PAPER_NOUNS))
    if stated and stated.author and not shares:
        return False
    counts_papers = (not stated and bool(words) and words <= COUNT_WORDS | BEING_WORDS
                     and bool(words & COUNT_WORDS) and bool(said & PAPER_NOUNS))
    return bool(words & STORE_WORDS) or counts_papers or shares


def store_stream(index: AbstractIndex, question: str, filters: Filters | None) -> AnswerStream:
    """The store's counts as one answer: how many papers it holds (within ``filters``: "How
    many papers from 2019 are in the store?"), of which years and venues, and the records of
    its files left out for having no abstract; its receipt holds the same counts."""
    papers = index.papers()
    allowed = index.allowed(filters) if filters else None
    chosen = [p for pid, p in papers.items() if allowed is None or pid in allowed]
    records = index.left_out(filters)
    asks_share = asks_a_share(question) or bool(set(re.findall(r"[a-z]+", question.lower())) & SHARE_WORDS)
    line = store_line(chosen, len(papers), filters, asks_share)
    if asks_share and filters:
        line += part_shares(index, len(chosen), filters)
    counts = tally(records)
    if records:
        line += (f" {len(records):,} record{'s' * (len(records) != 1)} of its files "
                 f"{'were' if len(records) != 1 else 'was'} not stored: {why(*counts)}.")
    yield line + "\n"  # counted from the catalogue: no paper read, none cited
    described = filters.describe() if filters else None
    yield Answer(question=question, answer=line, mode="extractive", filters=described,
                 receipt=Receipt(in_store=len(papers), in_filter=len(chosen), read=0, cited=0,
                                 **counts._asdict()))


def part_shares(index: AbstractIndex, chosen: int, filters: Filters) -> str:
    """For a share asked under a filter of several parts, the ``chosen`` papers' share of each
    part's papers alone (" That is 100.0% of the 2,333 papers of year 2021 and 16.8% of the
    13,872 of venue NeurIPS."): "What percentage of papers from 2021 are in NeurIPS?" and "…
    of NeurIPS papers are from 2021?" ask different ones (a review's); "" for one part."""
    parts = [p for p in (Filters(years=filters.years, named_years=filters.named_years, recent=filters.recent),
                         Filters(venue=filters.venue), Filters(author=filters.author),
                         Filters(excluded=filters.excluded, excluded_author=filters.excluded_author)) if p]
    if len(parts) < 2:
        return ""
    counts = [len(allowed) if (allowed := index.allowed(p)) is not None else len(index.papers())
              for p in parts]
    each = [f"{share_text(chosen / n)} of the {n:,} {'papers ' * (i == 0)}"
            f"{'' if (said := p.describe()).startswith('not ') else 'of '}{said}"  # "… not by X"
            for i, (p, n) in enumerate(zip(parts, counts, strict=True)) if n]
    return f" That is {' and '.join(each)}." if each else ""


def store_line(chosen: list[Paper], stored: int, filters: Filters | None, share: bool = False) -> str:
    """"The store holds 13,872 papers, of 1987–2025, from 2 venues: NeurIPS (13,850),
    Nature (22)." (of ``filters``: "1,234 of the store's 13,872 papers are of year 2019,
    …"; with their ``share`` when asked: "1,898 of the store's 13,872 papers (13.7%) …")."""
    years = sorted({p.year for p in chosen if p.year is not None})
    shown = f" ({share_text(len(chosen) / stored)})" if share and filters and stored else ""
    head = (f"{len(chosen):,} of the store's {stored:,} papers{shown} are of {filters.describe()}"
            if filters else f"The store holds {stored:,} papers")
    if not chosen:
        return f"{head}."
    span = "" if not years or (filters and filters.years) else \
        f", of {years[0]}" + (f"–{years[-1]}" if len(years) > 1 else "")
    undated = sum(p.year is None for p in chosen)
    if undated and years:
        span += f" ({undated:,} of no year)"
    venues = Counter(p.venue or "no venue" for p in chosen).most_common()
    named = ", ".join(f"{v} ({n:,})" for v, n in venues[:VENUES_NAMED])
    more = f" and {len(venues) - VENUES_NAMED:,} more" if len(venues) > VENUES_NAMED else ""
    noun = "venue" if len(venues) == 1 else "venues"
    return f"{head}{span}, from {len(venues):,} {noun}: {named}{more}."


def store_question_stream(app: Assistant, question: str, filters: Filters | None = None) -> AnswerStream:
    """A question about the store itself ("How many papers are in the store?") answered
    with its counts within the range it states and ``filters`` (store_answers.py)."""
    applied, _, ignored = app.question_filters(check_question(question), filters)
    if ignored or (applied and not app.retriever.allowed(applied)):
        raise app.no_paper_error(ignored or applied)
    return store_stream(app.index, question, applied)
