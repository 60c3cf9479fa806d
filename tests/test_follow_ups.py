"""A chat follow-up that narrows a list or count ("Which papers use capsule networks?", then
"How many of them are from 2019?") is that list or count under its filters (follow_ups.py):
it had been answered with a comparison of two abstracts, where the list held four of 2019
(a hostile user's run of the chat)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import make_settings, seeds_with

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.follow_up_phrases import order_asked, swapped_topic
from assistant.list_lines import narrowing_line
from assistant.narrowing import Readers, narrowed
from assistant.pipeline import Assistant, asked_intent
from assistant.places import pointed_at
from assistant.types import OPEN_START

CAPSULES = [(2018, "Capsules for Object Parts", "Capsule networks route object parts to wholes "
             "by agreement between capsules."),
            (2019, "Stacked Capsule Autoencoders", "We learn capsule networks without labels "
             "by stacking capsule autoencoders."),
            (2019, "Self-Routing Capsules", "Capsule networks route each capsule by its own "
             "gating network instead of agreement."),
            (2020, "Capsules in Videos", "We apply capsule networks to action detection in "
             "videos with capsule pooling.")]
OTHERS = [(2019, "Sparse Attention", "Sparse attention cuts the memory of transformers."),
          (2019, "Bandit Pricing", "A bandit algorithm sets prices under demand shifts.")]


@pytest.fixture(scope="module")
def years_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(t, a, y) for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "follow", rows,
                                              ("title", "abstract", "year"))))


LIST = "Which papers use capsule networks?"


def chat(app: Assistant, *questions: str) -> list[tuple[str, str]]:
    """A chat's history after ``questions``, each answered with the turns before it."""
    history: list[tuple[str, str]] = []
    for question in questions:
        history.append((question, final_answer(app.answer_stream(question, history)).answer))
    return history


def readers_of(app: Assistant) -> Readers:
    return Readers(lambda q: asked_intent(q, app.index), app.lists.names_a_topic,
                   app.index.author_book().holds)


def test_how_many_of_them_counts_the_list_under_the_follow_ups_years(
        years_store: Assistant) -> None:
    history = [(LIST, final_answer(years_store.answer_stream(LIST)).answer)]
    answer = final_answer(years_store.answer_stream("How many of them are from 2019?", history))
    assert answer.answer.startswith("2 papers of the")  # the list's count, under 2019
    assert "Of the 4 papers the earlier list gave, 2 pass this filter (year 2019)." in answer.answer
    listed = final_answer(years_store.answer_stream("Which of them are from 2019?", history))
    assert {c.title for c in listed.citations} == {"Stacked Capsule Autoencoders",
                                                     "Self-Routing Capsules"}
    # a researcher's run: "and how many …" had searched "and how many are" as a topic
    anded = final_answer(years_store.answer_stream("and how many of them are from 2019?", history))
    assert anded.answer.startswith("2 papers of the")


def test_a_follow_up_narrowing_a_follow_up_keeps_the_list(years_store: Assistant) -> None:
    """"And since 2019?" then "How many of them are from 2020?": both narrow the list."""
    read = readers_of(years_store)
    history = [(LIST, ""), ("And since 2019?", "")]
    found = narrowed("How many of them are from 2020?", history, read)
    assert found is not None and found.question == LIST and not found.counted
    assert found.filters.years == (2020, 2020)
    # the follow-up's years replace the earlier ones (a hostile review: "And before 2010?"
    # after "since 2019" had raised "leave no year in common"; the user gave no filter)
    again = narrowed("And before 2010?", history, read)
    assert again is not None and again.filters.years == (OPEN_START, 2009)
    dated = narrowed("And from 2019?", [("Which papers from 2018 use capsule networks?", "")], read)
    assert dated is not None and dated.question == "Which papers use capsule networks?"
    assert dated.filters.years == (2019, 2019)
    assert narrowed("What datasets do they use?", history, read) is None  # no filter of its own
    # after an answer (no list): its question's papers under the filter (a run: "how many of
    # them are from 2021?" after an answer had quoted sentences and given no number)
    after = narrowed("How many of them are from 2019?", [("What is a capsule?", "")], read)
    assert after is not None and after.answered and after.question == "What is a capsule?"
    # ...not a question that leaned on the one before it (a review: "What are its
    # limitations?" then "only the ones from 2019" had listed papers on limitations)
    leaned = [("What is a capsule?", ""), ("What are its limitations?", "")]
    assert narrowed("only the ones from 2019", leaned, read) is None


