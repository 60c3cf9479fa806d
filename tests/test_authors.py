"""Papers by an author: the name as a researcher writes it matched against the stored
author lists (authors.py), read from the question ("Which papers are by Sara Sabour?") or
given as ``--author``, and listed whole ("papers by X" had been searched as a topic: a
false "no" over the author's own papers)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from conftest import make_settings
from test_cli import run

from assistant.answering import final_answer
from assistant.authors import (
    AuthorBook,
    author_names,
    names_match,
    nearest_names,
    people_named,
    written_by,
)
from assistant.errors import BadInputError
from assistant.filters import explicit
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.types import Answer, Filters

# (authors, title, abstract): two papers of Ada Lovelace, one with an accented co-author,
# and one of another Lovelace.
PAPERS = [
    ("Ada Lovelace, Charles Babbage", "Burrow Engines",
     "We compute wombat burrow temperatures with an analytical engine and find them stable."),
    ("Bernhard Schölkopf and Ada Lovelace", "Kernel Burrows",
     "A kernel method predicts which wombat burrows stay cool through the summer."),
    ("Grace Hopper", "Compiled Koalas",
     "We compile a census of koalas from eucalyptus counts along three transects."),
    ("Richard Lovelace", "Sonnets of Wombats",
     "A study of how poets describe wombat burrows across three centuries."),
]


@pytest.mark.parametrize(("written", "asked", "same"), [
    ("Ada Lovelace", "Ada Lovelace", True),
    ("Ada Lovelace", "lovelace", True),
    ("Ada Lovelace", "A. Lovelace", True),
    ("Bernhard Schölkopf", "Bernhard Scholkopf", True),
    ("Jean-Philippe Vert", "J.-P. Vert", True),
    ("Ada Lovelace", "Richard Lovelace", False),
    ("Ada Lovelace", "Ada", False),  # a first name alone is no author's name
    ("Ada Lovelace", "B. Lovelace", False),
    # the same person in the stored spellings (review: each had been missed)
    ("Yee W. Teh", "Yee Whye Teh", True),
    ("Hal Daumé III", "Hal Daume", True),
    ("Geoffrey Hinton", "Geoffrey E. Hinton", True),
    ("Yann Le Cun", "Yann LeCun", True),
    ("Mihaela van der Schaar", "van der Schaar", True),
    ("Anne Sabourin", "Sara Sabour", False),
    ("A. A. A.", "A.-A.-A.", False),  # no family name of one letter
    # a hostile researcher's: a hyphenated family name alone, "ue" for "ü", and a middle
    # initial the stored name lacks, which must not admit another first name
    ("Shai Shalev-Shwartz", "Shalev-Shwartz", True),
    ("Jürgen Schmidhuber", "Juergen Schmidhuber", True),
    ("Matt Jordan", "M. I. Jordan", False),
    ("Michael I. Jordan", "M. I. Jordan", True),
    # a capitalised particle is a given name ("Le Song" is not Yang Song), and "ue" is an
    # umlaut only where the stored name writes one ("Wei Xu" is not Wei Xue) (review)
    ("Yang Song", "Le Song", False),
    ("Le Song", "Le Song", True),
    ("Kaiming He", "Di He", False),
    ("Wei Xue", "Wei Xu", False),
    ("Laurens Maaten", "Laurens van der Maaten", True),
    # letters NFKD leaves whole, typed without them, and a name stored in capitals (a
    # hostile researcher's: "Lukasz Kucinski" had found no Łukasz Kuciński)
    ("Łukasz Kuciński", "Lukasz Kucinski", True),
    ("LUKASZ KAISER", "Łukasz Kaiser", True),
    ("Søren Hauberg", "Soren Hauberg", True),
    ("Søren Hauberg", "Soeren Hauberg", True),
    ("Đorđe Đokić", "Dorde Dokic", True),
    ("Michał Zając", "Michal Zajac", True),
    ("Michał Zając", "Michal Zajaz", False),
    # a given name that begins another is another person's ("Qian Liu" had counted Qiang
    # Liu's 30 papers, a review's, when short forms such as "Geoff" were read so)
    ("Qiang Liu", "Qian Liu", False),
    ("Hanxiao Liu", "Han Liu", False),
])
def test_a_name_matches_as_a_researcher_writes_it(written: str, asked: str, same: bool) -> None:
    assert names_match(written, asked) is same


def test_an_author_list_is_read_name_by_name() -> None:
    assert author_names("A. One, B. Two and C. Three") == ("A. One", "B. Two", "C. Three")
    assert written_by("Bernhard Schölkopf and Ada Lovelace", "Lovelace")
    assert not written_by("", "Lovelace")
    assert nearest_names("Ada Lovelase", [a for a, _, _ in PAPERS])[0] == "Ada Lovelace"
    assert nearest_names("Hoper", [a for a, _, _ in PAPERS]) == ["Grace Hopper"]  # family
    assert written_by("Ada Lovelace, Charles Babbage", "Lovelace and Babbage")
    assert not written_by("Ada Lovelace", "Lovelace and Babbage")


@pytest.mark.parametrize(("question", "author", "search"), [
    ("Which papers are by Sara Sabour?", "Sara Sabour", "Which papers?"),
    ("Papers by Sara Sabour", "Sara Sabour", "Papers"),
    ("Which papers did Sara Sabour write?", "Sara Sabour", "Which papers?"),
    ("What has Yoshua Bengio published?", "Yoshua Bengio", "What?"),
    ("Which papers by Geoffrey Hinton use capsules?", "Geoffrey Hinton",
     "Which papers use capsules?"),
    ("Bengio's papers on attention", "Bengio", "papers on attention"),
    ("papers written by Mihaela van der Schaar", "Mihaela van der Schaar", "papers"),
    ("which papers are by sara sabour?", "sara sabour", "which papers?"),
    ("Which papers were co-authored by Hinton and LeCun?", "Hinton and LeCun", "Which papers?"),
    ("Which papers are by Vaswani et al.?", "Vaswani", "Which papers?"),
    ("Which papers are by Hinton's group?", "Hinton", "Which papers?"),
    ("List Hinton's publications", "Hinton", "List publications"),
    ("Which papers are by Will Hamilton?", "Will Hamilton", "Which papers?"),
    ("Which papers did Hinton co-author?", "Hinton", "Which papers?"),
    # yes or no, a possessive's work, a co-author, "from" (a false "no" each)
    ("Did Yoshua Bengio write about attention?", "Yoshua Bengio", "Did about attention?"),
    ("Has Hinton published on capsules?", "Hinton", "Has on capsules?"),
    ("Hinton's work on capsules", "Hinton", "work on capsules"),
    ("Has Yoshua Bengio worked with Yann LeCun?", "Yoshua Bengio and Yann LeCun", "Has?"),
    ("Which papers did Bengio and LeCun write together?", "Bengio and LeCun", "Which papers?"),
    ("Which papers did Ilya Sutskever write with Oriol Vinyals?",
     "Ilya Sutskever and Oriol Vinyals", "Which papers?"),
    ("What did Hinton work on?", "Hinton", "What?"),
    # a name beginning with an accented capital (had been searched as words), and one
    # written family name first, as a bibliography does (had been two names, or "G")
    ("Which papers are by Özlem Aslan?", "Özlem Aslan", "Which papers?"),
    ("Which papers by Łukasz Kaiser use attention?", "Łukasz Kaiser",
     "Which papers use attention?"),
    ("Which papers are by Éric Moulines and Ádám Kepecs?", "Éric Moulines and Ádám Kepecs",
     "Which papers?"),
    ("Has Ádám Kepecs worked with Éric Moulines?", "Ádám Kepecs and Éric Moulines", "Has?"),
    ("Which papers are by LeCun, Y.?", "Y. LeCun", "Which papers?"),
    ("papers by Hinton G. on capsules", "G. Hinton", "papers on capsules"),
    ("Which papers are by Schölkopf B.?", "B. Schölkopf", "Which papers?"),
    ("Which papers are by Bengio, Y. and LeCun, Y.?", "Y. Bengio and Y. LeCun", "Which papers?"),
    # no author: a method's inspiration, the same group, a year, an order, an acronym, a
    # venue, words (review: these had been read as names, a false "no" with exit 2)
    ("Which methods are inspired by Hebbian learning?", None, None),
    ("Which papers by the same group use GNNs?", None, None),
    ("Plot the graph neural network papers by year", None, None),
    ("Rank the papers by BLEU score", None, None),
    ("Sort papers by ImageNet accuracy", None, None),
    ("List the papers by author", None, None),
    ("Group papers by country", None, None),
    ("Which papers are by design interpretable?", None, None),
    ("Which papers did NeurIPS publish?", None, None),
    ("Does Mamba work on long documents?", None, None),  # a method, not a writer
    ("Has Dropout worked on small datasets?", None, None),
    ("Which papers from Computer Vision use transformers?", None, None),
    ("Papers from NeurIPS 2019", None, None),
])
def test_the_question_names_its_author(question: str, author: str | None,
                                       search: str | None) -> None:
    intent = read_intent(question)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert intent.search == search and intent.wants_list


# The stored authors that confirm a name the words alone leave in doubt: a David Hand and
# a Tom Young stand for the stored names that are words too ("by hand", "by young ..."),
# a Jack London for those that are places too ("papers from London").
BOOK = AuthorBook([a for a, _, _ in PAPERS] + ["Sara Sabour, Nicholas Frosst, Geoffrey E. Hinton",
                                               "Yoshua Bengio", "David J. Hand", "Tom Young",
                                               "Jack London", "Laurens van der Maaten",
                                               "Özlem Aslan"])


@pytest.mark.parametrize(("question", "author", "search"), [
    # "from" a stored author, capitalised or not
    ("Which papers from Yoshua Bengio use attention?", "Yoshua Bengio",
     "Which papers use attention?"),
    ("Which papers are from Geoffrey Hinton?", "Geoffrey Hinton", "Which papers?"),
    ("Papers from Hinton et al. on capsules", "Hinton", "Papers on capsules"),
    ("papers from sara sabour on capsules", "sara sabour", "papers on capsules"),
    ("papers by laurens van der maaten on t-sne", "laurens van der maaten", "papers on t-sne"),
    ("papers by özlem aslan on kernels", "özlem aslan", "papers on kernels"),  # "[a-z]" had not
    # a stored author in lower case inside the question
    ("papers by sara sabour on capsules", "sara sabour", "papers on capsules"),
    ("Which papers written by yoshua bengio use attention?", "yoshua bengio",
     "Which papers use attention?"),
    ("papers by david hand on statistics", "david hand", "papers on statistics"),
    ("what has yoshua bengio published?", "yoshua bengio", "what?"),
    ("Which papers did hinton write?", "hinton", "Which papers?"),
    # a run: two lower-case names joined by "and" (a false zero: "and" is a stopword)
    ("how many papers did sara sabour and geoffrey hinton write together?",
     "sara sabour and geoffrey hinton", "how many papers?"),
    # "from" a venue, a year, a decade, a field, a name no stored paper has: as before
    ("Papers from NeurIPS 2019", None, None),
    ("Which papers from 2019 use attention?", None, None),
    ("Which papers from the 1990s use kernels?", None, None),
    ("Which papers from Computer Vision use transformers?", None, None),
    ("papers from computer vision on transformers", None, None),
    ("Which papers are from Ada Byron?", None, None),
    ("Sort the papers from Hinton by year", None, None),
    # one word after "from" may be a place: a stored author of one paper is named London
    ("Which papers from London use Gaussian processes?", None, None),
    # words after "by", though a stored name is Hand or Young (one lower-case word inside
    # a question is no name, nor one of these at its end)
    ("papers by hand on graphs", None, None),
    ("Which papers by young researchers use RL?", None, None),
    ("papers by default on graphs", None, None),
    ("papers by hand?", None, None),
    ("Which papers are by default?", None, None),
    # "by" a name after the topic, where the question ends (a review's researcher)
    ("List papers on attention by Yoshua Bengio", "Yoshua Bengio", "List papers on attention"),
    ("Which papers on capsules are by Hinton?", "Hinton", "Which papers on capsules?"),
    ("Which papers are inspired by Hebb?", None, None),  # no stored Hebb: the words
    ("Which papers use the dataset released by Google?", None, None),
])
def test_an_author_the_store_holds_is_read_from_doubtful_words(
        question: str, author: str | None, search: str | None) -> None:
    """"from" names an author, a venue, a year or a field, and lower-case words inside a
    question a name or words: read as an author only when a stored paper has the name."""
    intent = read_intent(question, (), BOOK)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert intent.search == search and intent.wants_list
        assert BOOK.holds(author) and not read_intent(question, (), AuthorBook([])).filters


def test_a_trend_of_a_topic_by_an_author_counts_the_authors_papers() -> None:
    intent = read_intent("How many papers on attention by Bengio per year?", (), BOOK)
    assert intent.filters == Filters(author="Bengio") and intent.trend_topic == "attention"


@pytest.mark.parametrize(("question", "listed"), [
    ("Which papers are by Sara Sabour?", True),
    ("Bengio's papers on attention", True),
    # what else is asked of the author's papers is read so, within them (review)
    ("Summarize the papers by Sara Sabour", False),
    ("What is the main finding of the paper by Sara Sabour?", False),
    ("Explain the paper by Vaswani on transformers", False),
])
def test_an_author_makes_a_list_only_when_the_papers_are_what_is_asked(
        question: str, listed: bool) -> None:
    assert read_intent(question).wants_list is listed


def test_a_long_name_is_read_in_time_and_matches_no_one() -> None:
    """Review: "Which papers are by A.-A.-A.-…" (3,900 characters) took a minute and
    matched two papers; a name is at most 100 characters and its family name two letters."""
    question = "Which papers are by " + "A.-" * 1300
    assert read_intent(question).filters is None
    assert not written_by("Ada Lovelace, A. Aaa", "A.-" * 30)


def test_a_blank_or_nameless_author_option_is_none_or_one_line() -> None:
    assert explicit(None, None, "  ") is None
    assert explicit(None, None, "Ada  Lovelace") == Filters(author="Ada Lovelace")
    with pytest.raises(BadInputError, match="bad author filter '1999'"):
        explicit(None, None, "1999")
    with pytest.raises(BadInputError, match="bad author filter 'and'"):  # had kept all
        explicit(None, None, "and")


@pytest.fixture(scope="module")
def lovelace_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds (no authors) and the four papers above, with their authors."""
    path = tmp_path_factory.mktemp("authors") / "papers.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["authors", "title", "abstract"])
        writer.writerows(PAPERS)
    data = path.parent / "data"
    shutil.copytree(seed_dir, data)
    assert Assistant(make_settings(data)).ingest([path]).added == len(PAPERS)
    return data


