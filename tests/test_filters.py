"""Year and venue filters: the parser, retrieval that filters before ranking, the CLI, the
API, and the 1987–2021 CSVs as they are."""

from __future__ import annotations

import csv
import html
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import SHARED_DATA, make_settings, skipif_no_shared_data
from gradio_client import Client
from test_cli import run
from test_ui import ARTIFACTS, CHROMIUM, Server, start_server, stop, text_of

from assistant.answering import final_answer
from assistant.errors import BadInputError
from assistant.filters import explicit, merge, no_paper_of, parse_years, top_k_of
from assistant.intent import read_intent
from assistant.pipeline import Assistant
from assistant.types import OPEN_END, OPEN_START, Filters

QUESTION = "How do wombat burrows regulate temperature?"
# (year, venue, title, abstract): one topic over several years, a venue of their own, a
# paper of unknown year, and one off-topic paper.
PAPERS = [
    ("2020", "Wombat Workshop", "Burrow Climate",
     "We measure wombat burrow thermodynamics: wombat burrows regulate temperature and "
     "humidity across seasons, and burrow temperature stays stable while the surface swings."),
    ("2020", "Wombat Workshop", "Burrows as Heat Buffers",
     "Wombat burrows regulate temperature: we model how a wombat burrow buffers heat, keeping "
     "burrow temperature within a few degrees of the soil temperature."),
    ("2021", "Wombat Workshop", "Seasonal Burrow Temperature",
     "Across two winters and summers, wombat burrow temperature was logged hourly: wombat "
     "burrows regulate temperature better than rabbit warrens."),
    ("2012", "Wombat Workshop", "Early Burrow Sensors",
     "A low-cost sensor network logs soil readings in wombat burrows, from which we estimate "
     "the temperature at depth."),
    ("2016", "Koala Symposium", "Eucalyptus Digestion",
     "Koalas digest eucalyptus leaves with the help of gut microbes that break down tannins."),
    ("", "Wombat Workshop", "Undated Burrow Notes",
     "Field notes on wombat burrows and the temperature inside them, year unknown."),
]


def write_csv(path: Path) -> Path:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["year", "venue", "title", "abstract"])
        writer.writerows(PAPERS)
    return path


