"""Names written as a bibliography or a keyboard writes them: family name first ("LeCun,
Y.", "Hinton G."), and without the letters NFKD leaves whole ("Lukasz" for "Łukasz"), read
as the stored names (authors.py ``given_first``, ``name_words``). Each had found no paper,
or part of them."""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA, skipif_no_shared_data

from assistant.authors import AuthorBook, given_first, nearest_names, people_counts, written_by
from assistant.corpus import read_paths
from assistant.filters import explicit
from assistant.intent import read_intent
from assistant.types import Filters


@pytest.mark.parametrize(("asked", "given"), [
    ("LeCun, Y.", "Y. LeCun"),
    ("Hinton G. E.", "G. E. Hinton"),
    ("Vert J.-P.", "J.-P. Vert"),
    ("Hinton, G. and LeCun, Y.", "G. Hinton and Y. LeCun"),
    # given names first already, or two family names: as asked
    ("Y. LeCun", "Y. LeCun"),
    ("Yee W. Teh", "Yee W. Teh"),
    ("Hinton, LeCun", "Hinton, LeCun"),
    ("Hal Daumé III", "Hal Daumé III"),
])
def test_a_name_asked_family_name_first_is_read_given_names_first(asked: str, given: str
                                                                  ) -> None:
    assert given_first(asked) == given


@pytest.mark.parametrize("asked", ["Hinton, Geoffrey", "Hinton, Geoffrey E.", "Hinton, Geoffrey E"])
def test_a_family_name_then_a_given_name_is_the_author(asked: str) -> None:
    """A run: the author filter "Hinton, Geoffrey" was refused as no stored name, and
    "Hinton, Geoffrey E." read as "Hinton and E. Geoffrey"; two family names ("Hinton,
    Sabour") still name two authors."""
    book = AuthorBook(["Sara Sabour, Geoffrey E. Hinton", "Geoffrey Hinton", "Ann Geoffrey"])
    filters = explicit(None, None, asked)
    assert filters is not None and book.holds(filters.author)
    assert [written_by(a, filters.author) for a in book.lists] == [True, True, False]
    assert [written_by(a, "Hinton, Sabour") for a in book.lists] == [True, False, False]


def test_an_author_option_family_name_first_is_the_same_author() -> None:
    assert explicit(None, None, "LeCun,  Y.") == Filters(author="Y. LeCun")
    assert written_by("Yann LeCun, Léon Bottou", "LeCun, Y.")  # not "LeCun" and a "Y."


@skipif_no_shared_data
def test_the_authors_a_hostile_researcher_named_are_read_and_found() -> None:
    """Each of these had found none, or part, of the papers the NeurIPS files list for
    the name (counted with csv by hand): an accented capital, "Ł" typed "L", capitals."""
    lists = [paper.authors for paper in read_paths([SHARED_DATA]).papers]
    book = AuthorBook(lists)
    for question, author, papers in [("Which papers are by Özlem Aslan?", "Özlem Aslan", 3),
                                     ("Which papers are by Lukasz Kaiser?", "Lukasz Kaiser", 4),
                                     ("Which papers are by Łukasz Kaiser?", "Łukasz Kaiser", 4),
                                     ("Which papers are by Ádám Kepecs?", "Ádám Kepecs", 3),
                                     ("Which papers are by Lukasz Kucinski?", "Lukasz Kucinski",
                                      3),
                                     ("Which papers are by LeCun, Y.?", "Y. LeCun", 21)]:
        filters = read_intent(question, (), book).filters
        assert filters == Filters(author=author)
        assert sum(written_by(authors, author) for authors in lists) == papers, question


def test_authors_joined_by_or_are_either_one() -> None:
    """A run: "papers by Bengio or LeCun on convolutional networks" was read as Bengio's
    alone ("No paper of the 105 answers “or LeCun on convolutional networks”"), a false
    "no" where Bengio and LeCun wrote together on it."""
    said = read_intent("papers by Bengio or LeCun on convolutional networks").filters
    assert said is not None and said.author == "Bengio or LeCun"
    book = AuthorBook(["Yoshua Bengio", "Yann LeCun, Léon Bottou", "Geoffrey Hinton",
                       "Yann LeCun, Yoshua Bengio"])
    assert book.holds("Bengio or LeCun")
    assert [written_by(a, "Bengio or LeCun") for a in book.lists] == [True, True, False, True]
    assert [written_by(a, "Bengio and LeCun") for a in book.lists] == [False, False, False, True]


