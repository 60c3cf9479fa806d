"""A question read once (intent.py): a table of example questions per reading, with the near
misses that must not read so."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.intent import Intent, names_in, proper_names, read_intent
from assistant.stated import stated
from assistant.topics import topic_of
from assistant.types import OPEN_END, OPEN_START, Filters

VENUES = ["NeurIPS", "Wombat Workshop", "Nature"]


@pytest.mark.parametrize(("question", "kind"), [
    ("How has interest in graph neural networks grown?", "trend"),
    ("How has federated learning grown?", "trend"),  # had been "other"
    ("Did federated learning papers increase from 2020 to 2021?", "trend"),  # a run: a quote
    ("Did the papers increase accuracy?", "other"),
    ("Which paper mentions shareboost?", "lookup"),
    ("Which papers use diffusion models for planning?", "list"),
    ("Who works on federated learning with non-i.i.d. data?", "list"),
    ("How does TCCM compare with DTE?", "comparison"),
    ("Compare the graph neural network papers: what do they study?", "comparison"),
    ("Summarize the work on machine unlearning.", "summary"),
    ("Why is learning from Markovian streams hard?", "problem"),
    ("How many agents were there?", "quantity"),
    ("How many papers study capsule networks?", "list"),
    ("How many papers study GNNs per year?", "trend"),
    ("What did the study of label smoothing find about distillation?", "finding"),
    ("How can sparse regression be spread across machines?", "method"),
    ("What is CRAFT?", "definition"),
    ("Who are the authors?", "other"),
])
def test_the_main_reading_is_the_kind(question: str, kind: str) -> None:
    assert read_intent(question).kind == kind


@pytest.mark.parametrize(("question", "listed"), [
    ("Which papers use diffusion models for planning?", True),
    ("List papers on bandits.", True),
    ("List all papers about federated learning.", True),
    ("Could you list works that use diffusion models for planning?", True),
    ("Show me the recent papers on graph coarsening.", True),
    ("What are all the papers on spiking networks?", True),
    ("all papers on graph coarsening", True),
    ("Every abstract that mentions Hopfield networks, please.", True),
    ("Who works on federated learning with non-i.i.d. data?", True),
    ("What works study optimal transport?", True),
    ("Which papers in NeurIPS 2019 study attention?", True),
    ("How many papers study capsule networks?", True),  # had cited one paper, no count
    ("How many papers mention ontology?", True),  # a lookup too: the verb is no topic word
    # several words before the noun, and "a list of" (a hostile researcher's phrasings)
    ("Show me all federated learning papers", True),
    ("Count the papers on reinforcement learning", True),
    ("Give me a list of papers on federated learning.", True),
    ("I need the complete list of graph neural network papers.", True),
    ("Which GAN papers were published between 2017 and 2018?", True),  # (a researcher)
    ("What kind of papers study GANs?", True),
    ("Experiments on MNIST: which optimizer works best?", False),  # "works": a verb
    ("Works on mobile devices?", False),  # the noun opening a request is no verb's
    ("Which of the papers uses dropout?", False),
    ("Show me how these papers differ.", False),
    ("Find the top 5 papers on attention", False),  # the best few (review)
    ("Show me the three best papers on RL", False),
    ("Give me the list of contributions of CRAFT.", False),
    # one paper, or several compared or summarised, not every one
    ("Which paper mentions shareboost?", False),
    ("Which method works best for few-shot learning?", False),
    ("Summarize the work on machine unlearning.", False),
    ("Compare the papers on bandits and on boosting.", False),
    ("List the main contributions of CRAFT.", False),
    ("Which limitations does the spiking-network paper list?", False),
    ("Who proposed CRAFT?", False),
    ("What is the paper's main result?", False),
])
def test_a_list_question_asks_for_every_paper(question: str, listed: bool) -> None:
    assert read_intent(question, VENUES).wants_list is listed


@pytest.mark.parametrize(("question", "topic"), [
    ("papers on RL from human feedback", "RL from human feedback"),
    ("papers about spiking neural networks", "spiking neural networks"),
    ("Papers on RLHF", "RLHF"),
    ("abstracts on graph coarsening", "graph coarsening"),
    ("publications on federated learning?", "federated learning?"),
    ("Papers from 2019 about capsule networks", "capsule networks"),  # its range cut first
])
def test_a_request_opening_with_the_papers_noun_lists_them(question: str, topic: str) -> None:
    """"Papers on RLHF" asks what "Show papers on RLHF" does: every paper on the topic, which
    is searched without the lead words. It had been read as a summary of the best five."""
    intent = read_intent(question, VENUES)
    assert intent.wants_list and intent.kind == "list"
    assert topic_of(intent.search) == topic


@pytest.mark.parametrize(("question", "topic"), [
    ("hyperbolic embedding papers", "hyperbolic embedding"),
    ("GAN papers", "GAN"),
    ("federated learning papers since 2019", "federated learning"),  # its range cut first
    ("Graph neural network papers?", "Graph neural network ?"),
    ("reinforcement learning from human feedback papers", "reinforcement learning from "
                                                          "human feedback"),
])
def test_a_request_of_a_topic_and_the_papers_noun_lists_them(question: str, topic: str) -> None:
    """"hyperbolic embedding papers" asks what "List papers about hyperbolic embeddings"
    does, and had been answered with five quoted abstracts."""
    intent = read_intent(question, VENUES)
    assert intent.wants_list and intent.kind == "list"
    assert topic_of(intent.search) == topic


@pytest.mark.parametrize(("question", "kind"), [
    ("What do the GAN papers say about mode collapse?", "list"),  # as before
    ("Summarize the GAN papers", "summary"),
    ("Compare GAN papers", "comparison"),
    ("Review GAN papers", "other"),
    ("Explain GAN papers", "definition"),
    ("Any GAN papers?", "other"),
    ("recent GAN papers", "list"),  # the newest first (test_recency.py)
    ("best GAN papers", "other"),
    ("Similar papers", "other"),  # after an answer: the papers like its own
    ("these papers", "other"),
    ("the CRAFT paper", "other"),  # one paper
    ("hyperbolic embedding paper", "other"),
])
def test_a_request_ending_in_the_papers_noun_that_asks_more_keeps_its_kind(
        question: str, kind: str) -> None:
    assert read_intent(question, VENUES).kind == kind


@pytest.mark.parametrize(("question", "terms"), [
    ("Which paper mentions shareboost?", ("shareboost",)),
    ("Which paper mentions musicality?", ("musicality",)),
    ("Which abstract uses the word isometries?", ("isometries",)),
    ("Is there a paper that talks about subactivities?", ("subactivities",)),
    ("Does any paper mention the term 'graph coarsening'?", ("graph", "coarsening")),
    ("Which paper contains the phrase ShareBoost in its abstract?", ("ShareBoost",)),
    ("In which paper does the word hypernetwork appear?", ("hypernetwork",)),
    ("Which papers mention shareboost?", ("shareboost",)),  # a list of them
    ("Which paper from NeurIPS 2019 mentions shareboost?", ("shareboost",)),  # range left out
    ("How many papers mention ontology?", ("ontology",)),  # had kept "mention": a false no
    ("Which papers mention C++ or C#?", ("C++", "C#")),  # had read "C" alone
    # a hostile user's phrasings, each refused with "never 'says'", "never 'mentioning'"
    ("any paper that says blackboard?", ("blackboard",)),
    ("papers mentioning blackboard", ("blackboard",)),
    ("Find abstracts containing unhappy", ("unhappy",)),
    ("Is HotpotQA mentioned anywhere?", ("HotpotQA",)),
    ("Is the word shareboost used in any abstract?", ("shareboost",)),
    ("Did any paper mention blackboard?", ("blackboard",)),
    # the looser phrasings look up a word or two, or quoted words; more is a topic
    ("papers talking about privacy in federated learning", ()),
    ('papers mentioning "graph neural network pruning"', ("graph", "neural", "network",
                                                           "pruning")),
    # no words asked for: a paper's content, a name, an answer
    ("Which paper uses diffusion models?", ()),
    ("Which paper proposes CRAFT?", ()),
    ("What is iTransplant?", ()),
    ("Which method mentions no baseline?", ()),
    ("The paper mentions shareboost: what is it?", ()),
])
def test_a_term_lookup_asks_for_the_paper_holding_its_words(question: str,
                                                           terms: tuple[str, ...]) -> None:
    intent = read_intent(question, VENUES)
    assert intent.lookup_terms == terms
    if terms and not intent.wants_list:
        assert intent.kind == "lookup"


@pytest.mark.parametrize(("question", "topic"), [
    ("How has interest in graph neural networks grown?", "graph neural networks"),
    ("How has research on federated learning changed over the years?", "federated learning"),
    ("How did work on kernel methods decline?", "kernel methods"),
    ("How has deep learning evolved over time?", "deep learning"),
    ("What are the trends in reinforcement learning?", "reinforcement learning"),
    ("Trends in spiking networks", "spiking networks"),
    ("How many papers on transformers per year?", "transformers"),
    ("Is federated learning growing?", "federated learning"),
    # papers counted per year in other word orders: the framing words are no topic (they
    # had been read as a list, or as "federated learning were published")
    ("How many papers per year mention federated learning?", "federated learning"),
    ("How many papers on federated learning were published each year?", "federated learning"),
    ("How has the number of federated learning papers changed over time?",
     "federated learning"),
    ("How many federated learning papers were published per year?", "federated learning"),
    ("Plot the graph neural network papers by year", "graph neural network"),
    ("How popular has federated learning been over the years?", "federated learning"),
    ("How many time series papers appeared each year?", "time series"),
    # a paper's own change, not the field's
    ("How has the model been trained?", None),
    ("How did the method grow the network?", None),
    ("How does accuracy grow with model size?", None),
    ("What trends in the data does the model capture?", None),
    ("Is the loss decreasing monotonically during training?", None),
    ("How many users per year does the system serve?", None),
    ("What does the paper report per year?", None),
    ("Which papers study how representations drift over time?", None),
    # a paper's own yearly figures, not papers counted (review)
    ("Which papers predict yearly sales?", None),
    ("Which papers count objects over time?", None),
    ("Which papers study interest rates per year?", None),
    ("Find all papers per year on GANs", "GANs"),
    ("How many papers per year?", ""),  # no topic: an author's papers, or one line
    # the topic's own words that also frame trends (a hostile researcher's run)
    ("How many papers per year mention attention?", "attention"),
    ("How did attention mechanisms evolve over time?", "attention mechanisms"),
    ("How many papers per year mention interest rates?", "interest rates"),
    ("How popular were GANs each year?", "GANs"),
    ("Plot interest in transformers per year", "transformers"),
    # framing words inside a topic stay: only its ends are trimmed (review)
    ("How has user interest in recommender systems changed over time?",
     "user interest in recommender systems"),
    # the year of the most papers, or of the first: the counts and their peaks answer
    ("Which year had the most papers on federated learning?", "federated learning"),
    ("When did papers on federated learning first appear?", "federated learning"),
    ("When did diffusion models emerge?", "diffusion models"),
    # a hostile user's run: "become popular" had been the topic's words (19 counted, not 108)
    ("When did attention mechanisms become popular?", "attention mechanisms"),
    ("When did transformers gain popularity?", "transformers"),
    ("When did the model start to overfit?", None),
    ("Which year is the dataset from?", None),
    # a run: "In which year was the most published on dropout?" had been refused
    ("In which year was the most published on dropout?", "dropout"),
    ("In which year were most papers on GANs published?", "GANs"),
    ("In which year was the dropout paper published?", None),  # one paper's year
])
def test_a_trend_question_names_its_topic(question: str, topic: str | None) -> None:
    assert read_intent(question).trend_topic == topic


@pytest.mark.parametrize(("question", "topic"), [
    ("How has federated learning grown?", "federated learning"),
    ("How have GANs evolved?", "GANs"),
    ("How has the field of federated learning evolved?", "federated learning"),
    ("Has federated learning taken off recently?", "federated learning"),
    ("Has interest in federated learning declined?", "federated learning"),
    ("Has the number of papers on federated learning grown since 2017?", "federated learning"),
    ("Has the number of federated learning papers grown?", "federated learning"),
    ("Did work on kernel methods decline after 2010?", "kernel methods"),
    ("Is federated learning still growing in popularity?", "federated learning"),
    # a paper's quantity, or what the question points back at, grows: no field
    ("How has the gap between the two losses grown?", None),
    ("How has the number of parameters grown?", None),
    ("How has it evolved?", None),
    ("Is it growing?", None),  # had counted papers on "it"
    ("Have papers on GANs increased image quality?", None),
    ("How did the representations evolve?", None),
])
def test_a_fields_growth_is_a_trend_without_over_time_and_asked_yes_or_no(
        question: str, topic: str | None) -> None:
    """"How has federated learning grown?" had been no trend, and "Has the number of papers
    on federated learning grown since 2017?" a summary of five papers: a field's growth
    verb with the field as its subject, or the papers' count or the interest in it, asks
    for its papers counted per year."""
    assert read_intent(question).trend_topic == topic


@pytest.mark.parametrize(("question", "several"), [
    ("Summarize the work on machine unlearning in these abstracts.", True),
    ("Which papers address safety attacks on large models?", True),
    ("Compare the graph neural network papers: what do they study?", True),
    ("Give me an overview of spiking networks.", True),
    ("Can you list papers on bandits?", True),
    ("Which limitations does the spiking-network paper list?", False),  # "list" inside
    ("List papers on bandits.", True),
    ("Can you compare approaches to machine unlearning?", True),
    ("I'd like a comparison between model-based and model-free RL papers.", True),
    ("Tell me about the work on machine unlearning.", True),
    ("How do spectral clustering and k-means compare?", True),
    ("Could you list works that use diffusion models for planning?", True),
    ("Review the main theorem of the paper on online convex optimization.", False),
    # one paper's question, which "compare" or "work on" inside it made a summary of 5
    ("In the causal discovery work on models with feedback loops, what is identifiable?", False),
    ("How did the convex-hull approach compare with boosting on rare positives?", False),
])
def test_a_summary_question_asks_for_several_papers(question: str, several: bool) -> None:
    assert read_intent(question).summary is several


@pytest.mark.parametrize(("question", "compares"), [
    ("Compare the graph neural network papers: what do they study?", True),
    ("Which papers work with electronic health records?", True),
    ("How does TCCM compare with DTE?", True),
    ("Transformers versus state-space models on long sequences?", True),
    ("Summarize the work on machine unlearning.", False),
    ("What is CRAFT?", False),
])
def test_a_comparison_question(question: str, compares: bool) -> None:
    assert read_intent(question).comparison is compares


@pytest.mark.parametrize(("question", "finding"), [
    ("What did the study of label smoothing find about distillation?", True),
    ("How well does the ODE-based VAE predict motion?", True),
    ("How did the epitome compare with consensus strains?", True),
    ("What advantages does contrastive adaptation offer without source data?", True),
    ("Does the transducer outperform attention models on long sequences?", True),
    ("What kind of convolutions are used to perform the upsampling?", False),
    ("How can an agent retrace a route from one demonstration?", False),
    ("Why did earlier experiments on spiking networks fail?", False),
])
def test_a_question_asks_for_a_finding(question: str, finding: bool) -> None:
    assert read_intent(question).finding is finding


@pytest.mark.parametrize(("question", "method"), [
    ("How can an agent retrace a route from one demonstration?", True),
    ("Which approach works best for few-shot learning?", True),
    ("Is there a way to prune without retraining?", True),
    ("How can earlier methods be limited?", False),  # about the problem
    ("What is CRAFT?", False),
])
def test_a_question_asks_for_a_method(question: str, method: bool) -> None:
    assert read_intent(question).method is method


@pytest.mark.parametrize(("question", "defines"), [
    ("What is CRAFT?", True),
    ("Explain AB-MCTS.", True),
    ("How does the transducer align audio?", True),
    ("Which data sets was it tested on?", False),
])
def test_a_question_asks_what_something_is(question: str, defines: bool) -> None:
    assert read_intent(question).definition is defines


@pytest.mark.parametrize(("question", "contribution", "problem"), [
    ("How can sparse regression be spread across machines?", True, False),
    ("Which data sets was it tested on?", True, False),
    ("What accuracy does it reach on ImageNet?", True, False),
    ("Which approach works best for few-shot learning?", True, False),
    ("What did they find about dropout?", True, False),
    ("How much faster than existing methods is the detector?", True, False),
    # about the problem, though they name results, experiments or data sets
    ("Why do standard results on generalization bounds fail for deep networks?", False, True),
    ("How are earlier methods for causal discovery limited?", False, True),
    ("What challenge do prior methods face when data sets are highly imbalanced?", False, True),
    ("How do existing topic models fail on short texts?", False, True),
    ("What makes spatiotemporal graph learning costly?", False, True),
])
def test_a_question_asks_for_a_contribution_or_about_the_problem(
        question: str, contribution: bool, problem: bool) -> None:
    intent = read_intent(question)
    assert (intent.contribution, intent.problem) == (contribution, problem)


@pytest.mark.parametrize(("question", "quantity"), [
    ("What convergence rate does it achieve?", True),
    ("What transfer rates did it reach?", True),
    ("How accurate was the detector?", True),
    ("How far did it generalize?", True),
    ("How many agents were there?", True),
    ("What real data validated the analysis?", False),
    ("What is CRAFT?", False),
    ("How low-resource languages fare in translation?", False),
    ("What errors do code LLMs make?", False),
    ("What do rates mean here?", False),
])
def test_a_question_asks_for_a_quantity(question: str, quantity: bool) -> None:
    assert read_intent(question).quantity is quantity


@pytest.mark.parametrize(("question", "leans"), [
    ("and what benchmark was it evaluated on?", True),
    ("What about its limitations?", True),
    ("Does it beat the baselines?", True),
    ("What are their results on ImageNet?", True),
    ("Which one is faster?", True),
    ("Why?", True),
    ("Who are the authors?", True),
    ("Any limitations?", True),
    ("Is there code?", True),
    ("What are its main results on ImageNet and CIFAR?", True),
    ("How does the method handle noisy labels?", True),
    # its own subject: searched alone (every question of four words or fewer was joined)
    ("What is TCCM?", False),
    ("Summarize diffusion models", False),
    ("How does CRAFT predict future links on temporal graphs?", False),
    ("Compare the graph neural network papers: what do they study?", False),
    # a run: "What is dropout?" after "only the ones by Jure Leskovec" had been searched
    # among his papers, a false "no"; "What are the limitations?" still asks of the answer
    ("What is dropout?", False), ("what is batch norm?", False), ("What are GANs?", False),
    ("What are the limitations?", True), ("What is the dataset?", True),
    # a review: parts of the papers before, or words judging them, are no subject
    ("What are some limitations?", True), ("What is missing?", True),
    ("What are other approaches?", True), ("What was compared?", True),
])
def test_a_follow_up_leans_on_the_previous_question(question: str, leans: bool) -> None:
    assert read_intent(question).follow_up is leans


def test_names_are_methods_and_acronyms_proper_names_add_capitalised_words() -> None:
    assert names_in("Explain AB-MCTS and pass@N vs What") == ["AB-MCTS", "pass@N"]
    question = "How does the Mamba model compare with Transformers? And DPO?"
    assert proper_names(question) == ["DPO", "Mamba", "Transformers"]
    intent = read_intent(question)
    assert intent.names == ("DPO",)
    assert intent.proper_names == ("DPO", "Mamba", "Transformers")


# ---------------------------------------------------------------- the stated range


@pytest.mark.parametrize(("question", "years", "venue", "rest"), [
    ("Which papers since 2019 study attention?", (2019, OPEN_END), None,
     "Which papers study attention?"),
    ("What was done on backprop before 2000?", (OPEN_START, 1999), None,
     "What was done on backprop?"),
    ("Which papers in 2016 study GANs?", (2016, 2016), None, "Which papers study GANs?"),
    ("Papers between 2010 and 2012 on kernels?", (2010, 2012), None, "Papers on kernels?"),
    ("What is new in NeurIPS 2025 on diffusion?", (2025, 2025), "NeurIPS",
     "What is new on diffusion?"),
    ("work from 2015 to 2017 on reinforcement learning", (2015, 2017), None,
     "work on reinforcement learning"),
    ("sparse coding after 2010", (2011, OPEN_END), None, "sparse coding"),
    ("Which nips papers study graphs?", None, "NeurIPS", "Which papers study graphs?"),
    ("What appeared in Nature on folding?", None, "Nature", "What appeared on folding?"),
    ("Which methods from the 1990s use backprop?", (1990, 1999), None,
     "Which methods use backprop?"),
    ("Which papers in 2020s study diffusion?", (2020, 2029), None, "Which papers study diffusion?"),
    ("What was done since the 2010s on GANs?", (2010, OPEN_END), None, "What was done on GANs?"),
    ("What has been done since 2019 for question answering?", (2019, OPEN_END), None,
     "What has been done for question answering?"),
    ("What did the Wombat Workshop papers find?", None, "Wombat Workshop",
     "What did the papers find?"),
    # a year no paper can be of, as the last words: had been searched as topic words
    ("Which papers study graph neural networks in 1850?", (1850, 1850), None,
     "Which papers study graph neural networks?"),
    ("Which papers study graph neural networks since 2030?", (2030, OPEN_END), None,
     "Which papers study graph neural networks?"),
    ("What is CRAFT before 1850?", (OPEN_START, 1849), None, "What is CRAFT?"),
    ("Which papers since 2030 use graph neural networks?", (2030, OPEN_END), None,
     "Which papers use graph neural networks?"),  # inside the question too
    # "in" a year no paper is of yet, where a question asking for papers ends (had been
    # searched as a topic word)
    ("Which papers were published on GANs in 2030?", (2030, 2030), None,
     "Which papers were published on GANs?"),
    ("List papers on GANs in 2031.", (2031, 2031), None, "List papers on GANs."),
    # "from" as "in" does (a hostile user's run: "from 2030" had been a list of none, exit 0)
    ("List all papers on transformers from 2030", (2030, 2030), None,
     "List all papers on transformers"),
    # a year before the papers' noun (a researcher run: "2019" had been searched as a word)
    ("Show me 2019 GAN papers", (2019, 2019), None, "Show me GAN papers"),
    ("Which 2020 papers use transformers?", (2020, 2020), None, "Which papers use transformers?"),
    ("List 2019 papers on federated learning", (2019, 2019), None,
     "List papers on federated learning"),
    ("Has the number of papers on federated learning grown since 2017?", (2017, OPEN_END),
     None, "Has the number of papers on federated learning grown?"),
])
def test_a_question_states_its_own_range(question: str, years: tuple[int, int] | None,
                                         venue: str | None, rest: str) -> None:
    found, left = stated(question, VENUES)
    assert found == Filters(years=years, venue=venue)
    assert left == rest
    intent = read_intent(question, VENUES)
    assert (intent.filters, intent.search) == (found, left)


@pytest.mark.parametrize("question", [
    "What is CRAFT?", "How do models behave with 2048 dimensions?",
    "What happens in 2048 dimensions?", "Which method reaches 2019 points?",
    "What is the batch size of 2048 used in CRAFT?", "What does a method of 2000 runs show?",
    "What happens from 2000 to 5000 neurons?", "Which model achieves top-1 of 2000?",
    "What results come in 2048?", "Which models diverge after 2048?",
    "What is the loss after 1000?", "Which papers scale context until 2048?",
    "What is reached in 1024?",
    "What changes after 2030 training steps?",
    # "in" a later year where no papers are asked for, or not as the last words
    "What results come in 2030?", "Which method works in 2030?",
    "What changed in 2030 work on GANs?", "Which papers run in 2030 GPU hours?",
    # a year the papers forecast, not theirs (review)
    "Which papers forecast energy demand in 2030?", "papers that predict the population in 2030",
    # a count with a word before its unit, and venues written as words (review)
    "What accuracy do SVMs reach after 2000 training documents?",
    "What changes after 2000 training steps?", "Which run finished in 2000 GPU hours?",
    "How is latency kept in 2020 ms?",
    "How is federated learning analyzed for biological processes in nature?",
    "What is the role of the www in web search?", "Which results come from acl anthology?",
])
def test_numbers_that_are_not_years_set_no_filter(question: str) -> None:
    assert stated(question, ["NeurIPS", "Nature", "WWW", "ACL"]) == (None, question)
    intent = read_intent(question, ["NeurIPS", "Nature", "WWW", "ACL"])
    assert (intent.filters, intent.search) == (None, question)


def test_the_intent_is_read_once_and_cannot_change() -> None:
    """The same question reads the same (a cached, frozen reading), and the stored venues
    change what a question states."""
    first = read_intent("What appeared in Nature on folding?", VENUES)
    assert read_intent("What appeared in Nature on folding?", tuple(VENUES)) is first
    assert first.filters == Filters(venue="Nature")
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.kind = "other"  # type: ignore[misc]
    assert isinstance(first, Intent)
    assert read_intent("What appeared on folding in Wombat Workshop?").filters is None

