"""Reports of eval runs: Markdown (metrics, then every failing question, errors first), a
bar chart, a console summary, comparisons with an earlier run and the CI thresholds."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import BadInputError
from assistant.evals.scoring import (
    ANSWER_METRICS,
    HEADLINE,
    RETRIEVAL_METRICS,
    SYSTEMS,
    EvalRun,
    QuestionResult,
)
from assistant.refusals import REFUSAL_TOP

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.ranking import JointReading

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


LOWER_IS_BETTER = {"wrong_refusal", "latency_ms_p50", "latency_ms_p95", "invented_citations",
                   "seconds_per_answer"}


@dataclass
class Change:
    """One figure of one section, before and after; for a HEADLINE figure also its change on
    each split and the questions whose own value rose or fell (``better``, ``worse``)."""

    metric: str
    before: float | None
    after: float | None
    by_split: dict[str, float | None] = field(default_factory=dict)
    better: list[str] = field(default_factory=list)
    worse: list[str] = field(default_factory=list)

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return round(self.after - self.before, 4)


def load_results(path: Path) -> dict[str, Any]:
    """An earlier results.json for ``--compare``, read before the run so that a wrong file
    stops it at once with one line naming the file and the problem (``BadInputError``)."""
    fix = "give a results.json that assistant eval wrote"
    try:
        old = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BadInputError(f"{path}: not an eval results file (not UTF-8 text); {fix}") from None
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{path}: not an eval results file (not valid JSON: {exc.msg}, "
                            f"line {exc.lineno}); {fix}") from None
    if not _comparable(old):
        raise BadInputError(f"{path}: not an eval results file (no metrics of a run); {fix}")
    return old


def _comparable(old: object) -> bool:
    """Whether ``compare`` can read ``old``: objects where it looks one up, and at least one
    of the figures it compares."""
    def is_map(value: object, depth: int = 1) -> bool:
        return isinstance(value, dict) and (depth == 1 or all(is_map(v, depth - 1)
                                                              for v in value.values()))

    if not isinstance(old, dict):
        return False
    sections = old.get("sections") or {"seeds": old.get("metrics", old)}
    if not is_map(sections, 2) or not is_map(old.get("per_question", {}), 3):
        return False
    for metrics in sections.values():
        if not is_map(metrics.get("by_split", {}), 2):
            return False
        for scope in (metrics, *metrics.get("by_split", {}).values()):
            if not all(is_map(scope.get(s, {})) for s in SYSTEMS):
                return False
    return any(set(flat_metrics(m)) & set(_compared_names()) for m in sections.values())


def _compared_names() -> list[str]:
    """The figures ``compare`` sets side by side: each system's hits and MRR, then the
    answers'."""
    return [f"{s}.{k}" for s in SYSTEMS for k in ("hit@1", "hit@5", "mrr")] + list(ANSWER_METRICS)


def compare(new: dict[str, Any], old: dict[str, Any]) -> dict[str, list[Change]]:
    """Each section both results.json hold (an old file of metrics alone counts as the seeds
    section): every system's hit@1/hit@5/MRR and the answer figures, before and after; for the
    HEADLINE ones the change on each split and the questions that moved, so that a lever's
    gain can be read as "two questions better, one worse" rather than a bare average."""
    old_sections = old.get("sections") or {"seeds": old.get("metrics", old)}
    new_sections = new.get("sections", {"seeds": new.get("metrics", {})})
    old_rows = old.get("per_question", {})
    if len(old_sections) == len(new_sections) == 1 and not set(old_sections) & set(new_sections):
        # one section each under another label ("seeds" before a user's store was
        # labelled "store"): the same run's section, compared rather than skipped
        (label, before), = old_sections.items()
        old_sections = {next(iter(new_sections)): before}
        old_rows = {next(iter(new_sections)): old_rows.get(label)} if old_rows.get(label) else {}
    found: dict[str, list[Change]] = {}
    for section, after in new_sections.items():
        before = old_sections.get(section)
        if before is None:
            continue
        flat_before, flat_after = flat_metrics(before), flat_metrics(after)
        names = _compared_names()
        rows_before = old_rows.get(section)
        rows_after = new.get("per_question", {}).get(section)
        changes = []
        for name in names:
            if name not in flat_after and name not in flat_before:
                continue
            change = Change(name, flat_before.get(name), flat_after.get(name))
            metric = name.removeprefix("ours.")
            if metric in HEADLINE:
                for split in after.get("by_split", {}):
                    b = headline_value(before.get("by_split", {}).get(split, {}), metric)
                    a = headline_value(after["by_split"][split], metric)
                    change.by_split[split] = None if a is None or b is None else round(a - b, 4)
                if rows_before and rows_after:
                    _moved(change, metric, rows_before, rows_after)
            changes.append(change)
        found[section] = changes
    return found


