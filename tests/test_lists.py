"""Exhaustive lists and topic trends over the seeds (a real Chroma store), the CLI as a
subprocess, the chart as a real PNG, bad input as one line; the labelled list questions
checked against the 1987-2021 abstracts when they are present."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED_DATA, skipif_no_shared_data
from test_cli import run

from assistant.corpus import Paper, split_sentences
from assistant.errors import BadInputError
from assistant.keywords import KeywordStats, query_terms, topic_terms
from assistant.list_lines import answer_lines, as_answer
from assistant.list_records import CROSS_ENCODER
from assistant.listing import ListScreen
from assistant.pipeline import Assistant
from assistant.references import receipt_line
from assistant.settings import PROJECT_ROOT
from assistant.topics import or_readings, reading_weights, reread_texts, topic_of, without_examples
from assistant.tuning import COMMON_SHARE
from assistant.types import Filters
from assistant.ui.lists_page import PAGE, ListsPage
from assistant.word_runs import neighbours, term_sequence

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


LIST_QUESTION = "Which papers use reinforcement learning?"


@pytest.mark.parametrize(("question", "topic"), [
    ("Which papers use capsule networks?", "use capsule networks?"),
    ("List all papers on federated learning.", "federated learning."),
    ("List the papers about optimal transport", "optimal transport"),
    ("Can you list every paper that studies dropout?", "studies dropout?"),
    ("graph neural networks", "graph neural networks"),
    ("Which papers?", "Which papers?"),  # nothing left: the question itself
    # a term lookup's topic is its words, not its verb (which sank every paper)
    ("Which papers mention anomaly detection?", "anomaly detection"),
    ("Which papers contain the word contraction?", "contraction"),
    # an acronym in brackets is another spelling (searched_topic), a "Thanks!" no topic
    ("Which papers use capsule networks (CapsNets)?", "use capsule networks?"),
    ("Which papers use capsule networks? Thanks!", "use capsule networks?"),
    # a run: "say about" had been searched too, listing 4 of the 12 "Which papers use…" gives
    ("what do papers say about capsule networks?", "capsule networks?"),
    ("tell me what papers say about capsule networks", "capsule networks"),
    ("tell me what 2025 papers say about language models", "2025 language models"),
])
def test_topic_of_cuts_the_list_lead_words(question: str, topic: str) -> None:
    assert topic_of(question) == topic


def test_a_list_topic_keeps_an_asking_word_that_is_its_subject() -> None:
    """"Which papers automatically summarize text?" was read as "automatically text" (list-27
    listed none of its 20): "summarize" is a stopword, as questions ask with it. In a list
    topic it is kept, by the stem papers on summarization write, when that stem is specific
    (ASKED_SHARE); "study", whose stem papers of every kind write, only asks."""
    stats = KeywordStats(n_docs=1000, vocab={"summar": 0, "text": 1, "automat": 2, "studi": 3},
                         df=np.array([5, 200, 100, 30]))
    assert "summar" not in query_terms("automatically summarize text")  # BM25's reading
    assert topic_terms("automatically summarize text", stats) == ["automat", "text", "summar"]
    assert topic_terms("summarize text", stats) == ["text", "summar"]
    assert topic_terms("study text summarization", stats) == ["text", "summar"]
    assert topic_terms("Summarize", stats) == []  # alone it asks of nothing ("Summarize X et al.")
    never = KeywordStats(n_docs=1000, vocab={"text": 0}, df=np.array([200]))
    assert topic_terms("automatically summarize text", never) == ["automat", "text"]
    weights = dict(reading_weights("automatically summarize text", stats))
    assert set(weights["automatically summarize text"]) == {"automat", "text", "summar"}


def test_a_list_topic_is_read_without_its_examples_too(seed_assistant: Assistant) -> None:
    """"…summarize text, such as documents or news articles?" required "documents" or
    "news" of every paper (its rarest words): examples illustrate a topic, so the topic is
    also read without them (the clause alone cut), first of the reread's texts."""
    stats = seed_assistant.index.keyword_stats()
    topic = "automatically summarize text, such as documents or news"
    texts = [t for t, _ in reading_weights(topic, stats)]
    assert texts[:2] == [topic, "automatically summarize text"]
    # an "or" among the examples joins examples, not alternatives of the topic (a run: "GNNs,
    # e.g. GraphSAGE or GCN-like models for fraud detection" had listed 144 GNN papers,
    # none on fraud, through "GNN GraphSAGE")
    assert not any("such as news" in t or t == "news" for t in texts)
    fraud = "graph neural networks, e.g. GraphSAGE or GCN-like models for fraud detection"
    assert without_examples(fraud) == "graph neural networks for fraud detection"
    # ...a word of the example's own name stays in it (a review: "methods to rank")
    assert without_examples("methods such as learning to rank") == "methods"
    assert without_examples("models such as BERT fine-tuned on SQuAD") == "models"
    # "like" gives examples too, not as a verb nor asking for the thing (a run: "graph
    # neural networks on molecules like benzene" had been a false "no", "never “like”")
    assert without_examples("graph neural networks on molecules like benzene") == (
        "graph neural networks on molecules")
    for kept in ("I would like papers on GANs", "What does the loss look like?",
                 "Which papers are like capsule networks?"):
        assert without_examples(kept) == kept
    assert all("fraud" in t for t, _ in reading_weights(fraud, stats))
    assert reread_texts(topic, stats)[0] == "automatically summarize text"
    assert without_examples("use pretrained models, such as BERT, for entity recognition") == (
        "use pretrained models for entity recognition")
    assert without_examples("summarize text (e.g. news) well") == "summarize text well"
    assert without_examples("use graphs, for example citation networks") == "use graphs"
    for plain in ("retrieval strategies for example selection", "methods including kernels"):
        assert without_examples(plain) == plain  # no comma: no clause of examples
        assert len(reading_weights(plain, stats)) == 1


