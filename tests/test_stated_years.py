"""Years a question states in words other than one range's (stated.py): either of
several years, a range closed by a second phrase, and the last so many years of the
store's, which had filtered to the first year alone or been searched as topic words."""

from __future__ import annotations

import pytest

from assistant.authors import AuthorBook
from assistant.errors import BadInputError
from assistant.filters import merge, of_recent, years_in_words
from assistant.intent import read_intent
from assistant.paper import Paper
from assistant.stated import stated
from assistant.topics import topic_of
from assistant.types import OPEN_END, OPEN_START, Filters


@pytest.mark.parametrize(("question", "years", "rest"), [
    # "in 2020 or 2021" had filtered to 2020 alone
    ("Which papers on few-shot learning were published in 2020 or 2021?", (2020, 2021),
     "Which papers on few-shot learning were published?"),
    ("Which papers in 2017, 2018 or 2019 use GANs?", (2017, 2019), "Which papers use GANs?"),
    # "after 2016 and before 2019" had read "years 2017 on"
    ("Which papers use LSTM networks after 2016 and before 2019?", (2017, 2018),
     "Which papers use LSTM networks?"),
    ("Which papers use LSTMs before 2019 and after 2016?", (2017, 2018), "Which papers use LSTMs?"),
    ("Which papers since 2015 and until 2018 study GANs?", (2015, 2018), "Which papers study GANs?"),
])
def test_years_stated_in_two_phrases_or_as_either_are_one_range(
        question: str, years: tuple[int, int], rest: str) -> None:
    found, left = stated(question)
    assert found == Filters(years=years) and left == rest
    intent = read_intent(question)
    assert (intent.filters, intent.search) == (found, left)


def test_years_asked_with_a_gap_are_those_years_alone() -> None:
    """"in 2019 or 2021" is 2019 and 2021, not 2020: it had filtered to 2019 alone, then to
    the range 2019–2021 with a line saying 2020 was in it too."""
    found, left = stated("Which papers in 2019 or 2021 study pruning?")
    assert found is not None and found.years == (2019, 2021)
    assert found.named_years == {2019, 2021}
    assert left == "Which papers study pruning?"
    assert found.describe() == "years 2019 and 2021"
    assert [found.allows(Paper("p", "s", "t", "a", year=y)) for y in (2019, 2020, 2021, None)] == [
        True, False, True, False]
    three, _ = stated("Which papers in 2015, 2017 or 2021 use GANs?")
    assert three is not None and three.describe() == "years 2015, 2017 and 2021"


@pytest.mark.parametrize(("question", "described", "left"), [
    ("How many reinforcement learning papers in 1995-2000 vs 2015-2020?", "years 1995–2000 and 2015–2020",
     "How many reinforcement learning papers?"),
    ("What share of papers mention deep learning in the 2000s vs 2020s?", "years 2000–2009 and 2020 on",
     "What share of papers mention deep learning?"),
    ("How has the share of papers on neural networks changed from the 1990s to the 2010s?",
     "years 1990–2019", "How has the share of papers on neural networks changed?"),
    ("papers on GANs in 2015-2017 and 2019", "years 2015–2017 and 2019", "papers on GANs"),
    # a review (C44): a second span in words had been half read ("and 2015", "to 2020" left)
    ("papers on neural networks from 1995 to 2000 vs 2015 to 2020", "years 1995–2000 and 2015–2020",
     "papers on neural networks"),
    ("papers on kernels between 2010 and 2013 vs 2016 and 2020", "years 2010–2013 and 2016–2020",
     "papers on kernels")])
def test_a_second_span_after_the_first_is_read_too(question: str, described: str, left: str) -> None:
    """A researcher's run: the second of two spans ("… vs 2015-2020", "… to the 2010s") had
    been dropped, its words left to the topic."""
    found, rest = stated(question)
    assert found is not None and (found.describe(), rest) == (described, left)


