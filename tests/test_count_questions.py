"""A question asking how many papers answer a topic ("How many papers on X since 2015?") is
answered with the count its trend gives (`trends X --year 2015-`): the same screen and
reading budget, and a line saying how the count was made."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_follow_ups import CAPSULES, OTHERS

from assistant.answering import final_answer
from assistant.counted_topics import count_topic
from assistant.errors import BadInputError
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.references import receipt_line
from assistant.store_answers import about_store
from assistant.topic_shares import stated_of_them, topic_and_facet
from assistant.topics import topic_of
from assistant.types import Filters


def topic(question: str) -> str | None:
    """The count question's topic as ``answer_stream`` reads it (None: no count)."""
    return count_topic(read_intent(question))


def test_a_count_questions_topic_is_read_and_other_questions_have_none() -> None:
    """The topic of "How many papers …?", its range and framing words cut; none for a trend
    (answered as one already), a term lookup (its words counted as written), or a count of
    a year's or an author's papers (every paper of the filter: the list's count)."""
    assert topic("How many papers on Bayesian optimization since 2015?") == "Bayesian optimization"
    assert topic("How many papers are there about graph neural networks?") == \
        "graph neural networks"
    assert topic("What is the number of papers using capsule networks?") == "capsule networks"
    assert topic("How many papers on GANs per year?") is None  # a trend
    assert topic("How many papers mention Tetris?") is None  # a term lookup
    assert topic("How many papers were published in 2015?") is None  # no topic
    assert topic("Which papers use graph neural networks?") is None  # a list
    # words that only qualify the papers counted: "different on GANs" had been the topic
    assert topic("How many different papers on GANs?") == "GANs"
    assert topic("How many research papers on GANs?") == "GANs"
    # a run: a quoted answer with no number; "number of" without "the" may count anything
    # ("number of heads in transformer papers", a review)
    assert topic("what's the total number of papers on capsule networks?") == "capsule networks"
    assert topic("tell me the number of papers on dropout") == "dropout"
    assert topic("Which papers reduce the number of parameters?") is None
    assert topic("number of heads in transformer papers") is None


def test_a_count_question_is_answered_with_its_trends_count(seed_assistant: Assistant) -> None:
    """"How many papers on X?" had been answered by a list, reading 30 uncertain papers and
    keeping the rest on their words alone (237 papers on Bayesian optimization since 2015,
    where `trends` counted 115): it is now the trend's count, paper for paper, with its
    per-year table and a line saying how it was counted."""
    for question in ["How many papers on reinforcement learning?",
                     "How many papers on reinforcement learning since 2020?"]:
        filters = read_intent(question).filters
        answer = final_answer(seed_assistant.answer_stream(question))
        trend = seed_assistant.trends("reinforcement learning", filters)
        assert trend.total >= 1 and answer.receipt is not None
        assert answer.receipt.counted == trend.paper_ids
        assert answer.receipt.matching == trend.total
        lines = answer.answer.splitlines()
        assert lines[0] == f"{trend.summary()}." and lines[1] == trend.how_counted()
        how = "Counted as the store's count is, restricted to the range" if filters else \
            "Counted as a trend is counted"  # within a range, the store's screen's (windowed.py)
        assert lines[1].startswith(how) and f"a budget of {trend.budget}" in lines[1] and trend.budget >= 200
        assert "counted" in receipt_line(answer.receipt)
    # typed as the topic of `trends`, the question is read as `ask` reads it
    asked = seed_assistant.trends("How many papers on reinforcement learning?")
    assert asked.paper_ids == seed_assistant.trends("reinforcement learning").paper_ids
    # a per-year question says no such line (its table is the answer), and `--all` lists
    per_year = final_answer(seed_assistant.answer_stream(
        "How many papers on reinforcement learning per year?"))
    assert not any(line.startswith("Counted as") for line in per_year.answer.splitlines())
    listed = final_answer(seed_assistant.answer_stream(
        "How many papers on reinforcement learning?", every=True))
    assert listed.receipt is not None and listed.receipt.counted is None