def test_a_topic_of_alternatives_is_read_each_apart(seed_assistant: Assistant) -> None:
    stats = seed_assistant.index.keyword_stats()
    readings = dict(reading_weights("seismic or earthquake data", stats))
    assert list(readings) == ["seismic or earthquake data", "earthquake data", "seismic data"]
    whole = readings["seismic or earthquake data"]
    assert len(whole) == 3  # seismic, earthquake, data
    assert set(readings["seismic data"]) | set(readings["earthquake data"]) == set(whole)
    # the word either side of "or" stands for the other; a part that is only a common
    # word of the phrasing ("use") is no topic: every abstract holds it
    assert or_readings("generate captions for images or videos") == [
        "generate captions for images", "generate captions for videos"]
    assert or_readings("generate or compose music") == ["generate music", "compose music"]
    assert or_readings("graph learning") == or_readings("a or b or c") == []
    # a comma list reads each item in its place, not its first items together
    assert or_readings("use ODEs, SDEs, or PDEs") == or_readings("use ODEs, SDEs or PDEs") == [
        "use ODEs", "use SDEs", "use PDEs"]
    assert or_readings("summarize text, such as documents or news") == [
        "summarize text, such as documents", "summarize text, such as news"]
    texts = [t for t, _ in reading_weights("use ODEs, SDEs, or PDEs", stats)]
    assert {"use SDEs", "use PDEs"} <= set(texts)
    assert or_readings("ODEs, SDEs, or PDEs") == ["ODEs", "SDEs", "PDEs"]  # no lead word
    assert or_readings("use ODEs , SDEs or PDEs") == ["use ODEs", "use SDEs", "use PDEs"]
    assert or_readings("captions for (images or videos)") == [
        "captions for images", "captions for videos"]
    texts = [t for t, _ in reading_weights("use or analyze graph neural networks", stats)]
    assert "use" not in texts and "use graph neural networks" in texts
    two = dict(reading_weights("place cells or entorhinal grid cells", stats))
    assert "place cells" in two and "entorhinal grid cells" in two  # phrases coordinated
    assert reread_texts("seismic or earthquake data", stats) == ["earthquake data", "seismic data"]
    assert reread_texts("use LLMs? | use large language models?", stats) == [
        "use LLMs?", "use large language models?"]  # each phrasing read apart
    assert reread_texts("graph learning", stats) == ["graph learning"]
    squared = reading_weights("graph learning", stats, power=2.0)[0][1]
    plain = reading_weights("graph learning", stats)[0][1]
    assert squared == pytest.approx({t: w * w for t, w in plain.items()})
    assert len(reading_weights("graph learning", stats)) == 1