@pytest.fixture(scope="module")
def wombat_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds (NeurIPS 2025) plus the wombat CSV, in a data directory of this module."""
    data = tmp_path_factory.mktemp("filters") / "data"
    shutil.copytree(seed_dir, data)
    csv_path = write_csv(tmp_path_factory.mktemp("csv") / "wombats.csv")
    report = Assistant(make_settings(data)).ingest([csv_path])
    assert report.added == len(PAPERS)
    return data


@pytest.fixture(scope="module")
def wombats(wombat_dir: Path) -> Assistant:
    return Assistant(make_settings(wombat_dir))


# ---------------------------------------------------------------- the parser


def test_year_options_and_bad_values() -> None:
    assert parse_years("2019") == (2019, 2019)
    assert parse_years("2019-2021") == parse_years("2019–2021") == (2019, 2021)
    assert parse_years("2019-") == (2019, OPEN_END)
    assert parse_years("-2000") == (OPEN_START, 2000)
    for bad in ("abc", "19", "2019-20", "2021-2019", "-", "2019 2021"):
        with pytest.raises(BadInputError, match="bad year filter"):
            parse_years(bad)
    assert explicit("", "") is None
    assert explicit(None, "nips") == Filters(venue="NeurIPS")
    # years named one by one: those alone, not the range between them
    assert explicit("2019, 2021") == Filters((2019, 2021), named_years=frozenset({2019, 2021}))
    assert explicit("2019,2021").describe() == "years 2019 and 2021"  # type: ignore[union-attr]
    with pytest.raises(BadInputError, match="2019,2021"):
        explicit("2019,21")
    assert Filters((2019, 2021), "NeurIPS").describe() == "years 2019–2021, venue NeurIPS"
    assert Filters((2019, OPEN_END)).describe() == "years 2019 on"
    assert Filters((OPEN_START, 1999)).describe() == "years up to 1999"


def test_explicit_filters_and_the_questions_own_both_apply() -> None:
    """`ask --year 2019 "Which GAN papers were published since 2020?"` had answered with
    2019's papers, the question's range dropped without a word: both apply, and two that
    no paper can pass together are one line naming both and the fix."""
    said = read_intent("What is new in NeurIPS 2025?", ["NeurIPS"]).filters
    assert merge(Filters(years=(2019, 2026)), said) == Filters((2025, 2025), "NeurIPS")
    assert merge(Filters(years=(2015, 2021)), Filters(years=(2019, OPEN_END))) == Filters((2019, 2021))
    since = read_intent("Which GAN papers were published since 2020?").filters
    with pytest.raises(BadInputError, match=r"^the filter given \(year 2019\) and the question's "
                                            r"own \(years 2020 on\) leave no year in common; "
                                            "leave one of them out or make them meet$"):
        merge(Filters(years=(2019, 2019)), since)
    with pytest.raises(BadInputError, match=r"\(venue ICML\).*\(venue NeurIPS\) leave no paper"):
        merge(Filters(venue="ICML"), said)
    assert merge(Filters(venue="neurips"), said) == Filters((2025, 2025), "neurips")
    # one name holding the other's words is one person; two people: papers by both
    assert merge(Filters(author="Bengio"), Filters(author="Yoshua Bengio")) == Filters(
        author="Yoshua Bengio")
    assert merge(Filters(author="Hinton"), Filters(author="Yann LeCun")) == Filters(
        author="Hinton and Yann LeCun")
    assert merge(None, said) == said and merge(None, None) is None


# ---------------------------------------------------------------- retrieval


@pytest.mark.parametrize(("value", "expected"), [(5, 5), ("7", 7), (3.0, 3), (50, 50)])
def test_an_api_top_k_is_a_whole_number_in_range(value: object, expected: int) -> None:
    assert top_k_of(value) == expected


@pytest.mark.parametrize("value", [0, 51, 500, 2.5, "abc", None, float("nan"), float("inf")])
def test_an_api_top_k_out_of_range_is_refused_not_clamped(value: object) -> None:
    with pytest.raises(BadInputError, match="top_k must be a whole number from 1 to 50"):
        top_k_of(value)


def test_filters_apply_before_the_top_k(wombats: Assistant) -> None:
    """The 2012 paper is not first unfiltered, so a filter applied to the top 1 would leave
    nothing; applied before ranking it is the answer."""
    unfiltered = wombats.retrieve(QUESTION, top_k=1)
    assert unfiltered and unfiltered[0].paper.year != 2012
    found = wombats.retrieve(QUESTION, top_k=1, filters=Filters(years=(2010, 2013)))
    assert [r.paper.title for r in found] == ["Early Burrow Sensors"]


def test_a_range_that_excludes_the_relevant_papers_finds_none_of_them(wombats: Assistant) -> None:
    found = wombats.retrieve(QUESTION, top_k=10, filters=Filters(years=(2013, 2019)))
    assert all(r.paper.year is not None and 2013 <= r.paper.year <= 2019 for r in found)
    assert not any("wombat" in r.paper.text.lower() for r in found)
    answer = wombats.ask(QUESTION, filters=Filters(years=(2013, 2019)))
    assert not answer.citations and answer.filters == "years 2013–2019"
    assert "Searched only the 1 papers of years 2013–2019" in answer.answer


def test_a_venue_filter_keeps_undated_papers_and_a_year_filter_does_not(wombats: Assistant) -> None:
    by_venue = wombats.retrieve(QUESTION, top_k=10, filters=Filters(venue="wombat workshop"))
    titles = {r.paper.title for r in by_venue}
    assert "Undated Burrow Notes" in titles
    assert {r.paper.venue for r in by_venue} == {"Wombat Workshop"}
    by_year = wombats.retrieve(QUESTION, top_k=10, filters=Filters(years=(1900, 2100)))
    assert by_year and "Undated Burrow Notes" not in {r.paper.title for r in by_year}


def test_the_question_sets_the_filter_and_the_answer_names_it(wombats: Assistant) -> None:
    answer = wombats.ask("How did wombat burrows regulate temperature in 2012?")
    assert answer.filters == "year 2012"
    assert [s.year for s in answer.sources] == [2012] and answer.citations
    with pytest.raises(BadInputError, match=r"\(year 2021\) and the question's own \(year "
                                            "2012\\) leave no year in common"):
        wombats.ask("How did wombat burrows regulate temperature in 2012?",
                    filters=Filters(years=(2021, 2021)))
    both = wombats.ask("How did wombat burrows regulate temperature since 2020?",
                       filters=Filters(years=(2012, 2020)))
    assert both.filters == "year 2020" and {s.year for s in both.sources} == {2020}
    with pytest.raises(BadInputError, match="no indexed paper is of years 2030–2031; widen the "
                                            "range or leave it out \\(the store's papers are of "
                                            "2012–2025\\)$"):
        wombats.ask(QUESTION, filters=Filters(years=(2030, 2031)))
    with pytest.raises(BadInputError, match="venues are Koala Symposium, NeurIPS, Wombat Workshop: choose"):
        wombats.ask(QUESTION, filters=Filters(venue="ICML"))
    assert wombats.ask(QUESTION).filters is None


def test_years_asked_in_other_words_filter_as_asked(wombats: Assistant) -> None:
    """"in 2020 or 2021" had filtered to 2020, "after 2016 and before 2021" to 2017 on, and
    "in the last two years" been searched as topic words; the last years are the store's
    newest (2025, the seeds'), and the filter line says so."""
    either = wombats.list_papers("Which papers on wombat burrows were published in 2020 or 2021?")
    assert either.filters == Filters(years=(2020, 2021))
    assert {p.paper.year for p in either.papers} == {2020, 2021}
    closed = wombats.list_papers("Which papers on wombat burrows appeared after 2016 and "
                                 "before 2021?")
    assert closed.filters == Filters(years=(2017, 2020))
    assert {p.paper.year for p in closed.papers} == {2020}
    last = wombats.ask("How do wombat burrows regulate temperature in the last two years?")
    assert last.filters == ("years 2024–2025 — the last 2 years, as the newest stored papers "
                            "are of 2025")


def test_a_question_about_the_store_answers_its_counts(wombats: Assistant) -> None:
    """"How many papers are in the store?" had listed the papers that write "store": it is
    the store's own count, years and venues, as its receipt counts them."""
    stored = len(wombats.index.papers())
    answer = final_answer(wombats.answer_stream("How many papers are in the store?"))
    assert answer.answer.startswith(f"The store holds {stored:,} papers, of 2012–2025 (1 of "
                                    "no year), from 3 venues: NeurIPS (")
    assert "Wombat Workshop (5), Koala Symposium (1)." in answer.answer
    assert answer.receipt is not None and answer.receipt.in_store == stored
    assert not answer.citations
    of_2020 = final_answer(wombats.answer_stream("How many papers from 2020 are in the "
                                                 "collection?"))
    assert of_2020.answer == (f"2 of the store's {stored:,} papers are of year 2020, from 1 "
                              "venue: Wombat Workshop (2).")
    assert of_2020.filters == "year 2020"


def test_a_venue_no_paper_has_is_named_as_the_fault_whatever_range_goes_with_it(
        wombats: Assistant) -> None:
    """A hostile researcher's "Which papers from ICML 2020 use capsule networks?" had been
    told to widen the range, though the store holds 1,898 papers of 2020: the venue is what
    no paper has, and the store's venues are what to choose from."""
    venues = ("no indexed paper is of venue ICML; the store's venues are Koala Symposium, "
              "NeurIPS, Wombat Workshop: choose one or leave it out")
    with pytest.raises(BadInputError, match=venues):
        wombats.list_answer("Which papers from ICML 2020 study wombat burrows?")
    with pytest.raises(BadInputError, match=venues):
        wombats.list_answer("Which papers study wombat burrows?", Filters((2020, 2020), "ICML"))
    assert no_paper_of(Filters((2020, 2020), "ICML", "Lovelace"), ["NeurIPS"], ["Ada Lovelace"]
                       ).args[0].startswith("no indexed paper is of venue ICML;")
    # a stored venue with a year none of its papers has: the range, as before
    with pytest.raises(BadInputError, match="of year 2020, venue Koala Symposium; widen"):
        wombats.list_answer("Which papers study wombat burrows?",
                            Filters((2020, 2020), "Koala Symposium"))


def test_a_range_the_question_states_that_no_paper_falls_in_is_named_as_not_applied(
        wombats: Assistant) -> None:
    """"in ICML 2019" in a store without ICML papers was dropped without a word: the
    answer, from other papers, read as if it answered under the range."""
    answer = wombats.ask("How did wombat burrows regulate temperature in ICML 2019?")
    assert answer.filters == ("none (not applied: no indexed paper of year 2019, venue ICML, "
                              "as the question states)")
    assert answer.citations and all(s.venue == "Wombat Workshop" for s in answer.sources[:1])
    explicit_too = wombats.ask("How did wombat burrows regulate temperature in ICML 2019?",
                               filters=Filters(years=(2020, 2021)))
    assert explicit_too.filters.startswith("years 2020–2021 (not applied: no indexed paper of")
    # a stated year with papers, and a venue with papers, but none of both: the stated
    # year is not applied (it had stopped a chat follow-up with "widen the range")
    both = Filters(venue="Koala Symposium")
    assert wombats.retriever.allowed(both)
    answer = wombats.ask("How did wombat burrows regulate temperature in 2012?", filters=both)
    assert answer.filters == ("venue Koala Symposium (not applied: no indexed paper of year "
                              "2012, venue Koala Symposium, as the question states)")
    with pytest.raises(BadInputError, match="no indexed paper is of year 2012, venue Koala"):
        wombats.list_answer("Which papers study wombat burrows in 2012?", both)


# ---------------------------------------------------------------- CLI


@pytest.mark.slow
def test_cli_filters_include_and_exclude(wombat_dir: Path) -> None:
    included = run("ask", "--year", "2025", "--venue", "neurips", "What is CRAFT?",
                   "--data-dir", str(wombat_dir))
    assert included.returncode == 0, included.stderr
    assert "filter: year 2025, venue NeurIPS" in included.stdout
    assert "*[1] CRAFT: Future Link Predictor on Temporal Graphs" in included.stdout

    excluded = run("ask", "--json", "--year", "2019-2021", QUESTION, "--data-dir", str(wombat_dir))
    assert excluded.returncode == 0, excluded.stderr
    data = json.loads(excluded.stdout)
    assert data["filters"] == "years 2019–2021"
    assert data["sources"] and all(2019 <= s["year"] <= 2021 for s in data["sources"])
    assert "Early Burrow Sensors" not in {s["title"] for s in data["sources"]}


@pytest.mark.slow
@pytest.mark.parametrize("value", ["2021-2019", "last year"])
def test_cli_bad_year_is_one_line_and_exit_2(value: str, tmp_path: Path) -> None:
    result = run("ask", "--year", value, "What is CRAFT?", "--data-dir", str(tmp_path / "d"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "bad year filter" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "d").exists(), "a bad option should stop before opening the index"


# ---------------------------------------------------------------- API and MCP


@pytest.fixture(scope="module")
def server(wombat_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("filters-ui") / "data"
    shutil.copytree(wombat_dir, data)
    running = start_server(data, data.parent / "serve.log")
    yield running
    stop(running)


@pytest.mark.slow
def test_api_and_chat_take_filters(server: Server) -> None:
    client = Client(server.url, verbose=False, download_files=False)
    answer = client.predict(QUESTION, 5, "2019-2021", "", api_name="/ask")
    assert answer["filters"] == "years 2019–2021"
    assert answer["sources"] and all(2019 <= s["year"] <= 2021 for s in answer["sources"])
    assert "error" in client.predict(QUESTION, 5, "2021-2019", "", api_name="/ask")
    # arguments of the wrong kind are one line, not a server traceback and {"error": null}
    assert "top_k must be a whole number" in client.predict(QUESTION, "abc", "", "",
                                                            api_name="/ask")["error"]
    assert "empty" in client.predict(None, 5, "", "", api_name="/ask")["error"]
    for wrong in (0, 500, 2.5):  # refused as the CLI's --top-k is, not clamped to 1–50
        assert f"top_k must be a whole number from 1 to 50, not '{wrong}'" in client.predict(
            QUESTION, wrong, "", "", api_name="/ask")["error"]
    assert "top_k must be a whole number" in client.predict("CRAFT", None,
                                                            api_name="/similar_papers")["error"]
    assert client.predict(QUESTION, 5, 2021, "", api_name="/ask")["filters"] == "year 2021"

    found = client.predict("temporal graph link prediction", 3, "2025", "NeurIPS",
                           api_name="/search_abstracts")
    assert found[0]["title"].startswith("CRAFT") and found[0]["year"] == 2025
    assert client.predict("temporal graph link prediction", 3, "", "Wombat Workshop",
                          api_name="/search_abstracts") == []

    # /chat keeps its inputs (the page's filter fields reach it through the session)
    plain = client.predict("What is CRAFT?", [], 5, api_name="/chat")[0]
    assert "Filter:" not in text_of(plain[-1]) and "CRAFT" in text_of(plain[-1])


@pytest.mark.slow
def test_the_page_filters_and_shows_the_filter(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1100})
            page.goto(server.url)
            page.wait_for_selector("#question textarea", timeout=60_000)
            page.fill("#years input, #years textarea", "2010-2013")
            page.fill("#question textarea", QUESTION)
            page.click("#ask")
            page.wait_for_selector("#chat p.filter", timeout=60_000)
            message = page.locator("#chat .message").last.inner_text()
            assert "Filter: years 2010–2013" in message
            assert "Early Burrow Sensors" in message and "Burrow Climate" not in message
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "ui-filters.png"), full_page=True)
        finally:
            browser.close()


