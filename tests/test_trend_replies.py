"""What a trend question asks of its counts beyond the table: how much a topic grew between
two years ("By what percentage…?", "Did it double…?"), its busiest years, its decades; read
from the question (trend_questions.py) and answered in a line (trend_replies.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES, OTHERS

from assistant.answering import final_answer
from assistant.compared_counts import comparison_lines, growth_lines
from assistant.count_comparison import compared_topics
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.trend_questions import CountsAsked, change_since
from assistant.trend_replies import decades_line, growth_line, replies, reply_line, top_years_line
from assistant.trends import TrendResult
from assistant.types import Filters


@pytest.mark.parametrize(("question", "topic", "asked"), [
    ("By what percentage did papers on GANs grow from 2018 to 2021?", "GANs", CountsAsked("growth")),
    ("How much has federated learning grown since 2015?", "federated learning", CountsAsked("growth")),
    ("What was the growth in the number of papers on GANs from 2016 to 2020?", "GANs",
     CountsAsked("growth")),
    ("What's the growth of reinforcement learning papers since 2010?", "reinforcement learning",
     CountsAsked("growth")),
    ("How fast did transformer research grow?", "transformer", CountsAsked("growth")),
    # a method's name alone (C49: "How much did GANs grow between 2016 and 2021?" had quoted a
    # GAN paper's abstract, the count reading the question again without its years)
    ("How much did GANs grow between 2016 and 2021?", "GANs", CountsAsked("growth")),
    ("How fast did LSTMs grow?", "LSTMs", CountsAsked("growth")),
    ("What is the growth rate of GANs?", "GANs", CountsAsked("growth")),
    ("What is the growth rate of LSTMs per year?", "LSTMs", CountsAsked("growth")),  # C52
    # C53: any change verb or noun, as for a field's papers
    ("How much did GANs increase between 2016 and 2021?", "GANs", CountsAsked("growth")),
    ("How much did LSTMs decrease since 2018?", "LSTMs", CountsAsked("growth")),
    ("What is the decline in RNNs since 2017?", "RNNs", CountsAsked("growth")),
    ("What is the change in GANs over the last 5 years?", "GANs", CountsAsked("growth")),
    ("Did the number of papers about bandits double between 2015 and 2020?", "bandits",
     CountsAsked("growth", factor=2)),
    ("Has GAN research tripled since 2016?", "GAN", CountsAsked("growth", factor=3)),
    ("Have papers on transformers grown tenfold since 2017?", "transformers",
     CountsAsked("growth", factor=10)),
    ("What were the top 3 years for papers on reinforcement learning?", "reinforcement learning",
     CountsAsked("top_years", n=3)),
    ("Which three years had the most papers on GANs?", "GANs", CountsAsked("top_years", n=3)),
    ("List the top 5 years for papers on kernels", "kernels", CountsAsked("top_years", n=5)),
    ("What were the busiest years for papers on Bayesian optimization?", "Bayesian optimization",
     CountsAsked("top_years", n=3)),
    ("Which decade had the most papers on neural networks?", "neural networks", CountsAsked("decades")),
    ("What decade had the most research on SVMs?", "SVMs", CountsAsked("decades")),  # C48
    ("In which decade were most papers on kernel methods published?", "kernel methods",
     CountsAsked("decades")),
    ("How many papers on GANs per decade?", "GANs", CountsAsked("decades")),
])
def test_a_question_asking_growth_top_years_or_decades_is_a_trend(
        question: str, topic: str, asked: CountsAsked) -> None:
    """A researcher's run: "By what percentage did X grow from 2020 to 2021?" had been a
    false "no", "Did … double …?", "Which decade …?" and "top 3 years …" quoted abstracts."""
    intent = read_intent(question)
    assert (intent.kind, intent.trend_topic, intent.counts_asked) == ("trend", topic, asked)


@pytest.mark.parametrize("question", [
    "By what percentage did the error decline?", "By what percentage did accuracy increase?",
    "How much did training time decrease?", "Did performance double?",
    "What was the increase in accuracy?", "Which year had the most papers on GANs?",
    # a review's (R3): each had become a topic's trend
    "How much did accuracy grow?", "What was the increase in accuracy of the proposed work?",
    "What is the growth rate of model parameters?", "How much did model size grow?",
    "By what margin did our method grow?", "Which decade had the best results on ImageNet?",
    "What decade was the perceptron invented?", "What were the top 0 years for papers on GANs?",
    "How much did model size grow from 2015 to 2020?",  # C49
    # a method's name alone grows as a field; not a unit, nor one whose verb has an object
    "How much did FLOPs grow?", "How much did accuracy on ImageNet grow?",
    "How much did BLEU increase?", "What is the increase in AUC?", "What is the growth rate of FLOPs?",
    "What is the decrease in FIDs?", "How much did AUCs increase?", "How much did PFLOPs grow?",  # C52
    "How much did AUCs grow?", "How much did FIDs rise?", "What is the growth in FIDs?",  # C53
    "How much did FPRs decrease?", "What is the decrease in PPLs?", "How much did ELBOs increase?",  # C55
    "By what percentage did CNNs decrease the error?", "How much did LSTMs increase the accuracy?"])
def test_a_papers_quantity_or_the_peak_asks_nothing_more_of_the_counts(question: str) -> None:
    """A paper's own quantity grows too: no topic's trend (the peak year is the trend's own line)."""
    assert read_intent(question).counts_asked is None


def trend_of(years: dict[int, int], stored: dict[int, int], topic: str = "GANs") -> TrendResult:
    return TrendResult(topic=topic, years=years, venues={}, paper_ids=["p"] * sum(years.values()),
                       papers_in_store=sum(stored.values()), papers_in_filter=sum(stored.values()),
                       screened=300, stored=stored)


def test_growth_is_the_change_from_the_first_year_to_the_last_beside_each_years_share() -> None:
    trend = trend_of({2018: 40, 2019: 56, 2021: 30}, {2018: 1000, 2019: 1427, 2021: 2000})
    assert growth_line(trend, None, None) == (
        "From 2018 to 2021, papers on “GANs” went from 40 to 30 papers (down 25%, 0.75×; down about 9% a "
        "year); as a share of each year's stored papers, from 4.0% of 1,000 to 1.5% of 2,000.")
    one_year = trend_of({2020: 10, 2021: 20}, {2020: 1900, 2021: 2000})  # the total is the rate
    assert "(up 100%, 2×); as a share" in growth_line(one_year, None, None)
    grew = dataclasses.replace(trend, years={2018: 0, 2019: 56, 2021: 30})  # none the first year
    assert growth_line(grew, None, None) == growth_line(grew, None, 2019) + (
        " None in 2018: it is measured from 2019, the first year counting any.")
    assert growth_line(grew, None, 2019).startswith(
        "From 2019 to 2021, papers on “GANs” went from 56 to 30 papers (down 46%, 0.54×; down about "
        "27% a year)")
    late = dataclasses.replace(trend, years={2018: 0, 2019: 0, 2021: 30})  # none before the last
    assert growth_line(late, None, None).startswith("From 2018 to 2021, papers on “GANs” went from "
                                                    "0 to 30 papers; as a share")  # no ratio of 0
    assert growth_line(late, 2.0, None).startswith("No multiple to tell: none in 2018. From 2018")
    assert growth_line(trend_of({2021: 3}, {2021: 2000}), None, None) == ""  # one year


def test_a_sample_year_at_an_end_is_left_out_of_the_growth_and_said_so() -> None:
    """The 38 seeds of 2025 after 2,333 papers of 2021: 2 papers of 2025 are no decline."""
    trend = trend_of({2019: 10, 2021: 20, 2025: 2}, {2019: 1427, 2021: 2333, 2025: 38})
    line = growth_line(trend, None, None)
    assert line.startswith("From 2019 to 2021, papers on “GANs” went from 10 to 20 papers "
                           "(up 100%, 2×; up about 41% a year)")  # the compound rate: 1.41² is 2
    assert line.endswith(" 2025 is left out: it holds only 38 stored papers, against 2,333 in 2021.")
    two = trend_of({2021: 256, 2025: 4}, {2021: 2333, 2025: 38})  # "in the last five years" (R3)
    assert growth_line(two, None, None) == ("Too few years to measure the growth of papers on “GANs”. "
                                            "2025 is left out: it "
                                            "holds only 38 stored papers, against 2,333 in 2021.")
    theirs = dataclasses.replace(two, gap_label="none stored within the filter")  # an author's few
    assert growth_line(theirs, None, None).startswith("From 2021 to 2025")


def test_a_multiple_asked_yes_or_no_is_answered_on_the_count_and_its_share() -> None:
    trend = trend_of({2015: 18, 2020: 62}, {2015: 403, 2020: 1898})
    assert growth_line(trend, 2.0, None).startswith(
        "Yes, more than doubled in papers, but not as a share of each year's papers. From 2015")
    assert growth_line(trend, 4.0, None).startswith("No, not quadrupled in papers. From 2015")
    exactly = trend_of({2015: 10, 2020: 20}, {2015: 500, 2020: 500})
    assert growth_line(exactly, 2.0, None).startswith("Yes, doubled in papers. From 2015")
    assert growth_line(exactly, 10.0, None).startswith("No, not grown 10-fold in papers.")
    since = trend_of({2015: 0, 2017: 1, 2021: 45}, {2015: 403, 2017: 679, 2021: 2333})  # R3: "No"
    assert growth_line(since, 2.0, None).startswith("Yes, more than doubled in papers. From 2017 to 2021")
    shared = trend_of({2015: 10, 2020: 12}, {2015: 1000, 2020: 400})  # 1.0% → 3.0%
    assert growth_line(shared, 2.0, None).startswith(
        "No, not doubled in papers, but as a share of each year's papers. From 2015")


def test_the_top_years_are_the_most_counted_with_ties_and_the_shares_order() -> None:
    trend = trend_of({2016: 10, 2017: 29, 2019: 56, 2020: 56, 2021: 45},
                     {2016: 568, 2017: 679, 2019: 1427, 2020: 1898, 2021: 2333})
    assert top_years_line(trend, 3) == (
        "The 3 years with the most papers on “GANs”: 2020 (56), 2019 (56), 2021 (45); by share "
        "of each year's stored papers: 2017 (4.3%), 2019 (3.9%), 2020 (3.0%).")
    assert top_years_line(trend, 1).startswith("The 1 year with the most papers on “GANs”: "
                                               "2020 (56); 2019 also counts 56;")
    few = trend_of({2019: 6, 2020: 0}, {2019: 100, 2020: 100})
    assert top_years_line(few, 3) == ("The 1 year with the most papers on “GANs” (only 1 counted "
                                      "any): 2019 (6).")


def test_decades_sum_their_years_and_say_which_years_of_them_are_stored() -> None:
    trend = trend_of({1988: 5, 1989: 5, **{y: 1 for y in range(1990, 2000)}, 2020: 30, 2025: 1},
                     {1988: 80, 1989: 100, **{y: 100 for y in range(1990, 2000)}, 2020: 1000,
                      2025: 38}, topic="")
    assert decades_line(trend) == (
        "The counted papers by decade: 1980s 10 (5.6% of 180; 1988–1989 only), 1990s 10 (1.0% of "
        "1,000), 2020s 31 (3.0% of 1,038; 2020 and 2025 only). The most in the 2020s; the largest "
        "share in the 1980s.")


def test_decades_tied_are_each_named_and_a_share_of_few_papers_competes_not() -> None:
    """A review (R3): a tie named only the later decade; 5% of 1980s papers on a stray few
    had been "the largest share"."""
    trend = trend_of({1988: 4, 1995: 30, 2015: 30}, {1988: 20, 1995: 1000, 2015: 3000}, topic="")
    assert decades_line(trend).endswith("The most in the 1990s and 2010s; the largest share in the 1990s.")
    few = trend_of({1988: 4, 1995: 3}, {1988: 20, 1995: 1000}, topic="")
    assert decades_line(few).endswith("The most in the 1980s.")


def test_a_growth_asked_of_no_years_starts_where_the_topic_counts_five_papers() -> None:
    """A review (R3): "How much has deep learning grown?" had grown 188× from one stray paper."""
    trend = trend_of({2007: 1, 2013: 6, 2021: 188}, {2007: 200, 2013: 400, 2021: 2333})
    assert reply_line(trend, CountsAsked("growth"), None) == growth_line(trend, None, 2013) + (
        " No years were asked: it is measured from 2013, the first year counting 5 or more.")


@pytest.fixture(scope="module")
def capsule_years(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """The seeds (2025) and four capsule-network papers: one of 2018, two of 2019, one of 2020."""
    rows = [(t, a, y) for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "growth", rows,
                                              ("title", "abstract", "year"))))


