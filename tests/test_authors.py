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
from assistant.authors import author_names, names_match, nearest_names, written_by
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
])
def test_a_name_matches_as_a_researcher_writes_it(written: str, asked: str, same: bool) -> None:
    assert names_match(written, asked) is same


def test_an_author_list_is_read_name_by_name() -> None:
    assert author_names("A. One, B. Two and C. Three") == ["A. One", "B. Two", "C. Three"]
    assert written_by("Bernhard Schölkopf and Ada Lovelace", "Lovelace")
    assert not written_by("", "Lovelace")
    assert nearest_names("Ada Lovelase", [a for a, _, _ in PAPERS])[0] == "Ada Lovelace"


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
    # no author: a method's inspiration, the same group, a year
    ("Which methods are inspired by Hebbian learning?", None, None),
    ("Which papers by the same group use GNNs?", None, None),
    ("Plot the graph neural network papers by year", None, None),
])
def test_the_question_names_its_author(question: str, author: str | None,
                                       search: str | None) -> None:
    intent = read_intent(question)
    assert (intent.filters.author if intent.filters else None) == author
    if author:
        assert intent.search == search and intent.wants_list


def test_a_blank_or_nameless_author_option_is_none_or_one_line() -> None:
    assert explicit(None, None, "  ") is None
    assert explicit(None, None, "Ada  Lovelace") == Filters(author="Ada Lovelace")
    with pytest.raises(BadInputError, match="bad author filter '1999'"):
        explicit(None, None, "1999")


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
    # the filter reaches dense retrieval's Chroma ``where`` as well
    found = app.retrieve("wombat burrows", top_k=4, filters=Filters(author="Lovelace"))
    assert {f.paper.title for f in found} <= {"Burrow Engines", "Kernel Burrows",
                                              "Sonnets of Wombats"}
    assert "Compiled Koalas" not in {f.paper.title for f in found}


def test_an_author_no_paper_has_is_one_line_naming_the_nearest(lovelace_dir: Path) -> None:
    app = Assistant(make_settings(lovelace_dir))
    with pytest.raises(BadInputError, match="no indexed paper has an author named Ada "
                       "Lovelase; the nearest are Ada Lovelace"):
        answer_of(app, "Which papers are by Ada Lovelase?")
    result = run("ask", "--author", "Grace Hoper", "Which papers count koalas?",
                 "--data-dir", str(lovelace_dir))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "author named Grace Hoper; the nearest are Grace Hopper" in result.stderr
    listed = run("ask", "--author", "Hopper", "--json", "Which papers count koalas?",
                 "--data-dir", str(lovelace_dir))
    assert listed.returncode == 0, listed.stderr
    assert '"Compiled Koalas"' in listed.stdout and '"Burrow Engines"' not in listed.stdout
