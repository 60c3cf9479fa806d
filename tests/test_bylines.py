"""A paper the question names by its title is headed by where, when and by whom
(extractive.headings): "Who wrote Dynamic Routing Between Capsules?" and "When was … published?"
had been answered by the abstract's sentences alone, the authors and the year only in the
source list below. A model is given them too (chat_prompt.format_source)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from fake_openai import FakeOpenAI

from assistant.pipeline import Assistant

AUTHORS = "Ada Quill, Bo Renner, Cy Sato, Dee Tamm"
PAPERS = [
    ("Monotonic Networks", AUTHORS, "1997", "Monotonicity is a constraint that arises in many "
     "domains. We present a model for which monotonicity can be enforced exactly."),
    ("Isotonic Regression Trees", "Eve Ulm", "2003", "Isotonic regression fits a monotone "
     "function; we grow trees whose leaves keep monotonicity."),
]


@pytest.fixture(scope="module")
def byline_data(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return seeds_with(seed_dir, tmp_path_factory, "bylines", PAPERS,
                      header=("title", "authors", "year", "abstract"))


@pytest.fixture(scope="module")
def byline_store(byline_data: Path) -> Assistant:
    return Assistant(make_settings(byline_data))


@pytest.mark.parametrize("question", [
    "Who wrote Monotonic Networks?",
    "When was “Monotonic Networks” published?",
    "What does Monotonic Networks present?",
])
def test_a_titled_paper_is_headed_by_its_year_and_every_author(
        byline_store: Assistant, question: str) -> None:
    answer = byline_store.ask(question)
    assert answer.refusal is None
    assert f"**Monotonic Networks** (1997 · {AUTHORS}):" in answer.answer  # four: no "et al."


def test_a_paper_the_question_does_not_name_keeps_a_bare_heading(byline_store: Assistant) -> None:
    answer = byline_store.ask("How is monotonicity enforced in a model?")
    assert answer.refusal is None and answer.citations
    assert "Ada Quill" not in answer.answer and "Eve Ulm" not in answer.answer
    assert any(f"**{c.title}**:" in answer.answer for c in answer.citations)


@pytest.mark.parametrize("reply", [
    "Monotonic Networks is by Ada Quill, Bo Renner, Cy Sato and Dee Tamm [1].",
    "Monotonic Networks is by Geoffrey Hinton and Yann LeCun [1].",
    "Monotonic Networks was the most cited paper of 1997 [1].",  # a review: had passed
])
def test_a_model_is_given_the_byline_but_checked_against_the_abstract(
        byline_data: Path, reply: str) -> None:
    """The claim checker reads abstracts: a byline in its evidence had passed invented
    facts about a paper's venue and authors. A model's sentence naming them is not shown;
    the quoted answer standing in names the paper's authors in its heading."""
    with FakeOpenAI() as server:
        app = Assistant(make_settings(byline_data, base_url=server.base_url, model="scripted",
                                      api_key="test-key", cite_mode="free"))
        server.replies = [reply]
        answer = app.ask("Who wrote Monotonic Networks?")
        prompt = "".join(m["content"] for m in server.requests[-1]["body"]["messages"])
    assert "(1997 · Ada Quill et al.; " in prompt, "the source's block names its year and authors"
    assert answer.mode == "extractive" and answer.unchecked and reply not in answer.answer
    assert f"**Monotonic Networks** (1997 · {AUTHORS}):" in answer.answer
