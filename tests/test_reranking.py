"""The cross-encoder (reranking.py) on its real weights, and the retriever's use of it: it
reorders the ranker's first three when the ranker is unsure, and only then, and refuses a
question none of an answer's first two papers reads as answering."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import FILE_A, FILE_B, make_settings

from assistant import reranking
from assistant.corpus import Paper
from assistant.pipeline import Assistant
from assistant.ranking import JointReading, load_ranker, text_terms
from assistant.refusals import FULL_MATCH, REFUSAL_TOP, read_as_answering, read_with_evidence
from assistant.reranking import (
    RERANKER_SHA256,
    CrossEncoder,
    RerankerError,
    _session,
    _tokenizer,
    model_dir,
    passage_of,
)
from assistant.retrieval import HybridRetriever
from assistant.tuning import RERANK_BELOW, RERANK_TOP
from assistant.types import Filters, RetrievedPaper


def test_the_cross_encoder_scores_the_answering_passage_highest() -> None:
    scores = CrossEncoder().scores(
        "How does Adam's implicit regularization differ from SGD's?",
        ["Protein contact maps are predicted with sparse attention over residues.",
         "Adam reduces a specific form of sharpness measure shaped by its adaptive updates, "
         "leading to qualitatively different solutions from SGD.",
         "We price goods online when past sales come from a shifted market."])
    assert scores.shape == (3,) and int(scores.argmax()) == 1
    assert scores[1] > scores[0] + 5 and scores[1] > scores[2] + 5
    assert CrossEncoder().scores("anything", []).shape == (0,)


def test_weights_that_are_not_the_pinned_file_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "reranker_en"
    shutil.copytree(model_dir(), folder)
    (folder / "model.onnx").write_bytes(b"not the model")
    with pytest.raises(RerankerError, match=rf"not the expected {RERANKER_SHA256}.*reinstall"):
        _session(folder)
    (folder / "tokenizer.json").unlink()
    with pytest.raises(RerankerError, match=r"tokenizer.json has sha256 missing.*reinstall"):
        _tokenizer(folder, 256)


def test_an_unsure_ranker_has_its_first_three_reread(seed_assistant: Assistant) -> None:
    """The places keep their scores; the papers swap when the second or the third is the one
    that answers; a sure ranker (≥ RERANK_BELOW) is left alone, and so is the rest."""
    retriever = seed_assistant.retriever
    by_source = {p.source: p for p in seed_assistant.index.papers().values()}
    adam, craft, other = (by_source[f"{FILE_B}#4"], by_source[f"{FILE_B}#1"],
                          by_source[f"{FILE_A}#3"])

    def found(*scored: tuple[Paper, float]) -> list[RetrievedPaper]:
        return [RetrievedPaper(paper, score, "", 0.5, 0.5) for paper, score in scored]

    def order(results: list[RetrievedPaper]) -> list[tuple[str, float]]:
        return [(r.paper.source, r.score) for r in results]

    question = "What implicit regularization does the Adam optimizer have compared with SGD?"

    def reranked(results: list[RetrievedPaper]) -> list[RetrievedPaper]:
        return reranking.reranked(
            results, retriever.cross_encoder_reading(question, results, always=False))

    unsure = reranked(found((craft, 0.6), (adam, 0.3), (other, 0.1)))
    assert order(unsure) == order(found((adam, 0.6), (craft, 0.3), (other, 0.1)))
    sure = found((craft, RERANK_BELOW), (adam, 0.05), (other, 0.05))
    assert retriever.cross_encoder_reading(question, sure, always=False) is None
    assert reranked(sure) == sure
    agreed = found((adam, 0.6), (craft, 0.3), (other, 0.1))
    assert order(reranked(agreed)) == order(agreed)
    third = reranked(found((craft, 0.4), (other, 0.35), (adam, 0.25)))
    assert [r.paper.source for r in third][0] == adam.source
    assert [r.score for r in third] == [0.4, 0.35, 0.25]
    fourth = found((craft, 0.4), (other, 0.3), (other, 0.2), (adam, 0.1))
    assert reranked(fourth)[3] == fourth[3]


def test_retrieval_calls_it_only_for_answered_questions_and_only_when_on(
        seed_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer's first papers are read (the refusal, and the reread of an unsure one) once:
    three for a reread, the two the refusal reads otherwise; a question refused before, one
    whose first paper holds every keyword, or any with ASSISTANT_RETRIEVAL_RERANK=false,
    never pays for the cross-encoder. A question longer than the cross-encoder reads is cut,
    not an error."""
    calls: list[str] = []
    read: list[int] = []
    real = CrossEncoder.scores

    def counted(self: CrossEncoder, question: str, passages: list[str]) -> np.ndarray:
        calls.append(question)
        read.append(len(passages))
        return real(self, question, passages)

    monkeypatch.setattr(CrossEncoder, "scores", counted)
    app = Assistant(make_settings(seed_dir))
    unsure = "How are graph neural networks explained?"
    first = app.retrieve(unsure)
    assert first and first[0].score < RERANK_BELOW and calls == [unsure] and read == [RERANK_TOP]
    assert app.retrieve("Who won the 2022 FIFA World Cup?") == [] and len(calls) == 1
    sure = "How do graph models forecast traffic efficiently?"
    assert app.retrieve(sure)[0].score >= RERANK_BELOW and calls[-1] == sure  # the refusal
    assert read[-1] == REFUSAL_TOP
    assert app.retrieve("What is CRAFT?") and len(calls) == 2  # holds its keywords: exempt
    long_question = " ".join([unsure] * 60)  # ~500 tokens, within MAX_QUESTION_CHARS
    assert app.ask(long_question).citations and calls[-1] == long_question
    off = make_settings(seed_dir)
    off.retrieval.rerank = False
    calls.clear()
    assert Assistant(off).retrieve(unsure) and calls == []


