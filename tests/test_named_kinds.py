"""A list topic naming data by its name and its kind ("the ImageNet dataset"): read as the
name (``readings.without_kind``), since a paper using the data writes the name, seldom
the kind word. Among the 13.9k, "Which papers use the ImageNet dataset?" listed 44 papers
and "Which papers use ImageNet?" 306."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.readings import without_kind

PAPERS = [
    ("Sparse Routing for Vision", "We train sparse routing networks and report top-1 accuracy "
     "on ImageNet, where they match dense baselines at half the compute."),
    ("Label Noise at Scale", "Label noise hurts large classifiers. We relabel ImageNet with a "
     "committee of annotators and measure how much accuracy the noise costs."),
    ("Curricula for Contrastive Pretraining", "A curriculum orders the views a contrastive "
     "learner sees. Pretrained on ImageNet, the learner transfers better to detection."),
]


@pytest.fixture(scope="module")
def imagenet_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "kinds", PAPERS)))


def test_a_named_datasets_list_is_the_names_list(imagenet_store: Assistant) -> None:
    screen = ListScreen(imagenet_store.index)

    def listed(question: str) -> set[str]:
        return {p.paper.title for p in screen.screen(question).papers}

    by_name = listed("Which papers use ImageNet?")
    assert by_name >= {title for title, _ in PAPERS}
    for question in ("Which papers use the ImageNet dataset?",
                     "Which papers use the ImageNet benchmark?"):
        assert listed(question) == by_name, question


@pytest.mark.parametrize(("topic", "read"), [
    ("use the ImageNet dataset?", "use ImageNet?"),
    ("use the Penn Treebank corpus?", "use Penn Treebank?"),
    ("evaluate on the CIFAR-10 benchmark?", "evaluate on CIFAR-10?"),
    ("use the MNIST database?", "use MNIST?"),
    # no name before the kind word, or the kind word naming a part of something
    ("use large datasets?", "use large datasets?"),
    ("use the same dataset?", "use the same dataset?"),
    ("use the MNIST database of digits?", "use the MNIST database of digits?"),
    # a review: kinds of data, a thing of a kind, a year ("NLP" had listed any NLP paper)
    ("propose new NLP benchmarks?", "propose new NLP benchmarks?"),
    ("introduce QA datasets?", "introduce QA datasets?"),
    ("introduce a QA dataset?", "introduce a QA dataset?"),
    ("use the 2018 benchmark?", "use the 2018 benchmark?"),
    ("use large-scale 3D datasets?", "use large-scale 3D datasets?"),
])
def test_only_a_names_kind_word_is_left_out(topic: str, read: str) -> None:
    assert without_kind(topic) == read


def test_a_term_lookup_keeps_the_kind_word(imagenet_store: Assistant) -> None:
    """A lookup wants the words as asked: "mention the ImageNet dataset" asks for both."""
    screen = ListScreen(imagenet_store.index)
    assert "dataset" in screen.searched_topic("Which papers mention the ImageNet dataset?")
