"""The deep pool's bound (``readings.within_reach``): a paper it leaves out could not have
held the topic's weight nor had its title name it, so the screen reads fewer papers and
keeps the same ones."""

from __future__ import annotations

import numpy as np

from assistant.keywords import KeywordStats, stem_of
from assistant.listing import ListScreen, ScreenSettings
from assistant.pipeline import Assistant
from assistant.readings import coverage_readings, within_reach, without_verb
from assistant.tuning import COMMON_SHARE


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


def test_the_reread_reads_a_list_topic_without_its_common_verb() -> None:
    """Among the 13.9k, "Which papers use Sinkhorn?" listed 20 papers and "List all papers
    on Sinkhorn" 24: the cross-encoder read "use Sinkhorn?" about three logits lower on the
    same sentences. A common verb leading the topic is the papers' relation to it."""
    # "use" in 45% of the 13.9k's chunks, "synthesize" in few (the 38 seeds write "use"
    # in a fifth of theirs): the counts of a store the size of the 13.9k
    stats = KeywordStats(n_docs=100, vocab={stem_of("use"): 0, stem_of("synthesize"): 1},
                         df=np.array([45, 1]))
    assert stats.doc_freq(stem_of("use")) > COMMON_SHARE * stats.n_docs
    assert without_verb("use Sinkhorn? | use Sinkhorn iterations?", "Which papers use "
                        "Sinkhorn?", stats) == "Sinkhorn? | Sinkhorn iterations?"
    assert without_verb("use Sinkhorn?", "List papers that use Sinkhorn?", stats) == "Sinkhorn?"
    # verbs joined by "or" are the topic's alternatives; a rare verb is the topic's own
    kept = ["use or analyze the NTK?", "synthesize speech?"]
    for question, topic in zip(["Which papers use or analyze the NTK?",
                                "Which papers synthesize speech?"], kept, strict=True):
        assert without_verb(topic, question, stats) == topic
    assert without_verb("Sinkhorn", "List all papers on Sinkhorn", stats) == "Sinkhorn"