def test_an_asked_growth_and_decades_are_answered_beside_the_table(capsule_years: Assistant) -> None:
    doubled = final_answer(capsule_years.answer_stream(
        "Did the number of papers on capsule networks double from 2018 to 2019?"))
    lines = doubled.answer.splitlines()
    assert doubled.receipt is not None and doubled.receipt.matching == 3
    assert "Yes, doubled in papers, but not as a share of each year's papers. From 2018 to 2019, " \
           "papers on “capsule networks” went from 1 to 2 papers (up 100%, 2×)" in lines[2]
    decades = final_answer(capsule_years.answer_stream(
        "Which decade had the most papers on capsule networks?")).answer.splitlines()
    assert decades[2].startswith("Papers on “capsule networks” by decade: 2010s 3 (")
    assert decades[2].endswith("2020s 1 (2.6% of 39; 2020 and 2025 only). The most in the 2010s.")
    # C64: "fewer" had been answered with the decade of the most
    for asked in ("Which decade had fewer papers on capsule networks?",
                  "Which decade had the fewest papers on capsule networks?"):
        fewest = final_answer(capsule_years.answer_stream(asked)).answer.splitlines()
        assert fewest[2].endswith("The fewest in the 2020s; the smallest share too."), asked


def test_which_grew_faster_names_a_method_or_a_field_noun() -> None:
    """A run: "Which grew faster, GANs or VAEs?" had quoted one abstract; without a field's
    noun a side must be written as a method's name, "model size or dataset size" being
    quantities."""
    assert compared_topics("Which grew faster, GANs or VAEs?") == ("GANs", "VAEs")
    assert compared_topics("What grew faster: transformers or CNNs?") == ("transformers", "CNNs")
    assert compared_topics("Which grew faster, model size or dataset size?") is None
    assert compared_topics("Which grew faster in the paper, FLOPs or parameters?") is None  # C48
    assert compared_topics("Which grew faster, GANs, or VAEs?") == ("GANs", "VAEs")  # C49
    # C50: a comma before the first side had joined "paper," to it, and a field's framing
    # ("research on GANs") had been counted as the topic's words (8 papers against 158)
    assert compared_topics("Which grew faster, in the paper, FLOPs or parameters?") is None
    for asked in ("Which has grown faster: research on GANs or research on VAEs?",
                  "Which has grown faster, research on GANs, or on VAEs?",
                  "Which grew faster, interest in GANs or in VAEs?"):
        assert compared_topics(asked) == ("GANs", "VAEs"), asked
    assert compared_topics("Which grew faster, GAN research or VAE research?") == ("GAN", "VAE")
    # C51: "research" after a field's words is its name's, and a colon ends no side
    assert compared_topics("Which has more papers, operations research or game theory?") == (
        "operations research", "game theory")
    assert compared_topics("Which grew faster in the paper: FLOPs or parameters?") is None
    # C52: a field's research or work is the field ("bandit research" had outcounted RL's)
    assert compared_topics("Which has more papers, reinforcement learning research or bandit "
                           "research?") == ("reinforcement learning", "bandit")
    # C53: "research" comes off a name, several words, or both sides; else it is the field's
    assert compared_topics("Which has more papers, social work or psychology?") == (
        "social work", "psychology")
    assert compared_topics("Which has more papers, action research or game theory?") == (
        "action research", "game theory")
    assert compared_topics("Which has more papers, operations  research or game theory?") == (
        "operations research", "game theory")  # two spaces
    # ...and words before a colon say when
    assert compared_topics("Which grew faster in recent years: GANs or VAEs?") == ("GANs", "VAEs")
    assert compared_topics("Which grew faster recently, CNNs or ViTs?") == ("CNNs", "ViTs")
    # C55: other words there say what grew, no count of papers; nor is a third side eaten
    assert compared_topics("Which grew faster in accuracy, ResNet or VGG?") is None
    assert compared_topics("Which grew faster in the paper by Kingma: VAEs or GANs?") is None
    # ...but three are each counted (they had been no comparison: one abstract quoted)
    assert compared_topics("Which grew faster: GANs, VAEs or diffusion models?") == (
        "GANs, VAEs", "diffusion models")
    # C58: one kind of model written as an acronym's plural is enough ("transformers" is none)
    assert compared_topics("Which grew faster: GANs, transformers or diffusion models?") == (
        "GANs, transformers", "diffusion models")
    for when in ("over the years", "in popularity", "in number of papers", "this decade"):  # C56
        assert compared_topics(f"Which grew faster {when}: GANs or VAEs?") == ("GANs", "VAEs"), when
    # its years read first, the question is searched as "Which grew faster,, GANs or VAEs?"
    since = read_intent("Which grew faster, since 2016, GANs or VAEs?")
    assert since.compared_topics == ("GANs", "VAEs") and since.filters.years[0] == 2016