def test_a_pair_scored_before_is_not_scored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    encoder = CrossEncoder()
    passages = ["Graph kernels computed by a Sylvester equation.", "Zebra finch song memory."]
    first = encoder.scores("How fast are random walk graph kernels?", passages)

    def run_again(*args: object) -> None:
        raise AssertionError("the cross-encoder ran again for pairs it had scored")

    monkeypatch.setattr(encoder, "_session", SimpleNamespace(run=run_again))
    again = encoder.scores("How fast are random walk graph kernels?", passages[::-1])
    assert again.tolist() == first[::-1].tolist()


def test_a_pair_gets_the_same_logit_whatever_it_is_scored_beside() -> None:
    """The int8 model quantizes activations over a batch: scored beside the other passages the
    Adam pair got another logit (by ~0.05-0.1), enough to swap two papers, and which one a
    question saw depended on what had been scored before (the memory keeps the first)."""
    from assistant import reranking

    question = "What implicit regularization does the Adam optimizer have?"
    adam = ("Adam reduces a specific form of sharpness measure shaped by its adaptive updates, "
            "leading to qualitatively different solutions from SGD.")
    others = ["Protein contact maps are predicted with sparse attention over residues. " * 8,
              "We price goods online when past sales come from a shifted market."]
    logits = []
    for batch in ([adam], [adam, *others], [others[0], adam]):
        reranking._SCORED.clear()
        scores = CrossEncoder().scores(question, batch)
        logits.append(float(scores[batch.index(adam)]))
    assert logits[1] == logits[0] and logits[2] == logits[0], logits


