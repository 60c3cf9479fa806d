"""How a topic's compound words are read: in the form the stored papers write them
(joined, hyphenated or spaced), whatever form the user typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHARED_DATA, make_settings, seeds_with, skipif_no_shared_data

from assistant.answering import final_answer
from assistant.corpus import Paper
from assistant.keywords import document_terms, plain_letters, query_terms, spellings
from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.word_runs import Run, name_runs
from assistant.written_forms import (
    HYPHENATED,
    JOINED,
    SPACED,
    WrittenText,
    compound_forms,
    short_forms,
    written_topic,
)

# Fine-tuning hyphenated by three papers and joined by one; "hyperparameters" joined by two,
# hyphenated by one; "state-of-the-art" and "neural networks" as the field writes them.
FORMS_PAPERS = [
    ("Adapters", "We study fine-tuning of large pretrained models with adapters."),
    ("Prompt Tuning", "Fine-tuned language models beat prompts; fine-tuning costs memory."),
    ("Low Rank Updates", "Low-rank updates make fine-tuning cheap for state-of-the-art models."),
    ("Joined Spelling", "Finetuning a vision model on few labels overfits."),
    ("Search Spaces", "Bayesian optimization of hyperparameters for neural networks."),
    ("Grid Search", "We tune the hyperparameter grid of deep neural networks."),
    ("Old Spelling", "Each hyper-parameter is set by cross-validation."),
    ("Shared Encoders", "Multi-task learning shares one encoder; multi-task heads differ."),
    # VAE spelled out with "autoencoder" joined, as most of its papers write it; the papers
    # hyphenate "auto-encoder" elsewhere, and one writes "variational" and "autoencoder" apart
    ("Latent Codes", "A variational autoencoder (VAE) learns latent codes; the VAE decodes."),
    ("Amortized Inference", "Variational autoencoders (VAEs) amortize inference."),
    ("Generative Faces", "A variational autoencoder generates faces from latent codes."),
    ("Denoising Codes", "A denoising auto-encoder reconstructs corrupted inputs."),
    ("Variational Bounds", "Variational inference bounds for a sparse autoencoder's codes."),
]


def _papers(rows: list[tuple[str, str]]) -> dict[str, Paper]:
    return {f"p{i}": Paper(f"p{i}", f"f#{i}", title, text) for i, (title, text) in enumerate(rows)}


def test_a_compound_is_read_in_the_form_its_papers_write_it() -> None:
    """`trends "finetuning"` counted 43 papers of the 13.9k and `trends "fine-tuning"` 124:
    the cross-encoder reads the joined word as other word pieces. A compound typed in any
    form is read in the form most of its papers write."""
    written = WrittenText.of(_papers(FORMS_PAPERS))
    assert written.split_of("finetuning") == ("fine", "tuning")
    assert written.forms(["fine", "tuning"]) == {JOINED: 1, HYPHENATED: 3, SPACED: 0}
    for typed in ("finetuning", "fine-tuning", "fine tuning"):
        assert written_topic(f"use {typed}?", written) == "use fine-tuning?", typed
    assert written_topic("Finetuning LLMs", written) == "Fine-tuning LLMs"  # typed letters kept
    for typed in ("hyperparameter search", "hyper-parameter search", "hyper parameter search"):
        assert written_topic(typed, written) == "hyperparameter search", typed
    assert written_topic("multi task learning", written) == "multi-task learning"
    # a part of a longer compound is not the shorter one ("state-of" of "state-of-the-art"),
    # and words no paper hyphenates at their seam stay apart
    assert written_topic("state of the art models", written) == "state of the art models"
    assert written_topic("neural networks", written) == "neural networks"
    assert written_topic("bounds for 0-1 loss", written) == "bounds for 0-1 loss"


@pytest.fixture(scope="module")
def forms_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds and FORMS_PAPERS."""
    return seeds_with(seed_dir, tmp_path_factory, "forms", FORMS_PAPERS)


def test_a_list_and_a_trend_read_each_spelling_of_a_compound_alike(forms_dir: Path) -> None:
    """"Which papers use finetuning?" listed 17 papers of the 13.9k and "…fine-tuning?" 27:
    the question is searched, and its papers read, in the form the papers write."""
    assistant = Assistant(make_settings(forms_dir))
    screen = ListScreen(assistant.index)
    for typed in ("finetuning", "fine-tuning", "fine tuning"):
        assert screen.searched_topic(f"Which papers use {typed}?") == "use fine-tuning?"
    # a trend counts by the phrase as written ("fine tuning" as "fine-tuning")
    counts = {typed: assistant.trends(typed).total
              for typed in ("finetuning", "fine-tuning", "fine tuning")}
    assert len(set(counts.values())) == 1 and counts["finetuning"] >= 3, counts