def test_which_grew_faster_is_the_larger_multiple_over_the_same_years() -> None:
    gans = trend_of({2014: 0, 2015: 1, 2016: 8, 2021: 45}, {2014: 400, 2015: 403, 2016: 569, 2021: 2333})
    vaes = dataclasses.replace(gans, topic="VAEs", years={2014: 1, 2015: 3, 2016: 6, 2021: 42})
    lines = growth_lines(gans, vaes, ranged=False)  # from 2016, the first both count 5 or more in
    assert lines[0] == "“VAEs” grew faster from 2016 to 2021: 7× its papers, against 5.6× for “GANs”."
    assert lines[1:] == [growth_line(gans, None, 2016), growth_line(vaes, None, 2016)]
    ranged = growth_lines(gans, vaes, ranged=True)  # GANs none in 2014: over other years, no verdict
    assert ranged == [growth_line(gans, None, None), growth_line(vaes, None, None)]
    assert ranged[0].startswith("From 2015 to 2021") and ranged[1].startswith("From 2014 to 2021")
    # a review (C48): from the first year of 5 papers of one topic, none was left to measure
    late = trend_of({2019: 2, 2020: 3, 2021: 6}, {2019: 1427, 2020: 1898, 2021: 2333}, topic="FLOPs")
    slow = dataclasses.replace(late, topic="model size", years={2019: 1, 2020: 2, 2021: 4})
    assert growth_lines(late, slow, ranged=False)[0] == (
        "“model size” grew faster from 2019 to 2021: 4× its papers, against 3× for “FLOPs”.")
    fell = dataclasses.replace(vaes, years={2015: 6, 2016: 6, 2021: 3})
    assert growth_lines(dataclasses.replace(gans, years={2015: 8, 2016: 1, 2021: 2}), fell,
                        ranged=False)[0] == (
        "Neither grew from 2015 to 2021; “VAEs” kept more of its papers: "
        "0.5× its papers, against 0.25× for “GANs”.")


