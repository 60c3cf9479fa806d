"""Bounded answers: a list or a trend answers with every paper that matches (1,963 for "List
all papers on neural networks" over the 13.9k), and every surface that sends one had sent it
whole: the chat one message of them all (the browser froze on it), the API and the MCP tools
megabytes of JSON (each citation its whole abstract). Here such an answer is cut to a page of
its papers: the chat's first ``CHAT_PAGE``, naming how many more there are and where they all
are; an endpoint's ``limit`` from ``offset``, stating the total and the next offset, the
abstracts left out unless asked for. The receipt, its counts of every match, stays whole."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from assistant.errors import BadInputError
from assistant.filters import whole_number
from assistant.types import Answer

CHAT_PAGE = 25  # the papers a list or trend answer shows in the chat (the Lists tab's page)
DEFAULT_LIMIT = 50  # the papers an endpoint gives a page unless asked for another number
MAX_LIMIT = 500  # the most an endpoint gives a page: about 0.5 MB without the abstracts
ENTRY_RE = re.compile(r"\[(\d+)\] ")  # a list answer's paper line (listing.answer_lines)
TOP_K_UNUSED = ("top_k was not used: a list gives every paper that answers, and a trend counts "
                "them all, a page at a time (limit, offset)")

ABSTRACTS_LEFT_OUT = ("the citations carry no abstract (text), each its quoted sentence "
                      "(highlights): call with abstracts=true for them")


@dataclass(frozen=True)
class Page:
    """Which of an answer's papers to give: ``limit`` of them from ``offset`` (0: the first)."""

    offset: int = 0
    limit: int = DEFAULT_LIMIT

    @classmethod
    def of(cls, limit: object, offset: object) -> Page:
        """A caller's ``limit`` (1 to MAX_LIMIT) and ``offset`` (0 or more), as whole numbers
        (a JSON 5.0 or "5" is 5); anything else is ``BadInputError``, as ``top_k`` is."""
        return cls(offset=whole_number("offset", offset, 0),
                   limit=whole_number("limit", limit, 1, MAX_LIMIT))

    def of_total(self, total: int, what: str = "papers") -> dict[str, Any]:
        """The page's numbers for an answer of ``total`` papers: where it starts, how many it
        gives, the total, and the offset of the next page (None after the last), with a line
        saying so."""
        returned = max(0, min(self.limit, total - self.offset))
        following = self.offset + returned
        next_offset = following if following < total else None
        if returned:
            note = f"{what} {self.offset + 1:,}–{following:,} of {total:,}"
        else:
            note = f"no {what} from offset {self.offset:,}: there are {total:,}"
        if next_offset is not None:
            note += f"; call again with offset={next_offset} for the next {self.limit:,}"
        return {"offset": self.offset, "limit": self.limit, "returned": returned,
                "total": total, "next_offset": next_offset, "note": note}


def wanted(name: str, value: object) -> bool:
    """A caller's yes or no (true, false, 1, 0, or those as text); anything else is
    ``BadInputError`` (``bool("false")`` would be true)."""
    if isinstance(value, bool):
        return value
    said = str(value).strip().casefold()
    if said in ("true", "1", "yes"):
        return True
    if said in ("false", "0", "no", ""):
        return False
    raise BadInputError(f"{name} must be true or false, not {str(value)[:40]!r}")


def counts_every_paper(answer: Answer) -> bool:
    """A list or trend answer (its receipt counts the matching papers): one whose papers are
    as many as match, not a top k."""
    return answer.receipt is not None and answer.receipt.matching is not None


def paged(answer: Answer, page: Page) -> Answer:
    """``answer`` with only the page's sources and citations (numbered as in the whole),
    and in its text only the page's paper lines; its receipt stays whole."""
    shown = answer.sources[page.offset:page.offset + page.limit]
    numbers = {s.n for s in shown}
    lines = [line for line in answer.answer.split("\n")
             if not (m := ENTRY_RE.match(line)) or int(m.group(1)) in numbers]
    return answer.model_copy(update={
        "sources": shown, "citations": [c for c in answer.citations if c.n in numbers],
        "answer": "\n".join(lines)})


def page_json(answer: Answer, page: Page, abstracts: bool = False,
              notes: tuple[str, ...] = ()) -> dict[str, Any]:
    """The public JSON of a page of ``answer``: its ``page`` numbers, its citations without
    their abstracts unless ``abstracts`` (each keeps its quoted sentence), and ``notes``
    (saying so, after any given)."""
    data = paged(answer, page).public_json()
    citations: list[dict[str, Any]] = data["citations"]  # type: ignore[assignment]
    if not abstracts and citations:
        for citation in citations:
            citation.pop("text", None)
        notes = (*notes, ABSTRACTS_LEFT_OUT)
    data["page"] = page.of_total(len(answer.sources))
    data["notes"] = list(notes)
    return data


def trend_page(trend: dict[str, Any], page: Page) -> dict[str, Any]:
    """A trend's public JSON with the page's ``paper_ids`` (and those by year, and its
    receipt's ``counted``); its counts, per year and in all, stay whole. The receipt had
    carried every counted id whatever the page: 58 KB for "neural networks" at a limit of 1
    (a run's)."""
    ids = trend["paper_ids"]
    shown = ids[page.offset:page.offset + page.limit]
    kept = set(shown)
    by_year = {year: [i for i in year_ids if i in kept]
               for year, year_ids in trend["paper_ids_by_year"].items()}
    receipt = trend.get("receipt")
    if isinstance(receipt, dict) and receipt.get("counted") is not None:
        trend = {**trend, "receipt": {**receipt, "counted": shown}}
    return {**trend, "paper_ids": shown,
            "paper_ids_by_year": {year: found for year, found in by_year.items() if found},
            "page": page.of_total(len(ids), "paper ids")}


def first_entries(text: str, most: int = CHAT_PAGE) -> str:
    """A list answer's text as it streams, up to its ``most``-th paper line (an ellipsis
    after, when there are more): the chat never renders the whole of a long list."""
    lines = text.split("\n")
    seen = 0
    for i, line in enumerate(lines):
        if ENTRY_RE.match(line):
            seen += 1
            if seen > most:
                return "\n".join([*lines[:i], "…"])
    return text