def test_a_list_answer_lists_every_kept_paper_with_a_quoted_sentence(
        seed_assistant: Assistant) -> None:
    answer = seed_assistant.list_answer(LIST_QUESTION)
    papers = seed_assistant.index.papers()
    receipt = answer.receipt
    assert receipt is not None and receipt.matching is not None
    assert receipt.matching == receipt.cited == len(answer.sources) == len(answer.citations) >= 1
    assert receipt.in_store == receipt.in_filter == len(papers)
    assert receipt.read >= receipt.matching
    first, *lines = answer.answer.splitlines()
    assert re.match(rf"{receipt.matching} papers? of the {len(papers)} match", first)
    assert len(lines) == receipt.matching
    for n, (line, citation) in enumerate(zip(lines, answer.citations, strict=True), start=1):
        assert line.startswith(f"[{n}] ") and line.endswith(f"[{n}]")
        quote = citation.highlights[0]
        assert quote in split_sentences(papers[citation.paper_id].text)
        assert quote[:40] in line
    scores = [s.score for s in answer.sources]
    assert scores == sorted(scores, reverse=True)  # best first
    counts = answer.public_json()["receipt"]
    assert isinstance(counts, dict) and counts["matching"] == receipt.matching


def test_a_paper_the_reading_turns_down_is_kept_close_to_the_topics_sense(
        seed_assistant: Assistant) -> None:
    """The cross-encoder reads words ("portfolio selection" is not "portfolio optimization"
    to it): a paper it turns down is kept when it stands close to the mean vector of the
    papers the cheap screen is surest of, and only then."""
    index = seed_assistant.index
    shipped = ListScreen(index).settings
    question = "Which papers are about large language models?"  # the seeds hold both kinds
    shipped = dataclasses.replace(shipped, titles=False)  # every paper through the reading
    never, always = (ListScreen(index, dataclasses.replace(shipped, sense_keeps=keeps)
                                ).screen(question) for keeps in (2.0, -1.0))
    turned_down = [c for c in never.candidates if c.reader == CROSS_ENCODER and not c.judged]
    close = {c.paper.paper_id for c in turned_down if c.sense >= shipped.sense_keeps}
    assert close and len(close) < len(turned_down), "the seeds hold both kinds"
    listed = {p.paper.paper_id for p in never.papers}
    assert {p.paper.paper_id for p in ListScreen(index, shipped).screen(question).papers} == (
        listed | close)
    assert {p.paper.paper_id for p in always.papers} == listed | {
        c.paper.paper_id for c in turned_down}
    by_cheap = sorted(never.candidates, key=lambda c: -c.cheap)  # the sense: the surest
    surest, rest = by_cheap[:shipped.sense_papers], by_cheap[shipped.sense_papers:]
    assert all(-1.0 <= c.sense <= 1.0 for c in by_cheap)
    assert sum(c.sense for c in surest) / len(surest) > sum(c.sense for c in rest) / len(rest)


def test_a_list_of_none_is_a_valid_empty_answer(seed_assistant: Assistant) -> None:
    answer = seed_assistant.list_answer("Which papers are about sourdough bread recipes?")
    assert answer.receipt is not None and answer.receipt.matching == 0 and answer.sources == []
    assert answer.answer.startswith("No paper of the 38 answers") and "\n" not in answer.answer


