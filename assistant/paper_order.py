"""The order by year a question asks its papers in: "What is the earliest paper on capsule
networks?", "Hinton's latest paper", "capsule network papers in chronological order" ask
for the topic's (or the author's) papers, oldest or newest first; and a list put so.

Why a module: such a question had been read as a topic with "earliest" in it, and refused
("The corpus has no abstract about this question … never “earliest”"), or answered with
the paper nearest its words ("the last paper on Boltzmann machines": one of 1988, where
the store holds them to 2021). A list of the topic in the order asked answers it, the
first line being the paper asked for, and the rest there to check it by.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.list_records import ListedPaper, ListResult
from assistant.listing import ListScreen
from assistant.name_checks import titled_papers

if TYPE_CHECKING:
    from assistant.index import AbstractIndex
    from assistant.types import Filters

_OLDEST = r"earliest|first|oldest"
_NEWEST = r"latest|newest|most\s+recent|last"
_PAPER = r"(?:papers?|works?|publications?|abstracts?|articles?)"
_COUNT = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
# "the earliest paper on X", "the three earliest papers about X", "Hinton's latest paper",
# "Yoshua Bengio's first NeurIPS paper", "the most recent work on X", "earliest paper by Y":
# asked for ("What was …", "Which is …", "List …", or the phrase alone), not the subject of
# another question ("What does the first paper on GANs propose?")
_ASKED_FOR = (r"^\s*(?:(?:what|which|when)(?:['’]s|\s+(?:is|was|are|were))\s+|(?:list|show(?:\s+me)?"
              r"|give\s+me|name|find|tell\s+me)\s+)?")
ORDERED_PAPER_RE = re.compile(
    rf"{_ASKED_FOR}(?:(?P<owner>(?-i:[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){{0,2}}))['’]s?\s+"
    rf"|the\s+(?:{_COUNT}\s+)?)?(?:very\s+)?(?P<order>{_OLDEST}|{_NEWEST})\s+(?:(?:{_COUNT}|NeurIPS"
    rf"|NIPS|known|published)\s+)?{_PAPER}\b(?P<rest>(?:\s+(?:on|about|in|by|of|that|which|to"
    r"|using|for|from)\s+(?!(?:the|this|that|your|my)\s+(?:list|answer|results?)\b)"
    r"(?!.*\b(?:above|below|these|those|them|detail)\b)\S.*|\s+here)?)$", re.I)
# "Which paper on X came first?", "What work about X appeared last?"
CAME_RE = re.compile(
    rf"^\s*(?:which|what)\s+{_PAPER}(?P<rest>\s+(?:on|about|in|using|that|which)\s+.+?)\s+"
    r"(?:came(?:\s+out)?|was\s+(?:published|written)|appeared)\s+(?P<order>first|last)\s*[?.!]*\s*$",
    re.I)
# "When did Hinton first publish on capsules?", "When did Bengio last write about attention?"
# (a run's false "no": "first" and "publish" searched as words)
WHEN_FIRST_RE = re.compile(
    r"^\s*when\s+did\s+(?P<owner>(?-i:[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2}))\s+(?P<order>first"
    r"|last)\s+(?:publish|write|work)\w*\s+(?P<rest>(?:on|about)\s+[^,?.!]+)", re.I)
# "Which papers are the newest?": of no topic, the store's
ARE_THE_RE = re.compile(rf"^\s*(?:which|what)\s+{_PAPER}\s+(?:is|are|was|were)\s+the\s+(?:very\s+)?"
                        rf"(?P<order>{_OLDEST}|{_NEWEST})(?:\s+ones?)?\s*[?.!]*\s*$", re.I)
# "Who introduced X?", "Who first proposed X?", "Who wrote the original paper on X?": the
# people of X's earliest papers; "Which paper first introduced X?": those papers
_INTRODUCED = r"(?:first\s+)?(?:introduced|proposed|invented|came\s+up\s+with|coined)"
INTRODUCED_RE = re.compile(
    rf"^\s*(?:(?P<who>who)\s+(?:{_INTRODUCED}|wrote\s+the\s+(?:original|first|earliest)\s+"
    rf"{_PAPER}\s+(?:on|about))|(?:which|what)\s+(?:paper|work|article)\s+{_INTRODUCED})\s+"
    r"(?:the\s+(?:first|earliest)\s+)?(?!(?:a|an|some|new|novel)\s)"  # "a new loss": any one
    r"(?!(?:it|them|this|that|these|those|they)\W*$)"  # "Who proposed it?" asks of the answer before
    r"(?P<topic>(?!.*\b(?:how|why|what|when|where)\b).+?)\s*[?.!]*\s*$", re.I)
# "When was dropout first proposed?": X's papers, oldest first (a run's false "no"); "When
# was X introduced (at NeurIPS)?" asks the same (R12's had quoted a paper of 2014, not the
# 2005 one that introduced the Indian buffet process)
# Without "first", not of the answer before: "its …", or "the" and a noun in lower case
# ("When was the method introduced?", "When was its loss proposed?": C69; "the Indian
# buffet process", "the Transformer" name things); a paper named by its title is asked of
# its own year (``ordered_in``)
WHEN_INTRODUCED_RE = re.compile(r"^\s*when\s+(?:was|were)\s+(?!(?:it|they|them|this|that|these|those)\s)"
                               r"(?:(?P<topic>.+?)\s+first\s+(?:proposed|introduced|invented|published"
                               r"|described|used)|(?!(?:its|their)\b|the\s+(?-i:[a-z]))"
                               r"(?P<bare>.+?)\s+(?:proposed|introduced|invented|coined))"
                               r"(?:\s+(?:at|in|to)\s+(?:NeurIPS|NIPS))?\s*[?.!]*\s*$", re.I)
# "… and when?" after "Who first proposed X": the years the list gives (a run's false "no")
_AND_WHEN = re.compile(r"\s*,?\s+and\s+when(?:\s+(?:was\s+(?:it|that)|were\s+they|did\s+(?:they|it)"
                       r"(?:\s+\w+)?))?(?=\s*[?.!]*\s*$)", re.I)
# "in chronological order", "from oldest to newest", "newest first", "sorted by year"
SORTED_RE = re.compile(
    r"\s*,?\s*\b(?:in\s+(?P<reverse>reverse\s+)?chronological\s+order|(?:sorted|ordered)\s+by"
    r"\s+(?:year|date)|from\s+(?:the\s+)?(?P<old>oldest|earliest)\s+to\s+(?:the\s+)?(?:newest"
    r"|latest|most\s+recent)|from\s+(?:the\s+)?(?:newest|latest|most\s+recent)\s+to\s+(?:the"
    r"\s+)?(?:oldest|earliest)|(?P<first>oldest|earliest|newest|latest)\s+first(?=\s*(?:[,.;:?!]"
    r"|$)))(?![\w-])", re.I)  # "newest first scheduling" names a topic
# the store named after an order question ("the oldest paper in the store"): none's topic
STORE_REST_RE = re.compile(r"\s*(?:(?:in|within|from|of)\s+(?:the|this|your|my|our)\s+(?:store|"
                           r"collection|corpus|index|database|library)|here)?\s*", re.I)


@dataclass(frozen=True)
class Ordered:
    """The list question an ordered question asks, and its order."""

    question: str  # "Which papers on capsule networks?"
    oldest: bool  # oldest first (else newest first)
    edge: int | None = None  # of no topic: the store's earliest (or latest) year
    within: str = ""  # the filters that year is the edge of ("author Hinton"), if any

    def shaped(self, result: ListResult, screen: ListScreen | None = None) -> tuple[ListResult, str]:
        """The list of ``question`` in this order, as a list answer's ``Shaper`` shapes it;
        of no topic, with a line saying that these are the store's oldest (or newest)."""
        one, which = len(result.papers) == 1, "oldest" if self.oldest else "newest"
        if self.edge is None:
            line = ""
        elif self.within:  # the filters' edge, not the store's
            line = (f"The store dates its papers by year alone: the {which} papers of "
                    f"{self.within} are those of {self.edge}, listed first.\n")
        else:
            line = (f"The store dates its papers by year alone: {'this is' if one else 'these are'} "
                    f"its {which}, the {'one paper' if one else 'papers'} of {self.edge}.\n")
        if screen is not None:
            result = read_to_edge(result, screen, self.oldest)
        return in_year_order(result, self.oldest), line


