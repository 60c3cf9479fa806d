"""The warning's two halves: what a question names, and whether a cited abstract mentions
it. A false warning on a right answer is the worse error, so the cases below are mostly the
ways a right paper writes a name differently from the question (review of the first version)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.corpus import Paper
from assistant.naming import (
    MAX_NAMES,
    PhraseText,
    folded,
    mentioned,
    name_forms,
    named_phrases,
    several_word_names,
    unmentioned,
    writes,
)
from assistant.references import unmentioned_note
from assistant.types import Answer, Citation


@pytest.mark.parametrize(("question", "names"), [
    ("How well does the Segment Anything Model (SAM) transfer zero-shot?",
     ["Segment Anything Model", "SAM"]),
    ("How does the Mamba model compare with Transformers on long DNA sequences?",
     ["Mamba", "Transformers", "DNA"]),
    ("Does pass@N help the iVAE of Schmidhuber?", ["pass@N", "iVAE", "Schmidhuber"]),
    # acronyms and coined names stand alone, never glued to their neighbours
    ("How does SGD Momentum affect convergence?", ["SGD", "Momentum"]),
    ("Do BERT Transformers capture syntax?", ["BERT", "Transformers"]),
    # capitals for emphasis are stopwords, not names
    ("Why does Adam NOT converge in some cases?", ["Adam"]),
    ("Which is better for GANs: Wasserstein OR Jensen-Shannon divergence?",
     ["GANs", "Wasserstein", "Jensen-Shannon"]),
    # after a colon or "vs." a sentence goes on; a run that opens one keeps its first word
    ("For long DNA sequences: Mamba or Transformers?", ["DNA", "Mamba", "Transformers"]),
    ("Transformers vs. Mamba on long DNA sequences?", ["Mamba", "DNA"]),
    ("Segment Anything Model: how well does it transfer?", ["Segment Anything Model"]),
    # a lone capitalised word that opens the question cannot be told from "How"
    ("Adam optimizer: what does it regularize?", []),
    # capitals that carry no signal: all capitals, title case
    ("WHAT IS DROPOUT?", []),
    ("How Does Dropout Affect Generalization?", []),
    ("How Do Graph Neural Networks Generalize on OGB?", ["OGB"]),
    # a name that opens with digits keeps them ("D Gaussian Splatting" was warned of)
    ("How does 3D Gaussian Splatting render scenes in real time?", ["3D Gaussian Splatting"]),
    ("Is ResNet-50 better with 2D or 3D convolutions?", ["ResNet-50", "2D", "3D"]),
])
def test_named_phrases(question: str, names: list[str]) -> None:
    assert named_phrases(question) == names


PROPER = frozenset({"adam", "markov", "mamba", "english", "monte", "carlo", "hopfield"})


@pytest.mark.parametrize(("question", "without", "with_proper"), [
    ("Adam optimizer: how does it regularize?", [], ["Adam"]),
    ("Mamba, the selective state-space model: is it better than Transformers?",
     ["Transformers"], ["Mamba", "Transformers"]),
    ("How does it work? Markov says so.", [], ["Markov"]),  # a later sentence too
    ("Compare Adam and SGD.", ["Compare Adam", "SGD"], ["Adam", "SGD"]),
    # a word the corpus writes in lower case opens the question, and is no name
    ("How does dropout work?", [], []),
    ("Summarize work on Bayesian optimization.", ["Bayesian"], ["Bayesian"]),
    # a longer run that opens a sentence stays whole: its first word may be the name's
    ("Segment Anything Model: how well does it transfer?", ["Segment Anything Model"],
     ["Segment Anything Model"]),
    ("Compare Vision Transformers and CNNs.", ["Compare Vision Transformers", "CNNs"],
     ["Compare Vision Transformers", "CNNs"]),
    # ...unless every later word is one the corpus writes capitalised
    ("Review Monte Carlo methods for policy evaluation.", ["Review Monte Carlo"],
     ["Monte Carlo"]),
])
def test_a_name_that_opens_a_sentence_counts_when_the_corpus_writes_it_capitalised(
        question: str, without: list[str], with_proper: list[str]) -> None:
    assert named_phrases(question) == without
    assert named_phrases(question, PROPER) == with_proper


def test_an_author_is_mentioned_by_his_own_paper() -> None:
    paper = Paper(paper_id="l", source="l#1", title="Learning to forget",
                  text="Recurrent networks with gates.", authors="Felix Gers, Jürgen Schmidhuber")
    assert unmentioned("How are recurrent networks trained, following Schmidhuber?", [paper]) == []
    assert unmentioned("How are recurrent networks trained, following Hochreiter?", [paper]) == [
        "Hochreiter"]


def test_an_opening_run_is_mentioned_without_its_first_word_too() -> None:
    """"Discuss Hopfield Networks": the verb is no part of the name; "Segment Anything
    Model": the first word is, and the name stays whole when nothing mentions it."""
    hopfield = Paper(paper_id="h", source="h#1", title="Modern Hopfield Networks and Attention",
                     text="We study modern Hopfield networks.")
    question = "Discuss Hopfield Networks and attention."
    assert unmentioned(question, [hopfield], PROPER) == []
    assert unmentioned(question, [hopfield]) == ["Discuss Hopfield Networks"]  # as before
    other = Paper(paper_id="o", source="o#1", title="Zero-shot segmentation",
                  text="Masks for new classes.")
    assert unmentioned("Segment Anything Model: does it transfer?", [other], PROPER) == [
        "Segment Anything Model"]


