"""The refusal of a several-word name that no paper found for the question writes
(``HybridRetriever.unwritten_names``), measured outside the eval.

Usage: python bench/multiword_names.py [DATA_DIR] [N]   (default .data-distractors, 200; ~6 min)

Six sets of questions, none from evals/qa.jsonl:
- the 187 of bench/name_questions.txt (real methods, models, people and datasets), and the
  476 of bench/multiword_questions.txt (two reviews': real names in many phrasings, people
  without their middle initials, possessives, accents typed in ASCII, "… Corpus",
  "Gumbel-Softmax Relaxation"): every one the check catches is a wrong refusal unless no
  abstract writes the name;
- real names: N runs of two to four capitalised words that the abstracts write inside a
  sentence, each in one to three papers ("Optimal Brain Surgeon"), asked as "What results
  are reported for the NAME in experiments?" (with fewer lower-case words the question reads
  as title case, where no run of capitals is a name): a catch is a wrong refusal;
- made-up names: the same names with their last word swapped for another name's, kept only
  when no stored title or abstract writes the result as a phrase ("Optimal Brain Filter"),
  asked the same way: a catch is a right refusal;
- both again asked short, "What is the NAME?".
For each: the share the check catches, and the share refused with and without it (the floor,
the calibrated abstention and the cross-encoder refuse some already). Writes
bench/results/multiword-names-<data dir>.json.
"""

from __future__ import annotations

import random
import re
import sys
from collections import defaultdict
from pathlib import Path
from unittest import mock

from common import offline_assistant, save

import assistant  # noqa: F401
from assistant.keywords import STOPWORDS
from assistant.naming import _stem_run
from assistant.pipeline import Assistant
from assistant.retrieval import HybridRetriever
from assistant.settings import PROJECT_ROOT

SEED = 20261202
# two to four capitalised words after a lower-case word inside a sentence: a name, not a title
NAME_RE = re.compile(r"(?<=[a-z,] )((?:[A-Z][a-z]{2,}[ -]){1,3}[A-Z][a-z]{2,})(?![\w-])")
QUESTIONS = PROJECT_ROOT / "bench" / "name_questions.txt"
REVIEW_QUESTIONS = PROJECT_ROOT / "bench" / "multiword_questions.txt"
TEMPLATE = "What results are reported for the {} in experiments?"
SHORT = "What is the {}?"  # reads as title case: only the short-question rule finds the name


def mined_names(app: Assistant, count: int) -> tuple[list[str], list[str]]:
    """``count`` real names (in one to three papers) and as many made-up ones, each written
    nowhere (checked against the stem phrases of every stored text)."""
    papers_of: dict[str, set[str]] = defaultdict(set)
    corpus = set()
    for pid, paper in app.index.papers().items():
        stems = " ".join(_stem_run(f"{paper.title} {paper.text}"))
        corpus.add(f" {stems} ")
        for name in NAME_RE.findall(paper.text):
            if not any(w.lower() in STOPWORDS for w in re.split(r"[ -]", name)):
                papers_of[name].add(pid)
    real = sorted(n for n, ps in papers_of.items() if len(ps) <= 3)
    rng = random.Random(SEED)
    rng.shuffle(real)
    real = real[:count]
    text = "\n".join(corpus)
    made_up: list[str] = []
    lasts = [re.split(r"[ -]", n)[-1] for n in real]
    for name in real:
        head = name.rsplit(" ", 1)[0] if " " in name else name.rsplit("-", 1)[0]
        for last in rng.sample(lasts, len(lasts)):
            fake = f"{head} {last}"
            if fake != name and f" {' '.join(_stem_run(fake))} " not in text:
                made_up.append(fake)
                break
    return real, made_up


def lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def measure(app: Assistant, questions: list[str]) -> dict[str, object]:
    retriever = app.retriever
    caught = [q for q in questions if retriever.unwritten_names(q)]
    refused = sum(not app.retrieve(q) for q in questions)
    with mock.patch.object(HybridRetriever, "unwritten_names", return_value=[]):
        refused_without = sum(not app.retrieve(q) for q in questions)
    return {"questions": len(questions), "caught": len(caught),
            "caught_share": round(len(caught) / max(1, len(questions)), 3),
            "refused_without_check": refused_without, "refused_with_check": refused,
            "caught_examples": caught[:30]}


def main() -> None:
    data_dir, app = offline_assistant()
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    real, made_up = mined_names(app, count)
    sets = {
        "name_questions": lines(QUESTIONS),
        "review_questions": lines(REVIEW_QUESTIONS),
        "real_names": [TEMPLATE.format(n) for n in real],
        "made_up_names": [TEMPLATE.format(n) for n in made_up],
        "real_names_short": [SHORT.format(n) for n in real],
        "made_up_names_short": [SHORT.format(n) for n in made_up],
    }
    figures = {}
    for label, questions in sets.items():
        figures[label] = measure(app, questions)
        print(label, {k: v for k, v in figures[label].items() if k != "caught_examples"})
        for q in figures[label]["caught_examples"][:10]:  # type: ignore[index]
            print("   caught:", q)
    save(f"multiword-names-{data_dir.name.lstrip('.')}", {"seed": SEED, **figures})


if __name__ == "__main__":
    main()