def test_a_nickname_is_read_only_as_the_one_stored_person_it_stands_for() -> None:
    """"geoff hinton" had been "no indexed paper has an author named geoff hinton"; a rule
    reading a given name as any name it begins had merged "Qian Liu" with Qiang Liu, and
    "Yan Yu" or "Daniel Witten" (no stored author) with Yang Yu and Daniela Witten (reviews'):
    a nickname is read only by the ``nicknames`` table, only when the name as typed is no
    stored author's, and only as one person."""
    book = AuthorBook(["Geoffrey E. Hinton, Yann LeCun", "Geoffrey E. Hinton", "Geoffrey Hinton",
                       "Qiang Liu, Qian Liu", "Qiang Liu", "Yang Yu", "Daniela Witten", "Andrew Ng",
                       "Ignavier Ng", "Daniel Roth", "Patrick Smith", "Patricia Smith",
                       "Jonathan May", "Aaron Roth", "John Smith", "John Doe"])
    assert book.by_nickname("geoff hinton") == "Geoffrey E. Hinton"
    assert book.by_nickname("Dan Roth") == "Daniel Roth"
    # a nickname not beginning its full name is left to the user: by the store's counts,
    # "Micah" had read as Michael and "Jon" as John (a review's)
    assert book.by_nickname("Andy Ng") is None
    assert AuthorBook(["Michael Gharbi", "Michael Smith"]).by_nickname("Micah Gharbi") is None
    assert AuthorBook(["Samuel Bowman", "Sam Smith"]).by_nickname("Sam Bowman") == "Samuel Bowman"
    # the table's other forms are other names: "John" (stored authors' own) of Jonathan, "Ron"
    # of Aaron (reviews')
    assert book.by_nickname("John May") is None and book.by_nickname("Ron Roth") is None
    assert book.by_nickname("Geoffrey Hinton") is None  # stored as typed
    assert book.by_nickname("Qian Liu") is None and book.by_nickname("Qia Liu") is None
    assert book.by_nickname("Yan Yu") is None and book.by_nickname("Daniel Witten") is None
    assert book.by_nickname("Pat Smith") is None  # Patrick or Patricia
    assert book.by_nickname("Hinton") is None and book.by_nickname("Geoff Hinton and LeCun") is None


def test_a_name_typed_with_a_nickname_no_one_has_is_offered_its_full_forms() -> None:
    """"Which papers are by Mike Jordan?" had named only Mike Oram as the nearest (a
    review's): the family name's stored people whose given name the nickname stands for
    come first, offered, not read (``by_nickname`` leaves "Mike" to the user)."""
    lists = ["Michael I. Jordan, Mike Oram", "Michael Jordan", "Miguel Jordan", "Michael Smith",
             "David M. Blei", "Andrew Y. Ng"]
    assert nearest_names("Mike Jordan", lists) == ["Michael I. Jordan", "Michael Jordan",
                                                   "Miguel Jordan"]
    assert nearest_names("dave blei", lists) == ["David M. Blei"]
    assert nearest_names("Andy Ng", lists) == ["Andrew Y. Ng"]
    assert nearest_names("Schmidhubr", ["Jürgen Schmidhuber"]) == ["Jürgen Schmidhuber"]
    assert AuthorBook(lists).by_nickname("Mike Jordan") is None


def test_a_persons_spellings_are_counted_as_one_author() -> None:
    """R6: "Who wrote the most papers about Gaussian processes?" named Carl E. Rasmussen (9)
    and Carl Edward Rasmussen (8) below Manfred Opper (14): a middle name written whole or as
    its initial is one person's, under the spelling most papers write; one written without a
    middle, or with the given name as an initial, may be another's and stays apart."""
    counts = people_counts(["Carl E. Rasmussen, Manfred Opper", "Carl Edward Rasmussen",
                            "Carl Edward Rasmussen and Zoubin Ghahramani", "Carl Rasmussen",
                            "C. E. Rasmussen", "Manfred Opper, Ole Winther"])
    assert counts == {"Carl Edward Rasmussen": 3, "Manfred Opper": 2, "Zoubin Ghahramani": 1,
                      "Carl Rasmussen": 1, "C. E. Rasmussen": 1, "Ole Winther": 1}
    assert list(people_counts(["Carl E. Rasmussen, Carl Edward Rasmussen"]).values()) == [1]