def test_a_follow_up_to_a_count_is_counted(years_store: Assistant) -> None:
    read = readers_of(years_store)
    found = narrowed("And since 2019?", [("How many papers use capsule networks?", "")], read)
    assert found is not None and found.counted and found.filters.years[0] == 2019


@pytest.mark.parametrize("question", ["How many of them are from 2019?", "And since 2019?",
                                      "Which of these are from 2020?"])
def test_a_narrowing_follow_up_with_nothing_before_it_is_one_line(
        years_store: Assistant, question: str) -> None:
    """The CLI's ``ask`` and a chat's first turn have no list to narrow: "How many of them
    are from 2019?" had quoted papers near "them", "And since 2019?" refused."""
    with pytest.raises(BadInputError, match="narrows an earlier list or count.*none before it"):
        final_answer(years_store.answer_stream(question))


COUNT = "How many papers on capsule networks are there?"


@pytest.mark.parametrize("asked", ["list them", "show me those papers", "which ones?",
                                   "What are they?",
                                   "which of them?"])  # a seventh review
def test_a_follow_up_asking_for_the_papers_lists_the_count_before(years_store: Assistant,
                                                                 asked: str) -> None:
    """A run: after a count of 12, "list them" gave five papers with nothing said of the
    other seven, "which ones?" a paper on profile alignment."""
    counted = final_answer(years_store.answer_stream(COUNT))
    history = [(COUNT, counted.answer)]
    listed = final_answer(years_store.answer_stream(asked, history))
    assert {c.title for c in listed.citations} == {c.title for c in counted.citations}
    assert {c.title for c in listed.citations} >= {title for _, title, _ in CAPSULES}
    with pytest.raises(BadInputError, match="asks for the papers of an earlier list"):
        final_answer(years_store.answer_stream(asked))


def test_more_recent_ones_lists_the_list_before_newest_first(years_store: Assistant) -> None:
    """A run: "and more recent ones?" after a capsule list running to 2021 gave a
    comparison of two papers of 2018 and 2019."""
    listed = final_answer(years_store.answer_stream(LIST))
    newer = final_answer(years_store.answer_stream("and more recent ones?", [(LIST, listed.answer)]))
    assert {c.title for c in newer.citations} == {c.title for c in listed.citations}
    assert newer.citations[0].title == "Capsules in Videos"  # the 2020 paper
    assert ", newest first;" in newer.answer.splitlines()[0]
    with pytest.raises(BadInputError, match="asks for the papers of an earlier list"):
        final_answer(years_store.answer_stream("and more recent ones?"))
    older = final_answer(years_store.answer_stream("the oldest ones?", [(LIST, listed.answer)]))
    assert older.citations[0].title == "Capsules for Object Parts"  # the 2018 paper
    assert ", oldest first;" in older.answer.splitlines()[0]


def test_list_them_after_an_authors_count_lists_the_authors_papers(authors_store: Assistant
                                                                   ) -> None:
    """A review: after "How many papers has Sara Sabour published per year?", "list them"
    searched the count's question as a topic and said no paper answers "per year?"."""
    count = "How many papers has Sara Sabour published per year?"
    counted = final_answer(authors_store.answer_stream(count))
    listed = final_answer(authors_store.answer_stream("list them", [(count, counted.answer)]))
    assert len(listed.citations) == 5 and "answers" not in listed.answer.splitlines()[0]


