"""A count of a topic joining alternatives with "or" is the union of its parts' counts
(or_counts.py): every paper either part counts, once, and none that neither counts."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.or_counts import or_parts, union_trend
from assistant.pipeline import Assistant


@pytest.mark.parametrize(("topic", "parts"), [
    ("GANs or VAEs", ["GANs", "VAEs"]),
    ("either GANs or VAEs", ["GANs", "VAEs"]),  # had been "either GANs": 333 against 378
    # an "or" inside a qualified topic: "videos" alone had counted 161 of a 306
    ("object detection in images or videos",
     ["object detection in images", "object detection in videos"]),
    ("GANs, VAEs, or normalizing flows?", ["GANs", "VAEs", "normalizing flows"]),
    ("graph neural networks", ["graph neural networks"]),
])
def test_a_topic_s_alternatives_are_its_parts(topic: str, parts: list[str]) -> None:
    assert or_parts(topic) == parts


@pytest.mark.parametrize("topic", ["GNNs or RL", "graph neural networks or transformers"])
def test_an_or_topic_counts_every_paper_either_part_counts(seed_assistant: Assistant,
                                                           topic: str) -> None:
    """Screened as one topic, "GANs or VAEs" had counted 299 papers on the 13.9k where
    "GANs" and "VAEs" counted 378 between them (20 of VAEs' 158 left out: the whole topic's
    sense, reading and budget were both parts' at once); among the seeds "GNNs or RL" had
    counted 3 of its parts' 6. Now each paper either part counts is counted once, per year
    too, and the answer cites them all."""
    parts = [seed_assistant.trends(part) for part in or_parts(topic)]
    either = {pid for part in parts for pid in part.paper_ids}
    trend = seed_assistant.trends(topic)
    assert trend.topic == topic
    assert len(trend.paper_ids) == len(set(trend.paper_ids)) == len(either) > max(
        part.total for part in parts)
    assert set(trend.paper_ids) == either
    assert sum(trend.years.values()) + trend.unknown_year == trend.total
    assert {pid for ids in trend.by_year.values() for pid in ids} <= either
    assert trend.receipt().matching == len(trend.sources()[0]) == trend.total


def test_an_or_topics_papers_set_apart_are_its_parts_less_those_counted(seed_assistant: Assistant) -> None:
    """C69: `trends "graph neural networks or Hopfield networks" --json` had said 52 set
    apart and given 40 ids (the first part's), one of them also among the counted."""
    first, second = (seed_assistant.trends(part) for part in ("GNNs", "RL"))
    assert second.paper_ids, "the seeds hold RL papers"
    papers = seed_assistant.index.papers()
    counted_by_second, other = papers[second.paper_ids[0]], next(
        p for pid, p in papers.items() if pid not in first.paper_ids + second.paper_ids)
    parts = [dataclasses.replace(first, set_apart=[counted_by_second, other]),
             dataclasses.replace(second, set_apart=[other])]
    union = union_trend("GNNs or RL", parts)
    assert [p.paper_id for p in union.set_apart] == [other.paper_id] and union.apart == 1
    assert union.public_json()["listed_apart_ids"] == [other.paper_id]
