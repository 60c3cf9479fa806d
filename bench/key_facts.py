"""Do the offline answers find the paper, and quote what a question asks for? Blind
questions, each with the key facts a good answer states, answered among the 13.9k.

Usage: python bench/key_facts.py [DATA_DIR]   (default .data-distractors; ~2 min)

bench/key_facts_questions.jsonl: 330 questions that helpers wrote from papers drawn at random
(fixed seeds) from the 1987–2021 abstracts, none of the eval's, without running the
assistant; each key fact is in the abstract and in neither its title nor the question.
- ``tuning`` (240, the constants were chosen on these and the eval's dev split): 60 ask for
  a detail the abstract states, 60 ask in their own words how a problem can be solved, 60
  ask about the problem itself (what earlier methods lack, why it is hard: the answer is in
  the abstract's opening, before the authors' "we"), and 60 added later (fd-…, a fresh
  draw) ask what a paper found, showed or achieved.
- ``held-out`` (90, written after the choices and only reported): 30 problem, 30 method and
  30 finding questions.

Two levers are measured:
- the discount of an abstract's opening sentences (``extractive.BACKGROUND_FACTOR``, applied
  when ``Intent.contribution``): none, as shipped, other factors, and for every question;
- the named-paper boost's common names (``retrieval.COMMON_NAME_PAPERS``): the first paper
  as shipped against the boost on every name the question writes (as before).
Writes bench/results/key_facts.json: per set and kind, the share of questions whose first
source is the expected paper, and key-fact recall over those.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from unittest import mock

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant import extractive, retrieval
from assistant.evals.scoring import fact_found
from assistant.intent import Intent, read_intent

QUESTIONS = Path(__file__).with_name("key_facts_questions.jsonl")
# name → (BACKGROUND_FACTOR, discount every question?)
OPENINGS: dict[str, tuple[float, bool]] = {
    "shipped": (extractive.BACKGROUND_FACTOR, False), "no discount": (1.0, False),
    "factor 0.5": (0.5, False), "factor 0.2": (0.2, False),
    "every question": (extractive.BACKGROUND_FACTOR, True)}


def recall(facts: list[str], text: str) -> float:
    return sum(fact_found(f, text) for f in facts) / len(facts)


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def summary(rows: list[dict], value: Callable[[dict], float]) -> dict[str, float | None]:
    """``value`` averaged per set and kind (and per set), over ``rows``."""
    groups: dict[str, list[float]] = {}
    for row in rows:
        for key in (row["set"], f"{row['set']} {row['kind']}"):
            groups.setdefault(key, []).append(value(row))
    return {key: mean(values) for key, values in sorted(groups.items())}


def main() -> None:
    data_dir, app = offline_assistant()
    items = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    always: Callable[[str], Intent] = lambda question: dataclasses.replace(  # noqa: E731
        read_intent(question), contribution=True)
    rows = []
    for item in items:
        row = {"id": item["id"], "set": item["set"], "kind": item["kind"], "recall": {}}
        for name, (factor, every) in OPENINGS.items():
            gate = always if every else read_intent
            with mock.patch.multiple(extractive, BACKGROUND_FACTOR=factor, read_intent=gate):
                answer = app.ask(item["question"])
            if name == "shipped":
                row["first_right"] = bool(answer.sources) and \
                    answer.sources[0].source in item["expected_sources"]
            row["recall"][name] = recall(item["key_facts"], answer.answer)
        with mock.patch.object(retrieval, "COMMON_NAME_PAPERS", 10**9):
            found = app.retrieve(item["question"])
        row["first_right_boosting_every_name"] = bool(found) and \
            found[0].paper.source in item["expected_sources"]
        rows.append(row)
        print(item["id"], row["first_right"], row["recall"], flush=True)
    right = [r for r in rows if r["first_right"]]
    figures = {
        "first_paper_right": summary(rows, lambda r: float(r["first_right"])),
        "first_paper_right_boosting_every_name": summary(
            rows, lambda r: float(r["first_right_boosting_every_name"])),
        "key_fact_recall_where_first_right": {
            name: summary(right, lambda r, name=name: r["recall"][name]) for name in OPENINGS},
    }
    print(json.dumps(figures, indent=1))
    save("key_facts", {"data_dir": str(data_dir), "questions": len(rows),
                       "shipped": {"BACKGROUND_FACTOR": extractive.BACKGROUND_FACTOR,
                                   "COMMON_NAME_PAPERS": retrieval.COMMON_NAME_PAPERS},
                       **figures, "rows": rows})


if __name__ == "__main__":
    main()
