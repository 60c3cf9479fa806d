"""Rooms a reader can hold in their head: no module over ~500 lines, no class over ~300, no
function over ~60 (the team's rules, issue 35), measured with ``ast``. Each exception that
remains is listed below with why it stays; a new one fails until it is split or listed."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from assistant.settings import PROJECT_ROOT

MAX_LINES = {"module": 500, "class": 300, "function": 60}
CHECKED = ("assistant", "tests", "bench")

# (kind, file, name) → why it is allowed to be longer. The package itself has none.
ALLOWED: dict[tuple[str, str, str], str] = {
    # A bench script's main() is the measurement's procedure read top to bottom; its figures
    # are in bench/results/ and splitting it without rerunning the bench (hours on the 13.9k)
    # could change what it measures unnoticed.
    **{("function", f"bench/{script}.py", "main"): "a bench's procedure" for script in (
        "calibrate_abstention", "cross_encoder", "ingest", "latency", "query_adapter",
        "spelling_variants", "train_ranker")},
    # The scripted servers' request handlers are classes defined inside __init__, so that
    # each scripted case closes over the server's script; the length is the list of cases.
    ("function", "tests/fake_openai.py", "FakeOpenAI.__init__"): "the scripted cases",
    ("function", "tests/fake_openai.py", "FaultyOpenAI.__init__"): "the scripted faults",
    # Test files, one per surface, whose tests share module-level helpers and fixtures:
    # model mode over the scripted server, the served UI, the eval runner.
    ("module", "tests/test_generation.py", ""): "model mode's tests share their fixtures",
    ("module", "tests/test_ui.py", ""): "the served UI's tests share one server",
    ("module", "tests/test_evals.py", ""): "the eval runner's tests share its runs",
    # One scenario: a store built so the joint reading doubts a paper, then its answer read.
    ("function", "tests/test_reranking.py",
     "test_an_answer_under_the_joint_readings_doubt_level_is_marked_unsure"): "one scenario",
}


def lines_of(node: ast.AST) -> int:
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return node.end_lineno - start + 1  # type: ignore[attr-defined, operator]


def oversized(path: Path, root: Path = PROJECT_ROOT) -> list[tuple[str, str, str, int]]:
    """(kind, file under ``root``, qualified name, lines) of each part of ``path`` over its
    limit."""
    source = path.read_text()
    name = path.relative_to(root).as_posix()
    found = []
    if len(source.splitlines()) > MAX_LINES["module"]:
        found.append(("module", name, "", len(source.splitlines())))

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "class" if isinstance(child, ast.ClassDef) else "function"
                qualified = f"{prefix}{child.name}"
                if lines_of(child) > MAX_LINES[kind]:
                    found.append((kind, name, qualified, lines_of(child)))
                visit(child, f"{qualified}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


@cache
def every_oversized() -> list[tuple[str, str, str, int]]:
    return [part for folder in CHECKED for path in sorted((PROJECT_ROOT / folder).rglob("*.py"))
            for part in oversized(path)]


def test_no_module_class_or_function_is_over_its_limit_unless_listed() -> None:
    over = [f"{kind} {name} {qualified} ({lines} lines, limit {MAX_LINES[kind]})"
            for kind, name, qualified, lines in every_oversized()
            if (kind, name, qualified) not in ALLOWED]
    assert over == [], "split these, or list them in ALLOWED with why they stay"


def test_every_listed_exception_still_exists() -> None:
    """An exception that was split leaves the list, so the list stays the true remainder."""
    current = {(kind, name, qualified) for kind, name, qualified, _ in every_oversized()}
    assert sorted(set(ALLOWED) - current) == []


def test_the_check_measures_nested_parts_with_their_decorators(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    body = "        x = 1\n" * 58
    probe.write_text(f"class Room:\n    @staticmethod\n    def method() -> None:\n{body}")
    assert oversized(probe, tmp_path) == []  # 60 lines with its decorator: at the limit
    probe.write_text(f"class Room:\n    @staticmethod\n    def method() -> None:\n{body}        y = 2\n")
    assert oversized(probe, tmp_path) == [("function", "probe.py", "Room.method", 61)]
