"""Evals: score the real pipeline (``Assistant.ask``, as the CLI and UI use it) against the
stored question–answer pairs in ``evals/qa.jsonl`` (schema in evals/README.md).

Retrieval is scored at paper level for ours and for two baselines (BM25 only, and
LlamaIndex's plain vector retriever over the same Chroma store); answers are scored on
citations, key facts and refusals, and with a model endpoint also by an LLM judge.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from assistant.settings import PROJECT_ROOT, Settings

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.answering import Answer
    from assistant.pipeline import Assistant

Kind = Literal["paraphrase", "named", "detail", "multi", "none"]
DEFAULT_DATASET = PROJECT_ROOT / "evals" / "qa.jsonl"
THRESHOLDS = PROJECT_ROOT / "evals" / "thresholds.json"
RETRIEVAL_METRICS = ("hit@1", "hit@3", "hit@5", "mrr", "recall@5")
ANSWER_METRICS = ("citation_precision", "citation_recall", "key_fact_recall", "refusal_on_none",
                  "wrong_refusal", "refusal_accuracy", "correctness_1to5", "faithfulness",
                  "latency_ms_p50", "latency_ms_p95")
ProgressFn = Callable[[int, int, str], None]


class DatasetError(ValueError):
    """A malformed dataset line; the message names the file and line."""


class EvalItem(BaseModel):
    """One stored question (schema in evals/README.md)."""

    id: str = Field(min_length=1)
    question: str = Field(min_length=3)
    reference_answer: str
    expected_sources: list[str]
    key_facts: list[str] = Field(default_factory=list)
    kind: Kind


def load_dataset(path: Path) -> list[EvalItem]:
    if not path.is_file():
        raise DatasetError(f"{path}: no such dataset file")
    items: list[EvalItem] = []
    seen: set[str] = set()
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = EvalItem.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise DatasetError(f"{path}:{line_no}: field '{where}': {first['msg']}") from None
        if item.id in seen:
            raise DatasetError(f"{path}:{line_no}: duplicate id '{item.id}'")
        if (item.kind == "none") != (not item.expected_sources):
            raise DatasetError(f"{path}:{line_no}: kind 'none' goes with empty expected_sources, "
                               "and only it")
        seen.add(item.id)
        items.append(item)
    if not items:
        raise DatasetError(f"{path}: holds no questions")
    return items


# ---------------------------------------------------------------- scoring one question


def fact_found(fact: str, text: str) -> bool:
    """A key fact is present when any of its |-separated alternatives is (case-insensitive)."""
    lowered = text.lower()
    return any(alt.strip().lower() in lowered for alt in fact.split("|") if alt.strip())


def retrieval_scores(ranked: list[str], expected: list[str]) -> dict[str, float]:
    """Paper-level scores for one question from its ranked locators."""
    ranks = [i for i, source in enumerate(ranked, start=1) if source in expected]
    first = ranks[0] if ranks else None
    return {
        "hit@1": float(first == 1),
        "hit@3": float(first is not None and first <= 3),
        "hit@5": float(first is not None and first <= 5),
        "mrr": 1.0 / first if first else 0.0,
        "recall@5": len({s for s in ranked[:5] if s in expected}) / len(expected),
    }


def answer_scores(item: EvalItem, answer: Answer) -> dict[str, float | None]:
    cited = list(dict.fromkeys(c.source for c in answer.citations))
    refused = not cited
    row: dict[str, float | None] = {"refused": float(refused)}
    if item.expected_sources:
        row["citation_precision"] = (
            sum(s in item.expected_sources for s in cited) / len(cited) if cited else None
        )
        row["citation_recall"] = len(set(cited) & set(item.expected_sources)) / len(item.expected_sources)
    if item.key_facts:
        found = sum(fact_found(f, answer.answer) for f in item.key_facts)
        row["key_fact_recall"] = found / len(item.key_facts)
    return row


class Judge:
    """LLM-as-judge scores through the configured endpoint (prompts in prompts/judge_*.md)."""

    def __init__(self, app: Assistant) -> None:
        from assistant.generation import ChatModel

        assert app.chat_model is not None
        self.model: ChatModel = app.chat_model

    def correctness(self, item: EvalItem, answer: Answer) -> float | None:
        from assistant.answering import prompt

        text = prompt("judge_correctness").format(
            question=item.question, reference=item.reference_answer, answer=answer.answer)
        reply = self.model.complete([{"role": "user", "content": text}], max_tokens=120)
        m = re.search(r"Score:\s*([1-5])", reply)
        return float(m.group(1)) if m else None

    def faithfulness(self, answer: Answer) -> float | None:
        from assistant.answering import prompt

        sources = "\n\n".join(f"[{c.n}] {c.title}\n{c.text}" for c in answer.citations) or "(none)"
        text = prompt("judge_faithfulness").format(sources=sources, answer=answer.answer)
        reply = self.model.complete([{"role": "user", "content": text}], max_tokens=120)
        m = re.search(r"Supported:\s*(YES|NO)", reply, re.I)
        return (1.0 if m.group(1).upper() == "YES" else 0.0) if m else None


# ---------------------------------------------------------------- runs


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.fmean(present), 4) if present else None


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 1)


def baseline_rankings(app: Assistant, question: str, method: str, k: int = 5) -> list[str]:
    """Ranked paper locators from a baseline retriever (one entry per paper)."""
    if method == "bm25":  # the plain ranking: no fusion, no floor
        found = app.retriever.retrieve(question, top_k=k, method="bm25", apply_floor=False)
        return [r.paper.source for r in found]
    retriever = app.index.vector_index().as_retriever(similarity_top_k=k * 4)
    ranked: list[str] = []
    for hit in retriever.retrieve(question):
        source = str(hit.node.metadata.get("source"))
        if source not in ranked:
            ranked.append(source)
    return ranked[:k]


def evaluate(app: Assistant, items: list[EvalItem], progress: ProgressFn | None = None,
             baselines: bool = True) -> dict[str, Any]:
    """Run every question through the pipeline; return metrics and per-question rows."""
    judge = Judge(app) if app.chat_model is not None else None
    rows: list[dict[str, Any]] = []
    latencies: list[float] = []
    for done, item in enumerate(items, start=1):
        started = time.perf_counter()
        try:
            answer = app.ask(item.question)
        except Exception as exc:  # an endpoint failure is a failed question, not a crash
            rows.append({"id": item.id, "kind": item.kind, "question": item.question,
                         "error": str(exc), "refused": 1.0})
            continue
        latencies.append((time.perf_counter() - started) * 1000)
        ranked = [s.source for s in answer.sources]
        row: dict[str, Any] = {
            "id": item.id, "kind": item.kind, "question": item.question,
            "expected": item.expected_sources, "retrieved": ranked,
            "cited": [c.source for c in answer.citations], "answer": answer.answer,
            "missing_facts": [f for f in item.key_facts if not fact_found(f, answer.answer)],
            "ms": round(latencies[-1], 1),
        }
        row.update(answer_scores(item, answer))
        if item.expected_sources:
            row["ours"] = retrieval_scores(ranked, item.expected_sources)
            if baselines:
                for method in ("bm25", "dense"):
                    row[method] = retrieval_scores(
                        baseline_rankings(app, item.question, method), item.expected_sources)
        if judge is not None:
            row["correctness"] = judge.correctness(item, answer)
            row["faithfulness"] = judge.faithfulness(answer) if answer.citations else None
        rows.append(row)
        if progress:
            progress(done, len(items), "questions")
    return {"metrics": summarize(rows, latencies, baselines), "rows": rows}


def summarize(rows: list[dict[str, Any]], latencies: list[float], baselines: bool) -> dict[str, Any]:
    answerable = [r for r in rows if r.get("expected")]
    none = [r for r in rows if r["kind"] == "none"]
    metrics: dict[str, Any] = {"questions": len(rows), "answerable": len(answerable),
                               "errors": sum("error" in r for r in rows)}
    for system in ("ours", "bm25", "dense") if baselines else ("ours",):
        metrics[system] = {m: _mean([r[system][m] for r in answerable if system in r])
                           for m in RETRIEVAL_METRICS}
    metrics["citation_precision"] = _mean([r.get("citation_precision") for r in answerable])
    metrics["citation_recall"] = _mean([r.get("citation_recall") for r in answerable])
    metrics["key_fact_recall"] = _mean([r.get("key_fact_recall") for r in rows])
    metrics["refusal_on_none"] = _mean([r["refused"] for r in none])
    metrics["wrong_refusal"] = _mean([r["refused"] for r in answerable])
    metrics["refusal_accuracy"] = _mean([r["refused"] for r in none] + [1 - r["refused"] for r in answerable])
    metrics["correctness_1to5"] = _mean([r.get("correctness") for r in rows])
    metrics["faithfulness"] = _mean([r.get("faithfulness") for r in rows])
    metrics["latency_ms_p50"] = _percentile(latencies, 0.5)
    metrics["latency_ms_p95"] = _percentile(latencies, 0.95)
    return metrics


def flat_metrics(metrics: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """``{"ours.hit@5": 0.97, "citation_precision": 0.9, ...}`` for comparisons."""
    flat: dict[str, float] = {}
    for key, value in metrics.items():
        if isinstance(value, dict):
            flat.update(flat_metrics(value, f"{prefix}{key}."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            flat[f"{prefix}{key}"] = float(value)
    return flat


def compare(new: dict[str, Any], old: dict[str, Any]) -> list[tuple[str, float | None, float, float | None]]:
    """(metric, old, new, delta) for every metric of the new run."""
    before, after = flat_metrics(old), flat_metrics(new)
    return [(k, before.get(k), v, round(v - before[k], 4) if k in before else None)
            for k, v in after.items()]


def check_thresholds(metrics: dict[str, Any], thresholds: dict[str, float]) -> list[str]:
    """The metrics that fell below their committed floor."""
    flat = flat_metrics(metrics)
    return [f"{name} = {flat.get(name)} < {floor}" for name, floor in thresholds.items()
            if flat.get(name) is None or flat[name] < floor]


# ---------------------------------------------------------------- reports


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def markdown_report(sections: dict[str, dict[str, Any]], mode: str) -> str:
    lines = ["# Eval report", "", f"Answer mode: {mode}.", ""]
    for title, run in sections.items():
        m = run["metrics"]
        lines += [f"## {title}", "", f"{m['questions']} questions ({m['answerable']} answerable), "
                  f"{m.get('papers', '?')} papers indexed.", "",
                  "| retrieval (paper level) | " + " | ".join(RETRIEVAL_METRICS) + " |",
                  "| --- |" + " --- |" * len(RETRIEVAL_METRICS)]
        for system, label in (("ours", "hybrid (ours)"), ("bm25", "BM25 only"),
                              ("dense", "dense only (LlamaIndex vector retriever)")):
            if system in m:
                cells = " | ".join(_fmt(m[system][k]) for k in RETRIEVAL_METRICS)
                lines.append(f"| {label} | {cells} |")
        lines += ["", "| answers | value |", "| --- | --- |"]
        lines += [f"| {key} | {_fmt(m.get(key))} |" for key in ANSWER_METRICS]
        failures = [r for r in run["rows"] if _failed(r)]
        lines += ["", f"### Failures ({len(failures)})", ""]
        for r in failures:
            lines.append(f"- **{r['id']}** ({r['kind']}) {r['question']}")
            if "error" in r:
                lines.append(f"  - error: {r['error']}")
                continue
            lines.append(f"  - expected {r['expected'] or 'no sources'}; retrieved "
                         f"{r['retrieved'][:5] or 'nothing'}; cited {r['cited'] or 'nothing'}")
            if r["missing_facts"]:
                lines.append(f"  - missing key facts: {r['missing_facts']}")
        lines.append("")
    return "\n".join(lines)


def _failed(row: dict[str, Any]) -> bool:
    if "error" in row:
        return True
    if row["kind"] == "none":
        return not row["refused"]
    return (row["ours"]["hit@5"] == 0 or row["refused"] == 1.0 or bool(row["missing_facts"])
            or (row.get("citation_precision") or 0) < 1.0)


def chart(sections: dict[str, dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["hit@1", "hit@5", "mrr", "citation_precision", "citation_recall", "key_fact_recall",
             "refusal_on_none", "wrong_refusal"]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / max(1, len(sections))
    for i, (title, run) in enumerate(sections.items()):
        flat = flat_metrics(run["metrics"])
        values = [flat.get(f"ours.{n}", flat.get(n, 0.0)) for n in names]
        bars = ax.bar([x + i * width for x in range(len(names))], values, width, label=title)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks([x + width * (len(sections) - 1) / 2 for x in range(len(names))], names,
                  rotation=20)
    ax.set_ylim(0, 1.1)
    ax.set_title("Abstracts assistant: eval metrics")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------- the command


def run_cli(settings: Settings, dataset: Path | None, out_dir: Path, compare_to: Path | None,
            distractors: Path | None, baselines: bool, out: Console, err: Console) -> int:
    """`assistant eval`: run, write results.json / report.md / metrics.png, print a summary."""
    from assistant.console import progress_bar
    from assistant.pipeline import Assistant

    items = load_dataset(dataset or DEFAULT_DATASET)
    old = json.loads(compare_to.read_text()) if compare_to else None
    sections: dict[str, dict[str, Any]] = {}
    app = Assistant(settings)
    app.ensure_corpus()
    with progress_bar() as progress:
        sections["seeds"] = evaluate(app, items, progress, baselines)
    sections["seeds"]["metrics"]["papers"] = len(app.index.papers())
    if distractors is not None:
        big = settings.model_copy(deep=True)
        big.data.dir = Path(f"{settings.data.dir}-distractors")
        app_big = Assistant(big)
        err.print(f"Indexing the seeds and {distractors} into {big.data.dir} "
                  "(only what is not there yet)…")
        with progress_bar() as progress:
            app_big.ingest([settings.data.seeds, distractors], progress=progress)
        with progress_bar() as progress:
            sections["with distractors"] = evaluate(app_big, items, progress, baselines)
        sections["with distractors"]["metrics"]["papers"] = len(app_big.index.papers())
    out_dir.mkdir(parents=True, exist_ok=True)
    result = {"mode": app.mode_label, "dataset": str(dataset or DEFAULT_DATASET),
              "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "metrics": sections["seeds"]["metrics"],
              "sections": {k: v["metrics"] for k, v in sections.items()},
              "rows": {k: v["rows"] for k, v in sections.items()}}
    (out_dir / "results.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    (out_dir / "report.md").write_text(markdown_report(sections, app.mode_label))
    chart(sections, out_dir / "metrics.png")
    _print_summary(sections, out)
    if old is not None:
        out.print(f"\n[bold]Compared with {compare_to}[/]")
        for name, before, after, delta in compare(result["metrics"], old.get("metrics", old)):
            sign = "" if delta is None else f"{delta:+.3f}"
            out.print(f"  {name:28s} {_fmt(before):>8s} → {_fmt(after):>8s}  {sign}")
    out.print(f"\nWrote {out_dir / 'results.json'}, {out_dir / 'report.md'}, {out_dir / 'metrics.png'}")
    return 0


def _print_summary(sections: dict[str, dict[str, Any]], out: Console) -> None:
    from rich.table import Table

    for title, run in sections.items():
        m = run["metrics"]
        table = Table(title=f"{title}: {m['papers']} papers, {m['questions']} questions")
        table.add_column("retrieval")
        for k in RETRIEVAL_METRICS:
            table.add_column(k, justify="right")
        for system in ("ours", "bm25", "dense"):
            if system in m:
                table.add_row(system, *(_fmt(m[system][k]) for k in RETRIEVAL_METRICS))
        out.print(table)
        out.print("  ".join(f"{k} {_fmt(m.get(k))}" for k in ANSWER_METRICS))
