"""Figures a model may move: does the claim checker flag a sentence whose numbers were
swapped, or given a number the abstract writes elsewhere, and keep the sentence itself?

Sentences writing two or more different numbers (digits standing alone, not a year, not
inside a name like "CIFAR-10") are drawn from real NeurIPS abstracts (the CSVs of
``../shared/data/neurips-1987-2021``) with a fixed seed and no choice by hand; each gives
three claims citing its abstract, each led by "The authors report that" so that none is a
verbatim quote (a quote is supported without a check):
- ``same``: the sentence (supported);
- ``swapped``: its first two different numbers exchanged (unsupported);
- ``elsewhere``: its first number replaced by one the abstract writes only in another
  sentence (unsupported; only for abstracts that have one).

Usage: python bench/number_swaps.py [CSV_DIR] [N] (default the shared folder, 200
sentences). Writes bench/results/number_swaps.json.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from common import csv_folder_and_count, read_right, save, shared_abstracts

from assistant.corpus import split_sentences

SEED = 61
FIGURE = re.compile(r"(?<![\w.,\-])\d+(?:\.\d+)?(?![\w\-]|[.,]\d)")
LEAD = "The authors report that "


def figures(sentence: str) -> list[re.Match[str]]:
    """The sentence's numbers standing alone, years (1900–2099) aside."""
    return [m for m in FIGURE.finditer(sentence) if not re.fullmatch(r"(19|20)\d\d", m.group())]


def drawn_sentences(folder: Path) -> list[tuple[str, str]]:
    """(abstract, sentence) for every sentence writing two or more different numbers."""
    return [(abstract, sentence) for abstract in shared_abstracts(folder)
            for sentence in split_sentences(abstract)
            if len({m.group() for m in figures(sentence)}) >= 2 and len(sentence) < 400]


def claims_of(abstract: str, sentence: str) -> dict[str, tuple[str, bool]]:
    """The sentence, its numbers swapped and, where the abstract has one, a number from
    another sentence in place of its first."""
    found = figures(sentence)
    first = found[0]
    second = next(m for m in found if m.group() != first.group())

    def led(text: str) -> str:
        return f"{LEAD}{text[0].lower()}{text[1:].rstrip('.')} [1]."
    swapped = (sentence[:first.start()] + second.group() + sentence[first.end():second.start()]
               + first.group() + sentence[second.end():])
    claims = {"same": (led(sentence), True), "swapped": (led(swapped), False)}
    own = {m.group() for m in found}
    others = [m.group() for s in split_sentences(abstract) if s != sentence for m in figures(s)
              if m.group() not in own
              and not re.search(rf"(?<![\d.]){re.escape(m.group())}(?!\d)", sentence)]
    if others:
        claims["elsewhere"] = (led(sentence[:first.start()] + others[0] + sentence[first.end():]), False)
    return claims


def main() -> None:
    folder, n = csv_folder_and_count(200)
    drawn = drawn_sentences(folder)
    random.Random(SEED).shuffle(drawn)
    drawn = drawn[:n]
    right = read_right(((abstract, claims_of(abstract, sentence)) for abstract, sentence in drawn),
                       ("same", "swapped", "elsewhere"))
    figures_read = {"sentences": len(drawn), "seed": SEED, "read_right": right}
    print(figures_read)
    save("number_swaps", figures_read)


if __name__ == "__main__":
    main()
