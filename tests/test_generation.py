"""The model path over real HTTP to a local OpenAI-compatible server with SSE streaming,
and the offline extractive path."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from conftest import FILE_A, FILE_B, make_settings
from fake_openai import FakeOpenAI

from assistant.answering import NO_ANSWER, cited_numbers, clean_citations
from assistant.chat_prompt import fit_sources
from assistant.extractive import MAX_SENTENCES, NOTICE, ScoredSentence
from assistant.generation import GenerationError, helpful_sources
from assistant.listing import ListScreen, ScreenSettings
from assistant.pipeline import Assistant
from assistant.tuning import JUDGE_BATCH, JUDGE_MISSES
from assistant.types import Answer


def model_assistant(seed_dir: Path, server: FakeOpenAI, **llm: object) -> Assistant:
    return Assistant(make_settings(seed_dir, base_url=server.base_url, model="scripted-model",
                                   api_key="test-key", **llm))


def test_streams_the_reply_and_drops_an_invented_citation(seed_dir: Path, server: FakeOpenAI) -> None:
    server.replies = ["CRAFT predicts future links with cross-attention [1]. It beats all [9]."]
    app = model_assistant(seed_dir, server)
    events = list(app.ask_stream("What is CRAFT?"))
    deltas = [e for e in events if isinstance(e, str)]
    answer = events[-1]
    assert isinstance(answer, Answer)
    assert len(deltas) == 2, "the answer arrives sentence by sentence, each once checked"
    assert "".join(deltas).strip() == answer.answer
    assert "[9]" not in answer.answer and "[1]" in answer.answer
    assert answer.dropped_citations == [9]
    assert answer.mode == "llm" and answer.model == "scripted-model"
    assert [c.n for c in answer.citations] == [1]
    assert answer.citations[0].source == f"{FILE_B}#1"
    # The abstract sentence behind the claim is found for highlighting.
    assert answer.citations[0].highlights and "cross-attention" in answer.citations[0].highlights[0]
    assert answer.citations[0].highlights[0] in answer.citations[0].text
    assert answer.usage == {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    assert set(answer.timings_ms) == {"retrieve", "generate", "total"}


def test_prompt_holds_the_numbered_sources(seed_dir: Path, server: FakeOpenAI) -> None:
    server.replies = ["It is TCCM [1]."]
    model_assistant(seed_dir, server).ask("What is TCCM?")
    request = server.requests[-1]
    assert request["auth"] == "Bearer test-key"
    body = request["body"]
    assert body["model"] == "scripted-model" and body["stream"] is True
    system, user = body["messages"]
    assert "square brackets" in system["content"]
    # its byline (the seeds give the venue and year, no authors) and its locator
    assert f"[1] TCCM: Time-Conditioned Contraction Matching (NeurIPS 2025; {FILE_A}#7)" in user["content"]
    assert "Question: What is TCCM?" in user["content"]


def test_only_cited_sources_are_citations(seed_dir: Path, server: FakeOpenAI) -> None:
    question = "Summarize the papers on scaling test-time compute for LLM reasoning."
    app = model_assistant(seed_dir, server)
    second = app.retrieve(question)[1].paper.text.split(". ")[0]
    server.replies = [f"{second}. [2]"]
    answer = app.ask(question)
    assert len(answer.sources) >= 2
    assert [c.n for c in answer.citations if c.origin == "model"] == [2]
    # the summary's other papers are cited by the quotes that follow (quoted_answers.py), and
    # every citation is one the answer writes
    assert answer.off_question is not None
    assert {c.n for c in answer.citations} == set(cited_numbers(answer.answer))


def test_usage_is_counted_when_the_server_reports_none(seed_dir: Path, server: FakeOpenAI) -> None:
    server.usage = False
    server.replies = ["PoLAR fixes low stable rank [1]."]
    answer = model_assistant(seed_dir, server).ask("What is PoLAR?")
    assert answer.usage and answer.usage["estimated"] is True and answer.usage["prompt_tokens"] > 100


def test_off_topic_question_makes_no_model_call(seed_dir: Path, server: FakeOpenAI) -> None:
    answer = model_assistant(seed_dir, server).ask("What is the best sourdough recipe?")
    assert answer.answer == NO_ANSWER and answer.citations == [] and answer.sources == []
    assert server.requests == []


def test_server_error_is_readable(seed_dir: Path, server: FakeOpenAI) -> None:
    server.status = 401
    with pytest.raises(GenerationError, match="rejected the API key"):
        model_assistant(seed_dir, server).ask("What is CRAFT?")


def test_unreachable_endpoint_is_readable(seed_dir: Path) -> None:
    app = Assistant(make_settings(seed_dir, base_url="http://127.0.0.1:9/v1", model="m"))
    with pytest.raises(GenerationError, match="cannot reach the model endpoint"):
        app.ask("What is CRAFT?")


def test_sources_are_fitted_to_the_context_window(seed_assistant: Assistant) -> None:
    from assistant.answering import number_sources

    sources = number_sources(seed_assistant.retrieve("graph neural networks", top_k=5))
    llm = seed_assistant.settings.llm.model_copy(update={"context_window": 700, "max_tokens": 200})
    blocks = fit_sources("graph neural networks", sources, llm)
    assert 1 <= len(blocks) < len(sources)
    assert blocks[0].startswith("[1] ")


def test_citations_of_no_source_are_dropped_and_reported() -> None:
    text, dropped = clean_citations("Claim [1]. Other [12] and [2, 7] end [3]. A [sic] list", {1, 2})
    assert text == "Claim [1]. Other and [2] end. A [sic] list"
    assert dropped == [12, 7, 3]
    assert clean_citations("a [1][4] b", {1}) == ("a [1] b", [4])


def test_a_long_citation_list_is_checked_whole() -> None:
    """"[1, 2, … 10]": the numbers that are no source go, the others stay."""
    text, dropped = clean_citations("Several papers study graphs [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].",
                                    {1, 2, 3, 4, 5})
    assert text == "Several papers study graphs [1][2][3][4][5]."
    assert dropped == [6, 7, 8, 9, 10]


@pytest.mark.parametrize(("reply", "shown", "cited", "dropped"), [
    # A range is its sources: checked one by one, as a list is.
    ("Both study graphs [1-2].", "Both study graphs [1][2].", [1, 2], []),
    ("Both scale [1\u2009–\u20092, 5].", "Both scale [1][2].", [1, 2], [5]),
    # A range reaching past the sources is an interval: read as written, citing nothing
    # (it became "[1][2]", citing both sources, and "[2-9]" stayed unchecked).
    ("k is chosen in [1–10] [2].", "k is chosen in [\u20601–10] [2].", [2], []),
    ("All three scale [1–3, 5].", "All three scale [\u20601–3, 5].", [], []),
    # An interval with 0 in it is no citation: it became "[1]", citing source 1.
    ("Scores lie in [0, 1] [2].", "Scores lie in [0, 1] [2].", [2], []),
    ("It holds on [0-1] [1].", "It holds on [0-1] [1].", [1], []),
    # Nor are years, or a run of digits no source list reaches.
    ("Papers of [1990-2005] [1].", "Papers of [1990-2005] [1].", [1], []),
    ("Papers of [1990, 2005] [1].", "Papers of [1990, 2005] [1].", [1], []),
    ("As Smith [2019] shows [1].", "As Smith [2019] shows [1].", [1], []),
    # a run's: three digits are a number of no source, not text ("2. [100] [101] … [122]")
    ("It works [1]. 2. [100] [101] [102]", "It works [1]. 2. ", [1], [100, 101, 102]),
    ("A grid of [128] [128] pixels [1].", "A grid of [128] [128] pixels [1].", [1], []),  # a review's
    ("Values lie in [100, 200] [1].", "Values lie in [100, 200] [1].", [1], []),  # a review's
    ("Images of size [224] [1].", "Images of size [224] [1].", [1], []),
    ("Odd [" + "9" * 5000 + "] text [1].", "Odd [" + "9" * 5000 + "] text [1].", [1], []),
])
def test_a_range_of_sources_is_checked_and_an_interval_is_text(
        reply: str, shown: str, cited: list[int], dropped: list[int]) -> None:
    text, removed = clean_citations(reply, {1, 2})
    assert (text, removed) == (shown, dropped)
    assert cited_numbers(text) == cited


def test_a_model_answer_with_a_range_and_an_interval_cites_what_it_names() -> None:
    """A model answer's sentences as the cite-safe reader takes them (citesafe.py): a range
    names its sources, an interval stays text."""
    from assistant.citesafe import with_markers
    from assistant.sentences import TextSentences

    reader = TextSentences({1, 2})
    reply = "Link scores are calibrated to [0, 1] [1]. Both predict links [1-2]."
    sentences = reader.feed(reply) + reader.finish(truncated=False)
    assert [(s.text, s.cites) for s in sentences] == [
        ("Link scores are calibrated to [0, 1].", [1]), ("Both predict links.", [1, 2])]
    assert with_markers(sentences[1].text, sentences[1].cites) == "Both predict links [1][2]."


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
def test_a_secret_split_across_tokens_is_redacted(size: int) -> None:
    """A reply repeating the key arrives in pieces; none of them shows any part of it."""
    from assistant.errors import StreamingRedactor, add_secret

    key = "kq-streamed-secret-0123456789"  # not key-shaped: found as registered only
    add_secret(key)
    reply = f"CRAFT links [1]. Your key is {key}, and again:{key} [1]."
    hidden = StreamingRedactor()
    pieces = [hidden.feed(reply[i:i + size]) for i in range(0, len(reply), size)]
    pieces.append(hidden.flush())
    assert "".join(pieces) == "CRAFT links [1]. Your key is [redacted], and again:[redacted] [1]."
    assert not any(key[:6] in p or key[-6:] in p for p in pieces)
    # a passphrase with spaces, and shapes of keys no one registered
    add_secret("open sesame now")
    reply = "Say open sesame now, Bearer abcdefghijklmnop1234 and api_key: zzzzzzzzzzzz9 ok."
    hidden = StreamingRedactor()
    out = "".join(hidden.feed(reply[i:i + size]) for i in range(0, len(reply), size))
    assert out + hidden.flush() == "Say [redacted], [redacted] and api_key: [redacted] ok."


def test_streamed_text_waits_only_while_it_may_become_a_secret() -> None:
    """Plain text goes out at once (a word at most waits), also text without spaces; an
    answer cut off mid-key shows none of it."""
    from assistant.errors import StreamingRedactor, add_secret

    key = "sk-proj-" + "A1b2C3d4" * 20  # 168 characters, as a real project key
    add_secret(key)
    hidden = StreamingRedactor()
    words = "CRAFT predicts future links on temporal graphs with cross-attention [1]. " * 4
    assert len(hidden.feed(words)) >= len(words) - 2  # ". " may begin a key
    chinese = "这是一个中文答案没有空格" * 3
    assert StreamingRedactor().feed(chinese) == chinese
    hidden = StreamingRedactor()
    shown = hidden.feed("The key: " + key[:40]) + hidden.flush()
    assert shown == "The key: [redacted]" and key[:12] not in shown


def test_a_password_in_the_endpoint_url_is_named_nowhere() -> None:
    from assistant.errors import redact, shown_endpoint

    url = "http://alice:url-Password-77@127.0.0.1:8000/v1"
    assert shown_endpoint(url) == "http://127.0.0.1:8000/v1"
    assert redact(f"cannot reach {url}") == "cannot reach http://alice:[redacted]@127.0.0.1:8000/v1"
    assert shown_endpoint("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"


def test_extractive_answer_quotes_sentences_with_citations(seed_assistant: Assistant) -> None:
    answer = seed_assistant.ask("How many languages can the MuRating autorater handle?")
    assert answer.mode == "extractive" and answer.answer.startswith(NOTICE)
    assert "17 languages" in answer.answer
    cited = answer.citations[0]
    assert cited.source == f"{FILE_A}#3"
    body = answer.answer[len(NOTICE):]
    # Sentences, not the whole abstract, and each is quoted verbatim from its source.
    assert len(body) < len(cited.text)
    for sentence in cited.highlights:
        assert sentence in cited.text and sentence in answer.answer


def test_a_definition_question_gets_the_introducing_sentence_and_the_next(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """"What is CRAFT?" quotes the sentence that introduces CRAFT and the one after it, which
    says what the design does; a bare "CRAFT" is a search, not a definition question. (With
    the abstract's opening sentence counted in full, its four best sentences leave that one
    out, so only the definition rule brings it in.)"""
    from assistant import extractive

    monkeypatch.setattr(extractive, "BACKGROUND_FACTOR", 1.0)
    introduces = "we propose Cross-Attention based Future Link Predictor on Temporal Graphs (CRAFT)"
    continuation = "This design provides strong expressive power"
    definition = seed_assistant.ask("What is CRAFT?").answer
    assert introduces in definition and continuation in definition
    assert definition.index(introduces) < definition.index(continuation)
    assert continuation not in seed_assistant.ask("CRAFT").answer


def test_the_answer_quotes_the_authors_finding_over_the_opening_background(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question that describes a paper's problem resembles the abstract's opening sentences
    (the field, earlier work) most; when it asks what was done or found, the answer is what
    the authors then did or found, so those opening sentences count for less. With them
    counted in full, the answer is four sentences of background and leaves the finding out.
    A question about the problem itself keeps the opening at full weight: discounted, the
    answer would lose the sentence that says what makes the problem costly."""
    from assistant import extractive
    from assistant.intent import read_intent

    finding_question = ("How well does federated learning work when client data come from "
                        "non-stationary Markov processes?")
    finding = "We answer affirmatively under standard assumptions"
    problem_question = "What makes spatiotemporal graph learning costly?"
    problem = "suffer from high computational complexity"
    assert extractive.own_work_from(["Nets overfit.", "Data are scarce.", "We propose X.",
                                     "Our results hold."]) == 2
    assert extractive.own_work_from(["Nets overfit.", "Data are scarce."]) == 0
    assert read_intent(finding_question).contribution
    assert not read_intent(problem_question).contribution
    assert finding in seed_assistant.ask(finding_question).answer
    assert problem in seed_assistant.ask(problem_question).answer
    with monkeypatch.context() as patched:
        patched.setattr(extractive, "BACKGROUND_FACTOR", 1.0)
        assert finding not in seed_assistant.ask(finding_question).answer
    monkeypatch.setattr(extractive, "read_intent", lambda question: dataclasses.replace(
        read_intent(question), contribution=True))
    assert problem not in seed_assistant.ask(problem_question).answer


