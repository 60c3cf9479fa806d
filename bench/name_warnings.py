"""The name warning on questions that open with a capitalised word (a review's 187: verbs
such as "Compare" or "Review", method and model names, datasets, people, structure words).

Usage: python bench/name_warnings.py [DATA_DIR]   (default .data-distractors; ~1-2 min)

Each question of bench/name_questions.txt is answered offline, and the names its cited
abstracts do not mention are worked out twice: as shipped (the store's proper words tell a
name that opens a sentence, ``SurfaceText.proper``) and without them (the rule before: a
lone word opening a sentence is no name, a longer run stays whole). The warned answers and
every answer whose warning differs go to bench/results/name-warnings-<data dir>.json, to be
judged by reading the cited abstracts: the counts alone say nothing of which are true.
"""

from __future__ import annotations

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant.naming import unmentioned
from assistant.settings import PROJECT_ROOT

QUESTIONS = PROJECT_ROOT / "bench" / "name_questions.txt"


def main() -> None:
    data_dir, app = offline_assistant()
    papers = app.index.papers()
    questions = [line.strip() for line in QUESTIONS.read_text().splitlines() if line.strip()]
    changed, before_count, now_count = [], 0, 0
    for question in questions:
        answer = app.ask(question)
        cited = list({c.paper_id: papers[c.paper_id] for c in answer.citations
                      if c.paper_id in papers}.values())
        before = unmentioned(question, cited)
        before_count += bool(before)
        now_count += bool(answer.unmentioned)
        if before != answer.unmentioned:
            changed.append({"question": question, "before": before, "now": answer.unmentioned,
                            "cited": [p.title for p in cited]})
            print(f"{question!r}: {before} -> {answer.unmentioned}")
    print(f"warned answers: {before_count} without the proper words, {now_count} with them, "
          f"of {len(questions)}; {len(changed)} differ")
    save(f"name-warnings-{data_dir.name.lstrip('.')}", {
        "questions": len(questions), "warned_without_proper": before_count,
        "warned_as_shipped": now_count, "proper_words": len(app.index.surface_text().proper),
        "changed": changed})


if __name__ == "__main__":
    main()
