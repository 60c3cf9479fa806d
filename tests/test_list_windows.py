"""A filter only narrows a list: a paper reads the same under any filter (the topic's
readings and sense are the whole store's), so a year's count within a window is its count
without one; an author of a few papers too (an author of many teaches the sense)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import make_settings

from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.types import Filters

TOPIC = "Which papers use capsule networks?"
PAPERS = [  # (title, abstract, year, authors): a topic's sure papers in one year, looser later
    *[(f"Capsule networks with routing variant {n}",
       f"We study capsule networks with dynamic routing between capsules, variant {n}, and "
       "show that capsule networks learn part-whole hierarchies of objects.", 2018, "Sara Sabour")
      for n in range(8)],
    *[(f"Equivariant features in vision {n}",
       f"Our vision model groups neurons into capsules of pose, setting {n}, and learns "
       "equivariant features for recognition of objects in images.", 2021, "Ann Lee")
      for n in range(4)],
]


@pytest.fixture(scope="module")
def capsules(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    path = tmp_path_factory.mktemp("capsules") / "papers.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([("title", "abstract", "year", "authors"), *PAPERS])
    data = path.parent / "data"
    shutil.copytree(seed_dir, data)
    app = Assistant(make_settings(data))
    assert app.ingest([path]).added == len(PAPERS)
    return app


@pytest.mark.parametrize("narrowing", [Filters(years=(2019, 2021)), Filters(author="Ann Lee")])
def test_a_papers_signals_are_the_same_under_a_filter(capsules: Assistant, narrowing: Filters) -> None:
    """"capsule networks" had counted 3 papers of 2021 over the 13.9k and 4 under --year
    2019-2021: the topic's sense was the mean of the window's ten surest papers, and a 2021
    paper stood nearer that than the whole store's. An author's few papers had taught it
    too, the mean of most of her work (a run's: three of Ian Goodfellow's 11 papers, on GANs,
    kept for "adversarial examples" by their sense)."""
    screen = ListScreen(capsules.index)
    whole = {c.paper.paper_id: c for c in screen.candidates(TOPIC)}
    narrowed = screen.candidates(TOPIC, narrowing)
    assert narrowed and len(narrowed) < len(whole)
    for c in narrowed:
        assert c.paper.year == 2021
        same = whole[c.paper.paper_id]
        assert (c.coverage, c.cheap) == (same.coverage, same.cheap), c.paper.title
        assert abs(c.sense - same.sense) < 1e-6, c.paper.title


def test_a_years_count_within_a_window_is_its_count_without_one(capsules: Assistant) -> None:
    whole = capsules.lists.trends(TOPIC)
    window = capsules.lists.trends(TOPIC, Filters(years=(2019, 2021)))
    assert window.unread_left_out == whole.unread_left_out == 0  # the budget read them all
    assert window.years.get(2021, 0) == whole.years.get(2021, 0)