def test_a_list_given_again_is_narrowed_as_the_count_read_it(years_store: Assistant) -> None:
    history = chat(years_store, COUNT, "list them")
    dated = final_answer(years_store.answer_stream("only the ones from 2019", history))
    assert {c.title for c in dated.citations} == {"Stacked Capsule Autoencoders",
                                                    "Self-Routing Capsules"}


def test_a_question_with_its_own_topic_is_not_a_narrowing(years_store: Assistant) -> None:
    answer = final_answer(years_store.answer_stream("Is it true that capsule networks route "
                                                    "by agreement since 2019?"))
    assert answer.citations


def test_the_narrowing_line_counts_the_earlier_list_and_what_is_new() -> None:
    """A narrowed list reads the filter's papers deeper than the first list read the whole
    store: among 13.9k, "How many of them are from 2019?" after 41 spiking-network papers
    (2 of 2019) listed 5, and said nothing of the 3 the first had not listed."""
    line = narrowing_line("abc", "bde", frozenset("bcde"), "year 2019")
    assert line == ("Of the 3 papers the earlier list gave, 2 pass this filter (year 2019), "
                    "1 of them not kept on this reading; 2 more are listed from reading the "
                    "filter's papers alone.\n")
    assert narrowing_line("a", "a", None, "author X") == (
        "Of the 1 paper the earlier list gave, 1 passes this filter (author X).\n")
    assert "more are counted" in narrowing_line("a", "abc", None, "year 2019", "count")


def test_a_narrowed_count_says_how_it_stands_to_the_count_before(years_store: Assistant) -> None:
    """A trend of graph neural networks had counted 88 papers for 2021, and "How many of
    them are from 2021?" 101, with nothing said of the difference."""
    count = "How many papers use capsule networks?"
    history = [(count, final_answer(years_store.answer_stream(count)).answer)]
    answer = final_answer(years_store.answer_stream("How many of them are from 2019?", history))
    assert "Of the 4 papers the earlier count gave, 2 pass this filter (year 2019)." in answer.answer


@pytest.mark.parametrize(("question", "years", "author"), [
    ("what about 2019?", (2019, 2019), None),
    ("And 2020?", (2020, 2020), None),
    ("only 2018 and 2020", (2018, 2020), None),
    ("only the ones by Hinton", None, "Hinton"),
    ("the ones from Hinton", None, "Hinton"),
    ("What about Hinton?", None, "Hinton"),
])
def test_a_fragment_follow_up_narrows_by_its_years_or_author(
        years_store: Assistant, question: str, years: tuple[int, int] | None,
        author: str | None) -> None:
    """A hostile chat: "what about 2018?" after a list had listed papers of other years,
    and "only the ones by Hinton" a paper quoted for "ones"; a fragment whose words are
    only years, a stored name and words pointing back narrows the list instead."""
    readers = readers_of(years_store)
    readers = Readers(readers.intent, readers.names_a_topic, lambda name: name == "Hinton")
    found = narrowed(question, [(LIST, "")], readers)
    assert found is not None and found.question == LIST
    assert (found.filters.years, found.filters.author) == (years, author)


@pytest.mark.parametrize("question", ["Hinton", "what about transformers?", "only the ones by Smith",
                                      "2019", ' "Hinton"', " Hinton"])
def test_a_follow_up_with_words_of_its_own_is_no_fragment(years_store: Assistant,
                                                          question: str) -> None:
    """A bare name or year stands alone (a lookup), and a word that is no stored name is a
    topic of its own."""
    readers = readers_of(years_store)
    readers = Readers(readers.intent, readers.names_a_topic, lambda name: name == "Hinton")
    assert narrowed(question, [(LIST, "")], readers) is None


