"""The core data types every surface shares: what was found, and what an answer is.

Kept apart from retrieval and storage so that importing an ``Answer`` (the CLI's JSON, the
UI, the evals, a program using the assistant) loads neither Chroma nor LlamaIndex; this
module imports only pydantic and the stdlib-only ``corpus``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from assistant.authors import written_by
from assistant.corpus import Paper
from assistant.venues import EARLIEST_YEAR, LATEST_YEAR

# The keys of the documented ``assistant ask --json`` object (README, tests/test_cli.py).
PUBLIC_JSON_KEYS = frozenset({
    "question", "answer", "mode", "citations", "sources", "timings_ms", "usage",
    "dropped_citations", "uncited", "truncated", "claims", "filters", "unmentioned", "unsure",
    "refusal", "cite_mode", "model_reply", "unchecked", "off_question", "receipt",
})
OPEN_START, OPEN_END = 0, 9999  # a year range open at one end ("before 2000", "since 2019")


@dataclass(frozen=True)
class Filters:
    """Which papers a question may be answered from: a year range (both ends included), or
    only some years within it (``named_years``: "in 2019 or 2021"), a venue or collection
    (case-insensitive) and an author (``authors.written_by``). Applied before ranking
    (assistant/filters.py parses them, index.py turns them into a Chroma ``where`` and a
    BM25 mask)."""

    years: tuple[int, int] | None = None
    venue: str | None = None
    author: str | None = None
    # the last so many years of the store's papers ("in the last three years"), until
    # ``filters.of_recent`` reads them as ``years`` from the newest stored year
    recent: int | None = None
    # the years named one by one within ``years`` when they leave a gap ("in 2019 or 2021":
    # 2019 and 2021, not 2020); None: every year of the range
    named_years: frozenset[int] | None = None
    # how the years were read, when the words do not say them as such ("the last three
    # years: the newest stored papers are of 2021"): shown by ``describe``, not compared
    note: str | None = field(default=None, compare=False)
    # phrases a paper must not write ("that do not use SVM": ``exclusions.py``), each with
    # its other spellings ("support vector machine"), in its title or abstract
    excluded: tuple[str, ...] = ()
    # an author whose papers are left out ("capsule papers not by Hinton": ``stated.py``)
    excluded_author: str | None = None

    def __bool__(self) -> bool:
        return (self.years is not None or bool(self.venue) or bool(self.author)
                or self.recent is not None or bool(self.excluded) or bool(self.excluded_author))

    @property
    def states_years(self) -> bool:
        """Whether the filter asks for some years: a range, or the last so many."""
        return bool(self.years or self.recent)

    def without_years(self) -> Filters:
        """These filters with no range of years (their venue, author and exclusions kept)."""
        return replace(self, years=None, named_years=None, recent=None, note=None)

    def holds_year(self, year: int | None) -> bool:
        """Whether ``year`` passes the filter's years (its range, and the years it names): an
        unknown year fails a year range."""
        if self.years is not None and (year is None or not self.years[0] <= year <= self.years[1]):
            return False
        return self.named_years is None or year in self.named_years

    def allows(self, paper: Paper) -> bool:
        """The same test as the Chroma ``where``: a paper of unknown year fails a year range."""
        if not self.holds_year(paper.year):
            return False
        if self.author and not written_by(paper.authors, self.author):
            return False
        if self.excluded_author and written_by(paper.authors, self.excluded_author):
            return False
        if self.excluded and _writing(self.excluded).search(f"{paper.title}. {paper.text}"):
            return False
        return not self.venue or paper.venue.casefold() == self.venue.casefold()

    def describe(self) -> str:
        """The filter as an answer names it: "years 2019–2021, venue NeurIPS"."""
        parts = []
        if self.named_years is not None:
            *first, last = year_runs(self.named_years)
            parts.append(f"years {', '.join(first)} and {last}" if first
                         else f"year {last}" if last.isdigit() else f"years {last}")
        elif self.years is not None:
            start, end = self.years
            if start == end:
                parts.append(f"year {start}")
            elif start <= OPEN_START:
                parts.append(f"years up to {end}")
            elif end >= OPEN_END:
                parts.append(f"years {start} on")
            else:
                parts.append(f"years {start}–{end}")
        elif self.recent is not None:
            parts.append(f"the last {self.recent} years")
        if self.note and parts:
            parts[-1] += f" — {self.note}"
        if self.venue:
            parts.append(f"venue {self.venue}")
        if self.author:
            parts.append(f"author {self.author}")
        if self.excluded_author:
            parts.append(f"not by {self.excluded_author}")
        if self.excluded:
            parts.append("not writing " + " or ".join(f"“{phrase}”" for phrase in self.excluded))
        return ", ".join(parts)


@lru_cache(maxsize=64)
def _writing(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``phrases`` as a paper writes it: in any case, its words apart or hyphenated,
    its last one plural, alone or in a hyphenated compound ("Support Vector Machines",
    "support-vector machine", "SVMs", "SVM-based")."""
    def form(phrase: str) -> str:
        *head, last = phrase.split()
        # "processes": "process", "viruses": "virus", not "notes": "not" nor "uses": "us"
        cut = last[:-2] if re.search(r"(?:ss|x|z|ch|sh)es$|\w\wses$", last, re.I) else last
        stems = {last, last[:-1] if last.endswith("s") else last, cut}
        if re.search(r"\wies$", last, re.I):  # "studies": "study"
            stems.add(f"{last[:-3]}y")
        if re.search(r"\w\wses$", last, re.I):  # "analyses": "analysis"
            stems.add(f"{last[:-2]}is")
        plural = rf"(?:{'|'.join(map(re.escape, sorted(stems, key=len, reverse=True)))})(?:s|es)?"
        return r"[\s-]+".join([*map(re.escape, head), plural])
    forms = [form(p) for p in phrases]
    return re.compile(rf"(?<!\w)(?:{'|'.join(forms)})(?!\w)", re.I)  # "SVM-based", "kernel-SVM"


