"""A bare keyword asked ("ucbzero") is the term lookup "Which paper mentions ucbzero?"
(``pipeline.bare_lookup``): answered from the papers holding it, never refused."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_retrieval import refusing_checks  # noqa: F401  (the fixture)

from assistant.answering import final_answer
from assistant.evals import words_one_abstract_uses
from assistant.pipeline import Assistant, bare_lookup
from assistant.term_lookups import lookup_alternatives, lookup_groups


@pytest.mark.parametrize(("query", "read"), [
    ("ucbzero", "Which paper mentions ucbzero?"),  # had been refused
    ("Gaussian splatting?", "Which paper mentions Gaussian splatting?"),
    ("C++", "Which paper mentions C++?"),
    ("Explain AB-MCTS.", "Explain AB-MCTS."),  # a question's word
    ("What is UCBZero?", "What is UCBZero?"),
    ("Similar papers", "Similar papers"),
    ("2019", "2019"),
    ("define dropout", "define dropout"),  # a question: it had listed 2 papers
    ("thanks", "thanks"),  # a chat's word: it had listed 76
    ("hidden Markov models", "hidden Markov models"),  # three words: a topic
])
def test_a_bare_keyword_is_read_as_a_lookup(query: str, read: str) -> None:
    assert bare_lookup(query) == read


@pytest.mark.usefixtures("refusing_checks")
def test_a_bare_keyword_is_answered_from_the_papers_holding_it(seed_assistant: Assistant) -> None:
    """"ucbzero" alone was refused, its one paper among the nearest ("writes the question's
    words, but not about what is asked"), where "Which paper mentions ucbzero?" answered: a
    keyword typed alone is that lookup, one holder quoted, several listed."""
    papers = seed_assistant.index.papers()
    once = words_one_abstract_uses(papers.values())
    word = next(iter(once))
    for answer in (seed_assistant.ask(word), final_answer(seed_assistant.answer_stream(word))):
        assert answer.refusal is None and once[word] in {c.paper_id for c in answer.citations}
        assert answer.question == word
    holders = {w: seed_assistant.retriever.lookup_holders(f"Which paper mentions {w}?")
               for w in ("attention", "kernel", "graph", "reinforcement")}
    word, held = next((w, h) for w, h in holders.items() if 1 < len(h) < 20)
    listed = final_answer(seed_assistant.answer_stream(word))
    assert listed.receipt is not None and listed.receipt.matching == len(held)
    assert {s.paper_id for s in listed.sources} == set(held)


def test_a_bare_query_is_a_lookup_only_of_words_the_papers_hold(tmp_path: Path) -> None:
    """A hostile run found three bare queries the lookup misread: a misspelt word
    ("transfomers") was searched as typed and refused around the word "mentions", which the
    user never wrote; an author's name ("Yoshua Bengio") was searched as words of the
    abstracts and refused. Now the typo goes the question's way (respelt), the name is the
    author's papers, and a word no paper holds is refused as typed."""
    path = tmp_path / "papers.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([
            ("title", "authors", "abstract"),
            ("Attention Transformers", "Ada Lovelace", "Transformers use attention layers "
             "to model long sequences of tokens."),
            ("Sparse Transformers", "Alan Turing", "We make transformers sparse so that "
             "attention scales to long inputs."),
            ("Kernel Machines", "Ada Lovelace", "Kernel machines learn nonlinear functions "
             "with support vectors.")])
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([path])
    assert bare_lookup("transformers", app.index) == "Which paper mentions transformers?"
    assert bare_lookup("transfomers", app.index) == "transfomers"  # respelt on its own path
    assert bare_lookup("Ada Lovelace", app.index) == "Which papers are by Ada Lovelace?"
    assert bare_lookup("quokka", app.index) == "quokka"  # no paper holds it
    assert bare_lookup("thanks", app.index) == "thanks"  # a chat's word, no keyword
    # a chat's follow-up is read with its history, never as a lookup
    assert bare_lookup("transformers", app.index, follow_up=True) == "transformers"
    by = final_answer(app.answer_stream("Ada Lovelace"))
    assert {s.title for s in by.sources} == {"Attention Transformers", "Kernel Machines"}
    typo = final_answer(app.answer_stream("transfomers"))
    assert typo.answer.startswith("Read “transfomers” as “transformers”"), typo.answer
    assert "mentions" not in final_answer(app.answer_stream("quokka")).answer


