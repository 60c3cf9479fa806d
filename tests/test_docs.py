"""Docs that cannot drift: docs/configuration.md and `.env.example` name exactly the settings
that exist; docs/usage.md documents every command `assistant --help` shows with exactly its
options, and the `--json` keys; the README's commands and options are real, its questions get
cited answers, it links every docs page and stays short; docs/architecture.md describes every
module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.main import get_command

from assistant.cli import app
from assistant.pipeline import Assistant
from assistant.settings import PROJECT_ROOT, Settings
from assistant.types import PUBLIC_JSON_KEYS

README = (PROJECT_ROOT / "README.md").read_text()
DOCS = PROJECT_ROOT / "docs"
CONFIGURATION = (DOCS / "configuration.md").read_text()
USAGE = (DOCS / "usage.md").read_text()
ENV_EXAMPLE = (PROJECT_ROOT / ".env.example").read_text()
README_MAX_BYTES = 15_000  # a user reads it in minutes; depth goes to docs/

CLI = get_command(app)
COMMANDS: dict = CLI.commands  # type: ignore[attr-defined]


def settings_variables() -> set[str]:
    names = set()
    for group, field in Settings.model_fields.items():
        sub = field.annotation
        assert sub is not None and hasattr(sub, "model_fields"), group
        names.update(f"ASSISTANT_{group}_{name}".upper() for name in sub.model_fields)
    return names


def table_keys(text: str, pattern: str = r"`(ASSISTANT_[A-Z0-9_]+)`") -> set[str]:
    """What the first cell of each Markdown table row of ``text`` names."""
    return {key for row in re.findall(r"^\| ([^|\n]+) \|", text, re.M)
            for key in re.findall(pattern, row)}


def test_configuration_lists_every_setting_and_no_other() -> None:
    documented, real = table_keys(CONFIGURATION), settings_variables()
    assert sorted(real - documented) == [], "settings missing from docs/configuration.md"
    assert sorted(documented - real) == [], "docs/configuration.md rows for settings that do not exist"


def test_env_example_lists_every_setting_and_no_other() -> None:
    documented = set(re.findall(r"^#?\s*(ASSISTANT_[A-Z0-9_]+)=", ENV_EXAMPLE, re.M))
    real = settings_variables()
    assert sorted(real - documented) == [], "settings missing from .env.example"
    assert sorted(documented - real) == [], ".env.example names settings that do not exist"


def usage_sections() -> dict[str, str]:
    """docs/usage.md's section of each command: `## \\`assistant NAME\\`` up to the next `## `."""
    parts = re.split(r"^## ", USAGE, flags=re.M)
    return {m.group(1): part for part in parts if (m := re.match(r"`assistant ([a-z-]+)`\n", part))}


def test_usage_has_a_section_for_every_command_and_no_other() -> None:
    documented, real = set(usage_sections()), set(COMMANDS)
    assert sorted(real - documented) == [], "commands without a section in docs/usage.md"
    assert sorted(documented - real) == [], "docs/usage.md sections for commands that do not exist"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_usage_tables_every_option_of_a_command_and_no_other(command: str) -> None:
    section = usage_sections().get(command, "")
    documented = table_keys(section, r"`(--?[a-z][a-z0-9-]*)`")
    real = {opt for param in COMMANDS[command].params for opt in [*param.opts, *param.secondary_opts]
            if opt.startswith("-")} - {"--help"}
    assert sorted(real - documented) == [], f"options of `assistant {command}` missing from docs/usage.md"
    assert sorted(documented - real) == [], f"docs/usage.md rows for options `assistant {command}` lacks"


def test_usage_tables_every_json_key_of_ask() -> None:
    section = USAGE.split("## The `--json` object", 1)[1].split("\n## ", 1)[0]
    documented = table_keys(section, r"`([a-z_]+)`")
    assert sorted(PUBLIC_JSON_KEYS - documented) == [], "--json keys missing from docs/usage.md"
    assert sorted(documented - PUBLIC_JSON_KEYS) == [], "docs/usage.md names --json keys that do not exist"


