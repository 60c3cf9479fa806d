"""How many questions no abstract answers are refused, beyond the eval's 34 `none` ones.

Usage: python bench/off_topic.py [DATA_DIR]   (default .data-distractors; about 10 s)

The eval's refusal figure rests on 17 dev and 17 test questions, and its thresholds were
chosen on the dev ones. This bench asks 100 off-topic questions written for it
(bench/off_topic_questions.txt; none shares 40% of its words with an eval question, which the
script checks first): 40 on everyday topics, 40 on everyday topics in machine-learning words
("train my dog", "power transformer", "wheelchair ramp gradient"), and 20 asking for a paper
on an everyday topic, a word of each held by some unrelated abstract ("Is there a paper on
planetary rings?"). Nothing here is tuned; it
only measures. Each answered question is listed
with its first paper and the two refusal signals (the ranker's evidence, the mean cosine of
the nearest papers), to be read: an answer to one of these is a fake source.
Writes bench/results/off_topic-<data dir>.json.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant.evals.dataset import DEFAULT_DATASET, load_dataset
from assistant.keywords import STOPWORDS
from assistant.settings import PROJECT_ROOT

QUESTIONS = PROJECT_ROOT / "bench" / "off_topic_questions.txt"
TOO_CLOSE = 0.4  # word-set overlap (Jaccard) with an eval question that makes it a copy


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


def words(question: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", question.lower()) if w not in STOPWORDS}


def eval_copies(questions: list[str]) -> list[tuple[str, str]]:
    """Pairs of (a bench question, an eval question) that share TOO_CLOSE of their words: the
    bench must measure refusal beyond the eval, whose dev questions set the thresholds."""
    asked = [item.question for item in load_dataset(DEFAULT_DATASET)]
    return [(q, e) for q in questions for e in asked
            if len(words(q) & words(e)) >= TOO_CLOSE * len(words(q) | words(e))]


def main() -> None:
    data_dir, app = offline_assistant()
    groups = grouped_questions(QUESTIONS)
    copies = eval_copies([q for questions in groups.values() for q in questions])
    if copies:
        sys.exit("\n".join(f"too close to an eval question: {q!r} ~ {e!r}" for q, e in copies))
    figures: dict[str, object] = {"data_dir": data_dir.name, "papers": len(app.index.papers())}
    for group, questions in groups.items():
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
