"""A claim's figure must stand where its abstract puts it (number_places.py): a model that
swaps two figures of a sentence, or gives a result the figure of another statement, keeps
every word and every number, and the checker had passed it (bench/number_swaps.py)."""

from __future__ import annotations

import pytest

from assistant.claims import ClaimChecker, missing_facts
from assistant.number_places import misplaced, numbers

FIGURES = ("Our model reaches 92.1% accuracy on CIFAR-10 and 75.3% on CIFAR-100. "
           "We test it on 3 datasets and gain 12% over the strongest baseline.")


@pytest.mark.parametrize("claim, wrong", [
    ("It reaches 92.1% accuracy on CIFAR-10 and 75.3% on CIFAR-100.", []),
    ("It reaches 75.3% accuracy on CIFAR-10 and 92.1% on CIFAR-100.", ["75.3", "92.1"]),
    ("It gains 3% over the strongest baseline.", ["3"]),
    ("It gains 12% over the strongest baseline on three datasets.", []),
    # a paraphrase whose words stand beside no other number is left to the similarity
    ("Accuracy on CIFAR-100 is 75.3%.", []),
    ("Twelve percent is gained over the baseline.", []),
])
def test_a_number_beside_another_numbers_words_is_misplaced(claim: str, wrong: list[str]) -> None:
    assert misplaced(claim, [FIGURES]) == wrong


@pytest.mark.parametrize("claim, abstract", [
    # a review's: the words after "and" are the next figure's, not this one's
    ("Accuracy on CIFAR-100 is 75.3%, and on CIFAR-10 it is 92.1%.", FIGURES),
    ("Top-1 accuracy reaches 76.1% and top-5 accuracy 92.9% on ImageNet.",
     "Our network obtains 76.1% top-1 and 92.9% top-5 accuracy on ImageNet."),
    # ...and "respectively" pairs each figure with words elsewhere
    ("It achieves 96.1% accuracy on CIFAR-10.",
     "It achieves 96.1% and 81.4% accuracy on CIFAR-10 and CIFAR-100, respectively."),
    # ...and is never misplaced by another sentence's words (a review's, of TransGAN's)
    ("TransGAN reaches an inception score of 9.02 and an FID of 9.26 on CIFAR-10.",
     "TransGAN sets a new inception score of 10.43 and FID of 18.28 on STL-10. It also reaches "
     "the inception score of 9.02 and FID of 9.26 on CIFAR-10, and 5.28 FID on CelebA, "
     "respectively."),
])
def test_a_true_figure_is_not_misplaced_by_its_neighbours_words(claim: str, abstract: str) -> None:
    assert misplaced(claim, [abstract]) == []


def test_a_figure_written_also_respectively_is_read_where_it_stands_alone() -> None:
    """A review's: a number the abstract also writes in a "respectively" sentence had been
    exempt everywhere, so a swapped "improves top-1 accuracy by 40%" passed."""
    abstract = ("On ImageNet, SparseNet improves top-1 accuracy by 2.1% while using 40% fewer "
                "parameters. On CIFAR-10 and CIFAR-100 it reaches 96.1% and 81.4% accuracy with "
                "40% and 35% fewer FLOPs, respectively.")
    assert misplaced("On ImageNet, SparseNet improves top-1 accuracy by 40%.", [abstract]) == ["40"]
    assert misplaced("SparseNet uses 40% fewer parameters on ImageNet.", [abstract]) == []
    # ...and its "respectively" place counts as its own (a review's: 92% flagged by 92 hours)
    paired = ("Our model reaches 92% and 85% top-1 accuracy on ImageNet and Places, respectively. "
              "A baseline without pretraining reaches 70% top-1 accuracy on ImageNet. Training "
              "takes 92 hours.")
    assert misplaced("Our model reaches 92% top-1 accuracy on ImageNet.", [paired]) == []


def test_numbers_are_read_as_digits_inside_names_and_words_too() -> None:
    assert numbers("Seven runs of 1,000 steps on CIFAR-10 at 2.50 Hz") == {"7", "1000", "10", "2.5"}


@pytest.mark.parametrize("claim, supported", [
    ("The model reaches 92.1% accuracy on CIFAR-10 and 75.3% on CIFAR-100 [1].", True),
    ("The model reaches 75.3% accuracy on CIFAR-10 and 92.1% on CIFAR-100 [1].", False),
    ("The model gains 3% over the strongest baseline [1].", False),
])
def test_a_claim_with_a_misplaced_figure_is_unsupported(claim: str, supported: bool) -> None:
    [checked] = ClaimChecker().check(claim, {1: FIGURES})
    assert checked.supported is supported, checked.support
    assert bool(missing_facts(claim, [FIGURES])) is not supported