def test_a_comparison_asking_which_grew_faster_says_it(capsule_years: Assistant) -> None:
    lines = final_answer(capsule_years.answer_stream(
        "Which topic grew faster, capsule networks or bandits?")).answer.splitlines()
    assert lines[1] == ("“bandits” grew faster from 2019 to 2025: 2× its papers, against 0× for "
                        "“capsule networks”.")
    assert lines[2].startswith("From 2019 to 2025, papers on “capsule networks” went from 2 to 0")


def test_papers_of_no_year_give_no_blank_peaks_line() -> None:
    """A review (C50): when every counted paper has no year, ``replies`` left the empty
    peaks line out (bfb567b) but a comparison still printed it blank; and neither was tested."""
    undated = dataclasses.replace(trend_of({}, {}), unknown_year=3, paper_ids=["p"] * 3)
    assert undated.total == 3 and undated.peaks() == ""
    assert replies(undated, read_intent("How many papers on GANs per year?")) == []
    other = dataclasses.replace(undated, topic="VAEs")
    lines = comparison_lines(undated, other)
    assert "" not in lines and f"{undated.summary()}." in lines



def test_the_last_so_many_years_are_a_stated_range_of_growth() -> None:
    """A review (C50): "the last five years" (``Filters.recent``) states years as a range
    does, so the growth is measured across them, from their first year, not from the first
    of five papers (that half of ``Filters.states_years`` went untested)."""
    trend = trend_of({2017: 2, 2018: 6, 2021: 30}, {2017: 679, 2018: 1009, 2021: 2333})
    stated = reply_line(trend, CountsAsked("growth"), Filters(recent=5))
    assert stated == growth_line(trend, None, None) and stated.startswith("From 2017 to 2021")
    assert reply_line(trend, CountsAsked("growth"), None).startswith("From 2018 to 2021")