@pytest.fixture(scope="module")
def authors_store(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    rows = [(t, a, y, "Ann Lee" if y == 2020 else "Sara Sabour, Geoffrey Hinton")
            for y, t, a in CAPSULES + OTHERS]
    return Assistant(make_settings(seeds_with(seed_dir, tmp_path_factory, "authors", rows,
                                              ("title", "abstract", "year", "authors"))))


def test_a_fragment_after_an_authors_fragment_narrows_the_list_again(
        authors_store: Assistant) -> None:
    """A run: "what about 2021?" after "only the ones by Virginia Smith" read the list of
    "only the ones" (a stored author's fragment reads as a list of its words) and said no
    paper answers; both fragments narrow the list, and "which of those" works within it."""
    history = chat(authors_store, LIST, "only the ones by Sara Sabour")
    dated = final_answer(authors_store.answer_stream("what about 2019?", history))
    assert {c.title for c in dated.citations} == {"Stacked Capsule Autoencoders",
                                                    "Self-Routing Capsules"}
    assert "Of the 3 papers the earlier list gave, 2 pass" in dated.answer
    kept = final_answer(authors_store.answer_stream("which of those use autoencoders?", history))
    assert [c.title for c in kept.citations] == ["Stacked Capsule Autoencoders"]
    # a list of an author's papers has no topic: it had read "answers “” and “use …”"
    history = [("What has Sara Sabour published?", "")]
    none = final_answer(authors_store.answer_stream("which of those use convolutions?", history))
    assert "“”" not in none.answer and "writes “convolutions”" in none.answer


def test_a_narrowing_replacing_the_years_stands_beside_the_whole_list(years_store: Assistant
                                                                     ) -> None:
    """A run: "and 2020?" after "what about 2019?" said "Of the 2 papers the earlier list
    gave, 0 pass": it stood beside the 2019 papers, not the list whose years it replaced."""
    history = chat(years_store, LIST, "what about 2019?")
    dated = final_answer(years_store.answer_stream("and 2020?", history))
    assert [c.title for c in dated.citations] == ["Capsules in Videos"]
    assert "Of the 4 papers the earlier list gave, 1 passes this filter (year 2020)" in dated.answer


def test_a_fragment_narrows_the_list_it_follows(years_store: Assistant) -> None:
    history = [(LIST, final_answer(years_store.answer_stream(LIST)).answer)]
    answer = final_answer(years_store.answer_stream("what about 2019?", history))
    assert {c.title for c in answer.citations} == {"Stacked Capsule Autoencoders",
                                                     "Self-Routing Capsules"}


@pytest.mark.parametrize(("question", "places"), [
    ("summarize the second one", [2]), ("who wrote [3]?", [3]), ("compare the first two", [1, 2]),
    ("what does the last paper propose?", [-1]),
    # a run: a number's ordinal, a place past the tenth, "paper 7" (another paper, or a "no")
    ("summarize the 4th one", [4]), ("summarize the twelfth one", [12]), ("summarize paper 3", [3]),
    ("What did the 21st century bring?", None),
    ("What is the number 1 method for denoising?", None),  # a review
    ("Does the first layer matter?", None),  # a place, not a paper
    # of the field, not of a list (a review: these had been refused with no history)
    ("What was the first paper on transformers?", None), ("What's the last paper by Hinton?", None),
    ("Who proposed the first one-shot learning method?", None),
    ("Which method ranks #1 on ImageNet?", None), ("Who wrote paper 2 of NIPS 1987?", None),
    ("Introduction of attention in sequence models: what was the first paper?", None),
    # a review: a paper of the field by its number ("Which papers cite paper 4 by Hinton?")
    ("what about paper 7 on GANs?", None), ("Which papers cite paper 4 by Hinton?", None),
    # a run: two places, or a place from the end ("compare [1] and [3]" had compared [1] alone)
    ("compare [1] and [3]", [1, 3]), ("compare the first and third ones", [1, 3]),
    ("how do the 3rd and the 5th papers differ?", [3, 5]), ("summarize papers 2, 4 and 5", [2, 4, 5]),
    ("summarize the last two", [-2, -1]), ("who wrote the second-to-last one?", [-2]),
    ("what does the penultimate paper propose?", [-2]), ("the third to last one?", [-3]),
    ("compare the first one with the last one", [1, -1]),
    ("What is the first and second order method?", None),  # of the field
])
def test_a_follow_up_points_at_papers_by_number_or_place(question: str,
                                                         places: list[int] | None) -> None:
    found = [n for _, numbers in pointed_at(question) for n in numbers]
    assert (found or None) == places


def test_a_follow_up_pointing_at_a_listed_paper_is_asked_of_it(years_store: Assistant) -> None:
    """A hostile chat: after a list, "summarize the second one" was answered with two other
    papers, and "who wrote the third one?" refused; the place now names the paper."""
    listed = final_answer(years_store.answer_stream(LIST))
    history = [(LIST, listed.answer)]
    for question, n in (("summarize the second one", 1), ("who wrote [3]?", 2),
                        ("what does the last paper do?", -1)):
        answer = final_answer(years_store.answer_stream(question, history))
        assert answer.citations[0].title == listed.sources[n].title, question
    # a run: two places, or one from the end ("compare [1] and [3]" had compared [1] alone)
    second_to_last = final_answer(years_store.answer_stream("who wrote the second-to-last one?",
                                                            history))
    assert second_to_last.citations[0].title == listed.sources[-2].title
    both = final_answer(years_store.answer_stream("compare [1] and [3]", history))
    assert {c.title for c in both.sources} == {listed.sources[0].title, listed.sources[2].title}
    with pytest.raises(BadInputError, match="points at a paper of an earlier answer"):
        final_answer(years_store.answer_stream("summarize the second one"))


def test_a_place_is_answered_of_its_paper_alone_and_read_in_the_list(
        years_store: Assistant) -> None:
    """A run: "summarize the second one" quoted the paper and papers sharing its title's
    words, and the next "the first one" then pointed into the summary's sources."""
    listed = final_answer(years_store.answer_stream(LIST))
    history = [(LIST, listed.answer)]
    summary = final_answer(years_store.answer_stream("summarize the 2nd one", history))
    assert [c.title for c in summary.citations] == [listed.sources[1].title]
    assert [s.title for s in summary.sources] == [listed.sources[1].title]
    history.append(("summarize the 2nd one", summary.answer))
    first = final_answer(years_store.answer_stream("who wrote the first one?", history))
    assert [c.title for c in first.citations] == [listed.sources[0].title]


def test_which_of_those_keeps_the_listed_papers_answering_its_topic(
        years_store: Assistant) -> None:
    """A hostile chat: "which of those use dynamic routing?" after a capsule list searched
    anew and answered with a paper on packet routing; it now keeps the listed papers."""
    history = [(LIST, final_answer(years_store.answer_stream(LIST)).answer)]
    answer = final_answer(years_store.answer_stream("which of those use autoencoders?", history))
    assert [c.title for c in answer.citations] == ["Stacked Capsule Autoencoders"]
    assert "Of the 4 papers the earlier list gave, this 1 (25.0%) writes “autoencoders”" in answer.answer
    assert answer.answer.startswith("1 paper of the 4 matches")  # of the list's, not the store's
    also = final_answer(years_store.answer_stream("which of them also use autoencoders?", history))
    assert "writes “autoencoders”" in also.answer  # a review (C44): “also use FFHQ”
    being = final_answer(years_store.answer_stream("which of those are about autoencoders?", history))
    assert "writes “autoencoders”" in being.answer  # C43: “are about autoencoders”
    # a follow-up after it works on the papers it kept (a review: it had searched anew)
    history.append(("which of those use autoencoders?", answer.answer))
    dated = final_answer(years_store.answer_stream("How many of them are from 2019?", history))
    assert [c.title for c in dated.citations] == ["Stacked Capsule Autoencoders"]
    # counted against the list the chat showed (a run: "Of the 11 papers" where it had shown 3)
    assert "Of the 1 paper the earlier list gave, 1 passes this filter (year 2019)" in dated.answer
    none = final_answer(years_store.answer_stream("Which ones use sparse attention?", history))
    assert not none.citations and "none writes “sparse attention”" in none.answer


@pytest.mark.parametrize("question", ["Only 2019 papers", "Only papers from 2019 on capsules"])
def test_a_fragment_with_nothing_before_it_stands_alone(years_store: Assistant,
                                                         question: str) -> None:
    """A review: "Only papers by Hinton" and "Papers from 2019?" had been refused as
    narrowing an earlier list; with nothing before them they are questions of their own.
    A run: "Only 2019 papers" had then been refused ("The corpus has no abstract about this
    question"): it lists the year's papers, as "List papers from 2019" does."""
    answer = final_answer(years_store.answer_stream(question))
    if "capsules" not in question:
        of_2019 = [p for p in years_store.index.papers().values() if p.year == 2019]
        assert {s.paper_id for s in answer.sources} == {p.paper_id for p in of_2019}
        assert answer.answer.startswith(f"{len(of_2019)} papers of the {len(of_2019)} (year 2019)")


def test_a_follow_up_after_one_asked_of_a_listed_paper_still_works_on_the_list(
        years_store: Assistant) -> None:
    """A second run: after "summarize the second one", "which of those use routing?" had
    searched the whole store (packet-routing papers)."""
    listed = final_answer(years_store.answer_stream(LIST))
    history = [(LIST, listed.answer), ("summarize the second one", "")]
    answer = final_answer(years_store.answer_stream("which of those use autoencoders?", history))
    assert [c.title for c in answer.citations] == ["Stacked Capsule Autoencoders"]


def test_places_asked_of_one_answer_give_it_again_once(years_store: Assistant,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: each place asked ("the second one", then "the first one") gave the answer
    before again, a model's included, and each turn back once more."""
    listed = final_answer(years_store.answer_stream(LIST))
    asked: list[str] = []
    answer_stream = years_store.answer_stream

    def counted(question: str, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        asked.append(question)
        return answer_stream(question, *args, **kwargs)

    monkeypatch.setattr(years_store, "answer_stream", counted)
    history = [("Which papers study capsule networks?", listed.answer)]
    for question in ("summarize the second one", "summarize the first one"):
        final_answer(years_store.answer_stream(question, history))
    assert asked.count("Which papers study capsule networks?") == 1


@pytest.mark.parametrize(("question", "oldest"), [
    ("list them in chronological order", True), ("sort them by year", True),
    ("sort them by year, newest first", False), ("Order the list by date descending", False),
    ("which of them is the oldest?", True), ("Which one is the most recent?", False),
    ("and more recent ones?", False), ("the oldest ones?", True),
    ("list them", None), ("Which papers on GANs are the oldest?", None),
    ("what about more recent work?", False), ("What is the oldest paper?", None),
    ("list capsule network papers in chronological order", None),
])
def test_a_follow_up_asks_for_the_list_before_in_year_order(question: str,
                                                            oldest: bool | None) -> None:
    assert order_asked(question) is oldest


def test_the_list_before_is_given_again_in_the_order_asked(years_store: Assistant) -> None:
    """A run: after a capsule list, "list them in chronological order" had listed papers
    on decision lists, "sort them by year" given a table of five, and "which of them is
    the oldest?" a false "no"."""
    listed = final_answer(years_store.answer_stream(LIST))
    for question, first in (("list them in chronological order", "Capsules for Object Parts"),
                            ("sort them by year, newest first", "Capsules in Videos"),
                            ("which of them is the oldest?", "Capsules for Object Parts")):
        again = final_answer(years_store.answer_stream(question, [(LIST, listed.answer)]))
        assert {c.title for c in again.citations} == {c.title for c in listed.citations}, question
        assert again.citations[0].title == first, question


@pytest.mark.parametrize(("question", "topic"), [
    ("what about dropout?", "dropout"), ("How about papers on sparse attention?", "sparse attention"),
    ("and papers on transformers?", "transformers"), ("what about GAN papers?", "GAN"),
    ("what about its limitations?", None), ("and what datasets do they use?", None),
    ("and how does it scale?", None), ("what about them?", None),
    # a review: a part of the papers before, or pointing back, is no new topic
    ("what about the authors?", None), ("how about a summary?", None),
    ("what about the other one?", None), ("what about the limitations?", None),
    ("what about datasets used?", None), ("what about main contribution?", None),
])
def test_a_follow_up_names_another_topic_for_the_list_before(question: str,
                                                             topic: str | None) -> None:
    assert swapped_topic(question, lambda words: True) == topic


def test_another_topic_is_listed_as_the_list_before_was(years_store: Assistant) -> None:
    """A run: "what about dropout?" after a capsule list had been joined to it: a table of
    five capsule papers, none writing dropout."""
    history = chat(years_store, LIST, "what about sparse attention?")
    titles = {c.title for c in final_answer(years_store.answer_stream(
        "what about sparse attention?", history[:1])).citations}
    assert "Sparse Attention" in titles and not titles & {t for _, t, _ in CAPSULES}
    assert re.match(r"\d+ papers? of the [\d,]+ match", history[1][1])  # a list's count line
    # and the list it gave is the one a narrowing follows
    dated = final_answer(years_store.answer_stream("only 2020 papers", history))
    assert "Sparse Attention" not in {c.title for c in dated.citations}
    # its own years replace the list's (a review: after a list of 2018, "what about VAEs in
    # 2019?" had said the two leave no year in common)
    dated_list = [("Which papers from 2018 use capsule networks?", "")]
    swapped_dated = final_answer(years_store.answer_stream("what about sparse attention in 2019?",
                                                           dated_list))
    assert [c.title for c in swapped_dated.citations] == ["Sparse Attention"]


def test_a_place_past_the_list_s_end_is_one_line(years_store: Assistant) -> None:
    """A run: after a list of 12, "the 13th one" had been searched as words (a false "no"),
    and "paper 43" after a list of 42 summarized a paper the list did not hold."""
    listed = final_answer(years_store.answer_stream(LIST))
    shown = len(listed.sources)
    with pytest.raises(BadInputError, match=rf"do not number: they show \[1\]–\[{shown}\]"):
        final_answer(years_store.answer_stream(f"summarize paper {shown + 1}",
                                               [(LIST, listed.answer)]))
    with pytest.raises(BadInputError, match="do not number"):  # a run: it had quoted "0th-order"
        final_answer(years_store.answer_stream("the 0th one", [(LIST, listed.answer)]))
    last = final_answer(years_store.answer_stream(f"summarize paper {shown}", [(LIST, listed.answer)]))
    assert [c.title for c in last.citations] == [listed.sources[-1].title]


def test_a_narrowing_after_an_answer_lists_its_questions_papers_under_the_filter(
        authors_store: Assistant) -> None:
    """A run: "only the ones by Hinton" after "What is dropout?" (an answer, no list) had
    listed a Hinton paper writing "ones"; it is the question's papers by that author."""
    question = "What are capsule networks used for?"
    history = chat(authors_store, question)
    assert not history[0][1].startswith(tuple("0123456789"))  # an answer, not a list
    mine = final_answer(authors_store.answer_stream("only the ones by Ann Lee", history))
    assert [c.title for c in mine.citations] == ["Capsules in Videos"]  # her capsule paper
    assert "earlier list" not in mine.answer  # nothing was listed before
    # asked for in year order, the question's papers so (a run: "list them in chronological
    # order" after "What is dropout?" had listed papers on decision lists)
    dated = final_answer(authors_store.answer_stream("list them in chronological order", history))
    assert dated.citations and ", oldest first;" in dated.answer.splitlines()[0]
    assert {c.title for c in dated.citations} <= {t for _, t, _ in CAPSULES}
    assert [c.title for c in dated.citations][0] == "Capsules for Object Parts"


def test_a_follow_up_past_one_that_leaned_back_works_on_the_list(years_store: Assistant) -> None:
    """A run: after a list and "what about the datasets?" (joined to it), "which of them is
    the oldest?" had been answered from a paper writing "oldest"."""
    history = chat(years_store, LIST, "what about its limitations?")
    oldest = final_answer(years_store.answer_stream("which of them is the oldest?", history))
    assert oldest.citations[0].title == "Capsules for Object Parts"
    assert {c.title for c in oldest.citations} == {t for _, t, _ in CAPSULES}


