"""The eval set and runner: the offline default must stay above the committed thresholds."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import FILE_B, SHARED_DATA, make_settings, skipif_no_shared_data
from fake_openai import FakeOpenAI
from rich.console import Console
from test_cli import run

from assistant.corpus import read_paths
from assistant.errors import EndpointError
from assistant.evals import (
    DEFAULT_DATASET,
    THRESHOLDS,
    DatasetError,
    check_thresholds,
    evaluate,
    fact_found,
    indexed_items,
    load_dataset,
    markdown_report,
    retrieval_scores,
    run_cli,
    score_answer,
)
from assistant.evals.report import compare
from assistant.evals.scoring import (
    EvalRun,
    QuestionResult,
    baseline_rankings,
    intervals,
    per_question,
    summarize_run,
    unsure_counts,
)
from assistant.pipeline import Assistant
from assistant.ranking import load_ranker
from assistant.settings import PROJECT_ROOT
from assistant.types import Answer, Citation, SourceRef


def test_dataset_mix_and_locators(seed_assistant: Assistant) -> None:
    items = load_dataset(DEFAULT_DATASET)
    kinds = [i.kind for i in items]
    assert len(items) >= 150
    assert kinds.count("none") >= 30 and sum(i.id.startswith("near-") for i in items) >= 10
    assert {"paraphrase", "named", "detail", "multi"} <= set(kinds)
    assert all(2 <= len(i.expected_sources) <= 3 for i in items if i.kind == "multi")
    for kind in set(kinds):  # every kind is both tuned on (dev) and reported (test)
        assert {i.split for i in items if i.kind == kind} == {"dev", "test"}, kind
    known = {p.source for p in seed_assistant.index.papers().values()}
    older = [i for i in items if not set(i.expected_sources) <= known]
    assert len(older) >= 40
    for item in older:
        assert all(re.fullmatch(r"neurips_abstract_(19|20)\d\d\.csv#\d+", s)
                   for s in item.expected_sources), item.id


@skipif_no_shared_data
def test_questions_about_older_papers_point_at_real_abstracts() -> None:
    papers = {p.source: p for p in read_paths([SHARED_DATA]).papers}
    for item in load_dataset(DEFAULT_DATASET):
        for source in item.expected_sources:
            if source.startswith("neurips_abstract_"):
                paper = papers[source]
                assert all(fact_found(f, paper.text) for f in item.key_facts), item.id
        assert all(source in papers for source in item.also_relevant), item.id


def test_malformed_line_names_its_line(tmp_path: Path) -> None:
    good = DEFAULT_DATASET.read_text().splitlines()[0]
    path = tmp_path / "qa.jsonl"
    path.write_text(good + "\n" + '{"id": "x", "question": "What?"}\n')
    with pytest.raises(DatasetError, match=r"qa.jsonl:2: field 'expected_sources'"):
        load_dataset(path)
    path.write_text(good + "\n\n{broken\n")
    with pytest.raises(DatasetError, match=r"qa.jsonl:3: not valid JSON"):
        load_dataset(path)


def test_a_users_file_needs_only_the_question_and_its_papers(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"question": "What is CRAFT?", "expected_sources": [f"{FILE_B}#1"]})
                    + "\n\n" + json.dumps({"question": "How do I bake bread?",
                                           "expected_sources": []}) + "\n")
    named, off_topic = load_dataset(path)
    assert (named.id, named.kind, named.split, named.key_facts, named.reference_answer) == (
        "q1", "paraphrase", "test", [], "")
    assert (off_topic.id, off_topic.kind, off_topic.split) == ("q3", "none", "test")


@pytest.mark.parametrize(("line", "field"), [
    ({"expected_sources": []}, "question"),
    ({"question": "What is CRAFT?"}, "expected_sources"),
    ({"question": "What is CRAFT?", "expected_sources": "a.txt#1"}, "expected_sources"),
    ({"question": "What is CRAFT?", "expected_sources": ["CRAFT paper"]}, "expected_sources"),
    ({"question": "What is CRAFT?", "expected_sources": [], "split": "train"}, "split"),
    ({"question": "What is CRAFT?", "expected_sources": [], "kinds": "none"}, "kinds"),
])  # a line that is no object: test_eval_input.py
def test_a_bad_line_of_a_users_file_names_the_field(tmp_path: Path, line: object,
                                                   field: str) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"question": "What is CRAFT?", "expected_sources": []}) + "\n"
                    + json.dumps(line) + "\n")
    with pytest.raises(DatasetError, match=rf"mine.jsonl:2: field '{field}'"):
        load_dataset(path)


@pytest.mark.slow  # the CLI in a subprocess
def test_eval_command_runs_a_users_own_file(fresh_copy: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine.jsonl"
    mine.write_text(json.dumps({"question": "What is CRAFT?", "expected_sources": [f"{FILE_B}#1"]})
                    + "\n" + json.dumps({"question": "How do I bake sourdough bread?",
                                         "expected_sources": []})
                    + "\n" + json.dumps({"question": "What is TCCM?",  # a locator mistyped
                                         "expected_sources": ["nonexistent.txt#3"]}) + "\n")
    result = run("eval", "--dataset", str(mine), "--data-dir", str(fresh_copy), "--no-baselines",
                       "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "1 question about papers not in" in result.stderr  # named, not just counted
    assert "is left out of this section: q3 (nonexistent.txt#3)" in result.stderr
    rows = json.loads((tmp_path / "out" / "results.json").read_text())["rows"]["seeds"]
    assert [(r["id"], r["kind"], r["split"]) for r in rows] == [
        ("q1", "paraphrase", "test"), ("q2", "none", "test")]
    assert rows[0]["retrieval"]["ours"]["hit@5"] == 1.0
    # the report says it beside the section's count (a run read 1.000 over 1 question of 2)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "2 questions (1 answerable, 0 errors), 1 more left out (papers not in the store)" in report
    mine.write_text(mine.read_text() + '{"question": "Why?", "expected_sources": [], '
                    '"split": "train"}\n')
    result = run("eval", "--dataset", str(mine), "--data-dir", str(fresh_copy))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "mine.jsonl:4: field 'split'" in result.stderr
    assert "Traceback" not in result.stderr


def test_scoring_helpers() -> None:
    assert fact_found("twenty|20", "Twenty models were tested")
    assert not fact_found("80%", "about eighty percent")
    assert fact_found("80%", r"reduced the attack success rate by nearly 80\% on average")  # LaTeX
    scores = retrieval_scores(["a#1", "b#2", "c#3"], ["b#2", "z#9"])
    assert scores == {"hit@1": 0.0, "hit@3": 1.0, "hit@5": 1.0, "mrr": 0.5, "recall@5": 0.5}
    # a paper judged to answer the question too is a hit, but recall counts the expected only
    judged = retrieval_scores(["a#1", "b#2", "c#3"], ["b#2", "z#9"], also_relevant=["a#1"])
    assert judged == {"hit@1": 1.0, "hit@3": 1.0, "hit@5": 1.0, "mrr": 1.0, "recall@5": 0.5}


def _row(qid: str, split: str = "dev", *, hit: float = 1.0, precision: float | None = 1.0,
         refused: bool = False, answerable: bool = True) -> QuestionResult:
    """A scored question made by hand: the eval's figures are means of such rows."""
    if not answerable:
        return QuestionResult(id=qid, kind="none", split=split, question=qid, expected=[],
                              refused=refused)
    return QuestionResult(id=qid, kind="paraphrase", split=split, question=qid, expected=["a#1"],
                          retrieval={"ours": dict.fromkeys(("hit@1", "hit@3", "hit@5", "mrr",
                                                            "recall@5"), hit)},
                          citation_precision=precision, citation_recall=hit, refused=refused)