@pytest.mark.parametrize("question", [
    "Which papers use SVMs before the year 2000 or after 2015?",
    "How many papers on SVMs after 2015 or before 2000?",
    "Which papers on SVMs were published before 2000 and after 2015?",
])
def test_two_ranges_that_do_not_meet_are_either_range(question: str) -> None:
    """"before 2000 or after 2015" is the years of either, named one by one: it had been
    "years 2016 on" alone, with "or" left as the topic's word."""
    found, left = stated(question)
    assert found is not None and found.named_years is not None
    assert found.describe() == "years up to 1999 and 2016 on"
    assert [found.allows(Paper("p", "s", "t", "a", year=y)) for y in (1987, 1999, 2000, 2015,
                                                                        2016, 2021)] == [
        True, True, False, False, True, True]
    assert topic_of(read_intent(question).search).rstrip("?").split()[-1] == "SVMs"


@pytest.mark.parametrize(("question", "rest"), [
    ("GAN papers 2019", "GAN papers"),
    ("GAN papers (2019)", "GAN papers"),
    ("Which papers use GANs, 2019?", "Which papers use GANs?"),
    ("How many papers on GANs, 2019?", "How many papers on GANs?"),
])
def test_a_year_after_the_papers_noun_or_a_comma_is_their_year(question: str, rest: str) -> None:
    """"GAN papers 2019" had searched "2019" as a word and listed GAN papers of every year."""
    found, left = stated(question)
    assert found == Filters(years=(2019, 2019)) and left == rest


@pytest.mark.parametrize("question", [
    "Which papers evaluate on Pascal VOC 2007?",  # a name's year
    "Which papers use the CoNLL 2003 dataset?",
    "Which papers train on 2019 samples?",  # a count
    "Which papers build on Vaswani et al., 2017?",  # a citation (a hostile review)
    "Which papers cite CoNLL, 2003?",
    "How do we fuse readings from 2030 sensors?",  # "from" a year no paper is of, not last
])
def test_a_names_year_stays_in_the_question(question: str) -> None:
    assert stated(question) == (None, question)


@pytest.mark.parametrize("said", ["in 2014, 2016, 2018 and 2019", "in 2014 or 2016 or 2018 or 2019",
                                  "in 2014 and 2016 and 2018 and 2019",
                                  "in 2012, 2014, 2016, 2017, 2018 and 2019"])
def test_each_of_several_years_named_is_read(said: str) -> None:
    """A review (C53): the third of "2014, 2016 and 2019" asked again had been dropped, and
    the second of four ("2014, 2016, 2018 and 2019"): a group keeps only its last match."""
    found, rest = stated(f"How many papers on GANs {said}?")
    assert found is not None and found.named_years is not None
    assert found.named_years - {2012, 2017} == {2014, 2016, 2018, 2019}
    assert rest == "How many papers on GANs?"
    assert years_in_words(Filters(years=(2014, 2019), named_years=frozenset({2014, 2016, 2019}))) == (
        "in 2014, 2016 and 2019")


def test_years_set_against_another_stay_apart() -> None:
    """A review (C55): "in 2019 and 2020 than in 2015" had become three years pooled, and a
    difference line of 2019 against 2015 alone; three or more, joined by "or" and "and" in
    any mix, are read whole, no year left to the topic (C56: "GANs or 2021 versus 2015")."""
    found, rest = stated("How many more papers on GANs in 2019 and 2020 than in 2015?")
    assert found is not None and found.years == (2019, 2020) and "than in 2015" in rest
    for said in ("in 2014 and 2016 or 2019", "in 2014 or 2016 or 2019 versus 2015"):
        found, rest = stated(f"How many papers on GANs {said}?")
        assert found is not None and found.named_years is not None and rest == "How many papers on GANs?"
        assert {2014, 2016, 2019} <= found.named_years, said


