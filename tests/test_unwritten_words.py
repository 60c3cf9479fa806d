"""An answer says when its cited abstracts never write a word of the question, as the
question means it: "GANs" is written by "GAN" and "GAN-based" (a notice had said otherwise),
and "transformer" is not written by "transformation", which shares its stem (a paper on
distilling CNNs had answered "What methods reduce the memory of transformer training?"
with no notice). Both from hostile users' runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.naming import mentioned
from assistant.pipeline import Assistant
from assistant.readings import unwritten_own_words

PAPERS = [
    ("Cheap Convolutions", "We reduce the memory of CNN training with cheap convolutions "
     "and a learned transformation of the filters."),
    *((f"Invariance {n}", f"Features invariant to each transformation of group {n}; the "
       "transformations are learnt.") for n in range(4)),
    ("Sparse Transformers", "A sparse transformer reduces the memory of attention."),
]


@pytest.fixture(scope="module")
def words_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "words", PAPERS)))


def test_a_word_held_only_as_its_own_is_unwritten_by_its_stems_other_words(
        words_store: Assistant) -> None:
    papers = {p.title: p for p in words_store.index.papers().values()}
    question = "What methods reduce the memory of transformer training?"
    assert unwritten_own_words(question, [papers["Cheap Convolutions"]],
                               words_store.index) == ["transformer"]
    assert unwritten_own_words(question, [papers["Sparse Transformers"]], words_store.index) == []


@pytest.mark.parametrize("text", ["We train a GAN on faces.", "A GAN-based generator.",
                                  "Two GANs compete."])
def test_an_acronyms_plural_is_mentioned_by_its_singular(text: str) -> None:
    assert mentioned("GANs", text)


@pytest.mark.parametrize("text", ["A VAE-GAN hybrid.", "We use GPTQ.", "gradient clipping"])
def test_a_name_inside_another_is_not_mentioned(text: str) -> None:
    assert not any(mentioned(name, text) for name in ("VAE", "GPT", "CLIP"))


@pytest.mark.parametrize(("name", "text"), [("GPT", "We use GPT-3."), ("VGG", "A VGG-16 backbone."),
                                            ("ResNet", "ResNet-50 on ImageNet.")])
def test_a_models_version_or_size_mentions_it(name: str, text: str) -> None:
    """A review: "Compare VGG and ViT." dropped the paper writing "VGG-16" from its table and
    said the cited abstract does not mention VGG."""
    assert mentioned(name, text)