def answer_of(app: Assistant, question: str) -> Answer:
    return final_answer(app.answer_stream(question))


def test_an_author_question_lists_every_paper_of_the_author(lovelace_dir: Path) -> None:
    app = Assistant(make_settings(lovelace_dir))
    answer = answer_of(app, "Which papers are by Ada Lovelace?")
    assert sorted(c.title for c in answer.citations) == ["Burrow Engines", "Kernel Burrows"]
    assert answer.filters == "author Ada Lovelace"
    assert answer.receipt and answer.receipt.in_filter == 2
    # a topic too: screened within the author's papers
    topical = answer_of(app, "Which papers by Lovelace use kernel methods?")
    assert [c.title for c in topical.citations] == ["Kernel Burrows"]
    asked = answer_of(app, "Did Ada Lovelace write about kernel methods?")  # had said no
    assert [c.title for c in asked.citations] == ["Kernel Burrows"]
    # the filter reaches dense retrieval's Chroma ``where`` as well
    found = app.retrieve("wombat burrows", top_k=4, filters=Filters(author="Lovelace"))
    assert {f.paper.title for f in found} <= {"Burrow Engines", "Kernel Burrows",
                                              "Sonnets of Wombats"}
    assert "Compiled Koalas" not in {f.paper.title for f in found}
    # a summary of the author's papers, with no topic, lists them (a search for "the
    # papers" had refused); with one, it is answered from hers alone
    summary = answer_of(app, "Summarize the papers by Ada Lovelace")
    assert sorted(c.title for c in summary.citations) == ["Burrow Engines", "Kernel Burrows"]
    main = answer_of(app, "What are the main papers by Ada Lovelace?")  # had refused
    assert sorted(c.title for c in main.citations) == ["Burrow Engines", "Kernel Burrows"]
    # counted per year: all of hers, none judged away
    trend = answer_of(app, "How many papers has Ada Lovelace published per year?")
    assert trend.receipt and trend.receipt.matching == 2 and trend.receipt.counted
    # the same question typed as a trend's topic (the Lists tab, `assistant trends`)
    typed = app.trends("How many papers has Ada Lovelace published per year?")
    assert sorted(typed.paper_ids) == sorted(trend.receipt.counted)
    # its shares are of all the stored papers, and its JSON says so; a topic's are of hers
    assert typed.public_json()["stored_within"] is None
    assert app.trends("wombat burrows", Filters(author="Lovelace")).public_json()[
        "stored_within"] == "author Lovelace"
    plain = app.trends("user interest in wombat burrows over time")  # searched as it is
    assert plain.topic == "user interest in wombat burrows over time"