def test_a_list_of_none_shows_the_papers_naming_the_topic_unconfirmed(
        seed_assistant: Assistant) -> None:
    """"Which papers study diffusion models?" answered "No paper of the 38 answers", though
    seeds write "diffusion models": the reading had turned each down. A list of none now
    shows the papers naming the topic in full, unconfirmed and not counted as matching."""
    question = "Which papers study diffusion models?"
    papers = seed_assistant.index.papers()
    phrase = tuple(term_sequence("diffusion models"))
    writers = {pid for pid, p in papers.items()
               if phrase in neighbours(term_sequence(f"{p.title}. {p.text}"))}
    assert writers, "the seeds write the topic"
    # the answer is no false "no": a writer is shown, listed or mentioned, in the Lists
    # tab too
    answer = seed_assistant.list_answer(question)
    shown = {s.paper_id for s in answer.sources} & writers
    assert shown
    _, rows, *_ = ListsPage(seed_assistant).list_rows(question)
    assert {papers[pid].source for pid in shown} <= {row[-1] for row in rows}
    # a reading that keeps nothing: the writers are the list's unconfirmed mentions
    strict = ListScreen(seed_assistant.index, dataclasses.replace(
        ListScreen(seed_assistant.index).settings, reread_keeps=99.0, sense_keeps=2.0))
    result = seed_assistant.lists.list_papers(question, screen=strict)
    assert result.papers == [] and {p.paper.paper_id for p in result.mentions} == writers
    answer = as_answer(result, "".join(answer_lines(result)).rstrip("\n"))
    first, *lines = answer.answer.splitlines()
    assert first.startswith("No paper of the 38 was read as answering “study diffusion models”;")
    assert first.endswith(f"{len(writers)} name it in full, listed unconfirmed:")
    assert f"”; {result.screened} screened, {result.reread} reread. {len(writers)} name" in first
    assert len(lines) == len(answer.citations) == len(writers)
    receipt = answer.receipt
    assert receipt is not None and receipt.matching == 0
    assert receipt.cited == receipt.unconfirmed == len(writers)
    assert {c.paper_id for c in answer.citations} == writers
    assert receipt_line(receipt).endswith(f"listed 0 · {len(writers)} unconfirmed")
    assert seed_assistant.list_answer(LIST_QUESTION).receipt.unconfirmed == 0  # type: ignore[union-attr]


def test_a_filter_that_leaves_no_paper_is_bad_input(seed_assistant: Assistant) -> None:
    with pytest.raises(BadInputError, match="no indexed paper is of years 1950–1960"):
        seed_assistant.list_answer(LIST_QUESTION, Filters(years=(1950, 1960)))
    with pytest.raises(BadInputError, match="venue ICML; the store's venues are NeurIPS: "
                                            "choose one or leave it out"):
        seed_assistant.list_answer(LIST_QUESTION, Filters(venue="ICML"))
    with pytest.raises(BadInputError, match="the topic is empty"):
        seed_assistant.trends("  ")
    with pytest.raises(BadInputError, match="the topic is 8,000 characters long"):
        seed_assistant.trends("graph " * 1333 + "ab")  # had said "the question is"


def test_a_list_lookup_finds_the_paper_holding_the_words(seed_assistant: Assistant) -> None:
    """"Which papers mention anomaly detection?" answered "No paper of the 38 answers" (a
    false no): the topic searched kept "mention"."""
    for question in ("Which papers mention anomaly detection?",
                     "Which papers contain the word contraction?"):
        answer = seed_assistant.list_answer(question)
        assert [s.title for s in answer.sources][:1] == [
            "TCCM: Time-Conditioned Contraction Matching"], question
    # a lookup wants the word as written: no acronym reading widens it
    papers = seed_assistant.index.papers()
    found = seed_assistant.list_answer("Which papers contain the word LLM?").sources
    assert found and all("LLM" in f"{papers[s.paper_id].title} {papers[s.paper_id].text}"
                         for s in found)


def test_a_stated_range_no_paper_falls_in_and_a_list_without_topic_are_bad_input(
        seed_assistant: Assistant) -> None:
    """The seeds are all of 2025: "before 1990" was dropped without a word and the 2025
    papers listed; "list all papers from 2025" answered that none matches, and now lists
    them all."""
    with pytest.raises(BadInputError, match="no indexed paper is of years up to 1989"):
        seed_assistant.list_answer("Which papers study anomaly detection before 1990?")
    with pytest.raises(BadInputError, match="no indexed paper is of years up to 1989"):
        seed_assistant.trends("anomaly detection before 1990")
    with pytest.raises(BadInputError, match="no indexed paper is of year 1850"):
        seed_assistant.list_answer("Which papers study anomaly detection in 1850?")  # was "no"
    # a range and no topic: every paper of the range ("How many papers were published in
    # 2015?" had counted the one paper writing "published")
    whole = seed_assistant.list_answer("list all papers from 2025")
    seeds = [p for p in seed_assistant.index.papers().values() if p.year == 2025]
    assert len(whole.sources) == len(seeds) > 30
    assert whole.answer.startswith(f"{len(seeds)} papers of the {len(seeds)} (year 2025) match")
    counted = seed_assistant.list_answer("How many papers were published in 2025?")
    assert len(counted.sources) == len(seeds)
    with pytest.raises(BadInputError, match="names no topic"):  # common words: no topic
        seed_assistant.list_answer("List all papers from 2025 about this")
    # a topic of common words only was searched: "No paper of the 13,847 answers" (exit 0)
    for question in ("Which papers are about the?", "Which papers study it?", "the of and"):
        with pytest.raises(BadInputError, match="names no topic"):
            seed_assistant.list_answer(question)
    with pytest.raises(BadInputError, match="“the and of” has no word to search for"):
        seed_assistant.trends("the and of")
    assert seed_assistant.list_answer("Which papers use zqxwvortex?").sources == []  # a "no"


