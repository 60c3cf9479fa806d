"""Parsing the seed format, CSV and JSONL, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FILE_A, FILE_B, SEEDS, SHARED_DATA, skipif_no_shared_data

from assistant.corpus import derive_title, make_paper_id, read_file, read_paths
from assistant.left_out import REPEATS


@pytest.mark.parametrize("name", [FILE_A, FILE_B])
def test_each_seed_file_holds_19_abstracts_with_ordinals_and_titles(name: str) -> None:
    papers, skipped = read_file(SEEDS / name)
    assert skipped == []
    assert [p.source for p in papers] == [f"{name}#{n}" for n in range(1, 20)]
    assert all(p.title.strip() and len(p.title) < 120 for p in papers)
    assert not any(p.text.startswith("NeurIPS 2025 Papers") for p in papers)


def test_known_abstracts_get_their_method_names_as_titles() -> None:
    papers = {p.source: p for p in read_paths([SEEDS]).papers}
    assert papers[f"{FILE_A}#7"].title.startswith("TCCM")
    assert papers[f"{FILE_A}#6"].title.startswith("PoLAR")
    assert papers[f"{FILE_A}#3"].title.startswith("MuRating")
    assert papers[f"{FILE_B}#1"].title.startswith("CRAFT")
    assert "https://github.com/ZhongLIFR/TCCM-NIPS" in papers[f"{FILE_A}#7"].links


def test_title_falls_back_to_a_topic_phrase() -> None:
    title = derive_title("We study contextual online pricing with biased offline data. More follows.")
    assert title == "Contextual online pricing with biased offline data"


def test_paper_id_ignores_whitespace_and_position(tmp_path: Path) -> None:
    text = "An abstract about graphs.\nIt has two lines."
    assert make_paper_id(text) == make_paper_id("An  abstract about graphs. It has two lines.")
    (tmp_path / "one.txt").write_text(f"Header\n\nFirst abstract here.\n\n{text}\n")
    (tmp_path / "two.txt").write_text(f"{text}\n\nFirst abstract here.\n")
    one, _ = read_file(tmp_path / "one.txt")
    two, _ = read_file(tmp_path / "two.txt")
    assert {p.paper_id for p in one} == {p.paper_id for p in two}
    assert one[1].source == "one.txt#2" and two[0].source == "two.txt#1"


@pytest.mark.parametrize(("first", "header"), [
    ("NeurIPS 2025 Papers", {"venue": "NeurIPS", "year": 2025}),
    ("NeurIPS 2025 Papers.", {"venue": "NeurIPS", "year": 2025}),
    ("Accepted papers: ICML", {"venue": "ICML", "year": None}),
    ("My reading list", {"venue": "My reading list", "year": None}),
    ("Reading list: diffusion models and score matching for generative image synthesis",
     {"venue": "Reading list: diffusion models and score matching for generative image "
               "synthesis", "year": None}),
    ("Transactions on Machine Learning Research, Volume 3",
     {"venue": "Transactions on Machine Learning Research, Volume 3", "year": None}),
    ("We show that sparse attention matches dense attention on long documents at a tenth of "
     "its cost", None),
    ("Can sparse attention match dense attention on long documents?", None),
    # abstracts that name a year, a venue or papers: read as headers, they were lost and
    # gave every paper of the file their words as venue and year (review)
    ("We release a dataset of 2019 arXiv papers with human summaries", None),
    ("We study accepted papers at NeurIPS and find that code release predicts citations", None),
])
def test_a_short_first_abstract_is_not_taken_for_a_header(
        tmp_path: Path, first: str, header: dict | None) -> None:
    """A first paragraph read as a header is not stored: a short abstract written without a
    final period was lost that way."""
    path = tmp_path / "list.txt"
    path.write_text(f"{first}\n\nA second abstract about graphs.\n")
    papers, skipped = read_file(path)
    # a header naming no year or venue may be a short abstract: the reader is told
    notes = [f"list.txt:1: “{first}” was read as the file's header, not as an abstract; if "
             "it is one, end it with a period"] if first.startswith(("Reading", "Trans")) else []
    assert [str(s) for s in skipped] == notes
    if header is None:
        assert [p.text for p in papers] == [first, "A second abstract about graphs."]
        assert [p.source for p in papers] == ["list.txt#1", "list.txt#2"]
    else:
        assert [p.text for p in papers] == ["A second abstract about graphs."]
        assert {"venue": papers[0].venue, "year": papers[0].year} == header


@skipif_no_shared_data
def test_shared_neurips_csv_reads_as_is() -> None:
    papers, skipped = read_file(SHARED_DATA / "neurips_abstract_1987.csv")
    assert len(papers) > 50
    assert skipped == [] or all(s.line for s in skipped)
    first = papers[0]
    assert first.title and first.authors and first.links[0].startswith("https://")
    assert first.source == "neurips_abstract_1987.csv#1"


def test_jsonl_with_title_authors_link(tmp_path: Path) -> None:
    path = tmp_path / "extra.jsonl"
    rows = [{"title": "A Study", "authors": ["Ada", "Bob"], "link": "https://x.org/1",
             "abstract": "We study things."},
            {"title": "Another", "abstract": "We look at other things."}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    papers, skipped = read_file(path)
    assert skipped == []
    assert [p.title for p in papers] == ["A Study", "Another"]
    assert papers[0].authors == "Ada, Bob" and papers[0].links == ("https://x.org/1",)


@pytest.mark.parametrize(
    ("name", "content", "expected", "line"),
    [
        ("blob.txt", b"\x00\x01\x02binary\x00", "binary", None),
        ("empty.txt", b"", "no abstracts", None),
        ("header.txt", b"NeurIPS 2025 Papers\n", "no abstracts", None),
        ("header.csv", b"title,abstract\n", "no abstracts", None),
        ("notes.pdf", b"%PDF-1.4", "unsupported file type '.pdf'", None),
        ("no_abstract.csv", b"title,authors\nA,B\n", "no 'abstract' column", 1),
        ("broken.jsonl", b'{"abstract": "ok"}\n{not json}\n', "not valid JSON", 2),
    ],
)
def test_bad_input_names_the_file_and_problem(
    tmp_path: Path, name: str, content: bytes, expected: str, line: int | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    _, skipped = read_file(path)
    assert skipped, "a bad file must be reported"
    assert skipped[0].file == name
    assert expected in skipped[0].reason
    assert skipped[0].line == line
    assert name in str(skipped[0])


def test_a_line_that_is_not_utf8_is_read_as_windows_1252_and_the_rest_kept(tmp_path: Path) -> None:
    # a run: one Latin-1 row had skipped the whole CSV, its message naming only that row
    path = tmp_path / "mine.csv"
    rows = "title,abstract\n" + "".join(f"Paper {i},We study gait {i}.\n" for i in range(3))
    path.write_bytes(rows.encode() + "Caf\u00e9,We study caf\u00e9 fish.\n".encode("latin-1")
                     + "Na\u00efve,We study na\u00efve fish.\n".encode())
    papers, skipped = read_file(path)
    assert [p.title for p in papers] == ["Paper 0", "Paper 1", "Paper 2", "Caf\u00e9", "Na\u00efve"]
    assert [(s.line, s.stored, s.incomplete) for s in skipped] == [(5, True, False)]
    assert "line 5 read as Windows-1252, the rest as UTF-8" in skipped[0].reason
    # a line of both: its UTF-8 kept (a review: "Café résumé" had been "CafÃ© rÃ©sumÃ©")
    path.write_bytes(b"title,abstract\n" + "Caf\u00e9 r\u00e9sum\u00e9,We study na".encode()
                     + b"\xefve fish.\n")
    papers, _ = read_file(path)
    assert [(p.title, p.text) for p in papers] == [("Caf\u00e9 r\u00e9sum\u00e9",
                                                    "We study na\u00efve fish.")]


def test_a_semicolon_csv_is_read_and_a_year_that_is_none_said(tmp_path: Path) -> None:
    # a run: a spreadsheet's semicolon CSV was refused for "no 'abstract' column (found:
    # title;authors;year;abstract)", and years "3021" and "20xx" were dropped unsaid
    path = tmp_path / "mine.csv"
    path.write_text("title;year;abstract\nA;2019;We study a.\nB;3021;We study b.\n"
                    "C;20xx;We study c.\nD;;We study d.\n")
    papers, skipped = read_file(path)
    assert [(p.title, p.year) for p in papers] == [("A", 2019), ("B", None), ("C", None),
                                                   ("D", None)]
    assert [(s.line, s.stored) for s in skipped] == [(3, True), (4, True)]
    assert "gives the year “3021”, which is no year: stored with none" in skipped[0].reason
    # a run: "2099" had been stored, and "last year" then read as 2099; a long field is cut
    # with a mark ("two thousand ninetee" had been cut mid-word without one)
    path.write_text("title;year;abstract\nE;2099;We study e.\nF;two thousand nineteen;We study f.\n")
    papers, skipped = read_file(path)
    assert [(p.title, p.year) for p in papers] == [("E", None), ("F", None)]
    assert [s.reason.split(": ")[0] for s in skipped] == [
        "record #1 gives the year “2099”, which is still to come",
        "record #2 gives the year “two thousand nineteen”, which is no year"]
    # its quoting read with its own separator (a reread: Excel quotes a field holding ";",
    # and each such row had been skipped as quoted in mid-text)
    path.write_text('title;year;abstract\n"A";2019;"We study a; and b."\nB;2020;We study b.\n')
    papers, skipped = read_file(path)
    assert [(p.title, p.text) for p in papers] == [("A", "We study a; and b."), ("B", "We study b.")]
    assert skipped == []


def test_a_megabyte_paragraph_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("Header\n\nA normal abstract.\n\n" + "word " * 200_000 + "\n\nAnother one.\n")
    papers, skipped = read_file(path)
    assert [p.source for p in papers] == ["huge.txt#1", "huge.txt#3"]
    assert len(skipped) == 1 and skipped[0].line == 5 and "over the 20,000-character" in skipped[0].reason


def test_a_whole_paper_given_as_its_abstract_is_kept_by_its_opening(tmp_path: Path) -> None:
    """23 rows of the NeurIPS 2004 CSV hold the whole paper in the abstract field, over the
    limit: they were dropped, title and all ("Intrinsically Motivated Reinforcement
    Learning"). The field is kept up to its last sentence end within the limit, said once."""
    opening = "We study intrinsically motivated reinforcement learning. Agents build skills."
    body = " ".join(f"Section {n} of the paper goes on at length." for n in range(60))
    path = tmp_path / "nips.csv"
    path.write_text(f'title,abstract\nIntrinsic RL,"{opening} {body}"\nShort,A short one.\n')
    result = read_paths([path], max_chars=1_000)
    kept = result.papers[0]
    assert [p.title for p in result.papers] == ["Intrinsic RL", "Short"]
    assert kept.text.startswith(opening) and kept.text.endswith("at length.")
    assert 900 < len(kept.text) <= 1_000
    assert result.files[0].complete  # a note, not a record left unread
    (note,) = result.skipped
    assert note.stored and note.line == 2
    assert str(note) == (f"nips.csv:2: record #1 is {len(opening) + 1 + len(body):,} characters, "
                         f"over the 1,000-character limit for one abstract: kept its opening "
                         f"{len(kept.text):,} characters, cut at a sentence end; to keep it "
                         "whole raise ASSISTANT_INDEX_MAX_ABSTRACT_CHARS")


def test_bad_files_do_not_stop_good_ones(tmp_path: Path) -> None:
    (tmp_path / "bad.bin").write_bytes(b"\x00\x00")
    (tmp_path / "good.txt").write_text("Header\n\nA good abstract about kernels.\n")
    result = read_paths([tmp_path, tmp_path / "missing.txt"])
    assert [p.source for p in result.papers] == ["good.txt#1"]
    reasons = " | ".join(str(s) for s in result.skipped)
    assert "bad.bin" in reasons and "missing.txt: no such file" in reasons


@pytest.mark.parametrize(
    ("content", "read", "line", "expected"),
    [
        # An unclosed quote: the csv module alone reads lines 3–4 as one abstract.
        ('title,abstract\nA,one\nB,"two\nC,three\n', ["one"], 3,
         "the quote opened on line 3 is never closed, so lines 3–4 read as one field"),
        # A quote closed in mid-text (a later row's quote): rows 3–4 merged.
        ('title,abstract\nA,one\nB,"two\nC,three "x" y\nD,four\n', ["one", "four"], 3,
         "closes on line 4 in mid-text"),
        ("title,abstract\nA,one\nB,two, with a comma\nC,three\n", ["one", "three"], 3,
         "has 3 fields where the header has 2"),
    ],
)
def test_broken_csv_rows_are_skipped_by_line(tmp_path: Path, content: str, read: list[str],
                                             line: int, expected: str) -> None:
    path = tmp_path / "v.csv"
    path.write_text(content)
    papers, skipped = read_file(path)
    assert [p.text for p in papers] == read
    assert [(s.line, s.incomplete) for s in skipped] == [(line, True)]
    assert expected in skipped[0].reason


def test_valid_quoting_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text('title,abstract\nA,"multi\nline, with comma"\nB,"say ""hi"""\n\nC,three\n')
    papers, skipped = read_file(path)
    assert skipped == []
    assert [p.text for p in papers] == ["multi line, with comma", 'say "hi"', "three"]


@skipif_no_shared_data
def test_real_csvs_raise_no_quoting_or_field_count_alarm() -> None:
    result = read_paths(sorted(SHARED_DATA.glob("*.csv")))
    assert len(result.papers) > 13_000
    assert not [s for s in result.skipped if "quote" in s.reason or "fields where" in s.reason]


def test_files_are_known_by_path_and_uploads_by_name(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.txt").write_text(f"Header\n\nAn abstract from folder {folder}.\n")
    result = read_paths([tmp_path / "a" / "x.txt", tmp_path / "b" / "x.txt", tmp_path / "a"])
    assert [f.key for f in result.files] == [str((tmp_path / d / "x.txt").resolve()) for d in "ab"]
    assert [p.source for p in result.papers] == ["x.txt#1", "x.txt#1"]  # the locator stays
    assert all(p.file_key == f.key for f in result.files for p in f.papers)
    uploaded = read_paths([tmp_path / "a" / "x.txt", tmp_path / "b" / "x.txt"], upload=True)
    assert [f.key for f in uploaded.files] == ["upload:x.txt"]
    assert "same upload" in str(uploaded.skipped[0])


def test_repeats_make_one_line_and_leave_the_file_complete(tmp_path: Path) -> None:
    path = tmp_path / "same.txt"
    path.write_text("Header\n\n" + "\n\n".join(["One abstract.", "Two abstract."] * 4) + "\n")
    result = read_paths([path])
    assert [p.source for p in result.papers] == ["same.txt#1", "same.txt#2"]
    assert [str(s) for s in result.skipped] == [
        "same.txt: 6 repeats of abstracts already read (#3, #4, #5, …); kept once"]
    assert result.files[0].complete and result.skipped[0].count == 6


def test_a_placeholder_that_other_titles_share_is_no_abstract(tmp_path: Path) -> None:
    """"Abstract Unavailable" under 55 titles of the NeurIPS 1987-2021 CSVs had been stored
    as one paper and the rest called its repeats. A real abstract under two titles (a paper
    listed twice) is still kept once."""
    real = "We propose kernel sums over graphs and prove that they converge in ten steps."
    path = tmp_path / "old.csv"
    path.write_text("title,abstract\n"
                    "Optical Networks,Abstract Unavailable\n"
                    f"Kernel Sums,{real}\n"
                    "Self-Organising Maps,Abstract Unavailable\n"
                    f"Kernel Sums (extended),{real}\n")
    result = read_paths([path])
    assert [p.title for p in result.papers] == ["Kernel Sums"]
    assert [str(s) for s in result.skipped] == [
        "old.csv: 2 records (#1, #3) have no abstract, only a placeholder (“Abstract "
        "Unavailable”); not stored, and answers say so: give them their abstracts",
        "old.csv: abstract #4 repeats an abstract already read; kept once"]
    assert result.files[0].complete and result.files[0].ids == {result.papers[0].paper_id}
    assert [r.title for r in result.files[0].left_out] == ["Optical Networks",
                                                           "Self-Organising Maps",
                                                           "Kernel Sums (extended)"]
    # a repeat under another title is named, with the paper it repeats (it had been missing
    # from every count and receipt without a word)
    repeat = result.files[0].left_out[-1]
    assert (repeat.reason, repeat.same_as) == (REPEATS, "“Kernel Sums” (old.csv#2)")
    assert repeat.said() == ("“Kernel Sums (extended)” (old.csv#4; its abstract is that of "
                             "“Kernel Sums” (old.csv#2))")


def test_one_abstract_under_two_titles_is_kept_under_the_title_it_fits(tmp_path: Path) -> None:
    """21 records of the NeurIPS CSVs give another record's abstract; the first had always
    been kept, and "Which papers use hyperspectral data?" had cited "Invariant Feature
    Extraction…" for the abstract of "Unmixing Hyperspectral Data". The title whose words
    the abstract writes more of keeps it; the other is left out, naming it."""
    text = "We unmix hyperspectral data into endmember spectra with a sparse prior."
    path = tmp_path / "pairs.csv"
    path.write_text(f"title,abstract\nInvariant Feature Extraction,{text}\n"
                    f"Unmixing Hyperspectral Data,{text}\n")
    result = read_paths([path])
    assert [(p.title, p.source) for p in result.papers] == [("Unmixing Hyperspectral Data",
                                                             "pairs.csv#2")]
    (left,) = result.files[0].left_out
    assert (left.title, left.same_as) == ("Invariant Feature Extraction",
                                          "“Unmixing Hyperspectral Data” (pairs.csv#2)")
    assert result.files[0].locators == {result.papers[0].paper_id: "pairs.csv#2"}


def test_a_text_saying_only_that_there_is_no_abstract_is_none_under_one_title(
        tmp_path: Path) -> None:
    """The 1990 NeurIPS CSV has one "Abstract Unavailable" row: read alone, it was stored as
    the abstract of "Relaxation Networks…". A short text under one title that says something
    else ("of", an author's name: scraps of those CSVs) stays as it is."""
    alone = tmp_path / "alone.csv"
    alone.write_text("title,authors,year,abstract\n"
                     "Optical Networks,Joshua Alspector,1990,Abstract Unavailable\n"
                     "Scraps,Volker Tresp,1990,Volker Tresp\n"
                     "Headings,Ann Smith,1991,Abstract\n")
    result = read_paths([alone])
    assert [p.text for p in result.papers] == ["Volker Tresp", "Abstract"]
    (left,) = result.files[0].left_out
    assert (left.title, left.authors, left.year, left.source) == (
        "Optical Networks", "Joshua Alspector", 1990, "alone.csv#1")
    assert result.files[0].complete


def test_pdf_soft_hyphens_are_joined(tmp_path: Path) -> None:
    path = tmp_path / "old.csv"
    path.write_text('title,abstract\nLRAAM,"It can encode la(cid:173) beled graphs and '
                    'trans(cid:173)forms."\n')
    papers, _ = read_file(path)
    assert papers[0].text == "It can encode labeled graphs and transforms."


@pytest.mark.parametrize(("newline", "encoding"), [("\r\n", "utf-8"), ("\r", "utf-8"),
                                                   ("\r\n", "utf-16"), ("\n", "utf-32")])
def test_a_seed_file_saved_on_windows_reads_the_same(tmp_path: Path, newline: str,
                                                     encoding: str) -> None:
    """CRLF paragraphs were one paper, header included (or a file over the size limit), and
    UTF-16 with its byte-order mark was "a binary file" (review)."""
    text = (SEEDS / FILE_A).read_text(encoding="utf-8")
    path = tmp_path / "windows.txt"
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    papers, skipped = read_file(path)
    expected, _ = read_file(SEEDS / FILE_A)
    assert not skipped
    assert [(p.title, p.text, p.venue, p.year) for p in papers] == [
        (p.title, p.text, p.venue, p.year) for p in expected]


def test_a_jsonl_record_that_is_no_text_is_skipped_by_line(tmp_path: Path) -> None:
    """A title that is an object was stored as "{'a': 1}", and a line of 100,000 nested
    brackets stopped the whole ingest with a RecursionError (review)."""
    path = tmp_path / "odd.jsonl"
    path.write_text("\n".join([
        json.dumps({"title": {"a": 1}, "abstract": "We study kernels on graphs."}),
        json.dumps({"title": "Ok", "abstract": [{"x": 1}]}),
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"title": "Kernel Sums", "authors": ["A. One", "B. Two"],
                    "abstract": "We sum kernels over graphs."}),
        json.dumps({"title": "Graph Sums", "authors": [{"name": "C. Three", "id": 7}, None],
                    "abstract": "We sum graphs over kernels."}),  # Semantic Scholar's authors
        json.dumps({"title": [["Nested"]], "abstract": "We nest lists."}),
        # a run: one author as an object was stored as none, without a word
        json.dumps({"title": "Vic's Sums", "authors": {"name": "Vic W"}, "abstract": "We sum."}),
        json.dumps({"title": "Odd Year", "year": {"y": 2019}, "abstract": "We sum years."}),
        json.dumps({"title": "Empty", "authors": {"id": 3}, "abstract": ""}),  # one note: empty
    ]) + "\n")
    papers, skipped = read_file(path)
    assert [(p.title, p.authors) for p in papers] == [
        ("Kernel Sums", "A. One, B. Two"), ("Graph Sums", "C. Three"), ("Vic's Sums", "Vic W"),
        ("Odd Year", "")]
    assert [(s.line, s.reason.split(";")[0]) for s in skipped] == [
        (1, "record #1: its 'title' is not text"),
        (2, "record #2: its 'abstract' is not text"),
        (3, "record #3 is nested too deeply to be an abstract's record"),
        (6, "record #6: its 'title' is not text"),
        (8, "record #8: its 'year' is not text, so it is stored without it"),
        (9, "record #9 has an empty abstract")]
    assert skipped[-2].stored and not skipped[-2].incomplete