def test_three_topics_are_ranked_by_count_and_growth_those_tied_together() -> None:
    """Three topics compared ("Which grew faster: GANs, VAEs or diffusion models?") are
    ranked, most first; topics tied are named together, not one of them as the most."""
    stored = {2020: 1000, 2021: 1000}
    a, b, c = (trend_of(years, stored, topic) for years, topic in [
        ({2020: 10, 2021: 20}, "A"), ({2020: 5, 2021: 10}, "B"), ({2020: 6, 2021: 9}, "C")])
    assert comparison_lines(a, b, c)[0] == "Most papers on “A”: 30, then “B” and “C” 15 each."
    assert comparison_lines(a, dataclasses.replace(a, topic="D"), c)[0] == (
        "Most papers on “A” and “D”: 30 each, then “C” 15.")
    assert comparison_lines(a, a, a)[0] == "As many papers on each of “A”, “A” and “A”: 30 each."
    assert growth_lines(a, b, c, ranged=False)[0] == (
        "“A” and “B” grew fastest from 2020 to 2021: 2× their papers each, against 1.5× for “C”.")
    assert growth_lines(a, c, b, ranged=False)[0].startswith("“A” and “B” grew fastest")
    fell = [trend_of({2020: 10, 2021: n}, stored, t) for n, t in [(5, "E"), (8, "F"), (4, "G")]]
    assert growth_lines(*fell, ranged=False)[0] == (
        "None grew from 2020 to 2021; “F” kept most of its papers: 0.8× its papers, "
        "against 0.5× for “E” and 0.4× for “G”.")
    table = comparison_lines(a, b, c)[-3:]
    assert [row.split() for row in table] == [["year", "A", "B", "C", "of", "stored"],
                                             ["2020", "10", "5", "6", "1,000"],
                                             ["2021", "20", "10", "9", "1,000"]]