def test_a_topic_of_only_words_most_papers_write_names_none() -> None:
    """"Which papers use?" and "…use models?" listed 3 and 279 arbitrary papers of the
    13,847: "use" and "model" are in 44% of its chunks. A topic of only words in more than
    COMMON_SHARE of the chunks names none (the 13.9k store's shares here); one specific word
    beside them makes it a topic, and a term lookup asks for its words however common."""
    from types import SimpleNamespace

    from assistant.list_answers import ListAnswers, no_topic

    shares = {"use": 0.436, "model": 0.439, "learn": 0.449, "neural": 0.187, "network": 0.254,
              "data": 0.299, "augment": 0.022, "gaussian": 0.062, "process": 0.133}
    stats = KeywordStats(n_docs=10_000, vocab={t: n for n, t in enumerate(shares)},
                         df=np.array([round(s * 10_000) for s in shares.values()]))
    written: dict[str, Paper] = {}  # what the fake store's BM25 finds: nothing, then a phrase
    app = SimpleNamespace(index=SimpleNamespace(
        keyword_stats=lambda: stats, papers=lambda: written,
        bm25_paper_scores=lambda topic: dict.fromkeys(written, 1.0)))
    lists = ListAnswers(app)  # type: ignore[arg-type]
    for question in ("Which papers use?", "List all papers that use", "Which papers use models?",
                     "Which papers use methods?", "Which papers study learning?"):
        assert not lists.names_a_topic(topic_of(question, or_question=False)), question
        assert "a large share of all abstracts" in no_topic(topic_of(question), stats), question
    for question in ("Which papers use neural networks?", "Which papers use data augmentation?",
                     "Which papers use Gaussian processes?"):
        assert lists.names_a_topic(topic_of(question, or_question=False)), question
    assert lists.names_a_topic("learning", lookup=True)  # "Which papers mention learning?"
    # common words a paper writes as one phrase are a topic (review: "Which papers study
    # learning to learn?" was refused; 32 of the 13.9k write it)
    question = "Which papers study learning to learn?"
    assert not lists.names_a_topic(topic_of(question, or_question=False))
    # a hyphenated word is one word ("Q-learning": "qlearn", not "q" and "learn"; a review)
    assert lists.names_a_topic(topic_of("Which papers use Q-learning?", or_question=False))
    written["p"] = Paper("p", "s", "Learning to learn by gradient descent", "We meta-learn.")
    assert lists.names_a_topic(topic_of(question, or_question=False))
    assert not lists.names_a_topic(topic_of("Which papers study learning?", or_question=False))
    assert no_topic("study it?", stats).endswith("; ask e.g. \"Which papers use diffusion "
                                                "models for planning?\"")


def test_a_list_or_trend_of_common_words_is_one_line_everywhere(
        seed_assistant: Assistant) -> None:
    """"model" is in 64% of the seeds' chunks: a list or a trend of it alone is refused in
    one line naming the fix, in the Lists tab and /ask too, and no normal list is."""
    from assistant.ui.ask_page import AskPage

    stats = seed_assistant.index.keyword_stats()
    assert stats.doc_freq("model") > COMMON_SHARE * stats.n_docs
    for question in ("Which papers study models?", "List all papers on models"):
        with pytest.raises(BadInputError, match="names no topic to list papers on: “(study )?"
                                                "models” has only words found in a large share"):
            seed_assistant.list_answer(question)
        assert "names no topic" in ListsPage(seed_assistant).list_rows(question)[0]
        assert "names no topic" in AskPage(seed_assistant).ask(question)["error"]
    with pytest.raises(BadInputError, match="“models” has no word to search for, only common"):
        seed_assistant.trends("models")
    assert seed_assistant.list_answer("Which papers use diffusion models?").sources
    assert seed_assistant.list_answer("Which papers mention the word model?").sources


