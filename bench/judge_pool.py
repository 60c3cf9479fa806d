"""Pool the papers an eval question could rightly cite, then merge two blind relevance
judgments into ``also_relevant`` (the procedure and its limits in evals/README.md).

Usage:
  python bench/judge_pool.py pool OUT.jsonl [DATA_DIR]   (default .data-distractors)
  python bench/judge_pool.py merge FIRST.jsonl SECOND.jsonl

``pool`` writes one line per (question, candidate): the top 3 (top 10 for `multi`) of ours,
BM25 only and dense only for every answerable question except `named`, the question's own
expected papers left out, shuffled per question so that a judge cannot tell which system
found which; a judge sees the question, title and abstract only, and applies
bench/results/judging/rule.md. ``merge`` reads two judges' verdicts over the same pool
(``{"qid", "paper", "relevant"}`` per line; the committed ones are in
bench/results/judging/), keeps a paper only when both judged it relevant, writes those into
evals/qa.jsonl and the agreement (Cohen's kappa, overall and per question) into
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


def agreement(a: list[bool], b: list[bool]) -> tuple[float, float]:
    """(share of equal verdicts, Cohen's kappa) of two judges over the same pairs."""
    n = len(a)
    agree = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return agree, (agree - chance) / (1 - chance) if chance < 1 else 1.0


def merge(first: Path, second: Path, dataset: Path = DEFAULT_DATASET) -> dict[str, object]:
    """Write into ``dataset`` the papers both judgments call relevant (and drop any earlier
    ones); return the agreement, overall and for each question either judge said yes to."""
    def verdicts(path: Path) -> dict[tuple[str, str], bool]:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {(r["qid"], r["paper"]): bool(r["relevant"]) for r in rows}

    a, b = verdicts(first), verdicts(second)
    if a.keys() != b.keys():
        raise SystemExit("the two judgments cover different (question, paper) pairs")
    keys = list(a)
    agree, kappa = agreement([a[k] for k in keys], [b[k] for k in keys])
    relevant: dict[str, list[str]] = {}
    for qid, paper in keys:
        if a[(qid, paper)] and b[(qid, paper)]:
            relevant.setdefault(qid, []).append(paper)
    said_yes = sorted({qid for qid, paper in keys if a[(qid, paper)] or b[(qid, paper)]})
    out = []
    for line in dataset.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        row.pop("also_relevant", None)
        if relevant.get(row["id"]):
            row["also_relevant"] = sorted(relevant[row["id"]])
        out.append(json.dumps(row, ensure_ascii=False))
    dataset.write_text("".join(line + "\n" for line in out), encoding="utf-8")
    load_dataset(dataset)  # still valid
    by_question: dict[str, dict[str, float]] = {}
    for qid in said_yes:
        pairs = [k for k in keys if k[0] == qid]
        q_agree, q_kappa = agreement([a[k] for k in pairs], [b[k] for k in pairs])
        by_question[qid] = {"pairs": len(pairs), "first": sum(a[k] for k in pairs),
                            "second": sum(b[k] for k in pairs),
                            "both": len(relevant.get(qid, [])),
                            "agreement": round(q_agree, 3), "cohen_kappa": round(q_kappa, 3)}
    return {"pairs": len(keys), "relevant_first": sum(a.values()),
            "relevant_second": sum(b.values()),
            "relevant_both": sum(len(p) for p in relevant.values()),
            "agreement": round(agree, 3), "cohen_kappa": round(kappa, 3),
            "by_question": by_question}


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "pool":
        pool(Path(sys.argv[2]),
             Path(sys.argv[3]) if len(sys.argv) > 3 else PROJECT_ROOT / ".data-distractors")
    elif len(sys.argv) == 4 and sys.argv[1] == "merge":
        figures = merge(Path(sys.argv[2]), Path(sys.argv[3]))
        print(json.dumps(figures, indent=1))
        save("judging", figures)
    else:
        raise SystemExit(__doc__)
