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
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from assistant.corpus import Paper, skip_lines
from assistant.errors import BadInputError, redact
from assistant.references import (
    NEAREST_HEADING,
    UNCITED_NOTE,
    UNSURE_NOTE,
    answered_by,
    byline,
    derived_line,
    nearest_lines,
    noted_title,
    placed_note,
    receipt_line,
    title_note,
    unmentioned_note,
    unsupported_note,
)
from assistant.skipped import STORED_CHANGED
from assistant.types import Answer, Claim, SourceRef

if TYPE_CHECKING:  # the index (and Chroma) is not imported to render a summary
    from assistant.index import IngestReport
    from assistant.similar import SimilarResult

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
# Under each source: lists the papers most like it (static/ has no part in it: the Ask tab's
# results panel carries the click handler, which reads the locator from the source's <code>).
MORE_LIKE_THIS = ('<a href="#" class="more-like" title="list the papers most like this one">'
                  "More like this</a>")
CUT_OFF_NOTE = "The answer was cut off here; the sentences checked before it are shown."


def inert(text: str) -> str:
    """``text`` as characters only: no Markdown, HTML, image, link or formula can come of it
    (character by character: ``inert(a + b) == inert(a) + inert(b)``)."""
    return text.translate(_ENTITIES)


_BOLD_RE = re.compile(r"&#42;&#42;((?:(?!&#42;&#42;|<br>).)+?)&#42;&#42;")
_BULLET_RE = re.compile(r"(^|<br>)&#45; ")


def pretty(escaped: str) -> str:
    """Inert text with the formats answers use, ``**bold**``, ``- `` list lines and the
    comparison tables' ``| … |`` rows, shown again (as <b>, a bullet and an HTML table: none
    can load or link anything)."""
    return tables(_BULLET_RE.sub(r"\1• ", _BOLD_RE.sub(r"<b>\1</b>", escaped)))


_PIPE = "&#124;"
_RULE_CELL_RE = re.compile(r"(?:&#45;|&#58;|\s)+")


def tables(escaped: str) -> str:
    """Runs of inert ``| a | b |`` lines as an HTML table (the first row its header; the
    ``| --- |`` rule dropped). Cells are split at the escaped "|", which answers' cells never
    hold (compare.py leaves out sentences with one)."""
    lines = escaped.split("<br>")
    out: list[str] = []
    block: list[list[str]] = []

    def flush() -> None:
        if block:
            head, *body = block
            out.append('<table class="compare"><thead><tr>'
                       + "".join(f"<th>{c}</th>" for c in head) + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
                                 for row in body) + "</tbody></table>")
            block.clear()

    for line in lines:
        row = line.strip()
        if len(row) > 2 * len(_PIPE) and row.startswith(_PIPE) and row.endswith(_PIPE):
            cells = [c.strip() for c in row[len(_PIPE):-len(_PIPE)].split(_PIPE)]
            if not all(_RULE_CELL_RE.fullmatch(c) for c in cells):
                block.append(cells)
            continue
        flush()
        out.append(line)
    flush()
    return "<br>".join(out)


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
    who = answered_by(answer)
    total = answer.timings_ms.get("total")
    return f"{who}" + (f" · {total / 1000:.1f} s" if total else "")


def streamed(text: str) -> str:
    """The text of an answer still being written (redacted, inert, bold and bullets shown)."""
    return pretty(inert(redact(text).strip()))


UNSUPPORTED_TITLE = "not supported by the cited abstract"
_FLAG = "\ue000"  # stands for an unsupported-claim marker until the text is inert


def _flag_html(claim_cites: bool) -> str:
    title = UNSUPPORTED_TITLE if claim_cites else "cites no source"
    return f' <span class="unsupported" title="{title}">⚠</span>'


