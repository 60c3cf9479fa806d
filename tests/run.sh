#!/usr/bin/env bash
# The test command (README, .ci/run): installs what the tests need on a fresh machine —
# the virtual environment and Debian's chromium for the browser tests — then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export UV_LINK_MODE=copy
if ! command -v chromium >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
    || echo "warning: could not install chromium; the browser tests will fail" >&2
fi
python3 -m pip install -q uv 2>/dev/null || python3 -m pip install -q --user uv
python3 -m uv venv -q --allow-existing .venv
python3 -m uv pip install -q --compile-bytecode -p .venv -e '.[dev]'
.venv/bin/ruff check assistant tests bench
exec .venv/bin/python -m pytest "$@"