def test_a_counts_filter_is_its_own_questions(seed_assistant: Assistant) -> None:
    """Counts are kept per topic and filters: "2023 or 2025" asked first is those two years,
    and "from 2023 to 2025" after it the range, not the count of the two."""
    either = final_answer(seed_assistant.answer_stream(
        "How many papers on language models in 2023 or 2025?"))
    both = final_answer(seed_assistant.answer_stream(
        "How many papers on language models from 2023 to 2025?"))
    assert either.filters == "years 2023 and 2025", either.filters
    assert both.filters == "years 2023–2025", both.filters


def test_the_last_zero_years_is_bad_input(seed_assistant: Assistant) -> None:
    """"in the last 0 years" had made the range 2026–2025 and said no paper is of it."""
    with pytest.raises(BadInputError, match="the last 0 years"):
        final_answer(seed_assistant.answer_stream("List papers on language models in the last 0 years"))


def test_the_store_named_in_a_count_question_is_no_topic(seed_assistant: Assistant) -> None:
    """A hostile review: "How many papers on GANs are in the store?" had counted the topic
    "GANs are in the store" (184 of the 13.9k, against 237), "…does the store have on
    GANs?" "store have on GANs", "How many papers exist?" 5 papers on "exist", and "How many
    papers were published in the store in 2019?" 1 paper on "store"."""
    assert count_topic(read_intent("How many papers on GANs are in the store?")) == "GANs"
    assert count_topic(read_intent("How many papers does the store have on GANs?")) == "GANs"
    assert count_topic(read_intent("How many papers exist?")) is None
    assert count_topic(read_intent("How many papers on GANs exist?")) == "GANs"
    assert count_topic(read_intent("How many papers on publicly available datasets?")) == (
        "publicly available datasets")
    assert about_store("How many papers exist?")
    assert about_store("How many papers were published in the store?")
    assert not about_store("How many papers study index coding?")
    answer = final_answer(seed_assistant.answer_stream(
        "How many papers were published in the store in 2025?"))
    assert answer.answer.startswith("38 of the store's 38 papers are of year 2025"), answer.answer


def test_a_count_of_topic_papers_is_read_as_papers_on_the_topic(seed_assistant: Assistant) -> None:
    """A hostile review: "How many GAN papers were published in 2018?" had been answered
    "The corpus has no abstract about this question" (never writing "published", "many"),
    where "How many papers on GANs …" counted 41; the topic before the noun is the count's."""
    assert topic("How many GAN papers were published in 2018?") == "GAN"
    assert topic("How many reinforcement learning papers were published in 2020?") == \
        "reinforcement learning"
    assert topic("How many GAN papers are there?") == "GAN"
    assert topic("How many GAN papers use attention?") == "GAN use attention"
    assert topic("What is the number of GAN papers?") == "GAN"
    for other in ["How many times do papers cite BERT?", "How many more papers use GANs?",
                  "How many layers works best?", "How many of the papers use GANs?",
                  "How many GAN papers per year?"]:
        assert topic(other) is None, other
    typed = final_answer(seed_assistant.answer_stream("How many reinforcement learning papers?"))
    trend = seed_assistant.trends("reinforcement learning")
    assert typed.receipt is not None and trend.total >= 1
    assert typed.receipt.counted == trend.paper_ids


def test_papers_per_year_of_no_topic_are_the_stores(seed_assistant: Assistant) -> None:
    """"How many papers per year?" had exited "the topic is empty": it is every stored
    paper counted per year, as an author's papers of no topic are."""
    answer = final_answer(seed_assistant.answer_stream("How many papers per year?"))
    stored = len(seed_assistant.index.papers())
    assert answer.receipt is not None and answer.receipt.matching == stored
    assert answer.answer.startswith(f"{stored:,} papers of the {stored:,} match")
    with pytest.raises(BadInputError, match="the topic is empty"):
        seed_assistant.trends("")


def test_no_topic_under_a_filter_no_paper_passes_is_one_line(seed_assistant: Assistant) -> None:
    """A run: the trends tool with no topic and an author no stored paper has counted 0
    with no error, where a topic under the same filter gets the one line."""
    with pytest.raises(BadInputError, match="no indexed paper has an author named Ada Nobody"):
        seed_assistant.trends("", Filters(author="Ada Nobody"))


@pytest.mark.parametrize("question", ["how many papers on optimal transport pls",
                                      "How many papers on optimal transport, thanks!",
                                      "How many papers on optimal transport? Thank you"])
