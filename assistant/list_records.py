"""A list's records: each pooled paper with its screening signals (``Candidate``), each
kept paper as listed (``ListedPaper``), and the list with how much it looked at
(``ListResult``).

Why apart from the screen (listing.py): the answers, trends, follow-ups and the UI read a
list's records without screening one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.corpus import Paper
from assistant.count_lines import count_line
from assistant.types import Filters

MODEL, CROSS_ENCODER, CHEAP = "model", "cross-encoder", "cheap screen"  # who judged a paper


@dataclass(frozen=True)
class Candidate:
    """A pooled paper and its screening signals."""

    paper: Paper
    coverage: float  # share of the topic's keyword weight the title and abstract hold
    cosine: float  # the question's cosine with the paper's best chunk
    cheap: float  # coverage + dense_weight × cosine
    sense: float = 0.0  # its best chunk's cosine with the topic's sense (ScreenSettings)
    logit: float | None = None  # the cross-encoder's reading (None: not reread)
    judged: bool | None = None  # the reread's (or model's) verdict
    reader: str | None = None  # who gave it: MODEL, CROSS_ENCODER or CHEAP (a failed reading)
    titled: bool = False  # its title names the topic (topics.Reading.titles): kept unread


@dataclass(frozen=True)
class ListedPaper:
    """A paper the list keeps: its rank score (higher first) and one sentence to quote."""

    paper: Paper
    score: float
    sentence: str
    read: bool  # reread by the cross-encoder (or judged by the model)
    logit: float | None = None  # the cross-encoder's reading, where it read
    reader: str | None = None  # who kept it after reading (Candidate.reader); None: unread
    kept_unread: bool = False  # past the reading budget, kept on its cheap score (its line says so)
    titled: bool = False  # kept for its title naming the topic (Candidate.titled)


@dataclass
class ListResult:
    """Every paper that answers a list question, best first (or newest first), and how much
    was looked at."""

    question: str
    topic: str
    papers: list[ListedPaper]
    papers_in_store: int
    papers_in_filter: int  # the papers the filters left (the store's count without one)
    screened: int  # candidates pooled and screened
    reread: int  # of those, read by the cross-encoder or the model
    # uncertain papers past the reading budget (max_reread) left out on their cheap score:
    # said on the count line, so that a large topic's list is not taken for the whole of it
    unread_left_out: int = 0
    unscreened: int = 0  # holding the topic's words past the pool's bound (deep_pool), never screened
    seconds: float = 0.0
    filters: Filters | None = None  # what the list was screened under
    candidates: list[Candidate] = field(default_factory=list, repr=False)
    # when no paper is kept: the papers naming the topic in full that the reading turned down
    # (a term lookup's: those writing its words' stems only), shown unconfirmed, not counted
    mentions: list[ListedPaper] = field(default_factory=list)
    lookup: bool = False  # a term lookup ("Which papers mention X?"): its words as asked
    newest_first: bool = False  # newest year first, best first within (paper_order.in_year_order)
    oldest_first: bool = False  # ...or oldest first ("the earliest paper on X")
    unmentioned: list[str] = field(default_factory=list)  # names no listed paper mentions
    respelt: dict[str, str] = field(default_factory=dict)  # typed word → the one searched
    # the topic as its papers write it (the searched topic's first phrasing: "pre training"
    # as "pre-training"), whose phrases a trend counts by ("" : ``topic`` as typed)
    written: str = ""
    store_read: int = 0  # a range's count: the uncertain papers the store's screen read (windowed.py)

    @property
    def model_judged(self) -> bool:
        """Whether the model judged any paper (a chatty reply judges none: the
        cross-encoder read those)."""
        return any(c.reader == MODEL for c in self.candidates)

    @property
    def kept_unread(self) -> int:
        """The listed papers kept on their cheap score alone, past the reading budget."""
        return sum(p.kept_unread for p in self.papers)

    @property
    def titled(self) -> int:
        """The listed papers kept unread for their title naming the topic."""
        return sum(p.titled for p in self.papers)

    def count_line(self, where: str = "") -> str:
        """"23 papers of the 13,847 match; 300 screened, 30 reread" (and ", 8 uncertain left
        out unread, 5 kept unread" when the budget left some unread; its ``order``)."""
        return count_line(len(self.papers), self.papers_in_filter, self.screened, where,
                          reread=self.reread, left_out=self.unread_left_out,
                          kept=self.kept_unread, order=self.order,
                          unscreened=self.unscreened)

    @property
    def order(self) -> str:
        """", newest first" (", oldest first") when so ordered, else "" (best first unsaid)."""
        return ", newest first" if self.newest_first else ", oldest first" if self.oldest_first else ""