def test_papers_from_an_author_are_the_papers_by_the_author(lovelace_dir: Path) -> None:
    """"Which papers are from X?" lists what "Which papers are by X?" does, and a stored
    name written in lower case inside a question filters the papers searched (each had
    been searched as a topic)."""
    app = Assistant(make_settings(lovelace_dir))
    by = answer_of(app, "Which papers are by Ada Lovelace?")
    from_ = answer_of(app, "Which papers are from Ada Lovelace?")
    assert sorted(c.title for c in from_.citations) == sorted(c.title for c in by.citations)
    assert from_.filters == "author Ada Lovelace"
    lower = answer_of(app, "Which papers by ada lovelace use kernel methods?")
    assert [c.title for c in lower.citations] == ["Kernel Burrows"]
    assert lower.filters == "author ada lovelace"


def test_an_author_filters_papers_are_read_again_after_an_ingest(tmp_path: Path) -> None:
    """The papers a filter leaves are kept between questions (an author filter reads every
    author list), and read again once the store is written."""
    app = Assistant(make_settings(tmp_path / "data"))
    first, second = tmp_path / "one.csv", tmp_path / "two.csv"
    for path, (authors, title, abstract) in ((first, PAPERS[0]), (second, PAPERS[1])):
        with path.open("w", newline="") as f:
            csv.writer(f).writerows([["authors", "title", "abstract"], [authors, title, abstract]])
    app.ingest([first])
    assert len(app.retriever.allowed(Filters(author="Lovelace")) or ()) == 1
    assert app.question_filters("Papers from Bernhard Schölkopf")[0] is None  # no paper yet
    old_book = app.index.author_book()
    app.ingest([second])
    assert len(app.retriever.allowed(Filters(author="Lovelace")) or ()) == 2
    assert app.question_filters("Papers from Bernhard Schölkopf")[0] == Filters(
        author="Bernhard Schölkopf")  # the question is read again with the new authors
    assert old_book.lists == () and app.index.author_book().lists  # the old book let go