def test_courtesy_ending_a_count_is_no_topic_word(question: str) -> None:
    """A run: "how many papers in 2021 on optimal transport pls" counted 0 (its topic
    “optimal transport PLS”), against 21 without it."""
    assert count_topic(read_intent(question)).rstrip("?") == "optimal transport"


@pytest.mark.parametrize(("question", "years"), [
    ("how many more papers on federated learning in 2021 than in 2020", (2020, 2021)),
    ("compare the number of federated learning papers in 2019 and 2021", (2019, 2021)),
])
def test_counts_of_one_topic_set_side_by_side_are_its_count_per_year(
        question: str, years: tuple[int, int]) -> None:
    """A run: each had been answered with quotes and no number (the first had also
    dropped 2020); each year's count answers both."""
    intent = read_intent(question)
    assert intent.filters is not None and intent.filters.years == years
    assert count_topic(intent) == "federated learning"
    assert count_topic(read_intent("How many more papers should I read on GANs?")) is None


@pytest.fixture(scope="module")
def capsule_years(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """The seeds (2025) and four capsule-network papers of 2018 to 2020, the one of 2020 by
    another author."""
    rows = [(t, a, y, "Ann Lee" if y == 2020 else "Sara Sabour, Geoffrey Hinton")
            for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "more", rows,
                                              ("title", "abstract", "year", "authors"))))


def test_how_many_more_in_one_year_than_another_counts_each(capsule_years: Assistant) -> None:
    answer = final_answer(capsule_years.answer_stream(
        "How many more papers on capsule networks in 2019 than in 2018?"))
    assert answer.answer.startswith("3 papers of the")
    assert "match “capsule networks”" in answer.answer.splitlines()[0]
    # a researcher's run: the difference asked for had been left to the reader
    assert "That is 1 more in 2019 than in 2018 (2 against 1)." in answer.answer
    versus = final_answer(capsule_years.answer_stream("How many papers on capsule networks in 2018 vs 2020?"))
    assert "That is 1 in 2018 and 1 in 2020; as a share of each one's stored papers, 100.0% of 1 and " \
           "100.0% of 1." in versus.answer  # C44: each span its count
    # ...of years counted alone (C45: "… in 2018 and 2019 vs 2020?" had said "0 in 2020")
    uncounted = final_answer(capsule_years.answer_stream(
        "How many papers on capsule networks in 2018 and 2019 vs 2020?")).answer
    assert "That is" not in uncounted or "in 2020." not in uncounted


def test_a_count_of_recent_papers_is_the_topics_count_per_year() -> None:
    """A run: "How many recent papers on dropout?" was answered with quotes and no
    number; its count per year shows the recent years."""
    assert count_topic(read_intent("How many recent papers on dropout?")) == "dropout"


@pytest.mark.parametrize(("asked", "topic"), [
    ("Count the normalizing flow papers from 2019 to 2021", "normalizing flow"),
    ("Count the papers on GANs", "GANs"), ("count all the papers on dropout", "dropout"),
    ("number of papers on lstm in 2017 vs 2021", "lstm")])  # a run's: five abstracts quoted
def test_a_request_to_count_papers_is_a_count(asked: str, topic: str) -> None:
    """A run: "Count the normalizing flow papers from 2019 to 2021" listed 64 papers (a list's
    reading budget) where the trend counts 67 for those years: it asks how many, as "How many
    … papers" does, and is answered by the same count."""
    assert count_topic(read_intent(asked)) == topic


@pytest.mark.parametrize(("asked", "counted"), [
    ("How many papers on meta learning in 2020 and 2021 combined?", "meta learning"),
    ("How many papers on GANs in total?", "GANs"), ("How many papers on GANs overall?", "GANs"),
    ("How many papers on overall survival?", "overall survival")])
def test_a_counts_closing_total_is_no_topic_word(asked: str, counted: str) -> None:
    """A researcher's run: "… on meta learning in 2020 and 2021 combined?" counted “meta
    learning and 2021 combined”, 9 papers of about 118."""
    assert count_topic(read_intent(asked)) == counted


@pytest.mark.parametrize("asked", ["How many papers in 2020 and 2021 combined?", "How many papers in total?",
                                   "How many papers overall?"])
