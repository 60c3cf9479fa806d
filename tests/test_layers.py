"""Imports point one way: settings → corpus → store → keyword index → ingest → index →
retrieval → answering → pipeline → cli/ui/evals, with no cycle (function-level imports
included), and the core types stay light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from assistant.settings import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "assistant"
# Lower layers never import higher ones; a module may import its own layer, without cycles.
LAYERS: list[set[str]] = [
    {"assistant", "assistant.offline", "assistant.errors", "assistant.imports", "assistant.tuning",
     "assistant.american"},
    {"assistant.settings", "assistant.console"},
    {"assistant.paper", "assistant.skipped", "assistant.left_out", "assistant.venues",
     "assistant.derived_titles", "assistant.file_formats", "assistant.reading",
     "assistant.authors"},
    {"assistant.corpus", "assistant.types", "assistant.keywords", "assistant.sync",
     "assistant.naming", "assistant.leaning", "assistant.intent", "assistant.exclusions", "assistant.asides",
     "assistant.framing",
     "assistant.stated", "assistant.chunks",
     "assistant.word_runs", "assistant.respelling", "assistant.count_comparison",
     "assistant.written_forms", "assistant.word_families", "assistant.term_lookups",
     "assistant.stated_years", "assistant.number_places", "assistant.trend_questions",
     "assistant.count_lines", "assistant.list_records"},
    {"assistant.embedding", "assistant.reranking"},
    {"assistant.store"},
    {"assistant.keyword_index", "assistant.catalog", "assistant.dense", "assistant.chunking"},
    {"assistant.ingest"},
    {"assistant.index"},
    {"assistant.ranking", "assistant.candidates", "assistant.refusals", "assistant.retrieval",
     "assistant.name_checks", "assistant.filters", "assistant.similar", "assistant.topics",
     "assistant.readings", "assistant.facets", "assistant.listing", "assistant.list_lines",
     "assistant.paper_order", "assistant.follow_up_phrases", "assistant.places", "assistant.subjects",
     "assistant.acronyms"},
    {"assistant.answering", "assistant.claims", "assistant.chat_prompt", "assistant.generation",
     "assistant.extractive", "assistant.references", "assistant.compare", "assistant.trends",
     "assistant.compared_counts", "assistant.or_counts", "assistant.store_answers",
     "assistant.citesafe", "assistant.quoted_answers", "assistant.sentences", "assistant.titles",
     "assistant.topic_input", "assistant.topic_shares", "assistant.counted_topics",
     "assistant.trend_replies", "assistant.windowed", "assistant.refusal_text"},
    {"assistant.pipeline", "assistant.list_answers", "assistant.follow_ups", "assistant.narrowing"},
    {"assistant.ui", "assistant.evals"},
    {"assistant.printing"},
    {"assistant.cli"},
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    for depth in range(module.count(".") + 1, 0, -1):  # assistant.ui.render → assistant.ui
        prefix = ".".join(module.split(".")[:depth])
        for i, layer in enumerate(LAYERS):
            if prefix in layer:
                return i
    raise AssertionError(f"{module} is in no layer of tests/test_layers.py; add it where it belongs")


def imports_of(path: Path) -> set[str]:
    """Every assistant.* module this file imports, at any depth, TYPE_CHECKING blocks aside."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("assistant"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("assistant"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if (PACKAGE.parent / f"{node.module}.{a.name}".replace(".", "/")).exists()
                         or (PACKAGE.parent / (f"{node.module}.{a.name}".replace(".", "/") + ".py")).exists())
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports_of(path) if m != name} for name, path in modules.items()}


def test_every_import_points_down_or_sideways() -> None:
    upward = [f"{mod} (layer {layer_of(mod)}) imports {dep} (layer {layer_of(dep)})"
              for mod, deps in graph().items() for dep in deps
              if layer_of(dep) > layer_of(mod) and not mod.startswith(dep + ".")]
    assert upward == []


def test_the_import_graph_has_no_cycle() -> None:
    edges = graph()
    # A package's __init__ re-exporting its submodules is not a cycle of roles.
    edges = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in edges.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        for dep in sorted(edges.get(node, ())):
            if state.get(dep) == 1:
                cycles.append(stack[stack.index(dep):] + [dep] if dep in stack else [node, dep])
            elif dep not in state:
                walk(dep, [*stack, dep])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node, [node])
    assert cycles == []


def test_core_types_import_no_storage_or_ui() -> None:
    code = ("import sys, assistant.types, assistant.answering; "
            "heavy = [m for m in ('chromadb', 'llama_index.core', 'gradio', 'bm25s', 'onnxruntime') "
            "if m in sys.modules]; print(heavy)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=PROJECT_ROOT)
    assert result.stdout.strip() == "[]"
