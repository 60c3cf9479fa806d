"""The deep pool's bound (``readings.within_reach``): a paper it leaves out could not have
held the topic's weight nor had its title name it, so the screen reads fewer papers and
keeps the same ones."""

from __future__ import annotations

from assistant.listing import ListScreen, ScreenSettings
from assistant.pipeline import Assistant
from assistant.readings import coverage_readings, within_reach


def test_the_deep_pools_bound_leaves_out_only_papers_that_cannot_reach(
        seed_assistant: Assistant) -> None:
    index = seed_assistant.index
    papers = index.papers()
    settings = ScreenSettings()
    for question in ("Which papers use reinforcement learning?", "graph neural networks",
                     "Which papers use multi-task learning?", "language models"):
        topic = ListScreen(index, settings).searched_topic(question)
        readings = coverage_readings(question, topic, index, list(papers.values()),
                                     settings.idf_power)
        every = list(index.bm25_paper_scores(topic))
        reach = set(within_reach(readings, index, every, settings.deep_coverage))
        for pid in every:
            paper = papers[pid]
            covered = max(r.share(paper, settings.phrase_weight) for r in readings)
            if covered >= settings.deep_coverage or any(r.titles(paper) for r in readings):
                assert pid in reach, (question, paper.title)
        assert len(reach) < len(every), question  # it leaves some out: the time it saves
    assert within_reach(readings, index, ["no such paper"], settings.deep_coverage) == []


def test_a_paper_holds_a_term_where_the_bm25_index_finds_it(seed_assistant: Assistant
                                                             ) -> None:
    index = seed_assistant.index
    held = index.term_papers(["reinforc", "no-such-term"])
    assert set(held) == {"reinforc"}
    assert held["reinforc"] == frozenset(index.bm25_paper_scores("reinforcement"))