@pytest.mark.parametrize(("question", "year"), [
    ("Did interest in support vector machines decline after 2010?", 2010),
    ("Has work on SVMs declined since 2010?", 2010),
    ("Has the number of papers on federated learning grown since 2017?", 2017),
    ("How has research on kernel methods changed after 2012?", 2012),
    ("How has interest in GANs changed year by year since 2017?", 2017),
    ("Did interest in SVMs decline in popularity after 2010?", 2010),
    # a fall (C60: "dropped" had been no trend, one paper quoted)
    ("Has interest in GANs dropped since 2019?", 2019),
    ("Did research on hidden Markov models fall after 2000?", 2000),
    # the years up to it, a range closed at both ends, the last so many: its range
    ("Did papers on Bayesian nonparametrics grow before 2015?", None),
    ("How has interest in GANs grown between 2015 and 2019?", None),
    ("How has interest in GANs grown in the last three years?", None),
    # a change word of the topic's, or a change of something else (C60): its range
    ("How many papers per year on shift-invariant kernels after 2010?", None),
    ("How many papers per year since 2016 use data augmentation to increase robustness?", None),
    ("How have papers on GANs since 2018 changed their evaluation metrics?", None)])
def test_a_change_since_a_year_is_measured_from_that_year(question: str, year: int | None) -> None:
    """A researcher's run: "Did X decline after 2010?" had been counted within 2011 on, its
    first year read as "first counted"; 2010 itself is the measure."""
    intent = read_intent(question)
    assert change_since(question, intent.filters) == year
    assert year is None or intent.kind == "trend"


