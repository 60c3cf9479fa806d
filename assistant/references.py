"""An answer with its references, to reuse elsewhere: Markdown for notes, BibTeX for papers.

Both list exactly the sources the answer cites. A BibTeX key is a function of the paper
alone (first author's surname, year, first title word, and the start of its ``paper_id``),
so the same paper gets the same key in every answer, run and re-ingest, and two papers never
share one whatever else an answer cites. Titles, authors and answers are untrusted text: in
BibTeX every TeX special character is escaped; in Markdown nothing from them can become a
link, an image or HTML (the only links are the papers' own link fields).

Imports only the core types, so the CLI, the UI and programs share it without the index.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

from assistant.authors import short_authors, split_authors
from assistant.errors import redact
from assistant.left_out import why
from assistant.paper import MODEL_TITLE_NOTE
from assistant.types import Answer, NearPaper, Receipt, SourceRef

Format = Literal["text", "markdown", "bibtex", "json"]
FORMATS: tuple[Format, ...] = ("text", "markdown", "bibtex", "json")
DERIVED_NOTE = "title derived from the abstract"
UNCITED_NOTE = "This answer cites no source; treat it as unchecked."
# Answer.unsure: a large store's joint reading under its doubt level (ranking.JointReading)
UNSURE_NOTE = ("These abstracts are on the question's topic but read only weakly as answering "
               "it: they may not say what was asked. Check the quotes before relying on them.")
_URL_OK = re.compile(r"https?://[^\s\"'<>`{}\\]+")
_STOPWORDS = frozenset("a an the on of for in to towards toward with and via from by is are "
                       "do does how what when why can".split())


def unmentioned_note(answer: Answer, shown: int = 5, width: int = 60) -> str:
    """The warning for names of the question that no cited abstract mentions (the first
    ``shown``, each cut to ``width`` characters)."""
    names = [f"“{n if len(n) <= width else n[:width - 1] + '…'}”" for n in answer.unmentioned]
    if len(names) > shown:
        names = [*names[:shown - 1], f"{len(names) - shown + 1} more"]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    if len({c.n for c in answer.citations}) == 1:
        return f"The cited abstract does not mention {listed}; it may not answer the question as asked."
    return f"No cited abstract mentions {listed}; they may not answer the question as asked."


def title_note(title_derived: bool, title_model: str = "") -> str:
    """How a title not given by the input came about ("" for the input's own): written by
    a model (``assistant ingest --titles``), or derived from the abstract."""
    if title_model:
        return MODEL_TITLE_NOTE.format(model=title_model)
    return DERIVED_NOTE if title_derived else ""


def noted_title(source: SourceRef | NearPaper, derived: bool = True) -> str:
    """The title with its note in brackets when the input gave none (the derived one's
    only with ``derived``: source lists have always shown those bare; a model's always)."""
    note = title_note(source.title_derived and derived, source.title_model)
    return f"{source.title} ({note})" if note else source.title


def unsupported_note(answer: Answer) -> str:
    """The line naming the answer's sentences no cited abstract supports ("" for none): the
    CLI's, and the Markdown copies' (a run's export had shown an invented sentence unmarked)."""
    unsupported = [c.text for c in answer.claims if not c.supported]
    if not unsupported:
        return ""
    listed = " · ".join(f"“{t if len(t) <= 80 else t[:79] + '…'}”" for t in unsupported)
    return f"{len(unsupported)} sentence(s) not supported by the abstracts they cite: {listed}"


def placed_note(answer: Answer) -> str:
    """The line naming the citations of a model's answer that the assistant placed ("" when
    the model gave them all): on a sentence the model cited nothing, no source or another
    for, the source whose abstract supports it. A run had read "[5]" as the model's own."""
    claimed = {n for claim in answer.claims for n in claim.cites}  # not the quotes after it
    placed = [c.n for c in answer.citations if c.origin == "assistant" and c.n in claimed]
    if answer.mode != "llm" or not placed:
        return ""
    cited = ", ".join(f"[{n}]" for n in placed)
    return (f"{cited} placed by the assistant: the model cited no source or another for that "
            "sentence, and this abstract supports it.")


def derived_line(sources: Sequence[SourceRef]) -> str:
    """The line under a source list some of whose papers came without a title ("" when
    none did): each is shown bare, named by its abstract's first words, and a question
    asking for a paper's title had been answered with such words as if they were it."""
    derived = sum(s.title_derived for s in sources)
    if not derived:
        return ""
    said = ("1 of these papers has no title in its input" if derived == 1
            else f"{derived} of these papers have no title in their input")
    return f"{said}: named by the first words of the abstract."


def receipt_line(receipt: Receipt) -> str:
    """How much the answer looked at, in one line: "Looked at 38 papers in the store · read
    20 · cited 2" (with "12 left by the filter" after the store when a filter applied; a
    list answer says how many it listed, "screened 25 · listed 3", and a list of none the
    papers it shows unconfirmed, "listed 0 · 2 unconfirmed"; one the reading budget cut,
    "listed 26 · 11 left out unread · 0 kept unread"; with the records of the store's files it could not
    store, "· 2 records of its files not stored: no abstract")."""
    parts = [f"Looked at {receipt.in_store:,} paper{'s' * (receipt.in_store != 1)} in the store"]
    if receipt.in_filter != receipt.in_store:
        parts.append(f"{receipt.in_filter:,} left by the filter")
    if receipt.matching is not None:
        parts += [f"screened {receipt.read:,}",  # a trend counts its papers, cites none
                  f"{'listed' if receipt.counted is None else 'counted'} {receipt.matching:,}"]
        if receipt.unconfirmed:
            parts.append(f"{receipt.unconfirmed:,} unconfirmed")
        if receipt.unread_left_out:
            parts.append(f"{receipt.unread_left_out:,} left out unread")
        if receipt.unscreened:
            parts.append(f"{receipt.unscreened:,} unscreened past the pool")
        if receipt.kept_unread or receipt.unread_left_out:  # the budget ran out: both said
            parts.append(f"{receipt.kept_unread:,} kept unread")
        if receipt.titled:
            parts.append(f"{receipt.titled:,} kept for their titles")
    else:
        parts += [f"read {receipt.read:,}", f"cited {receipt.cited:,}"]
    if receipt.left_out:
        said = why(receipt.left_out, receipt.left_out_repeats, receipt.left_out_unread)
        parts.append(f"{receipt.left_out:,} record{'s' * (receipt.left_out != 1)} of its files "
                     f"not stored: {said}")
    return " · ".join(parts)


def nearest_lines(receipt: Receipt) -> list[str]:
    """A refusal's nearest papers, one line each: title (marked when a model wrote it),
    locator, and why it does not answer."""
    return [f"{noted_title(paper, derived=False)} — {paper.source}: {paper.reason}"
            for paper in receipt.nearest]


NEAREST_HEADING = "The nearest papers, and why none answers:"


# ---------------------------------------------------------------- the cited sources


def cited_sources(answer: Answer) -> list[SourceRef]:
    """The sources the answer cites, by number; a citation whose source is missing (an
    answer built by hand) still gets an entry from what the citation carries."""
    by_n = {s.n: s for s in answer.sources}
    refs: dict[int, SourceRef] = {}
    for c in answer.citations:
        refs[c.n] = by_n.get(c.n) or SourceRef(n=c.n, paper_id=c.paper_id, title=c.title,
                                               source=c.source, score=0.0)
    return [refs[n] for n in sorted(refs)]


def surname(name: str) -> str:
    """The family name of "First Last" or "Last, First"."""
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    return words[-1] if words else ""


def byline(source: SourceRef, every_author: bool = False) -> str:
    """"NeurIPS 2025 · A. One, B. Two": what is known of where and by whom (beyond three
    names the first and "et al.", unless ``every_author``), or ""."""
    where = " ".join(p for p in (source.venue, str(source.year or "")) if p)
    names = ", ".join(split_authors(source.authors)) if every_author else short_authors(source.authors)
    return " · ".join(p for p in (where, names) if p)


# ---------------------------------------------------------------- BibTeX


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def bibtex_key(source: SourceRef) -> str:
    """``vidal1987synchronization_0a1b``: surname, year, first title word, and the first four
    characters of the paper id, which make it unique without depending on the other sources."""
    names = split_authors(source.authors)
    family = _ascii_word(surname(names[0])) if names else ""
    word = next((w for w in map(_ascii_word, re.split(r"[\s\-–—:/]+", source.title))
                 if w and w not in _STOPWORDS), "")
    return f"{family or 'anon'}{source.year or ''}{word[:20]}_{source.paper_id[:4]}"


_TEX = str.maketrans({
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
})


def tex(text: str) -> str:
    """``text`` for a braced BibTeX field: one line, every TeX special character escaped (so
    the braces always balance)."""
    return " ".join(text.split()).translate(_TEX)


def tex_title(title: str) -> str:
    """The escaped title with words such as ``TCCM`` or ``MuRating`` in braces, so that styles
    which lower-case titles keep their capitals."""
    words = []
    for word in " ".join(title.split()).split(" "):
        escaped = tex(word)
        words.append(f"{{{escaped}}}" if re.search(r".[A-Z]", word) else escaped)
    return " ".join(words)


def bibtex_entry(source: SourceRef) -> str:
    """One entry: @inproceedings when the venue is known, else @misc."""
    fields = [("title", tex_title(source.title))]
    names = split_authors(source.authors)
    if names:
        fields.append(("author", " and ".join(tex(n) for n in names)))
    if source.year:
        fields.append(("year", str(source.year)))
    if source.venue:
        fields.append(("booktitle", tex(source.venue)))
    if source.url and _URL_OK.fullmatch(source.url):
        fields.append(("url", source.url))  # verbatim, as BibTeX styles read it
    note = title_note(source.title_derived, source.title_model)
    notes = [note] if note else []
    notes.append(f"abstract {source.source}")
    fields.append(("note", tex("; ".join(notes))))
    kind = "inproceedings" if source.venue else "misc"
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{bibtex_key(source)},\n{body}\n}}\n"


