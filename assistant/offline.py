"""Keep every library off the network: set before tiktoken, gradio or chroma first load.

tiktoken would download its encodings, Gradio would send analytics and Hugging Face
libraries would look for model updates; LlamaIndex ships the two encodings we need.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def _llama_index_tiktoken_cache() -> str | None:
    spec = importlib.util.find_spec("llama_index.core")
    if spec is None or spec.origin is None:
        return None
    return str(Path(spec.origin).parent / "_static" / "tiktoken_cache")


_cache = _llama_index_tiktoken_cache()
if _cache:
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", _cache)
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
