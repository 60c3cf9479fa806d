"""What an answer is, and the checks every answer passes whichever mode wrote it.

The typed ``Answer`` is what the CLI prints as JSON, the UI renders and the evals score.
Citation markers are checked against the sources actually given: a number that is not a
source is removed from the text (sentence by sentence as a model streams) and reported in
``dropped_citations``; only sources cited in the final text are listed as citations.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from assistant.corpus import split_sentences
from assistant.errors import BadInputError
from assistant.settings import PACKAGE_PROMPTS
from assistant.types import Answer, Citation, RetrievedPaper, SourceRef

if TYPE_CHECKING:
    from assistant.index import AbstractIndex
    from assistant.intent import Intent

# "[1]", "[1, 3]", "[2; 4]", and ranges as models write them too: "[1-3]", "[2–4, 6]".
_CITED_ITEM = r"\d{1,4}(?:\s*[-–]\s*\d{1,4})?"  # a longer run of digits is no source number
CITATION_RE = re.compile(rf"\[({_CITED_ITEM}(?:\s*[,;]\s*{_CITED_ITEM})*)\]")
MAX_CITED_RANGE = 20  # "[1-3]" is three sources; "[1-50]" is no citation
MAX_SOURCE_NUMBER = 99  # nor are "[1990-2005]", "[1990, 2005]" and "[2019]" (top_k ≤ 50)
# ...but a run counting on is, whatever its numbers: "[100] [101] … [122]", as a small model
# ran on after its answer (a run's), cites no source, removed and reported; "[224]" alone,
# "[128] [128]" or "[100, 200]" is a size or an interval, text (reviews')
_MARKER_RUN = re.compile(r"\[\d{3}\](?:\s*\[\d{3}\])+")  # one a line too, the break after it kept
NO_ANSWER = "The corpus has no abstract about this question."
# A model's reply saying the corpus holds nothing on the question, as the prompt asks it to
# ("say that the corpus has no abstract about it, and cite nothing"), in its own words. Only
# about the corpus, the abstracts or the sources as a whole: "None of the papers uses RL;
# [1] …" is an answer.
REFUSAL_RE = re.compile(
    r"^\W*(?:(?:the|this) )?(?:corpus|collection|abstracts|sources)(?: given| provided| here)? "
    r"(?:has|have|holds?|contains?|includes?) no (?:abstracts?|papers?|information|answer)\b"
    r"|^\W*none of the (?:given |provided )?(?:abstracts|sources) (?:answers?|address|discuss|"
    r"says?|mentions?|is about|are about)\b", re.I)
MAX_REFUSAL_CHARS = 1000  # a refusal is a sentence; checking a page of markers took minutes
_TAKEN_BACK_RE = re.compile(r"\b(but|however|although|though|except|yet)\b", re.I)
_TRAILING_CITES_RE = re.compile(rf"(?:\s*{CITATION_RE.pattern})+\W*$")
# Longer questions are refused in both modes: a question is a sentence or a paragraph, and a
# pasted document would crowd the sources out of the model's window (and slow retrieval).
MAX_QUESTION_CHARS = 4000


# A bracketed number list that is an abstract's own reference ("Kashima et al. [2]"), not
# an interval ("[0, 1]"), an index ("a[3]") or LaTeX ("[0,1]^d").
# A range ("[1-10]") may be an interval as well as references: it reads as written.
_REFERENCE_RE = re.compile(r"(?<![\w$^_])\[([1-9]\d*(?:\s*[,;]\s*[1-9]\d*)*)\](?![\^_])")
_WORD_JOINER = "\u2060"  # invisible: "[⁠0, 1]" reads as written and is no citation


def quoted(text: str) -> str:
    """Abstract text as an answer or a prompt shows it: the abstract's own reference markers
    ("Kashima et al. [2]", in 3% of the 1987–2021 abstracts) become "[ref. 2]", and any other
    bracketed numbers ("[0, 1]", "a[3]") get an invisible word joiner after the bracket, so
    that neither a reader, nor ``cited_numbers``, nor a model takes them for citations of
    the numbered sources."""
    text = _REFERENCE_RE.sub(lambda m: f"[ref. {m.group(1)}]", text)
    return CITATION_RE.sub(lambda m: f"[{_WORD_JOINER}{m.group(1)}]", text)


def shown_title(title: str) -> str:
    """A paper's title as an answer leads with it in bold: its bracketed numbers are no
    citation ("Quorblin [2]: …" cited source 2, an unrelated paper) and its asterisks no
    emphasis (they paired with the answer's own and bolded the wrong text)."""
    return quoted(title.replace("*", "")).strip()


# an author-year citation's brackets: "(Harris, 1987)", "Denker et al. (1987)", "(see Lee 2003a)"
_AUTHOR_YEAR_RE = re.compile(r"\((?:[^()]*[A-Z][^()]*[ ,])?(?:1[89]|20)\d\d[a-z]?\)")
_SHOWN_REFERENCE_RE = re.compile(r"\[ref\. [^\]]*\]")  # a marker as ``quoted`` shows it


def without_references(text: str) -> str:
    """``text`` (an abstract, or a quote of one) without its own references, numbered
    ("Farwell & Donchin [4]", shown as "[ref. 4]") or by author and year ("(Harris, 1987)"):
    what it states, for a check that reads its numbers."""
    return _AUTHOR_YEAR_RE.sub("", _SHOWN_REFERENCE_RE.sub("", _REFERENCE_RE.sub("", text)))


@cache
def prompt(name: str) -> str:
    """A prompt template from ``prompts/`` (all prompts live there, none in code)."""
    return (PACKAGE_PROMPTS / f"{name}.md").read_text(encoding="utf-8").strip()


# A terminal's escape sequences (colour, OSC titles and links) and the other control
# characters: pasted along with a question, "[31m" had been searched as one of its words
_TERMINAL_CODES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?)?")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # a carriage return splits words


