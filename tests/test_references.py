"""Reusable references: year, venue and authors from the inputs to the sources, BibTeX that
parses with stable keys, Markdown that lists exactly the cited papers, `assistant ask
--format`, and the Ask page's downloads (headless Chromium)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import chromadb
import numpy as np
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware
from chromadb.config import Settings as ChromaSettings
from conftest import FILE_A, SEEDS, SHARED_DATA, make_settings, skipif_no_shared_data
from markdown_it import MarkdownIt

from assistant.corpus import read_file
from assistant.pipeline import Assistant
from assistant.printing import print_sources
from assistant.references import DERIVED_NOTE, bibtex_key, md_answer, to_bibtex, to_markdown
from assistant.settings import PROJECT_ROOT
from assistant.types import Answer, Citation, SourceRef

# A title with every TeX special character, authors beyond ASCII, a link with a query.
QUOKKA_TITLE = r"Quokkaformer: {Marsupial} Attention at 100% & $O(n)$ cost_#1 \ end"
QUOKKA_AUTHORS = ["Jürgen Schmidhuber", "Zoë O'Neil", "Ana Lima"]
QUOKKA_LINK = "https://example.org/quokka?id=1&x=%20"
CSV = (
    "title,authors,year,venue,link,abstract\n"
    f'"{QUOKKA_TITLE}","{", ".join(QUOKKA_AUTHORS)}",2019,ICML,{QUOKKA_LINK},"We introduce '
    "Quokkaformer, an attention mechanism for marsupial population surveys that runs in linear "
    'time. Quokkaformer counts quokkas in camera-trap images."\n'
    '"Wallaby Sampling","Ana Lima",2021-06-01,,,"We study WallabySampler, a sampler for wallaby '
    'population surveys. WallabySampler draws transects for wallaby counts."\n'
)
JSONL = ('{"abstract": "We present Bilbynet, a detector of bilby burrows in desert drone images. '
         'Bilbynet finds burrows at night."}\n')


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("refs-inputs")
    (folder / "marsupials.csv").write_text(CSV, encoding="utf-8")
    (folder / "bilby.jsonl").write_text(JSONL, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def refs_dir(seed_dir: Path, inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed index plus the CSV and JSONL above."""
    data = tmp_path_factory.mktemp("refs") / "data"
    shutil.copytree(seed_dir, data)
    report = Assistant(make_settings(data)).ingest([inputs])
    assert report.added == 3 and not report.skipped
    return data


class Asker:
    """The assistant over ``refs_dir``, answering each question once per module."""

    def __init__(self, data: Path) -> None:
        self.app = Assistant(make_settings(data))
        self.answers: dict[str, Answer] = {}

    def ask(self, question: str) -> Answer:
        if question not in self.answers:
            self.answers[question] = self.app.ask(question)
        return self.answers[question]


@pytest.fixture(scope="module")
def refs_app(refs_dir: Path) -> Asker:
    return Asker(refs_dir)


def parse(bib: str, decode: bool = True) -> dict[str, dict[str, str]]:
    """Entries by key ({field: value, "ENTRYTYPE": type}); fails on any block not parsed."""
    library = bibtexparser.parse_string(bib, append_middleware=[LatexDecodingMiddleware()]
                                        if decode else [])
    assert library.failed_blocks == [], [b.error for b in library.failed_blocks]
    return {e.key: {"ENTRYTYPE": e.entry_type, **{f.key: f.value for f in e.fields}}
            for e in library.entries}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("ASSISTANT_") and k != "OPENAI_API_KEY"}
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, env=clean, cwd=PROJECT_ROOT, timeout=300)


# ---------------------------------------------------------------- metadata


def test_csv_and_seed_header_metadata_reach_the_sources(
        refs_app: Asker, capsys: pytest.CaptureFixture[str]) -> None:
    quokka = refs_app.ask("What is Quokkaformer?").sources[0]
    assert (quokka.title, quokka.source) == (QUOKKA_TITLE, "marsupials.csv#1")
    assert (quokka.authors, quokka.year, quokka.venue) == (", ".join(QUOKKA_AUTHORS), 2019, "ICML")
    assert quokka.url == QUOKKA_LINK and not quokka.title_derived
    tccm = refs_app.ask("What is TCCM?")
    seed = tccm.sources[0]
    assert seed.source == f"{FILE_A}#7"
    assert (seed.year, seed.venue, seed.authors, seed.title_derived) == (2025, "NeurIPS", "", True)
    assert seed.url == ""  # the GitHub address in its abstract is text, not the paper's link
    wallaby = refs_app.ask("What is WallabySampler?").sources[0]
    assert (wallaby.year, wallaby.venue) == (2021, "")  # a date column gives its year
    assert tccm.public_json()["sources"][0]["venue"] == "NeurIPS"
    print_sources(tccm)
    assert f"TCCM: Time-Conditioned Contraction Matching — {FILE_A}#7 (score" in capsys.readouterr().out
    print_sources(refs_app.ask("What is Quokkaformer?"))
    assert "· ICML 2019 · Jürgen Schmidhuber, Zoë O'Neil, Ana Lima" in capsys.readouterr().out


