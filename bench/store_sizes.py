"""Do the large store's refusals and the unsure mark hold in a conference-size store? The
off-topic check, the joint refusal and its unsure mark were calibrated among the 13,847
papers; NeurIPS 2025 alone is ~5,300 abstracts, ~9,000 chunks. This bench informs
``calibrate_abstention``'s DOUBT_MIN_CHUNKS (chosen by hand from its figures) and reports what
each check would do at smaller sizes.

Usage: python bench/store_sizes.py   (the first run builds two stores beside .data, ~2 min
each; then ~2–3 min a store)

Each store holds the seeds and two whole years of the 1987–2021 corpus, as a researcher loads
conferences (.data-years-2018-2019: 2,474 papers, 3,748 chunks; .data-years-2020-2021: 4,269
papers, 7,075 chunks). Asked of each: the eval's `none` questions and its answerable ones whose
papers the store holds, and the blind questions of bench/key_facts_questions.jsonl and
bench/ranker_questions.jsonl whose paper it holds, as stored and with the paper masked
(``masked_papers.masked``: then no abstract answers). What every refusal reads is recorded
once (``calibrate_abstention.signals``), and the shipped thresholds are replayed four ways:
every size-dependent check off, the unsure mark on (as shipped from DOUBT_MIN_CHUNKS), the
joint refusal on too, and the off-topic check on too: answerable questions wrongly refused
(dev and tuning decide; test, held-out and fresh are reported), masked and `none` questions
refused, and answers marked unsure (of those led by a right paper, the ranker's first; of
those led by a wrong one; of the masked and `none` ones answered). Writes
bench/results/store_sizes.json, with every question's signals.
"""

from __future__ import annotations

from typing import Any

from calibrate_abstention import DOUBT_MIN_CHUNKS, MIN_CHUNKS, Bounds, marked, refused, signals
from common import offline_assistant, read_jsonl, save
from ingest_distractors import DISTRACTORS
from key_facts import QUESTIONS as KEY_FACTS_QUESTIONS
from masked_papers import floor_only, fresh_questions, masked

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.pipeline import Assistant
from assistant.ranking import load_ranker
from assistant.settings import PROJECT_ROOT

YEARS = ((2018, 2019), (2020, 2021))
# which size-dependent checks a replay applies: (the unsure mark, the joint refusal, the
# off-topic check)
VARIANTS = {"none": (False, False, False), "mark": (True, False, False),
            "mark and joint refusal": (True, True, False), "all": (True, True, True)}


def store(years: tuple[int, int]) -> Assistant:
    """The seeds and those years' abstracts, built on first use."""
    data_dir = PROJECT_ROOT / f".data-years-{years[0]}-{years[1]}"
    _, app = offline_assistant(data_dir)
    if app.index.is_empty():
        app.ingest([app.settings.data.seeds,
                    *(DISTRACTORS / f"neurips_abstract_{year}.csv" for year in years)])
    return app


def read(app: Assistant, question: str) -> dict[str, Any]:
    """What every refusal of ``question`` reads, as the calibration reads it."""
    with floor_only(app):
        return signals(app, question)


def asked(app: Assistant) -> dict[str, list[dict[str, Any]]]:
    by_source = {paper.source: pid for pid, paper in app.index.papers().items()}
    bench = [{"id": r["id"], "set": r["set"], "question": r["question"],
              "relevant": r["expected_sources"]}
             for r in read_jsonl(KEY_FACTS_QUESTIONS) + fresh_questions()]
    rows: dict[str, list[dict[str, Any]]] = {"bench": [], "eval": []}
    for item in bench:
        if not all(s in by_source for s in item["relevant"]):
            continue
        row = {**item, "as_stored": read(app, item["question"])}
        with masked(app.index, {by_source[s] for s in item["relevant"]}):
            row["masked"] = read(app, item["question"])
        rows["bench"].append(row)
    for it in load_dataset(DEFAULT_DATASET):
        if not it.answerable or all(s in by_source for s in it.expected_sources):
            rows["eval"].append({"id": it.id, "split": it.split, "answerable": it.answerable,
                                 "relevant": it.relevant, **read(app, it.question)})
    return rows