def test_the_ask_page_handler_takes_the_venue_field(wombats: Assistant) -> None:
    from assistant.ui.ask_page import AskPage

    *_, (chat, *_rest) = AskPage(wombats).respond(QUESTION, [], [], 5, ("", "Koala Symposium"))
    message = html.unescape(text_of(chat[-1]))
    assert "Filter: venue Koala Symposium" in message and "Burrow Climate" not in message
    *_, (chat, *_rest) = AskPage(wombats).respond(QUESTION, [], [], 5, ("20x", "any venue"))
    assert "bad year filter" in html.unescape(text_of(chat[-1]))
    # a filter that leaves no paper is one line in the chat, and the last answer's Markdown
    # copy and downloads go with it: they would be taken for this question's
    page, session = AskPage(wombats), SimpleNamespace(session_hash="s1")
    *_, (_, _, copy, _) = page.respond(QUESTION, [], [], 5, ("", "Koala Symposium"), session)
    assert copy and page.downloads(session)[0].interactive  # type: ignore[arg-type]
    *_, (chat, _, copy, _) = page.respond(QUESTION, [], [], 5, ("1950", "any venue"), session)
    assert "no indexed paper is of year 1950" in html.unescape(text_of(chat[-1]))
    assert copy == "" and not page.downloads(session)[0].interactive  # type: ignore[arg-type]