def test_an_older_store_loads_and_a_reingest_rewrites_only_its_metadata(fresh_copy: Path) -> None:
    """A store written before year/venue existed (its chunks lack the keys) still loads; the
    next ingest of the unchanged seeds adds the metadata without re-embedding anything."""
    client = chromadb.PersistentClient(path=str(fresh_copy / "chroma"),
                                       settings=ChromaSettings(anonymized_telemetry=False,
                                                               allow_reset=True))  # as index.py
    collection = client.get_collection("abstracts")
    before = collection.get(include=["metadatas", "embeddings"])
    assert before["metadatas"][0]["year"] == 2025  # the seed index as this version wrote it
    collection.update(ids=before["ids"], metadatas=[
        {"year": None, "venue": None, "title_derived": None} for _ in before["ids"]])  # None: drop
    assert "year" not in collection.get(ids=before["ids"][:1], include=["metadatas"])["metadatas"][0]
    (fresh_copy / "bm25" / "papers.json").unlink()  # that version saved no copy of the papers

    app = Assistant(make_settings(fresh_copy))
    old = app.index.papers()
    tccm = next(p for p in old.values() if p.source == f"{FILE_A}#7")
    assert (tccm.year, tccm.venue, tccm.title_derived) == (None, "", True)  # .txt: derived titles
    assert app.ask("What is TCCM?").sources[0].year is None

    report = app.ingest([SEEDS])
    assert (report.added, report.replaced, report.removed, report.moved) == (0, 0, 0, 0)
    assert report.chunks_added == 0 and report.unchanged == len(old) == 38
    papers = app.index.papers()
    assert {(p.year, p.venue) for p in papers.values()} == {(2025, "NeurIPS")}
    after = collection.get(ids=before["ids"], include=["embeddings"])
    assert after["ids"] == before["ids"]
    assert np.array_equal(np.asarray(after["embeddings"]), np.asarray(before["embeddings"]))
    assert app.ask("What is TCCM?").sources[0].year == 2025
    again = app.ingest([SEEDS])  # and now there is nothing left to rewrite
    assert again.unchanged == 38 and again.chunks_added == 0


# ---------------------------------------------------------------- BibTeX


def test_bibtex_parses_with_escaped_fields_and_marks_derived_titles(refs_app: Asker) -> None:
    quokka = refs_app.ask("What is Quokkaformer?")
    entries = parse(to_bibtex(quokka))
    [(key, entry)] = entries.items()
    assert key == bibtex_key(quokka.sources[0]) and key.startswith("schmidhuber2019quokkaformer_")
    assert entry["ENTRYTYPE"] == "inproceedings" and entry["booktitle"] == "ICML"
    assert entry["title"] == QUOKKA_TITLE  # every special character escaped, and decoded back
    assert entry["author"] == " and ".join(QUOKKA_AUTHORS) and entry["year"] == "2019"
    assert DERIVED_NOTE not in entry["note"]
    assert parse(to_bibtex(quokka), decode=False)[key]["url"] == QUOKKA_LINK

    tccm = parse(to_bibtex(refs_app.ask("What is TCCM?")))
    [(key, entry)] = tccm.items()
    assert key.startswith("anon2025tccm_")
    assert entry["ENTRYTYPE"] == "inproceedings" and entry["booktitle"] == "NeurIPS"
    assert entry["title"] == "TCCM: Time-Conditioned Contraction Matching"
    assert DERIVED_NOTE in entry["note"] and "author" not in entry and "url" not in entry

    [bilby] = parse(to_bibtex(refs_app.ask("What is Bilbynet?"))).values()
    assert bilby["ENTRYTYPE"] == "misc" and DERIVED_NOTE in bilby["note"]  # no venue, no title
    [wallaby] = parse(to_bibtex(refs_app.ask("What is WallabySampler?"))).values()
    assert wallaby["ENTRYTYPE"] == "misc" and wallaby["year"] == "2021"
    assert wallaby["author"] == "Ana Lima"


@pytest.mark.slow
def test_keys_are_stable_across_runs_and_a_reingest(refs_dir: Path, refs_app: Asker,
                                                    inputs: Path) -> None:
    question = "What is Quokkaformer?"
    here = set(parse(to_bibtex(refs_app.ask(question))))
    result = run_cli("ask", "--format", "bibtex", question, "--data-dir", str(refs_dir))
    assert result.returncode == 0, result.stderr
    assert set(parse(result.stdout)) == here  # another process, the same key
    report = Assistant(make_settings(refs_dir)).ingest([inputs])
    assert report.added == 0 and report.chunks_added == 0 and report.unchanged == 3
    assert set(parse(to_bibtex(Assistant(make_settings(refs_dir)).ask(question)))) == here
    # A key depends on its paper alone, not on what else the answer retrieves or cites.
    both = refs_app.ask("Which papers study marsupial population surveys?")
    assert len(both.sources) >= 2 and here <= {bibtex_key(s) for s in both.sources}


