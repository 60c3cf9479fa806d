"""The assistant as others get it: a wheel installed in a fresh virtual environment, run from
another folder; and the tests on a clone with nothing beside it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from assistant.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # builds and installs a wheel: not in the fast tier

# tests/run.sh installs uv with `python3 -m pip`; its command may not be on PATH.
UV = ["uv"] if shutil.which("uv") else ["python3", "-m", "uv"]


def _uv(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UV_LINK_MODE": "copy"}
    return subprocess.run([*UV, *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=600, check=True)


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ASSISTANT_", "VIRTUAL_ENV", "PYTHON")) and k != "OPENAI_API_KEY"}
    return {**env, **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`assistant` from a wheel of this checkout, in a virtual environment of its own."""
    root = tmp_path_factory.mktemp("wheel")
    _uv("build", "--wheel", "--out-dir", str(root / "dist"), str(PROJECT_ROOT))
    wheel = next((root / "dist").glob("abstracts_assistant-*.whl"))
    _uv("venv", "-q", "-p", sys.executable, str(root / "venv"))
    _uv("pip", "install", "-q", "-p", str(root / "venv"), str(wheel))
    return root / "venv" / "bin" / "assistant"


def test_installed_wheel_answers_from_another_folder(installed: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = _clean_env(XDG_DATA_HOME=str(tmp_path / "xdg"))
    result = subprocess.run([str(installed), "ask", "--json", "What is CRAFT?"], cwd=elsewhere,
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["citations"][0]["title"].startswith("CRAFT")
    assert "site-packages/assistant/seeds" in result.stderr  # the seeds shipped in the wheel
    # The index went to the per-user data directory, not the folder the user stood in.
    assert (tmp_path / "xdg" / "abstracts-assistant" / "chroma").is_dir()
    assert list(elsewhere.iterdir()) == []


def test_installed_wheel_reads_its_prompts_in_model_mode(installed: Path, tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        server.replies = ["CRAFT predicts future links [1]."]
        env = _clean_env(XDG_DATA_HOME=str(tmp_path / "xdg"), ASSISTANT_LLM_BASE_URL=server.base_url,
                         ASSISTANT_LLM_MODEL="scripted", ASSISTANT_LLM_CITE_MODE="free")
        result = subprocess.run([str(installed), "ask", "--json", "What is CRAFT?"], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    system = server.requests[0]["body"]["messages"][0]["content"]
    assert system == (PROJECT_ROOT / "prompts" / "answer_system.md").read_text().strip()


def test_missing_seeds_folder_is_a_clear_error(tmp_path: Path) -> None:
    env = _clean_env(ASSISTANT_DATA_SEEDS=str(tmp_path / "no-seeds"))
    result = subprocess.run([sys.executable, "-m", "assistant.cli", "ask", "What is CRAFT?",
                             "--data-dir", str(tmp_path / "data")], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert "seeds folder" in result.stderr and "no-seeds" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_clone_with_nothing_beside_it_skips_the_shared_data_tests(tmp_path: Path) -> None:
    """The tests that read ../shared/data skip, with their reason, on a clone without it."""
    clone = tmp_path / "clone"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        source, target = PROJECT_ROOT / name, clone / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            shutil.copy2(source, target)
    users = [f"tests/{p.name}" for p in (PROJECT_ROOT / "tests").glob("test_*.py")
             if "@skipif_no_shared_data" in p.read_text() and p.name != "test_package.py"]
    assert users, "no test reads the shared data any more; drop this test"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *users,
         "-k", "shared or distractors"],
        cwd=clone, env=_clean_env(PYTHONPATH=str(clone)), capture_output=True, text=True,
        timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skipped" in result.stdout and "is absent" in result.stdout
    assert str(tmp_path / "shared") in result.stdout  # the clone looked beside itself