@pytest.mark.parametrize(("abstracts", "proper"), [
    # inside sentences, twice: a name; opening a sentence or after a colon: not counted
    (["We train with Adam. Then Adam diverges, unlike Adam.", "Results: Adam. Adam wins."],
     {"adam"}),
    (["We use a Monte Carlo method and a Monte Carlo estimate."], {"monte", "carlo"}),
    (["Results on Markov chains, and Markov models."] * 2, {"markov"}),
    # more often in lower case than capitalised: no name
    (["Results differ, However slightly, However we note it; however however however."], set()),
    (["It works, The end, The rest."], set()),  # a function word
    (["Only once with Adam here."], set()),  # twice at least
    (["Shown in Figure 1 and in Figure 2 and per Eq. (3) and Eq. (4), see Appendix A, Appendix B."],
     set()),  # a document's structure
    (["The proof in 1 Introduction and 2 Introduction is full text."], set()),
    (["Sensors of GAS and of GAS and of DRONE and DRONE."], set()),  # acronyms in capitals
    (["Maps of Poincaré and of Poincaré disks."], {"poincaré"}),  # any script
])
def test_the_words_abstracts_capitalise_inside_their_sentences(abstracts: list[str],
                                                                proper: set[str]) -> None:
    from assistant.keywords import SurfaceText

    assert SurfaceText.of(abstracts).proper == proper
    # a title capitalises every word: only the abstracts (``prose``) count
    titled = SurfaceText.of(["Learning With Capitals Everywhere. " + a for a in abstracts] * 3,
                            abstracts)
    assert titled.proper == proper


@pytest.mark.parametrize(("name", "text"), [
    ("Transformers", "A Markov model, unlike a transformer."),
    ("Neural Tangent Kernels", "which we call the neural tangent kernel (NTK)"),
    ("Vision Transformers", "Vision Transformer (ViT) beats CNNs"),
    ("State-Space", "state space models"),
    ("Multi-Head", "multihead attention helps"),
    ("Deep Q-Networks", "it beats DQN on Atari"),
    ("CIFAR-10", "Results on CIFAR10"),
    ("GPT-3", "GPT3 is large"),
    ("U-Net", "a UNet architecture"),
    ("BatchNorm", "batch normalization smooths the landscape"),
    ("SVMs", "support vector machines (SVM)"),
])
def test_a_name_written_differently_is_still_mentioned(name: str, text: str) -> None:
    assert mentioned(name, text)


@pytest.mark.parametrize(("name", "text"), [
    ("CLIP", "Gradient clipping stabilises training."),
    ("CRAFT", "We crafted adversarial examples."),
    ("Mamba", "A variable memory length Markov model of DNA."),
    ("Segment Anything Model", "A model that segments images."),
])
def test_an_acronym_is_not_mentioned_by_a_word_it_folds_into(name: str, text: str) -> None:
    assert not mentioned(name, text)


def test_unmentioned_asks_every_cited_paper_and_caps_the_names() -> None:
    dna = Paper(paper_id="d", source="f.txt#1", title="The Power of Amnesia",
                text="A Markov model of DNA, unlike a transformer.")
    mamba = Paper(paper_id="m", source="f.txt#2", title="Mamba", text="Selective state spaces.")
    question = "How does the Mamba model compare with Transformers on DNA?"
    assert unmentioned(question, [dna]) == ["Mamba"]
    assert unmentioned(question, [dna, mamba]) == []
    assert unmentioned(question, []) == []  # nothing cited: the uncited note speaks instead
    many = "Compare " + ", ".join(f"X{i}Y" for i in range(3 * MAX_NAMES)) + "?"
    assert len(unmentioned(many, [dna])) == MAX_NAMES


