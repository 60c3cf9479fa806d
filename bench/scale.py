"""How far one index goes: synthetic stores of N chunks, then query and load costs.

Usage: python bench/scale.py [N ...] [--dir /tmp/scale] [--server | --chroma-url URL]
(default N: 50000 200000; the stores go under /tmp, never into the repository.)

Each store is made by ``AbstractIndex`` (same collection, HNSW settings and metadata), filled
with fake abstracts of a real chunk's length (4–8 sentences of the seed abstracts, ~1,000
characters, one chunk each, as most abstracts are) and random unit vectors of 384
dimensions (for the chunk and for each sentence), written by the ingest's own ``add_nodes``
so the metadata is laid out as an ingest lays it out (no embedding model: only the store is
measured). Then a fresh process opens the store as a replica would, and times reading every
paper's metadata (``papers``), building the BM25 index, and dense and BM25 query p50/p95
through the retrieval code's calls (``search_dense``, ``bm25_paper_scores``); its peak RSS is
what one reader costs. A third process then reopens the store from the papers and BM25
copy the second one saved (``reopen_s``: a replica's restart). ``--server`` starts a
``chroma run`` of its own under ``--dir`` (and stops it), so its memory and disk are
measured too; ``--chroma-url`` uses one already running (its disk is then not measured).
``--max-minutes`` stops adding in time and measures what was stored. Writes
bench/results/scale.json, keyed by mode and metadata layout ("embedded_lean_v2",
"server_lean_v2": ``LAYOUT``) and chunks stored; figures of earlier layouts stay under their
own keys ("embedded" and "server": LlamaIndex's node copy and the abstract on every chunk;
"lean_metadata": paper fields only, no sentence vectors).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from common import save, stop, wait_until_up

import assistant  # noqa: F401
from assistant.chunks import SENTENCES_KEY, pack_sentences, paper_meta
from assistant.corpus import Paper, read_paths, split_sentences
from assistant.evals import load_dataset
from assistant.index import AbstractIndex
from assistant.settings import PACKAGE_SEEDS, PROJECT_ROOT, Settings

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

DIM = 384
BATCH = 2000  # chunks per add (Chroma's own limit is larger; this keeps memory flat)
QUERIES = 60
CHROMA = Path(sys.executable).with_name("chroma")
# The metadata ``Ingester.add_nodes`` writes, named in the results' keys: a change to it gets a new
# name, so the figures of the layout before stay beside the new ones.
LAYOUT = "lean_v2"
LAYOUT_NOTE = ("as ingest writes it (_add_nodes): paper fields, chunk number, sentence vectors "
               "and the abstract (on chunk 0: every paper here is one chunk); no LlamaIndex "
               "node copy (_node_content) or document ids")


def rss_mb() -> float:
    """Resident memory now (not the peak): /proc/self/statm."""
    return round(int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
                 / 2**20, 1)


def peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def proc_mb(pid: int) -> dict[str, float]:
    """Another process's resident memory now and at its peak (VmRSS, VmHWM)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return {key: round(int(fields[name].split()[0]) / 1024, 1)
            for key, name in (("rss_mb", "VmRSS"), ("peak_rss_mb", "VmHWM"))}


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def timed_ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": pct(values, 0.95),
            "max": round(max(values), 2)}


def sentence_pool() -> list[str]:
    papers = read_paths([PACKAGE_SEEDS]).papers
    return [s for p in papers for s in split_sentences(p.text) if len(s) > 30]