def flag_unsupported(text: str, claims: Iterable[Claim]) -> tuple[str, list[str]]:
    """``text`` with ``_FLAG`` after each claim that is not supported (found in order, any
    whitespace between its words), and the marker HTML for each flag placed."""
    text = text.replace(_FLAG, "")
    cursor = 0
    flags: list[str] = []
    for claim in claims:
        words = redact(claim.text).split()
        m = re.compile(r"\s+".join(map(re.escape, words))).search(text, cursor) if words else None
        if m is None:
            continue
        cursor = m.end()
        if not claim.supported:
            text = text[:cursor] + _FLAG + text[cursor:]
            cursor += len(_FLAG)
            flags.append(_flag_html(bool(claim.cites)))
    return text, flags


def answer_body(text: str, valid: set[int], claims: Sequence[Claim] = ()) -> str:
    """The inert answer text (redacted) with each ``[n]`` that names a source made a link,
    and a ⚠ after each sentence its cited abstracts do not support (``claims``)."""
    text, flags = flag_unsupported(redact(text), claims)
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
    body = pretty("".join(parts).strip())
    for flag in flags:
        body = body.replace(_FLAG, flag, 1)
    return body


def render_answer(answer: Answer, links_of: Callable[[str], Iterable[str]] | None = None,
                  total: int | None = None) -> str:
    """The chat message for a finished answer: text with clickable [n], notes, its sources
    (each opening to the abstract with the quoted sentences marked) and the mode; ``total``:
    the papers of the whole list or trend when ``answer`` holds the first of them only
    (``paging.paged``), so that the message says how many more there are and where."""
    claims = getattr(answer, "claims", [])
    parts = [answer_body(answer.answer.strip(), {s.n for s in answer.sources}, claims)]
    unchecked = getattr(answer, "unchecked", None)
    if unchecked:
        parts.append(f'<p class="note unchecked">⚠️ {html.escape(unchecked)}</p>')
        parts.append(model_reply_html(getattr(answer, "model_reply", None) or ""))
    elif getattr(answer, "uncited", False):
        parts.append(f'<p class="note uncited">⚠️ {UNCITED_NOTE}</p>')
    unsupported = sum(not c.supported for c in claims)
    if unsupported and not getattr(answer, "uncited", False):
        parts.append(f'<p class="note unsupported">⚠ {unsupported} of {len(claims)} '
                     f"sentence{'s' if len(claims) != 1 else ''} not supported by the cited "
                     "abstracts (marked ⚠).</p>")
    if placed := placed_note(answer):
        parts.append(f'<p class="note placed">{html.escape(placed)}</p>')
    if getattr(answer, "truncated", False):
        parts.append('<p class="note truncated">⚠️ The model reached its length limit; the '
                     "answer may be incomplete.</p>")
    if getattr(answer, "unmentioned", None):
        parts.append(f'<p class="note unmentioned">⚠ {html.escape(unmentioned_note(answer))}</p>')
    if getattr(answer, "unsure", False):
        parts.append(f'<p class="note unsure">⚠ {html.escape(UNSURE_NOTE)}</p>')
    if answer.dropped_citations:
        dropped = ", ".join(f"&#91;{n}&#93;" for n in answer.dropped_citations)
        parts.append(f'<p class="note">Removed citation(s) to sources that were not given: '
                     f"{dropped}</p>")
    if total is not None and total > len(answer.sources):
        parts.append(more_note(len(answer.sources), total))
    if answer.sources:
        parts.append(sources_html(answer, links_of, total))
    parts += receipt_html(answer)
    parts.append(f'<p class="mode">{html.escape(mode_line(answer))}</p>')  # our settings
    return "\n\n".join(parts)


def model_reply_html(reply: str) -> str:
    """The model's reply as it came, folded: kept for the reader, never shown as the answer
    (one line of HTML: no blank line can end the block early)."""
    escaped = html.escape(redact(reply.strip()) or "(empty)").replace("\n", "&#10;")
    return (f'<details class="model-reply"><summary>The model\'s reply, as it came</summary>'
            f"<pre>{escaped}</pre></details>")