def test_a_filter_narrows_the_list_and_is_counted(seed_assistant: Assistant) -> None:
    answer = seed_assistant.list_answer(LIST_QUESTION, Filters(venue="NeurIPS"))
    allowed = [p for p in seed_assistant.index.papers().values() if p.venue.lower() == "neurips"]
    assert answer.receipt is not None and answer.receipt.in_filter == len(allowed)
    assert answer.filters == "venue NeurIPS"


def test_the_lists_page_pages_a_long_list(seed_assistant: Assistant) -> None:
    page = ListsPage(seed_assistant)
    rows = [[str(n), f"title {n}", "2020", "a sentence", f"f#{n}"] for n in range(1, 61)]
    shown, at, note = page.page(rows, 0, 1)
    assert at == 1 and shown[0][0] == str(PAGE + 1) and note.startswith("papers 26–50 of 60")
    assert page.page(rows, 2, 1)[1] == 2 and page.page(rows, 0, -1)[1] == 0  # kept within
    summary, listed, at, _, markdown, bib = page.list_rows(LIST_QUESTION)
    assert re.match(r"\d+ papers? of the 38", summary) and at == 0 and listed
    # the list to take away: as Markdown with its references, its papers as BibTeX
    text = Path(markdown.value["path"]).read_text(encoding="utf-8")
    assert markdown.interactive and all(row[1] in text for row in listed)
    entries = Path(bib.value["path"]).read_text(encoding="utf-8").count("@inproceedings{")
    assert entries == len(listed)
    error, none, _, _, off, _ = page.list_rows(LIST_QUESTION, years="1950")
    assert "no indexed paper is of year 1950" in error and none == []
    assert off.value is None and not off.interactive
    assert "error" in page.topic_trends("")
    # /ask (and the MCP tool) answers a list question with the whole list, as the chat does
    from assistant.ui.ask_page import AskPage

    asked = AskPage(seed_assistant).ask(LIST_QUESTION)
    assert asked["receipt"]["matching"] == len(listed) == len(asked["sources"])
    assert page.topic_trends("reinforcement learning")["total"] >= 1