def test_an_acronyms_letters_may_be_a_joined_words_parts() -> None:
    """"VAE" was never read as "variational autoencoder": papers write "autoencoder" as one
    word, so the acronym's letters were not the words' initials. A joined word the papers
    also hyphenate gives its parts' initials ("auto-encoder": A and E)."""
    split_of = WrittenText.of(_papers(FORMS_PAPERS)).split_of
    assert split_of("autoencoders") == ("auto", "encoders")
    text = "A variational autoencoder (VAE) and variational auto-encoders; a sparse autoencoder."
    assert spellings("VAE", text) == ["variational auto-encoders"]
    assert spellings("VAE", text, parts_of=split_of) == ["variational autoencoder",
                                                         "variational auto-encoders"]
    assert spellings("SAE", text, parts_of=split_of) == ["sparse autoencoder"]
    assert name_runs("use variational autoencoders?", ["VAE"], split_of) == [
        Run(("variat", "autoencod"))]
    assert name_runs("use variational autoencoders?", ["VAE"]) == []


def test_an_acronym_is_read_spelled_out_with_a_joined_word(forms_dir: Path) -> None:
    """"Which papers use VAEs?" is also read as the words its papers spell it out as, and
    those words as the acronym; a paper writing them apart holds neither."""
    screen = ListScreen(Assistant(make_settings(forms_dir)).index)
    assert screen.searched_topic("Which papers use VAEs?") == (
        "use VAEs? | use variational autoencoder?")
    assert "VAE" in screen.searched_topic("Which papers use variational autoencoders?")
    coverage = {c.paper.title: c.coverage for c in screen.candidates("Which papers use VAEs?")}
    assert min(coverage[t] for t in ("Latent Codes", "Amortized Inference",
                                     "Generative Faces")) > 0.8, coverage
    assert coverage.get("Variational Bounds", 0.0) < 0.5, coverage


@skipif_no_shared_data
def test_the_13_9k_abstracts_read_each_compound_in_its_commonest_form() -> None:
    """The forms the 1987–2021 abstracts write (papers, by grep): "fine-tuning" 135,
    "finetuning" 21; "hyperparameter" 231, "hyper-parameter" 54; "multi-task" 126,
    "multitask" 35; "pre-training" 186, "pretraining" 107; "dropout" 68, "drop-out" none."""
    from assistant.corpus import read_paths

    papers = {p.paper_id: p for p in read_paths([SHARED_DATA]).papers}
    written = WrittenText.of(papers)
    for typed, read in [("finetuning", "fine-tuning"), ("fine tuning", "fine-tuning"),
                        ("hyper-parameter", "hyperparameter"), ("multitask", "multi-task"),
                        ("pretraining", "pre-training"), ("drop-out", "dropout"),
                        ("dropout", "dropout"), ("few shot learning", "few-shot learning"),
                        ("state of the art", "state of the art"),
                        ("graph neural networks", "graph neural networks")]:
        assert written_topic(typed, written) == read, typed


ACCENT_PAPERS = [
    ("Kernel Sketches", "The Nyström method approximates a kernel matrix from sampled columns."),
    ("Column Sampling", "We bound the error of the Nystrom method under leverage sampling."),
    ("Fréchet Distances", "A Fréchet distance between generated and real image features."),
    # TeX's accent, a PDF's spacing mark, a decomposed accent: each had cut the word in two
    ("Landmark Bounds", 'We bound Nystr\\"{o}m kernel k-means with few landmark points.'),
    ("Sketched Regression", "Nystr\u00a8om projections speed up kernel ridge regression."),
    ("Image Metrics", "We compare the Fre\u0301chet inception distance with kernel scores."),
]


