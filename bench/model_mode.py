"""Model mode measured side by side: the same eval questions answered by the extractive
composer and by each bundled model (bench/model_server.py, a real llama.cpp server on
loopback), with the free-text prompt, with cite-safe answers (``ASSISTANT_LLM_CITE_MODE``,
when this checkout has it) and with the model's relevance check
(``ASSISTANT_LLM_RELEVANCE_CHECK``).

Usage: python bench/model_mode.py [DATA_DIR] [--answerable N] [--none N] [--max-tokens N] [--kind K]
       [--models gemma-270m,smollm2-135m] [--split test]

DATA_DIR: a store holding the seeds (default: a new one in a temporary folder). The
questions are evals/qa.jsonl's answerable on the seeds, of one split (test: the reported
one), the first N answerable and N `none` ones in file order (a model answer takes tens of
seconds on two cores, so the subset is what fits; it is written into the JSON). Every run
is scored by the eval itself (assistant/evals/scoring.py, no model judge) and written to
bench/results/model_mode.json with the command, each model's file and sha256, and the
server's command line.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from common import bench_settings, save
from model_server import MODELS, ModelServer

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, EvalItem, load_dataset
from assistant.evals.scoring import EvalRun, evaluate, indexed_items
from assistant.settings import LLMSettings

# The figures kept per run (the eval's own names), and per question.
FIGURES = ("questions", "answerable", "errors", "citation_precision", "citation_recall",
           "supported_claims", "invented_citations", "unchecked_answers", "key_fact_recall",
           "refusal_on_none", "wrong_refusal", "seconds_per_answer", "latency_ms_p50", "latency_ms_p95")


def cite_modes() -> list[str]:
    """The answer modes to compare: cite-safe answers when this checkout has the setting
    (``ASSISTANT_LLM_CITE_MODE``), first, and the free-text prompt. First, because a process
    remembers the mode an endpoint answered in, and a free-text answer would make ``auto``
    ask that endpoint for free text too."""
    field = LLMSettings.model_fields.get("cite_mode")
    return ["auto", "free"] if field is not None else ["free"]


def subset(split: str, answerable: int, none: int,
           data_dir: Path, kind: str | None = None) -> tuple[list[EvalItem], int]:
    """The questions (of ``kind`` alone when given: "multi", the several-paper ones), and
    how many papers the store holds."""
    from assistant.pipeline import Assistant

    app = Assistant(bench_settings(data_dir))
    app.ensure_corpus()
    items = [i for i in indexed_items(app, load_dataset(DEFAULT_DATASET))
             if i.split == split and (kind is None or i.kind == kind)]
    return ([i for i in items if i.answerable][:answerable]
            + [i for i in items if not i.answerable][:none]), len(app.index.papers())


def measure(data_dir: Path, items: list[EvalItem], llm: dict[str, Any] | None) -> dict[str, Any]:
    """One run of the questions: the eval's figures, overall and per question."""
    from assistant.pipeline import Assistant

    started = time.perf_counter()
    app = Assistant(bench_settings(data_dir, llm))

    def progress(done: int, total: int, _: str) -> None:
        print(f"\r  {done}/{total} ({time.perf_counter() - started:.0f} s)", end="", flush=True)

    run: EvalRun = evaluate(app, items, progress, baselines=False, judged=False)
    print()
    return {"mode": app.mode_label, "llm": {k: v for k, v in (llm or {}).items()
                                             if k not in ("base_url",)},
            "seconds": round(time.perf_counter() - started, 1),
            **{k: run.metrics.get(k) for k in FIGURES},
            "shown": dict(Counter(shown(r) for r in run.rows)),
            "model_written": model_written(run.rows),
            "per_question": [per_question(r) for r in run.rows]}


def model_written(rows: list[Any]) -> dict[str, Any]:
    """The figures over the answers a model wrote and the user saw (whole or its checked
    part): the composer's fallbacks would otherwise lend a model their scores."""
    mine = [r for r in rows if shown(r) in ("model", "checked part") and r.answerable]
    claims = sum(r.claims for r in mine)
    unsupported = sum(len(r.unsupported_claims) for r in mine)
    precision = [r.citation_precision for r in mine if r.citation_precision is not None]
    facts = [r.key_fact_recall for r in mine if r.key_fact_recall is not None]
    return {"answers": len(mine), "claims": claims,
            "supported_claims": round(1 - unsupported / claims, 4) if claims else None,
            "citation_precision": round(sum(precision) / len(precision), 4) if precision else None,
            "key_fact_recall": round(sum(facts) / len(facts), 4) if facts else None,
            "invented_citations": sum(len(r.dropped_citations) for r in mine)}


