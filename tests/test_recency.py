"""Recent papers first: "Which recent papers use GANs?", "the latest papers on diffusion
models", "Recent Bengio papers" ask for the papers on the topic (or of the author) with the
newest first. The recency words had been read as the topic's ("recent use GANs?"), so a
list kept the papers that write "recent" and left out most of the rest."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import make_settings
from test_authors import NAMED

from assistant.answering import final_answer
from assistant.corpus import Paper
from assistant.counted_topics import count_topic
from assistant.intent import read_intent
from assistant.list_lines import answer_lines
from assistant.list_records import ListedPaper, ListResult
from assistant.paper_order import in_year_order
from assistant.pipeline import Assistant
from assistant.topics import topic_of


@pytest.mark.parametrize(("question", "topic"), [
    ("Which recent papers use GANs?", "use GANs?"),
    ("What are the latest papers on diffusion models?", "diffusion models?"),
    ("newest papers on federated learning", "federated learning"),  # had been a summary
    ("Show me the most recent papers on reinforcement learning", "reinforcement learning"),
    ("recent GAN papers", "GAN"),
    ("List new papers on graph neural networks", "graph neural networks"),
    ("Which recent GAN papers were published since 2019?", "GAN ?"),  # its range cut first
    # no papers' noun: the recency after the topic, or "work" after the recency word
    ("Which papers on GANs were published recently?", "GANs?"),
    ("recent work on GANs", "GANs"),
    # "in recent years" after the topic, with or without the verb (a researcher's run:
    # "recent" and "years" had been words each paper must hold)
    ("Which papers on GANs were published in recent years?", "GANs?"),
    ("Which papers study GANs in recent years?", "study GANs?"),
    ("List papers on graph neural networks from recent years.", "graph neural networks."),
    # C61: a range stated after it ("…, since 2019": 3 papers writing "recent years", not
    # 173), and "have appeared" ("GANs have?")
    ("Which papers on GANs were published in recent years, since 2019?", "GANs?"),
    ("Which papers on GANs have appeared in recent years?", "GANs?"),
])
def test_a_recency_word_asks_for_the_newest_first_not_for_a_topic_word(
        question: str, topic: str) -> None:
    intent = read_intent(question)
    assert intent.wants_list and intent.kind == "list" and intent.newest_first
    assert topic_of(intent.search) == topic


@pytest.mark.parametrize("question", [
    "How many papers on GANs were published recently?",
    "How many papers on GANs were published in recent years?",  # C61: "GANs were published in recent"
    "How many papers on GANs in recent years?"])
def test_a_count_asked_of_recent_years_counts_the_topic(question: str) -> None:
    assert count_topic(read_intent(question)) == "GANs"


@pytest.mark.parametrize(("question", "topic"), [
    ("Which papers use GANs?", "use GANs?"),
    ("GAN papers", "GAN"),
    # a recency word that is the topic's, not before the papers' noun: kept
    ("Which papers use recent advances in optimization?", "use recent advances in optimization?"),
    ("Which papers propose new architectures?", "propose new architectures?"),
    ("Which papers study new optimization methods?", "study new optimization methods?"),
    ("Find the most cited papers on attention", None),  # the best few, as before
])
def test_a_list_that_asks_no_recency_stays_best_first(question: str, topic: str | None) -> None:
    intent = read_intent(question)
    assert not intent.newest_first
    if topic:
        assert topic_of(intent.search) == topic


@pytest.mark.parametrize(("question", "author", "search"), [
    ("Recent Bengio papers", "Bengio", "Recent papers"),
    ("recent bengio papers", "bengio", "recent papers"),
    ("Newest Yoshua Bengio papers", "Yoshua Bengio", "Newest papers"),  # had read a "Newest Yoshua"
    ("Latest Hinton papers on capsules", "Hinton", "Latest papers on capsules"),
])
def test_recent_papers_of_an_author_are_all_of_theirs_newest_first(
        question: str, author: str, search: str) -> None:
    """"Recent Bengio papers" listed 12 of the 105 papers of the Bengios, those writing
    "recent": the author's papers, all of them (or those on the topic), newest first."""
    intent = read_intent(question, (), NAMED)
    assert intent.filters and intent.filters.author == author and intent.search == search
    assert intent.wants_list and intent.newest_first
    assert topic_of(search, or_question=False) in ("", "capsules")
    # a name is never read with the recency word in it, stored or not
    assert read_intent("Recent Bengio's papers").filters.author == "Bengio"  # type: ignore[union-attr]