def test_unsure_answers_are_counted_by_what_they_are() -> None:
    """The report says how many answers carry the unsure notice among `none` questions
    answered, answers led by a wrong paper and answers led by a right one (a false alarm);
    refused questions count nowhere."""
    rows = [_row("a1"), _row("a2"), _row("w1", hit=0.0), _row("r1", refused=True),
            _row("n1", answerable=False), _row("n2", answerable=False, refused=True)]
    for row in rows:
        row.unsure = row.id in ("a1", "w1", "n1", "n2", "r1")
    assert unsure_counts(rows) == {"none_answered": [1, 1], "wrong_first": [1, 1],
                                   "right_first": [1, 2]}
    metrics = summarize_run(rows)
    assert metrics["unsure"] == unsure_counts(rows)
    assert metrics["by_split"]["dev"]["unsure"] == unsure_counts(rows)
    report = markdown_report({"run": EvalRun(metrics=metrics, rows=rows)}, "extractive")
    line = ("1 of 1 `none` questions answered, 1 of 1 answers led by a wrong paper, 1 of 2 "
            "answers led by a right paper")
    assert f"- marked, all: {line}" in report and f"- marked, dev: {line}" in report
    assert "- **w1** (paraphrase, a failure)" in report


def test_either_notice_counts_the_name_warning_beside_the_unsure_mark() -> None:
    """A fake answer warned only that no cited abstract names what the question names is
    counted as noticed (``any_notice``), one with neither notice is not; the unsure count
    stays the mark's own."""
    rows = [_row("a1"), _row("a2"), _row("n1", answerable=False), _row("n2", answerable=False),
            _row("n3", answerable=False)]
    rows[0].unmentioned = ["Mamba"]
    rows[2].unmentioned = ["Byzantine"]
    rows[3].unsure = True
    metrics = summarize_run(rows)
    assert metrics["unsure"] == {"none_answered": [1, 3], "wrong_first": [0, 0],
                                 "right_first": [0, 2]}
    assert metrics["any_notice"] == {"none_answered": [2, 3], "wrong_first": [0, 0],
                                     "right_first": [1, 2]}
    report = markdown_report({"run": EvalRun(metrics=metrics, rows=rows)}, "extractive")
    assert ("- either notice, all: 2 of 3 `none` questions answered, 0 of 0 answers led by a "
            "wrong paper, 1 of 2 answers led by a right paper") in report