def receipt_html(answer: Answer) -> list[str]:
    """A refusal's nearest papers with why each does not answer, then the one line of how
    much the answer looked at (titles and locators are untrusted: inert)."""
    receipt = getattr(answer, "receipt", None)
    if receipt is None:
        return []
    parts = []
    if receipt.nearest:
        items = "".join(f"<li>{inert(line)}</li>" for line in nearest_lines(receipt))
        parts.append(f'<div class="nearest"><p>{html.escape(NEAREST_HEADING)}</p>'
                     f"<ul>{items}</ul></div>")
    parts.append(f'<p class="receipt">{inert(receipt_line(receipt))}</p>')
    return parts


def more_note(shown: int, total: int) -> str:
    """Where the rest of a long list or trend is, under the first ``shown`` of its papers: the
    download holds them all; the Lists tab pages through the question asked there, not a
    chat's follow-up (a run's: "which of those are by Levine?" had pointed there)."""
    return (f'<p class="note more">Shown: the first {shown:,} of the {total:,} papers. All of '
            "them are in the download <b>Answer as Markdown</b> below; ask the question in the "
            "<b>Lists &amp; trends</b> tab to page through them.</p>")


def sources_html(answer: Answer, links_of: Callable[[str], Iterable[str]] | None = None,
                 total: int | None = None) -> str:
    """The collapsible source list under an answer (one line of HTML: no blank line can end
    the block early); ``total`` as ``render_answer``'s."""
    cited = {c.n: c for c in answer.citations}
    items = []
    for s in answer.sources:
        citation = cited.get(s.n)
        abstract = (highlight(citation.text, citation.highlights) if citation
                    else "<i>Retrieved, not cited.</i>")
        link_html = links_html(links_of(s.paper_id)) if links_of else ""
        mark = "cited" if citation else "not cited"
        known = byline(s)  # venue, year and authors, when the input gave them
        items.append(
            f'<details class="source"><summary>[{s.n}] '
            f"<b>{inert(s.title)}</b>{_title_note_html(s.title_derived, s.title_model)} · "
            + (f'<span class="byline">{inert(known)}</span> · ' if known else "")
            + f"<code>{inert(s.source)}</code> · "
            f"score {s.score:.2f} · {mark}</summary><p>{abstract}</p>"
            + (f"<p>{link_html}</p>" if link_html else "") + f"<p>{MORE_LIKE_THIS}</p></details>"
        )
    counted = (f"the first {len(answer.sources):,} of {total:,}"
               if total is not None and total > len(answer.sources)
               else f"{len(cited)} cited of {len(answer.sources)}")
    untitled = derived_line(answer.sources)
    return (f'<details class="sources"><summary>Sources ({counted})</summary>'
            f"{''.join(items)}" + (f'<p class="note">{inert(untitled)}</p>' if untitled else "")
            + "</details>")


def _title_note_html(title_derived: bool, title_model: str) -> str:
    """A model's title marked as such, after the title (a derived one stays bare, as
    source lists have always shown it)."""
    note = title_note(False, title_model) if title_derived else ""
    return f' <span class="title-note">({inert(note)})</span>' if note else ""


def similar_html(result: SimilarResult) -> str:
    """The "More like this" panel: what was asked, then each related paper (score, title,
    byline, locator), each with its own "More like this"; every text inert."""
    asked = (f"<b>{inert(result.paper.title)}</b> <code>{inert(result.paper.source)}</code>"
             if result.paper else f"“{inert(result.query)}”")
    rows = []
    for r in result.results:
        known = byline(SourceRef.of(0, r.paper, r.score))
        rows.append(f'<li class="similar">{r.score:.2f} · <b>{inert(r.paper.title)}</b> · '
                    + (f'<span class="byline">{inert(known)}</span> · ' if known else "")
                    + f"<code>{inert(r.paper.source)}</code> · {MORE_LIKE_THIS}</li>")
    found = f"<ol>{''.join(rows)}</ol>" if rows else "<p>No other paper is stored.</p>"
    return f'<div class="similar-papers"><p>Papers like {asked}:</p>{found}</div>'


