"""Titles for the abstracts whose input gave none, written by the configured model
(``assistant ingest --titles``).

Each title is written once: a paper that has a model's title is passed over on the next run,
and an ingest that reads its unchanged abstract again keeps it (sync.py). Titles are stored
a few at a time as they come, so that an interrupted run keeps what it wrote and the next
one goes on from there. A reply that is no title (empty, a paragraph, the prompt echoed, a
link, words the abstract does not hold) leaves the derived label in place and is counted.
The stored paper names the model (``Paper.title_model``), and every surface marks such a
title as the model's.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assistant.answering import prompt, quoted
from assistant.corpus import Paper
from assistant.errors import AssistantError
from assistant.keywords import document_terms, query_terms
from assistant.tuning import GROUNDED, MAX_TITLE_WORDS, TITLE_MAX_TOKENS

if TYPE_CHECKING:
    from assistant.generation import ChatModel
    from assistant.index import AbstractIndex, ProgressFn

MAX_TITLE_CHARS = 200
STORE_EVERY = 8  # titles stored together: an interruption loses at most the ones in hand
# "Title:", "**Suggested title:**", "Title of the paper:" (a small model repeats the prompt's)
_LABEL_RE = re.compile(r"^\s*(?:\*\*|#+\s*)?(?:the\s+)?(?:paper\s+|suggested\s+|short\s+)?title"
                       r"(?:\s+of\s+(?:the|this)\s+paper)?\s*:\s*(?:\*\*)?\s*", re.I)
_WRAPPING = "\"'“”‘’`*_# "
_TAG_RE = re.compile(r"<[^>]*>")  # "<b>Keywords</b>:", "<h2>Abstract</h2>"
_TEX_RE = re.compile(r"\\[a-zA-Z]+\{([^{}]*)\}")  # "\emph{exact solution}"
_URL_RE = re.compile(r"https?:|www\.|doi\.org|\bdoi:", re.I)
# A reply's first line that names a field of the paper, not its title ("Topic: Learning",
# "Keywords:", "Proceedings of the 2019 IEEE…"): what small models write instead of one.
_FIELD_RE = re.compile(r"^(abstract|keywords?|topics?|proceedings|language|authors?|"
                       r"introduction|summary)\b", re.I)


@dataclass
class TitlesReport:
    """What a titles run did: titles written, papers whose reply was no title (their
    locators), and papers still untitled when it stopped."""

    written: int = 0
    total: int = 0
    rejected: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""  # why the run stopped early ("" when it went through)
    exit_code: int = 0


def untitled(papers: dict[str, Paper]) -> list[Paper]:
    """The papers whose input gave no title and no model has titled yet, in locator order."""
    return sorted((p for p in papers.values() if p.title_derived and not p.title_model),
                  key=lambda p: (p.file, p.source))


def clean_title(reply: str, abstract: str) -> str | None:
    """The title in a model's reply: its first line with words, without a "Title:" label,
    HTML tags, TeX commands, Markdown or quotation marks, nor a final full stop, its first
    letter a capital; None when that is no title: no letters, over MAX_TITLE_WORDS words, a
    link, a field of the paper ("Keywords:", "Topic: …", "Proceedings of …"), or words the
    abstract mostly does not hold (fewer than GROUNDED of its terms: invented)."""
    lines = (_TEX_RE.sub(r"\1", _TAG_RE.sub("", ln)) for ln in reply.splitlines())
    lines = (" ".join(_LABEL_RE.sub("", ln).strip(_WRAPPING).rstrip(".").strip(_WRAPPING).split())
             for ln in lines)
    line = next((ln for ln in lines if ln), "")
    terms = query_terms(line)
    if (not re.search(r"[^\W\d_]{2}", line) or len(line.split()) > MAX_TITLE_WORDS
            or len(line) > MAX_TITLE_CHARS or _URL_RE.search(line) or _FIELD_RE.match(line)
            or not terms):
        return None
    held = set(document_terms(abstract))
    if sum(term in held for term in terms) < GROUNDED * len(terms):
        return None
    return line[0].upper() + line[1:]


def write_titles(index: AbstractIndex, model: ChatModel, model_name: str,
                 progress: ProgressFn | None = None) -> TitlesReport:
    """Ask ``model`` for a title for each untitled paper of ``index`` and store them as they
    come (every STORE_EVERY, and whatever is in hand when the run stops, by an error or an
    interrupt too: the report then says why it stopped)."""
    started = time.perf_counter()
    todo = untitled(index.papers())
    report = TitlesReport(total=len(todo))
    template = prompt("title")
    in_hand: dict[str, tuple[str, str]] = {}
    try:
        for done, paper in enumerate(todo, start=1):
            reply = model.complete(
                [{"role": "user", "content": template.format(abstract=quoted(paper.text))}],
                TITLE_MAX_TOKENS)
            title = clean_title(reply, paper.text)
            if title is None:
                report.rejected.append(paper.source)
            else:
                in_hand[paper.paper_id] = (title, model_name)
            if len(in_hand) >= STORE_EVERY:
                report.written += index.set_titles(in_hand, rebuild_bm25=False)
                in_hand.clear()
            if progress:
                progress(done, len(todo), "writing titles")
    except AssistantError as exc:  # the endpoint failed: what was written stays
        report.stopped, report.exit_code = str(exc), exc.exit_code
    except KeyboardInterrupt:
        report.stopped, report.exit_code = "interrupted", 130
    finally:
        report.written += index.set_titles(in_hand)
        report.seconds = time.perf_counter() - started
    return report