def test_years_named_with_a_gap_meet_a_given_range() -> None:
    """``--year 2020-2022`` with "in 2019 or 2021" is 2021 alone; with "in 2019 or 2020"
    of a question about 2021 only, no year is left: one line naming both."""
    said, _ = stated("Which papers in 2019 or 2021 study pruning?")
    merged = merge(Filters(years=(2020, 2022)), said)
    assert merged is not None and merged.named_years == {2021}
    assert merged.describe() == "year 2021"
    with pytest.raises(BadInputError, match="leave no year in common"):
        merge(Filters(years=(2020, 2020)), said)


@pytest.mark.parametrize(("question", "count", "rest"), [
    ("Which papers in the last three years use knowledge graphs?", 3,
     "Which papers use knowledge graphs?"),
    ("Which papers from the past five years use knowledge graphs?", 5,
     "Which papers use knowledge graphs?"),
    ("Which papers over the last decade study pruning?", 10, "Which papers study pruning?"),
    ("List papers on GANs from the past 2 years", 2, "List papers on GANs"),
    ("Which papers of the last two decades use SVMs?", 20, "Which papers use SVMs?"),
    ("How has federated learning grown in the recent four years?", 4,
     "How has federated learning grown?"),
    # a run: "of the corpus" had stayed in the topic, and the count fell from 103 to 42
    ("How many papers on graph neural networks in the last five years of the corpus?", 5,
     "How many papers on graph neural networks?"),
])
def test_the_last_so_many_years_are_a_range_not_topic_words(question: str, count: int,
                                                            rest: str) -> None:
    """"in the last three years" had been searched as the topic's words (a false "No
    paper…"): it is the last three years of the store's (``filters.of_recent``)."""
    found, left = stated(question)
    assert found == Filters(recent=count) and left == rest
    assert of_recent(found, 2021) == Filters(years=(2022 - count, 2021))
    assert of_recent(found, 2021).describe() == (
        f"years {2022 - count}–2021 — the last {count} years, as the newest stored papers "
        "are of 2021")


@pytest.mark.parametrize(("question", "years", "rest"), [
    # "the year 2000" had been searched as words ("0 papers … match 'before the year 2000'")
    ("Which papers on boosting were published before the year 2000?", (OPEN_START, 1999),
     "Which papers on boosting were published?"),
    ("Which papers on boosting appeared in the year 1998?", (1998, 1998),
     "Which papers on boosting appeared?"),
    ("Which papers since the year 2019 use GNNs?", (2019, OPEN_END), "Which papers use GNNs?"),
    ("Papers on GANs between the years 2016 and 2018", (2016, 2018), "Papers on GANs"),
    # a decade of two digits, or in words, had listed a 2010 paper for "the 90s"
    ("Which papers on SVMs were published in the 90s?", (1990, 1999),
     "Which papers on SVMs were published?"),
    ("Which papers on SVMs were published in the '90s?", (1990, 1999),
     "Which papers on SVMs were published?"),
    ("Which papers on SVMs were published in the nineties?", (1990, 1999),
     "Which papers on SVMs were published?"),
    ("Which papers from the eighties study Hopfield networks?", (1980, 1989),
     "Which papers study Hopfield networks?"),
    ("Which papers on GANs appeared in the 10s?", (2010, 2019), "Which papers on GANs appeared?"),
    ("Which papers since the '00s use kernels?", (2000, OPEN_END), "Which papers use kernels?"),
    # "pre-2000", "post-2018": before, after
    ("pre-2000 papers on boosting", (OPEN_START, 1999), "papers on boosting"),
    ("post-2018 papers on federated learning", (2019, OPEN_END), "papers on federated learning"),
])
def test_the_year_two_digit_decades_and_pre_post_are_ranges(
        question: str, years: tuple[int, int], rest: str) -> None:
    found, left = stated(question)
    assert found == Filters(years=years) and left == rest


def test_the_year_frees_the_author_it_hid() -> None:
    """"How many papers did Hinton publish before the year 2000?" had counted 0 papers
    matching "before the year 2000": Hinton's papers before 2000 are asked."""
    found, left = stated("How many papers did Hinton publish before the year 2000?")
    assert found == Filters(years=(OPEN_START, 1999), author="Hinton") and left == "How many papers?"