def test_a_question_no_first_paper_reads_as_answering_is_refused(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The cross-encoder's refusal (``ranking.LinearRanker.cross_encoder_below``, chosen on the
    dev split) reads the best of the first two papers; at an unreachable threshold a question
    is refused unless its first papers hold its keywords (every one, or its most specific);
    a cross-encoder that fails to run refuses nothing."""
    question = "How do graph models forecast traffic efficiently?"  # sure, and not exempt
    found = seed_assistant.retrieve(question)
    assert found and not seed_assistant.retriever.holds_its_keywords(question, found)
    logits = CrossEncoder().scores(question, [passage_of(r.paper) for r in found[:2]])
    assert logits.max() - logits.min() > 0.5
    shipped = load_ranker()
    assert shipped.cross_encoder_below is not None

    def threshold(value: float) -> None:
        changed = dataclasses.replace(shipped, cross_encoder_below=value)
        monkeypatch.setattr("assistant.refusals.load_ranker", lambda: changed)

    threshold(float(logits.mean()))  # between the two: the better one answers
    assert seed_assistant.retrieve(question)
    # only the ranker's first two count, as calibrated: a third that answers is not enough
    assert not read_as_answering(np.array([logits.min(), logits.min(), 100.0]))
    assert read_as_answering(np.array([logits.min(), logits.max(), -100.0]))
    threshold(100.0)
    assert seed_assistant.retrieve(question) == []
    refusal = seed_assistant.retriever.find(question).refusal
    assert refusal is not None and refusal.check == "cross_encoder"
    assert seed_assistant.retrieve("What is CRAFT?")  # holds every keyword
    specific = "Which approach forecasts future links between nodes in temporal graphs?"
    exempt = seed_assistant.retrieve(specific)  # holds "future", not every keyword
    assert exempt and all(r.coverage < FULL_MATCH for r in exempt[:2])

    def broken(self: CrossEncoder, question: str, passages: list[str]) -> np.ndarray:
        raise RuntimeError("onnxruntime failed")

    monkeypatch.setattr(CrossEncoder, "scores", broken)
    with caplog.at_level("WARNING"):
        assert seed_assistant.retrieve(question)
    assert "the cross-encoder failed" in caplog.text


def test_the_joint_refusal_weighs_evidence_and_reading_in_a_large_store(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """The joint refusal (``ranking.JointReading``) refuses when the ranker's evidence plus
    ``weight`` × the best logit of the first two papers is under its bound: only in a store
    of at least ``min_chunks`` embedded with its ``model`` (the seeds are too few for the
    shipped one), never under a filter, and not for a question whose first papers hold its
    keywords (the cross-encoder's exemption)."""
    question = "How do graph models forecast traffic efficiently?"  # not exempt
    retriever = seed_assistant.retriever
    screen = retriever._ranked(question, 3, "hybrid", True, None)
    found, evidence = screen.results, screen.evidence
    assert found and evidence is not None
    assert not retriever.holds_its_keywords(question, found)
    best = float(CrossEncoder().scores(question, [passage_of(r.paper) for r in found[:2]]).max())
    shipped = load_ranker()
    model = seed_assistant.settings.index.embed_model
    assert shipped.joint_reading is not None and shipped.joint_reading.model == model
    assert seed_assistant.index.chunk_count() < shipped.joint_reading.min_chunks
    assert seed_assistant.retrieve(question)

    def use(weight: float, below: float, min_chunks: int = 1, embedded_by: str = model) -> None:
        joint = JointReading(weight, below, min_chunks, embedded_by)
        changed = dataclasses.replace(shipped, cross_encoder_below=-100.0, joint_reading=joint)
        monkeypatch.setattr("assistant.refusals.load_ranker", lambda: changed)

    score = evidence + 0.5 * best
    use(0.5, score + 0.01)
    assert seed_assistant.retrieve(question) == []
    refusal = retriever.find(question).refusal
    assert refusal is not None and refusal.check == "joint_reading"
    assert seed_assistant.retrieve(question, filters=Filters(years=(1900, 2100)))
    use(0.5, score - 0.01)
    assert seed_assistant.retrieve(question)
    # the weight is read: between the evidence alone and the joint score, one side refuses
    assert abs(best) > 0.1
    use(0.0, (evidence + score) / 2)
    alone = bool(seed_assistant.retrieve(question))
    use(0.5, (evidence + score) / 2)
    assert bool(seed_assistant.retrieve(question)) != alone
    use(0.5, score + 0.01, min_chunks=seed_assistant.index.chunk_count() + 1)
    assert seed_assistant.retrieve(question)
    use(0.5, score + 0.01, embedded_by="openai:another-model")
    assert seed_assistant.retrieve(question)
    # exempt, as from the cross-encoder's refusal, even where the reread reads the logits
    unsure = "How are graph neural networks explained?"
    assert retriever._ranked(unsure, 3, "hybrid", True, None).results[0].score < RERANK_BELOW
    use(0.5, 1e9)
    assert seed_assistant.retrieve(unsure) == []
    monkeypatch.setattr(retriever, "holds_its_keywords", lambda question, results: True)
    assert seed_assistant.retrieve(unsure)


def test_the_joint_refusal_reads_the_best_of_the_first_two_logits(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """As calibrated: the best logit of the first REFUSAL_TOP papers, a third not counted, and
    a score at the bound is not under it."""
    model = seed_assistant.settings.index.embed_model
    joint = JointReading(0.5, 5.0, 1, model)
    monkeypatch.setattr("assistant.refusals.load_ranker",
                        lambda: dataclasses.replace(load_ranker(), joint_reading=joint))
    def reads(evidence: float | None, logits: np.ndarray | None, filters: Filters | None) -> bool:
        return read_with_evidence(seed_assistant.index, evidence, logits, filters)

    assert not reads(4.0, np.array([1.0, 1.9, 9.0]), None)  # 4 + 0.5 × 1.9 < 5
    assert reads(4.0, np.array([1.0, 2.0, -9.0]), None)  # 4 + 0.5 × 2 = 5: not under
    assert reads(4.0, np.array([2.0, -9.0]), None)
    assert reads(None, np.array([-9.0, -9.0]), None) and reads(0.0, None, None)


def test_an_answer_under_the_joint_readings_doubt_level_is_marked_unsure(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Between the joint refusal's bound and its ``doubt_below`` the answer is given, marked
    ``unsure``, and every surface says its sources may not say what was asked; above it, or
    where the joint reading does not apply (a filter, a smaller store than ``min_chunks``),
    no mark. A question whose first papers hold its keywords is exempt from the refusal but
    marked when the reread reads it (the ranker unsure); when the ranker is sure it has no
    reading and is never marked."""
    from assistant.printing import print_notes
    from assistant.references import UNSURE_NOTE, render
    from assistant.ui.render import answer_as_markdown, render_answer

    question = "How do graph models forecast traffic efficiently?"  # not exempt
    retriever = seed_assistant.retriever
    screen = retriever._ranked(question, 3, "hybrid", True, None)
    found, evidence = screen.results, screen.evidence
    assert found and evidence is not None
    best = float(CrossEncoder().scores(question, [passage_of(r.paper) for r in found[:2]]).max())
    score = evidence + 0.5 * best
    shipped = load_ranker()
    model = seed_assistant.settings.index.embed_model
    assert not retriever.find(question).unsure  # the seeds are too few for the shipped one

    def use(doubt_below: float | None, min_chunks: int = 1, below: float | None = None,
            doubt_min_chunks: int | None = None) -> None:
        joint = JointReading(0.5, score - 1.0 if below is None else below, min_chunks, model,
                             doubt_below, doubt_min_chunks)
        changed = dataclasses.replace(shipped, cross_encoder_below=-100.0, joint_reading=joint)
        monkeypatch.setattr("assistant.refusals.load_ranker", lambda: changed)

    use(None)
    plain = retriever.find(question)
    use(score + 0.01)
    marked = retriever.find(question)
    assert marked.unsure and not plain.unsure and marked.papers == plain.papers  # a mark only
    assert marked.doubt is not None and marked.doubt.check == "joint_doubt"
    assert marked.refusal is None and plain.doubt is None
    assert not retriever.find(question, filters=Filters(years=(1900, 2100))).unsure
    answer = seed_assistant.ask(question)
    assert answer.unsure and answer.citations
    assert UNSURE_NOTE in render(answer, "markdown") and UNSURE_NOTE in answer_as_markdown(answer)
    assert '<p class="note unsure">' in render_answer(answer)
    assert answer.public_json()["unsure"] is True
    print_notes(answer)
    assert UNSURE_NOTE in capsys.readouterr().err
    use(score - 0.01)
    assert not retriever.find(question).unsure
    unmarked = seed_assistant.ask(question)
    assert not unmarked.unsure and UNSURE_NOTE not in render(unmarked, "markdown")
    print_notes(unmarked)
    assert UNSURE_NOTE not in capsys.readouterr().err
    chunks = seed_assistant.index.chunk_count()
    use(score + 0.01, min_chunks=chunks + 1)
    assert not retriever.find(question).unsure
    # a store the mark reaches but not the refusal: what the refusal would take is marked
    use(score + 0.01, min_chunks=chunks + 1, below=score + 0.005, doubt_min_chunks=chunks)
    assert retriever.find(question).unsure and retriever.find(question).papers
    use(score + 0.01, min_chunks=chunks, below=score + 0.005, doubt_min_chunks=chunks)
    assert retriever.find(question).papers == []
    use(score + 0.01, min_chunks=chunks + 1, doubt_min_chunks=chunks + 1)
    assert not retriever.find(question).unsure
    # no reading, no mark: the exempt question the ranker is sure of
    sure = "What is CRAFT?"
    first = retriever._ranked(sure, 3, "hybrid", True, None).results
    assert retriever.holds_its_keywords(sure, first) and first[0].score >= RERANK_BELOW
    use(1e9)
    assert retriever.find(sure).papers and not retriever.find(sure).unsure
    assert retriever.find(question).unsure
    # exempt from the refusal but reread (the ranker under RERANK_BELOW sure): read, so marked
    unsure = "How are graph neural networks explained?"
    assert retriever._ranked(unsure, 3, "hybrid", True, None).results[0].score < RERANK_BELOW
    monkeypatch.setattr(retriever, "holds_its_keywords", lambda question, results: True)
    assert retriever.find(unsure).unsure and not retriever.find(sure).unsure


def test_fewer_papers_shown_read_the_same_first_papers(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """``top_k`` below RERANK_TOP (``--top-k 1``, the UI's slider) still has the first
    RERANK_TOP papers reread and the first REFUSAL_TOP read for the refusal: the first paper
    shown is the one a longer answer leads with. The exemption reads the first REFUSAL_TOP
    only, as calibrated: a third paper that holds the keywords exempts nothing."""
    question = "How are graph neural networks explained?"  # the ranker is unsure of it

    def third_answers(self: CrossEncoder, q: str, passages: list[str]) -> np.ndarray:
        return np.array([0.0, -1.0, 10.0][:len(passages)])

    monkeypatch.setattr(CrossEncoder, "scores", third_answers)
    five = seed_assistant.retrieve(question, top_k=5)
    one = seed_assistant.retrieve(question, top_k=1)
    two = seed_assistant.retrieve(question, top_k=2)
    assert len(one) == 1 and len(two) == 2 and len(five) >= 3
    assert one[0].paper.paper_id == two[0].paper.paper_id == five[0].paper.paper_id
    off = seed_assistant.retriever.settings.model_copy(update={"rerank": False})
    ranked = HybridRetriever(seed_assistant.index, off).retrieve(question, top_k=5)
    assert five[0].paper.paper_id == ranked[2].paper.paper_id  # the ranker's third, reread first

    by_source = {p.source: p for p in seed_assistant.index.papers().values()}
    craft = by_source[f"{FILE_B}#1"]
    others = [p for p in by_source.values() if "craft" not in text_terms(f"{p.title}. {p.text}")][:2]
    results = [RetrievedPaper(p, 0.3, "", 0.5, 0.5) for p in [*others, craft]]
    retriever = seed_assistant.retriever
    assert not retriever.holds_its_keywords("What is CRAFT?", results)
    assert retriever.holds_its_keywords("What is CRAFT?", [results[0], results[2], results[1]])


@pytest.mark.parametrize("question", [
    "How do graph models forecast traffic efficiently?",  # sure: 2 read, the first best
    # unsure: 3 read, the second paper reads best
    "How large can the gain from attention in graph neural networks be when the right conditions hold?",
    # unsure: 3 read, the third reads best, which the refusal must not see
    "How can a football coach generalize a strategy to new opponents?",
])
def test_the_eval_plots_the_reading_the_refusal_compares(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch, question: str) -> None:
    """``refusal_reading`` (scores.png's lower panel) is the logit the refusal compares with
    its threshold: a threshold just above it refuses the question, one at it answers."""
    reading = seed_assistant.retriever.refusal_reading(question)
    assert reading is not None
    shipped = load_ranker()

    def threshold(value: float) -> None:
        changed = dataclasses.replace(shipped, cross_encoder_below=value)
        monkeypatch.setattr("assistant.refusals.load_ranker", lambda: changed)

    threshold(reading + 1e-6)
    assert seed_assistant.retrieve(question) == []
    threshold(reading)
    assert seed_assistant.retrieve(question)


def test_no_reading_where_the_refusal_reads_none(
        seed_assistant: Assistant, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused by an earlier check, exempt, the cross-encoder off or no threshold chosen: the
    refusal compares nothing, and the plot shows nothing."""
    retriever = seed_assistant.retriever
    assert retriever.refusal_reading("What is CRAFT?") is None  # exempt: holds every keyword
    assert seed_assistant.retrieve("How do I bake sourdough bread at home?") == []
    assert retriever.refusal_reading("How do I bake sourdough bread at home?") is None
    question = "How do graph models forecast traffic efficiently?"
    for update in ({"rerank": False}, {"fusion": "dbsf"}):
        changed = retriever.settings.model_copy(update=update)
        assert HybridRetriever(seed_assistant.index, changed).refusal_reading(question) is None
    unset = dataclasses.replace(load_ranker(), cross_encoder_below=None)
    monkeypatch.setattr("assistant.refusals.load_ranker", lambda: unset)
    assert retriever.refusal_reading(question) is None


def test_what_is_refused_does_not_depend_on_how_many_papers_are_shown(
        seed_assistant: Assistant) -> None:
    """The floor reads the papers of a default answer whatever ``top_k`` asks for: here the
    first three papers clear only the relaxed floor and a later one the strict one, so
    ``--top-k 1`` refused what the default answers (a review found it, at a valid
    ``min_dense``)."""
    question = ("Can devices that keep gathering correlated, non-i.i.d. sensor readings over "
                "time still train a shared model together?")
    changed = seed_assistant.retriever.settings.model_copy(
        update={"min_dense": 0.339, "min_coverage": 1.0})
    retriever = HybridRetriever(seed_assistant.index, changed)
    ranked = retriever._ranked(question, 6, "hybrid", False, None).results
    assert all(r.dense < 0.339 for r in ranked[:3]) and any(r.dense >= 0.339 for r in ranked[3:5])
    shown = [len(retriever.retrieve(question, top_k=k)) for k in (1, 2, 5)]
    assert shown == [1, 2, 5]
    assert retriever.refusal_reading(question) is not None
