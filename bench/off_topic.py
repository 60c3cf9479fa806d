"""How many questions no abstract answers are refused, beyond the eval's 34 `none` ones.

Usage: python bench/off_topic.py [DATA_DIR]   (default .data-distractors; about 20 s)

The eval's refusal figure rests on 17 dev and 17 test questions, and its thresholds were
chosen on the dev ones. This bench asks 80 off-topic questions written for it
(bench/off_topic_questions.txt, never from evals/qa.jsonl): 40 on everyday topics, 40 on
everyday topics in machine-learning words ("train my dog", "power transformer", "wheelchair
ramp gradient"). Nothing here is tuned; it only measures. Each answered question is listed
with its first paper and the two refusal signals (the ranker's evidence, the mean cosine of
the nearest papers), to be read: an answer to one of these is a fake source.
Writes bench/results/off_topic-<data dir>.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import save

import assistant  # noqa: F401
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, LLMSettings, Settings

QUESTIONS = PROJECT_ROOT / "bench" / "off_topic_questions.txt"


def grouped_questions(path: Path) -> dict[str, list[str]]:
    """The questions under each ``## group`` heading (``#`` lines are comments)."""
    groups: dict[str, list[str]] = {}
    group = "questions"
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("## "):
            group = line[3:].strip()
        elif line and not line.startswith("#"):
            groups.setdefault(group, []).append(line)
    return groups


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    settings.data.dir = data_dir
    settings.llm = LLMSettings.model_validate({"base_url": None, "model": None})
    app = Assistant(settings)
    figures: dict[str, object] = {"data_dir": data_dir.name, "papers": len(app.index.papers())}
    for group, questions in grouped_questions(QUESTIONS).items():
        answered = []
        for question in questions:
            answer = app.ask(question)
            if not answer.citations:
                continue
            evidence, nearest, named = app.retriever.abstention_signals(question)
            answered.append({"question": question, "first": answer.sources[0].title,
                             "cited": len(answer.citations),
                             "evidence": None if evidence is None else round(evidence, 3),
                             "nearest": None if nearest is None else round(nearest, 3),
                             "names_a_method": named})
        refused = len(questions) - len(answered)
        print(f"{group}: {refused}/{len(questions)} refused")
        for row in answered:
            print(f"  answered: {row['question']} -> {row['first']} "
                  f"(evidence {row['evidence']}, nearest {row['nearest']})")
        figures[group] = {"questions": len(questions), "refused": refused,
                          "refused_share": round(refused / len(questions), 3),
                          "answered": answered}
    save(f"off_topic-{data_dir.name.lstrip('.')}", figures)


if __name__ == "__main__":
    main()