def test_a_count_of_only_a_closing_total_names_no_topic(asked: str) -> None:
    """A review (C44): these had counted the papers writing “combined”, 25 of 4,231."""
    intent = read_intent(asked)
    assert count_topic(intent) is None and topic_of(intent.search, False) == ""


def test_a_question_about_counting_is_no_count() -> None:
    assert count_topic(read_intent("Which papers count objects in images?")) is None


@pytest.mark.parametrize("question", [
    "What fraction of papers use reinforcement learning?",
    "What percentage of the papers are about reinforcement learning?",
    "What share of NeurIPS papers study reinforcement learning?",
    "What proportion of papers since 2020 use reinforcement learning?",
    # a researcher's run: no "what" had been refused on "percentage"
    "percentage of papers about reinforcement learning",
    "What is the share of papers on reinforcement learning?"])
def test_a_share_of_the_papers_asked_for_is_a_count_with_its_share(
        question: str, seed_assistant: Assistant) -> None:
    """A run among the 13.9k: "What fraction of NeurIPS papers use reinforcement learning?"
    listed the 3 papers writing "fraction" (about 1,000 use RL). A share asked for is the
    count, and the answer says the share of the papers it was counted among."""
    assert topic(question) is not None and "reinforcement learning" in (topic(question) or "")
    answer = final_answer(seed_assistant.answer_stream(question))
    trend = seed_assistant.trends("reinforcement learning", read_intent(question).filters)
    assert answer.receipt is not None and answer.receipt.counted == trend.paper_ids
    share = f"{100 * trend.total / trend.papers_in_filter:.1f}%"
    assert f"In all, {share} of the {trend.papers_in_filter:,} papers." in answer.answer.splitlines()


@pytest.mark.parametrize("question", [
    "What share of the papers on federated learning use differential privacy?",
    "What fraction of reinforcement learning papers are model-based?",
    "What share of papers on GANs use CelebA?",
    "What share of the papers on federated learning used differential privacy?",
    "What share of the papers on RL were model-based?"])
def test_a_share_of_a_topics_papers_is_no_count_of_all(question: str) -> None:
    """A review: "What share of the papers on federated learning use differential privacy?"
    counted 116 papers on the whole phrase and gave their share of the 13,872, where about
    20 of the 63 federated-learning papers do: a share of a topic's papers is no count."""
    assert topic(question) is None