def shown_commands(text: str) -> list[tuple[str, str]]:
    """Each `assistant NAME …` a page shows: the command and the rest of its line."""
    return re.findall(r"(?:^|\s)(?:\.venv/bin/)?assistant ([a-z]+)([^\n`#]*)", text)


SHOWN = [(page, command, rest) for page, text in (("README.md", README), ("docs/usage.md", USAGE))
         for command, rest in shown_commands(text)]


def test_the_pages_show_only_real_commands_and_usage_shows_each() -> None:
    for page, text in (("README.md", README), ("docs/usage.md", USAGE)):
        used = {name for name, _ in shown_commands(text)}
        assert sorted(used - set(COMMANDS)) == [], f"{page} uses commands that do not exist"
    assert sorted(set(COMMANDS) - {name for name, _ in shown_commands(USAGE)}) == [], \
        "commands docs/usage.md never shows"


@pytest.mark.parametrize(("page", "command", "rest"), SHOWN,
                         ids=[f"{page}:{command}" for page, command, _ in SHOWN])
def test_shown_options_exist(page: str, command: str, rest: str) -> None:
    options = {opt for param in COMMANDS[command].params for opt in [*param.opts, *param.secondary_opts]}
    used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest))
    assert sorted(used - options) == [], f"{page}: `assistant {command}` has no such option"


def test_readme_links_every_docs_page_and_stays_short() -> None:
    linked = {Path(link).name for link in re.findall(r"\]\(docs/([\w-]+\.md)", README)}
    pages = {page.name for page in DOCS.glob("*.md")}
    assert sorted(pages - linked) == [], "docs pages the README does not link"
    assert len(README.encode()) <= README_MAX_BYTES, "README.md over 15 KB: move depth to docs/"


def test_architecture_gives_every_module_its_role_and_names_only_real_ones() -> None:
    """docs/architecture.md's module table has a row for each module of the package's top
    level (a new room is described where a newcomer looks), and names no module that is gone."""
    modules = {path.name for path in (PROJECT_ROOT / "assistant").glob("*.py")} - {"__init__.py"}
    rows = table_keys((DOCS / "architecture.md").read_text(), r"`(\w+\.py)`")
    assert sorted(modules - rows) == [], "modules docs/architecture.md does not describe"
    assert sorted(rows - modules) == [], "docs/architecture.md describes modules that do not exist"


def test_measurements_name_every_bench_script_and_the_docs_only_real_ones() -> None:
    """bench/ and its page stay in step: a script is listed in docs/measurements.md, and a
    script a page names is in the tree, unless it names the commit to read it at (a removed
    probe in docs/decisions.md: `bench/x.py` @ `abc1234`)."""
    scripts = {path.name for path in (PROJECT_ROOT / "bench").glob("*.py")}
    listed = set(re.findall(r"\b(\w+\.py)\b", (DOCS / "measurements.md").read_text()))
    assert sorted(scripts - listed) == [], "bench scripts docs/measurements.md does not list"
    for page in [PROJECT_ROOT / "README.md", *DOCS.glob("*.md")]:
        named = re.findall(r"bench/([a-z0-9_]+\.py)`?(\s+@\s+`[0-9a-f]{7,40}`)?", page.read_text())
        for name, commit in named:
            assert commit or name in scripts, f"{page.name} names bench/{name}, which is not in bench/"


def test_every_question_the_readme_asks_gets_a_cited_answer(seed_assistant: Assistant) -> None:
    """The README's first command (and each `assistant ask "…"` after it) shows an answer a
    newcomer can check, not a refusal: a garbled question there went unnoticed once."""
    questions = re.findall(r'assistant ask (?:--[\w-]+ (?:\S+ )?)*"([^"]+)"', README)
    assert questions, "the README asks no question"
    for question in dict.fromkeys(questions):
        answer = seed_assistant.ask(question)
        assert answer.citations, f"README question {question!r} gets no cited answer"
