"""Calibrate the claim checker's threshold (assistant/claims.py) on hand-written claims.

tests/data/claims.jsonl holds true and false claims about the seed abstracts, split dev/test.
Each claim is checked as a model sentence citing its abstract ("<claim> [1]"). The threshold
is the one with the best F1 of the "unsupported" flag on dev (ties: the lower threshold);
test is scored once with it. Precision and recall are given for both flags.

Usage: python bench/claims_calibration.py [DATA_DIR]   (default: a fresh seed index in a
temporary directory). Writes bench/results/claims.json.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from common import save

import assistant  # noqa: F401
from assistant.claims import MISSING_CAP, THRESHOLD, ClaimChecker
from assistant.corpus import Paper, read_paths
from assistant.settings import PROJECT_ROOT, Settings

CLAIMS = PROJECT_ROOT / "tests" / "data" / "claims.jsonl"


def load_claims(path: Path = CLAIMS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def flag_scores(rows: list[dict[str, Any]], supports: list[float], threshold: float
                ) -> dict[str, float]:
    """Precision and recall of the "unsupported" flag (support below the threshold) and of
    the "supported" one, and F1 of the first."""
    counts: Counter[tuple[bool, bool]] = Counter(
        (r["supported"], s >= threshold) for r, s in zip(rows, supports, strict=True))
    tp_u, fp_u, fn_u = counts[(False, False)], counts[(True, False)], counts[(False, True)]
    tp_s, fp_s, fn_s = counts[(True, True)], counts[(False, True)], counts[(True, False)]

    def ratio(a: int, b: int) -> float:
        return round(a / b, 4) if b else 0.0

    p_u, r_u = ratio(tp_u, tp_u + fp_u), ratio(tp_u, tp_u + fn_u)
    return {"unsupported_precision": p_u, "unsupported_recall": r_u,
            "unsupported_f1": round(2 * p_u * r_u / (p_u + r_u), 4) if p_u + r_u else 0.0,
            "supported_precision": ratio(tp_s, tp_s + fp_s),
            "supported_recall": ratio(tp_s, tp_s + fn_s),
            "accuracy": ratio(tp_u + tp_s, len(rows)), "claims": len(rows)}


def score_claims_alone(checker: ClaimChecker, rows: list[dict[str, Any]], papers: list[Paper]
                       ) -> list[float]:
    """Each claim's support with only its own abstract given (a checker without an index
    then takes idf from that abstract alone)."""
    by_paper: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        by_paper.setdefault(next(p.text for p in papers if row["source_text_contains"] in p.text),
                            []).append(i)
    supports = [0.0] * len(rows)
    for text, idx in by_paper.items():
        claims = checker.check("\n".join(f"{rows[i]['claim']} [1]" for i in idx), {1: text})
        for i, claim in zip(idx, claims, strict=True):
            supports[i] = claim.support
    return supports


def score_claims(checker: ClaimChecker, rows: list[dict[str, Any]], papers: list[Paper]
                 ) -> list[float]:
    """Each claim's support, checked as a model sentence citing its abstract: one answer of
    a line per claim, so that the vectors come in one batch (a claim's score depends only on
    its own sentence and the abstract it cites)."""
    numbers: dict[str, int] = {}
    lines = []
    for row in rows:
        paper = next(p for p in papers if row["source_text_contains"] in p.text)
        n = numbers.setdefault(paper.text, len(numbers) + 1)
        lines.append(f"{row['claim']} [{n}]")
    claims = checker.check("\n".join(lines), {n: text for text, n in numbers.items()})
    assert len(claims) == len(rows), "each claim is one sentence"
    return [c.support for c in claims]


def best_threshold(rows: list[dict[str, Any]], supports: list[float]) -> float:
    """The threshold (above MISSING_CAP, 0.005 steps) with the best "unsupported" F1."""
    grid = [round(MISSING_CAP + 0.005 * i, 3) for i in range(1, int((1 - MISSING_CAP) / 0.005))]
    return max(grid, key=lambda t: (flag_scores(rows, supports, t)["unsupported_f1"], -t))


def main() -> None:
    settings = Settings()
    if len(sys.argv) > 1:
        settings.data.dir = Path(sys.argv[1])
    else:
        settings.data.dir = Path(tempfile.mkdtemp(prefix="claims-calibration-")) / "data"
    from assistant.pipeline import Assistant

    app = Assistant(settings)
    app.ensure_corpus(show_progress=False)
    papers = read_paths([settings.data.seeds]).papers
    checker = ClaimChecker.for_index(app.index)
    rows = load_claims()
    supports = score_claims(checker, rows, papers)
    # Without the index (generate() called with no checker), idf comes from the cited
    # abstract alone: the same threshold, measured on test for the record.
    local = score_claims_alone(ClaimChecker(), rows, papers)
    dev = [i for i, r in enumerate(rows) if r["split"] == "dev"]
    test = [i for i, r in enumerate(rows) if r["split"] == "test"]

    def part(idx: list[int]) -> tuple[list[dict[str, Any]], list[float]]:
        return [rows[i] for i in idx], [supports[i] for i in idx]

    threshold = best_threshold(*part(dev))
    figures: dict[str, Any] = {
        "criterion": "best F1 of the 'unsupported' flag on dev",
        "threshold": threshold, "module_threshold": THRESHOLD,
        "dev": flag_scores(*part(dev), threshold), "test": flag_scores(*part(test), threshold),
        "test_at_module_threshold": flag_scores(*part(test), THRESHOLD),
        "test_local_idf_at_module_threshold": flag_scores(
            [rows[i] for i in test], [local[i] for i in test], THRESHOLD),
        "test_by_kind": {}, "rows": [],
    }
    for kind in sorted({rows[i]["kind"] for i in test}):
        idx = [i for i in test if rows[i]["kind"] == kind]
        flagged = sum(supports[i] < threshold for i in idx)
        figures["test_by_kind"][kind] = {"claims": len(idx), "flagged_unsupported": flagged}
    for row, support in zip(rows, supports, strict=True):
        figures["rows"].append({"split": row["split"], "kind": row["kind"],
                                "supported": row["supported"], "support": support,
                                "claim": row["claim"]})
    print(f"threshold {threshold} (module: {THRESHOLD})")
    for name in ("dev", "test"):
        print(name, figures[name])
    print("test by kind", figures["test_by_kind"])
    print("test, idf from the cited abstract alone:", figures["test_local_idf_at_module_threshold"])
    save("claims", figures)


if __name__ == "__main__":
    main()
