"""What a question asks its papers not to write ("papers on kernel methods that do not use
SVM", "… but not X", "excluding X") is a filter (exclusions.py, ``Filters.excluded``): the
exclusion had been searched as part of the topic, and a run's list held 76 kernel-method
papers quoting SVMs, and its count of "active learning don't mention deep learning" papers
on poisoning and parities."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.answering import final_answer
from assistant.corpus import Paper
from assistant.exclusions import stated_exclusion
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.types import Filters

KERNELS = [
    ("Kernel Ridge Scaling", "Kernel methods scale to millions of points with random features."),
    ("Indefinite Kernel SVMs", "Kernel methods such as support vector machines (SVMs) need "
     "positive kernels; we train SVMs with indefinite kernels."),
    ("Margins of Kernel Machines", "We bound the margin of kernel methods built on a Support "
     "Vector Machine with a Gaussian kernel."),
    ("Kernel Two-Sample Tests", "Kernel methods test whether two samples share a distribution."),
]


@pytest.fixture(scope="module")
def kernels_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "kernels", KERNELS)))


@pytest.mark.parametrize(("question", "excluded", "rest"), [
    ("papers on kernel methods that do not use SVM", "SVM", "papers on kernel methods"),
    ("How many papers on active learning don't mention deep learning?", "deep learning",
     "How many papers on active learning?"),
    ("papers on kernel methods but not SVMs", "SVMs", "papers on kernel methods"),
    ("Which papers study GANs, excluding StyleGAN?", "StyleGAN", "Which papers study GANs?"),
    ("papers on optimizers except for the Adam method", "Adam", "papers on optimizers"),
    ("List papers on bandits except the ones on contextual bandits", "contextual bandits",
     "List papers on bandits"),  # a review: "ones on contextual bandits" had been left out
    ("excluding Bayesian ones", "Bayesian", ""), ("but not routing", "routing", ""),  # fragments
    # a second review: a relative clause on the papers, a topic after an author
    ("Papers that use GANs but not StyleGAN", "StyleGAN", "Papers that use GANs"),
    # a last run: a topic typed alone, and "are not about"
    ("image segmentation but not medical", "medical", "image segmentation"),
    ("Give me transformers but not BERT", "BERT", "Give me transformers"),  # a sixth review
    ("GANs that are not about images", "images", "GANs"),
    ("Which papers on federated learning are not about privacy?", "privacy",
     "Which papers on federated learning?"),
    ("Which papers by Hinton but not on capsules?", "capsules", "Which papers by Hinton?"),
    # an eighth review: a kind of paper is a topic to keep
    ("Find datasets but not ImageNet", "ImageNet", "Find datasets"),
    ("Show me methods but not deep learning", "deep learning", "Show me methods"),
])
def test_an_exclusion_is_read_apart_from_the_topic(question: str, excluded: str, rest: str) -> None:
    assert stated_exclusion(question) == (excluded, rest)


@pytest.mark.parametrize("question", [
    "Which papers train transformers without attention?",  # a topic written so
    "not only accuracy but also speed", "Is dropout better than batch norm or not?",
    "papers that do not use the",  # no word to leave out
    # a review and a run: no papers asked for, a clause of its own, a gerund taken, a
    # title, an author
    "Which methods do not rely on labels?", "Which papers find that CNNs do not rely on shape?",
    "How many papers study why deep networks do not use all their parameters?",
    "Which papers study excluding outliers from the training data?",
    "who wrote Learning rule influences recurrent network representations but not attractor "
    "structure in decision-making tasks?",
    "Which papers by Hinton but not Bengio?", "papers on GANs except those by Goodfellow",
    # a fifth review: requests, statements, places and years are no bare topic's exclusion
    "Show me GANs but not the first one", "deep learning except for the last two",
    "Explain it but not the math", "Privacy is not on the agenda", "2019 but not 2020",
    # a seventh review: what a request asks of an answer names no topic to keep, "on par"
    # is no topic, and no topic is asked for by a generic noun alone
    "Tell me about it but not the math", "Give me a summary but not the details",
    "Show me the results but not the tables", "Give an example but not a toy one",
    "Models that are not on par with humans", "OK but not the older ones",
])
def test_no_exclusion_is_read_where_none_is_stated(question: str) -> None:
    assert stated_exclusion(question) == (None, question)


def test_a_paper_writing_an_excluded_phrase_in_any_form_is_left_out() -> None:
    """Plural or singular, any case, hyphenated: "support vector machines" leaves out "a
    Support Vector Machine" and "support-vector machine"."""
    filters = Filters(excluded=("support vector machines", "SVM"))
    assert "not writing “support vector machines” or “SVM”" in filters.describe()
    texts = [a for _, a in KERNELS] + ["We train a support-vector machine.", "SVMlight is fast.",
                                       "Our SVM-based and kernel-SVM models."]  # a review's
    # a last run: "Gaussian processes" had kept every paper writing "Gaussian process"
    assert not Filters(excluded=("Gaussian processes",)).allows(
        Paper(paper_id="g", title="Fast Gaussian Process Regression", text="", source="x"))
    # a fifth review: "notes" had left out every paper writing "not" (3,408 of the 13.9k)
    assert Filters(excluded=("notes",)).allows(Paper(paper_id="n", title="", text="We do not.", source="x"))
    assert Filters(excluded=("uses",)).allows(Paper(paper_id="u", title="", text="It lets us.", source="x"))
    # a seventh review: "viruses" had kept papers writing "virus"; "studies" those writing "study"
    for excluded, text in (("viruses", "A virus model."), ("lenses", "a thin lens"),
                           ("studies", "A case study."), ("analyses", "An analysis.")):
        assert not Filters(excluded=(excluded,)).allows(
            Paper(paper_id="v", title="", text=text, source="x")), excluded
    papers = [Paper(paper_id=str(i), title="", text=t, source="x") for i, t in enumerate(texts)]
    assert [p.text for p in papers if filters.allows(p)] == [texts[0], texts[3], texts[5]]