def test_extractive_summary_has_one_line_per_paper(seed_assistant: Assistant) -> None:
    """A "which papers…" question gets the comparison table (compare.py): a row per paper."""
    answer = seed_assistant.ask("Which papers address safety or security attacks on large models?")
    rows = [line for line in answer.answer.splitlines() if line.startswith("| **")][1:]
    assert len(rows) == len(answer.citations) >= 2
    assert {c.source for c in answer.citations} >= {f"{FILE_B}#17", f"{FILE_B}#19"}


def test_extractive_off_topic_says_so(seed_assistant: Assistant) -> None:
    answer = seed_assistant.ask("Who won the 2022 FIFA World Cup?")
    assert answer.answer.startswith(NO_ANSWER) and answer.citations == [] and answer.sources == []
    assert "No indexed abstract mentions “FIFA”" in answer.answer


def test_an_answer_from_papers_that_never_name_what_was_asked_says_so(
        seed_assistant: Assistant, seed_dir: Path, server: FakeOpenAI) -> None:
    """"Singapore" is in one seed abstract (so the question is not refused as naming nothing
    stored), but not in the federated-learning paper that answers: the answer says so, in
    both modes and in the markdown export; a question whose sources name it gets no note."""
    from assistant.references import render
    from assistant.ui.render import answer_as_markdown, render_answer

    question = "Can federated learning with Markovian data streams run at Singapore hospitals?"
    answer = seed_assistant.ask(question)
    assert [c.source for c in answer.citations] == [f"{FILE_A}#1"]
    assert answer.unmentioned == ["Singapore"]
    note = "The cited abstract does not mention “Singapore”; it may not answer the question"
    assert note in render(answer, "markdown")
    assert f'<p class="note unmentioned">⚠ {note}' in render_answer(answer)
    assert note in answer_as_markdown(answer)
    assert seed_assistant.ask("Can federated learning with Markovian data streams run in "
                              "hospitals?").unmentioned == []
    server.replies = ["Yes: FL supports Markovian client streams [1]."]
    assert model_assistant(seed_dir, server).ask(question).unmentioned == ["Singapore"]