def listed(title: str, year: int | None, score: float) -> ListedPaper:
    return ListedPaper(Paper(title, title, title, "x.", year=year), score, "x.", True)


def test_a_list_newest_first_is_ordered_by_year_then_score_and_says_so() -> None:
    papers = [listed("best old", 1999, 0.9), listed("undated", None, 0.95),
              listed("weak new", 2021, 0.2), listed("strong new", 2021, 0.8),
              listed("mid", 2010, 0.5)]
    result = ListResult("q", "topic", papers, 100, 100, 50, 10)
    assert "newest first" not in result.count_line()
    ordered = in_year_order(result, oldest=False)
    assert [p.paper.title for p in ordered.papers] == [
        "strong new", "weak new", "mid", "best old", "undated"]
    assert ordered.count_line() == "5 papers of the 100 match, newest first; 50 screened, 10 reread"
    # a list of none gives its unconfirmed mentions in the same order, and says so
    mentions = in_year_order(ListResult("q", "topic", [], 100, 100, 50, 10, mentions=papers),
                             oldest=False)
    first = next(answer_lines(mentions))
    assert first.endswith("listed unconfirmed, newest first:\n")
    assert [p.paper.year for p in mentions.mentions] == [2021, 2021, 2010, 1999, None]


# (authors, year, title, abstract): papers on wombat burrows over the years, one undated
BURROWS = [
    ("Ada Lovelace", "1995", "Burrow Engines",
     "We compute wombat burrow temperatures with an analytical engine and find them stable."),
    ("Grace Hopper", "2010", "Counting Wombat Burrows",
     "We count wombat burrows along three transects and map where wombats dig them."),
    ("Ada Lovelace", "2019", "Deep Wombat Burrows",
     "A deep network maps wombat burrows from lidar scans of the bush."),
    ("Ada Lovelace", "", "Undated Wombat Burrows",
     "Wombat burrows stay cool through the summer, as we measure over a season."),
]


@pytest.fixture(scope="module")
def burrows_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds (all of 2025, on other topics) and BURROWS, with their years."""
    path = tmp_path_factory.mktemp("recency") / "papers.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([("authors", "year", "title", "abstract"), *BURROWS])
    data = path.parent / "data"
    shutil.copytree(seed_dir, data)
    assert Assistant(make_settings(data)).ingest([path]).added == len(BURROWS)
    return data


def test_recent_papers_on_a_topic_are_listed_newest_first(burrows_dir: Path) -> None:
    """Every surface lists from ``ListAnswers.list_papers``: the CLI's and the Lists tab's
    lines, ``--json``'s and the MCP tool's sources are in its order."""
    app = Assistant(make_settings(burrows_dir))
    plain = final_answer(app.answer_stream("Which papers study wombat burrows?"))
    recent = final_answer(app.answer_stream("Which recent papers study wombat burrows?"))
    assert sorted(s.title for s in recent.sources) == sorted(s.title for s in plain.sources)
    assert [s.title for s in recent.sources] == [
        "Deep Wombat Burrows", "Counting Wombat Burrows", "Burrow Engines",
        "Undated Wombat Burrows"]
    assert recent.answer.splitlines()[0].startswith("4 papers of the 42 match, newest first;")
    assert "newest first" not in plain.answer.splitlines()[0]
    # an author's papers: all of hers, newest first, not those writing "recent"
    hers = final_answer(app.answer_stream("Recent Ada Lovelace papers"))
    assert [s.title for s in hers.sources] == [
        "Deep Wombat Burrows", "Burrow Engines", "Undated Wombat Burrows"]
    assert hers.answer.startswith("3 papers of the 3 (author Ada Lovelace) match, newest first;")
