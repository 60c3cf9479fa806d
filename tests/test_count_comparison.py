"""A question comparing two topics by their papers' count ("Are there more papers on GANs or
on normalizing flows?") is answered with both counted as a trend is, not with quoted
sentences: its reading (``Intent.compared_topics``) and its answer over the seeds."""

from __future__ import annotations

import pytest

from assistant.answering import final_answer
from assistant.intent import read_intent
from assistant.pipeline import Assistant


@pytest.mark.parametrize(("question", "topics"), [
    ("Are there more papers on GANs or on normalizing flows?", ("GANs", "normalizing flows")),
    ("Were there fewer GAN papers than VAE papers?", ("GAN", "VAE")),
    ("Do more papers study GANs or VAEs?", ("GANs", "VAEs")),
    ("Which has more papers, GANs or VAEs?", ("GANs", "VAEs")),
    ("Which topic had the most papers: GANs or normalizing flows?", ("GANs", "normalizing flows")),
    ("Which is more popular, GANs or VAEs?", ("GANs", "VAEs")),
    ("Is reinforcement learning more popular than active learning?",
     ("reinforcement learning", "active learning")),
    ("Are GANs or VAEs more studied?", ("GANs", "VAEs")),
    # no count of two topics' papers
    ("Is the method more common than boosting?", None),
    ("Are there papers on GANs or VAEs?", None),
    ("Which method has more parameters, ResNet or VGG?", None),
    ("Does ResNet outperform VGG?", None),
    # a number of papers, and how often a thing happens (review)
    ("Are there more than 10 papers on GANs or VAEs?", None),
    ("Is overfitting more common than underfitting in small datasets?", None),
])
def test_a_comparison_of_two_topics_counts_is_read(question: str,
                                                   topics: tuple[str, str] | None) -> None:
    assert read_intent(question).compared_topics == topics


def test_two_topics_compared_by_count_get_both_counts(seed_assistant: Assistant) -> None:
    """"Are there more papers on GANs or on normalizing flows?" had quoted five abstracts'
    sentences: now which has more, each topic's count as `assistant trends` gives it, and
    both per year."""
    question = "Are there more papers on reinforcement learning or on federated learning?"
    answer = final_answer(seed_assistant.answer_stream(question))
    rl = seed_assistant.trends("reinforcement learning")
    fl = seed_assistant.trends("federated learning")
    assert rl.total > fl.total >= 1
    lines = answer.answer.splitlines()
    assert lines[0] == (f"More papers on “reinforcement learning” than on “federated "
                        f"learning”: {rl.total} against {fl.total}.")
    assert f"{rl.summary()}." in lines and f"{fl.summary()}." in lines
    assert lines[-2].split() == ["year", "reinforcement", "learning", "federated", "learning",
                                 "of", "stored"]
    assert lines[-1].split() == ["2025", str(rl.total), str(fl.total), "38"]
    assert not answer.citations and answer.receipt is not None
    assert set(answer.receipt.counted or []) == {*rl.paper_ids, *fl.paper_ids}
    # asked with --all, it is a list question as before
    listed = final_answer(seed_assistant.answer_stream(question, every=True))
    assert not listed.answer.startswith("More papers")
