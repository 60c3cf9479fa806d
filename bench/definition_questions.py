""""What is X?" for acronyms the 1987–2021 abstracts define: does the offline answer quote
the definition?

Questions are made from the corpus, never the eval: every acronym of three or more capitals
that exactly one stored 1987–2021 paper defines as "long form (ACR)" (the long form's words
spell its capitals, ``keywords.spells_out``); 200 of them drawn with a fixed seed, each asked
as "What is ACR?". Scored: the defining paper first among the sources, and the answer quoting
the long form (the definition a researcher asked for), with the definition bonus of
``extractive.score_sentences`` given as shipped (a sentence naming ACR with "propose",
"called", "is a"…, or spelling it out before "(ACR)": ``extractive.defines``) and as before
(the first only).

Run: ``python bench/definition_questions.py [DATA_DIR]`` (default .data-distractors, as
``assistant eval --distractors`` builds it; ~30 s); writes
``bench/results/definition-questions.json``.
"""

from __future__ import annotations

import os
import random
import re
from collections import defaultdict

from common import offline_assistant, save

from assistant import extractive
from assistant.corpus import Paper
from assistant.keywords import spells_out

SAMPLE = 200
ACRONYM_RE = re.compile(r"\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9-]*)\)")
WINDOW_WORDS = 8  # the long form stands within this many words before "(ACR)"


def before(sentence: str, names: list[str]) -> bool:
    """No sentence defines: the bonus only for the name beside an introducing verb."""
    return False


def long_form(text: str, start: int, acronym: str) -> str | None:
    """The words before ``text[start:]`` ("(ACR)") that spell ``acronym`` out, if any."""
    words = re.split(r"[.!?:;]\s", text[:start])[-1].split()[-WINDOW_WORDS:]  # its own sentence
    initials = sum(c.isupper() for c in acronym)
    for n in range(initials, len(words) + 1):
        phrase = " ".join(words[-n:])
        if spells_out(acronym, phrase, min_initials=3) and phrase[0].lower() == acronym[0].lower():
            return phrase
    return None


def definitions(papers: dict[str, Paper]) -> dict[str, list[tuple[str, str]]]:
    """Acronym → [(paper id, long form)] over the 1987–2021 papers."""
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for pid, paper in papers.items():
        if not paper.source.startswith("neurips_abstract_"):
            continue
        for m in ACRONYM_RE.finditer(paper.text):
            acronym = m.group(1)
            if sum(c.isupper() for c in acronym) < 3:
                continue
            phrase = long_form(paper.text, m.start(), acronym)
            if phrase and all(p != pid for p, _ in found[acronym]):
                found[acronym].append((pid, phrase))
    return found


def main() -> None:
    data_dir, app = offline_assistant()
    papers = app.index.papers()
    defined = {a: d[0] for a, d in definitions(papers).items() if len(d) == 1}
    picked = random.Random(0).sample(sorted(defined), min(SAMPLE, len(defined)))
    shipped = extractive.defines
    figures: dict[str, object] = {"store": data_dir.name, "load_average": os.getloadavg()[0],
                                  "acronyms_defined_once": len(defined), "asked": len(picked)}
    answers: dict[str, dict[str, str]] = {}
    for name, rule in (("before", before), ("shipped", shipped)):
        extractive.defines = rule
        first = quoted = refused = sentences = 0
        for acronym in picked:
            pid, phrase = defined[acronym]
            answer = app.ask(f"What is {acronym}?")
            if not answer.sources:
                refused += 1
                continue
            first += answer.sources[0].paper_id == pid
            quoted += phrase.lower() in answer.answer.lower()
            sentences += len(re.findall(r"\[\d+\]", answer.answer))
            answers.setdefault(acronym, {})[name] = answer.answer
        figures[name] = {"first_is_the_definer": round(first / len(picked), 3),
                         "long_form_quoted": round(quoted / len(picked), 3),
                         "refused": refused,
                         "sentences_per_answer": round(sentences / max(1, len(picked) - refused), 2)}
        print(name, figures[name], flush=True)
    extractive.defines = shipped
    figures["changed"] = sorted(a for a, v in answers.items() if v.get("before") != v.get("shipped"))
    figures["lost"] = sorted(a for a in figures["changed"]  # type: ignore[union-attr]
                             if defined[a][1].lower() in answers[a].get("before", "").lower()
                             and defined[a][1].lower() not in answers[a].get("shipped", "").lower())
    save("definition-questions", figures)


if __name__ == "__main__":
    main()
