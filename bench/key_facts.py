"""Do the offline answers quote what a question asks for? Blind questions, each with the key
facts a good answer states, answered among the 13.9k at several weights of the abstracts'
opening (background) sentences (``extractive.BACKGROUND_FACTOR``; 1.0 = no discount).

Usage: python bench/key_facts.py [DATA_DIR]   (default .data-distractors)

bench/key_facts_questions.jsonl: 120 questions a helper wrote from papers drawn at random
(seed 20261202) from the 1987–2021 abstracts, none of the eval's papers, without running the
assistant: 60 ask for a detail the abstract states (a data set, a figure, a finding), 60 ask
in their own words how a problem can be solved. Each key fact is in the abstract, and in
neither its title nor the question. This is a tuning set, like the eval's dev split: the
eval's test split is what gets reported. Writes bench/results/key_facts.json: the first
paper's hit rate, and key-fact recall over all questions and over those whose first paper
is the right one, by kind, for each factor.
"""

from __future__ import annotations

import json
from pathlib import Path

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant import extractive
from assistant.evals.scoring import fact_found

QUESTIONS = Path(__file__).with_name("key_facts_questions.jsonl")
FACTORS = (1.0, 0.5, 0.4, 0.3, 0.2, 0.0)


def recall(facts: list[str], text: str) -> float:
    return sum(fact_found(f, text) for f in facts) / len(facts)


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def main() -> None:
    data_dir, app = offline_assistant()
    items = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    shipped = extractive.BACKGROUND_FACTOR
    rows = []
    for item in items:
        row = {"id": item["id"], "kind": item["kind"], "recall": {}}
        for factor in FACTORS:
            extractive.BACKGROUND_FACTOR = factor
            answer = app.ask(item["question"])
            row["first_right"] = bool(answer.sources) and \
                answer.sources[0].source in item["expected_sources"]
            row["recall"][str(factor)] = recall(item["key_facts"], answer.answer)
        extractive.BACKGROUND_FACTOR = shipped
        rows.append(row)
        print(item["id"], "first right" if row["first_right"] else "first wrong",
              row["recall"], flush=True)
    right = [r for r in rows if r["first_right"]]
    by_factor = {}
    for factor in map(str, FACTORS):
        by_factor[factor] = {
            "all": mean([r["recall"][factor] for r in rows]),
            "first_right": mean([r["recall"][factor] for r in right]),
            **{kind: mean([r["recall"][factor] for r in right if r["kind"] == kind])
               for kind in ("detail", "paraphrase")}}
        print(f"factor {factor}: {by_factor[factor]}")
    save("key_facts", {"data_dir": str(data_dir), "questions": len(rows),
                       "first_paper_right": len(right), "shipped_factor": shipped,
                       "key_fact_recall": by_factor, "rows": rows,
                       "note": "key-fact recall of the offline answers; first_right and the "
                               "kinds: over the questions whose first source is the expected "
                               "paper"})


if __name__ == "__main__":
    main()