def test_intervals_are_repeatable_and_narrow_with_more_questions() -> None:
    few = [_row(f"q{i}", hit=float(i % 4 != 0)) for i in range(40)]
    many = [_row(f"q{i}", hit=float(i % 4 != 0)) for i in range(400)]
    low, high = intervals(few)["hit@1"]
    assert 0.0 <= low < 0.75 < high <= 1.0
    assert intervals(few) == intervals(few)  # a fixed seed: the same report twice
    many_low, many_high = intervals(many)["hit@1"]
    assert low < many_low < 0.75 < many_high < high
    # a figure every question shares has no spread; one no question has is left out
    assert intervals(few)["citation_precision"] == [1.0, 1.0]
    assert "refusal_on_none" not in intervals(few)
    # a refused question is in no precision average: its None is not a zero
    refused = [*few[:4], _row("r", precision=None, refused=True)]
    assert intervals(refused)["citation_precision"] == [1.0, 1.0]
    assert summarize_run(few)["intervals"] == intervals(few)


def test_compare_names_the_questions_that_moved() -> None:
    before = [_row("a"), _row("b", "test"), _row("c", hit=0.0, precision=0.0),
              _row("n", answerable=False, refused=True), _row("w", refused=True, precision=None)]
    after = [_row("a", precision=0.5), _row("b", "test"), _row("c"),
             _row("n", answerable=False, refused=False), _row("w")]

    def result(rows: list[QuestionResult]) -> dict[str, object]:
        run = summarize_run(rows)
        return {"metrics": run, "sections": {"with distractors": run},
                "per_question": {"with distractors": per_question(rows)}}

    changes = {c.metric: c for c in compare(result(after), result(before))["with distractors"]}
    precision = changes["citation_precision"]
    assert precision.better == ["c"] and precision.worse == ["a"]
    assert precision.by_split["test"] == 0.0 and precision.by_split["dev"] != 0.0
    assert changes["ours.hit@1"].better == ["c"] and changes["ours.hit@1"].worse == []
    # fewer refusals: better for an answerable question, worse for a `none` one
    assert changes["wrong_refusal"].better == ["w"] and changes["wrong_refusal"].delta == -0.25
    assert changes["refusal_on_none"].worse == ["n"]
    # an old results file of metrics alone is the seeds section, with no questions to name
    old = {"metrics": {"ours": {"hit@1": 0.5}}}
    seeds = compare({"sections": {"seeds": summarize_run(after)}}, old)["seeds"]
    assert [(c.metric, c.before, c.delta) for c in seeds if c.before is not None] == [
        ("ours.hit@1", 0.5, 0.5)]
    # a user's store was labelled "seeds" before it was "store": one section each, compared
    relabelled = {"metrics": result(before)["metrics"], "sections": {"seeds": summarize_run(before)},
                  "per_question": {"seeds": per_question(before)}}
    new = {"sections": {"store": summarize_run(after)}, "per_question": {"store": per_question(after)}}
    store = {c.metric: c for c in compare(new, relabelled)["store"]}
    assert store["citation_precision"].better == ["c"] and store["citation_precision"].worse == ["a"]