def to_bibtex(answer: Answer) -> str:
    """One entry per cited source, in citation order ("" when the answer cites none)."""
    return "\n".join(bibtex_entry(s) for s in cited_sources(answer))


# ---------------------------------------------------------------- Markdown


def md(text: str) -> str:
    """Untrusted text for Markdown: one line, and nothing in it can start a link, an image,
    HTML, code or emphasis."""
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", " ".join(text.split()))


def md_answer(text: str) -> str:
    """The answer's text (redacted) with its own ``**bold**`` and line breaks kept, and every
    bracket (a source's ``[n]`` too: it still renders as [n]) and every ``<``/``>`` escaped:
    no link, image or HTML can come of it ("[1](https://…)", a "[1]: https://…" line). A
    line break inside a paragraph is made a hard one (a list's paper a line had rendered as
    one paragraph); one after or before a line that starts a block (a table row, a heading,
    a bullet) is not."""
    lines = _md_keep_bold(redact(text.strip())).splitlines()
    return "\n".join(line if _BLOCK.match(line) or _BLOCK.match(following) else f"{line}\\"
                     for line, following in zip(lines, [*lines[1:], ""], strict=True))


# a line that is no paragraph's text: blank, or one that starts a block in CommonMark (a
# table row, a heading, a bullet, a list numbered from 1 (the only number that can interrupt
# a paragraph), a rule); a ">" comes escaped, so it starts no quote
_BLOCK = re.compile(r"\s*(?:\||#{1,6}(?:\s|$)|[-*+](?:\s|$)|1[.)](?:\s|$)"
                    r"|[-*_](?:\s*[-*_]){2,}\s*$|$)")