def folded(text: str) -> str:
    """``text`` with its compatibility forms folded (NFKC): full-width letters, ligatures."""
    return unicodedata.normalize("NFKC", text)


def check_question(question: str) -> str:
    """The question stripped of whitespace and terminal codes, its compatibility forms
    folded (NFKC: full-width "Ｗｈｉｃｈ" is "Which", the ligature "ﬁ" is "fi"), or a
    ``BadInputError`` when it is empty, holds no letter or digit ("???"), is over-long, or
    is courtesy alone ("thanks!")."""
    question = _CONTROLS.sub(" ", _TERMINAL_CODES.sub("", folded(question))).strip()
    if not question:
        raise BadInputError("the question is empty; ask something like \"What is CRAFT?\"")
    if not any(ch.isalnum() for ch in question):  # "???": nothing to search for, nor to refuse
        raise BadInputError(f"the question “{question[:40]}” has no word to search for; ask "
                            "something like \"What is CRAFT?\"")
    if len(question) > MAX_QUESTION_CHARS:
        raise BadInputError(
            f"the question is {len(question):,} characters long; the limit is "
            f"{MAX_QUESTION_CHARS:,}: ask a shorter question")
    if _COURTESY_ONLY.fullmatch(question):  # "thanks!" had quoted an abstract's "thanks"
        raise BadInputError(f"“{question[:40]}” asks nothing to search for; ask a question "
                            "about the papers, e.g. \"Which papers use capsule networks?\"")
    return question


# a message of courtesy alone: "thanks!", "thx", "thank you very much", "ok, great"
_COURTESY_ONLY = re.compile(
    r"\W*(?:(?:(?:many\s+)?thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much|\s+a\s+lot)?|thx|ty|cheers"
    r"|ok(?:ay)?|great|cool|hi|hello|hey|bye|please|pls)\W*)+", re.I)


@dataclass(frozen=True)
class NumberedSource:
    n: int
    found: RetrievedPaper

    def ref(self) -> SourceRef:
        return SourceRef.of(self.n, self.found.paper, self.found.score)


def number_sources(found: list[RetrievedPaper]) -> list[NumberedSource]:
    return [NumberedSource(i, f) for i, f in enumerate(found, start=1)]


def is_refusal(text: str) -> bool:
    """A model's answer that only says the corpus has nothing on the question: every sentence
    says so, takes nothing back ("…, but [2] studies Y") and cites nothing but at its end."""
    def refuses(sentence: str) -> bool:
        if len(sentence) > MAX_REFUSAL_CHARS or not REFUSAL_RE.match(sentence):
            return False
        said = _TRAILING_CITES_RE.sub("", sentence)  # its start, which REFUSAL_RE read, stays
        return not _TAKEN_BACK_RE.search(said) and not cited_numbers(said)
    sentences = [s.strip() for s in split_sentences(text) if s.strip()]
    return bool(sentences) and all(refuses(s) for s in sentences)


def marker_numbers(marker: str) -> list[int] | None:
    """The source numbers a citation marker's inside names ("1, 3-5" → 1, 3, 4, 5), or None
    when it is no citation: an interval with 0 in it ("[0, 1]": sources count from 1; read
    as a citation, it turned into a "[1]" that cited source 1), or numbers no source list
    reaches ("[1-50]", "[1990-2005]", "[1990, 2005]", "[2019]")."""
    numbers: list[int] = []
    for item in re.split(r"[,;]", marker):
        first, _, last = item.replace("–", "-").partition("-")
        start, end = int(first), int(last or first)
        if not 0 <= end - start < MAX_CITED_RANGE or end > MAX_SOURCE_NUMBER:
            return None
        numbers.extend(n for n in range(start, end + 1) if n not in numbers)
    return None if 0 in numbers and len(numbers) > 1 else numbers