def replay(rows: dict[str, list[dict[str, Any]]], variant: str, bounds: Bounds,
           doubt_below: float) -> dict[str, Any]:
    mark, joint, near = VARIANTS[variant]
    weight = bounds[3][0] if bounds[3] else 0.0
    if joint and not near:  # the off-topic check's threshold left out
        bounds = (bounds[0], None, bounds[2], bounds[3])

    def as_if(row: dict[str, Any]) -> dict[str, Any]:
        return {**row, "checked": joint, "doubt_checked": mark}

    def is_refused(row: dict[str, Any]) -> bool:
        return refused(as_if(row), *bounds)

    def is_marked(row: dict[str, Any]) -> bool:
        return marked(as_if(row), weight, bounds, doubt_below)

    figures: dict[str, Any] = {}
    for name in ("tuning", "held-out", "fresh"):
        group = [r for r in rows["bench"] if r["set"] == name]
        stored = [r["as_stored"] for r in group]
        right = [r["as_stored"] for r in group if not is_refused(r["as_stored"])
                 and r["as_stored"]["first"] in r["relevant"]]
        wrong = [r["as_stored"] for r in group if not is_refused(r["as_stored"])
                 and r["as_stored"]["first"] not in r["relevant"]]
        answered = [r["masked"] for r in group if not is_refused(r["masked"])]
        figures[name] = {"questions": len(group),
                         "stored_wrongly_refused": sum(map(is_refused, stored)),
                         "masked_refused": len(group) - len(answered),
                         "marked_right_first": [sum(map(is_marked, right)), len(right)],
                         "marked_wrong_first": [sum(map(is_marked, wrong)), len(wrong)],
                         "marked_masked_answered": [sum(map(is_marked, answered)), len(answered)]}
    for split in ("dev", "test"):
        group = [r for r in rows["eval"] if r["split"] == split]
        answerable = [r for r in group if r["answerable"]]
        none = [r for r in group if not r["answerable"]]
        answered = [r for r in answerable if not is_refused(r)]
        figures[f"eval {split}"] = {
            "answerable": len(answerable), "none": len(none),
            "wrongly_refused": [r["id"] for r in answerable if is_refused(r)],
            "none_refused": sum(map(is_refused, none)),
            "marked_right_first": [[r["id"] for r in answered
                                    if r["first"] in r["relevant"] and is_marked(r)],
                                   sum(r["first"] in r["relevant"] for r in answered)],
            "marked_wrong_first": [r["id"] for r in answered
                                   if r["first"] not in r["relevant"] and is_marked(r)],
            "marked_none": [r["id"] for r in none if not is_refused(r) and is_marked(r)]}
    return figures


def main() -> None:
    ranker = load_ranker()
    joint, near = ranker.joint_reading, ranker.neighbourhood
    assert joint is not None and joint.doubt_below is not None and near is not None
    assert ranker.abstain_below is not None
    bounds: Bounds = (ranker.abstain_below, near.below, ranker.cross_encoder_below,
                      (joint.weight, joint.below))
    results = {}
    for years in YEARS:
        app = store(years)
        chunks = app.index.chunk_count()
        rows = asked(app)
        results[f"{years[0]}-{years[1]}"] = {
            "papers": len(app.index.papers()), "chunks": chunks,
            **{variant: replay(rows, variant, bounds, joint.doubt_below) for variant in VARIANTS},
            "rows": rows}
        for variant in VARIANTS:
            figures = results[f"{years[0]}-{years[1]}"][variant]
            print(f"{years} {chunks} chunks, {variant}: "
                  f"dev wrongly refused {figures['eval dev']['wrongly_refused']}, "
                  f"tuning {figures['tuning']['stored_wrongly_refused']}; masked refused "
                  + ", ".join(f"{s} {figures[s]['masked_refused']}/{figures[s]['questions']}"
                              for s in ("tuning", "held-out", "fresh")), flush=True)
    save("store_sizes", {"bounds": bounds, "doubt_below": joint.doubt_below,
                         "min_chunks": MIN_CHUNKS, "doubt_min_chunks": DOUBT_MIN_CHUNKS,
                         "stores": results})


if __name__ == "__main__":
    main()