def per_question(r: Any) -> dict[str, Any]:
    return {"id": r.id, "kind": r.kind, "cited": r.cited, "expected": r.expected,
            "citation_precision": r.citation_precision, "citation_recall": r.citation_recall,
            "supported_share": r.supported_share, "unsupported": r.unsupported_claims,
            "invented": r.dropped_citations, "unchecked": r.unchecked,
            "shown": shown(r), "unchecked_note": r.unchecked_note,
            "missing_facts": r.missing_facts,
            "refused": r.refused, "error": r.error, "seconds": round((r.ms or 0) / 1000, 1),
            "answer": r.answer, "model_reply": r.model_reply}


def shown(r: Any) -> str:
    """Whose answer the user saw: the model's, the checked part of it, the extractive one
    in its place, or none (offline, or refused before any model call)."""
    if r.model_reply is None:
        return "extractive" if r.cited else "refusal"
    if not r.unchecked:
        return "model"
    return "extractive fallback" if r.fallback else "checked part"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", nargs="?", type=Path, default=None)
    parser.add_argument("--answerable", type=int, default=12)
    parser.add_argument("--none", type=int, default=6)
    parser.add_argument("--max-tokens", type=int, default=600)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    parser.add_argument("--kind", default=None, help="only questions of this kind (e.g. multi)")
    parser.add_argument("--out", default="model_mode",
                        help="the results file's name in bench/results (without .json)")
    parser.add_argument("--relevance", choices=("first", "all", "none"), default="first",
                        help="which models also run with the relevance check (first: the "
                        "first of --models)")
    args = parser.parse_args()
    logging.basicConfig(format="%(name)s: %(message)s")  # why an endpoint went to free text
    logging.getLogger("assistant.citesafe").setLevel(logging.INFO)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="model-mode-")) / "data"
    items, papers = subset(args.split, args.answerable, args.none, data_dir, args.kind)
    figures: dict[str, Any] = {
        "command": "python bench/model_mode.py " + " ".join(sys.argv[1:]),
        "subset": {"dataset": "evals/qa.jsonl", "split": args.split, "store": f"{papers} papers",
                   "rule": f"first {args.answerable} answerable and first {args.none} `none` "
                           f"questions{f' of kind {args.kind}' if args.kind else ''} of the split "
                           "in file order, among those answerable on the seeds",
                   "ids": [i.id for i in items]},
        "max_tokens": args.max_tokens, "relevance_check_runs": args.relevance,
        "models": {}, "runs": {}}
    print(f"{len(items)} questions; extractive…")
    figures["runs"]["extractive"] = measure(data_dir, items, None)
    save(args.out, figures)
    for position, name in enumerate(args.models.split(",")):
        with ModelServer(name) as server:
            figures["models"][name] = {
                "file": server.model.file_name, "sha256": server.model.sha256,
                "description": server.model.description,
                "server_command": " ".join(server.command()[1:]).replace(str(server.path),
                                                                         server.model.file_name)}
            llm = {"base_url": server.base_url, "model": server.name,
                   "max_tokens": args.max_tokens, "timeout": 600.0}
            checked = args.relevance == "all" or (args.relevance == "first" and position == 0)
            runs: dict[str, dict[str, Any]] = {}
            for mode in cite_modes():  # each mode's relevance run before the next mode
                runs[f"{name} {mode}"] = {**llm, **({"cite_mode": mode} if len(cite_modes()) > 1
                                                    else {})}
                if checked and mode == cite_modes()[0]:
                    runs[f"{name} {mode} + relevance check"] = {**runs[f"{name} {mode}"],
                                                                "relevance_check": True}
            for label, settings in runs.items():
                print(f"{label}…")
                figures["runs"][label] = measure(data_dir, items, settings)
                save(args.out, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