def _moved(change: Change, metric: str, before: dict[str, dict[str, float | None]],
           after: dict[str, dict[str, float | None]]) -> None:
    """Fill ``change.better`` and ``.worse`` with the questions (in both runs' ``per_question``)
    whose own value of ``metric`` moved."""
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    for qid, values in after.items():
        a, b = values.get(metric), before.get(qid, {}).get(metric)
        if a is None or b is None or a == b:
            continue
        (change.better if sign * (a - b) > 0 else change.worse).append(qid)


def print_comparison(changes: dict[str, list[Change]], source: Path, out: Console) -> None:
    """A table of each section's figures before and after, then the questions that moved."""
    from rich.table import Table

    for section, rows in changes.items():
        splits = list(dict.fromkeys(s for c in rows for s in c.by_split))
        table = Table(title=f"{section}: compared with {source}")
        table.add_column("metric", no_wrap=True)
        for column in ("before", "after", "Δ", *(f"{s} Δ" for s in splits)):
            table.add_column(column, justify="right", no_wrap=True)
        for c in rows:
            table.add_row(c.metric, fmt(c.before), fmt(c.after), _signed(c.delta),
                          *(_signed(c.by_split.get(s)) for s in splits))
        out.print(table)
        for c in rows:
            if c.better or c.worse:
                out.print(f"  {c.metric}: better {', '.join(c.better) or '–'}; "
                          f"worse {', '.join(c.worse) or '–'}", highlight=False)


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.3f}"


def check_thresholds(metrics: dict[str, Any], thresholds: dict[str, float]) -> list[str]:
    """The metrics that fell below their committed floor."""
    flat = flat_metrics(metrics)
    return [f"{name} = {flat.get(name)} < {floor}" for name, floor in thresholds.items()
            if flat.get(name) is None or flat[name] < floor]


def fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


INTERVAL_NOTE = "bootstrap over the questions, 2.5th to 97.5th percentile"


def headline_value(metrics: dict[str, Any], name: str) -> float | None:
    """A HEADLINE figure of a run's (or a split's) metrics: retrieval ones are ours."""
    value = metrics.get("ours", {}).get(name) if name in RETRIEVAL_METRICS else metrics.get(name)
    return value if isinstance(value, int | float) else None


def with_interval(metrics: dict[str, Any], name: str) -> str:
    """``0.912 [0.861, 0.955]``: the figure and its 95% interval, when the run has one."""
    low_high = metrics.get("intervals", {}).get(name)
    value = fmt(headline_value(metrics, name))
    return f"{value} [{low_high[0]:.3f}, {low_high[1]:.3f}]" if low_high else value


def expected_only_line(m: dict[str, Any]) -> str:
    """The figures with only the expected papers counting (judged ones ignored)."""
    strict = m.get("expected_only", {})
    systems = " · ".join(f"{system} hit@1 {fmt(strict[system]['hit@1'])}, hit@5 "
                         f"{fmt(strict[system]['hit@5'])}, MRR {fmt(strict[system]['mrr'])}"
                         for system in SYSTEMS if system in strict)
    return (f"Expected papers only (judged ones not counted): {systems}; citation precision "
            f"{fmt(strict.get('citation_precision'))}.")


def left_out_note(m: dict[str, Any]) -> str:
    """", 1 more left out (papers not in the store)": the questions of the dataset that a
    section did not score, said beside its count; a run had read 1.000 on every metric over
    the one question left of two, the other named only in a line above the report."""
    n = m.get("left_out") or 0
    return f", {n:,} more left out (papers not in the store)" if n else ""


