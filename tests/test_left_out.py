"""Records of the store's files with no abstract (left_out.py): kept beside the store, named
in an author's list and counted in every receipt, never silently lost."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import make_settings
from test_authors import PAPERS, answer_of

from assistant.errors import BadInputError
from assistant.left_out import LeftOut
from assistant.paper import Paper
from assistant.pipeline import Assistant
from assistant.references import receipt_line
from assistant.refusal_text import by_and_titled
from assistant.types import Filters


def write_papers(path: Path, stored: int, extra: Sequence[tuple[str, str, str, str]]) -> None:
    """A CSV of the first ``stored`` PAPERS (of 1990), then the ``extra`` rows (authors,
    title, year, abstract)."""
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["authors", "title", "year", "abstract"])
        writer.writerows((a, t, "1990", x) for a, t, x in PAPERS[:stored])
        writer.writerows(extra)

def test_an_authors_records_with_no_abstract_are_named_not_lost(fresh_copy: Path,
                                                                 tmp_path: Path) -> None:
    """"How many papers did Joshua Alspector publish?" said 4 where the NeurIPS CSVs hold 6:
    two of his rows say only "Abstract Unavailable", are no paper, and nothing said so. Such
    records are kept beside the store; the author's list names them and every receipt
    counts those its filter allows. Given their abstracts, they are papers and leave it."""
    path = tmp_path / "in" / "papers.csv"
    path.parent.mkdir()

    write_papers(path, 3, [("Ada Lovelace", "Optical Wombats", "1988", "Abstract Unavailable"),
                           ("Grace Hopper", "Koala Codes", "1989", "Abstract Unavailable")])
    app = Assistant(make_settings(fresh_copy))
    report = app.ingest([path])
    assert report.added == 3
    assert app.index.left_out() and len(app.index.left_out()) == 2
    answer = answer_of(app, "How many papers did Ada Lovelace publish?")
    assert sorted(c.title for c in answer.citations) == ["Burrow Engines", "Kernel Burrows"]
    assert ("1 more record of the store's files has no abstract and so is not stored: "
            "“Optical Wombats” (1988, papers.csv#4).") in answer.answer
    assert answer.receipt is not None and answer.receipt.left_out == 1
    assert receipt_line(answer.receipt).endswith("· 1 record of its files not stored: no abstract")
    cited = answer_of(app, "What do wombat burrows need?")  # every answer's receipt says so
    assert cited.receipt is not None and cited.receipt.left_out == 2
    trend = app.trends("wombat burrows", Filters(years=(1989, 1990)))
    assert trend.receipt().left_out == 1
    write_papers(path, 3, [("Ada Lovelace", "Optical Wombats", "1988",
                            "We shine light on wombats in burrows."),
                           ("Grace Hopper", "Koala Codes", "1989", "Abstract Unavailable")])
    assert Assistant(make_settings(fresh_copy)).ingest([path]).added == 1
    again = Assistant(make_settings(fresh_copy))
    assert [r.title for r in again.index.left_out()] == ["Koala Codes"]
    assert "no abstract" not in answer_of(again, "How many papers did Ada Lovelace publish?").answer


def test_a_trends_json_has_the_receipt_an_asked_trend_has(fresh_copy: Path,
                                                          tmp_path: Path) -> None:
    """`trends --json` and `/topic_trends` gave papers_in_store, papers_in_filter and
    screened, and no count of the records without abstracts nor of the papers cited, where
    a trend asked through `ask --json` has receipt.{in_store, in_filter, read, cited,
    left_out}: now both have that receipt, and a comparison of two topics counts left_out
    too."""
    path = tmp_path / "papers.csv"
    write_papers(path, 2, [("Grace Hopper", "Koala Codes", "1989", "Abstract Unavailable")])
    app = Assistant(make_settings(fresh_copy))
    app.ingest([path])
    figures = app.trends("wombat burrows").public_json()
    asked = answer_of(app, "How has interest in wombat burrows grown?")
    assert asked.receipt is not None and asked.receipt.counted == figures["paper_ids"]
    assert figures["receipt"] == asked.receipt.model_dump()
    receipt = figures["receipt"]
    assert (receipt["in_store"], receipt["left_out"]) == (40, 1)
    assert receipt["cited"] == receipt["matching"] == figures["total"] >= 2
    assert "papers_in_store" not in figures  # the receipt's in_store; no document named it
    compared = answer_of(app, "Are there more papers on wombat burrows or on koalas?")
    assert compared.receipt is not None and compared.receipt.left_out == 1


def test_a_record_repeating_another_records_abstract_is_named_not_lost(
        fresh_copy: Path, tmp_path: Path) -> None:
    """21 records of the NeurIPS 1987-2021 CSVs give another record's abstract under a
    title of their own: the store keeps the abstract once, as the first record's paper,
    and the second title had been missing from every count, list and receipt without a
    word. It is now a record left out, naming the paper whose abstract it gives."""
    path = tmp_path / "papers.csv"
    (author, title, abstract) = PAPERS[0]
    write_papers(path, 3, [("Grace Hopper", "Wombat Doubles", "1991", abstract),
                           ("Grace Hopper", "Koala Codes", "1989", "Abstract Unavailable"),
                           (author, title, "1990", abstract),  # the same paper again: no record
                           ("Ada Byron", "Byron Doubles", "1992", PAPERS[1][2])])
    app = Assistant(make_settings(fresh_copy))
    assert app.ingest([path]).added == 3
    answer = answer_of(app, "How many papers did Grace Hopper publish?")
    assert ("2 more records of the store's files are not stored (1 no abstract, 1 another "
            "record's abstract): “Wombat Doubles” (1991, papers.csv#4; its abstract is that "
            f"of “{title}” (papers.csv#1)), “Koala Codes” (1989, papers.csv#5).") in answer.answer
    assert answer.receipt is not None
    assert (answer.receipt.left_out, answer.receipt.left_out_repeats) == (2, 1)
    assert receipt_line(answer.receipt).endswith(
        "· 2 records of its files not stored: 1 no abstract, 1 another record's abstract")
    store = answer_of(app, "How many papers are in the store?")
    assert "3 records of its files were not stored: 1 no abstract, 2 another record's " \
           "abstract." in store.answer
    # an author named only by records not stored is no unknown name (a run: "papers by
    # Hilary Tunley" had been "no indexed paper has an author named…")
    with pytest.raises(BadInputError, match="Byron: the store's files name them only in "
                                            "records not stored .another record's abstract.: "
                                            "“Byron Doubles” .1992, papers.csv#7"):
        answer_of(app, "How many papers did Ada Byron publish?")
    # a record not stored named by its title: the "no" says why (a run: a bare "no")
    asked = app.ask("Who wrote Wombat Doubles?")
    assert asked.refusal is not None and (
        f"“Wombat Doubles” (1991, papers.csv#4; its abstract is that of “{title}” (papers.csv#1))"
        " is a record of the store's files not stored: another record's abstract.") in asked.answer
    for asked_of in ("Summarize Wombat Doubles", "What year was Wombat Doubles published?"):
        assert "“Wombat Doubles” (1991" in app.ask(asked_of).answer, asked_of  # a third review
    # a question of a topic that writes the title is none of the record's (a second review)
    for topic in ("What are Wombat Doubles Networks?", "Which papers compare Wombat Doubles "
                                                       "with koala codes and emu routes?"):
        assert "Wombat Doubles” (1991" not in app.ask(topic).answer, topic


def test_a_record_with_a_title_and_an_empty_abstract_is_counted(fresh_copy: Path,
                                                                tmp_path: Path) -> None:
    """A run: a CSV row with a title and an empty abstract was skipped at ingest, and no
    receipt ever counted it (left-out.json stayed empty); it is kept beside the store as a
    placeholder's record is. One with no title either is nothing to name."""
    path = tmp_path / "papers.csv"
    write_papers(path, 3, [("Grace Hopper", "Koala Codes", "1989", ""),
                           ("Grace Hopper", "", "1989", "")])
    app = Assistant(make_settings(fresh_copy))
    app.ingest([path])
    assert [(r.title, r.authors, r.year, r.source) for r in app.index.left_out()] == [
        ("Koala Codes", "Grace Hopper", 1989, "papers.csv#4")]
    answer = answer_of(app, "How many papers did Grace Hopper publish?")
    assert "“Koala Codes” (1989, papers.csv#4)" in answer.answer