@pytest.mark.parametrize("question", [
    "Which models converge in 90 seconds?", "Which methods finish in 90s?",
    "Which papers on the year 2000 problem?", "Which papers study pre-training?",
    "Which papers reach accuracy in the 90s percent range?"])
def test_counts_and_words_stay_no_years(question: str) -> None:
    found, left = stated(question)
    assert found is None and left == question


def test_papers_that_appeared_in_a_year_are_searched_for_the_topic_alone() -> None:
    """"Which papers on boosting appeared in the year 1998?" had listed papers of 2000
    and 2019, then, its year read, none that writes "appeared": it says when, not what."""
    intent = read_intent("Which papers on boosting appeared in the year 1998?")
    assert intent.filters == Filters(years=(1998, 1998))
    assert topic_of(intent.search, or_question=False) == "boosting?"


@pytest.mark.parametrize(("question", "said"), [
    # a false zero: "the late 90s" had been searched as words (grep: 13 on boosting)
    ("How many papers on boosting in the late 90s?", "years 1995–1999"),
    ("Which papers in the early 2000s use boosting?", "years 2000–2004"),
    ("Which papers in the mid-2010s use GANs?", "years 2013–2017"),
    # "GANs vs 2019" had been counted as a topic of its own
    ("How many papers on GANs in 2018 vs 2019?", "years 2018–2019"),
    ("How many papers on GANs in 2018 compared to 2020?", "years 2018 and 2020"),
])
def test_a_decades_part_and_years_compared_are_years(question: str, said: str) -> None:
    found, rest = stated(question)
    assert found is not None and found.describe() == said
    assert not any(word in rest for word in ("late", "early", "mid", "vs", "compared"))


def test_a_two_digit_number_of_a_unit_is_no_decade() -> None:
    """"in the 10s of milliseconds" had filtered to 2010–2019."""
    found, rest = stated("What latency do spiking networks reach in the 10s of milliseconds?")
    assert found is None and "10s of milliseconds" in rest



@pytest.mark.parametrize(("question", "described", "rest"), [
    # "not written in 2019" had been read as 2019 alone: the papers asked to be left out
    ("Which capsule network papers were not written in 2019?", "years up to 2018 and 2020 on",
     "Which capsule network papers were?"),
    ("papers on capsule networks, excluding 2019", "years up to 2018 and 2020 on",
     "papers on capsule networks"),
    ("GAN papers except 2018-2019", "years up to 2017 and 2020 on", "GAN papers"),
    # "through 2020" alone had been read ("years up to 2020"), "prior to" not at all
    ("capsule network papers published 2018 through 2020", "years 2018–2020",
     "capsule network papers published"),
    ("capsule papers prior to 2019", "years up to 2018", "capsule papers"),
    ("GAN papers later than 2019", "years 2020 on", "GAN papers"),
    # a year right after a venue is its year: "2025 use large language" had read as a count
    ("Which papers in NeurIPS 2025 use large language models?", "year 2025, venue NeurIPS",
     "Which papers use large language models?"),
    # ...and more years after it are the venue's too (a run: "and 2021" had been a topic's word)
    ("papers on meta learning in NeurIPS 2020 and 2021", "years 2020–2021, venue NeurIPS",
     "papers on meta learning"),
    ("Which papers in NeurIPS 2019-2021 use GANs?", "years 2019–2021, venue NeurIPS",
     "Which papers use GANs?"),
])
def test_years_left_out_or_bounded_in_words_are_read(question: str, described: str,
                                                     rest: str) -> None:
    """A hostile CLI run's phrasings, each misread or ignored."""
    found, left = stated(question, ["NeurIPS"])
    assert found is not None and (found.describe(), left) == (described, rest)


def test_not_in_a_count_is_no_year() -> None:
    assert stated("Is it not in 2048 dimensions?") == (None, "Is it not in 2048 dimensions?")