def markdown_report(sections: dict[str, EvalRun], mode: str) -> str:
    lines = ["# Eval report", "", f"Answer mode: {mode}.", ""]
    for title, run in sections.items():
        m = run.metrics
        lines += [f"## {title}", "", f"{m['questions']} questions ({m['answerable']} answerable, "
                  f"{m['errors']} errors){left_out_note(m)}, {m.get('papers', '?')} papers "
                  "indexed.", "",
                  "| retrieval (paper level) | " + " | ".join(RETRIEVAL_METRICS) + " |",
                  "| --- |" + " --- |" * len(RETRIEVAL_METRICS)]
        for system in SYSTEMS:
            if system in m:
                cells = " | ".join(fmt(m[system][k]) for k in RETRIEVAL_METRICS)
                lines.append(f"| {SYSTEM_LABELS[system]} | {cells} |")
        lines += ["", expected_only_line(m)]
        lines += ["", f"Ours, with 95% intervals ({INTERVAL_NOTE}): "
                  + ", ".join(f"{k} {with_interval(m, k)}" for k in RETRIEVAL_METRICS
                              if k in HEADLINE) + "."]
        lines += ["", "| answers | value |", "| --- | --- |"]
        lines += [f"| {key} | {with_interval(m, key)} |" for key in ANSWER_METRICS]
        for key, label in (("by_split", "split"), ("by_kind", "kind")):
            if m.get(key):
                lines += ["", f"| {label} | questions | " + " | ".join(HEADLINE) + " |",
                          "| --- | --- |" + " --- |" * len(HEADLINE)]
                for name, sub in m[key].items():
                    cells = " | ".join(with_interval(sub, k) for k in HEADLINE)
                    lines.append(f"| {name} | {sub['questions']} | {cells} |")
        lines += failure_lines(run.rows)
        if mode.startswith("model "):  # Assistant.mode_label: a model wrote the answers
            lines += ["", *answer_table(run.rows)]
        lines += notice_lines(run.rows, m)
        lines.append("")
    return "\n".join(lines)


def failure_lines(rows: list[QuestionResult]) -> list[str]:
    """The report's failures, errors first: what each expected, retrieved and cited."""
    failures = sorted((r for r in rows if r.failed), key=lambda r: r.error is None)
    lines = ["", f"### Failures ({len(failures)}, errors first)", ""]
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
    return lines


def notice_lines(rows: list[QuestionResult], m: dict[str, Any]) -> list[str]:
    """The report's answers that carry a reader's notice: unsupported claims, the unsure
    mark, the warning that no cited abstract names what the question names."""
    lines = ["", f"### Unsupported claims ({sum(r.claims for r in rows)} sentences "
             f"checked, supported share {fmt(m.get('supported_claims'))})", ""]
    lines += [f"- **{r.id}**: " + " · ".join(r.unsupported_claims)
              for r in rows if r.unsupported_claims]
    marked = [r for r in rows if r.unsure]
    lines += ["", f"### Answers marked unsure ({len(marked)}): their sources may not say "
              "what was asked", ""]
    for name, sub in [("all", m), *m.get("by_split", {}).items()]:
        if sub.get("unsure"):
            lines.append(f"- marked, {name}: {unsure_line(sub['unsure'])}")
    for name, sub in [("all", m), *m.get("by_split", {}).items()]:
        if sub.get("any_notice"):  # the name warning below, or this notice
            lines.append(f"- either notice, {name}: {unsure_line(sub['any_notice'])}")
    lines += [f"- **{r.id}** ({r.kind}{', a failure' if r.failed else ''})" for r in marked]
    warned = [r for r in rows if r.unmentioned]
    lines += ["", "### Answers warned that no cited abstract names what the question "
              f"names ({len(warned)})", ""]
    lines += [f"- **{r.id}** ({r.kind}{', a failure' if r.failed else ''}): "
              f"{', '.join(r.unmentioned)}" for r in warned]
    return lines


def answer_table(rows: list[QuestionResult]) -> list[str]:
    """Each answer's own figures (model mode): citation precision and recall, the share of
    its sentences that the abstracts it cites support, invented citation numbers, key facts,
    whether it refused, and its seconds; an answer that failed the checks is marked."""
    lines = ["### Answers, one by one", "",
             "| question | kind | split | precision | recall | supported | invented | key facts "
             "| refused | s |", "| --- |" + " --- |" * 9]
    for r in rows:
        marked = "" if not r.unchecked else (
            " (unchecked: extractive shown)" if r.fallback else " (unchecked: its checked part shown)")
        lines.append(f"| {r.id}{marked} | {r.kind} | {r.split} | {fmt(r.citation_precision)} | "
                     f"{fmt(r.citation_recall)} | {fmt(r.supported_share)} | "
                     f"{', '.join(map(str, r.dropped_citations)) or '–'} | "
                     f"{fmt(r.key_fact_recall)} | {'yes' if r.refused else 'no'}"
                     f"{' (wrong)' if r.refused and r.answerable else ''} | "
                     f"{fmt(None if r.ms is None else r.ms / 1000)} |")
    return lines