def ordered_in(question: str, index: AbstractIndex, filters: Filters | None) -> Ordered | None:
    """``ordered_question`` against ``index``: its authors, and its earliest and latest year
    within ``filters``; None when a question of when X was introduced writes a stored title
    whole ("When was Attention Is All You Need introduced?"): that paper's year (C69)."""
    def edge(oldest: bool) -> int | None:
        allowed = index.allowed(filters)
        years = [p.year for pid, p in index.papers().items()
                 if p.year is not None and (allowed is None or pid in allowed)]
        return (min(years) if oldest else max(years)) if years else None
    ordered = ordered_question(question, index.author_book().holds, edge)
    if ordered and WHEN_INTRODUCED_RE.search(question) and titled_papers(index.papers(), question):
        return None  # "When was Attention Is All You Need introduced?": that paper's year (C69)
    if ordered and ordered.edge is not None and filters:
        return replace(ordered, within=filters.describe())
    return ordered


def ordered_question(question: str, is_author: Callable[[str], bool] | None = None,
                     edge_year: Callable[[bool], int | None] | None = None) -> Ordered | None:
    """The list question ``question`` asks in an order by year (``ORDERED_PAPER_RE``,
    ``SORTED_RE``), or None when it asks none: "What was the first paper on transformers?"
    → "Which papers on transformers?", oldest first; "Hinton's latest paper" → "Which
    papers are by Hinton?", newest first; "capsule network papers in chronological order"
    → "capsule network papers", oldest first; "Who introduced X?" → "Who works on X?"
    (each paper's authors named), oldest first: it had cited a later paper. ``is_author``:
    whether a name is a stored author's ("GANs' earliest paper" is of a topic, not by
    "GANs"; without it, a capitalised owner is an author). Of no topic ("What is the oldest
    paper in the store?", "the newest paper"), the papers of the store's earliest (or latest)
    year, ``edge_year`` (None: not read so): it had said the question names no topic."""
    if found := list(SORTED_RE.finditer(question)):  # the last order said decides
        m, rest = found[-1], SORTED_RE.sub("", question).strip()  # "…, newest first" too
        oldest = not m.group("reverse") and (
            m.group("old") is not None or "chrono" in m.group(0).lower()
            or (m.group("first") or "").lower() in ("oldest", "earliest"))
        return Ordered(rest, oldest)
    if m := INTRODUCED_RE.search(_AND_WHEN.sub("", question)):  # with "who", each paper's authors
        lead = "Who works on" if m.group("who") else "Which papers on"
        return Ordered(f"{lead} {m.group('topic')}?", True)
    if m := WHEN_INTRODUCED_RE.search(question):
        return Ordered(f"Which papers on {m.group('topic') or m.group('bare')}?", True)
    if m := CAME_RE.search(question):
        return Ordered(f"Which papers{m.group('rest')}?", m.group("order").lower() == "first")
    if (m := WHEN_FIRST_RE.search(question)) and (is_author is None or is_author(m.group("owner"))):
        return Ordered(f"Which papers are by {m.group('owner')} {m.group('rest')}?",
                       m.group("order").lower() == "first")
    if (m := ORDERED_PAPER_RE.search(question.strip().rstrip("?.! "))) is None:
        m = ARE_THE_RE.search(question)  # "Which papers are the newest?": the store's
        return _of_store(_oldest(m.group("order")), edge_year) if m and edge_year else None
    oldest = _oldest(m.group("order"))
    if (owner := m.group("owner")) and (is_author is None or is_author(owner)):
        return Ordered(f"Which papers are by {owner}{m.group('rest')}?", oldest)
    if owner:  # "GANs' earliest paper": the topic's; "DeepMind's latest paper on RL": neither
        return None if m.group("rest") else Ordered(f"Which papers on {owner}?", oldest)
    if edge_year and STORE_REST_RE.fullmatch(m.group("rest")) and (
            m.group("rest").strip() or not re.fullmatch("first|last", m.group("order"), re.I)):
        return _of_store(oldest, edge_year)  # "the first paper" alone is a place
    if not m.group("rest").strip():
        return None  # "the first paper" names nothing: a place, or a question of its own
    return Ordered(f"Which papers{m.group('rest')}?", oldest)


