"""A count of a topic joining alternatives with "or" ("GANs or VAEs"): the union of its
parts' counts, each part counted as its own trend.

Why: screened as one topic, "GANs or VAEs" had counted 299 papers (344 reading 1,000) where
"GANs" and "VAEs" counted 378 between them: the whole topic's screen learns one sense from
the surest papers of both, so a paper on one part stands far from it; the cross-encoder
reads "GANs or VAEs" against a paper on VAEs alone and turns it down; the acronym readings
spell out one part at a time; and the parts share one reading budget. A paper answers an
"or" topic when it answers one of its parts, so the count is the papers either part's own
count keeps, each once, and none that no part counts (``ListAnswers._topic_trend``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from assistant.facets import RELATION_RE
from assistant.list_records import ListedPaper
from assistant.topics import OR_RE, or_readings
from assistant.trends import TrendResult, tallied

_LIST_COMMA = re.compile(r"\s*,\s*")  # "GANs, VAEs or flows": three alternatives


def or_parts(topic: str) -> list[str]:
    """The alternatives a topic joins with "or" ("GANs or VAEs" → GANs, VAEs; "GANs, VAEs,
    or flows" → three), each once; the topic alone when it joins none."""
    topic = re.sub(r"^\s*either\s+", "", topic, flags=re.I)  # "either GANs or VAEs"
    if len(pieces := OR_RE.split(bare := topic.strip(" ?.!"))) < 2:
        return [topic]
    # "object detection in images or videos": the "or" inside a qualified topic joins two
    # words of one phrase, read each in it ("… in images", "… in videos"), not "videos"
    if len(pieces) == 2 and RELATION_RE.search(pieces[0]) and (readings := or_readings(bare)):
        return readings
    parts = [p.strip(" \"'“”") for piece in pieces for p in _LIST_COMMA.split(piece)]
    return list(dict.fromkeys(p for p in parts if re.search(r"\w", p)))


def union_trend(topic: str, parts: list[TrendResult]) -> TrendResult:
    """The count of ``topic`` from its parts' counts (``or_parts``, one filter): every
    paper a part counted, once (as a part read it rather than one keeping it unread, then
    by its best score), per year and venue; what was screened, read and left out unread is
    the sum of the parts' screens, each with its own reading budget."""
    first = parts[0]
    counted = _union_papers(parts)
    papers = [p.paper for p in counted]
    ids = {p.paper_id for p in papers}
    # set apart by one part and counted by none (C69: the first part's alone, some counted by the other)
    apart = list({p.paper_id: p for part in parts for p in part.set_apart if p.paper_id not in ids}.values())
    years, by_year, venues = tallied(papers, first.years)
    return replace(
        first, topic=topic, years=years, venues=venues,
        paper_ids=[p.paper_id for p in papers], counted=counted, by_year=by_year,
        stored={y: first.stored.get(y, 0) for y in years},
        screened=sum(p.screened for p in parts), reread=sum(p.reread for p in parts),
        unread_left_out=sum(p.unread_left_out for p in parts),
        kept_unread=sum(p.kept_unread for p in counted), budget=sum(p.budget for p in parts),
        unknown_year=sum(p.year is None for p in papers),
        set_apart=apart,
        seconds=sum(p.seconds for p in parts), chart=None)


def _union_papers(parts: list[TrendResult]) -> list[ListedPaper]:
    """The papers the parts counted, each once: as a part that read it saw it (not kept
    unread), else at its best score; best first."""
    best: dict[str, ListedPaper] = {}
    for listed in (p for part in parts for p in part.counted):
        kept = best.get(listed.paper.paper_id)
        if kept is None or (kept.kept_unread, -kept.score) > (listed.kept_unread, -listed.score):
            best[listed.paper.paper_id] = listed
    return sorted(best.values(), key=lambda p: -p.score)