def test_judged_papers_count_as_right_citations_not_as_recall(tmp_path: Path) -> None:
    first = json.loads(DEFAULT_DATASET.read_text().splitlines()[0])
    item = {**first, "expected_sources": ["b#2"], "also_relevant": ["a#1"]}
    path = tmp_path / "qa.jsonl"
    path.write_text(json.dumps(item) + "\n")
    [loaded] = load_dataset(path)
    cited = [Citation(n=n, paper_id=s, title=s, source=s, text="t")
             for n, s in ((1, "a#1"), (2, "c#3"))]
    sources = [SourceRef(n=c.n, paper_id=c.paper_id, title=c.title, source=c.source, score=1.0)
               for c in cited]
    answer = Answer(question="q", answer="x", mode="extractive", citations=cited,
                    sources=sources)
    result = score_answer(loaded, answer, 1.0)
    assert (result.citation_precision, result.citation_recall) == (0.5, 0.0)
    assert result.retrieval["ours"]["hit@1"] == 1.0 and result.also_relevant == ["a#1"]
    # ... and the figures with the expected papers alone say what they say without them
    assert result.citation_precision_expected_only == 0.0
    assert result.expected_only["ours"]["hit@1"] == 0.0
    assert result.failed  # no expected paper cited: listed among the failures
    for bad in ({**item, "also_relevant": ["b#2"]},  # already expected
                {**item, "also_relevant": ["a#1", "a#1"]},  # twice
                {**item, "also_relevant": ["a paper"]},  # not a locator
                {**item, "kind": "none", "expected_sources": []}):
        path.write_text(json.dumps(bad) + "\n")
        with pytest.raises(DatasetError, match="also_relevant"):
            load_dataset(path)


def test_baselines_count_judged_papers_too(seed_assistant: Assistant, tmp_path: Path) -> None:
    first = json.loads(DEFAULT_DATASET.read_text().splitlines()[0])
    ranked = baseline_rankings(seed_assistant, first["question"], "bm25")
    item = {**first, "expected_sources": [ranked[1]], "also_relevant": [ranked[0]],
            "key_facts": []}
    path = tmp_path / "qa.jsonl"
    path.write_text(json.dumps(item) + "\n")
    run = evaluate(seed_assistant, load_dataset(path))
    [row] = run.rows
    assert row.retrieval["bm25"]["hit@1"] == 1.0 and row.expected_only["bm25"]["hit@1"] == 0.0
    assert run.metrics["expected_only"]["bm25"]["mrr"] == 0.5
    assert "judged ones not counted" in markdown_report({"seeds": run}, "extractive")


def test_judge_pool_merge_keeps_what_both_judges_call_relevant(tmp_path: Path) -> None:
    judge_pool = _bench_module("judge_pool")
    first = json.loads(DEFAULT_DATASET.read_text().splitlines()[0])
    dataset = tmp_path / "qa.jsonl"
    dataset.write_text(json.dumps({**first, "also_relevant": ["old#1"]}) + "\n")
    verdicts = {("x#1", True, True), ("x#2", True, False), ("x#3", False, False),
                ("x#4", False, False)}
    for n, name in ((1, "a.jsonl"), (2, "b.jsonl")):
        (tmp_path / name).write_text("".join(
            json.dumps({"qid": first["id"], "paper": paper, "relevant": v[n - 1]}) + "\n"
            for paper, *v in sorted(verdicts)))
    figures = judge_pool.merge(tmp_path / "a.jsonl", tmp_path / "b.jsonl", dataset)
    [item] = load_dataset(dataset)
    assert item.also_relevant == ["x#1"]  # the earlier label replaced, the contested one left out
    assert figures["relevant_both"] == 1 and figures["agreement"] == 0.75
    assert figures["cohen_kappa"] == 0.5  # 0.75 observed against 0.5 by chance
    (tmp_path / "b.jsonl").write_text("")
    with pytest.raises(SystemExit, match="different"):
        judge_pool.merge(tmp_path / "a.jsonl", tmp_path / "b.jsonl", dataset)