def unsure_line(counts: dict[str, list[int]]) -> str:
    """``scoring.unsure_counts`` in words."""
    return ", ".join(f"{counts[name][0]} of {counts[name][1]} {label}"
                     for name, label in (("none_answered", "`none` questions answered"),
                                         ("wrong_first", "answers led by a wrong paper"),
                                         ("right_first", "answers led by a right paper"))
                     if name in counts)


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
               nearest_below: float | None, reading_below: float | None, path: Path,
               joint: JointReading | None = None) -> None:
    """Where answerable and unanswerable questions fall on the signals refusal rests on, one
    column per section: above, the learned ranker's score of the best paper against the mean
    cosine of the question's nearest papers, with both thresholds drawn in (the second
    applies to large stores only: ``ranking.Neighbourhood``); below, for those the checks
    above let through, the cross-encoder's best logit of the first papers against that
    score, with the cross-encoder's threshold and the joint refusal's bound
    (``ranking.JointReading``, large stores only) drawn in (the questions it does not read,
    refused before or exempt, are counted in the title)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = ((True, "answerable", "o", "tab:blue"), (False, "no abstract answers it", "x", "tab:red"))
    fig, axes = plt.subplots(2, len(sections), figsize=(5.2 * len(sections), 7.4), squeeze=False,
                             gridspec_kw={"height_ratios": [3, 1.4]})
    for column, (title, run) in enumerate(sections.items()):
        ax, below = axes[0, column], axes[1, column]
        for answerable, label, marker, colour in kinds:
            rows = [r for r in run.rows if r.evidence is not None and r.answerable == answerable]
            ax.scatter([r.evidence for r in rows],
                       [float("nan") if r.nearest is None else r.nearest for r in rows], alpha=0.6,
                       s=20, c=colour, marker=marker, label=label)
            read = [r for r in run.rows if r.reading is not None and r.evidence is not None
                    and r.answerable == answerable]
            below.scatter([r.reading for r in read], [r.evidence for r in read], alpha=0.6, s=20,
                          c=colour, marker=marker)
        if threshold is not None:
            ax.axvline(threshold, color="black", linestyle="--", label=f"score threshold {threshold:g}")
        if nearest_below is not None:
            ax.axhline(nearest_below, color="grey", linestyle=":",
                       label=f"nearest-papers threshold {nearest_below:g} (large stores)")
        ax.set_xlabel("ranker score of the best paper", fontsize=8)
        ax.set_ylabel("mean cosine of the 10 nearest papers", fontsize=8)
        ax.set_title(title, fontsize=9)
        if reading_below is not None:
            below.axvline(reading_below, color="black", linestyle="--",
                          label=f"cross-encoder threshold {reading_below:g}")
            if joint is not None:  # refused under the line: score + weight × logit < bound
                below.axline((0.0, joint.below), slope=-joint.weight, color="grey",
                             linestyle=":", label=f"joint bound {joint.below:g} (large stores)")
            below.legend(loc="upper left", fontsize=7)
        unread = sum(r.reading is None for r in run.rows)
        below.set_ylabel("ranker score", fontsize=8)
        below.set_xlabel(f"cross-encoder's best logit of the first {REFUSAL_TOP} papers", fontsize=8)
        below.set_title(f"{len(run.rows) - unread} of {len(run.rows)} questions read (the others "
                        "refused before, exempt, or the cross-encoder off)", fontsize=8)
    axes[0, 0].legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def print_summary(sections: dict[str, EvalRun], out: Console) -> None:
    from rich.table import Table

    for title, run in sections.items():
        m = run.metrics
        table = Table(title=f"{title}: {m.get('papers', '?')} papers, {m['questions']} questions, "
                      f"{m['errors']} errors{left_out_note(m)}")
        table.add_column("retrieval")
        for k in RETRIEVAL_METRICS:
            table.add_column(k, justify="right")
        for system in SYSTEMS:
            if system in m:
                table.add_row(system, *(fmt(m[system][k]) for k in RETRIEVAL_METRICS))
        out.print(table)
        out.print("  ".join(f"{k} {fmt(m.get(k))}" for k in ANSWER_METRICS))
        out.print(expected_only_line(m))
