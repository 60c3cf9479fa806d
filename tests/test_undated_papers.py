"""A range of years leaves out every stored paper of no year; a list or count under one says
how many (R11: "How many papers on Boltzmann machines since 2010?" had said 0 of a store
whose 25 papers on them are all undated, and nothing of them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_settings, seeds_with
from test_cli import run
from test_follow_ups import CAPSULES

from assistant.answering import final_answer
from assistant.pipeline import Assistant


@pytest.fixture(scope="module")
def undated_dir(seed_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds (of 2025) and four capsule-network papers with no year."""
    rows = [(title, text) for _, title, text in CAPSULES]
    return seeds_with(seed_dir, tmp_path_factory, "undated", rows, ("title", "abstract"))


@pytest.fixture(scope="module")
def undated(undated_dir: Path) -> Assistant:
    return Assistant(make_settings(undated_dir))


@pytest.mark.parametrize("question", ["How many papers on capsule networks since 2020?",
                                      "Which papers on capsule networks were published after 2020?"])
def test_a_range_of_years_says_how_many_undated_papers_it_leaves_out(undated: Assistant,
                                                                     question: str) -> None:
    answer = final_answer(undated.answer_stream(question)).answer
    assert ("4 stored papers writing “capsule networks” have no year, so no range of years holds "
            "them; ask without the years to include them.") in answer.splitlines()[:3]
    unfiltered = final_answer(undated.answer_stream("How many papers on capsule networks?")).answer
    assert "no range of years holds them" not in unfiltered
    # C65: undated papers on another topic are none of its (all 4 had been said of any topic)
    other = final_answer(undated.answer_stream(question.replace("capsule networks", "diffusion models")))
    assert "no range of years holds them" not in other.answer


def test_trends_under_a_range_says_so_too(undated_dir: Path, tmp_path: Path) -> None:
    """C65: `trends --year …` had said "0 papers of the 38" and nothing of the undated ones."""
    for args in (["capsule networks", "--year", "2020-"], ["capsule networks since 2020"]):  # C66
        shown = run("trends", *args, "--data-dir", str(undated_dir), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert "4 stored papers writing “capsule networks” have no year" in shown.stdout, args