def test_a_years_share_of_a_topic_is_a_share_of_its_papers(capsule_years: Assistant) -> None:
    """A review: "What percentage of papers on GANs were published before 2018?" was counted
    within those years and answered "In all, 0.5% of the 7,167 papers", the share of the
    years' papers on GANs. It asks what share of the GAN papers those years hold: counted
    over every year, and the range's share of that count. The years' share of the papers
    ("… published before 2020 are on capsule networks?") stays a share of the years'."""
    every = capsule_years.trends("capsule networks")
    before = sum(n for year, n in every.years.items() if year <= 2019)
    assert every.total == 4 and before == 3
    answer = final_answer(capsule_years.answer_stream(
        "What percentage of papers on capsule networks were published before 2020?"))
    lines = answer.answer.splitlines()
    assert lines[0].startswith("4 papers of the ")
    assert "Of them, 3 (75.0%) are from years up to 2019." in lines
    assert answer.receipt is not None and answer.receipt.counted == every.paper_ids
    assert not any(line.startswith("In all,") for line in lines)
    of_the_years = final_answer(capsule_years.answer_stream(
        "What percentage of papers published before 2020 are on capsule networks?")).answer.splitlines()
    assert of_the_years[0].startswith("3 papers of the ")
    assert any(line.startswith("In all, ") for line in of_the_years)
    assert not any(line.startswith("Of them,") for line in of_the_years)
    # a review: "… were written by Goodfellow?" was a share of Goodfellow's papers
    by = final_answer(capsule_years.answer_stream(
        "What share of papers on capsule networks were written by Sara Sabour?")).answer.splitlines()
    assert by[0].startswith("4 papers of the ") and "Of them, 3 (75.0%) are by Sara Sabour." in by
    # a review (C40): "what about Bengio?" after it had counted “share of on GANs were”, 0
    history = [("What share of papers on capsule networks were written by Sara Sabour?", "\n".join(by))]
    # ...and a review (C43): then her papers' share of capsule networks (all 1), not theirs of hers
    other = final_answer(capsule_years.answer_stream("what about Ann Lee?", history)).answer.splitlines()
    assert other[0].startswith("4 papers of the ") and "match “capsule networks”" in other[0]
    assert "Of them, 1 (25.0%) is by Ann Lee." in other
    # a review (C42): "what about X?" had given the share of her papers on X
    swapped = final_answer(capsule_years.answer_stream("what about sparse attention?", history)).answer
    assert "Of them, 1 (100.0%) is by Sara Sabour." in swapped.splitlines()
    # ...under the years the question stated (C45: every year had been counted)
    dated = [("What share of papers on capsule networks were written by Sara Sabour in 2019?", "")]
    swapped_dated = final_answer(capsule_years.answer_stream("what about Ann Lee?", dated)
                                 ).answer.splitlines()
    assert swapped_dated[0].startswith("2 papers of the ")
    assert "Of them, 0 (0.0%) are by Ann Lee." in swapped_dated
    with pytest.raises(BadInputError, match="Nobody Atall"):  # an author the store does not hold
        final_answer(capsule_years.answer_stream("What share of papers on capsule networks were written "
                                                 "by Nobody Atall in 2019?"))
    with pytest.raises(BadInputError, match="no indexed paper is of year 1950"):  # nor years it holds (C46)
        final_answer(capsule_years.answer_stream(
            "What share of papers on capsule networks were published in 1950?"))
    empty = final_answer(capsule_years.answer_stream(  # C47: the author had gone unsaid
        "What share of papers on capsule networks were written by Sara Sabour in 2025?")).answer
    assert "None counted, so none is by Sara Sabour." in empty.splitlines()
    # a review (C41): "which ones?" after it had listed every capsule paper, not hers
    which = final_answer(capsule_years.answer_stream("which ones?", history))
    assert {c.title for c in which.citations} == {t for y, t, _ in CAPSULES if y != 2020}


@pytest.mark.parametrize("question", ["What percentage of papers are from 2019?",
                                      "What percentage of the stored papers are from 2019?",
                                      "What % of papers are from 2019?"])  # a review's "no"
def test_a_share_of_a_years_papers_with_no_topic_is_the_stores(capsule_years: Assistant,
                                                              question: str) -> None:
    """A review: "What percentage of the stored papers are from 2020?" counted 12 papers on
    “stored” and gave 1 of them (8.3%); it asks the store's share of a year."""
    papers = capsule_years.index.papers().values()
    of_2019 = sum(p.year == 2019 for p in papers)
    answer = final_answer(capsule_years.answer_stream(question)).answer
    assert answer.startswith(f"{of_2019} of the store's {len(papers)} papers "
                             f"({100 * of_2019 / len(papers):.1f}%) are of year 2019")
    # a review (C41): "list them" after it had listed one paper writing "percentage"
    listed = final_answer(capsule_years.answer_stream("list them", [(question, answer)]))
    assert len(listed.citations) == of_2019
    # a review (C43): "how many of them are on X?" had listed the year's papers writing X (51),
    # not counted the topic in that year as its count does (56)
    counted = final_answer(capsule_years.answer_stream("how many of them are on capsule networks?",
                                                       [(question, answer)]))
    assert counted.answer.startswith(f"2 papers of the {of_2019} (year 2019) match “capsule networks”")
    assert counted.receipt is not None and counted.receipt.counted == capsule_years.trends(
        "capsule networks", Filters(years=(2019, 2019))).paper_ids
    # ...and a share under two filters is each one's too ("… from 2021 are in NeurIPS?" and
    # "… of NeurIPS papers are from 2021?" ask different ones; a review's)
    both = final_answer(capsule_years.answer_stream("What percentage of papers from 2025 are in NeurIPS?"))
    seeds = sum(p.year == 2025 for p in papers)
    assert (f"That is 100.0% of the {seeds} papers of year 2025 and 100.0% of the {seeds} of venue "
            "NeurIPS.") in both.answer.splitlines()[0]


