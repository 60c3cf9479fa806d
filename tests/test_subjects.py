"""A chat's list, count or trend follow-up naming its subject by a pronoun ("What is dropout?",
then "which papers use it?") is asked of that subject (subjects.py): it had been refused as
naming no topic, and "which papers combine them?" after VAEs compared to GANs had listed
papers on combining classifiers (a run's chat)."""

from __future__ import annotations

import pytest
from test_follow_ups import CAPSULES, chat, years_store  # noqa: F401 (the fixture)

from assistant.answering import final_answer
from assistant.pipeline import Assistant
from assistant.subjects import spelled_out


def turns(*questions: str) -> list[tuple[str, str]]:
    return [(q, "") for q in questions]


@pytest.mark.parametrize(("question", "before", "spelled"), [
    ("which papers use it?", ["What is dropout?"], "which papers use dropout?"),
    ("which papers combine them?", ["What is a variational autoencoder?", "How does it compare to GANs?"],
     "which papers combine variational autoencoder and GANs?"),
    ("how many papers use it?", ["What is federated learning?", "What problems does it face?"],
     "how many papers use federated learning?"),
    ("how has interest in it grown?", ["What are graph neural networks and how do they work?"],
     "how has interest in graph neural networks grown?"),
    ("Which papers use it?", ["what is the lottery ticket hypothesis?"],
     "Which papers use lottery ticket hypothesis?"),
    # a review: both sides of a difference; a run: the subject a list's "it" was read as
    ("which papers use them?", ["What is the difference between GANs and VAEs?"],
     "which papers use GANs and VAEs?"),
    ("how many papers use it?", ["What is dropout?", "which papers use it?"],
     "how many papers use dropout?"),
    ("which papers use it?", ["What is risk minimization?"], "which papers use risk minimization?"),
    ("which papers use it?", ["What is the role of dropout?"], "which papers use dropout?"),
    ("which papers use it?", ["What is the outcome of the experiments?"], "which papers use experiments?"),
])
def test_a_pronoun_reads_as_the_subject_defined_before(question: str, before: list[str],
                                                       spelled: str) -> None:
    assert spelled_out(question, turns(*before)) == spelled


@pytest.mark.parametrize(("question", "before"), [
    ("which of them use it?", ["What is dropout?"]),  # "them": the list's papers
    ("list them", ["What is dropout?"]),
    ("who proposed it?", ["What is dropout?"]),  # no list: joined to the question before
    ("which papers use it?", ["Which papers use capsule networks?"]),  # a list is no definition
    ("which papers use it?", ["What is the paper about?"]),  # no subject of its own
    ("which papers use it?", ["What is dropout?", "How do GANs work?"]),  # a subject of its own after
    ("which papers use it?", ["What is a downside?"]),  # it leans on the answer before
    ("which papers use it?", ["What is the second one?"]),  # a place
])
def test_a_pronoun_without_a_defined_subject_is_left(question: str, before: list[str]) -> None:
    assert spelled_out(question, turns(*before)) is None


def test_which_papers_use_them_lists_the_defined_subjects_papers(
        request: pytest.FixtureRequest) -> None:
    store: Assistant = request.getfixturevalue("years_store")
    history = chat(store, "What are capsule networks?")
    listed = final_answer(store.answer_stream("which papers use them?", history))
    assert {c.title for c in listed.citations} == {title for _, title, _ in CAPSULES}
    # a run: a follow-up narrowing that list had read "use them" as its topic, a false "no"
    history.append(("which papers use them?", listed.answer))
    narrowed = final_answer(store.answer_stream("only the ones from 2019", history))
    assert {c.year for c in narrowed.sources} == {2019} and len(narrowed.citations) == 2