@pytest.mark.slow
def test_mcp_tools_offer_the_filters(server: Server) -> None:
    import asyncio

    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def tools() -> dict[str, dict[str, object]]:
        async with streamable_http_client(server.url + "gradio_api/mcp/") as (read, write, _), \
                ClientSession(read, write) as session:
            await session.initialize()
            return {t.name: t.inputSchema for t in (await session.list_tools()).tools}

    schemas = asyncio.run(asyncio.wait_for(tools(), 60))
    for tool in ("ask", "search_abstracts"):
        assert {"years", "venue"} <= set(schemas[tool]["properties"])  # type: ignore[arg-type]


# ---------------------------------------------------------------- the 1987–2021 CSVs


@skipif_no_shared_data
def test_year_filter_on_the_neurips_csvs(tmp_path: Path) -> None:
    """Two years of the real CSVs (the first 20 rows of each, under the files' own names, for
    speed): each paper is stored with its year and the venue its file name gives, and a year
    filter keeps to it."""
    files = []
    for year in (1987, 1988):
        name = f"neurips_abstract_{year}.csv"
        with (SHARED_DATA / name).open(newline="") as f:
            rows = list(csv.reader(f))[:21]
        with (tmp_path / name).open("w", newline="") as f:
            csv.writer(f).writerows(rows)
        files.append(tmp_path / name)
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest(files)
    assert {(p.venue, p.year) for p in app.index.papers().values()} == {("NeurIPS", 1987),
                                                                        ("NeurIPS", 1988)}
    question = "How does the vestibulo-ocular reflex control sensory acquisition?"
    title = "Neural Control of Sensory Acquisition: The Vestibulo-Ocular Reflex"
    found = app.retrieve(question, filters=Filters(years=(1988, 1988), venue="NeurIPS"))
    assert found and found[0].paper.title == title
    other = app.retrieve(question, top_k=10, filters=Filters(years=(1987, 1987)))
    assert all(r.paper.year == 1987 for r in other) and title not in {r.paper.title for r in other}
    stated_answer = app.ask(f"{question[:-1]} in NeurIPS 1988?")
    assert stated_answer.filters == "year 1988, venue NeurIPS"
    assert stated_answer.citations and stated_answer.citations[0].title == title