def test_words_joined_by_and_are_each_looked_up(seed_dir: Path,
                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run: "how many papers mention both dropout and batch normalization?" found the one
    paper writing "Dropout and Batch Normalization" together, where four write both: words
    joined by "and" are each a phrase of their own (``term_lookups.lookup_groups``)."""
    rows = [("Noise for Regularization", "Regularizers such as Dropout and Batch Normalization "
             "inject noise."),
            ("Margins of Deep Nets", "We train with dropout on images of cats. Every layer "
             "also applies batch normalization."),
            ("Dropout Alone", "Dropout drops units; we normalize each batch of inputs.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "both", rows)))
    answer = final_answer(app.answer_stream("Which papers mention both dropout and batch normalization?"))
    assert {c.title for c in answer.citations} == {"Noise for Regularization", "Margins of Deep Nets"}
    assert lookup_groups("papers that mention “rock and roll”") == (("rock", "roll"),)
    # a review: "and" alone joins one term's words ("research and development" had found 38)
    assert lookup_groups("Which papers mention research and development?") == (
        ("research", "development"),)
    # a second review: a side of several words, or several quoted, is a term of its own
    for asked in ("Which papers mention dropout and batch normalization?",
                  "Which papers mention 'dropout', 'batch normalization'?"):
        assert lookup_groups(asked) == (("dropout",), ("batch", "normalization")), asked
    # a seventh review: names each ("GANs and VAEs" had counted 5 papers, "both …" 14) are two
    # terms, and an apostrophe is no quote
    assert lookup_groups("How many papers mention GANs and VAEs?") == (("GANs",), ("VAEs",))
    # an eighth review: a capital alone makes no name ("Research and Development")
    assert lookup_groups("Which papers mention Research and Development?") == (
        ("Research", "Development"),)
    assert lookup_groups("Which papers mention Bayes' rule and Occam's razor?") == (
        ("Bayes", "rule"), ("Occam's", "razor"))


def test_a_word_written_with_symbols_is_looked_up_as_written(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run among the 13.9k: "Which paper mentions C++?" quoted a paper on ResNets (the
    keyword index holds no "C++"); nine abstracts write it. A looked-up word with symbols is
    read in every stored abstract as it is written, not as "C" nor inside "C++11"."""
    rows = [("Fast Kernels", "Our library is written in C++ and runs on GPUs."),
            ("Compilers for Learning", "We compile models to C++11 code and to C."),
            ("Code Models", "A model translates Java into C++ programs."),
            ("Letters", "We study the letter C in scripts.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "symbols", rows)))
    answer = final_answer(app.answer_stream("Which papers mention C++?"))
    assert {c.title for c in answer.citations} == {"Fast Kernels", "Code Models"}
    # ...beside another word, both (a review's: "C++ and CUDA" had listed every C++ paper)
    both = final_answer(app.answer_stream("Which papers mention C++ and GPUs?"))
    assert {c.title for c in both.citations} == {"Fast Kernels"}
    # ...or either, with "or" (a second review's: "C++ or CUDA" had been a "no")
    either = final_answer(app.answer_stream("Which papers mention C++ or Letters?"))
    assert {c.title for c in either.citations} >= {"Fast Kernels", "Code Models", "Letters"}
    # ...and one no abstract writes is a "no", not a quoted paper nor an error
    for asked in ("Which paper mentions Z#?", "Which papers mention Q++?"):
        assert not final_answer(app.answer_stream(asked)).citations, asked


def test_words_joined_by_or_are_each_looked_up(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run among the 13.9k: "Which papers mention Tetris or chess?" read "Tetris chess" and
    answered that no paper does, where 22 write one of them; "either C++ or Python" looked up
    "either" too (10 papers of the 29). Each alternative "or" joins is looked up, and a paper
    holding any answers; "either" opens them, and "with or without" asks for no word."""
    assert lookup_alternatives("Which papers mention either Tetris or chess?") == (
        (("Tetris",),), (("chess",),))
    assert lookup_alternatives("Which papers mention GANs, VAEs, or flows?") == (
        (("GANs",),), (("VAEs",),), (("flows",),))
    assert lookup_alternatives("Which papers mention 'Tetris' or 'chess'?") == (
        (("Tetris",),), (("chess",),))
    assert lookup_groups("Which paper mentions 'trial or error'?") == (("trial", "error"),)
    assert lookup_groups("Which papers mention Tetris, with or without GPUs?") == (("Tetris",),)
    rows = [("Falling Blocks", "We learn to play Tetris with approximate dynamic programming."),
            ("Board Games", "Our agent masters chess from self-play alone."),
            ("Both Games", "We compare chess and Tetris agents.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "either", rows)))
    for asked in ("Which papers mention Tetris or chess?", "Which papers mention either chess or Tetris?"):
        answer = final_answer(app.answer_stream(asked))
        assert {c.title for c in answer.citations} == {"Falling Blocks", "Board Games", "Both Games"}, asked


def test_a_listed_lookup_quotes_the_sentence_writing_its_word(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run among the 13.9k: "Which papers mention C++?" quoted "Clustering is a ubiquitous
    task in data science." for BanditPAM, whose C++ comes later: C++ is no keyword, so the
    sentence with most of the topic's keyword weight was any. A lookup's line quotes the
    sentence writing its word."""
    rows = [("Medoids Fast", "Clustering is a ubiquitous task in data science. We study medoids "
             "at scale. We release an optimized C++ implementation."),
            ("Code Models", "A model translates Java into C++ programs.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "quoted", rows)))
    answer = final_answer(app.answer_stream("Which papers mention C++?"))
    assert "“We release an optimized C++ implementation.”" in answer.answer


def test_a_compound_is_looked_up_joined_and_hyphenated(
        seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A run among the 13.9k: "Which papers mention pretraining?" listed the 49 papers
    writing it so, "…pre-training?" the 64 writing that, 112 in all; "nonconvex" and
    "non-convex" the same. A compound the papers hyphenate is one word either way."""
    rows = [("Speech Models", "We study pretraining of speech models on raw audio."),
            ("Vision Models", "Large-scale pre-training helps vision transformers."),
            ("Losses", "Nonconvex losses are minimized by our method."),
            ("Landscapes", "We chart non-convex landscapes of deep networks.")]
    app = Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "compounds", rows)))
    for asked, titles in [("pretraining", {"Speech Models", "Vision Models"}),
                          ("pre-training", {"Speech Models", "Vision Models"}),
                          ("nonconvex", {"Losses", "Landscapes"}), ("non-convex", {"Losses", "Landscapes"})]:
        answer = final_answer(app.answer_stream(f"Which papers mention {asked}?"))
        assert {c.title for c in answer.citations} >= titles, asked


@pytest.mark.parametrize(("asked", "read"), [
    ("Which papers mention LSTM or similar?", (("LSTM",),)),
    ("Which papers mention k-means or its variants?", (("k-means",),)),
    ("Which papers mention CIFAR-10 or other datasets?", (("CIFAR-10",),)),
    ("Which papers mention one or more GPUs?", (("GPUs",),)),
    ("Which papers mention dropout or not?", (("dropout",),)),
    # a second review: a side with no word joins the others, not the hedge
    ("Which papers mention A* or Dijkstra or similar search algorithms?", (("Dijkstra",),))])
def test_a_hedge_after_or_is_no_word_looked_up(asked: str, read: tuple[tuple[str, ...], ...]) -> None:
    """A review: "LSTM or similar" had listed the 958 papers writing either, "CIFAR-10 or
    other datasets" 2,660, "one or more GPUs" 2,989; "dropout or not" was no lookup."""
    assert lookup_alternatives(asked) == (read,)
