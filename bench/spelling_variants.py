"""Does a researcher's spelling of a hyphenated word find the papers that spell it the other way?

Usage: python bench/spelling_variants.py [DATA_DIR] [N]   (default .data-distractors, 200)

901 words of the 1987–2021 abstracts are written both hyphenated and joined ("on-line" and
"online", "back-propagation" and "backpropagation", "pre-trained" and "pretrained"). For up
to N papers (seed 0) whose title holds such a word, the paper is asked for by its title with
that word spelled the other way, and by a short question: that word and the title's two
rarest other words. Reports where the paper ranks (hit@1, hit@5, MRR; refused counts as a
miss) for the code as it is: run it before and after a tokenizer change. Writes
bench/results/spelling_variants-<data dir>.json.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant.keywords import TOKENIZER_VERSION, keyword_weights

COMPOUND = re.compile(r"\b[A-Za-z]{2,}(?:-[A-Za-z]{2,})+\b")
WORD = re.compile(r"\b[A-Za-z]{4,}\b")
SEED = 0


def main() -> None:
    data_dir, app = offline_assistant()
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    papers = app.index.papers()
    words: Counter[str] = Counter()
    for paper in papers.values():
        words.update(set(re.findall(r"\b[\w-]+\b", f"{paper.title} {paper.text}".lower())))
    # both spellings occur in the corpus: hyphenated form → joined form
    both = {w: w.replace("-", "") for w in words if "-" in w and words[w.replace("-", "")]}
    joined = {j: h for h, j in both.items()}
    cases = []
    for pid, paper in sorted(papers.items()):
        if paper.title_derived:
            continue
        for m in re.finditer(r"\b[A-Za-z][\w-]*[A-Za-z]\b", paper.title):
            low = m.group(0).lower()
            other = both.get(low) or joined.get(low)
            if other:
                cases.append((pid, m.group(0), other))
                break
    random.Random(SEED).shuffle(cases)
    cases = cases[:n]
    stats = app.index.keyword_stats()
    ranks: dict[str, list[int | None]] = {"title": [], "short": []}
    examples = []
    for pid, word, other in cases:
        title = papers[pid].title
        respelled = title.replace(word, other)
        weights = keyword_weights(title.replace(word, " "), stats)
        rarest = [w for w in WORD.findall(title.replace(word, " "))
                  if any(t in weights for t in keyword_weights(w, stats))]
        rarest.sort(key=lambda w: -max((weights.get(t, 0.0) for t in keyword_weights(w, stats)),
                                       default=0.0))
        short = f"Which papers are about {other} {' '.join(rarest[:2])}?"
        for kind, question in (("title", respelled), ("short", short)):
            found = [r.paper.paper_id for r in app.retrieve(question)]
            ranks[kind].append(found.index(pid) + 1 if pid in found else None)
        if len(examples) < 10:
            examples.append({"title": title, "respelled": respelled, "short": short,
                             "ranks": [ranks["title"][-1], ranks["short"][-1]]})

    def figures(found: list[int | None]) -> dict[str, float | int]:
        return {"hit@1": round(sum(r == 1 for r in found) / len(found), 3),
                "hit@5": round(sum(r is not None and r <= 5 for r in found) / len(found), 3),
                "mrr": round(sum(1 / r for r in found if r) / len(found), 3),
                "none_retrieved_or_beyond_top_k": sum(r is None for r in found)}

    result = {"tokenizer": TOKENIZER_VERSION, "data_dir": data_dir.name, "papers": len(cases),
              "words_written_both_ways": len(both),
              **{kind: figures(found) for kind, found in ranks.items()}, "examples": examples}
    for kind in ranks:
        print(kind, result[kind])
    save(f"spelling_variants-{data_dir.name.lstrip('.')}", result)


if __name__ == "__main__":
    main()