def _oldest(order: str) -> bool:
    """Whether an order word asks for the oldest ("earliest", "first") or the newest."""
    return re.fullmatch(_OLDEST, order, re.I) is not None


def _of_store(oldest: bool, edge_year: Callable[[bool], int | None]) -> Ordered | None:
    """The store's papers of its earliest (or latest) year, oldest (or newest) first."""
    year = edge_year(oldest)
    return None if year is None else Ordered(f"Which papers were published in {year}?", oldest, year)


def asks_for_one(question: str) -> bool:
    """Whether ``question`` asks for one paper by its order in years ("What is the earliest
    paper on capsule networks?", "Hinton's latest paper"): the first of its list is the
    paper a follow-up's "it" means ("who wrote it?" had been a false "no")."""
    return (ordered_question(question) is not None and SORTED_RE.search(question) is None
            and re.search(r"\b(?:paper|work|article|publication)\b", question, re.I) is not None
            and re.search(r"\b(?:papers|works|articles|publications|abstracts|two|three|four|five"
                          r"|six|seven|eight|nine|ten|\d{1,2})\b", question, re.I) is None)


def read_to_edge(result: ListResult, screen: ListScreen, oldest: bool) -> ListResult:
    """``result`` with its papers kept unread past the reading budget that year order would
    put before its read papers (``_read_edge``) read now, the edge first, up to the screen's
    budget once more (counted in ``reread``): those read as answering it are listed as read,
    the rest dropped. "What is the earliest paper on variational autoencoders?" had listed
    a 2016 paper first and three of 2015 that write of VAEs, kept unread, at [72]–[74]."""
    edge = _read_edge(result.papers, oldest)
    sign = 1 if oldest else -1
    beyond = sorted((p for p in result.papers if _beyond(p, edge, oldest) and p.paper.year),
                    key=lambda p: (sign * p.paper.year, -p.score))
    candidates = {c.paper.paper_id: c for c in result.candidates}
    band = [candidates[p.paper.paper_id] for p in beyond[:screen.settings.max_reread]
            if p.paper.paper_id in candidates]
    if not band:
        return result
    read = {c.paper.paper_id: c for c in screen.reread(result.question, band)}
    papers = []
    for listed in result.papers:
        if (c := read.get(listed.paper.paper_id)) is None:
            papers.append(listed)
        elif c.judged:  # read as answering: listed as read, in its year
            papers.append(replace(listed, read=True, logit=c.logit, reader=c.reader,
                                  kept_unread=False))
    return replace(result, papers=papers, reread=result.reread + len(band))