def test_a_model_answer_is_marked_unsure_only_when_it_cites(
        seed_dir: Path, server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the joint reading's doubt level a model answer is marked unsure like an
    extractive one; a reply that cites nothing has no quotes to check, so no mark (the
    uncited note speaks instead)."""
    import dataclasses

    from assistant.ranking import JointReading, load_ranker

    shipped = load_ranker()
    joint = JointReading(0.5, -1e9, 1, make_settings(seed_dir).index.embed_model, 1e9)
    doubting = dataclasses.replace(shipped, cross_encoder_below=-100.0, joint_reading=joint)
    monkeypatch.setattr("assistant.refusals.load_ranker", lambda: doubting)
    app = model_assistant(seed_dir, server)
    question = "How do graph models forecast traffic efficiently?"  # read by the cross-encoder
    server.replies = ["Graph models forecast traffic with spatio-temporal layers [1]."]
    assert app.ask(question).unsure
    server.replies = ["The abstracts do not say how."]
    answer = app.ask(question)  # unchecked: the extractive answer, whose quotes are marked
    assert answer.unchecked and answer.sources and answer.unsure == bool(answer.citations)
    server.replies = ["The corpus has no abstract about this question."]
    answer = app.ask(question)
    assert not answer.citations and not answer.unsure


def test_follow_up_is_rewritten_by_the_model(seed_dir: Path, server: FakeOpenAI) -> None:
    server.replies = ["How does DTE differ from TCCM for anomaly detection?",
                      "TCCM needs one forward pass, DTE is costly [1]."]
    app = model_assistant(seed_dir, server)
    history = [("What is DTE?", "DTE is a diffusion-based anomaly detector [1].")]
    answer = app.ask("and how does it differ from TCCM?", history=history)
    condense = server.requests[0]["body"]["messages"][0]["content"]
    assert "Researcher: What is DTE?" in condense and "Last message: and how does it differ" in condense
    assert answer.standalone_question == "How does DTE differ from TCCM for anomaly detection?"
    assert "Question: How does DTE differ from TCCM" in server.requests[1]["body"]["messages"][1]["content"]
    assert answer.citations[0].source == f"{FILE_A}#7"


@pytest.mark.parametrize("rewrite", [
    "Rewrite the researcher's last message as one standalone question that can be understood.",
    "Researcher:", "The last message is a classic example of the count function in Python.", "",
    # a run: the follow-up without its subject ("What problems does it face?" after "What
    # is federated learning?" was answered from a paper on faces)
    "What benchmark was it evaluated on?", "What benchmark was the method evaluated on?"])
def test_a_rewrite_not_in_the_conversations_words_is_not_searched(
        seed_dir: Path, server: FakeOpenAI, rewrite: str) -> None:
    """A run: Gemma 270M rewrote "who wrote it?" as its own prompt, SmolLM2 135M as
    "Researcher:" or a sentence on Python, each searched and refused ("never 'Rewrite',
    'standalone'") or answered from another paper. Such a rewrite is not searched: the
    follow-up is joined to the question before it, as offline."""
    server.replies = [rewrite, "TCCM needs one forward pass [1]."]
    app = model_assistant(seed_dir, server)
    history = [("What is TCCM?", "TCCM is a contraction matching method [1].")]
    answer = app.ask("and what benchmark was it evaluated on?", history=history)
    assert answer.standalone_question == "What is TCCM? and what benchmark was it evaluated on?"


def test_a_refusal_no_model_wrote_is_not_labelled_as_the_models(seed_dir: Path,
                                                                server: FakeOpenAI) -> None:
    """A run: a retrieval refusal, no model call made, was labelled "model gemma-270m",
    mode "llm"; only the model's relevance check refuses as the model."""
    app = model_assistant(seed_dir, server)
    answer = app.ask("What is the boiling point of water at sea level?")
    assert not answer.sources and answer.refusal is not None and not server.requests
    assert (answer.mode, answer.model) == ("extractive", None)


def test_a_follow_up_that_does_not_lean_back_is_asked_as_it_is(seed_dir: Path,
                                                               server: FakeOpenAI) -> None:
    """A run: "What is a capsule network?" after a count was rewritten by the model as its
    prompt and refused; with the rewrite turned down, a question of its own is asked as it
    is, not joined to the one before. One that leans back without saying so ("What
    evaluation metrics did they report?", a review) is still the model's to rewrite."""
    echo = "Rewrite the researcher's last message as one standalone question, without it."
    server.replies = [echo, "TCCM needs one forward pass [1]."]
    app = model_assistant(seed_dir, server)
    answer = app.ask("What is TCCM?", history=[("How many papers use diffusion?", "12 papers")])
    assert answer.standalone_question is None and len(server.requests) == 2
    server.replies = ["What evaluation metrics did the TCCM paper report?",
                      "TCCM reports one forward pass [1]."]
    history = [("What is TCCM?", "TCCM is a contraction matching method [1].")]
    answer = app.ask("What evaluation metrics did they report?", history=history)
    assert answer.standalone_question == "What evaluation metrics did the TCCM paper report?"


def test_offline_follow_up_leans_on_the_previous_question(seed_assistant: Assistant) -> None:
    history = [("What is TCCM?", "…")]
    answer = seed_assistant.ask("and what benchmark was it evaluated on?", history=history)
    assert answer.standalone_question and answer.standalone_question.startswith("What is TCCM?")
    assert answer.citations[0].source == f"{FILE_A}#7"


# ---------------------------------------------------------------- issue 7 and 8


@pytest.mark.parametrize("reply", [
    "The corpus has no abstract about this question.",
    "The corpus has no abstract about this question [1].",
    "The abstracts provided contain no information on the limitations of CRAFT.",
])
def test_a_model_refusal_shows_no_sources(seed_dir: Path, server: FakeOpenAI, reply: str) -> None:
    """The model saying the sources do not answer (as its prompt asks) is a refusal, as the
    offline one is: no sources and no citation (review: five unrelated papers listed, one
    starred and put in the BibTeX), not an unchecked answer."""
    server.replies = [reply]
    app = model_assistant(seed_dir, server)  # one assistant: each ask is its own answer
    answer = app.ask("What are the limitations of CRAFT?")
    assert answer.sources == [] and answer.citations == [] and answer.claims == []
    assert not answer.uncited and answer.answer == reply.replace(" [1]", "")  # as streamed
    receipt = answer.receipt  # what it read, so the user can judge the "no"
    assert receipt is not None and receipt.nearest and receipt.cited == 0
    assert receipt.nearest[0].title.startswith("CRAFT: Future Link Predictor")
    assert all(n.reason.startswith("The model read it as not answering. ") for n in receipt.nearest)
    for cited in ("CRAFT predicts links [1]. The corpus has no abstract on its limits.",
                  "The corpus contains no information on its limits, but it scales [1].",
                  "None of the papers states a limitation; [1] predicts future links [1].",
                  "No paper addresses its limits, but CRAFT scales to large graphs [1]."):
        server.replies = [cited]  # an answer that cites what it found is no refusal
        answer = app.ask("What are the limitations of CRAFT?")
        assert [c.n for c in answer.citations] == [1] and answer.sources, cited
        assert answer.receipt is not None and answer.receipt.nearest == [], cited


def test_json_reports_dropped_citations_and_uncited(seed_dir: Path, server: FakeOpenAI) -> None:
    from assistant.types import PUBLIC_JSON_KEYS

    said = "CRAFT builds on learnable node embeddings and cross-attention"
    server.replies = [f"{said} [1] [9].", f"{said}."]
    app = model_assistant(seed_dir, server)
    cited = app.ask("What is CRAFT?").public_json()
    assert set(cited) == PUBLIC_JSON_KEYS
    assert cited["dropped_citations"] == [9] and cited["uncited"] is False
    assert cited["truncated"] is False and cited["cite_mode"] == "free"
    assert [c["origin"] for c in cited["citations"]] == ["model"]
    # left uncited, it gets the source that supports it, attached by the assistant
    attached = app.ask("What is CRAFT?").public_json()
    assert attached["uncited"] is False and attached["answer"] == f"{said} [1]."
    assert [(c["n"], c["origin"]) for c in attached["citations"]] == [(1, "assistant")]
    assert attached["model_reply"] == f"{said}."


def test_sources_are_exactly_those_the_model_saw(seed_dir: Path, server: FakeOpenAI) -> None:
    """With a window too small for every source, the Answer lists only those in the prompt,
    and the prompt stays inside the window (issue 7, item 11)."""
    import re

    from assistant.chat_prompt import count_tokens

    question = "Summarize the papers on scaling test-time compute for LLM reasoning."
    app = model_assistant(seed_dir, server, context_window=900, max_tokens=300)
    first = app.retrieve(question)[0].paper.text.split(". ")[0]
    server.replies = [f"{first}. [1][2][5]"]
    answer = app.ask("Summarize the papers on scaling test-time compute for LLM reasoning.",
                     top_k=5)
    messages = server.requests[-1]["body"]["messages"]
    shown = [int(n) for n in re.findall(r"^\[(\d+)\] ", messages[1]["content"], re.M)]
    assert shown and [s.n for s in answer.sources] == shown
    assert len(shown) < 5, "the window was meant to be too small for every source"
    assert sum(count_tokens(m["content"]) for m in messages) <= 900 - 300
    assert 5 not in {c.n for c in answer.citations} and 5 in answer.dropped_citations


def test_over_long_question_is_refused_before_any_call(seed_dir: Path, server: FakeOpenAI) -> None:
    from assistant.errors import BadInputError

    app = model_assistant(seed_dir, server)
    with pytest.raises(BadInputError, match="100,000 characters long") as info:
        app.ask(("What is CRAFT? " * 6667)[:100_000])
    assert info.value.exit_code == 2
    # Within the character limit but not within a small window: refused too, naming the setting.
    small = model_assistant(seed_dir, server, context_window=600, max_tokens=400)
    with pytest.raises(BadInputError, match="ASSISTANT_LLM_CONTEXT_WINDOW"):
        small.ask("What is CRAFT, and how " + "exactly " * 300 + "does it work?")
    assert server.requests == []


def test_extractive_refuses_an_over_long_question(seed_assistant: Assistant) -> None:
    from assistant.errors import BadInputError

    with pytest.raises(BadInputError, match="the limit is 4,000"):
        seed_assistant.ask("x" * 100_000)


def test_error_echoing_the_key_is_redacted(seed_dir: Path, server: FakeOpenAI) -> None:
    """An error body carrying the key back never puts it in the message (issue 7, item 5)."""
    from assistant.errors import EndpointError

    key = "hunter2-not-shaped-like-a-key"
    server.status = 400
    server.error_message = f"bad request; you sent Authorization: Bearer {key} and key {key}"
    app = Assistant(make_settings(seed_dir, base_url=server.base_url, model="scripted-model",
                                  api_key=key))
    with pytest.raises(GenerationError) as info:
        app.ask("What is CRAFT?")
    assert isinstance(info.value, EndpointError) and info.value.exit_code == 3
    assert "HTTP 400" in str(info.value) and "[redacted]" in str(info.value)
    assert key not in str(info.value)


def test_retries_are_configurable(seed_dir: Path, server: FakeOpenAI) -> None:
    """ASSISTANT_LLM_RETRIES=0 makes one attempt; the default retries a 503 twice."""
    server.status = 503
    with pytest.raises(GenerationError, match="HTTP 503"):
        model_assistant(seed_dir, server, retries=0).ask("What is CRAFT?")
    assert len(server.requests) == 1
    with pytest.raises(GenerationError, match="after 2 retries"):
        model_assistant(seed_dir, server).ask("What is CRAFT?")
    assert len(server.requests) == 1 + 3


def test_deadline_bounds_a_slow_stream(seed_dir: Path, server: FakeOpenAI) -> None:
    """A token every 0.5 s with a 1.5 s deadline fails near 1.5 s, with the partial text."""
    import time

    server.replies = ["CRAFT predicts future links with cross-attention [1]. " * 4]
    server.delay = 0.5
    app = model_assistant(seed_dir, server, timeout=1.5)
    app.retrieve("warm up the index")
    started = time.monotonic()
    with pytest.raises(GenerationError, match="ASSISTANT_LLM_TIMEOUT") as info:
        app.ask("What is CRAFT?")
    assert time.monotonic() - started < 6
    # nothing was shown: the first sentence never came whole, so it was never checked
    assert info.value.partial == "" and "cut off after" in str(info.value)


QUESTION_WITH_SEVERAL_SOURCES = "Compare the graph neural network papers: what do they study?"


def test_relevance_check_keeps_only_the_abstracts_the_model_marks(seed_dir: Path,
                                                                   server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, relevance_check=True)
    found = app.retrieve(QUESTION_WITH_SEVERAL_SOURCES)
    assert len(found) >= 2
    server.requests.clear()
    server.replies = ["2", "It studies memorization [1]."]
    answer = app.ask(QUESTION_WITH_SEVERAL_SOURCES)
    assert [s.paper_id for s in answer.sources] == [found[1].paper.paper_id]
    check = server.requests[0]["body"]["messages"][0]["content"]
    assert all(f"[{i}] {f.paper.title}" in check for i, f in enumerate(found, start=1))


def test_relevance_check_answering_none_gives_no_sources_and_no_answer_call(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, relevance_check=True)
    server.requests.clear()
    server.replies = ["NONE", "An answer that must not be asked for [1]."]
    answer = app.ask(QUESTION_WITH_SEVERAL_SOURCES)
    assert answer.sources == [] and answer.citations == [] and answer.answer.startswith(NO_ANSWER)
    assert len(server.requests) == 1


@pytest.mark.parametrize(("reply", "kept"), [
    ("NONE of the 5 abstracts helps.", []),
    ("None. (Abstract 2 is about a different topic.)", []),
    ("1, 2", [1, 2]),
    ("Only 1 helps; 2 does not.", [1, 2]),  # prose is not a list: nothing is dropped
    ("None of them is perfect, but 1 and 2 help.", [1, 2]),  # nor is a NONE taken back
])
def test_relevance_check_reads_only_a_list_or_none(seed_dir: Path, server: FakeOpenAI,
                                                   reply: str, kept: list[int]) -> None:
    app = model_assistant(seed_dir, server, relevance_check=True)
    found = app.retrieve(QUESTION_WITH_SEVERAL_SOURCES)[:2]
    server.replies = [reply]
    assert app.chat_model is not None
    assert helpful_sources(app.chat_model, QUESTION_WITH_SEVERAL_SOURCES, found) == [
        found[i - 1] for i in kept]


def test_a_two_part_question_also_gets_the_sentence_with_the_other_part() -> None:
    """The best sentences answer "where did accuracy plateau"; the count of models is in a
    sentence that scored lower: it is quoted too, since it holds keywords the others lack,
    ahead of the paper's higher-scoring sentences that fill the answer to MAX_SENTENCES.
    A sentence of another paper that did not rank close is not quoted."""
    from assistant.extractive import MAX_SENTENCES, ScoredSentence, select

    def sentence(n: int, position: int, score: float, *terms: str) -> ScoredSentence:
        return ScoredSentence(n, position, f"sentence {n}.{position}", score, frozenset(terms))

    plateau = sentence(1, 4, 0.9, "accuraci", "plateau", "recoveri")
    count = sentence(1, 1, 0.4, "vision", "model", "test")
    other_paper = sentence(2, 0, 0.45, "vision", "model", "test")
    fillers = [sentence(1, 5 + i, 0.5 - 0.01 * i, "simul", "trial") for i in range(3)]
    weights = {"vision": 2.0, "model": 1.0, "test": 1.0, "recoveri": 2.0, "accuraci": 1.0,
               "plateau": 3.0}
    scored = [plateau, count, other_paper, *fillers]
    papers = {1: 0.9, 2: 0.5}
    assert MAX_SENTENCES == 4
    assert select("How many vision models were tested, and where did recovery accuracy "
                  "plateau?", scored, papers, weights) == [count, plateau, *fillers[:2]]
    assert select("Where did recovery accuracy plateau?", scored, papers,
                  {"recoveri": 2.0, "accuraci": 1.0, "plateau": 3.0}) == [plateau, *fillers]


def test_completion_counts_the_title_as_said() -> None:
    """The answer leads with the paper's title, so a sentence whose only gain is the paper's
    subject, which the title names, is not added ahead of the sentence with the figures asked
    for ("What transfer rates did the SVM-based brain-computer interface reach?"). Without
    the title's terms the subject's sentences win, as before."""
    from assistant.extractive import MAX_SENTENCES, ScoredSentence, select

    def sentence(position: int, score: float, *terms: str) -> ScoredSentence:
        return ScoredSentence(1, position, f"sentence {position}", score, frozenset(terms))

    best = sentence(1, 0.9, "farwel", "donchin")
    aim = sentence(3, 0.7, "improv", "transfer", "rate")  # close to the best: quoted
    subject = sentence(0, 0.4, "brain", "comput", "interfac")
    svm = sentence(4, 0.3, "svm")
    rates = sentence(5, 0.6, "achiev", "averag", "bit")  # the figures
    weights = {"transfer": 1.0, "rate": 1.0, "svm": 2.0, "farwel": 2.0, "donchin": 2.0,
               "brain": 1.0, "comput": 1.0, "interfac": 1.0, "reach": 1.0}
    question = "What transfer rates did the SVM-based Farwell & Donchin brain-computer interface reach?"
    scored = [best, aim, subject, svm, rates]
    title = {1: frozenset({"improv", "transfer", "rate", "brain", "comput", "interfac"})}
    assert MAX_SENTENCES == 4
    assert select(question, scored, {1: 1.0}, weights, title) == [best, aim, svm, rates]
    assert select(question, scored, {1: 1.0}, weights) == [subject, best, aim, svm]


def one_paper_sentence(position: int, score: float, text: str) -> ScoredSentence:
    return ScoredSentence(1, position, text, score)


def leading_sentences(text: str) -> list[ScoredSentence]:
    """MAX_SENTENCES sentences of one paper that score best, in falling order."""
    return [one_paper_sentence(p, 0.9 - 0.05 * p, f"{text} {p}.") for p in range(MAX_SENTENCES)]


def test_a_how_question_gets_the_sentence_that_proposes_the_approach() -> None:
    """"How can X be done?" is answered by the authors' approach: when the best sentences
    (here, the ones that restate the problem) leave out the one in which they propose it,
    it is quoted too, beyond MAX_SENTENCES; a question that asks something else is not."""
    from assistant.extractive import select

    restating = leading_sentences("Regression on many machines is hard")
    proposal = one_paper_sentence(5, 0.2, "We propose a median aggregation estimator (message).")
    later = one_paper_sentence(6, 0.1, "We also propose a variant.")
    scored = [*restating, proposal, later]
    assert select("How can sparse regression be spread across machines?", scored, {1: 1.0},
                  {}) == [*restating, proposal]
    assert select("Why is sparse regression across machines hard?", scored, {1: 1.0},
                  {}) == restating


def test_a_finding_question_gets_the_sentence_that_states_the_result() -> None:
    """"What did X achieve?" is answered by the abstract's result: when the best sentences
    (here, the ones that describe the method the question describes) state none, the best
    paper's best result sentence is quoted too, beyond MAX_SENTENCES; a question that asks
    something else, or an answer that states a result already, gets nothing more."""
    from assistant.extractive import select

    method = leading_sentences("The generator disentangles gaze factors")
    weaker = one_paper_sentence(5, 0.1, "Experiments show a small gain on one subject.")
    result = one_paper_sentence(6, 0.2, "It outperforms the state of the art by 12%.")
    scored = [*method, weaker, result]
    finding = "What did the face generator that disentangles gaze factors achieve?"
    assert select(finding, scored, {1: 1.0}, {}) == [*method, result]
    assert select("How does the face generator disentangle gaze factors?", scored, {1: 1.0},
                  {}) == method
    stated = [*method[:-1], one_paper_sentence(3, 0.75, "We show it is better than all baselines.")]
    assert select(finding, [*stated, weaker, result], {1: 1.0}, {}) == stated


@pytest.mark.parametrize(("text", "background", "result"), [
    ("Experiments on CIFAR-10 show that the method is robust.", False, True),
    ("Our method outperforms prior work.", False, True),
    ("It reaches 93% accuracy.", False, True),
    ("Earlier methods outperform on small data.", True, False),  # the opening's background
    ("We propose a new loss for ranking.", False, False),
])
def test_a_result_sentence(text: str, background: bool, result: bool) -> None:
    from assistant.extractive import ScoredSentence, states_result

    assert states_result(ScoredSentence(1, 0, text, 0.1, background=background)) is result


def test_the_answer_passes_each_quoted_papers_title_to_completion(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """compose() gives completion the terms of each candidate paper's title, by its number."""
    from assistant import extractive
    from assistant.ranking import text_terms

    seen: list[dict] = []
    real = extractive.completed

    def spy(chosen, scored, weights, title_terms=None):  # noqa: ANN001, ANN202
        seen.append(dict(title_terms or {}))
        return real(chosen, scored, weights, title_terms)

    monkeypatch.setattr(extractive, "completed", spy)
    answer = seed_assistant.ask("How many languages can the MuRating autorater handle?")
    first = answer.citations[0]
    assert seen and seen[0].get(first.n) == text_terms(first.title)


@pytest.mark.parametrize(("sentences", "start"), [
    (["Nets overfit.", "Data are scarce.", "We propose X.", "Our results hold."], 2),
    (["PCA is common.", "It is slow.", "I present an EM algorithm for PCA."], 2),
    (["Speech mixes.", "A new learning algorithm is derived which separates it."], 1),
    (["Clustering is old.", "Here, a new criterion is given."], 1),
    (["Census data come from the US survey.", "This note shows a bound."], 1),  # "US" no
    (["Nets overfit.", "Data are scarce."], 0),  # no own work: nothing is background
])
def test_the_authors_own_work_begins_where_they_speak(sentences: list[str], start: int) -> None:
    from assistant.extractive import own_work_from

    assert own_work_from(sentences) == start


def test_the_proposal_sentence_is_the_authors_own_not_the_background() -> None:
    """The sentence quoted for "How can…?" proposes the authors' approach: not a background
    one that calls something by a name, nor earlier work that "has been proposed"."""
    from assistant.extractive import ScoredSentence, proposes

    def sentence(text: str, background: bool = False) -> ScoredSentence:
        return ScoredSentence(1, 0, text, 0.1, background=background)

    assert proposes(sentence("We propose a median aggregation estimator (message)."))
    assert proposes(sentence("A new learning algorithm is proposed for separation."))
    assert not proposes(sentence("We propose a scheme.", background=True))
    assert not proposes(sentence("This is called self-distillation.", background=True))
    assert not proposes(sentence("A variety of distributed algorithms have been proposed."))


def test_a_single_paper_answer_quotes_the_paper_up_to_max_sentences() -> None:
    """"What is X?" is answered by the sentence introducing X (it has the bonus), but what X
    does is often in sentences that score well below it: the paper is quoted up to
    MAX_SENTENCES (best first, in the abstract's order), plus the definition's next sentence;
    a paper with fewer sentences is quoted whole, and nothing is taken from a paper that did
    not rank close."""
    from assistant.extractive import MAX_SENTENCES, ScoredSentence, select

    def sentence(n: int, position: int, score: float) -> ScoredSentence:
        return ScoredSentence(n, position, f"We propose CorEx {n}.{position}" if position == 0
                              else f"sentence {n}.{position}", score)

    intro = sentence(1, 0, 0.8)
    rest = [sentence(1, p, 0.3 - 0.01 * p) for p in range(1, 8)]  # all under 0.75 × 0.8
    far = sentence(2, 0, 0.5)
    chosen = select("What is CorEx?", [intro, *rest, far], {1: 1.0, 2: 0.1}, {"corex": 1.0})
    # The three best of the rest fill it to MAX_SENTENCES; position 1 also follows the intro.
    assert chosen == [intro, *rest[:MAX_SENTENCES - 1]]
    assert select("What is CorEx?", [intro, rest[5]], {1: 1.0}, {"corex": 1.0}) == [intro, rest[5]]


def test_a_reference_marker_is_no_number_a_quantity_question_asks_for() -> None:
    """"Farwell & Donchin [4]" states no number: a sentence with a reference marker alone
    gets no quantity bonus, one stating a figure beside a marker still does."""
    from assistant.extractive import states_number

    assert not states_number("We adopted an approach of Farwell & Donchin [4], improved here.")
    assert not states_number("As in [2, 3] and Kashima et al. [12], kernels are compared.")
    assert not states_number("Denker et al. (1987) and (Harris, 1987) proposed it.")
    assert states_number("Error fell to 3% (Harris, 1987).")  # a figure beside the citation
    assert states_number("Rates reached 50.5 bits/min [4].")
    assert states_number("The detector finds three of the four faults.")
    assert states_number("Values lie in [0, 1] for every input.")  # an interval, no marker


def bonus_given(assistant: Assistant, monkeypatch: pytest.MonkeyPatch, question: str,
                sentences: list[str], bonus: str) -> list[float]:
    """What ``extractive``'s constant ``bonus`` adds to the score of each of ``sentences``
    (one paper's abstract) for ``question``: the scores less those with the bonus at 0."""
    from assistant import extractive
    from assistant.answering import NumberedSource
    from assistant.corpus import Paper
    from assistant.types import RetrievedPaper

    paper = Paper(paper_id="b-test", source="b.txt#1", title="Test", text=" ".join(sentences))
    sources = [NumberedSource(1, RetrievedPaper(paper, 1.0, "", 0.5, 0.5))]

    def scores() -> list[float]:
        return [s.score for s in extractive.score_sentences(question, sources, assistant.index, {})]

    with_bonus = scores()
    with monkeypatch.context() as patched:
        patched.setattr(extractive, bonus, 0.0)
        return [a - b for a, b in zip(with_bonus, scores(), strict=True)]


def test_a_quantity_question_lifts_a_stated_number_not_a_reference_marker(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.extractive import QUANTITY_BONUS

    added = bonus_given(seed_assistant, monkeypatch, "What transfer rates did it reach?",
                        ["We adopt the speller of Farwell and Donchin [4].",
                         "Transfer rates reached 50.5 bits per minute."], "QUANTITY_BONUS")
    assert added == pytest.approx([0.0, QUANTITY_BONUS])
    assert bonus_given(seed_assistant, monkeypatch, "What speller did it adopt?",
                       ["We adopt the speller of Farwell and Donchin [4].",
                        "Transfer rates reached 50.5 bits per minute."],
                       "QUANTITY_BONUS") == pytest.approx([0.0, 0.0])  # not asked for a number


def test_a_sentence_that_spells_out_the_asked_acronym_answers_what_it_is(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """"What is R-DESPOT?": the sentence writing "… Observable Tree (DESPOT)" defines it and
    gets the definition bonus, as one that introduces the name with "propose" does; a sentence
    that only uses the acronym does not."""
    from assistant.extractive import DEFINITION_BONUS, defines

    assert defines("We use a Determinized Sparse Partially Observable Tree (DESPOT).", ["R-DESPOT"])
    assert not defines("R-DESPOT searches the DESPOT for a policy.", ["R-DESPOT"])
    assert not defines("A radius (R) is set.", ["R-DESPOT"])  # "R" alone is no acronym
    added = bonus_given(seed_assistant, monkeypatch, "What is R-DESPOT?",
                        ["Our planner searches the DESPOT tree online.",
                         "It builds a Determinized Sparse Partially Observable Tree (DESPOT)."],
                        "DEFINITION_BONUS")
    assert added == pytest.approx([0.0, DEFINITION_BONUS])


MARKED_ABSTRACT = (
    "We define a unifying framework for random walk kernels on graphs. Reduction to a Sylvester "
    "equation lets us compute these kernels in cubic time, including the marginal graph kernels "
    "of Kashima et al. [2] and the geometric kernels of [3, 4]. Our algorithms are often more "
    "than 1000 times faster than existing approaches.")


@pytest.fixture(scope="module")
def marked_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index whose first paper's abstract cites its own references as [2] and [3, 4]."""
    root = tmp_path_factory.mktemp("marked")
    papers = [("Fast Computation of Graph Kernels", MARKED_ABSTRACT),
              ("Random Walk Kernels for Molecules", "We compare random walk graph kernels and "
               "shortest-path kernels on molecule graphs, and compute them faster by sampling "
               "walks."),
              ("Weisfeiler-Lehman Graph Kernels", "We propose graph kernels from the "
               "Weisfeiler-Lehman test that scale linearly in the number of edges."),
              ("Protein Folding With Attention", "We predict protein contact maps with sparse "
               "attention over residues."),
              ("Quorblin [2]: counting **owls**", "Quorblin counts owls in forest sound "
               "recordings with a small convolutional network.")]
    corpus = root / "papers.jsonl"
    corpus.write_text("".join(json.dumps({"title": t, "abstract": a}) + "\n" for t, a in papers))
    data_dir = root / "data"
    Assistant(make_settings(data_dir)).ingest([corpus])
    return data_dir


def test_an_abstracts_own_reference_markers_are_never_citations(marked_dir: Path,
                                                                  server: FakeOpenAI) -> None:
    """"Kashima et al. [2]" quoted as it stands would cite source [2], a paper that says
    nothing of the kind (6 of the 153 eval answers among the 13.9k did): the quote shows
    "[ref. 2]", only the quoted paper is cited, and the model's prompt reads the same."""
    question = "How fast are random walk graph kernels computed with a Sylvester equation?"
    answer = Assistant(make_settings(marked_dir)).ask(question)
    assert "Kashima et al. [ref. 2]" in answer.answer and "kernels of [ref. 3, 4]" in answer.answer
    assert [c.title for c in answer.citations] == ["Fast Computation of Graph Kernels"]
    assert len(answer.sources) >= 2, "another source [2] exists to be wrongly cited"
    # The highlights stay the abstract's own sentences, to be found in it.
    assert all(h in MARKED_ABSTRACT for h in answer.citations[0].highlights)

    server.replies = ["Often over 1000 times faster [1]."]
    app = model_assistant(marked_dir, server)
    assert [c.n for c in app.ask(question).citations] == [1]
    prompt = server.requests[-1]["body"]["messages"][1]["content"]
    assert "Kashima et al. [ref. 2]" in prompt and "Kashima et al. [2]" not in prompt
    server.replies = ["Quorblin counts owls [1]."]  # a title's "[2]" reads as a reference too
    model_assistant(marked_dir, server).ask("What is Quorblin?")
    prompt = server.requests[-1]["body"]["messages"][1]["content"]
    assert "Quorblin [ref. 2]: counting" in prompt and "Quorblin [2]" not in prompt


def test_a_titles_bracketed_number_is_no_citation(marked_dir: Path) -> None:
    """A title that holds "[2]" leads its paragraph as "[ref. 2]": it cited source 2, an
    unrelated paper, in the references and the BibTeX (review); its asterisks are no bold."""
    from assistant.compare import Row, table_lines

    answer = Assistant(make_settings(marked_dir)).ask("What is Quorblin?")
    assert answer.answer.split("\n\n")[1].startswith("**Quorblin [ref. 2]: counting owls**: ")
    assert [c.title for c in answer.citations] == ["Quorblin [2]: counting **owls**"]
    assert cited_numbers(answer.answer) == [1]
    line = table_lines([Row(3, "Quorblin [2]: counting **owls**", dict.fromkeys(
        ("problem", "method", "result")))])[2]
    assert line.startswith("| **Quorblin [ref. 2]: counting owls** [3] |")
    assert cited_numbers(line) == [3]


@pytest.mark.parametrize(("text", "shown"), [
    ("Kashima et al. [2].", "Kashima et al. [ref. 2]."),
    ("see [2][3] and [12, 14]", "see [ref. 2][ref. 3] and [ref. 12, 14]"),
    # Intervals, indices and LaTeX read as written, with an invisible word joiner.
    ("x is uniform in [0, 1].", "x is uniform in [\u20600, 1]."),
    ("a map $f: [0,1]^d \\to R$", "a map $f: [\u20600,1]^d \\to R$"),
    ("array a[3] indexes", "array a[\u20603] indexes"),
    # a range may be an interval as well as references: it reads as written
    ("k is drawn from [1-10].", "k is drawn from [\u20601-10]."),
    ("Papers from [1990-2005].", "Papers from [\u20601990-2005]."),
])
def test_quoted_abstract_text_holds_no_citation_marker(text: str, shown: str) -> None:
    from assistant.answering import quoted

    assert quoted(text) == shown and quoted(shown) == shown
    assert cited_numbers(shown) == []


def test_a_table_cell_shows_reference_markers_as_references() -> None:
    from assistant.compare import Row, table_lines

    row = Row(1, "Graph Kernels", {"problem": None, "method": "We extend the kernels of [2].",
                                   "result": None})
    line = table_lines([row])[2]
    assert "the kernels of [ref. 2]. [1]" in line and cited_numbers(line) == [1]


LIST_QUESTION = "Which papers use reinforcement learning?"


def test_a_chatty_list_judge_judges_nothing_and_the_cross_encoder_reads_instead(
        seed_dir: Path, server: FakeOpenAI, seed_assistant: Assistant) -> None:
    """A reply out of the relevance check's format keeps none of its batch by itself: the
    cross-encoder reads those papers, so the list is the offline one, labelled as such."""
    offline = seed_assistant.list_papers(LIST_QUESTION)
    assert offline.reread >= 1, "the question must leave papers for the reread to judge"
    app = model_assistant(seed_dir, server, relevance_check=True)
    server.replies = ["Sure! These abstracts are all about learning, as far as I can tell."] * 50
    chatty = app.list_answer(LIST_QUESTION)
    assert len(server.requests) >= 1
    assert [s.paper_id for s in chatty.sources] == [p.paper.paper_id for p in offline.papers]
    assert chatty.mode == "extractive" and chatty.model is None
    server.replies = ["NONE"] * 50  # the model judges every reread paper: none answers
    judged = app.list_papers(LIST_QUESTION)
    assert judged.model_judged and len(judged.papers) == len(offline.papers) - sum(
        1 for c in offline.candidates if c.judged)
    server.replies = ["NONE"] * 50
    assert app.list_answer(LIST_QUESTION).mode == "llm"


def test_a_list_stops_asking_a_model_that_never_answers_in_the_checks_format(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """After JUDGE_MISSES replies in a row out of the check's format, the rest of the band is
    not sent to the model (a tiny model's prose cost seconds a batch for no verdict); one
    reply in the format resets the count."""
    app = model_assistant(seed_dir, server, relevance_check=True)
    wide = ListScreen(app.index, dataclasses.replace(ScreenSettings(), keep_at=99.0,
                                                     drop_below=-99.0))  # all of it in the band
    server.replies = ["NONE"] * 50
    batches = -(-app.lists.list_papers(LIST_QUESTION, screen=wide).reread // JUDGE_BATCH)
    assert batches > JUDGE_MISSES + 1, "the band must outlast the misses for the test to tell"
    server.requests.clear()
    server.replies = ["I think these are all interesting papers."] * 50
    chatty = app.lists.list_papers(LIST_QUESTION, screen=wide)
    assert len(server.requests) == JUDGE_MISSES and not chatty.model_judged
    server.requests.clear()
    server.replies = ["Well, hard to say.", "1, 2", *["Prose again."] * 50]
    app.lists.list_papers(LIST_QUESTION, screen=wide)
    assert len(server.requests) == JUDGE_MISSES + 2


def test_a_model_refusals_nearest_papers_carry_their_real_similarity(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """The model's "no" lists the papers it read, each with "similarity X": a paper past
    the floor that the dense search did not return (few dense candidates here, as among
    13.9k) had 0.00 there; now its cosine is read from the stored vectors."""
    server.replies = ["The corpus has no abstract about this question."]
    app = model_assistant(seed_dir, server)
    app.settings.retrieval.candidates = 5  # the dense search returns 5 of the 38 papers
    question = "What datasets are used for link prediction?"
    papers = app.retriever.find(question).papers[:3]
    assert any(p.dense == 0.0 for p in papers)  # the case: outside the dense hits
    answer = app.ask(question)
    assert answer.receipt is not None and len(answer.receipt.nearest) == len(papers)
    cosines = app.index.paper_cosines(app.index.query_vector(question),
                                      [p.paper.paper_id for p in papers])
    for paper, near in zip(papers, answer.receipt.nearest, strict=True):
        assert near.paper_id == paper.paper.paper_id and cosines[near.paper_id] > 0.1
        assert f"(similarity {cosines[near.paper_id]:.2f}, " in near.reason