def test_an_author_no_paper_has_is_one_line_naming_the_nearest(lovelace_dir: Path) -> None:
    app = Assistant(make_settings(lovelace_dir))
    with pytest.raises(BadInputError, match="no indexed paper has an author named Ada "
                       "Lovelase; the nearest are Ada Lovelace"):
        answer_of(app, "Which papers are by Ada Lovelase?")
    with pytest.raises(BadInputError, match="author named Ada Lovelase; the nearest are Ada Lovelace"):
        answer_of(app, "How many papers on koalas by Ada Lovelase?")  # not “koalas by Ada Lovelase”
    with pytest.raises(BadInputError, match=r"no indexed paper is by Grace Hopper and Ada "
                       r"Lovelace together \(Grace Hopper: 1, Ada Lovelace: 2 on their own\)"):
        answer_of(app, "Which papers are by Grace Hopper and Ada Lovelace?")  # both wrote
    result = run("ask", "--author", "Grace Hoper", "Which papers count koalas?",
                 "--data-dir", str(lovelace_dir))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "author named Grace Hoper; the nearest are Grace Hopper" in result.stderr
    ranged = run("ask", "--author", "Grace Hoper", "--year", "2019-", "Which papers count "
                 "koalas?", "--data-dir", str(lovelace_dir))  # the name is what to fix
    assert ranged.returncode == 2 and "the nearest are Grace Hopper" in ranged.stderr
    summary = run("ask", "--author", "Hopper", "Summarize these papers.", "--data-dir",
                  str(lovelace_dir))  # no topic: her papers, listed (not a refusal)
    assert summary.returncode == 0 and summary.stdout.startswith(
        "1 paper of the 1 (author Hopper) matches") and "Compiled Koalas" in summary.stdout
    listed = run("ask", "--author", "Hopper", "--json", "Which papers count koalas?",
                 "--data-dir", str(lovelace_dir))
    assert listed.returncode == 0, listed.stderr
    assert '"Compiled Koalas"' in listed.stdout and '"Burrow Engines"' not in listed.stdout