@pytest.mark.slow
def test_cli_format_options(refs_dir: Path) -> None:
    both = run_cli("ask", "--json", "--format", "bibtex", "What is TCCM?", "--data-dir", str(refs_dir))
    assert both.returncode == 2 and "--json and --format bibtex" in both.stderr
    assert "Traceback" not in both.stderr


# ---------------------------------------------------------------- Markdown


def live_urls(markdown: str) -> set[str]:
    rendered = MarkdownIt("commonmark", {"html": True, "linkify": False}).render(markdown)
    return set(re.findall(r'(?:src|href)="([^"]*)"', rendered))


def test_markdown_lists_exactly_the_cited_sources(refs_app: Asker) -> None:
    answer = refs_app.ask("What are Quokkaformer and WallabySampler?")
    cited = {c.n for c in answer.citations}
    uncited = [s for s in answer.sources if s.n not in cited]
    assert cited and uncited, "the question should retrieve a source it does not cite"
    text = to_markdown(answer)
    references = text.split("## References", 1)[1]
    assert {int(n) for n in re.findall(r"^- \[(\d+)\]", references, re.M)} == cited
    for s in uncited:
        assert s.source not in references
    assert answer.question in text and answer.answer.splitlines()[0] in text


def test_markdown_of_untrusted_text_links_only_the_papers_own_link(refs_app: Asker) -> None:
    answer = refs_app.ask("What is Quokkaformer?")
    poisoned = answer.model_copy(update={
        "answer": "See ![x](http://127.0.0.1:9/x.png) and <img src=http://127.0.0.1:9/y.png> "
                  "and [here](http://127.0.0.1:9/z) [1] [7].",
        "sources": [answer.sources[0].model_copy(update={"title": "[t](http://127.0.0.1:9/t)"})]})
    text = to_markdown(poisoned)
    assert live_urls(text) == {QUOKKA_LINK.replace("&", "&amp;")}
    assert "[1]" in text and "\\[7\\]" in text  # a number that names no source is text


def test_hand_made_answer_without_sources_still_lists_its_citations() -> None:
    answer = Answer(question="q", answer="x [2]", mode="extractive", citations=[
        Citation(n=2, paper_id="0123456789abcdef", title="A Title", source="f.csv#2", text="t")])
    assert "- [2] *A Title*. `f.csv#2`." in to_markdown(answer)
    assert list(parse(to_bibtex(answer))) == ["anontitle_0123"]
    uncited = Answer(question="q", answer="x", mode="llm", model="m", uncited=True)
    assert to_bibtex(uncited) == "" and "cites no source" in to_markdown(uncited)


# ---------------------------------------------------------------- the real 1987–2021 data


@skipif_no_shared_data
def test_the_neurips_csv_gives_year_authors_venue_and_parsing_bibtex() -> None:
    path = SHARED_DATA / "neurips_abstract_1987.csv"
    papers, skipped = read_file(path)
    assert papers and not [s for s in skipped if s.incomplete]
    assert {(p.year, p.venue) for p in papers} == {(1987, "NeurIPS")}
    assert sum(bool(p.authors) for p in papers) > 0.9 * len(papers)
    first = papers[0]
    assert first.title == "Synchronization in Neural Nets"
    assert first.authors == "Jacques J. Vidal, John Haggerty"
    assert first.link.startswith("https://papers.nips.cc/")
    sources = [SourceRef.of(n, p, 1.0) for n, p in enumerate(papers, start=1)]
    answer = Answer(question="q", answer="x", mode="extractive", sources=sources, citations=[
        Citation(n=s.n, paper_id=s.paper_id, title=s.title, source=s.source, text="")
        for s in sources])
    entries = parse(to_bibtex(answer))
    assert len(entries) == len(papers)  # one entry each, no key twice
    vidal = entries[bibtex_key(sources[0])]
    assert bibtex_key(sources[0]).startswith("vidal1987synchronization_")
    assert vidal["author"] == "Jacques J. Vidal and John Haggerty"
    assert vidal["booktitle"] == "NeurIPS" and vidal["year"] == "1987"
    assert [e["title"] for e in entries.values()] == [p.title for p in papers]


# ---------------------------------------------------------------- the Ask page's downloads


@pytest.fixture(scope="module")
def ui_server(refs_dir: Path) -> Iterator[object]:
    from test_ui import start_server, stop

    server = start_server(refs_dir, refs_dir.parent / "serve.log")
    yield server
    stop(server)