@pytest.mark.slow
def test_offline_default_stays_above_thresholds(seed_assistant: Assistant) -> None:
    result = evaluate(seed_assistant, indexed_items(seed_assistant, load_dataset(DEFAULT_DATASET)))
    thresholds = json.loads(THRESHOLDS.read_text())
    assert check_thresholds(result.metrics, thresholds) == []
    m = result.metrics
    assert m["ours"]["hit@5"] >= m["dense"]["hit@5"]  # the plain vector retriever as baseline
    assert m["latency_ms_p95"] >= m["latency_ms_p50"] > 0


@pytest.mark.slow
def test_eval_command_writes_reports_and_compares(seed_dir: Path, tmp_path: Path) -> None:
    items = DEFAULT_DATASET.read_text().splitlines()
    small = tmp_path / "small.jsonl"
    small.write_text("\n".join([items[0], items[29], items[-1]]) + "\n")
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"metrics": {"ours": {"hit@5": 0.5}, "citation_precision": 0.25}}))
    console = Console(record=True, width=160)
    code = run_cli(make_settings(seed_dir), small, tmp_path / "out", old, None, True, console, console)
    assert code == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["metrics"]["questions"] == 3 and results["metrics"]["ours"]["hit@5"] == 1.0
    report = (tmp_path / "out" / "report.md").read_text()
    assert "| hybrid (ours) |" in report and "BM25 only" in report and "Failures" in report
    assert (tmp_path / "out" / "metrics.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "out" / "scores.png").read_bytes()[:4] == b"\x89PNG"
    printed = console.export_text()
    assert "ours.hit@5" in printed and "+0.500" in printed


def test_judge_scores_with_a_model_endpoint(seed_dir: Path) -> None:
    items = [i for i in load_dataset(DEFAULT_DATASET) if i.id == "name-01"]
    with FakeOpenAI() as server:
        server.replies = ["CRAFT predicts future links [1].", "Score: 4\nReason: fine.",
                          "Supported: YES\nReason: cited."]
        app = Assistant(make_settings(seed_dir, base_url=server.base_url, model="judge-model"))
        result = evaluate(app, items, baselines=False)
    m = result.metrics
    assert m["correctness_1to5"] == 4.0 and m["faithfulness"] == 1.0
    judge_prompt = server.requests[1]["body"]["messages"][0]["content"]
    assert "Reference answer: CRAFT, a Cross-Attention" in judge_prompt


class FailingAssistant(Assistant):
    """A deterministic fake: the real pipeline, except that chosen questions raise."""

    def __init__(self, base: Assistant, failing: set[str]) -> None:
        super().__init__(base.settings)
        self.failing = failing

    def answer_stream(self, question: str, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        """What the eval calls, as `assistant ask` does."""
        if question in self.failing:
            raise EndpointError("the model endpoint answered HTTP 500")
        return super().answer_stream(question, *args, **kwargs)


def test_an_error_is_a_failure_in_every_metric_and_listed_first(seed_assistant: Assistant) -> None:
    items = load_dataset(DEFAULT_DATASET)
    answerable = next(i for i in items if i.id == "name-01")
    none = next(i for i in items if i.kind == "none")
    ok = next(i for i in items if i.id == "para-03")
    app = FailingAssistant(seed_assistant, {answerable.question, none.question})
    run = evaluate(app, [ok, answerable, none], baselines=False)
    m = run.metrics
    assert m["errors"] == 2 and m["answerable"] == 2
    # The errored answerable question counts as a miss, not as absent from the averages.
    assert m["ours"]["hit@5"] == 0.5 and m["citation_recall"] == 0.5
    assert m["wrong_refusal"] == 0.5
    # The errored `none` question is not a correct refusal.
    assert m["refusal_on_none"] == 0.0
    assert m["refusal_accuracy"] == pytest.approx(1 / 3, abs=1e-3)
    report = markdown_report({"seeds": run}, "extractive")
    failures = report.split("### Failures", 1)[1]
    assert failures.index("name-01") < failures.index("error: the model endpoint")
    first_listed = [line for line in failures.splitlines() if line.startswith("- **")][:2]
    assert {line.split("**")[1] for line in first_listed} == {answerable.id, none.id}


def _bench_module(name: str) -> ModuleType:
    """A script of bench/ imported as the scripts import each other (bench/ on the path)."""
    sys.path.insert(0, str(PROJECT_ROOT / "bench"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(PROJECT_ROOT / "bench"))


def test_the_unsure_level_replays_what_retrieval_marked() -> None:
    """bench/calibrate_abstention.py chooses ``doubt_below`` by ``doubt_score``, its replay of
    when retrieval (``HybridRetriever.find``) marks an answer unsure: over every question
    bench/masked_papers.py asked, stored and masked, the replay with the shipped bounds
    refuses exactly what retrieval refused and marks exactly what it marked; and the shipped
    level is the one the calibration's rule gives on its recorded scores."""
    calibrate = _bench_module("calibrate_abstention")
    ranker = load_ranker()
    joint, near = ranker.joint_reading, ranker.neighbourhood
    assert joint is not None and joint.doubt_below is not None and near is not None
    assert ranker.abstain_below is not None
    assert (near.min_chunks, joint.min_chunks, joint.doubt_min_chunks) == (
        calibrate.MIN_CHUNKS, calibrate.MIN_CHUNKS, calibrate.DOUBT_MIN_CHUNKS)
    bounds = (ranker.abstain_below, near.below, ranker.cross_encoder_below,
              (joint.weight, joint.below))
    rows = json.loads(calibrate.MASKED_PAPERS.read_text())["rows"]
    marked = 0
    for side in (row[s] for row in rows for s in ("as_stored", "masked")):
        assert calibrate.refused(side, *bounds) == side["refused"]
        score = calibrate.doubt_score(side, joint.weight, bounds)
        assert (score is not None and score < joint.doubt_below) == side["unsure"]
        marked += side["unsure"]
    assert marked > 100  # the replay is tested on marked answers, not only on unmarked ones
    recorded = json.loads((PROJECT_ROOT / "bench" / "results" / "abstention.json").read_text())
    sections = {**recorded["scores"], "bench tuning": calibrate.tuning_rows()}
    assert calibrate.doubt_level(sections, joint.weight, bounds) == joint.doubt_below
    # bench/store_sizes.py, which DOUBT_MIN_CHUNKS rests on, replayed these same thresholds
    sizes = json.loads((PROJECT_ROOT / "bench" / "results" / "store_sizes.json").read_text())
    assert (sizes["bounds"], sizes["doubt_below"], sizes["doubt_min_chunks"]) == (
        [bounds[0], bounds[1], bounds[2], list(bounds[3])], joint.doubt_below,
        joint.doubt_min_chunks)


def test_a_store_the_mark_reaches_but_not_the_refusal_marks_what_it_would_refuse() -> None:
    """The replay's flags: in a store of DOUBT_MIN_CHUNKS or more but under the refusals'
    MIN_CHUNKS (``doubt_checked`` without ``checked``), a question under the joint bound is
    answered and marked, not refused; in a larger store it is refused; in a smaller one
    answered, unmarked."""
    calibrate = _bench_module("calibrate_abstention")
    bounds = (5.0, 0.3, -5.0, (0.5, 6.0))
    row = {"evidence": 6.5, "reading": -2.0, "holds_its_keywords": False, "p_first": 0.5,
           "papers": 3, "floor_answers": True, "full_match": False, "nearest": 0.5,
           "named": False}  # joint score 5.5: under the bound
    mid = {**row, "checked": False, "doubt_checked": True}
    large = {**row, "checked": True, "doubt_checked": True}
    small = {**row, "checked": False, "doubt_checked": False}
    assert not calibrate.refused(mid, *bounds) and calibrate.doubt_score(mid, 0.5, bounds) == 5.5
    assert calibrate.refused(large, *bounds) and calibrate.doubt_score(large, 0.5, bounds) is None
    assert not calibrate.refused(small, *bounds) and calibrate.doubt_score(small, 0.5, bounds) is None
    # exempt (the first papers hold the keywords): read only when the reread reads it
    assert calibrate.doubt_score({**mid, "holds_its_keywords": True}, 0.5, bounds) == 5.5
    assert calibrate.doubt_score({**mid, "holds_its_keywords": True, "p_first": 0.95}, 0.5,
                                 bounds) is None
    assert calibrate.doubt_score({**mid, "holds_its_keywords": True, "papers": 1}, 0.5,
                                 bounds) is None


def _bench_questions(name: str) -> list[dict[str, object]]:
    path = PROJECT_ROOT / "bench" / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _named_papers() -> dict[str, dict[str, str]]:
    """Each bench question set's papers: source → title."""
    return {
        "key_facts": {str(s): str(q["title"]) for q in _bench_questions("key_facts_questions.jsonl")
                      for s in q["expected_sources"]},  # type: ignore[attr-defined]
        "ranker": {str(q["source"]): str(q["title"])
                   for q in _bench_questions("ranker_questions.jsonl")}}


def test_bench_question_sets_ask_about_no_paper_the_eval_counts() -> None:
    """The blind questions constants are chosen on (key_facts_questions.jsonl) and the ones
    the ranker variants train on (ranker_questions.jsonl) stay apart from the eval, expected
    or judged relevant papers alike, and from each other: a paper in two of them would let
    tuning see what is reported."""
    eval_papers = {s for item in load_dataset(DEFAULT_DATASET)
                   for s in [*item.expected_sources, *item.also_relevant]}
    named = _named_papers()
    assert len(_bench_questions("ranker_questions.jsonl")) == len(named["ranker"]) == 638
    assert not eval_papers & named["key_facts"].keys()
    assert not eval_papers & named["ranker"].keys()
    assert not named["key_facts"].keys() & named["ranker"].keys()


@skipif_no_shared_data
def test_bench_questions_name_papers_of_the_shared_corpus() -> None:
    """Every paper a bench question names is the record of the 1987–2021 corpus with that
    title, as the corpus reader numbers them (a renumbered reader would silently ask about
    other papers), and the ranker questions' papers are those ``draw_papers`` draws."""
    question_ranker = _bench_module("question_ranker")
    titles = {p.source: " ".join(p.title.split()) for p in read_paths([SHARED_DATA]).papers}
    for papers in _named_papers().values():
        assert {s: " ".join(t.split()) for s, t in papers.items()} == {
            s: titles.get(s) for s in papers}
    drawn = {p.source for p in question_ranker.draw_papers(SHARED_DATA)}
    assert len(drawn) == 640 and _named_papers()["ranker"].keys() <= drawn


def test_model_answers_report_invented_numbers_fallbacks_and_seconds() -> None:
    """A model answer's invented citation numbers, its fallback to the extractive answer and
    its seconds are kept per question, summed over the run and listed one by one."""
    from assistant.evals import EvalItem
    from assistant.evals.report import answer_table
    from assistant.evals.scoring import summarize
    from assistant.types import Answer, Citation

    item = EvalItem(id="q1", question="What is TCCM?", reference_answer="A detector.",
                    expected_sources=["a.txt#1"],
                    key_facts=[], kind="named", split="test")
    cited = Citation(n=1, paper_id="p", title="TCCM", source="a.txt#1", text="TCCM is fast.")
    answer = Answer(question=item.question, answer="TCCM is fast [1].", mode="extractive",
                    citations=[cited], dropped_citations=[4, 9],
                    unchecked="The model's answer could not be checked against the sources "
                              "(it repeats the prompt): the extractive answer is shown instead.")
    row = score_answer(item, answer, 2500.0)
    assert row.dropped_citations == [4, 9] and row.unchecked
    metrics = summarize([row], baselines=False)
    assert metrics["invented_citations"] == 2 and metrics["unchecked_answers"] == 1
    assert metrics["seconds_per_answer"] == 2.5
    table = "\n".join(answer_table([row]))
    assert "| q1 (unchecked: extractive shown) | named | test | 1.000 | 1.000 |" in table
    assert "| 4, 9 |" in table and table.rstrip().endswith("| 2.500 |")
    # the model's checked part shown: an unchecked answer the model wrote
    part = score_answer(item, answer.model_copy(update={"mode": "llm"}), 2500.0)
    assert part.unchecked and not part.fallback
    assert "| q1 (unchecked: its checked part shown) |" in "\n".join(answer_table([part]))
