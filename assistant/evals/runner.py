"""`assistant eval`: run the dataset on the seeds (and, if asked, among distractors), write
results.json / report.md / metrics.png / scores.png, print a summary and any comparison."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.console import progress_bar
from assistant.errors import BadInputError
from assistant.evals.dataset import DEFAULT_DATASET, EvalItem, load_dataset
from assistant.evals.report import (
    chart,
    compare,
    load_results,
    markdown_report,
    print_comparison,
    print_summary,
    score_plot,
)
from assistant.evals.scoring import EvalRun, evaluate, indexed_items, per_question
from assistant.ranking import load_ranker
from assistant.settings import Settings

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.pipeline import Assistant


def run_cli(settings: Settings, dataset: Path | None, out_dir: Path, compare_to: Path | None,
            distractors: Path | None, baselines: bool, out: Console, err: Console) -> int:
    """Run, write the reports, print a summary; returns the exit code."""
    from assistant.pipeline import Assistant

    dataset = dataset or DEFAULT_DATASET
    items = load_dataset(dataset)
    old = load_results(compare_to) if compare_to else None
    sections: dict[str, EvalRun] = {}
    app = Assistant(settings)
    app.ensure_corpus()
    here = indexed_items(app, items)
    if here or distractors is None:  # else the distractors may hold the papers asked about
        sections[_section_name(app, settings)] = _run(app, items, here, dataset, baselines, err)
    else:
        err.print(f"No question of {dataset} is about a paper in {app.index.where}: scoring "
                  "them among the distractors alone.", markup=False, highlight=False)
    if distractors is not None:
        app_big = _with_distractors(settings, distractors, err)
        sections["with distractors"] = _run(app_big, items, indexed_items(app_big, items),
                                            dataset, baselines, err)
    out_dir.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {
        "mode": app.mode_label, "dataset": str(dataset),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "metrics": next(iter(sections.values())).metrics,
        "sections": {k: v.metrics for k, v in sections.items()},
        "per_question": {k: per_question(v.rows) for k, v in sections.items()},
        "rows": {k: [r.model_dump() for r in v.rows] for k, v in sections.items()},
    }
    (out_dir / "results.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    (out_dir / "report.md").write_text(markdown_report(sections, app.mode_label))
    chart(sections, out_dir / "metrics.png")
    ranker = load_ranker()
    score_plot(sections, ranker.abstain_below,
               ranker.neighbourhood.below if ranker.neighbourhood else None,
               ranker.cross_encoder_below if settings.retrieval.rerank else None,
               out_dir / "scores.png", ranker.joint_reading if settings.retrieval.rerank else None)
    print_summary(sections, out)
    if old is not None and compare_to is not None:
        print_comparison(compare(result, old), compare_to, out)
    written = ", ".join(str(out_dir / n) for n in ("results.json", "report.md", "metrics.png",
                                                   "scores.png"))
    out.print(f"\nWrote {written}")
    return 0


def _with_distractors(settings: Settings, distractors: Path, err: Console) -> Assistant:
    """An assistant over the seeds and ``distractors``, in a data directory (or a server
    collection) of its own, indexing only what is not there yet."""
    from assistant.pipeline import Assistant

    big = settings.model_copy(deep=True)
    big.data.dir = Path(f"{settings.data.dir}-distractors")
    if big.data.chroma_url:  # one server: the distractors get a collection of their own
        big.data.collection = f"{settings.data.collection}-distractors"
    app_big = Assistant(big)
    err.print(f"Indexing the seeds and {distractors} into {app_big.index.where} "
              "(only what is not there yet)…")
    with progress_bar() as progress:
        app_big.ingest([settings.data.seeds, distractors], progress=progress)
    return app_big


def _section_name(app: Assistant, settings: Settings) -> str:
    """"seeds" when the store holds the seed abstracts alone, else "store" (a user's own
    store, whose figures must not be labelled as the seeds')."""
    seed_files = {f.name for f in settings.data.seeds.glob("*")}
    files = {p.source.rsplit("#", 1)[0] for p in app.index.papers().values()}
    return "seeds" if files <= seed_files else "store"


def _run(app: Assistant, items: list[EvalItem], here: list[EvalItem], dataset: Path,
         baselines: bool, err: Console) -> EvalRun:
    """Score ``here``, the questions ``app``'s store can answer, after naming the others;
    none at all is a ``BadInputError`` rather than a report of dashes."""
    known = {p.source for p in app.index.papers().values()}
    missing = [f"{i.id} ({', '.join(s for s in i.expected_sources if s not in known)})"
               for i in items if not set(i.expected_sources) <= known]
    named = "; ".join(missing[:3]) + (f"; {len(missing) - 3} more" if len(missing) > 3 else "")
    if not here:
        raise BadInputError(f"{dataset}: no question can be scored: each names a paper not in "
                            f"{app.index.where}, such as {missing[0]}; give each paper's "
                            "'source' as `assistant ask --json` prints it, or pass --data-dir "
                            "the store that holds them")
    if missing:  # a user's own file: most often a locator mistyped, so name it
        err.print(f"{len(missing)} question{'s' * (len(missing) != 1)} about papers not in "
                  f"{app.index.where} {'is' if len(missing) == 1 else 'are'} left "
                  f"out of this section: {named}", markup=False, highlight=False, soft_wrap=True)
    with progress_bar() as progress:
        run = evaluate(app, here, progress, baselines)
    run.metrics["papers"] = len(app.index.papers())
    run.metrics["left_out"] = len(items) - len(here)
    return run
