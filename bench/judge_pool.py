"""Pool the papers an eval question could rightly cite among the distractors, then merge
two blind relevance judgments into ``also_relevant`` (the procedure in evals/README.md).

Usage:
  python bench/judge_pool.py pool OUT.jsonl [DATA_DIR]   (default .data-distractors)
  python bench/judge_pool.py merge JUDGED_1.jsonl JUDGED_2.jsonl

``pool`` writes one line per (question, candidate): the top 3 (top 10 for `multi`) of ours,
BM25 only and dense only for every answerable question except `named`, the expected papers
left out, shuffled per question so that a judge cannot tell which system found which; the
judge sees the question, title and abstract only. ``merge`` reads two judges' verdicts over
the same pool (``{"qid", "paper", "relevant"}`` per line), keeps a paper only when both
judged it relevant, writes those into evals/qa.jsonl and the agreement (Cohen's kappa) into
bench/results/judging.json.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from common import save

import assistant  # noqa: F401
from assistant.evals import DEFAULT_DATASET, load_dataset
from assistant.evals.scoring import baseline_rankings
from assistant.settings import PROJECT_ROOT, Settings

TOP = {"multi": 10}  # candidates per system and kind; 3 for the others
DEFAULT_TOP = 3


def pool(out: Path, data_dir: Path) -> None:
    from assistant.pipeline import Assistant

    settings = Settings()
    settings.data.dir = data_dir
    app = Assistant(settings)
    papers = {p.source: p for p in app.index.papers().values()}
    items = [i for i in load_dataset(DEFAULT_DATASET) if i.answerable and i.kind != "named"]
    lines = []
    for item in items:
        k = TOP.get(item.kind, DEFAULT_TOP)
        found = [r.paper.source for r in app.retriever.retrieve(item.question, top_k=k,
                                                                apply_floor=False)]
        found += baseline_rankings(app, item.question, "bm25", k)
        found += baseline_rankings(app, item.question, "dense", k)
        candidates = [s for s in dict.fromkeys(found) if s not in item.expected_sources]
        random.Random(item.id).shuffle(candidates)
        lines += [json.dumps({"qid": item.id, "question": item.question, "paper": source,
                              "title": papers[source].title,
                              "abstract": papers[source].text[:2500]}, ensure_ascii=False)
                  for source in candidates]
    out.write_text("".join(line + "\n" for line in lines))
    print(f"{len(items)} questions, {len(lines)} (question, paper) pairs → {out}")


def merge(first: Path, second: Path) -> None:
    def verdicts(path: Path) -> dict[tuple[str, str], bool]:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {(r["qid"], r["paper"]): bool(r["relevant"]) for r in rows}

    a, b = verdicts(first), verdicts(second)
    if a.keys() != b.keys():
        raise SystemExit("the two judgments cover different (question, paper) pairs")
    n = len(a)
    both = sum(a[k] and b[k] for k in a)
    agree = sum(a[k] == b[k] for k in a) / n
    pa, pb = sum(a.values()) / n, sum(b.values()) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    kappa = (agree - chance) / (1 - chance) if chance < 1 else 1.0
    relevant: dict[str, list[str]] = {}
    for (qid, paper), verdict in a.items():
        if verdict and b[(qid, paper)]:
            relevant.setdefault(qid, []).append(paper)
    out = []
    for line in DEFAULT_DATASET.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        row.pop("also_relevant", None)
        if relevant.get(row["id"]):
            row["also_relevant"] = sorted(relevant[row["id"]])
        out.append(json.dumps(row, ensure_ascii=False))
    DEFAULT_DATASET.write_text("".join(line + "\n" for line in out), encoding="utf-8")
    load_dataset(DEFAULT_DATASET)  # still valid
    figures = {"pairs": n, "relevant_first": sum(a.values()), "relevant_second": sum(b.values()),
               "relevant_both": both, "agreement": round(agree, 3), "cohen_kappa": round(kappa, 3),
               "questions_with_judged_papers": {q: len(p) for q, p in sorted(relevant.items())}}
    print(json.dumps(figures, indent=1))
    save("judging", figures)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "pool":
        pool(Path(sys.argv[2]),
             Path(sys.argv[3]) if len(sys.argv) > 3 else PROJECT_ROOT / ".data-distractors")
    elif len(sys.argv) == 4 and sys.argv[1] == "merge":
        merge(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