def test_a_short_given_name_is_read_as_the_stored_person_it_begins(lovelace_dir: Path) -> None:
    answer = answer_of(Assistant(make_settings(lovelace_dir)), "Which papers are by Rich Lovelace?")
    assert [c.title for c in answer.citations] == ["Sonnets of Wombats"]  # had been no author
    assert answer.filters == "author Richard Lovelace"  # the filter line says how it was read


def test_the_author_book_holds_a_name_as_the_author_filter_reads_it() -> None:
    """``AuthorBook.holds`` rules out a family name no paper has before reading the lists;
    what it then holds is what ``written_by`` finds, spellings and co-authors alike."""
    book = AuthorBook(["Yann Le Cun, Jürgen Schmidhuber", "Sara Sabour, Geoffrey E. Hinton"])
    assert book.holds("Yann LeCun") and book.holds("Juergen Schmidhuber")
    assert book.holds("Hinton and Sabour") and not book.holds("Hinton and LeCun")
    assert not book.holds("Computer Vision") and not book.holds("") and not book.holds("and")


def test_a_family_name_alone_names_the_people_it_matches(lovelace_dir: Path) -> None:
    """"papers by Bengio" lists Yoshua's and Samy's papers alike; the list says whose, so
    that it is not taken for one person's."""
    lists = ["Yoshua Bengio, Aaron Courville", "Y. Bengio", "Samy Bengio", "S. Bengio, Yoshua Bengio",
             "Emmanuel Bengio", "E. Bengio and Elmar Bengio"]
    assert people_named("Bengio", lists) == [("Yoshua Bengio", 3), ("Samy Bengio", 2),
                                              ("E. Bengio", 1),  # two of E: not merged
                                              ("Elmar Bengio", 1), ("Emmanuel Bengio", 1)]
    assert people_named("Schmidhuber", ["Jürgen Schmidhuber", "Juergen Schmidhuber"]) == [
        ("Jürgen Schmidhuber", 2)]  # one person, with or without the umlaut
    assert people_named("Yoshua Bengio", lists) == [] and people_named("Bengio and Hinton",
                                                                       lists) == []
    app = Assistant(make_settings(lovelace_dir))
    listed = answer_of(app, "Which papers are by Lovelace?").answer.splitlines()
    assert listed[1] == ("“Lovelace” names 2 stored authors: Ada Lovelace (2 papers), Richard "
                         "Lovelace (1 paper); give a full name to keep to one.")
    assert "stored authors" not in answer_of(app, "Which papers are by Ada Lovelace?").answer
    # a count says it too (a run: "How many papers has Bengio written?" counted three people's)
    counted = answer_of(app, "How many papers has Lovelace written on wombat burrows?").answer.splitlines()
    assert counted[1] == listed[1]