@dataclass(frozen=True)
class RetrievedPaper:
    """A paper found for a question, once, with its best chunk."""

    paper: Paper
    score: float  # the fused score, scaled so that first place in both rankings is 1.0
    chunk: str
    dense: float  # best chunk's cosine similarity (0 when not among the dense candidates)
    coverage: float  # share of the question's keyword weight found in the paper


class Verdict(BaseModel, frozen=True):
    """What one of retrieval's checks (``assistant/refusals.py``) found: its name and its
    reason, a short sentence a reader can judge the answer by."""

    check: str
    reason: str


@dataclass(frozen=True)
class Retrieval:
    """The papers found for a question; when there are none, the check that refused it
    (``refusal``) and the papers it ranked nearest, each with why it does not answer
    (``nearest``); the check that doubts they say what was asked (``doubt``: the joint
    reading under its doubt level, ``ranking.JointReading``); and how many candidates the
    ranking scored (``read``, for the answer's receipt)."""

    papers: list[RetrievedPaper]
    doubt: Verdict | None = None
    refusal: Verdict | None = None
    read: int = 0
    nearest: list[tuple[RetrievedPaper, str]] = field(default_factory=list)

    @property
    def unsure(self) -> bool:
        """Retrieval doubts the papers say what was asked (the answer's notice)."""
        return self.doubt is not None