def test_the_lists_page_draws_the_chart_as_a_figure_leaving_no_file(
        seed_assistant: Assistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    import gradio as gr
    from matplotlib.figure import Figure

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where a temporary file would go
    summary, chart, table = ListsPage(seed_assistant).trend_view("reinforcement learning")
    assert isinstance(chart, Figure) and chart.axes[0].patches
    assert table["headers"] == ["year", "papers", "of stored", "share"]
    assert table["data"][0][:3] == ["2025", summary.split()[0], "38"]
    assert re.match(r"\d+ papers? of the 38 match “reinforcement learning”", summary)
    assert "First counted in 2025; most in 2025" in summary  # when, as `trends` says
    assert list(tmp_path.iterdir()) == []
    assert gr.Plot(format="png").postprocess(chart).plot.startswith("data:image/png;base64,")
    assert ListsPage(seed_assistant).trend_view("", years="1950")[1] is None


@pytest.mark.slow  # the CLI in subprocesses
def test_cli_lists_trends_and_refuses_bad_input(fresh_copy: Path, tmp_path: Path) -> None:
    listed = run("ask", "--all", LIST_QUESTION, "--top-k", "3", "--data-dir", str(fresh_copy))
    assert listed.returncode == 0, listed.stderr
    assert "--top-k was not used: a list gives every paper that answers" in listed.stderr
    assert re.match(r"\d+ papers? of the 38 match", listed.stdout)
    assert "Sources" not in listed.stdout  # the list is its sources
    assert "left out unread" not in listed.stdout + listed.stderr
    short = run("ask", "--all", LIST_QUESTION, "--reread", "1", "--data-dir", str(fresh_copy))
    first = short.stdout.splitlines()[0]
    assert short.returncode == 0 and re.search(r"1 reread, \d+ uncertain left out unread", first)
    assert "left out unread: ask again with a larger --reread to read them" in short.stderr
    assert "was not used" not in short.stderr
    chart = tmp_path / "rl.png"
    trend = run("trends", "reinforcement learning", "--json", "--chart", str(chart),
                "--data-dir", str(fresh_copy))
    assert trend.returncode == 0, trend.stderr
    figures = json.loads(trend.stdout)
    assert figures["total"] == len(figures["paper_ids"]) >= 1
    assert figures["chart"] == str(chart) and chart.read_bytes().startswith(PNG_MAGIC)
    here = tmp_path / "here"  # --json alone writes no chart into the current folder
    here.mkdir()
    alone = run("trends", "reinforcement learning", "--json", "--data-dir", str(fresh_copy),
                cwd=here)
    assert alone.returncode == 0 and json.loads(alone.stdout)["chart"] is None, alone.stderr
    assert list(here.iterdir()) == []
    for args, message in ((["trends", " "], "the topic is empty"),
                          (["trends", "graphs", "--year", "1950-1960"],
                           "no indexed paper is of years 1950–1960"),
                          (["ask", "--all", LIST_QUESTION, "--year", "19x"], "bad year filter"),
                          # an option given empty had been no filter (R10: 253 papers listed)
                          (["ask", "--author", "", LIST_QUESTION], "--author is empty"),
                          (["trends", "graphs", "--venue", " "], "--venue is empty"),
                          (["ask", "Which papers study models?"], "names no topic to list"),
                          (["trends", "models"], "has no word to search for, only common"),
                          # refused before the screening, not after it with no fix named
                          (["trends", "graphs", "--chart", str(chart / "x.png")],
                           f"{chart} is a file, not a folder; give --chart a .png path")):
        bad = run(*args, "--data-dir", str(fresh_copy))
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


@skipif_no_shared_data
def test_the_labelled_list_questions_match_the_corpus_as_labelled() -> None:
    """Every expected paper of evals/lists.jsonl holds its question's grep pattern, and so
    does every paper read and excluded; together they are every paper that does."""
    from assistant.corpus import read_paths

    papers = {p.source: p for p in read_paths([SHARED_DATA]).papers}
    items = [json.loads(line) for line in
             (PROJECT_ROOT / "evals" / "lists.jsonl").read_text().splitlines() if line.strip()]
    assert len(items) >= 20 and {i["split"] for i in items} == {"dev", "test"}
    for item in items:
        pattern = re.compile(item["grep"], re.I)
        matching = {s for s, p in papers.items() if pattern.search(f"{p.title} {p.text}")}
        assert set(item["expected_sources"]) | set(item["excluded"]) == matching, item["id"]
        assert not set(item["expected_sources"]) & set(item["excluded"]), item["id"]


@skipif_no_shared_data
def test_the_pooled_judgments_read_papers_the_grep_missed() -> None:
    """evals/lists-pooled.jsonl: each line a listed paper the grep did not match (or, as a
    control, one it did), read once by the blind judge, with its verdict and reason."""
    from assistant.corpus import read_paths

    sources = {p.source for p in read_paths([SHARED_DATA, PROJECT_ROOT / "seeds"]).papers}
    items = {i["id"]: i for i in (json.loads(line) for line in
             (PROJECT_ROOT / "evals" / "lists.jsonl").read_text().splitlines() if line.strip())}
    lines = [json.loads(line) for line in
             (PROJECT_ROOT / "evals" / "lists-pooled.jsonl").read_text().splitlines()]
    assert len({(line["id"], line["source"]) for line in lines}) == len(lines)
    for line in lines:
        item = items[line["id"]]
        matched = set(item["expected_sources"]) | set(item["excluded"])
        assert line["source"] in sources and (line["source"] in matched) == line["control"]
        assert isinstance(line["answers"], bool) and line["reason"].strip()


def test_a_list_says_when_no_listed_paper_names_what_was_asked(
        seed_assistant: Assistant) -> None:
    asked = seed_assistant.list_answer("Which papers use the JAX Adam optimizer?")
    assert asked.receipt is not None and asked.receipt.matching  # no seed names JAX
    assert asked.unmentioned == ["JAX"]
    assert asked.public_json()["unmentioned"] == ["JAX"]
    # "… in JAX" asks for papers on both facets (facets.py): none of the seeds answers
    both = seed_assistant.list_answer("Which papers use the Adam optimizer in JAX?")
    assert both.receipt is not None and both.receipt.matching == 0
    named = seed_assistant.list_answer("Which papers use the Adam optimizer?")
    assert named.receipt is not None and named.receipt.matching and named.unmentioned == []