def test_a_list_and_a_count_leave_out_the_excluded_papers(kernels_store: Assistant) -> None:
    listed = final_answer(kernels_store.answer_stream("Which papers use kernel methods that do not use SVM?"))
    assert {c.title for c in listed.citations} == {"Kernel Ridge Scaling", "Kernel Two-Sample Tests"}
    assert listed.filters and "not writing “SVM”" in listed.filters
    counted = final_answer(kernels_store.answer_stream("How many papers on kernel methods but not SVMs?"))
    assert counted.answer.startswith("2 papers of the ")


def test_an_exclusion_narrows_a_chat_and_a_swap_to_it_drops_it(kernels_store: Assistant) -> None:
    """A run: "but not routing" after a list had been answered as a question of its own; a
    review: "what about StyleGAN?" after "… but not StyleGAN" had kept leaving it out."""
    history = [("Which papers use kernel methods?", "")]
    history[0] = (history[0][0], final_answer(kernels_store.answer_stream(history[0][0])).answer)
    narrowed = final_answer(kernels_store.answer_stream("but not SVMs", history))
    assert {c.title for c in narrowed.citations} == {"Kernel Ridge Scaling", "Kernel Two-Sample Tests"}
    history.append(("but not SVMs", narrowed.answer))
    swapped = final_answer(kernels_store.answer_stream("what about SVMs?", history))
    assert not swapped.filters or "SVM" not in swapped.filters


def test_a_second_exclusion_adds_to_the_first(kernels_store: Assistant) -> None:
    """A second review: "but not EM" after "… but not routing" had left out EM alone."""
    first = "Which papers use kernel methods but not SVMs?"
    history = [(first, final_answer(kernels_store.answer_stream(first)).answer)]
    both = final_answer(kernels_store.answer_stream("but not random features", history))
    assert both.filters and "SVMs" in both.filters and "random features" in both.filters
    assert {c.title for c in both.citations} == {"Kernel Two-Sample Tests"}


CAPSULES = [
    ("Routing Capsules", "Capsule networks route parts to wholes.", "Geoffrey Hinton, Sara Sabour"),
    ("Matrix Capsules", "Capsule networks with EM routing recognise objects.", "Geoffrey E. Hinton"),
    ("Self-Routing Capsules", "Capsule networks route each capsule on its own.", "Taeyoung Hahn"),
    ("Capsule Graphs", "Capsule networks classify graphs.", "Zhang Xinyi"),
]


@pytest.fixture(scope="module")
def capsules_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "capsules", CAPSULES,
                                              header=("title", "abstract", "authors"))))


@pytest.mark.parametrize("question", [
    "Which papers on capsule networks are not by Hinton?",
    "Which papers study capsule networks, excluding those by Geoffrey Hinton?",
    "List the capsule network papers except Hinton's.",
    "Which capsule network papers were not written by Hinton?"])
def test_an_author_left_out_is_a_filter_leaving_out_their_papers(
        question: str, capsules_store: Assistant) -> None:
    """A run among the 13.9k: "Which papers on capsule networks are not by Hinton?" listed
    only Hinton's papers (read as the author filter), "except Hinton's" kept them (read as a
    word the papers must not write). An author left out is a filter leaving out theirs."""
    answer = final_answer(capsules_store.answer_stream(question))
    assert {c.title for c in answer.citations} == {"Self-Routing Capsules", "Capsule Graphs"}, answer.answer
    assert answer.filters is not None and answer.filters.startswith("not by ")


@pytest.mark.parametrize("question", [
    "Which papers compress models except by pruning?",
    "Which papers train networks not by backpropagation?",
    "Which papers estimate gradients not by Monte Carlo sampling?",
    "Which capsule papers route, excluding Sabour's routing?"])
def test_a_method_after_not_by_is_no_author_left_out(question: str, capsules_store: Assistant) -> None:
    """A review: "except by pruning", "not by backpropagation" had left out an author named
    "pruning" (the method's words cut from the search), and "excluding Nesterov's
    acceleration" Nesterov's papers: an author left out is one the store has, and a
    possessive before a noun names a method."""
    index = capsules_store.index
    said = read_intent(question, index.venues(), index.author_book()).filters
    assert said is None or said.excluded_author is None, said


def test_an_author_the_store_lacks_left_out_leaves_out_nothing(capsules_store: Assistant) -> None:
    """A second review: with an author left out only when the store has them, "not written
    by Minsky" became the filter "by Minsky" (an error: no such author)."""
    index = capsules_store.index
    said = read_intent("Which papers on capsule networks were not written by Minsky?",
                       index.venues(), index.author_book()).filters
    assert said is not None and said.excluded_author == "Minsky" and said.author is None