class SourceRef(BaseModel):
    """A retrieved paper as numbered for this answer."""

    n: int
    paper_id: str
    title: str
    source: str
    score: float
    # What the input said of the paper, for reference lists (empty or None when unknown).
    authors: str = ""
    year: int | None = None
    venue: str = ""
    url: str = Field("", description="The paper's own link, not one quoted in its abstract.")
    title_derived: bool = Field(False, description="The input had no title; this one is "
                                "derived from the abstract, or written by a model.")
    title_model: str = Field("", description="The model that wrote the title (the input had "
                             "none); \"\" when it is the input's or derived.")
    kept_unread: bool = Field(False, description="A list's paper kept on its cheap score alone, "
                              "past the reading budget: no reader judged it (check it first).")
    titled: bool = Field(False, description="A list's paper kept for its title naming the "
                         "topic, unread.")

    @classmethod
    def of(cls, n: int, paper: Paper, score: float, kept_unread: bool = False,
           titled: bool = False) -> SourceRef:
        """The numbered source for ``paper``, with the metadata its input gave."""
        return cls(n=n, paper_id=paper.paper_id, title=paper.title, source=paper.source,
                   score=score, authors=paper.authors, year=paper.year, venue=paper.venue,
                   url=paper.link, title_derived=paper.title_derived,
                   title_model=paper.title_model, kept_unread=kept_unread, titled=titled)


class Citation(BaseModel):
    """A source that the answer cites, with the abstract text for checking the claim."""

    n: int
    paper_id: str
    title: str
    source: str
    text: str
    highlights: list[str] = Field(default_factory=list, description="Sentences the answer used.")
    origin: Literal["model", "assistant"] = Field(
        "assistant", description="Who wrote the citation: the model, or the assistant (an "
        "extractive answer, or the source that supports a sentence the model left uncited or "
        "misnumbered).")


class Claim(BaseModel):
    """One sentence of a model's answer, scored against the abstracts it cites (claims.py)."""

    text: str
    cites: list[int] = Field(default_factory=list)
    support: float = Field(description="0–1: how well the cited abstracts' sentences back it.")
    supported: bool = Field(description="support reached the calibrated threshold.")


class NearPaper(BaseModel):
    """A paper a refusal found nearest the question, and why it does not answer it."""

    paper_id: str
    title: str
    source: str
    title_derived: bool = False
    title_model: str = ""
    reason: str


class Receipt(BaseModel):
    """How much an answer looked at, so that the user can weigh it (and a "no")."""

    in_store: int = Field(description="Papers in the store.")
    in_filter: int = Field(description="Papers the filters left (all of them when unfiltered).")
    read: int = Field(description="Papers retrieval scored as candidates for the question (a "
                      "list: the papers screened).")
    cited: int = Field(description="Papers the answer cites.")
    matching: int | None = Field(None, description="A list answer (`ask --all`): the papers "
                                 "judged to answer it, all of them listed; None for an answer.")
    unconfirmed: int = Field(0, description="A list of none: the papers shown that name its "
                             "topic but were not read as answering it (its sources); else 0.")
    unread_left_out: int = Field(0, description="A list or trend answer: its uncertain papers "
                                 "past the reading budget that their cheap score left out "
                                 "unread (the list is then not the whole of it); else 0.")
    unscreened: int = Field(0, description="A list answer: the papers holding its topic's "
                            "words past the pool's bound, never screened (none unless a "
                            "bound is set: the list is then not the whole of it); else 0.")
    kept_unread: int = Field(0, description="A list answer: its listed papers past the "
                             "reading budget kept on their cheap score alone, unread (each "
                             "line says so); else 0.")
    titled: int = Field(0, description="A list answer: its listed papers kept unread for their "
                        "title naming the topic (each line says so); else 0.")
    left_out: int = Field(0, description="Records of the store's files that the filters allow "
                          "but that were not stored, having no abstract (a placeholder such "
                          "as \"Abstract Unavailable\") or another record's abstract under a "
                          "title of their own: what the store's count leaves out.")
    left_out_repeats: int = Field(0, description="Of `left_out`, the records giving another "
                                  "record's abstract (stored once, under the title it fits best).")
    left_out_unread: int = Field(0, description="Of `left_out`, the records their file's reader "
                                 "could not read (a CSV row with more fields than its header, a "
                                 "line that is not JSON).")
    counted: list[str] | None = Field(None, description="A trend answer: the ids of the "
                                      "papers it counted (its ``matching``), none cited; "
                                      "None for any other answer.")
    nearest: list[NearPaper] = Field(
        default_factory=list, description="A refusal's nearest papers, each with why it does "
        "not answer (empty for an answer).")