def fake_node(i: int, sentences: list[str], vector: np.ndarray, rng: random.Random,
              np_rng: np.random.Generator) -> TextNode:
    """A one-chunk paper as ingest makes it: ``paper_meta``'s metadata, the chunk number,
    a random float16 vector per sentence packed as ingest packs them (``sentence_vectors``,
    ~1 KB of metadata per sentence), and the chunk's vector."""
    # Here, not at the top: the reader process (``measure``) must not import LlamaIndex,
    # as ``assistant`` answering a question does not.
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

    text = " ".join(sentences)
    paper = Paper(paper_id=f"{i:08x}{rng.getrandbits(32):08x}", source=f"synthetic.csv#{i}",
                  title=" ".join(text.split()[:8]), text=text, file_key="synthetic.csv",
                  year=2000 + i % 26, venue="Synthetic")
    unit = np_rng.standard_normal((len(sentences), DIM)).astype(np.float32)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    meta = {**paper_meta(paper), "chunk": 0,
            SENTENCES_KEY: pack_sentences(list(enumerate(unit)), len(sentences))}
    node = TextNode(id_=f"{paper.paper_id}:0", text=text, metadata=meta, embedding=vector.tolist(),
                    relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=paper.paper_id)})
    node.excluded_embed_metadata_keys = [k for k in meta if k != SENTENCES_KEY]
    node.excluded_llm_metadata_keys = list(node.excluded_embed_metadata_keys)
    return node


def settings_for(store: Path, n: int, chroma_url: str | None) -> Settings:
    settings = Settings()
    settings.data.dir = store
    settings.data.chroma_url = chroma_url
    settings.data.collection = f"scale{n}"
    return settings


def build(store: Path, n: int, pool: list[str], chroma_url: str | None,
          max_minutes: float | None = None) -> dict[str, Any]:
    """Fill a fresh store with ``n`` one-chunk papers (fewer when ``max_minutes`` pass
    first: the store is then measured as far as it got); the seconds it took."""
    index = AbstractIndex(settings_for(store, n, chroma_url))
    if index.chunk_count():  # a server's collection left by an earlier run
        index.ingester.reset()
    rng = random.Random(n)
    np_rng = np.random.default_rng(n)
    started = time.perf_counter()
    chars = 0
    added = 0
    for start in range(0, n, BATCH):
        if max_minutes is not None and time.perf_counter() - started > max_minutes * 60:
            print(f"  stopped at {added}/{n} chunks: --max-minutes {max_minutes:g}", flush=True)
            break
        size = min(BATCH, n - start)
        vectors = np_rng.standard_normal((size, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        nodes = [fake_node(start + j, rng.sample(pool, rng.randint(4, 8)), vectors[j], rng, np_rng)
                 for j in range(size)]
        chars += sum(len(node.text) for node in nodes)
        index.ingester.add_nodes(nodes)  # the very write of an ingest: same metadata layout
        added += size
        if (start // BATCH) % 10 == 9 or start + size == n:
            print(f"  {start + size}/{n} chunks, {time.perf_counter() - started:.0f} s",
                  flush=True)
    index.store.stamp()
    seconds = time.perf_counter() - started
    return {"requested_chunks": n, "build_s": round(seconds, 1),
            "build_chunks_per_s": round(added / seconds),
            "mean_chunk_chars": round(chars / max(added, 1)),
            "load_average_after_build": load_average()}


def measure(store: Path, n: int, chroma_url: str | None) -> dict[str, Any]:
    """Open the store as ``assistant`` does and time its read paths (run in a fresh
    process, so its peak RSS is what one reader of this store costs)."""
    before = rss_mb()
    t = time.perf_counter()
    index = AbstractIndex(settings_for(store, n, chroma_url))
    papers = index.papers()
    papers_s = time.perf_counter() - t
    after_papers = rss_mb()
    t = time.perf_counter()
    index.keywords.build()
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
        "reader_rss_mb": {"before_open": before, "after_papers": after_papers,
                          "after_bm25": after_bm25, "after_queries": rss_mb()},
        "reader_peak_rss_mb": peak_mb(),
        "load_average_after_queries": load_average(),
    }


def reopen(store: Path, n: int, chroma_url: str | None) -> dict[str, Any]:
    """A later process on the same data directory: papers and BM25 from the copy that the
    first reader saved (how long a replica's restart takes to be ready, and its memory)."""
    t = time.perf_counter()
    index = AbstractIndex(settings_for(store, n, chroma_url))
    papers = index.papers()
    index.keywords.load()
    index.bm25_paper_scores("graph neural networks")
    return {"reopen_s": round(time.perf_counter() - t, 1), "reopen_papers": len(papers),
            "reopen_peak_rss_mb": peak_mb()}


def measure_in_child(store: Path, n: int, chroma_url: str | None,
                     again: bool = False) -> dict[str, Any]:
    """``measure`` (``again``: ``reopen``) in a fresh interpreter; its last stdout line is
    the JSON row."""
    cmd = [sys.executable, __file__, str(n), "--dir", str(store.parent), "--measure-only"]
    if chroma_url:
        cmd += ["--chroma-url", chroma_url]
    if again:
        cmd.append("--reopen")
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"measuring {store} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def disk_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_chroma(path: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``chroma run`` on a free loopback port, once its heartbeat answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(CHROMA), "run", "--path", str(path), "--host", "127.0.0.1",
                                 "--port", str(port)], stdout=out, stderr=subprocess.STDOUT)
    wait_until_up(proc, f"{url}/api/v2/heartbeat", log, "`chroma run`", 60)
    return proc, url