def without_markers(text: str) -> str:
    """``text`` less its citation markers; an interval such as "[0, 1]" stays."""
    return CITATION_RE.sub(lambda m: m.group(0) if marker_numbers(m.group(1)) is None else "",
                           text)


def cited_numbers(text: str) -> list[int]:
    numbers: list[int] = []
    for m in CITATION_RE.finditer(text):
        numbers.extend(n for n in marker_numbers(m.group(1)) or () if n not in numbers)
    return numbers


def clean_citations(text: str, valid: set[int]) -> tuple[str, list[int]]:
    """Remove citation numbers that are not sources; return the text and what was dropped."""
    dropped: list[int] = []

    def keep(m: re.Match[str]) -> str:
        numbers = marker_numbers(m.group(1))
        if numbers is None:  # an interval or a span of years, as written
            return m.group(0)
        ranges = [marker_numbers(item) or [] for item in re.split(r"[,;]", m.group(1))
                  if re.search(r"\d\s*[-–]", item)]
        if any(not set(span) <= valid for span in ranges):
            # a range reaching past the sources is an interval ("k in [1-10]"), not ten
            # citations: it reads as written, and no reader or check takes it for one
            return f"[{_WORD_JOINER}{m.group(1)}]"
        good = [n for n in numbers if n in valid]
        dropped.extend(n for n in numbers if n not in valid and n not in dropped)
        return "".join(f"[{n}]" for n in good)

    def run(m: re.Match[str]) -> str:  # "[100] [101] [102]": counting on, numbers of no source
        numbers = [int(n) for n in re.findall(r"\d+", m.group(0))]
        if len(numbers) < 3 or any(b != a + 1 for a, b in zip(numbers, numbers[1:], strict=False)):
            return m.group(0)  # "[128] [128]", "[256] [512]": sizes, text
        dropped.extend(n for n in numbers if n not in dropped)
        return ""

    cleaned = CITATION_RE.sub(keep, _MARKER_RUN.sub(run, text))
    if dropped:  # no space left before punctuation or doubled where a marker was
        cleaned = re.sub(r"[ \t]+([.,;:])", r"\1", cleaned)
        cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return cleaned, dropped


def build_citations(
    text: str, sources: list[NumberedSource], highlights: dict[int, list[str]] | None = None
) -> list[Citation]:
    """Citations for the numbers ``text`` cites; ``highlights`` are the sentences used (when
    not given, the abstract sentence that best matches each citing sentence of the answer)."""
    by_n = {s.n: s for s in sources}
    citations = []
    for n in cited_numbers(text):
        if n in by_n:
            p = by_n[n].found.paper
            used = (highlights.get(n, []) if highlights is not None
                    else supporting_sentences(text, n, p.text))
            citations.append(Citation(n=n, paper_id=p.paper_id, title=p.title, source=p.source,
                                      text=p.text, highlights=used))
    return citations


WORD_RE = re.compile(r"[a-z0-9][a-z0-9\-]{2,}")


def supporting_sentences(answer: str, n: int, abstract: str) -> list[str]:
    """For each answer sentence citing [n], the abstract sentence sharing the most words with
    it (at least three), so a reader sees where a model's claim comes from."""
    candidates = [(s, set(WORD_RE.findall(s.lower()))) for s in split_sentences(abstract)]
    found: list[str] = []
    for claim in split_sentences(answer):
        if n not in cited_numbers(claim):
            continue
        words = set(WORD_RE.findall(without_markers(claim).lower()))
        best = max(candidates, key=lambda c: len(words & c[1]), default=None)
        if best and len(words & best[1]) >= 3 and best[0] not in found:
            found.append(best[0])
    return found


# Events a streaming answer yields: text deltas, then the finished Answer.
AnswerEvent = str | Answer
AnswerStream = Iterator[AnswerEvent]


def final_answer(events: AnswerStream) -> Answer:
    """Drain a stream and return its Answer."""
    for event in events:
        if isinstance(event, Answer):
            return event
    raise RuntimeError("the answer stream ended without an answer")


def asked_intent(question: str, index: AbstractIndex) -> Intent:
    """The reading of ``question`` that ``Assistant.answer_stream`` routes by: its
    compatibility forms folded, as ``check_question`` reads it, and a misspelt list cue
    read as the word it stands for ("Wich papers…", ``cue_respellings``). Its readers are
    imported here: the answer's types stay light to import (no BM25)."""
    from assistant.intent import read_intent
    from assistant.respelling import cue_respellings, respelt

    cued = respelt(folded(question), cue_respellings(folded(question), index.keyword_stats()))
    return read_intent(cued, index.venues(), index.author_book())