def test_a_record_that_could_not_be_read_is_counted_and_named(fresh_copy: Path,
                                                              tmp_path: Path) -> None:
    """A run: a CSV row with more fields than the header and a JSONL line that is no JSON
    were named once by the ingest, then missing from every receipt ("2 records… not stored:
    no abstract"). Each is kept beside the store, by its place and problem."""
    path = tmp_path / "papers.csv"
    write_papers(path, 3, [("Grace Hopper", "Koala Codes", "1989", ""),
                           ("Ada", "Dingo Dens", "1991", "dens", "EXTRA")])  # type: ignore[list-item]
    lines = tmp_path / "more.jsonl"
    lines.write_text('{"title": "Numbats", "abstract": "Numbats eat termites."}\nnot json{\n')
    app = Assistant(make_settings(fresh_copy))
    app.ingest([path, lines])
    unread = [r for r in app.index.left_out() if r.reason == "unreadable"]
    assert sorted(r.source for r in unread) == ["more.jsonl#2", "papers.csv#5"]
    assert "has 5 fields where the header has 4" in next(
        r.said() for r in unread if r.source == "papers.csv#5")
    answer = answer_of(app, "How many papers are in the store?")
    assert "3 records of its files were not stored: 1 no abstract, 2 unreadable" in answer.answer
    assert receipt_line(answer.receipt).endswith("not stored: 1 no abstract, 2 unreadable")
    again = Assistant(make_settings(fresh_copy))  # kept beside the store
    assert len([r for r in again.index.left_out() if r.reason == "unreadable"]) == 2


