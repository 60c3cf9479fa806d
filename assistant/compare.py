"""Comparison tables for "Compare …" and "which papers …" questions answered offline.

One row per paper (its title and [n]); the columns problem / method / result each hold one
sentence quoted verbatim from that paper's abstract, followed by its [n]. The sentence for a
column is chosen by plain cue words ("however", "we propose", "outperforms"…), never by a
model, and one sentence fills at most one cell: an abstract that states no result gets
"(not stated in the abstract)" there rather than a guess. Cells are whole sentences of the
abstract, so the claims checker (reading a table row cell by cell) finds each one quoted;
header cells, titles and empty cells are bold, so it reads no claim into them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.answering import (
    AnswerStream,
    NumberedSource,
    build_citations,
    quoted,
    shown_title,
)
from assistant.corpus import split_sentences
from assistant.types import Answer

COLUMNS = ("problem", "method", "result")
EMPTY = "(not stated in the abstract)"
# Shown bold, like the header and the titles: the claims checker reads no claim into it.
EMPTY_CELL = f"**{EMPTY}**"
CUES: dict[str, re.Pattern[str]] = {
    "problem": re.compile(
        r"\b(challeng\w*|problems?|however|remains?|remained|lacks?|lacking|"
        r"(?<!not )limit(ed|s|ation\w*)|"
        r"difficult\w*|struggles?|bottlenecks?|fails?|suffers?|costly|expensive|unclear|"
        r"open question|gap|issues?|yet|despite|but)\b", re.I),
    "method": re.compile(
        r"\b(we (propose|introduce|present|develop|design|formulate|study|analy[sz]e|provide|"
        r"derive|establish|construct|leverage|use)|our (method|approach|framework|model|"
        r"algorithm|analysis)|this (paper|work)|in this (paper|work)|called|named|"
        r"propose[sd]?|introduce[sd]?|novel)\b", re.I),
    "result": re.compile(
        r"\b(outperform\w*|achiev\w*|improv\w*|shows?|showed|shown|results?|experiments?|"
        r"demonstrat\w*|state-of-the-art|surpass\w*|reduc\w*|speed-?ups?|empirical\w*|gains?|"
        r"accuracy|better|faster|up to|significantly|consistently|validate[sd]?)\b", re.I),
}


@dataclass(frozen=True)
class Row:
    """One paper's row: source number, title, and a sentence (or None) per column."""

    n: int
    title: str
    cells: dict[str, str | None]


def usable(sentence: str) -> bool:
    """A sentence that can stand in a cell verbatim: no "|" (it would split the cell), not a
    question, and not a pointer to code."""
    return "|" not in sentence and not sentence.endswith("?") and not re.search(
        r"https?://|\b(code|data|benchmark) (is|are) (publicly )?(available|released)", sentence,
        re.I)


def pick_cells(text: str) -> dict[str, str | None]:
    """The sentence for each column: the one with the most distinct cue words for it; ties go
    to the earlier sentence for the problem and the method, the later one for the result.
    Strongest matches are placed first, and a sentence once placed is not used again."""
    sentences = [s for s in split_sentences(text) if usable(s)]
    last = max(len(sentences) - 1, 1)
    options = []
    for i, sentence in enumerate(sentences):
        for column in COLUMNS:
            hits = len({m.group(0).lower() for m in CUES[column].finditer(sentence)})
            if hits:
                place = i / last if column == "result" else 1 - i / last
                options.append((hits, place, column, i))
    cells: dict[str, str | None] = dict.fromkeys(COLUMNS)
    used: set[int] = set()
    for _, _, column, i in sorted(options, key=lambda o: (-o[0], -o[1])):
        if cells[column] is None and i not in used:
            cells[column] = sentences[i]
            used.add(i)
    return cells


def rows_for(papers: Sequence[tuple[int, str, str]]) -> list[Row]:
    """Rows for (n, title, abstract) triples, in the order given."""
    return [Row(n, title, pick_cells(text)) for n, title, text in papers]


def table_lines(rows: Sequence[Row]) -> list[str]:
    """The Markdown table, a line each (header, rule, then one line per paper)."""
    lines = ["| **paper** | " + " | ".join(f"**{c}**" for c in COLUMNS) + " |",
             "| --- | " + " | ".join("---" for _ in COLUMNS) + " |"]
    for row in rows:
        title = shown_title(row.title.replace("|", "/")) or f"Source {row.n}"
        cells = [f"{quoted(row.cells[c])} [{row.n}]" if row.cells[c] else EMPTY_CELL
                 for c in COLUMNS]
        lines.append(f"| **{title}** [{row.n}] | " + " | ".join(cells) + " |")
    return lines


def highlights(rows: Sequence[Row]) -> dict[int, list[str]]:
    """The sentences each source's cells quote (for the citation's highlighted abstract)."""
    return {row.n: [s for s in row.cells.values() if s] for row in rows}


def compose_table(question: str, sources: Sequence[NumberedSource], numbers: Sequence[int],
                  lead: str) -> AnswerStream:
    """Stream ``lead``, then the table for the sources numbered ``numbers`` (a line at a
    time); the last event is the Answer, whose citations are built from the table's [n]."""
    by_n = {s.n: s for s in sources}
    rows = rows_for([(n, by_n[n].found.paper.title + by_n[n].found.paper.title_mark,
                      by_n[n].found.paper.text)
                     for n in numbers if n in by_n])
    pieces = [lead + "\n\n"]
    yield pieces[0]
    for line in table_lines(rows):
        pieces.append(line + "\n")
        yield pieces[-1]
    text = "".join(pieces).strip()
    yield Answer(question=question, answer=text, mode="extractive",
                 citations=build_citations(text, list(sources), highlights(rows)),
                 sources=[s.ref() for s in sources])