class Answer(BaseModel):
    """One answer, whichever mode wrote it; ``sources`` are exactly what the writer saw."""

    question: str
    answer: str
    mode: Literal["llm", "extractive"]
    model: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    usage: dict[str, int | bool] | None = None
    dropped_citations: list[int] = Field(
        default_factory=list, description="Citation numbers removed: not among the sources.")
    uncited: bool = Field(False, description="A model answer that cites no source at all.")
    truncated: bool = Field(
        False, description="The reply reached the token budget (ASSISTANT_LLM_MAX_TOKENS) and "
        "was cut there.")
    standalone_question: str | None = None
    claims: list[Claim] = Field(
        default_factory=list, description="Model answers: each sentence with its support by "
        "the cited abstracts (sentences that cite nothing are unsupported).")
    filters: str | None = Field(None, description="The filter the sources were chosen under "
                                "(\"years 2019–2021, venue NeurIPS\"), None when unfiltered; "
                                "a range the question states that no indexed paper falls in "
                                "is named as not applied (\"none (not applied: …)\").")
    unmentioned: list[str] = Field(
        default_factory=list, description="Names in the question that none of the cited "
        "abstracts mentions (\"Mamba\"): the answer may be about something else.")
    unsure: bool = Field(
        False, description="Retrieval doubts that the sources say what was asked: they are on "
        "its topic, but read weakly as answering it (a large store's joint reading of the "
        "ranker and the cross-encoder, under its doubt level). Read the quotes before relying "
        "on them.")
    refusal: Verdict | None = Field(
        None, description="Why the answer has no sources: the retrieval check that refused "
        "the question (its name and a one-sentence reason), or the model's relevance check; "
        "None when it has sources.")
    receipt: Receipt | None = Field(None, description="How much the answer looked at.")

    cite_mode: Literal["constrained", "free"] | None = Field(
        None, description="Model answers: how the model was asked to cite (a JSON schema, or "
        "text with [n] markers).")
    model_reply: str | None = Field(
        None, description="Model answers: the model's reply as it came, before the checks.")
    unchecked: str | None = Field(
        None, description="Why the model's answer could not be checked against the sources "
        "(one line); the answer shown is then its checked part or the extractive answer.")
    off_question: str | None = Field(
        None, description="Model answers: the line saying that the abstracts' quoted answer "
        "follows the model's, the cross-encoder reading the quotes as answering the question "
        "clearly better, the question asking of several papers where the model's answer "
        "cites one, or the model's \"no\" to a comparison of papers the quotes write each "
        "name of (quoted_answers.py); None when none holds.")

    def public_json(self) -> dict[str, object]:
        """The documented ``assistant ask --json`` object (a citation's ``highlights``: the
        abstract's sentences the answer used, a list's quoted sentence, to check it by)."""
        return self.model_dump(include=set(PUBLIC_JSON_KEYS))


def consecutive_runs(years: Iterable[int]) -> list[list[int]]:
    """Years in runs of consecutive years, in order: [2020, 2021, 2025] → [[2020, 2021], [2025]]."""
    runs: list[list[int]] = []
    for year in sorted(years):
        if runs and year == runs[-1][-1] + 1:
            runs[-1].append(year)
        else:
            runs.append([year])
    return runs


def year_runs(years: frozenset[int]) -> list[str]:
    """Named years as an answer names them, three or more in a row as one run: "2019",
    "2017–2019", "up to 1999" (a run from EARLIEST_YEAR), "2016 on" (one to LATEST_YEAR):
    "before 2000 or after 2015" names two hundred years."""
    said = []
    for run in consecutive_runs(years):
        if run[0] <= EARLIEST_YEAR and len(run) > 1:
            said.append(f"up to {run[-1]}")
        elif run[-1] >= LATEST_YEAR and len(run) > 1:
            said.append(f"{run[0]} on")
        elif len(run) >= 3:
            said.append(f"{run[0]}–{run[-1]}")
        else:
            said += map(str, run)
    return said
