"""Docs that cannot drift: the README's settings table and `.env.example` name exactly the
settings that exist, and the README's commands and options are those `assistant --help` shows."""

from __future__ import annotations

import re

import pytest
from typer.main import get_command

from assistant.cli import app
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, Settings

README = (PROJECT_ROOT / "README.md").read_text()
ENV_EXAMPLE = (PROJECT_ROOT / ".env.example").read_text()


def settings_variables() -> set[str]:
    names = set()
    for group, field in Settings.model_fields.items():
        sub = field.annotation
        assert sub is not None and hasattr(sub, "model_fields"), group
        names.update(f"ASSISTANT_{group}_{name}".upper() for name in sub.model_fields)
    return names


def readme_settings_table() -> set[str]:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(ASSISTANT_[A-Z0-9_]+)` \|", section, re.M))


def test_readme_settings_table_lists_every_setting_and_no_other() -> None:
    documented, real = readme_settings_table(), settings_variables()
    assert sorted(real - documented) == [], "settings missing from the README table"
    assert sorted(documented - real) == [], "README rows for settings that do not exist"


def test_env_example_lists_every_setting_and_no_other() -> None:
    documented = set(re.findall(r"^#?\s*(ASSISTANT_[A-Z0-9_]+)=", ENV_EXAMPLE, re.M))
    real = settings_variables()
    assert sorted(real - documented) == [], "settings missing from .env.example"
    assert sorted(documented - real) == [], ".env.example names settings that do not exist"


CLI = get_command(app)
README_COMMANDS = re.findall(r"(?:^|\s)(?:\.venv/bin/)?assistant ([a-z]+)([^\n`#]*)", README)


def test_readme_names_every_command_and_only_real_ones() -> None:
    used = {name for name, _ in README_COMMANDS}
    real = set(CLI.commands)  # type: ignore[attr-defined]
    assert sorted(used - real) == [], "README uses commands that do not exist"
    assert sorted(real - used) == [], "commands the README never shows"


@pytest.mark.parametrize(("command", "rest"), README_COMMANDS, ids=[c for c, _ in README_COMMANDS])
def test_readme_options_exist(command: str, rest: str) -> None:
    options = {opt for param in CLI.commands[command].params  # type: ignore[attr-defined]
               for opt in [*param.opts, *param.secondary_opts]}
    used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest))
    assert sorted(used - options) == [], f"`assistant {command}` has no such option"


def test_every_question_the_readme_asks_gets_a_cited_answer(seed_assistant: Assistant) -> None:
    """The README's first command (and each `assistant ask "…"` after it) shows an answer a
    newcomer can check, not a refusal: a garbled question there went unnoticed once."""
    questions = re.findall(r'assistant ask (?:--[\w-]+ (?:\S+ )?)*"([^"]+)"', README)
    assert questions, "the README asks no question"
    for question in dict.fromkeys(questions):
        answer = seed_assistant.ask(question)
        assert answer.citations, f"README question {question!r} gets no cited answer"
