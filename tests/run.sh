#!/usr/bin/env bash
# The test command (README, .ci/run): installs what the tests need on a fresh machine —
# the virtual environment (with the local model server, built once) and Debian's chromium for
# the browser tests — then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export UV_LINK_MODE=copy
if ! command -v chromium >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
    || echo "warning: could not install chromium; the browser tests will fail" >&2
fi
python3 -m pip install -q uv 2>/dev/null || python3 -m pip install -q --user uv
python3 -m uv venv -q --allow-existing .venv
# llama-cpp-python (the `local` extra: a real model server) has no wheel on the registry. It is
# built from source once per machine, for any x86-64 CPU, into a wheel kept in the user's cache;
# later runs install that wheel (uv's own cache rebuilt it whenever it fetched the source again).
LLAMA_CPP=$(grep -o 'llama-cpp-python\[server\]==[0-9.]*' pyproject.toml | sed 's/\[server\]//')
WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/abstracts-assistant/wheels"
if ! ls "$WHEELS/llama_cpp_python-${LLAMA_CPP#*==}-"*.whl >/dev/null 2>&1; then
  echo "building $LLAMA_CPP once into $WHEELS (minutes on two cores)…" >&2
  CMAKE_ARGS="-DGGML_NATIVE=OFF" python3 -m pip wheel -q --no-deps -w "$WHEELS" "$LLAMA_CPP"
fi
python3 -m uv pip install -q --compile-bytecode -p .venv --find-links "$WHEELS" -e '.[dev,local]'
.venv/bin/ruff check assistant tests bench
exec .venv/bin/python -m pytest "$@"
