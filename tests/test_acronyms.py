"""A list topic is searched as the field writes it: a run of its words as their acronym, an
acronym as the words its papers spell it out as (acronyms.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.acronyms import acronym_readings, spelled_readings
from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.topics import topic_of


def test_a_topic_is_searched_as_its_acronym_and_an_acronym_spelled_out(
        seed_assistant: Assistant) -> None:
    """Many papers write only "ODE" for "ordinary differential equations", and others only
    the words for "DPPs": the topic is searched both ways, as the seeds' own papers write
    each acronym, and not where they never do."""
    index = seed_assistant.index
    assert acronym_readings("use large language models", index) == ["use LLM"]
    assert acronym_readings("reinforcement learning from human feedback", index) == ["RLHF"]
    assert spelled_readings("use GNNs", index) == ["use graph neural networks"]
    assert acronym_readings("sourdough bread recipes", index) == []
    assert spelled_readings("use XYZQ", index) == []
    screen = ListScreen(index)
    assert screen.searched_topic("Which papers use LLMs?") == (
        "use LLMs? | use large language models?")
    plain = ListScreen(index, dataclasses.replace(screen.settings, acronyms=False))
    assert plain.searched_topic("Which papers use LLMs?") == topic_of("Which papers use LLMs?")


def test_an_acronym_reading_keeps_the_examples_the_topic_gives(seed_assistant: Assistant) -> None:
    # joined bare, "GNNs, e.g. GraphSAGE or GCN-like models for fraud detection" had read as
    # "GNN GraphSAGE" or "GCN like models for fraud detection": 144 GNN papers, none on fraud
    assert acronym_readings("large language models, e.g. GPT or Llama, for code generation",
                            seed_assistant.index) == ["LLM, e.g. GPT or Llama, for code generation"]


def test_an_acronym_its_papers_spell_out_otherwise_is_no_reading(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run: "Which papers use self-supervised learning?" read "use SSL?" too, and listed
    three semi-supervised papers first: more of the papers writing SSL spell it out as
    "semi-supervised learning". The topic is read through the acronym only when its own
    words lead."""
    semi = [(f"Semi Paper {i}", f"Semi-supervised learning (SSL) uses unlabeled data {i}. "
             "We propose an SSL method for image classification.") for i in range(3)]
    self_ = [("Self Paper", "Self-supervised learning (SSL) learns representations without "
              "labels. Our SSL objective predicts rotations.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "ssl", semi + self_)))
    assert acronym_readings("use self-supervised learning", app.index) == []
    assert acronym_readings("use semi-supervised learning", app.index) == ["use SSL"]
