"""A question naming a paper by its authors ("Krizhevsky et al.'s network") is asked of
their paper: R12's "What was the top-5 error of Krizhevsky et al.'s deep convolutional
network on ImageNet?" had been refused, "No indexed abstract mentions “Krizhevsky”", with
his paper the second nearest."""

from __future__ import annotations

from pathlib import Path

from conftest import make_settings
from test_authors import answer_of
from test_left_out import write_papers

from assistant.pipeline import Assistant


def test_a_name_of_a_found_papers_author_is_no_unknown_name(fresh_copy: Path, tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    write_papers(path, 4, [])
    app = Assistant(make_settings(fresh_copy))
    assert app.ingest([path]).added == 4
    asked = "What was the prediction of {} et al.'s kernel method about wombat burrows?"
    theirs = answer_of(app, asked.format("Schölkopf"))
    assert [s.title for s in theirs.sources][:1] == ["Kernel Burrows"], theirs.answer
    assert "mentions" not in theirs.answer
    # a name no stored paper is by, nor any abstract writes, is still refused for it
    nobody = answer_of(app, asked.format("Smithers"))
    assert nobody.sources == [] and "No indexed abstract mentions “Smithers”" in nobody.answer
    # C68: a name in another case than the author's ("SRA" of Suvrit Sra's), or a given
    # name, is no author's: "the SRA optimizer" had been answered from his paper
    for other in ("SCHÖLKOPF", "Bernhard"):
        refused = answer_of(app, asked.format(other))
        assert refused.sources == [] and f"No indexed abstract mentions “{other}”" in refused.answer
