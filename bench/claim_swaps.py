"""Comparisons a model may turn around: does the claim checker flag "B outperforms A" where
the abstract writes "A outperforms B", and keep "B is outperformed by A"?

Sentences of the form "A outperforms B …" are drawn from real NeurIPS abstracts (the CSVs of
``../shared/data/neurips-1987-2021``), with a fixed seed and no choice by hand; each gives three
claims citing its abstract: the sentence itself (supported), its sides swapped (unsupported)
and its passive, "B is outperformed by A …" (supported). A model's paraphrase that swapped
the sides kept every word, which similarity alone had passed (claims._swapped).

Usage: python bench/claim_swaps.py [CSV_DIR] [N] (default the shared folder, 120 sentences).
Writes bench/results/claim_swaps.json.
"""

from __future__ import annotations

import csv
import random
import re
import sys
from pathlib import Path

from common import save

from assistant.claims import ClaimChecker
from assistant.corpus import split_sentences
from assistant.settings import PROJECT_ROOT

SEED = 59
SHARED = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021"
COMPARISON = re.compile(r"^(?P<a>[A-Z][^,;:()]{2,60}?) outperforms (?P<b>[^,;:()]{3,60}?)"
                        r"(?P<rest>(?: on | in | by | across |\.).*)$")


def comparisons(folder: Path) -> list[tuple[str, re.Match[str]]]:
    """Each abstract's sentences of the form "A outperforms B …", with the abstract."""
    found = []
    for path in sorted(folder.glob("*.csv")):
        with path.open(newline="", encoding="utf-8", errors="ignore") as f:
            for row in csv.DictReader(f):
                abstract = row.get("abstract") or ""
                found += [(abstract, m) for s in split_sentences(abstract) if (m := COMPARISON.match(s))]
    return found


def claims_of(m: re.Match[str]) -> dict[str, tuple[str, bool]]:
    """The sentence, its sides swapped and its passive, each with whether it is supported."""
    a, b, rest = m.group("a"), m.group("b"), m.group("rest").rstrip(".")
    lower_a = a if a[:2].isupper() else a[0].lower() + a[1:]
    upper_b = b[0].upper() + b[1:]
    return {"same": (f"{a} outperforms {b}{rest} [1].", True),
            "swapped": (f"{upper_b} outperforms {lower_a}{rest} [1].", False),
            "passive": (f"{upper_b} is outperformed by {lower_a}{rest} [1].", True)}


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    if not folder.is_dir():
        sys.exit(f"no CSV folder at {folder}: pass the NeurIPS 1987-2021 CSVs' folder")
    drawn = comparisons(folder)
    random.Random(SEED).shuffle(drawn)
    drawn = drawn[:n]
    checker = ClaimChecker()
    right = {"same": 0, "swapped": 0, "passive": 0}
    for abstract, m in drawn:
        for kind, (claim, supported) in claims_of(m).items():
            [checked] = checker.check(claim, {1: abstract})
            right[kind] += checked.supported is supported
    figures = {"sentences": len(drawn), "seed": SEED,
               "read_right": {kind: f"{count} of {len(drawn)}" for kind, count in right.items()}}
    print(figures)
    save("claim_swaps", figures)


if __name__ == "__main__":
    main()