@pytest.fixture(scope="module")
def accents_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds and ACCENT_PAPERS."""
    return seeds_with(seed_dir, tmp_path_factory, "accents", ACCENT_PAPERS)


def test_a_word_is_read_without_its_accents(accents_dir: Path) -> None:
    """"Which papers use the Nyström method?" listed 11 of the 21 papers of the 13.9k that
    use it: the other ten write "Nystrom", which held none of the topic's words. A word is
    read in plain letters, asked and stored, so either spelling finds both; so is one whose
    accent TeX writes ("Nystr\\\"{o}m") or a PDF sets beside it ("Nystr¨om"): 71 abstracts."""
    assert plain_letters("nyström") == "nystrom" and plain_letters("łojasiewicz") == "lojasiewicz"
    assert document_terms("Nyström and Fréchet") == query_terms("Nystrom and Frechet")
    for written in ('Nystr\\"{o}m', 'Nystr\\"om', "{Nystr\\\"o}m", "Nystr\u00a8om", "Nystro\u0308m"):
        assert document_terms(written) == ["nystrom"], written
    assert document_terms("$\\ell_p$ and \\cdot") == ["lp", "cdot"]  # a norm, no accent
    screen = ListScreen(Assistant(make_settings(accents_dir)).index)
    for typed in ("Nyström", "Nystrom"):
        listed = {p.paper.title for p in screen.screen(f"Which papers use the {typed} method?").papers}
        assert {"Kernel Sketches", "Column Sampling", "Landmark Bounds",
                "Sketched Regression"} <= listed, (typed, listed)
    listed = {p.paper.title for p in screen.screen("Which papers use the Frechet distance?").papers}
    assert {"Fréchet Distances", "Image Metrics"} <= listed
    # a term lookup lists the papers writing the word as asked, accents aside
    for typed in ("Nyström", "Nystrom"):
        result = screen.screen(f"Which papers mention {typed}?")
        assert result.lookup and {p.paper.title for p in result.papers} == {
            "Kernel Sketches", "Column Sampling", "Landmark Bounds", "Sketched Regression"}, typed


IID_PAPERS = [
    ("Client Drift", "Federated learning with non-i.i.d. data across clients causes drift."),
    ("Skewed Labels", "We study federated learning when client data are non-IID by label."),
    ("Secure Aggregation", "Federated learning with secure aggregation hides client updates."),
    ("Gradient Leakage", "Federated learning leaks private data through shared gradients."),
    ("Sample Bounds", "Given i.i.d. samples, the estimator converges at a fast rate."),
]


@pytest.fixture(scope="module")
def iid_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds and IID_PAPERS."""
    return seeds_with(seed_dir, tmp_path_factory, "iid", IID_PAPERS)


def test_a_dotted_abbreviation_is_read_as_its_letters(iid_dir: Path) -> None:
    """"i.i.d." is one word: the tokenizer drops one-letter tokens, so "Who works on
    federated learning with non-i.i.d. data?" had read as "…with non data", and among the
    13.9k listed 30 federated-learning papers of any kind; now 8, each on non-i.i.d. data.
    "e.g." and "i.e." stay out of the terms."""
    assert query_terms("non-i.i.d. data") == query_terms("non-IID data") == ["non", "iid", "data"]
    assert "iid" in document_terms("samples are i.i.d. We") and not query_terms("e.g. i.e.")
    screen = ListScreen(Assistant(make_settings(iid_dir)).index)
    found = {p.paper.title for p in screen.screen("Which papers mention i.i.d.?").papers}
    assert {"Client Drift", "Sample Bounds"} <= found and "Secure Aggregation" not in found
    listed = {p.paper.title for p in screen.screen(
        "Which papers study federated learning with non-i.i.d. data?").papers}
    assert {"Client Drift", "Skewed Labels"} <= listed
    assert not listed & {"Secure Aggregation", "Gradient Leakage"}, listed


NETS_PAPERS = [  # GANs written as the field mostly does, and once as "nets" (the 2014 paper)
    ("Stable GAN Training", "Generative adversarial networks (GANs) are hard to train; we "
                            "stabilize GAN training with spectral penalties."),
    ("Conditional Generation", "Conditional generative adversarial networks (GANs) generate "
                               "images from class labels."),
    ("Evaluating Generators", "We evaluate generative adversarial networks (GANs) by sample "
                              "diversity and fidelity."),
    ("Generative Adversarial Nets", "We propose adversarial nets: a generative model and a "
                                    "discriminative model trained against each other."),
    ("Fishing Quotas", "We model fishing nets and quotas with dynamic programming."),
]