def _read_edge(papers: list[ListedPaper], oldest: bool) -> int | None:
    """The earliest (or latest) year of the papers a reader kept: None when none has one."""
    years = [p.paper.year for p in papers if not p.kept_unread and p.paper.year is not None]
    return (min(years) if oldest else max(years)) if years else None


def _beyond(listed: ListedPaper, edge: int | None, oldest: bool) -> bool:
    """Whether ``listed``, kept unread, would come before every read paper in year order."""
    year = listed.paper.year
    return listed.kept_unread and (edge is None or year is None
                                   or (year < edge if oldest else year > edge))


def in_year_order(result: ListResult, oldest: bool) -> ListResult:
    """``result`` with its papers (and unconfirmed mentions) in year order, oldest or newest
    first, the read before the unread and best first within a year, those of no year last;
    its count line says so. The papers kept unread past the reading budget that would come
    before every read one come after the rest (``read_to_edge`` reads them where it can):
    no reader checked them, and "the earliest paper on GANs" had been a 2002 paper on
    ganglion cells ("gan- glion"), kept unread; those within the read papers' years stand
    in their year (a chronological list of GANs had put InfoGAN, 2016, after 2021)."""
    edge = _read_edge(result.papers, oldest)

    def key(listed: ListedPaper) -> tuple[bool, bool, int, bool, float]:
        year = listed.paper.year or 0
        return (_beyond(listed, edge, oldest), listed.paper.year is None,
                year if oldest else -year, listed.kept_unread, -listed.score)

    return replace(result, papers=sorted(result.papers, key=key),
                   mentions=sorted(result.mentions, key=key), newest_first=not oldest,
                   oldest_first=oldest)
