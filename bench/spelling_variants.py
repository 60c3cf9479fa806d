"""Does a researcher's spelling of a word find the papers that spell it the other way?

Usage: python bench/spelling_variants.py [DATA_DIR] [N]   (default .data-distractors, 200)

Two kinds of words, each written both ways in the 1987–2021 abstracts: hyphenated and joined
(901 words: "on-line" and "online", "back-propagation" and "backpropagation"), and British
and American ("optimisation" and "optimization", "behaviour" and "behavior"; pairs found by
``american.american`` and kept only when the corpus uses both spellings). For up to N papers
of each kind (seed 0) whose title holds such a word, the paper is asked for by its title with
that word spelled the other way, and by a short question: that word and the title's two
rarest other words. Reports where the paper ranks (hit@1, hit@5, MRR; refused counts as a
miss; hyphenated words also by which way round they were asked) for the code as it is: run
it before and after a tokenizer change. Writes
bench/results/spelling_variants-<data dir>.json.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant.american import american
from assistant.keywords import TOKENIZER_VERSION, keyword_weights

WORD = re.compile(r"\b[A-Za-z]{4,}\b")
TITLE_WORD = re.compile(r"\b[A-Za-z][\w-]*[A-Za-z]\b")
SEED = 0


def main() -> None:
    data_dir, app = offline_assistant()
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    papers = app.index.papers()
    words: Counter[str] = Counter()
    for paper in papers.values():
        words.update(set(re.findall(r"\b[\w-]+\b", f"{paper.title} {paper.text}".lower())))
    # both spellings occur in the corpus: hyphenated ↔ joined, British ↔ American
    joined = {w: w.replace("-", "") for w in words if "-" in w and words[w.replace("-", "")]}
    british = {w: american(w) for w in words
               if "-" not in w and american(w) != w and words[american(w)]}
    other_spelling = {"hyphen": {**joined, **{j: h for h, j in joined.items()}},
                      "british": {**british, **{a: b for b, a in british.items()}}}
    cases: dict[str, list[tuple[str, str, str]]] = {kind: [] for kind in other_spelling}
    for pid, paper in sorted(papers.items()):
        if paper.title_derived:
            continue
        for kind, other_of in other_spelling.items():
            for m in TITLE_WORD.finditer(paper.title):
                other = other_of.get(m.group(0).lower())
                if other:
                    cases[kind].append((pid, m.group(0), other))
                    break
    for kind in cases:
        random.Random(SEED).shuffle(cases[kind])
        cases[kind] = cases[kind][:n]
    stats = app.index.keyword_stats()
    ranks: dict[str, list[int | None]] = {f"{kind} {asked}": [] for kind in cases
                                          for asked in ("title", "short")}
    examples = []
    for kind, found_cases in cases.items():
        for pid, word, other in found_cases:
            title = papers[pid].title
            respelled = title.replace(word, other)
            rest = title.replace(word, " ")
            weights = keyword_weights(rest, stats)
            weight = {w: max((weights.get(t, 0.0) for t in keyword_weights(w, stats)), default=0.0)
                      for w in WORD.findall(rest)}
            rarest = sorted((w for w in weight if weight[w] > 0), key=lambda w: -weight[w])
            short = f"Which papers are about {other} {' '.join(rarest[:2])}?"
            # which way round: the question hyphenates (the paper joins) or the reverse
            way = "asked hyphenated" if "-" in other else "asked joined"
            for asked, question in (("title", respelled), ("short", short)):
                found = [r.paper.paper_id for r in app.retrieve(question)]
                rank = found.index(pid) + 1 if pid in found else None
                ranks[f"{kind} {asked}"].append(rank)
                if kind == "hyphen":
                    ranks.setdefault(f"{kind} {asked}, {way}", []).append(rank)
            if sum(e["kind"] == kind for e in examples) < 10:
                examples.append({"kind": kind, "title": title, "respelled": respelled,
                                 "short": short, "ranks": [ranks[f"{kind} title"][-1],
                                                           ranks[f"{kind} short"][-1]]})

    def figures(found: list[int | None]) -> dict[str, float | int]:
        return {"hit@1": round(sum(r == 1 for r in found) / len(found), 3),
                "hit@5": round(sum(r is not None and r <= 5 for r in found) / len(found), 3),
                "mrr": round(sum(1 / r for r in found if r) / len(found), 3),
                "none_retrieved_or_beyond_top_k": sum(r is None for r in found)}

    result = {"tokenizer": TOKENIZER_VERSION, "data_dir": data_dir.name,
              "papers": {kind: len(found) for kind, found in cases.items()},
              "words_written_both_ways": {"hyphen": len(joined), "british": len(british)},
              **{name: figures(found) for name, found in ranks.items() if found},
              "examples": examples}
    for name in ranks:
        print(name, result.get(name))
    save(f"spelling_variants-{data_dir.name.lstrip('.')}", result)


if __name__ == "__main__":
    main()
