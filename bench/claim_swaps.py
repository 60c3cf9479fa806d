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

import random
import re
from pathlib import Path

from common import csv_folder_and_count, read_right, save, shared_abstracts

from assistant.corpus import split_sentences

SEED = 59
COMPARISON = re.compile(r"^(?P<a>[A-Z][^,;:()]{2,60}?) outperforms (?P<b>[^,;:()]{3,60}?)"
                        r"(?P<rest>(?: on | in | by | across |\.).*)$")


def comparisons(folder: Path) -> list[tuple[str, re.Match[str]]]:
    """Each abstract's sentences of the form "A outperforms B …", with the abstract."""
    return [(abstract, m) for abstract in shared_abstracts(folder)
            for s in split_sentences(abstract) if (m := COMPARISON.match(s))]


def claims_of(m: re.Match[str]) -> dict[str, tuple[str, bool]]:
    """The sentence, its sides swapped and its passive, each with whether it is supported."""
    a, b, rest = m.group("a"), m.group("b"), m.group("rest").rstrip(".")
    lower_a = a if a[:2].isupper() else a[0].lower() + a[1:]
    upper_b = b[0].upper() + b[1:]
    return {"same": (f"{a} outperforms {b}{rest} [1].", True),
            "swapped": (f"{upper_b} outperforms {lower_a}{rest} [1].", False),
            "passive": (f"{upper_b} is outperformed by {lower_a}{rest} [1].", True)}


def main() -> None:
    folder, n = csv_folder_and_count(120)
    drawn = comparisons(folder)
    random.Random(SEED).shuffle(drawn)
    drawn = drawn[:n]
    right = read_right(((abstract, claims_of(m)) for abstract, m in drawn),
                       ("same", "swapped", "passive"))
    figures = {"sentences": len(drawn), "seed": SEED, "read_right": right}
    print(figures)
    save("claim_swaps", figures)


if __name__ == "__main__":
    main()