def test_what_a_folder_holds_besides_files_is_named(tmp_path: Path) -> None:
    """Sub-folders and broken links in a folder were passed over without a word (review)."""
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "more.jsonl").write_text('{"abstract": "We sum kernels."}\n')
    (tmp_path / "gone.csv").symlink_to(tmp_path / "nowhere.csv")
    (tmp_path / "a.jsonl").write_text('{"title": "Kernel Sums", "abstract": "We sum kernels."}\n')
    read = read_paths([tmp_path])
    assert [p.title for p in read.papers] == ["Kernel Sums"]
    assert sorted((Path(s.file).name, s.reason.split(":")[0]) for s in read.skipped) == [
        ("gone.csv", "is not a regular file (a broken link, a pipe or a device)"),
        ("inner", "is a folder inside a folder")]


def test_a_stray_cr_or_line_separator_is_text_not_a_line_end(tmp_path: Path) -> None:
    """A lone CR inside an LF file's abstract, and U+2028 inside a JSON string, split records
    and shifted the line numbers of later errors (re-read)."""
    seed = tmp_path / "stray.txt"
    seed.write_bytes(b"Header\n\nWe study\r\rsparse kernels.\n\nWe sum graphs.\n")
    papers, _ = read_file(seed)
    assert len(papers) == 2
    mac = tmp_path / "mac.txt"  # an old Mac file with one stray LF is still read by its CRs
    mac.write_bytes(b"Header 2020\r\rWe study sparse kernels.\n\rWe sum graphs.\r")
    papers, _ = read_file(mac)
    assert [p.year for p in papers] == [2020, 2020]
    jsonl = tmp_path / "sep.jsonl"
    jsonl.write_text(json.dumps({"title": "A", "abstract": "We sum\u2028kernels."},
                                ensure_ascii=False) + "\n{bad\n")
    papers, skipped = read_file(jsonl)
    assert len(papers) == 1 and [s.line for s in skipped] == [2]


def test_many_skipped_records_of_a_file_are_listed_five_then_counted(tmp_path: Path) -> None:
    from assistant.corpus import skip_lines

    path = tmp_path / "broken.jsonl"
    path.write_text("{bad\n" * 5_000 + json.dumps({"abstract": "We sum kernels."}) + "\n")
    read = read_paths([path])
    assert len(read.papers) == 1 and len(read.skipped) == 5_000
    lines = skip_lines(read.skipped)
    assert len(lines) == 6 and lines[0].startswith("broken.jsonl:1: record #1 is not valid JSON")
    assert lines[-1] == "broken.jsonl: 4,995 more records skipped (the first 5 are listed)"
