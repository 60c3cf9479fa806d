"""The MCP tools' descriptions read as written: Gradio builds each from its function's
docstring, taking one line per argument and joining the lines under "Returns:" with ", ", so
a bracket or a sentence broken across lines read "(its, quoted sentence" and "in_store,,
unconfirmed" to an MCP client (a hostile user's run)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from gradio import utils

from assistant.ui.ask_page import AskPage
from assistant.ui.corpus_page import CorpusPage
from assistant.ui.lists_page import ListsPage

TOOLS: list[Callable[..., Any]] = [AskPage.ask, AskPage.answer_with_references,
                                   AskPage.similar_papers, CorpusPage.search_abstracts,
                                   ListsPage.list_papers, ListsPage.topic_trends]


def balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, "{": 1, "[": 1, ")": -1, "}": -1, "]": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0 and text.count('"') % 2 == 0


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.__name__)
def test_each_line_gradio_reads_of_a_tool_stands_alone(tool: Callable[..., Any]) -> None:
    _, parameters, returns = utils.get_function_description(tool)
    assert returns and all(balanced(line) and not line.endswith(",") for line in returns)
    assert ",," not in ", ".join(returns)
    assert all(description and balanced(description)
               for name, description in parameters.items() if name != "self")
