"""How fast one process answers, offline, over a large index.

Usage: python bench/latency.py [DATA_DIR] [--answers OUT.json] [--profile OUT.prof]
(default DATA_DIR: .data-distractors, the seeds among 13,847 NeurIPS papers, opened read-only:
nothing is ingested.)

In one process: the import time, the first answer (cold: papers, BM25 and the embedding model
load on first use), then 20 varied dev questions of evals/qa.jsonl asked once each (warm: the
index is loaded, but these questions and most of their papers are new to the process) and once
more (repeat). For each pass, p50/p95 of the total and of its parts (``Answer.timings_ms``:
retrieval, composing), and the peak RSS. ``--answers`` writes the answer texts, to check that a
speed-up changed no answer; ``--profile`` writes a cProfile of the warm pass.
Writes bench/results/latency.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()

from common import save  # noqa: E402

import assistant  # noqa: E402, F401
from assistant.evals import load_dataset  # noqa: E402
from assistant.settings import PROJECT_ROOT, Settings  # noqa: E402

KINDS = {"paraphrase": 6, "named": 5, "detail": 4, "multi": 2, "none": 3}  # 20 questions
WARM_UP = "Which papers study interpretability of model predictions?"  # not among the 20


def questions() -> list[str]:
    """20 dev questions of every kind, the first ones of each kind in file order."""
    items = [i for i in load_dataset(PROJECT_ROOT / "evals" / "qa.jsonl") if i.split == "dev"]
    chosen: list[str] = []
    for kind, count in KINDS.items():
        chosen += [i.question for i in items if i.kind == kind][:count]
    return chosen


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (p95 of 20 values is the 19th)."""
    ordered = sorted(values)
    return round(ordered[max(0, min(len(ordered) - 1, int(round(q * len(ordered) + 0.5)) - 1))], 1)


def summary(rows: list[dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in ("total", "retrieve", "generate"):
        values = [r[part] for r in rows]
        out[part] = {"p50": round(statistics.median(values), 1), "p95": percentile(values, 0.95),
                     "max": round(max(values), 1)}
    return out


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", nargs="?", default=str(PROJECT_ROOT / ".data-distractors"))
    parser.add_argument("--answers", type=Path, help="write the answer texts here (JSON)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the warm pass here")
    parser.add_argument("--name", default="latency", help="results file name (bench/results/)")
    args = parser.parse_args()
    data_dir = Path(args.data_dir)
    if not (data_dir / "chroma").is_dir():
        sys.exit(f"no index in {data_dir}: build it with bench/ingest_distractors.py")
    from assistant.pipeline import Assistant

    imported = time.perf_counter()
    settings = Settings()
    settings.data.dir = data_dir
    settings.llm.base_url = None
    settings.llm.model = None  # offline answers whatever the environment says
    app = Assistant(settings)
    first = app.ask(WARM_UP)
    cold = time.perf_counter()
    papers = len(app.index.papers())
    chunks = app.index.chunk_count()
    rss_after_first = peak_rss_mb()

    asked = questions()
    passes: dict[str, list[dict[str, float]]] = {}
    texts: dict[str, list[str]] = {}
    for name in ("warm", "repeat"):
        profiler = None
        if name == "warm" and args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        rows, answers = [], []
        for q in asked:
            answer = app.ask(q)
            rows.append(dict(answer.timings_ms))
            answers.append(answer.answer)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(str(args.profile))
        passes[name], texts[name] = rows, answers
    identical_repeat = texts["warm"] == texts["repeat"]
    digest = hashlib.sha256(json.dumps(texts["warm"]).encode()).hexdigest()[:16]
    if args.answers:
        args.answers.write_text(json.dumps(dict(zip(asked, texts["warm"], strict=True)), indent=1,
                                           ensure_ascii=False) + "\n")
    out = {
        "data_dir": str(data_dir),
        "papers": papers,
        "chunks": chunks,
        "questions": len(asked),
        "import_s": round(imported - STARTED, 2),
        "first_answer_s": round(cold - imported, 2),
        "first_answer_timings_ms": first.timings_ms,
        "warm_ms": summary(passes["warm"]),
        "repeat_ms": summary(passes["repeat"]),
        "warm_per_question_ms": [r["total"] for r in passes["warm"]],
        "peak_rss_mb": peak_rss_mb(),
        "rss_after_first_answer_mb": rss_after_first,
        "answers_sha256_16": digest,
        "repeat_answers_identical": identical_repeat,
        "targets": {"warm_p50_ms": 100, "warm_p95_ms": 300, "peak_rss_mb": 1536},
        "cpus": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
    }
    save(args.name, out)
    print(json.dumps({k: out[k] for k in ("import_s", "first_answer_s", "warm_ms", "repeat_ms",
                                          "peak_rss_mb")}, indent=1))


if __name__ == "__main__":
    main()
