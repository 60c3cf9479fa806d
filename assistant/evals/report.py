"""Reports of eval runs: Markdown (metrics, then every failing question, errors first), a
bar chart, a console summary, comparisons with an earlier run and the CI thresholds."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.evals.scoring import ANSWER_METRICS, RETRIEVAL_METRICS, SYSTEMS, EvalRun

if TYPE_CHECKING:
    from rich.console import Console

BREAKDOWN = ("hit@1", "hit@5", "mrr", "citation_precision", "citation_recall", "key_fact_recall",
             "refusal_on_none", "wrong_refusal")
SYSTEM_LABELS = {"ours": "hybrid (ours)", "bm25": "BM25 only",
                 "dense": "dense only (LlamaIndex vector retriever)"}


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


def fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def expected_only_line(m: dict[str, Any]) -> str:
    """The figures with only the expected papers counting (judged ones ignored)."""
    strict = m.get("expected_only", {})
    systems = " · ".join(f"{system} hit@1 {fmt(strict[system]['hit@1'])}, hit@5 "
                         f"{fmt(strict[system]['hit@5'])}, MRR {fmt(strict[system]['mrr'])}"
                         for system in SYSTEMS if system in strict)
    return (f"Expected papers only (judged ones not counted): {systems}; citation precision "
            f"{fmt(strict.get('citation_precision'))}.")


def markdown_report(sections: dict[str, EvalRun], mode: str) -> str:
    lines = ["# Eval report", "", f"Answer mode: {mode}.", ""]
    for title, run in sections.items():
        m = run.metrics
        lines += [f"## {title}", "", f"{m['questions']} questions ({m['answerable']} answerable, "
                  f"{m['errors']} errors), {m.get('papers', '?')} papers indexed.", "",
                  "| retrieval (paper level) | " + " | ".join(RETRIEVAL_METRICS) + " |",
                  "| --- |" + " --- |" * len(RETRIEVAL_METRICS)]
        for system in SYSTEMS:
            if system in m:
                cells = " | ".join(fmt(m[system][k]) for k in RETRIEVAL_METRICS)
                lines.append(f"| {SYSTEM_LABELS[system]} | {cells} |")
        lines += ["", expected_only_line(m)]
        lines += ["", "| answers | value |", "| --- | --- |"]
        lines += [f"| {key} | {fmt(m.get(key))} |" for key in ANSWER_METRICS]
        for key, label in (("by_split", "split"), ("by_kind", "kind")):
            if m.get(key):
                lines += ["", f"| {label} | questions | " + " | ".join(BREAKDOWN) + " |",
                          "| --- | --- |" + " --- |" * len(BREAKDOWN)]
                for name, sub in m[key].items():
                    flat = flat_metrics(sub)
                    cells = " | ".join(fmt(flat.get(f"ours.{k}", flat.get(k))) for k in BREAKDOWN)
                    lines.append(f"| {name} | {sub['questions']} | {cells} |")
        failures = sorted((r for r in run.rows if r.failed), key=lambda r: r.error is None)
        lines += ["", f"### Failures ({len(failures)}, errors first)", ""]
        for r in failures:
            lines.append(f"- **{r.id}** ({r.kind}) {r.question}")
            if r.error is not None:
                lines.append(f"  - error: {r.error}")
                continue
            judged = f" (or judged relevant: {r.also_relevant})" if r.also_relevant else ""
            lines.append(f"  - expected {r.expected or 'no sources'}{judged}; retrieved "
                         f"{r.retrieved[:5] or 'nothing'}; cited {r.cited or 'nothing'}")
            if r.missing_facts:
                lines.append(f"  - missing key facts: {r.missing_facts}")
        unsupported = [r for r in run.rows if r.unsupported_claims]
        lines += ["", f"### Unsupported claims ({sum(r.claims for r in run.rows)} sentences "
                  f"checked, supported share {fmt(m.get('supported_claims'))})", ""]
        for r in unsupported:
            lines.append(f"- **{r.id}**: " + " · ".join(r.unsupported_claims))
        warned = [r for r in run.rows if r.unmentioned]
        lines += ["", "### Answers warned that no cited abstract names what the question "
                  f"names ({len(warned)})", ""]
        lines += [f"- **{r.id}** ({r.kind}{', a failure' if r.failed else ''}): "
                  f"{', '.join(r.unmentioned)}" for r in warned]
        lines.append("")
    return "\n".join(lines)


def chart(sections: dict[str, EvalRun], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["hit@1", "hit@5", "mrr", "citation_precision", "citation_recall", "key_fact_recall",
             "refusal_on_none", "wrong_refusal"]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / max(1, len(sections))
    for i, (title, run) in enumerate(sections.items()):
        flat = flat_metrics(run.metrics)
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


def score_plot(sections: dict[str, EvalRun], threshold: float | None,
               nearest_below: float | None, path: Path) -> None:
    """Where answerable and unanswerable questions fall on the two signals refusal rests on
    (the learned ranker's score of the best paper; the mean cosine of the question's nearest
    papers), one panel per section, with both thresholds drawn in (the second applies to
    large stores only: ``ranking.Neighbourhood``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(sections), figsize=(5.2 * len(sections), 4.4), squeeze=False)
    for ax, (title, run) in zip(axes[0], sections.items(), strict=True):
        for answerable, label, marker, colour in ((True, "answerable", "o", "tab:blue"),
                                                  (False, "no abstract answers it", "x", "tab:red")):
            rows = [r for r in run.rows if r.evidence is not None and r.answerable == answerable]
            ax.scatter([r.evidence for r in rows],
                       [float("nan") if r.nearest is None else r.nearest for r in rows], alpha=0.6,
                       s=20, c=colour, marker=marker, label=label)
        if threshold is not None:
            ax.axvline(threshold, color="black", linestyle="--", label=f"score threshold {threshold:g}")
        if nearest_below is not None:
            ax.axhline(nearest_below, color="grey", linestyle=":",
                       label=f"nearest-papers threshold {nearest_below:g} (large stores)")
        ax.set_xlabel("ranker score of the best paper", fontsize=8)
        ax.set_ylabel("mean cosine of the 10 nearest papers", fontsize=8)
        ax.set_title(title, fontsize=9)
    axes[0, 0].legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def print_summary(sections: dict[str, EvalRun], out: Console) -> None:
    from rich.table import Table

    for title, run in sections.items():
        m = run.metrics
        table = Table(title=f"{title}: {m.get('papers', '?')} papers, {m['questions']} questions, "
                      f"{m['errors']} errors")
        table.add_column("retrieval")
        for k in RETRIEVAL_METRICS:
            table.add_column(k, justify="right")
        for system in SYSTEMS:
            if system in m:
                table.add_row(system, *(fmt(m[system][k]) for k in RETRIEVAL_METRICS))
        out.print(table)
        out.print("  ".join(f"{k} {fmt(m.get(k))}" for k in ANSWER_METRICS))
        out.print(expected_only_line(m))
