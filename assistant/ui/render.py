"""Pure HTML rendering for the chat and the corpus view: data in, markup out, no Gradio.

Abstracts, titles, locators (an upload's file name) and model answers are untrusted. The chat
renders Markdown and then HTML, so HTML-escaping alone is not enough: ``![d](http://host/x.png)``
survives it and makes the browser fetch the image. ``inert`` therefore writes every character
that Markdown, HTML or an auto-linker could read as syntax as a numeric character reference:
the browser shows the character, but no parser sees markup in it, in a Markdown paragraph and
inside an HTML block alike. Links come only from a paper's own link fields (``links_html``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from assistant.corpus import Paper
from assistant.errors import redact
from assistant.types import Answer

if TYPE_CHECKING:  # the index (and Chroma) is not imported to render a summary
    from assistant.index import IngestReport

# Markdown/HTML syntax, GFM auto-link triggers (":" of http:, "." of www., "@" of e-mail) and
# KaTeX's "$". Letters, digits, spaces, "?", ",", ";", "/" and "%" stay as they are.
_SYNTAX = "&<>\"'\\`*_{}[]()#+-.!|~:@$=^"
_ENTITIES = {ord(c): f"&#{ord(c)};" for c in _SYNTAX} | {
    ord("\n"): "<br>",  # no line break can start a code block, a list or end an HTML block
    ord("\r"): "",
    ord("\t"): " ",
}
MARKER_RE = re.compile(r"\[(\d+)\]")
URL_OK_RE = re.compile(r"https?://[^\s\"'<>`]+")
UNCITED_NOTE = "This answer cites no source; treat it as unchecked."
CUT_OFF_NOTE = "The answer was cut off here; what arrived is shown unchecked."


def inert(text: str) -> str:
    """``text`` as characters only: no Markdown, HTML, image, link or formula can come of it
    (character by character: ``inert(a + b) == inert(a) + inert(b)``)."""
    return text.translate(_ENTITIES)


_BOLD_RE = re.compile(r"&#42;&#42;((?:(?!&#42;&#42;|<br>).)+?)&#42;&#42;")
_BULLET_RE = re.compile(r"(^|<br>)&#45; ")


def pretty(escaped: str) -> str:
    """Inert text with the two formats answers use, ``**bold**`` and ``- `` list lines, shown
    again (as <b> and a bullet: neither can load or link anything)."""
    return _BULLET_RE.sub(r"\1• ", _BOLD_RE.sub(r"<b>\1</b>", escaped))


def highlight(text: str, sentences: Iterable[str]) -> str:
    """The inert abstract with each quoted sentence in ``<mark>``."""
    escaped = inert(text)
    for sentence in sentences:
        quoted = inert(sentence)
        if quoted and quoted in escaped:
            escaped = escaped.replace(quoted, f"<mark>{quoted}</mark>", 1)
    return escaped


def links_html(urls: Iterable[str]) -> str:
    """A paper's own links, opening in a new tab without a referrer or an opener; anything
    but a plain http(s) URL is left out."""
    return " ".join(
        f'<a href="{html.escape(u, quote=True)}" target="_blank" rel="noopener noreferrer">'
        f"{inert(u)}</a>"
        for u in urls if URL_OK_RE.fullmatch(u))


def own_links(paper: Paper) -> tuple[str, ...]:
    """The links of a paper's own link field. ``Paper.links`` also holds addresses found in
    the abstract's text; those are untrusted text like the rest of it and stay unlinked."""
    return tuple(u for u in paper.links if u not in paper.text)


def mode_line(answer: Answer) -> str:
    who = f"model {answer.model}" if answer.mode == "llm" else "extractive (offline, no model)"
    total = answer.timings_ms.get("total")
    return f"{who}" + (f" · {total / 1000:.1f} s" if total else "")


def streamed(text: str) -> str:
    """The text of an answer still being written (redacted, inert, bold and bullets shown)."""
    return pretty(inert(redact(text).strip()))


def answer_body(text: str, valid: set[int]) -> str:
    """The inert answer text (redacted) with each ``[n]`` that names a source made a link."""
    text = redact(text)
    parts: list[str] = []
    last = 0
    for m in MARKER_RE.finditer(text):
        n = int(m.group(1))
        if n not in valid:
            continue
        parts.append(inert(text[last:m.start()]))
        parts.append(f'<a href="#" class="cite" title="open source {n}">[{n}]</a>')
        last = m.end()
    parts.append(inert(text[last:]))
    return pretty("".join(parts).strip())