def test_one_word_after_from_is_an_author_when_the_store_holds_it_more_as_a_name() -> None:
    """"Which papers from Schmidhuber use LSTMs?" asks for his papers, "Which papers from
    London use Gaussian processes?" for papers on London: the one word is read as an
    author when five stored papers or more have it as a family name, more than the
    abstracts that write it."""
    book = AuthorBook(["Jürgen Schmidhuber"] * 5 + ["Jack London"] * 6,
                      ["We forecast air quality across London."] * 6 + ["LSTMs learn."] * 5)
    assert book.more_a_name("Schmidhuber") and book.more_a_name("schmidhuber")
    assert not book.more_a_name("London")  # as many abstracts write the city
    assert not AuthorBook(["Jürgen Schmidhuber"] * 4).more_a_name("Schmidhuber")  # too few
    read = read_intent("Which papers from Schmidhuber use LSTMs?", (), book)
    assert read.filters == Filters(author="Schmidhuber") and read.search == "Which papers use LSTMs?"
    assert read_intent("Which papers from London use LSTMs?", (), book).filters is None
    # in lower case inside the question too, where one word is read on this ground alone
    lower = read_intent("How many papers from schmidhuber on lstms per year?", (), book)
    assert lower.filters == Filters(author="schmidhuber") and lower.trend_topic == "lstms"
    assert read_intent("papers from london on lstms", (), book).filters is None


