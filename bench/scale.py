"""How far one index goes: synthetic stores of N chunks, then query and load costs.

Usage: python bench/scale.py [N ...] [--dir /tmp/scale] [--chroma-url http://127.0.0.1:PORT]
(default N: 50000 200000; the stores go under /tmp, never into the repository.)

Each store is made by ``AbstractIndex`` (same collection, HNSW settings and metadata), filled
with fake abstracts of a real chunk's length (4–8 sentences of the seed abstracts, ~1,000 characters, one
chunk each, as most abstracts are) and random unit vectors of 384 dimensions, added straight
to its Chroma collection (no embedding model: only the store is measured). Then, in the same
process: the time to read every paper's metadata (``papers``), to build the BM25 index,
dense and BM25 query p50/p95 through the retrieval code's calls (``search_dense``,
``bm25_paper_scores``), peak RSS and disk use. Writes bench/results/scale.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import save

import assistant  # noqa: F401
from assistant.corpus import read_paths, split_sentences
from assistant.evals import load_dataset
from assistant.index import AbstractIndex
from assistant.settings import PACKAGE_SEEDS, PROJECT_ROOT, Settings

DIM = 384
BATCH = 2000  # chunks per add (Chroma's own limit is larger; this keeps memory flat)
QUERIES = 60


def rss_mb() -> float:
    """Resident memory now (not the peak): /proc/self/statm."""
    return round(int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
                 / 2**20, 1)


def peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def timed_ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": pct(values, 0.95),
            "max": round(max(values), 2)}


def sentence_pool() -> list[str]:
    papers = read_paths([PACKAGE_SEEDS]).papers
    return [s for p in papers for s in split_sentences(p.text) if len(s) > 30]


def fake_meta(i: int, text: str, rng: random.Random) -> dict[str, Any]:
    """The metadata ``index._paper_meta`` writes for a one-chunk paper."""
    pid = f"{i:08x}{rng.getrandbits(32):08x}"
    return {"paper_id": pid, "source": f"synthetic.csv#{i}", "file": "synthetic.csv",
            "file_key": "synthetic.csv", "title": " ".join(text.split()[:8]),
            "title_derived": False, "authors": "", "venue": "Synthetic", "links": "",
            "abstract": text, "year": 2000 + i % 26, "chunk": 0}


def build(store: Path, n: int, pool: list[str], chroma_url: str | None) -> dict[str, Any]:
    """Fill a fresh store with ``n`` one-chunk papers; the seconds it took."""
    settings = Settings()
    settings.data.dir = store
    settings.data.chroma_url = chroma_url
    settings.data.collection = f"scale{n}"
    index = AbstractIndex(settings)
    rng = random.Random(n)
    np_rng = np.random.default_rng(n)
    started = time.perf_counter()
    chars = 0
    for start in range(0, n, BATCH):
        size = min(BATCH, n - start)
        texts = [" ".join(rng.sample(pool, rng.randint(4, 8))) for _ in range(size)]
        chars += sum(len(t) for t in texts)
        metas = [fake_meta(start + j, t, rng) for j, t in enumerate(texts)]
        vectors = np_rng.standard_normal((size, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        index._collection.add(ids=[f"{m['paper_id']}:0" for m in metas], documents=texts,
                              metadatas=metas, embeddings=vectors)
        print(f"  {start + size}/{n} chunks", flush=True)
    index._stamp()
    return {"build_s": round(time.perf_counter() - started, 1),
            "mean_chunk_chars": round(chars / n)}


def measure(store: Path, n: int, chroma_url: str | None) -> dict[str, Any]:
    """Open the store as ``assistant`` does and time its read paths."""
    settings = Settings()
    settings.data.dir = store
    settings.data.chroma_url = chroma_url
    settings.data.collection = f"scale{n}"
    before = rss_mb()
    t = time.perf_counter()
    index = AbstractIndex(settings)
    papers = index.papers()
    papers_s = time.perf_counter() - t
    after_papers = rss_mb()
    t = time.perf_counter()
    index._build_bm25()
    bm25_s = time.perf_counter() - t
    after_bm25 = rss_mb()
    questions = [i.question for i in load_dataset(PROJECT_ROOT / "evals" / "qa.jsonl")][:QUERIES]
    rng = np.random.default_rng(1)
    dense, lexical = [], []
    for q in questions:
        vector = rng.standard_normal(DIM).astype(np.float32)
        vector /= np.linalg.norm(vector)
        t = time.perf_counter()
        index.search_dense(q, 50, vector)
        dense.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        index.bm25_paper_scores(q)
        lexical.append((time.perf_counter() - t) * 1000)
    return {
        "papers": len(papers),
        "chunks": index.chunk_count(),
        "read_papers_s": round(papers_s, 1),
        "bm25_build_s": round(bm25_s, 1),
        "dense_query_ms": timed_ms(dense),
        "bm25_query_ms": timed_ms(lexical),
        "rss_mb": {"before_open": before, "after_papers": after_papers, "after_bm25": after_bm25,
                   "after_queries": rss_mb()},
    }


def disk_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[50_000, 200_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/assistant-scale"))
    parser.add_argument("--chroma-url", help="a running `chroma run` server to use instead")
    parser.add_argument("--keep", action="store_true", help="keep the stores afterwards")
    args = parser.parse_args()
    if args.dir.resolve().is_relative_to(PROJECT_ROOT):
        raise SystemExit("put the synthetic stores outside the repository (--dir /tmp/...)")
    pool = sentence_pool()
    results: dict[str, Any] = {}
    path = PROJECT_ROOT / "bench" / "results" / "scale.json"
    if path.exists():
        results = json.loads(path.read_text()).get("runs", {})
    for n in args.sizes:
        store = args.dir / f"n{n}"
        shutil.rmtree(store, ignore_errors=True)
        mode = "server" if args.chroma_url else "embedded"
        print(f"{n} chunks ({mode}) in {store}", flush=True)
        row = build(store, n, pool, args.chroma_url)
        row.update(measure(store, n, args.chroma_url))
        row["disk_mb"] = disk_mb(store)  # with a server: only the BM25 copy is here
        row["peak_rss_mb"] = peak_mb()
        row["load_average"] = [round(x, 2) for x in os.getloadavg()]
        results[f"{mode}-{n}"] = row
        print(json.dumps(row), flush=True)
        if not args.keep:
            shutil.rmtree(store, ignore_errors=True)
    save("scale", {"runs": results, "cpus": os.cpu_count(),
                   "note": "one process per run of sizes; peak_rss_mb is that process's peak "
                           "up to that size"})


if __name__ == "__main__":
    main()