def render_answer(answer: Answer, links_of: Callable[[str], Iterable[str]] | None = None) -> str:
    """The chat message for a finished answer: text with clickable [n], notes, its sources
    (each opening to the abstract with the quoted sentences marked) and the mode."""
    parts = [answer_body(answer.answer.strip(), {s.n for s in answer.sources})]
    if getattr(answer, "uncited", False):
        parts.append(f'<p class="note uncited">⚠️ {UNCITED_NOTE}</p>')
    if getattr(answer, "truncated", False):
        parts.append('<p class="note truncated">⚠️ The model reached its length limit; the '
                     "answer may be incomplete.</p>")
    if answer.dropped_citations:
        dropped = ", ".join(f"&#91;{n}&#93;" for n in answer.dropped_citations)
        parts.append(f'<p class="note">Removed citation(s) to sources that were not given: '
                     f"{dropped}</p>")
    if answer.sources:
        parts.append(sources_html(answer, links_of))
    parts.append(f'<p class="mode">{html.escape(mode_line(answer))}</p>')  # our settings
    return "\n\n".join(parts)


def sources_html(answer: Answer, links_of: Callable[[str], Iterable[str]] | None = None) -> str:
    """The collapsible source list under an answer (one line of HTML: no blank line can end
    the block early)."""
    cited = {c.n: c for c in answer.citations}
    items = []
    for s in answer.sources:
        citation = cited.get(s.n)
        abstract = (highlight(citation.text, citation.highlights) if citation
                    else "<i>Retrieved, not cited.</i>")
        link_html = links_html(links_of(s.paper_id)) if links_of else ""
        mark = "cited" if citation else "not cited"
        items.append(
            f'<details class="source"><summary>[{s.n}] '
            f"<b>{inert(s.title)}</b> · <code>{inert(s.source)}</code> · "
            f"score {s.score:.2f} · {mark}</summary><p>{abstract}</p>"
            + (f"<p>{link_html}</p>" if link_html else "") + "</details>"
        )
    return (f'<details class="sources"><summary>Sources ({len(cited)} cited of '
            f"{len(answer.sources)})</summary>{''.join(items)}</details>")


def render_error(exc: Exception) -> str:
    """A failed answer: one readable line (secrets redacted) and, when the stream broke
    after some text, that text marked as cut off."""
    reason = redact(str(exc)).rstrip(".")
    parts = [f'<p class="note error">⚠️ No answer: {inert(reason)}. The conversation is kept; '
             "ask again when it is fixed.</p>"]
    partial = str(getattr(exc, "partial", "") or "").strip()
    if partial:
        parts.append(f'<div class="cut-off"><p><b>{CUT_OFF_NOTE}</b></p>'
                     f"<p>{inert(redact(partial))} <b>[cut off]</b></p></div>")
    return "\n\n".join(parts)


def answer_as_markdown(answer: Answer) -> str:
    """The answer with a reference list, for pasting into notes (shown in a plain text box)."""
    lines = [answer.answer.strip(), ""]
    if getattr(answer, "uncited", False):
        lines += [f"({UNCITED_NOTE})", ""]
    if answer.citations:
        lines.append("References:")
        for c in answer.citations:
            lines.append(f"[{c.n}] {c.title}. {c.source}.")
    lines.append(f"\n({mode_line(answer)})")
    return redact("\n".join(lines).strip())


def render_paper(paper: Paper) -> str:
    """One abstract for the corpus tab: title, locator, authors, text, its own links."""
    links = links_html(own_links(paper))
    authors = f"<p><i>{inert(paper.authors)}</i></p>" if paper.authors else ""
    return (f"<h3>{inert(paper.title)}</h3><p><code>{inert(paper.source)}</code></p>"
            f"{authors}<p>{inert(paper.text)}</p>" + (f"<p>{links}</p>" if links else ""))


def upload_summary(report: IngestReport) -> str:
    """The Markdown summary after an upload: every count, then one line per skipped input or
    kept paper (file names and reasons are untrusted text)."""
    lines = [f"**{report.added}** added, **{report.replaced}** replaced, **{report.removed}** "
             f"removed, **{report.moved}** moved, **{report.unchanged}** already there, "
             f"**{len(report.skipped)}** skipped ({report.seconds:.1f} s). The corpus now holds "
             f"{report.papers_total} papers."]
    lines += [f"- skipped {inert(redact(str(s)))}" for s in report.skipped]
    lines += [f"- {inert(redact(str(k)))}" for k in getattr(report, "kept", [])]
    return "\n".join(lines)