def test_a_share_of_an_authors_papers_with_no_topic_is_the_stores(capsule_years: Assistant) -> None:
    """A review (C43): "What fraction of papers are by Yoshua Bengio?" was a search for
    “percentage of”, a false "no"; and "… not by X" had no share of its own."""
    stored = len(capsule_years.index.papers())
    by = final_answer(capsule_years.answer_stream("What fraction of papers are by Ann Lee?")).answer
    assert by.startswith(f"1 of the store's {stored} papers ({100 / stored:.1f}%) are of author Ann Lee")
    not_by = final_answer(capsule_years.answer_stream(
        "What percentage of papers from 2019 are not by Ann Lee?")).answer
    assert (f"That is 100.0% of the 4 papers of year 2019 and {400 / (stored - 1):.1f}% of the "
            f"{stored - 1} not by Ann Lee.") in not_by


@pytest.mark.parametrize(("question", "stated"), [
    ("What percentage of papers on GANs were published before 2018?", "years"),
    ("What fraction of GAN papers are from 2019 or later?", "years"),
    ("What proportion of papers on GANs were published between 2015 and 2018 at NeurIPS?", "years"),
    ("What share of papers on GANs were written by Ian Goodfellow?", "author"),
    # a stop's known misreadings: any range the year reader reads, an author after a year
    ("What percentage of papers on GANs were published by 2018?", "years"),
    ("What percentage of papers on GANs were published in the 2010s?", "years"),
    ("What share of GAN papers are from the last five years?", "years"),
    ("What percentage of papers on GANs were published by the end of 2018?", "years"),
    ("What percentage of the 2019 papers on GANs were by Goodfellow?", "author"),
    ("what percentage of gan papers were written by ian goodfellow?", "author"),
    ("What share of papers on GANs were published by Ian Goodfellow in 2016?", "author"),  # C44
    ("What share of papers on GANs were written by Ian Goodfellow over the last five years?",
     "author"),  # C46: refused, no paper of his in those years
    ("What percentage of papers on GANs are in computer vision?", None),
    ("What fraction of papers on RL are from DeepMind?", None),
    ("What fraction of papers from 2019 use reinforcement learning?", None),
    ("What percentage of papers published before 2018 are on GANs?", None),
    ("What share of papers on RL published after 2015 use deep networks?", None),
    ("What fraction of papers by Bengio are on GANs?", None),
    ("How many papers on GANs were published before 2018?", None),
    ("What percentage of papers on GANs in 2019?", None)])
def test_a_share_of_a_topic_held_by_years_or_an_author_is_told_apart(question: str,
                                                                    stated: str | None) -> None:
    assert stated_of_them(question) == stated


@pytest.mark.parametrize(("question", "held"), [
    ("What percentage of papers on capsule networks were published by 2019?",
     "3 (75.0%) are from years up to 2019"),
    ("What share of capsule network papers are from the 2010s?", "3 (75.0%) are from years 2010–2019"),
    ("What share of papers on capsule networks are from the last seven years?",
     "3 (75.0%) are from years 2019–2025"),
    ("What percentage of the 2020 papers on capsule networks were by Ann Lee?", "1 (100.0%) is by Ann Lee"),
    # a review (C44): "2019 vs 2020" had been one share of both years
    ("What share of papers on capsule networks were published in 2019 vs 2020?",
     "2 (50.0%) are from 2019 and 1 (25.0%) is from 2020")])
def test_a_share_of_a_topic_reads_its_years_as_the_year_reader_does(capsule_years: Assistant, question: str,
                                                                     held: str) -> None:
    """A stop's known misreadings: "… published by 2018?" read no year, "… in the 2010s?"
    and "… from the last five years?" gave the topic's share of every paper, and "… of the
    2019 papers on GANs were by Goodfellow?" was no count. The last years end at the newest
    stored paper's (the seeds', 2025)."""
    lines = final_answer(capsule_years.answer_stream(question)).answer.splitlines()
    assert f"Of them, {held}." in lines


@pytest.mark.parametrize(("question", "counted"), [
    ("What share of papers on GANs were from 2020?", "GANs"),
    ("What percentage of GAN papers were published before 2018?", "GAN"),
    ("What share of papers on GANs were written by Goodfellow?", "GANs"),
    ("What percentage of papers in the dataset are about reinforcement learning?", "reinforcement learning"),
    ("What fraction of papers in the database use transformers?", "transformers"),
    ("What fraction of papers on reinforcement learning were in robotics?", None),
    ("What percentage of papers on RL were from DeepMind?", None),
    ("What percentage of papers on GANs are by Google?", None),  # C40: no author
    ("What percentage of papers on deep learning were by NVIDIA?", None)])