def run_one(n: int, store: Path, pool: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Build and measure one store; with ``--server``, in a ``chroma run`` of its own."""
    shutil.rmtree(store, ignore_errors=True)
    store.mkdir(parents=True)
    row: dict[str, Any] = {"load_average_at_start": load_average(), "metadata_layout": LAYOUT_NOTE}
    server: subprocess.Popen[bytes] | None = None
    url = args.chroma_url
    if args.server:
        server, url = start_chroma(store / "chroma-server", store / "chroma-server.log")
        row["server_command"] = f"chroma run --path {store / 'chroma-server'} --port N"
    try:
        row.update(build(store / "client", n, pool, url, args.max_minutes))
        if server:
            row["server_after_build"] = proc_mb(server.pid)
        row.update(measure_in_child(store / "client", n, url))
        row.update(measure_in_child(store / "client", n, url, again=True))
        if server:
            row["server_after_queries"] = proc_mb(server.pid)
            row["server_disk_mb"] = disk_mb(store / "chroma-server")
    finally:
        if server:
            stop(server)
    # Embedded: the whole store (Chroma + BM25). Server: this reader's BM25 copy only.
    row["client_disk_mb"] = disk_mb(store / "client")
    row["peak_rss_mb_builder"] = peak_mb()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[50_000, 200_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/assistant-scale"))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--chroma-url", help="a running `chroma run` server to use")
    where.add_argument("--server", action="store_true",
                       help="start a `chroma run` of its own under --dir for each size")
    parser.add_argument("--keep", action="store_true", help="keep the stores afterwards")
    parser.add_argument("--max-minutes", type=float,
                        help="stop adding after this long and measure the store as it is "
                             "(a 2-core machine adds ~25-100 chunks/s, slower as it grows)")
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--reopen", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_only:  # the child of measure_in_child
        n = args.sizes[0]
        step = reopen if args.reopen else measure
        print(json.dumps(step(args.dir / "client", n, args.chroma_url)))
        return
    if args.dir.resolve().is_relative_to(PROJECT_ROOT):
        raise SystemExit("put the synthetic stores outside the repository (--dir /tmp/...)")
    pool = sentence_pool()
    mode = "server" if args.server or args.chroma_url else "embedded"
    path = PROJECT_ROOT / "bench" / "results" / "scale.json"
    for n in args.sizes:
        store = args.dir / f"{mode}-{n}"
        print(f"{n} chunks ({mode}) in {store}", flush=True)
        try:
            row = run_one(n, store, pool, args)
        finally:
            if not args.keep:
                shutil.rmtree(store, ignore_errors=True)
        print(json.dumps(row), flush=True)
        # Read just before writing: another invocation (the other mode) may have saved since.
        results: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        if "runs" in results:  # the layout before figures were kept apart by mode
            results = {}
        results.setdefault(f"{mode}_{LAYOUT}", {})[str(row["chunks"])] = row  # as stored
        results["cpus"] = os.cpu_count()
        results["note"] = (
            "one builder process per invocation; every store is measured by a fresh reader "
            "process (reader_peak_rss_mb: one replica's cost for that store). server mode: "
            "`chroma run` holds the store (server_* figures: its memory and disk), "
            "client_disk_mb is then only the reader's BM25 copy. Random vectors, fake "
            "abstracts of ~1,000 characters, one chunk per paper.")
        save("scale", results)


if __name__ == "__main__":
    main()