def _md_keep_bold(text: str) -> str:
    return re.sub(r"([\\`\[\]<>])", r"\\\1", text)


def reference_line(source: SourceRef) -> str:
    """``- [1] A. One, B. Two. *Title*. NeurIPS 2025. `file#n`. <url>``"""
    parts = [f"- [{source.n}]"]
    if source.authors:
        parts.append(md(", ".join(split_authors(source.authors))) + ".")
    note = title_note(source.title_derived, source.title_model)
    parts.append(f"*{md(source.title)}*" + (f" ({md(note)})" if note else "") + ".")
    where = " ".join(p for p in (md(source.venue), str(source.year or "")) if p)
    if where:
        parts.append(where + ".")
    parts.append(f"`{source.source.replace('`', '')}`.")
    if source.url and _URL_OK.fullmatch(source.url):
        parts.append(f"<{source.url}>")
    return " ".join(parts)


def to_markdown(answer: Answer) -> str:
    """The question, the answer and a numbered list of exactly the sources it cites."""
    refs = cited_sources(answer)
    lines = [f"**Question:** {md(redact(answer.question))}", "",
             md_answer(answer.answer), ""]
    if answer.unchecked:
        lines += [f"*{md(answer.unchecked)}*", ""]
    elif answer.uncited or not refs:
        lines += [f"*{UNCITED_NOTE}*", ""]
    if answer.unmentioned:
        lines += [f"*{md(unmentioned_note(answer))}*", ""]
    if answer.unsure:
        lines += [f"*{UNSURE_NOTE}*", ""]
    if unsupported := unsupported_note(answer):
        lines += [f"*{md(unsupported)}*", ""]
    if refs:
        lines += ["## References", "", *(reference_line(s) for s in refs), ""]
    if answer.receipt is not None:
        if answer.receipt.nearest:
            lines += [f"*{NEAREST_HEADING}*", "", *(f"- {md(line)}"
                                                     for line in nearest_lines(answer.receipt)), ""]
        lines += [f"*{md(receipt_line(answer.receipt))}.*", ""]
    lines.append(f"*Answered by {md(answered_by(answer))}.*")
    return "\n".join(lines) + "\n"


def answered_by(answer: Answer) -> str:
    """Who wrote the answer: "model gemma-270m", "extractive (quoted from the abstracts)",
    or, when the model's answer failed the checks, "extractive, in place of model X's
    answer" (the Markdown copy had said "no model" then). A list, a count or a refusal is
    extractive with a model configured too (which may have rewritten the follow-up): "offline,
    no model" had read as the model not being connected (a run's)."""
    model = answer.model or "(unnamed)"
    if answer.mode == "llm":
        return f"model {model}"
    if answer.unchecked:
        return f"extractive, in place of model {model}'s answer"
    return "extractive (quoted from the abstracts)"


def render(answer: Answer, fmt: Format) -> str:
    """The answer in a non-streaming format: ``markdown``, ``bibtex`` or ``json``."""
    if fmt == "markdown":
        return to_markdown(answer)
    if fmt == "bibtex":
        return to_bibtex(answer)
    if fmt == "json":
        return json.dumps(answer.public_json(), ensure_ascii=False) + "\n"
    raise ValueError(f"no renderer for the format {fmt!r}; use one of {', '.join(FORMATS[1:])}")
