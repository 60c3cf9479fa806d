"""Term lookups among many abstracts: is "Which paper mentions <word>?" answered from the one
paper holding the word, or refused? (issue 36 item 0: a false "no" is the worst answer.)

Words that exactly one abstract uses (``evals.words_one_abstract_uses``) are drawn at random
with a fixed seed, none chosen by hand or tuned on, and each is asked in every phrasing of
``evals.LOOKUP_PHRASINGS``, and bare (the word alone, as typed in a search box: read as a
lookup by ``pipeline.bare_lookup``), through the whole offline pipeline (``Assistant.ask``). With
``--without-holders`` the exact-match rule is switched off (``HybridRetriever.lookup_holders``
returns nothing): the refusal checks decide as they did before it, and each refusal is
counted by the check that made it.

Usage: python bench/rare_lookups.py [DATA_DIR] [N] [--without-holders]
(default .data-distractors, 20 words). Writes bench/results/rare_lookups[-without-holders].json.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

from common import offline_assistant, save

from assistant.evals import LOOKUP_PHRASINGS, words_one_abstract_uses
from assistant.retrieval import HybridRetriever

SEED = 36  # the number; the words are whatever it draws
PHRASINGS = {**LOOKUP_PHRASINGS, "bare": "{word}"}


def main() -> None:
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    without = "--without-holders" in flags
    count = int(args[1]) if len(args) > 1 else 20
    data_dir, app = offline_assistant(Path(args[0]) if args else None)
    papers = app.index.papers()
    once = words_one_abstract_uses(papers.values())
    words = random.Random(SEED).sample(sorted(once), min(count, len(once)))
    rows = []
    switched_off = mock.patch.object(HybridRetriever, "lookup_holders", return_value=[])
    with switched_off if without else nullcontext():
        for word in words:
            for family, phrasing in PHRASINGS.items():
                question = phrasing.format(word=word)
                answer = app.ask(question)
                cited = {c.paper_id for c in answer.citations}
                ids = [s.paper_id for s in answer.sources]
                rows.append({
                    "word": word, "family": family, "question": question,
                    "paper_id": once[word],
                    "rank": ids.index(once[word]) + 1 if once[word] in ids else None,
                    "cited": once[word] in cited,
                    "quotes_the_word": word in answer.answer.lower(),
                    "refusal": answer.refusal.check if answer.refusal else None,
                })
                print(f"{question:60s} rank {rows[-1]['rank']}  refusal {rows[-1]['refusal']}",
                      flush=True)
    per_family = {family: {"asked": sum(r["family"] == family for r in rows),
                           "first": sum(r["family"] == family and r["rank"] == 1 for r in rows),
                           "cited": sum(r["family"] == family and r["cited"] for r in rows)}
                  for family in PHRASINGS}
    save("rare_lookups" + ("-without-holders" if without else ""), {
        "data_dir": str(data_dir), "papers": len(papers), "seed": SEED, "words": words,
        "asked": len(rows), "answered_from_its_paper": sum(r["cited"] for r in rows),
        "its_paper_first": sum(r["rank"] == 1 for r in rows),
        "quotes_the_word": sum(r["quotes_the_word"] for r in rows),
        "refused_by": dict(Counter(r["refusal"] for r in rows if r["refusal"])),
        "per_family": per_family, "rows": rows})


if __name__ == "__main__":
    main()