def test_a_share_is_counted_only_of_the_papers_it_asks_of(question: str, counted: str | None) -> None:
    """A review (C39): "… on GANs were from 2020?" and "… GAN papers were published before
    2018?" had listed papers of the year; "… in the dataset …" had given a false "no"; and
    "… on reinforcement learning were in robotics?" counted “reinforcement learning were in
    robotics”, a share of a topic's papers on another."""
    read = topic(question)
    assert read == counted if counted is None else read is not None and counted in read


def test_a_share_of_the_stores_papers_is_a_count() -> None:
    """A second review: "What percentage of papers in the store are about reinforcement
    learning?" had been read as a share of the store's topic, and listed 1 paper."""
    assert topic("What percentage of papers in the store are about reinforcement learning?") == (
        "reinforcement learning")
    assert topic("What share of papers in this collection are on GANs?") == "GANs"
    # a third review: a year's share of a topic ("were published before 2018") is its count
    assert topic("What percentage of papers on GANs were published before 2018?") == "GANs"
    assert topic("What percentage of papers on GANs have been published since 2020?") == "GANs"


def test_a_share_of_a_topics_papers_answering_another_is_counted_among_them(
        capsule_years: Assistant) -> None:
    """A researcher's run: "What share of papers on GANs use CelebA?" listed one GAN paper
    not writing "CelebA", with no share, and "… are in computer vision?" gave a false "no".
    The topic is counted, then kept to the papers answering the facet, as "how many of them
    use CelebA?" keeps it after "How many papers on GANs?"; a follow-up narrows that."""
    question = "What share of papers on capsule networks are about videos?"
    answer = final_answer(capsule_years.answer_stream(question))
    lines = answer.answer.splitlines()
    assert lines[0].startswith("1 paper of the 4 match")
    assert ("Of the 4 papers on “capsule networks”, this 1 (25.0%) writes “videos” or is read as "
            "answering it.") in lines
    assert answer.receipt is not None and len(answer.receipt.counted) == 1
    listed = final_answer(capsule_years.answer_stream("list them", [(question, answer.answer)]))
    assert [c.title for c in listed.citations] == ["Capsules in Videos"]
    # a review (C44): per year it had been counted among the list's papers, not the count's
    per_year = final_answer(capsule_years.answer_stream("how many of them per year?",
                                                        [(question, answer.answer)]))
    assert per_year.answer.splitlines()[0] == lines[0]
    # a review (C44): "what about X?" had dropped the facet and the share: X's count alone. A
    # variant of the facet (a word shared) swaps the facet, anything else the topic
    before = [(question, answer.answer)]
    variant = final_answer(capsule_years.answer_stream("what about action videos?", before))
    assert "Of the 4 papers on “capsule networks”, this 1 (25.0%) writes “action videos”" in variant.answer
    other = final_answer(capsule_years.answer_stream("what about sparse attention?", before))
    assert "Of the 1 paper on “sparse attention”, none writes “videos”" in other.answer


@pytest.mark.parametrize(("question", "split"), [
    ("What share of papers on GANs use CelebA?", ("GANs", "use CelebA")),
    ("What fraction of reinforcement learning papers are model-based?",
     ("reinforcement learning", "model-based")),
    # a review (C44): “RL were published and”; “applied to chemistry use attention” the facet
    ("What percentage of papers on RL were published after 2015 and use deep networks?",
     ("RL", "use deep networks")),
    ("What share of papers on graph neural networks applied to chemistry use attention?",
     ("graph neural networks applied to chemistry", "use attention")),
    ("What share of papers on transformers are for vision?", ("transformers", "for vision")),  # C45
    ("What percentage of papers on GANs were published before 2018?", None)])
def test_a_share_of_a_topics_papers_is_split_into_the_topic_and_its_facet(
        question: str, split: tuple[str, str] | None) -> None:
    assert topic_and_facet(read_intent(question)) == split