def test_a_change_since_a_year_is_counted_over_every_year(capsule_years: Assistant) -> None:
    """"Has X grown since 2019?" counts 2018's capsule paper too, and measures its growth from
    2019; "list them" after it lists what it counted (C60: the range's papers alone)."""
    question = "Has interest in capsule networks grown since 2019?"
    answer = final_answer(capsule_years.answer_stream(question))
    assert answer.receipt is not None and answer.receipt.matching == 4
    lines = answer.answer.splitlines()
    assert lines[2].startswith("From 2019 to 2025, papers on “capsule networks” went from 2 to 0 papers")
    assert any(line.split()[:2] == ["2018", "1"] for line in lines)
    listed = final_answer(capsule_years.answer_stream("list them", [(question, answer.answer)]))
    assert listed.answer.startswith("4 papers")


def test_a_growth_within_an_authors_papers_says_its_shares_are_of_those() -> None:
    """C60: "Has Yoshua Bengio's work on GANs declined since 2018?" said "as a share of each
    year's stored papers, from 40.0% of 5": his five papers of 2018, not the store's."""
    trend = dataclasses.replace(trend_of({2018: 2, 2021: 1}, {2018: 5, 2021: 8}),
                                stored_within="author Yoshua Bengio",
                                gap_label="none stored within the filter")
    assert "as a share of each year's stored papers within the filter (author Yoshua Bengio), " \
           "from 40.0% of 5 to 12.5% of 8." in growth_line(trend, None, None)
    whole = trend_of({2018: 2, 2021: 1}, {2018: 5, 2021: 8})  # the store's: no filter named
    assert "stored papers, from 40.0%" in growth_line(whole, None, None)


def test_decades_tied_for_the_fewest_are_each_named() -> None:
    """C65: of three decades at 0.0%, the smallest share had been given to the first alone."""
    trend = trend_of({1995: 0, 2005: 0, 2015: 1}, {1995: 10, 2005: 10, 2015: 10}, "bandits")
    assert decades_line(trend, fewest=True).endswith(
        "The fewest in the 1990s and 2000s; the smallest share too.")
    shown = trend_of({1995: 1, 2005: 1, 2015: 5}, {1995: 1000, 2005: 990, 2015: 100}, "bandits")
    assert decades_line(shown, fewest=True).endswith(  # C66: tied as shown, both "0.1%"
        "The fewest in the 1990s and 2000s; the smallest share too.")
