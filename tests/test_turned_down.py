"""A list says which papers the reading turned down though they write its topic
(``list_lines.turned_down_line``): the cross-encoder judges what a paper is about, and
"Which papers from 2019 use transformers?" listed 9 papers among the 13.9k with nothing
said of 17 writing "Transformer" (XLNet, ViLBERT, FastSpeech), each read near −10."""

from __future__ import annotations

import dataclasses

from assistant.list_lines import turned_down_line
from assistant.list_records import CROSS_ENCODER, Candidate, ListedPaper, ListResult
from assistant.paper import Paper
from assistant.pipeline import Assistant


def test_a_list_names_the_papers_turned_down_that_write_its_topic(
        seed_assistant: Assistant) -> None:
    paper = next(iter(seed_assistant.index.papers().values()))

    def made(pid: str, title: str, text: str) -> Paper:
        return dataclasses.replace(paper, paper_id=pid, title=title, text=text, year=2019)

    kept = made("kept", "A Tensorized Transformer", "We compress the transformers of NLP.")
    xlnet = made("xlnet", "XLNet", "XLNet integrates ideas from Transformer-XL into pretraining.")
    near = made("near", "Deep Equilibrium Models", "We find the fixed point of a transformer.")
    other = made("other", "Sketching SGD", "We sketch gradients to cut communication.")

    def read(p: Paper, logit: float, judged: bool) -> Candidate:
        return Candidate(p, 1.0, 0.2, 1.1, logit=logit, judged=judged, reader=CROSS_ENCODER)

    result = ListResult("Which papers from 2019 use transformers?", "use transformers?",
                        [ListedPaper(kept, 1.5, kept.text, True, 3.0, CROSS_ENCODER)], 4, 4, 4, 4,
                        candidates=[read(kept, 3.0, True), read(xlnet, -10.1, False),
                                    read(other, -11.0, False), read(near, -0.2, False)],
                        written="use transformers?")
    line = turned_down_line(result)
    # the nearest to kept first; the paper writing none of it is not named
    assert line.startswith("2 more papers write “transformers” but were read as not answering "
                           "it: “Deep Equilibrium Models” (2019); “XLNet” (2019).")
    assert "Sketching" not in line and "Tensorized" not in line
    assert turned_down_line(dataclasses.replace(result, candidates=[read(kept, 3.0, True)])) == ""
    # an "or" topic: a paper writing one part does not write "GANs or VAEs" (a review)
    either = dataclasses.replace(result, topic="use transformers or RNNs?",
                                 written="use transformers or RNNs?")
    assert turned_down_line(either) == ""
    # written only by a stem ("transformation"), or a verb for a name: no claim (a review:
    # "capsulate" for capsule networks, "glue" for GLUE)
    stem = made("stem", "Spatial Maps", "We learn a transformation of the input maps.")
    stemmed = dataclasses.replace(result, candidates=[read(stem, -1.0, False)])
    assert turned_down_line(stemmed) == ""


def test_the_topic_s_first_word_is_no_verb(seed_assistant: Assistant) -> None:
    # "Which papers on capsule networks?" (an order question's list) had said that a paper
    # "writes “networks”": the topic's first word had been read as the question's verb
    paper = next(iter(seed_assistant.index.papers().values()))
    kept = dataclasses.replace(paper, paper_id="kept", title="Dynamic Routing Between Capsules",
                               text="We train capsule networks by routing.", year=2017)
    down = dataclasses.replace(paper, paper_id="down", title="Stacked Capsule Autoencoders",
                               text="Unlike capsule networks, we learn parts.", year=2019)
    read = [Candidate(p, 1.0, 0.2, 1.1, logit=x, judged=x > 0, reader=CROSS_ENCODER)
            for p, x in ((kept, 3.0), (down, -2.0))]
    result = ListResult("Which papers on capsule networks?", "capsule networks?",
                        [ListedPaper(kept, 1.5, kept.text, True, 3.0, CROSS_ENCODER)], 2, 2, 2, 2,
                        candidates=read, written="capsule networks?")
    assert turned_down_line(result).startswith(
        "1 more paper writes “capsule networks” but was read as not answering it: "
        "“Stacked Capsule Autoencoders” (2019).")