def similar_error(exc: Exception) -> str:
    """A "More like this" that failed (an unknown locator): one readable line."""
    return f'<p class="note error">⚠️ {inert(redact(str(exc)))}</p>'


def render_error(exc: Exception) -> str:
    """A failed answer: one readable line (secrets redacted) and, when the stream broke
    after some text, that text marked as cut off. Bad input (BadInputError) names its fix in
    its own line, and is no fault to wait out (a run's: "list them" as a first message had
    read "ask again when it is fixed")."""
    reason = redact(str(exc)).rstrip(".")
    after = "" if isinstance(exc, BadInputError) else "; ask again when it is fixed"  # its line says
    parts = [f'<p class="note error">⚠️ No answer: {inert(reason)}. The conversation is kept{after}.</p>']
    partial = str(getattr(exc, "partial", "") or "").strip()
    if partial:
        parts.append(f'<div class="cut-off"><p><b>{CUT_OFF_NOTE}</b></p>'
                     f"<p>{inert(redact(partial))} <b>[cut off]</b></p></div>")
    return "\n\n".join(parts)


def answer_as_markdown(answer: Answer) -> str:
    """The answer with a reference list, for pasting into notes (shown in a plain text box)."""
    lines = [answer.answer.strip(), ""]
    if getattr(answer, "unchecked", None):
        lines += [f"({answer.unchecked})", ""]
    elif getattr(answer, "uncited", False):
        lines += [f"({UNCITED_NOTE})", ""]
    if getattr(answer, "unmentioned", None):
        lines += [f"({unmentioned_note(answer)})", ""]
    if getattr(answer, "unsure", False):
        lines += [f"({UNSURE_NOTE})", ""]
    if unsupported := unsupported_note(answer):
        lines += [f"({unsupported})", ""]
    if answer.citations:
        lines.append("References:")
        by_n = {s.n: s for s in answer.sources}
        for c in answer.citations:
            title = noted_title(by_n[c.n], derived=False) if c.n in by_n else c.title
            lines.append(f"[{c.n}] {title}. {c.source}.")
    receipt = getattr(answer, "receipt", None)
    if receipt is not None:
        if receipt.nearest:
            lines += ["", NEAREST_HEADING, *(f"- {line}" for line in nearest_lines(receipt))]
        lines.append(f"\n({receipt_line(receipt)})")
    lines.append(f"\n({mode_line(answer)})")
    return redact("\n".join(lines).strip())


def render_paper(paper: Paper) -> str:
    """One abstract for the corpus tab: title, locator, authors, text, its own links."""
    links = links_html(own_links(paper))
    authors = f"<p><i>{inert(paper.authors)}</i></p>" if paper.authors else ""
    return (f"<h3>{inert(paper.title)}{_title_note_html(paper.title_derived, paper.title_model)}"
            f"</h3><p><code>{inert(paper.source)}</code></p>"
            f"{authors}<p>{inert(paper.text)}</p>" + (f"<p>{links}</p>" if links else ""))


def upload_summary(report: IngestReport) -> str:
    """The Markdown summary after an upload: every count, then one line per skipped input or
    kept paper (file names and reasons are untrusted text)."""
    skipped = [s for s in report.skipped if not s.stored]
    lines = [f"**{report.added}** added, **{report.replaced}** replaced, **{report.removed}** "
             f"removed, **{report.moved}** moved, **{report.unchanged}** already there, "
             f"**{len(skipped)}** skipped ({report.seconds:.1f} s). The corpus now holds "
             f"{report.papers_total} papers."]
    lines += [f"- skipped {inert(redact(line))}" for line in skip_lines(skipped)]
    lines += [f"- stored {inert(redact(line))}"
              for line in skip_lines((s for s in report.skipped if s.stored), done=STORED_CHANGED)]
    lines += [f"- {inert(redact(str(k)))}" for k in getattr(report, "kept", [])]
    return "\n".join(lines)