def test_a_record_asked_of_by_its_authors_and_title_words_is_named(fresh_copy: Path,
                                                                  tmp_path: Path) -> None:
    """R10: "What did Drucker and Cortes find about boosting decision trees?" was a bare "no"
    (no stored paper is by both), and "What did Harris Drucker write about boosting?" listed
    his one stored paper: neither named their record "Boosting Decision Trees", whose
    abstract is another record's. A record whose authors the question names (or whose
    author the filter is) and whose title holds its other words is named, and so is one on
    a list's topic whose title writes the topic."""
    path = tmp_path / "papers.csv"
    write_papers(path, 4, [("Grace Hopper, Charles Babbage", "Wombat Doubles", "1991", PAPERS[0][2])])
    app = Assistant(make_settings(fresh_copy))
    assert app.ingest([path]).added == 4
    record = ("“Wombat Doubles” (1991, papers.csv#5; its abstract is that of “Burrow Engines” "
              "(papers.csv#1))")
    both = answer_of(app, "What did Hopper and Babbage find about wombat doubles?")
    assert f"{record} is a record of the store's files not stored: another record's abstract." in both.answer
    # the names no abstract writes are stored authors': the refusal says whose (it had read
    # as if the store knew no such author)
    assert ("“Babbage” is a stored author's name: Charles Babbage (1 paper); “Which papers by "
            "Babbage …?” lists theirs.") in both.answer
    listed = answer_of(app, "Which papers by Grace Hopper are about wombat doubles?")
    assert ("1 more record of the store's files whose title names the topic is not stored "
            f"(another record's abstract): {record}.") in listed.answer
    for other in ("What did Ada Lovelace find about wombat doubles?",  # not an author of it
                  "What did Hopper and Babbage find about koalas?",  # nor its title's words
                  # C63: a given name ("What did John Smith find…" had named John Bridle's)
                  "What did Charles find about wombat doubles?",
                  "Which papers by Grace Hopper are about koalas?"):
        assert "Wombat Doubles” (1991" not in answer_of(app, other).answer, other


def test_a_record_is_named_by_title_words_no_stored_title_of_theirs_holds() -> None:
    """C63, C65: "What did Wang find about neural networks?" and "What did Koch find about
    motion?" had named a record of a Wang's and of Koch's though their stored papers are
    titled with those words and answer it; a mend weighing the words' shares alone no longer
    named Baldi's "Linear Learning: Landscapes and Algorithms" for "What did Baldi find about
    linear learning?" (C64)."""
    wang = LeftOut("a.csv#1", "Recurrent Neural Networks", "Xin Wang")
    baldi = LeftOut("a.csv#2", "Linear Learning: Landscapes and Algorithms", "Pierre Baldi")
    papers = {pid: Paper(paper_id=pid, source=f"b.csv#{n}", title=title, text="", authors=authors)
              for n, (pid, title, authors) in enumerate([
                  ("w", "Deep Neural Networks for Vision", "Xin Wang"),
                  ("b", "Neural Networks and PCA", "Pierre Baldi"),
                  ("a", "Linear Learning in Trees", "Ann Baldi")])}  # another Baldi's: not his (C66)

    def stored(names: list[str]) -> list[str]:  # as unstored reads them: the author filter's papers
        return [paper.title for paper in papers.values() if Filters(author=" or ".join(names)).allows(paper)]

    assert not by_and_titled(wang, {"wang", "neural", "network"}, stored, False)
    assert by_and_titled(baldi, {"baldi", "linear", "learn"}, stored, False)
    assert not by_and_titled(baldi, {"linear", "learn"}, stored, False)  # no name asked