def test_a_stated_range_no_stored_paper_has_is_not_applied(tmp_path: Path) -> None:
    """An index without years or venues (stored by an older release, or from a file that
    gives none) still answers "… in NeurIPS 2025?", and says the range was not applied."""
    plain = tmp_path / "plain.csv"
    plain.write_text('title,abstract\n"Quokka Sampling","We introduce QuokkaSampler, a sampler '
                     'for marsupial population surveys that halves the survey cost."\n')
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([plain])
    answer = app.ask("What is QuokkaSampler in NeurIPS 2025?")
    assert answer.citations and answer.filters == (
        "none (not applied: no indexed paper of year 2025, venue NeurIPS, as the question states)")


def test_a_venue_spelled_nips_in_the_input_is_found_by_neurips(tmp_path: Path) -> None:
    nips = tmp_path / "old.csv"
    nips.write_text('title,venue,year,abstract\n"Quokka Sampling",NIPS,1999,"We introduce '
                    'QuokkaSampler, a sampler for marsupial population surveys."\n')
    app = Assistant(make_settings(tmp_path / "data"))
    app.ingest([nips])
    assert app.index.venues() == ["NeurIPS"]
    assert app.retrieve("QuokkaSampler", filters=explicit(None, "NIPS"))


def test_the_cli_names_filters_that_conflict_and_a_range_after_the_newest_paper(
        fresh_copy: Path) -> None:
    """`ask --year 2019` and "since 2020" had answered with 2019's papers without a word;
    a range after the store's newest paper ("since 2030") is one line naming the store's
    years, exit 2, from a list, a trend question and `assistant trends` alike."""
    data = ["--data-dir", str(fresh_copy)]
    for args, message in (
            (["ask", "--year", "2019", "Which papers on reinforcement learning were published "
              "since 2020?"], "the filter given (year 2019) and the question's own (years 2020 "
             "on) leave no year in common"),
            (["ask", "Which papers on reinforcement learning were published since 2030?"],
             "no indexed paper is of years 2030 on; widen the range or leave it out (the "
             "store's papers are of 2025)"),
            (["ask", "How has interest in reinforcement learning grown since 2030?"],
             "no indexed paper is of years 2030 on"),
            (["trends", "reinforcement learning", "--year", "2030-"],
             "no indexed paper is of years 2030 on")):
        bad = run(*args, *data)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