@pytest.fixture(scope="module")
def nets_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds and NETS_PAPERS."""
    return seeds_with(seed_dir, tmp_path_factory, "nets", NETS_PAPERS)


def test_networks_are_also_read_as_the_fields_nets(nets_dir: Path) -> None:
    """A review (C47, C50): "Generative Adversarial Nets" (2014), which writes only
    "adversarial nets", was never counted for GANs (first counted in 2015, 237 of the 13.9k;
    244 now, from 2014). An acronym's spelled-out "networks" is also read as "nets"."""
    assert short_forms("use generative adversarial networks?") == ["use generative adversarial nets?"]
    assert short_forms("networks") == [] and short_forms("deep Q-network") == []
    assistant = Assistant(make_settings(nets_dir))
    screen = ListScreen(assistant.index)
    assert "nets" in screen.searched_topic("Which papers use GANs?")
    # a typed topic stays as typed (a review's: "residual networks" had listed any "deep nets")
    assert "nets" not in screen.searched_topic("Which papers use residual networks?")
    listed = final_answer(assistant.answer_stream("Which papers use GANs?")).answer
    assert "Generative Adversarial Nets" in listed and "Fishing Quotas" not in listed
    papers = assistant.index.papers()
    counted = {papers[pid].title for pid in assistant.trends("GANs").paper_ids}
    assert {title for title, _ in NETS_PAPERS[:4]} <= counted and "Fishing Quotas" not in counted


# "honeybees" joined by one paper and written apart by two; "Rubik's" with either apostrophe;
# "not able" written apart, where "notable" is one word
LOOKUP_PAPERS = [
    ("Olfactory Bulb", "We model the antennal lobe of the honeybee and the locust."),
    ("Switching Systems", "Our model tracks sequences of dancing honey bees."),
    ("Chemosensory Reception", "We fit data from honey bee chemosensory neurons."),
    ("Tiny Nets", "Twisting width and depth gives a Rubik’s cube for networks."),
    ("Subgoal Search", "Subgoals solve Sokoban and the Rubik's Cube."),
    ("Notable Bounds", "A notable bound on regret."),
    ("Weak Learners", "Weak learners are not able to fit the data."),
    # "keypoints" joined by three papers: "the key point" of two others is another phrase
    ("Pose Keypoints", "We detect keypoints of human poses."),
    ("Face Keypoints", "Facial keypoints are regressed from images."),
    ("Hand Keypoints", "Hand keypoints guide the grasp."),
    ("Key Argument", "The key point of this paper is a bound."),
    ("Key Idea", "The key point is that sparse codes suffice."),
    # "on-line" hyphenated: never "on line" written apart
    ("Online Updates", "An on-line algorithm updates its weights on line search steps."),
]


def test_a_looked_up_word_is_found_apart_and_with_either_apostrophe(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """R8: "Which paper mentions honeybees?" found one of three papers (two write "honey
    bee") and "… Rubik's cube?" one of two (one writes "Rubik’s"). A looked-up word is also
    found written apart as its papers write it when it is rare joined, never at a stop word
    ("notable" is no "not able"; C61: "keypoints" is no "the key point", "on-line" no "on
    line"), and an apostrophe as either; each listed paper quotes its sentence holding it."""
    written = WrittenText.of(_papers(LOOKUP_PAPERS))
    assert written.spaced_split("honeybees") == ("honey", "bees")
    assert written.spaced_split("notable") is None and written.spaced_split("locust") is None
    assert written.spaced_split("keypoints") is None  # a common word's pair is another phrase
    assert "on line" not in compound_forms("on-line", written)
    screen = ListScreen(Assistant(make_settings(
        seeds_with(seed_dir, tmp_path_factory, "lookups", LOOKUP_PAPERS))).index)
    bees = screen.screen("Which papers mention honeybees?").papers
    assert {p.paper.title for p in bees} == {"Olfactory Bulb", "Switching Systems", "Chemosensory Reception"}
    assert all("honey" in p.sentence for p in bees)
    cubes = screen.screen("Which papers mention Rubik's cube?").papers
    assert {p.paper.title for p in cubes} == {"Tiny Nets", "Subgoal Search"}
    keypoints = {p.paper.title for p in screen.screen("Which papers mention keypoints?").papers}
    assert "Pose Keypoints" in keypoints and not {"Key Argument", "Key Idea"} & keypoints
    notable = {p.paper.title for p in screen.screen("Which papers mention notable?").papers}
    assert "Notable Bounds" in notable and "Weak Learners" not in notable