# Five papers each of Bengio, Hinton and Schmidhuber, whose abstracts never write them; five
# of a Hopfield, whose networks six abstracts write; the names of ``BOOK`` besides
NAMED = AuthorBook(BOOK.lists + ("Yoshua Bengio, Aaron Courville", "Geoffrey E. Hinton",
                                 "Jürgen Schmidhuber", "John J. Hopfield") * 5,
                   ["Capsules route parts to wholes."] * 10 + ["Hopfield networks store "
                                                               "memories."] * 6)


@pytest.mark.parametrize(("question", "author", "search"), [
    ("Yoshua Bengio papers", "Yoshua Bengio", "papers"),
    ("Bengio papers", "Bengio", "papers"),
    ("Hinton papers on capsules", "Hinton", "papers on capsules"),
    ("Which Hinton papers use capsules?", "Hinton", "Which papers use capsules?"),
    ("Show me Geoffrey Hinton papers since 2015", "Geoffrey Hinton", "Show me papers"),
    ("Sara Sabour and Geoffrey Hinton publications", "Sara Sabour and Geoffrey Hinton",
     "publications"),
    ("papers of Yoshua Bengio", "Yoshua Bengio", "papers"),
    ("Which papers of Hinton use capsules?", "Hinton", "Which papers use capsules?"),
    # in lower case, where the request begins, or after "of"
    ("yoshua bengio papers", "yoshua bengio", "papers"),
    ("list schmidhuber papers", "schmidhuber", "list papers"),
    ("papers of sara sabour on capsules", "sara sabour", "papers on capsules"),
    # a topic before the noun, though some are stored names: as before
    ("Transformer papers", None, None),
    ("GAN papers", None, None),
    ("Bayesian papers", None, None),
    ("deep learning papers", None, None),
    ("Hopfield papers", None, None),  # his 5 papers, his networks' 6 abstracts
    ("Lovelace papers", None, None),  # 3 stored papers: too few to tell from a word
    ("Sort the Bengio papers by year", None, None),  # an order
    # after "of", one word is read as after "from": a place, words
    ("Which papers of London use Gaussian processes?", None, None),
    ("papers of interest on graphs", None, None),
])
def test_a_name_before_the_papers_noun_or_after_of_is_their_author(
        question: str, author: str | None, search: str | None) -> None:
    """"Yoshua Bengio papers" asks what "papers by Yoshua Bengio" does, and had been
    searched as the topic "Yoshua Bengio" (a false "no"), "Bengio papers" listed papers
    citing him: the name is read as an author when a stored paper has it, of one word only
    when the store holds it more as a name than as a word ("Transformer papers" stays a
    topic's list, "Hopfield papers" too)."""
    intent = read_intent(question, (), NAMED)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert intent.search == search and intent.wants_list
    else:
        assert intent == read_intent(question, (), AuthorBook([]))  # read as without names


def test_a_name_before_the_papers_noun_lists_the_authors_papers(lovelace_dir: Path) -> None:
    """"Ada Lovelace papers" and "papers of Ada Lovelace" list what "Which papers are by
    Ada Lovelace?" does, and a topic after the noun is searched within hers."""
    app = Assistant(make_settings(lovelace_dir))
    for question in ("Ada Lovelace papers", "papers of Ada Lovelace"):
        answer = answer_of(app, question)
        assert sorted(c.title for c in answer.citations) == ["Burrow Engines", "Kernel Burrows"]
        assert answer.filters == "author Ada Lovelace"
    topical = answer_of(app, "Ada Lovelace papers on kernel methods")
    assert [c.title for c in topical.citations] == ["Kernel Burrows"]


def test_a_stored_name_written_family_name_then_initials_is_read_given_first() -> None:
    """A run's PubMed-style "Smith J, Doe A": "papers by Smith J" had found no author."""
    assert author_names("Smith J, van Dijk JP, Hoang NT, Xingjian SHI, Ronald Klein MD, "
                        "Joseph K J") == ("J. Smith", "J. P. van Dijk", "N. T. Hoang",
                                          "Xingjian SHI", "Ronald Klein MD", "Joseph K J")
    assert written_by("Smith J, Doe A", "Smith J") and written_by("Smith J, Doe A", "Smith")
    assert AuthorBook(["Smith J, Doe A"]).holds("J. Smith")