@pytest.mark.parametrize(("question", "described"), [
    # a review and a second run: "no later than", "not after" had read the opposite range
    ("Which papers on capsule networks appeared no later than 2018?", "years up to 2018"),
    ("capsule papers not after 2018", "years up to 2018"),
    ("papers no earlier than 2020", "years 2020 on"),
    ("capsule papers not before 2019", "years 2019 on"),
    # several years left out, each; and the range another phrase states kept
    ("Which papers on capsule networks are not from 2019 or 2020?", "years up to 2018 and 2021 on"),
    ("Which papers on GANs since 2015 excluding 2019?", "years 2015–2018 and 2020 on"),
    # a run's phrasings: "exclude" as a verb, a range ending in two digits (searched as words)
    ("list GAN papers but exclude 2021", "years up to 2020 and 2022 on"),
    ("GAN papers 2017-19", "years 2017–2019"),
    ("Which papers on GANs from 1998–99?", "years 1998–1999"),
    ("papers on dropout not counting 2021", "years up to 2020 and 2022 on"),
])
def test_years_bounded_by_a_negation_or_left_out_among_others(question: str,
                                                              described: str) -> None:
    found, _ = stated(question)
    assert found is not None and found.describe() == described


@pytest.mark.parametrize("question", ["Which papers use 1990 to 2000 census data?",
                                      "Which papers report accuracy other than 2019 benchmarks?"])
def test_years_of_data_or_benchmarks_are_no_filter(question: str) -> None:
    assert stated(question) == (None, question)


def test_a_year_cut_leaves_no_dangling_and_before_an_author() -> None:
    """A second run: "Which of them are by Hinton and from 2019?" dropped the author (the
    year's cut left "by Hinton and ?", no name's end); "from 2019 and by Hinton" kept it."""
    book = AuthorBook(["Geoffrey Hinton, Sara Sabour"])
    found, rest = stated("Which papers are by Hinton and from 2019?", authors=book)
    assert found == Filters(years=(2019, 2019), author="Hinton") and rest == "Which papers?"


@pytest.mark.parametrize("question", ["How many papers on dropout between 2014 and 2016 inclusive?",
                                      "How many papers on dropout from 2014 to 2016 (inclusive)?"])
def test_inclusive_after_a_range_is_the_ranges_word(question: str) -> None:
    """A run: "dropout inclusive" had been the topic, 1 paper counted of 12."""
    found, rest = stated(question)
    assert found is not None and found.describe() == "years 2014–2016"
    assert "inclusive" not in rest


@pytest.mark.parametrize(("question", "said"), [
    ("papers at nips '96 on boosting", "year 1996, venue NeurIPS"),
    ("papers at NeurIPS’19 on GANs", "year 2019, venue NeurIPS"),
])
def test_a_venues_year_of_two_digits_is_its_year(question: str, said: str) -> None:
    """A run: "papers at nips '96 on boosting" was a false "no" ("nips" searched)."""
    found, rest = stated(question, ["NeurIPS"])
    assert found is not None and found.describe() == said
    assert rest.split() == ["papers", "on", question.split()[-1]]


@pytest.mark.parametrize(("question", "said", "left"), [
    ("how many papers on GANs in '19?", "year 2019", "how many papers on GANs?"),
    ("how many GAN papers from '17 to '19", "years 2017–2019", "how many GAN papers"),
    ("GAN papers '98–'02", "years 1998–2002", "GAN papers"),
    ("GANs in '17, '18 and '19", "years 2017–2019", "GANs"),  # a review
    ("Which papers use Q'19 data?", None, "Which papers use Q'19 data?"),
])
def test_a_year_of_two_digits_after_a_word_giving_a_year_is_its_year(
        question: str, said: str | None, left: str) -> None:
    """A run: "how many papers on GANs in '19?" counted 0 ("'19" searched as a word), where
    2019 holds 56; "from '17 to '19" counted 1."""
    found, rest = stated(question)
    assert (found.describe() if found else None) == said
    assert rest == left
