"""Cite-safe answers (assistant/citesafe.py): the JSON schema, post-hoc attribution and the
gate, over a scripted local server (real HTTP and SSE) and the seed index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from test_generation import model_assistant

from assistant.answering import prompt
from assistant.citesafe import Attribution, EchoCheck, answering_sources, with_markers
from assistant.claims import reception_unsaid, unfinished
from assistant.generation import GenerationError
from assistant.pipeline import Assistant
from assistant.references import placed_note
from assistant.sentences import (
    MAX_CITED,
    MAX_SENTENCES,
    JsonSentences,
    NotTheJSON,
    TextSentences,
    answer_schema,
    response_format,
)
from assistant.types import Answer

QUESTION = "What is CRAFT?"
UNLEARNING = "Which papers study machine unlearning?"  # one paper answers; the rest 0.00
# Sentences of the CRAFT abstract (seeds), as a model may write them, and one it does not say.
QUOTED = ("Future link prediction on temporal graphs is a fundamental task with wide "
          "applicability in real-world dynamic systems.")
SAID = "CRAFT builds on learnable node embeddings and cross-attention."
UNSAID = "CRAFT was trained on ten billion edges by a search company."
ECHO = ("Sources: [1] CRAFT (004.txt#3) Question: What is CRAFT? Answer with citations: "
        "<start_of_turn>model bloodstream bloodstream.")


def as_json(*sentences: tuple[str, list[int]]) -> str:
    return json.dumps({"sentences": [{"text": t, "sources": s} for t, s in sentences]})


def streamed(app: Assistant, question: str) -> tuple[str, Answer]:
    events = list(app.ask_stream(question))
    answer = events[-1]
    assert isinstance(answer, Answer)
    return "".join(e for e in events if isinstance(e, str)), answer


def craft_number(answer: Answer) -> int:
    return next(s.n for s in answer.sources if "CRAFT" in s.title)


def pieces(text: str, size: int = 3) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


# ---------------------------------------------------------------- the pure parts


def test_the_schema_allows_only_the_sources_given() -> None:
    schema = answer_schema([1, 2, 4])
    item = schema["properties"]["sentences"]["items"]
    assert item["properties"]["sources"]["items"] == {"type": "integer", "enum": [1, 2, 4]}
    assert item["required"] == ["text", "sources"] and item["additionalProperties"] is False
    openai_shape = response_format("json_schema", schema)
    assert openai_shape["type"] == "json_schema"
    assert openai_shape["json_schema"]["schema"] is schema
    llama = response_format("json_object", schema)  # llama-cpp-python's shape, with bounds
    assert llama["type"] == "json_object"
    sentences = llama["schema"]["properties"]["sentences"]
    assert sentences["maxItems"] == MAX_SENTENCES
    assert sentences["items"]["properties"]["sources"] == {
        "type": "array", "items": {"type": "integer", "enum": [1, 2, 4]}, "maxItems": MAX_CITED}


def test_json_sentences_are_handed_out_once_complete() -> None:
    reply = as_json(("First claim [2] here.", [1]), ("Second claim.", [0, 99]), ("Third.", []))
    reader = JsonSentences({1, 2, 3})
    got = []
    for piece in pieces(reply):
        for sentence in reader.feed(piece):
            got.append((sentence, len(reader.buffer)))
    # each came before the reply ended, and only once the next had begun
    assert [s.text for s, _ in got] == ["First claim here.", "Second claim."]
    assert all(at < len(reply) for _, at in got)
    first, second = got[0][0], got[1][0]
    assert first.cites == [1, 2] and first.invalid == []  # a marker inside the text counts
    assert second.cites == [] and second.invalid == [0, 99]
    assert [s.text for s in reader.finish(truncated=False)] == ["Third."]


def test_latex_commands_eaten_by_json_escapes_are_restored() -> None:
    """Gemma copied "\\textit{parametric construction sequence}" from an abstract as
    "\\textit" unescaped in its JSON: a tab and "extit"; the sentence reads as written."""
    reply = ('{"sentences": [{"text": "It edits a \\textit{shape} with \\beta and '
             '\\frac{1}{2}.", "sources": [1]}]}')
    reader = JsonSentences({1})
    [sentence] = [*reader.feed(reply), *reader.finish(truncated=False)]
    assert sentence.text == "It edits a \\textit{shape} with \\beta and \\frac{1}{2}."


def test_a_raw_line_break_inside_a_json_sentence_is_read() -> None:
    """Gemma 270M broke a sentence with a raw line break, which JSON forbids: the whole
    reply had been thrown away as "not the JSON asked for" (a model-mode run's)."""
    reply = ('{"sentences": [\n {"text": "It bounds the regret\nin linear time, \\"fast\\".", '
             '"sources": [1]}]}')
    assert "\n" in reply and "\\n" not in reply  # the break is written raw
    reader = JsonSentences({1})
    got = [*[s for piece in pieces(reply) for s in reader.feed(piece)], *reader.finish(truncated=False)]
    assert [(s.text, s.cites) for s in got] == [('It bounds the regret in linear time, "fast".', [1])]
    # ...and a raw tab is a space, not a LaTeX "\t…" (a review's)
    tabbed = JsonSentences({1})
    tabbed.feed('{"sentences": [{"text": "Accuracy:\tTransGAN reaches 9.02.", "sources": [1]}]}')
    assert [s.text for s in tabbed.finish(truncated=False)] == ["Accuracy: TransGAN reaches 9.02."]


def test_a_fenced_json_reply_is_read_and_prose_is_not() -> None:
    reader = JsonSentences({1})
    for piece in pieces("```json\n" + as_json(("A claim.", [1])) + "\n```"):
        reader.feed(piece)
    assert [s.text for s in reader.finish(truncated=False)] == ["A claim."]
    with pytest.raises(NotTheJSON):
        JsonSentences({1}).feed("Sure! CRAFT is")
    broken = JsonSentences({1})
    got = broken.feed('{"sentences": [{"text": "A claim.", "sources": [1]}, {"text": "Cut')
    # the reply ended with the JSON unclosed: the cut sentence is left out
    assert [s.text for s in got + broken.finish(truncated=False)] == ["A claim."]


def test_text_sentences_wait_for_their_markers() -> None:
    reader = TextSentences({1, 2})
    assert reader.feed("CRAFT predicts links. [") == []
    assert reader.feed("1") == []
    got = reader.feed("] It uses attention [9].")
    assert [(s.text, s.cites) for s in got] == [("CRAFT predicts links.", [1])]
    last = reader.finish(truncated=False)
    assert [(s.text, s.cites, s.invalid) for s in last] == [("It uses attention.", [], [9])]
    cut = TextSentences({1})
    got = cut.feed("A whole sentence [1]. A cut sen")
    assert [s.text for s in got + cut.finish(truncated=True)] == ["A whole sentence."]


def test_markers_go_before_the_closing_stop() -> None:
    assert with_markers("CRAFT predicts links.", [1, 3]) == "CRAFT predicts links [1][3]."
    assert with_markers("No stop", [2]) == "No stop [2]"
    assert with_markers("Uncited.", []) == "Uncited."


def test_an_echo_of_the_prompt_is_recognised() -> None:
    echo = EchoCheck("answer_user")
    assert echo("<start_of_turn>model CRAFT is a model.")
    assert echo("[/INST] CRAFT")
    assert echo("Question: What is CRAFT?")
    assert echo("Use only the numbers of the sources given and do not add facts from memory.")
    assert not echo(SAID)
    assert not echo("The corpus has no abstract about this question.")


def test_sources_scored_as_not_answering_are_left_out(seed_assistant: Assistant) -> None:
    from assistant.answering import number_sources

    found = seed_assistant.retrieve(UNLEARNING, top_k=5)
    sources = number_sources(found)
    assert any(s.found.score < 0.005 for s in sources), "the seeds give 0.00 sources here"
    kept = answering_sources(sources)
    assert kept[0] == sources[0]
    assert all(s.found.score >= 0.005 for s in kept[1:])
    assert [s.n for s in kept] == [s.n for s in sources[:len(kept)]]
    # ...but for a question asking of several papers, the one writing each thing it names
    # (a run's: "Compare TCCM and CADMorph." had given the model TCCM alone)
    compared = "Compare TCCM and CADMorph."
    numbered = number_sources(seed_assistant.retrieve(compared, top_k=5))
    given = " ".join(f"{s.found.paper.title} {s.found.paper.text}"
                     for s in answering_sources(numbered, compared))
    assert "TCCM" in given and "CADMorph" in given


# ---------------------------------------------------------------- through the pipeline


def test_a_constrained_answer_streams_checked_sentences_with_markers(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((QUOTED, [1]), (SAID, [1]))]
    text, answer = streamed(app, QUESTION)
    body = server.requests[-1]["body"]
    allowed = body["response_format"]["json_schema"]["schema"]["properties"]["sentences"][
        "items"]["properties"]["sources"]["items"]["enum"]
    assert allowed == [s.n for s in answer.sources], "only the sources given may be cited"
    (turn,) = body["messages"]  # one user turn: some chat formats drop a system message
    assert turn["role"] == "user" and "Reply in JSON" in turn["content"]
    assert "square brackets" in turn["content"], "the rules are in it"
    n = craft_number(answer)
    assert answer.answer == text == with_markers(QUOTED, [n]) + " " + with_markers(SAID, [n])
    assert answer.cite_mode == "constrained" and answer.unchecked is None
    assert [(c.n, c.origin) for c in answer.citations] == [(n, "model")]
    assert all(c.supported for c in answer.claims) and len(answer.claims) == 2
    server.replies = [as_json((f"{QUOTED} {SAID}", [1]))]  # two sentences in one "text"
    _, two = streamed(app, QUESTION)
    assert two.answer == answer.answer and len(two.claims) == 2
    assert answer.model_reply == server.replies[0] if server.replies else answer.model_reply
    data = answer.public_json()
    assert data["cite_mode"] == "constrained" and data["citations"][0]["origin"] == "model"


def test_uncited_and_misnumbered_sentences_get_the_source_that_supports_them(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """[0], [99] and no number at all, on sentences the CRAFT abstract states: repaired to
    it by the assistant; the invented numbers are reported as dropped."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((QUOTED, [0]), (SAID, []), (QUOTED.replace("is a", "is one"), [99]))]
    _, answer = streamed(app, QUESTION)
    n = craft_number(answer)
    assert [c.cites for c in answer.claims] == [[n], [n], [n]]
    assert [(c.n, c.origin) for c in answer.citations] == [(n, "assistant")]
    # a run had read such a number as the model's own: the CLI and the chat say who placed it
    assert placed_note(answer).startswith(f"[{n}] placed by the assistant")
    assert answer.dropped_citations == [0, 99]
    # a review: the model citing [n] on one sentence leaves [n] placed on another the assistant's
    server.replies = [as_json((QUOTED, [n]), (SAID, []))]
    _, mixed = streamed(app, QUESTION)
    assert [(c.n, c.origin) for c in mixed.citations] == [(n, "assistant")] and placed_note(mixed)
    assert answer.unchecked is None and "[0]" not in answer.answer and "[99]" not in answer.answer


def test_a_sentence_citing_two_sources_keeps_only_the_one_that_says_it(
        seed_assistant: Assistant) -> None:
    """"…[1][2]" where only the CRAFT abstract says it: the other number goes (support was
    read over both together, and the unrelated source stayed cited)."""
    from assistant.citesafe import Attribution
    from assistant.sentences import Sentence

    papers = list(seed_assistant.index.papers().values())
    craft = next(p for p in papers if p.title.startswith("CRAFT"))
    other = next(p for p in papers if "CRAFT" not in p.text)
    attribution = Attribution(seed_assistant.claim_checker, {1: other.text, 2: craft.text},
                              EchoCheck("answer_json_user"))
    checked = attribution.check(Sentence(QUOTED, [1, 2]))
    assert checked.claim is not None and checked.claim.supported
    assert checked.claim.cites == [2] and checked.model_cites == [2]
    assert checked.shown.endswith("[2].") and "[1]" not in checked.shown


def test_the_question_written_back_is_left_out(seed_dir: Path, server: FakeOpenAI) -> None:
    """SmolLM2's habit: the question first, then the answer. The question (and a sentence
    with no word beyond it) is no answer sentence: not shown, not checked, not counted."""
    app = model_assistant(seed_dir, server, cite_mode="constrained")
    server.replies = [as_json(("What is CRAFT?", [1]), ("CRAFT [1].", [1]), (QUOTED, [1]))]
    text, answer = streamed(app, QUESTION)
    assert answer.mode == "llm" and not answer.unchecked, answer.unchecked
    assert "What is CRAFT?" not in text and "CRAFT [1]." not in text and QUOTED[:40] in text
    assert [c.supported for c in answer.claims] == [True]
    server.replies = [as_json(("What is CRAFT?", [1]))]  # nothing else: the extractive answer
    _, alone = streamed(app, QUESTION)
    assert alone.mode == "extractive" and alone.unchecked
    assert "only writes back the question or a source's title" in alone.unchecked


def test_a_sentence_cut_mid_clause_is_left_out(seed_dir: Path, server: FakeOpenAI) -> None:
    """A run: Gemma 270M wrote "This means that knowledge distillation can be used to [1]."
    and "…in many cases due [1].", each scored as supported by the words it shares with its
    source, and shown. A sentence ending on such a word is no claim: not shown, not counted."""
    app = model_assistant(seed_dir, server, cite_mode="constrained")
    cut = "CRAFT builds on learnable node embeddings and cross-attention between the"
    server.replies = [as_json((QUOTED, [1]), (cut, [1]), (SAID, [1]))]
    text, answer = streamed(app, QUESTION)
    assert answer.mode == "llm" and QUOTED[:40] in text and SAID[:40] in text
    assert "attention between the" not in text and len(answer.claims) == 2
    # nothing else: the stated reason is the cut, not "writes back the question" (a run's)
    server.replies = [as_json(("What is CRAFT?", [1]), (cut, [1]))]
    _, alone = streamed(app, QUESTION)
    assert alone.mode == "extractive" and "its sentences stop mid-clause" in (alone.unchecked or "")
    assert unfinished(f"{cut} [1].") and not unfinished(f"{SAID} [1]")
    # a review: a sentence ending on a number, "for", "more" or "any" is finished
    assert not any(map(unfinished, ["It reaches an accuracy of 95.3% [1].", "It came out in 2019.",
                                    "It covers text and more [1].", "This is what it is used for.",
                                    "It names its limits, if any [2]."]))
    # a run's: a comma, a subject or a word's prefix last (M11)
    assert all(map(unfinished, ["we propose MAGE for efficient, [1]", "In this paper, I",
                                "In this paper, we",
                                "It generalizes repeated sampling with multi [1]"]))
    # ...but an index, a subscript or a numeral ends one (a review's)
    assert not any(map(unfinished, ["It is what we call non-i.i.d. [1].", "It depends on the gap "
                                    "of each action i [1].", "It is $\\mathcal{L}_{pre}$ [1].",
                                    "It is shown in Part I [1]."]))
    # ...nor a name's numeral (a second review's: "CRAFT-I", "Table I", "complex I")
    assert not any(map(unfinished, ["It builds on its variant CRAFT-I [1].", "It is shown in Table I.",
                                    "It inhibits complex I [2].", "It bounds the error of Type I."]))
    assert all(map(unfinished, ["Here I [1].", "We show that I", "I"]))


def test_a_source_title_written_back_answers_only_a_definition(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """Gemma 270M's commonest reply over the seeds was a source's title ("MuRating: a
    scalable framework that …" for "How many languages can MuRating handle?"), shown as a
    supported answer: it answers "What is CRAFT?", and no other question."""
    app = model_assistant(seed_dir, server, cite_mode="constrained")
    title = "CRAFT: Future Link Predictor on Temporal Graphs"
    server.replies = [as_json((title, [1]))]
    _, asked = streamed(app, "How does CRAFT predict future links on temporal graphs?")
    assert asked.mode == "extractive" and asked.unchecked and asked.model_reply
    assert "only writes back the question or a source's title" in asked.unchecked
    server.replies = [as_json(("CRAFT is a future link predictor on temporal graphs.", [1]))]
    _, defined = streamed(app, QUESTION)
    assert defined.mode == "llm" and not defined.unchecked, defined.unchecked
    # a derived title stating a finding, written as a sentence, answers; its "Name: …"
    # heading form, and a given title in any form, do not (review)
    finding = "Adam reduces a specific form of sharpness measure"
    reading = Attribution(None, {}, None, "How does Adam change sharpness?",  # type: ignore[arg-type]
                          {2: "Sharpness of minima in practice"}, {1: finding})
    assert not reading.restates_title(f"{finding} [1].")
    assert reading.restates_title(f"Adam: {finding[5:]} [1].")
    assert reading.restates_title("Sharpness of minima in practice [2].")
    assert not reading.restates_title("Sharpness [2].")  # too short to tell
    # a sentence writing a derived title on adds to it: no echo ("…covering 17 languages",
    # a review's of a rule reading a clipped title's length alone)
    led = Attribution(None, {}, None, "How many languages does MuRating cover?",  # type: ignore[arg-type]
                      {}, {1: "MuRating: a scalable framework that transfers high-quality English "
                              "data-quality…"})
    assert not led.restates_title("MuRating: a scalable framework that transfers high-quality English "
                                  "data-quality signals into a multilingual autorater covering 17 "
                                  "languages [1].")


def test_an_invented_number_on_an_unsupported_sentence_is_dropped(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server)  # free text
    server.replies = [f"{QUOTED} [1] {SAID} [1] {UNSAID} [99]"]
    text, answer = streamed(app, QUESTION)
    assert answer.dropped_citations == [99] and "[99]" not in answer.answer
    unsupported = [c for c in answer.claims if not c.supported]
    assert [c.cites for c in unsupported] == [[]], "no citation is shown on it"
    assert UNSAID in answer.answer and answer.unchecked is None  # one of three: marked
    assert text == answer.answer, "what streamed is the answer"
    assert answer.cite_mode == "free"


@pytest.mark.parametrize("status", [400, 422])
def test_a_refused_schema_falls_back_to_free_text_once_and_is_remembered(
        seed_dir: Path, server: FakeOpenAI, status: int) -> None:
    server.refuse_schema = status
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [f"{SAID} [1]", f"{QUOTED} [1]"]
    _, answer = streamed(app, QUESTION)
    shapes = [r["body"].get("response_format", {}).get("type") for r in server.requests]
    assert shapes == ["json_schema", "json_object", None]  # OpenAI's, llama-cpp-python's, text
    assert answer.cite_mode == "free" and answer.claims[0].supported
    _, again = streamed(app, QUESTION)
    assert len(server.requests) == 4 and "response_format" not in server.requests[-1]["body"]
    assert again.cite_mode == "free"


def test_a_prose_reply_to_the_schema_is_asked_again_as_free_text(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A server that ignores response_format: its prose reply is not shown, and the free-text
    prompt is sent instead, this time and the next."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = ["Sure! Here is the answer.", f"{SAID} [1]", f"{SAID} [1]"]
    text, answer = streamed(app, QUESTION)
    assert "Sure" not in text and answer.cite_mode == "free"
    assert [bool(r["body"].get("response_format")) for r in server.requests] == [True, False]
    streamed(app, QUESTION)
    assert [bool(r["body"].get("response_format")) for r in server.requests] == [True, False, False]


def test_a_broken_json_reply_fails_this_answer_but_keeps_the_schema(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A reply that began as the JSON asked for and then broke (a model's slip under a schema
    the endpoint honours): this answer is the extractive one with the line why, and the next
    question is asked for JSON again, not switched to free text for good."""
    app = model_assistant(seed_dir, server, cite_mode="auto")
    broken = '{"sentences": [{"text": "CRAFT \\q is a method", "sources": [1]}]}'  # bad escape
    server.replies = [broken, as_json((QUOTED, [1]))]
    text, answer = streamed(app, QUESTION)
    assert answer.mode == "extractive" and answer.unchecked and "is a method" not in text
    assert "not the JSON answer" in answer.unchecked and answer.model_reply == broken
    assert [bool(r["body"].get("response_format")) for r in server.requests] == [True]
    _, again = streamed(app, QUESTION)
    assert again.cite_mode == "constrained" and again.mode == "llm", again.unchecked
    assert [bool(r["body"].get("response_format")) for r in server.requests] == [True, True]


def test_a_schema_refused_in_constrained_mode_is_one_line(
        seed_dir: Path, server: FakeOpenAI) -> None:
    server.refuse_schema = 400
    app = model_assistant(seed_dir, server, cite_mode="constrained")
    with pytest.raises(GenerationError) as failed:
        streamed(app, QUESTION)
    message = str(failed.value)
    assert "refused the JSON schema" in message and "ASSISTANT_LLM_CITE_MODE" in message
    assert "\n" not in message


def test_a_junk_reply_is_never_shown_as_the_answer(seed_dir: Path, server: FakeOpenAI) -> None:
    """Gemma 270M's echo of the prompt: the extractive answer, one line why, the reply kept."""
    app = model_assistant(seed_dir, server)
    server.replies = [ECHO + " " + QUOTED + " " + UNSAID]
    text, answer = streamed(app, QUESTION)
    assert "Sources:" not in text and "bloodstream" not in text and UNSAID not in text
    assert answer.mode == "extractive" and answer.citations
    assert answer.unchecked and "could not be checked against the sources" in answer.unchecked
    assert "repeats the prompt" in answer.unchecked
    assert answer.model_reply and "bloodstream" in answer.model_reply
    assert answer.cite_mode == "free" and answer.model == "scripted-model"
    assert text == answer.answer


def test_the_prompts_example_numbers_echoed_are_no_dropped_citations(
        seed_dir: Path, server: FakeOpenAI) -> None:
    """A small model writing back the rule "like [1] or [2][3]" over fewer sources cited
    no source [3]: the answer fails as an echo, and [3] is not reported as a citation it made up
    (it had been, in free cite mode); a number of no source in its own sentence still is."""
    app = model_assistant(seed_dir, server)
    rule = next(line for line in prompt("answer_system").splitlines() if "[2][3]" in line)
    server.replies = [rule.lstrip("- ") + " " + SAID.rstrip(".") + " [9]."]
    _, answer = streamed(app, QUESTION)
    assert len(answer.sources) < 3  # [3] is the number of no source
    assert answer.unchecked and "repeats the prompt" in answer.unchecked
    assert answer.cite_mode == "free" and answer.dropped_citations == [9]


@pytest.mark.parametrize("reply, why", [
    ("", "holds no sentence"),
    (as_json(), "holds no sentence"),
    ('{"sentences": [{"text": "CRAFT is', "holds no sentence"),
    ("[99]", "holds no sentence"),  # dropped_citations says [99]
    (UNSAID, "none of its sentences is supported"),
    ("CRAFT est une méthode qui prédit les liens futurs des graphes temporels grâce à "
     "l'attention croisée.", "none of its sentences is supported"),
])
def test_a_reply_that_fails_the_checks_gets_the_extractive_answer(
        seed_dir: Path, server: FakeOpenAI, reply: str, why: str) -> None:
    app = model_assistant(seed_dir, server, cite_mode="constrained" if "{" in reply else "free")
    server.replies = [reply]
    text, answer = streamed(app, QUESTION)
    assert answer.unchecked and why in answer.unchecked, answer.unchecked
    assert answer.mode == "extractive" and answer.citations and text == answer.answer
    if reply.strip():
        assert reply not in text and reply not in answer.answer
    assert answer.model_reply == reply


def test_a_mostly_unsupported_answer_shows_its_checked_part(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json((SAID, [1]), (UNSAID, [1]), ("CRAFT runs on quantum chips.", [1]))]
    text, answer = streamed(app, QUESTION)
    n = craft_number(answer)
    assert answer.answer == text == with_markers(SAID, [n])
    assert answer.unchecked and "2 of its 3 sentences are not supported" in answer.unchecked
    assert answer.mode == "llm" and [c.supported for c in answer.claims] == [True]


def test_a_refusal_is_shown_as_written(seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server, cite_mode="auto")
    server.replies = [as_json(("The corpus has no abstract about this question.", []))]
    _, answer = streamed(app, QUESTION)
    assert answer.answer == "The corpus has no abstract about this question."
    assert answer.unchecked is None and not answer.citations
    assert answer.refusal is not None and answer.refusal.check == "model"  # a run: it was null


def test_only_sources_that_answer_are_sent_to_the_model(
        seed_dir: Path, server: FakeOpenAI) -> None:
    app = model_assistant(seed_dir, server)
    server.replies = [f"{SAID} [1]"]
    _, answer = streamed(app, UNLEARNING)
    retrieved = app.retrieve(UNLEARNING)
    assert len(answer.sources) < len(retrieved), "the seeds give 0.00 sources here"
    prompt = server.requests[-1]["body"]["messages"][-1]["content"]
    for found in retrieved:
        assert (found.paper.source in prompt) == any(s.paper_id == found.paper.paper_id
                                                     for s in answer.sources)
    assert all(s.score >= 0.005 for s in answer.sources[1:])


def test_a_lead_in_of_a_papers_reception_is_checked(seed_dir: Path, server: FakeOpenAI) -> None:
    """A run: "The most cited NeurIPS 2017 paper is:" then a sentence its source supports
    was shown as checked, a lead-in stating nothing; one saying how a paper was received
    ("cited", "seminal") that no source writes is a claim, and unsupported."""
    app = model_assistant(seed_dir, server, cite_mode="constrained")
    lead = "The most cited paper on temporal graphs is the following:"
    server.replies = [as_json((lead, []), (QUOTED, [1]), (SAID, [1]))]
    _, answer = streamed(app, QUESTION)
    assert [c.supported for c in answer.claims] == [False, True, True]
    assert answer.claims[0].text.startswith(lead)
    server.replies = [as_json(("The most cited paper is:", []), (QUOTED, [1]))]
    text, cut = streamed(app, QUESTION)  # stopping on "is", it is left out
    assert "most cited" not in text and [c.supported for c in cut.claims] == [True]
    server.replies = [as_json(("Two papers discuss this:", []), (QUOTED, [1]))]
    text, plain = streamed(app, QUESTION)
    assert text.startswith("Two papers discuss this:")  # a lead-in: shown, not checked
    assert [c.supported for c in plain.claims] == [True]
    # a review: "the cited paper", "a popular method" are what models write of what was said
    assert reception_unsaid("The cited paper shows a popular method.", [QUOTED]) == []
