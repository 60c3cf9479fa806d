"""An answer's downloads, for the Ask and Lists tabs: the answer as Markdown with its
references, and the papers it cites as BibTeX, written to a folder of their own under a
temporary folder that goes with the page (Gradio serves a copy from its cache)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
import weakref
from pathlib import Path

import gradio as gr

from assistant.references import to_bibtex, to_markdown
from assistant.types import Answer


class DownloadFolder:
    """Where a page writes its answers' downloads: one temporary folder, removed when the
    page is, holding a folder per answer."""

    def __init__(self, prefix: str = "assistant-downloads-") -> None:
        self.prefix = prefix
        self._root: Path | None = None

    def write(self, answer: Answer, name: str = "answer") -> tuple[Path, Path]:
        """``answer`` as ``<name>.md`` with its references, and its cited papers as
        ``references.bib``, in a new folder of their own."""
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix=self.prefix))
            weakref.finalize(self, shutil.rmtree, self._root, True)
        folder = self._root / uuid.uuid4().hex
        folder.mkdir()
        markdown, bib = folder / f"{name}.md", folder / "references.bib"
        markdown.write_text(to_markdown(answer), encoding="utf-8")
        bib.write_text(to_bibtex(answer) or "% This answer cites no source.\n", encoding="utf-8")
        return markdown, bib


def download_buttons(markdown: Path | None = None, bib: Path | None = None
                     ) -> tuple[gr.DownloadButton, gr.DownloadButton]:
    """The two buttons' updates: on with the files, off when there are none."""
    return (gr.DownloadButton(value=str(markdown) if markdown else None,
                              interactive=markdown is not None),
            gr.DownloadButton(value=str(bib) if bib else None, interactive=bib is not None))


def download_row(prefix: str = "download", what: str = "Answer"
                 ) -> tuple[gr.DownloadButton, gr.DownloadButton]:
    """A page's two download buttons, off until there is an answer (call inside a layout)."""
    with gr.Row():
        markdown = gr.DownloadButton(f"{what} as Markdown", size="sm", interactive=False,
                                     elem_id=f"{prefix}-markdown")
        bib = gr.DownloadButton("References as BibTeX", size="sm", interactive=False,
                                elem_id=f"{prefix}-bibtex")
    return markdown, bib