def test_the_note_lists_a_few_names_and_counts_the_papers() -> None:
    def answer(names: list[str], cited: int) -> Answer:
        return Answer(question="q", answer="a [1]", mode="extractive", unmentioned=names,
                      citations=[Citation(n=n, paper_id="p", title="t", source="s", text="t")
                                 for n in range(1, cited + 1)])

    assert unmentioned_note(answer(["Mamba"], 1)) == (
        "The cited abstract does not mention “Mamba”; it may not answer the question as asked.")
    assert unmentioned_note(answer(["Mamba", "Transformers"], 2)).startswith(
        "No cited abstract mentions “Mamba” or “Transformers”; they may not")
    assert "“A”, “B”, “C”, “D” or 3 more;" in unmentioned_note(answer(list("ABCDEFG"), 2))
    assert "“" + "Adam " * 11 + "Adam…”" in unmentioned_note(answer(["Adam " * 30], 1))


@pytest.mark.slow
def test_the_cli_and_the_eval_report_show_the_warning(fresh_copy: Path) -> None:
    """The CLI prints the note under the answer (stderr, beside the other notes); the eval
    report lists the warned answers."""
    from test_cli import run

    from assistant.evals.report import markdown_report
    from assistant.evals.scoring import EvalRun, QuestionResult

    question = "Can federated learning with Markovian data streams run at Singapore hospitals?"
    result = run("ask", question, "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    assert "The cited abstract does not mention “Singapore”" in " ".join(result.stderr.split())
    # a name that opens the question, which the seeds write capitalised inside sentences
    opening = ("Adam optimizer: how can a hospital detect that recorded patient entries no "
               "longer reflect the patient's true condition?")
    result = run("ask", opening, "--data-dir", str(fresh_copy))
    assert result.returncode == 0, result.stderr
    assert "does not mention “Adam”" in " ".join(result.stderr.split())
    row = QuestionResult(id="near-03", kind="none", split="dev", question="q", expected=[],
                         cited=["f.txt#1"], unmentioned=["Mamba", "Transformers"])
    report = markdown_report({"run": EvalRun(metrics={"questions": 1, "answerable": 0,
                                                      "errors": 0}, rows=[row])}, "extractive")
    assert "names (1)" in report and "- **near-03** (none, a failure): Mamba, Transformers" in report


@pytest.mark.parametrize(("question", "names"), [
    ("How does Hindsight Curriculum Distillation train a student?",
     ["Hindsight Curriculum Distillation"]),
    ("How does Hinton's Forward-Forward algorithm replace backpropagation?", ["Forward-Forward"]),
    ("How does 3D Gaussian Splatting render scenes?", ["3D Gaussian Splatting"]),
    # one word, an acronym or a coined name is not a several-word name
    ("How does the Mamba model compare with AB-MCTS and FlashAttention-3?", []),
    ("Which is better: Wasserstein or Jensen-Shannon divergence?", ["Jensen-Shannon"]),
    # a short question reads as title case, but asks what one thing is
    ("What is Hindsight Curriculum Distillation?", ["Hindsight Curriculum Distillation"]),
    ("How does the Cortical Replay Scheduler work?", ["Cortical Replay Scheduler"]),
    ("Explain Gradient Origami.", ["Gradient Origami"]),
    # a title is no name, nor is one word
    ("How Does Dropout Affect Generalization?", []),
    ("What is Dropout?", []),
])
def test_several_word_names(question: str, names: list[str]) -> None:
    assert several_word_names(question) == names


@pytest.mark.parametrize(("name", "text", "written"), [
    ("Monte Carlo Tree Search", "We improve Monte-Carlo tree search with priors.", True),
    ("Hidden Markov Models", "We fit a hidden Markov model to the data.", True),
    ("Multi-Head Attention", "A multihead attention layer.", True),
    ("Deep Q-Networks", "Our DQN agent plays Atari.", True),  # its initials
    ("Hindsight's Replay", "hindsight replay buffers", True),  # a possessive
    ("Hoeffding Inequality", "By Hoeffding’s inequality the bound holds.", True),  # typographic
    ("Renyi Divergence", "We minimise the Rényi divergence.", True),  # accents folded
    ("Asynchronous Advantage Actor-Critic", "It beats the A3C agent.", True),  # counted initials
    ("Private Eye", "hard games such as Private Eye", True),  # at the very end
    # every word, but not as a phrase: a long abstract holds them apart
    ("Hindsight Curriculum Distillation",
     "A curriculum of hindsight goals; distillation into a student.", False),
    ("Optimal Brain Discovery", "Optimal Brain Surgeon, and the discovery of rules.", False),
])
def test_a_several_word_name_is_written_as_a_phrase(name: str, text: str, written: bool) -> None:
    assert writes(name, text) is written


def test_folded_reads_typography_accents_possessives_and_pdf_hyphens() -> None:
    assert folded("Rényi’s Jensen–Shannon bound") == "renyi jensen-shannon bound"
    assert folded("Bayes' rule and cart(cid:173) pole") == "bayes rule and cart-pole"
    assert folded("Søren Weißenberger, Miłoś") == "soren weissenberger, milos"  # not split by NFKD
    assert folded("the Kurdyka–Łojasiewicz (KL) property") == "the kurdyka-lojasiewicz property"


def test_a_name_is_shortened_while_it_closes_with_a_kind_or_common_word() -> None:
    def common(word: str) -> bool:
        return word.lower() in {"recovery", "forward", "origami"}

    assert name_forms("When is Stochastic Block Model Recovery possible?",
                      "Stochastic Block Model Recovery", None, common) == [
        "Stochastic Block Model Recovery", "Stochastic Block Model", "Stochastic Block"]
    # a common word closes a name of two words: that is the name itself
    assert name_forms("How does Forward-Forward work?", "Forward-Forward", None, common) == [
        "Forward-Forward"]
    assert name_forms("How does Gradient Origami work?", "Gradient Origami", None, common) == [
        "Gradient Origami"]


def test_a_closing_kind_word_may_be_left_out() -> None:
    assert name_forms("Which models use the Penn Treebank Corpus?", "Penn Treebank Corpus",
                      None) == ["Penn Treebank Corpus", "Penn Treebank"]
    assert name_forms("How does Hindsight Curriculum Distillation work?",
                      "Hindsight Curriculum Distillation", None) == ["Hindsight Curriculum Distillation"]


def phrase_text(*rows: tuple[str, str, str, str]) -> PhraseText:
    """A PhraseText of papers given as (id, title, abstract, authors)."""
    return PhraseText.of({pid: Paper(pid, f"f.txt#{n}", title, text, authors=authors)
                          for n, (pid, title, text, authors) in enumerate(rows)})


def test_phrase_text_finds_every_paper_that_writes_a_name() -> None:
    phrases = phrase_text(
        ("a", "Exploring Montezuma", "We reach Private Eye and Pitfall!", ""),
        ("b", "Sequence models", "Hidden Markov models and private eyes.", ""),
        ("c", "Eyes", "A private dataset of eye images.", "Eye Private"),
        ("d", "Markov", "A hidden-Markov-model decoder.", ""),
    )
    assert phrases.writers("Private Eye") == {"a", "b"}  # "private eyes" too; c holds both apart
    assert phrases.writers("Hidden Markov Models") == {"b", "d"}  # hyphens, the plural
    assert phrases.writers("Markov Eye") == set()
    assert phrases.writers("Eye Private") == {"c"}  # an author list is read too
    assert phrases.writers("Pitfall") == {"a"}


def test_phrase_text_reads_whole_words_authors_without_initials_and_both_plurals() -> None:
    phrases = phrase_text(
        ("a", "Games", "Unprivate eyes and private eyeglasses.", "Richard S. Sutton"),
        ("b", "Trees", "A decision tree and Gaussian processes.", ""),
        ("c", "Divergences", "The Jensen–Shannon divergence of Rényi.", ""),
    )
    assert phrases.writers("Private Eye") == set()  # never inside a longer word
    assert phrases.writers("Richard Sutton") == {"a"}
    assert phrases.writers("Decision Trees") == {"b"}  # "tree" + s, not "tre" + es
    assert phrases.writers("Gaussian Process") == {"b"}
    assert phrases.writers("Jensen-Shannon Divergence") == {"c"}
    assert phrases.writers("Renyi") == {"c"}