@pytest.mark.slow
def test_ask_page_downloads_the_answer_as_markdown_and_bibtex(
        ui_server: object, refs_app: Asker, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright
    from test_ui import CHROMIUM

    question = "What is Quokkaformer?"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
        page.goto(ui_server.url)  # type: ignore[attr-defined]
        page.wait_for_selector("#question textarea", timeout=60_000)
        assert page.locator("#download-bibtex").is_disabled()  # nothing asked yet
        page.fill("#question textarea", question)
        page.click("#ask")
        page.wait_for_selector("details.sources", timeout=60_000)
        page.wait_for_selector("#download-bibtex:not([disabled])", timeout=30_000)
        files = {}
        for button in ("#download-markdown", "#download-bibtex"):
            with page.expect_download(timeout=30_000) as info:
                page.click(button)
            download = info.value
            files[download.suggested_filename] = Path(download.path()).read_text(encoding="utf-8")
        page.evaluate("() => document.querySelectorAll('#chat details').forEach(d => d.open = true)")
        assert "ICML 2019 · Jürgen Schmidhuber, Zoë O'Neil, Ana Lima" in page.inner_text("#chat")
        page.screenshot(path=str(tmp_path / "ask-downloads.png"), full_page=True)
        page.click("#clear")
        page.wait_for_selector("#download-bibtex[disabled]", timeout=30_000)
        browser.close()
    assert set(files) == {"answer.md", "references.bib"}
    assert question in files["answer.md"] and "## References" in files["answer.md"]
    assert re.findall(r"^- \[(\d+)\]", files["answer.md"], re.M) == ["1"]
    assert "ICML 2019" in files["answer.md"]
    served = parse(files["references.bib"])
    assert list(served) == list(parse(to_bibtex(refs_app.ask(question))))
    assert next(iter(served.values()))["title"] == QUOKKA_TITLE
    assert (tmp_path / "ask-downloads.png").stat().st_size > 0


def test_markdown_answer_text_cannot_turn_a_citation_into_a_link() -> None:
    from markdown_it import MarkdownIt

    from assistant.references import to_markdown
    from assistant.types import Answer, SourceRef

    source = SourceRef(n=1, paper_id="0" * 16, title="Evil", source="x.csv#1", score=1.0)
    answer = Answer(question="q", answer="It works [1](https://evil.example/x).\n\n[1]: https://evil.example/ref",
                    mode="llm", sources=[source])
    html = MarkdownIt("commonmark").render(to_markdown(answer))
    assert 'href="https://evil.example' not in html


def test_markdown_keeps_an_answers_lines_apart_and_its_tables_whole() -> None:
    """A list answer's papers, a line each, had rendered as one paragraph in the Markdown
    download; a line break is now a hard one, but before a table row or a bullet."""
    from markdown_it import MarkdownIt

    from assistant.types import Answer

    listed = "2 papers of the 38 match.\n[1] A (2025): “x.” [1]\n[2] B (2025): “y.” [2]"
    html = MarkdownIt("commonmark").render(to_markdown(Answer(question="q", answer=listed,
                                                              mode="extractive")))
    assert html.count("<br />") == 2 and "match.<br />\n[1] A" in html
    table = "Compared:\n\n| paper | method |\n| --- | --- |\n| A [1] | x [1] |\n- a note"
    rendered = MarkdownIt("commonmark").enable("table").render(
        to_markdown(Answer(question="q", answer=table, mode="extractive")))
    assert "<table>" in rendered and "<br />" not in rendered and "<li>a note</li>" in rendered
    for text, html_out in (("## Summary\nWombats dig.", "<h2>Summary</h2>\n<p>Wombats dig.</p>"),
                           ("a\r\nb", "<p>a<br />\nb</p>")):  # no stray backslash or break
        assert MarkdownIt("commonmark").render(md_answer(text)).strip() == html_out


def test_markdown_names_who_answered_as_the_cli_and_ui_do() -> None:
    """With a model configured and its answer replaced by the quoted one, the Markdown copy
    ended "*Extractive answer (offline, no model).*" while the CLI and the UI said whose
    answer it stood in for (a hostile user's run)."""
    from assistant.types import Answer

    replaced = Answer(question="q", answer="a", mode="extractive", model="gemma-270m",
                      unchecked="The model's answer could not be checked")
    assert to_markdown(replaced).endswith(
        "*Answered by extractive, in place of model gemma-270m's answer.*\n")
    offline = Answer(question="q", answer="a", mode="extractive")
    assert to_markdown(offline).endswith("*Answered by extractive (quoted from the abstracts).*\n")
    assert to_markdown(Answer(question="q", answer="a", mode="llm", model="m")).endswith(
        "*Answered by model m.*\n")
