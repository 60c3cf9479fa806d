"""Ingest throughput against the bare embedder, on the same abstracts in one run.

Usage: python bench/ingest.py [--csv FILE] [--n N] [--rounds R] [--before DIR] [--remote]

Default: the 569 NeurIPS 2016 abstracts of ../shared/data/neurips-1987-2021 (skips with a
message when that folder is absent). Each round measures, in turn:
- the bare embedder: ``MiniLMOnnxEmbedding.embed`` over exactly the chunk texts the ingest
  stored (read back from its Chroma store), the model already loaded;
- ``assistant ingest FILE --data-dir <fresh temp dir>`` as a subprocess: ``seconds`` is the
  ingest's own figure from its summary line (reading the file, loading the model, chunking,
  embedding, writing, BM25), ``wall`` adds the process start-up and imports;
- with ``--before DIR`` (a checkout of older code, e.g. ``git archive HEAD | tar -x -C DIR``),
  the same ingest run with that code first on PYTHONPATH; its store must hold the same ids,
  texts and metadata, and vectors within the int8 model's batch noise (minimum cosine);
- the bare embedder again (each round opens with it too, after an uncounted warm-up ingest
  that gives the chunk texts); an ingest's ratio is its abstracts/s over the mean of the round's
  two bare figures, so that a machine shared with other work is compared with itself.
With ``--remote``, also ``openai:<model>`` ingests against a local fake /v1/embeddings server
that answers each request after an artificial delay (``--remote-delay``, default 0.25 s:
standing in for a GPU server), one request in flight against several.
Writes bench/results/ingest.json.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
from common import save

import assistant  # noqa: F401  (offline environment)
from assistant.settings import PROJECT_ROOT

DEFAULT_CSV = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021" / "neurips_abstract_2016.csv"
ENV = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
SUMMARY = re.compile(r"papers: (\d+) .*chunks: (\d+) \(\+(\d+)\).* · ([\d.]+) s")


def subset(source: Path, n: int | None, folder: Path) -> tuple[Path, int]:
    """``source`` itself, or a copy of its first ``n`` records; and the record count."""
    csv.field_size_limit(10**9)
    with source.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        fields = reader.fieldnames or []
    if n is None or n >= len(rows):
        return source, len(rows)
    target = folder / f"first{n}-{source.name}"
    with target.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows[:n])
    return target, n


def ingest(path: Path, data_dir: Path, code: Path | None = None,
           extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """``assistant ingest`` in a fresh process; its summary figures and the wall time."""
    env = {**ENV, **(extra_env or {})}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "ingest", str(path),
                           "--data-dir", str(data_dir)], capture_output=True, text=True,
                          env=env, cwd=data_dir.parent, check=False)
    wall = time.perf_counter() - started
    match = SUMMARY.search(done.stdout)
    if done.returncode or not match:
        sys.exit(f"ingest failed ({done.returncode}): {done.stdout[-500:]} {done.stderr[-2000:]}")
    papers, chunks, added, seconds = match.groups()
    return {"papers": int(papers), "chunks": int(chunks), "chunks_added": int(added),
            "seconds": float(seconds), "wall": round(wall, 2)}


def ingest_checked(path: Path, data_dir: Path) -> Path:
    print("warm-up", ingest(path, data_dir), flush=True)
    return data_dir


def stored(data_dir: Path) -> dict[str, tuple[str, dict[str, Any], np.ndarray]]:
    """Every stored chunk: id → (text, metadata, vector)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    client = chromadb.PersistentClient(path=str(data_dir / "chroma"),
                                       settings=ChromaSettings(anonymized_telemetry=False))
    got = client.get_collection("abstracts").get(include=["documents", "metadatas", "embeddings"])
    return {i: (d, m, np.asarray(e, dtype=np.float32)) for i, d, m, e in
            zip(got["ids"], got["documents"], got["metadatas"], got["embeddings"], strict=True)}


def same_content(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Whether two stores hold the same chunks: ids, texts and the metadata keys both have
    (LlamaIndex's ``_node_content`` aside: it names neighbours by random ids); which keys only
    one has (another change to what is stored, not the ingest's); how close the vectors are
    (the int8 model's output moves a little with the batch it is run in)."""
    def meta(m: dict[str, Any], keys: set[str]) -> dict[str, Any]:
        return {k: v for k, v in m.items() if k in keys and k != "_node_content"}

    first_a, first_b = next(iter(a.values()))[1], next(iter(b.values()))[1]
    common = set(first_a) & set(first_b)
    same = a.keys() == b.keys() and all(
        a[k][0] == b[k][0] and meta(a[k][1], common) == meta(b[k][1], common) for k in a)
    cosines = [float(a[k][2] @ b[k][2]) for k in a if k in b]
    return {"same_ids_texts_metadata": same, "chunks": len(a),
            "metadata_keys_only_before": sorted(set(first_a) - common),
            "metadata_keys_only_after": sorted(set(first_b) - common),
            "min_vector_cosine": round(min(cosines), 5),
            "mean_vector_cosine": round(float(np.mean(cosines)), 6)}


class FakeEmbeddings:
    """A local OpenAI-compatible /v1/embeddings server: 384-dimensional vectors made from each
    text's hash, after ``delay`` seconds per request (the time a real server would take)."""

    def __init__(self, delay: float) -> None:
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests += 1
                time.sleep(delay)
                data = [{"object": "embedding", "index": i, "embedding": vector(t)}
                        for i, t in enumerate(body["input"])]
                out = json.dumps({"object": "list", "data": data, "model": body["model"],
                                  "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        def vector(text: str) -> list[float]:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            return np.random.default_rng(seed).standard_normal(384).round(5).tolist()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--n", type=int, default=None, help="first N abstracts (default all)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of older code to run the same ingest with")
    parser.add_argument("--remote", action="store_true", help="also openai: against a fake server")
    parser.add_argument("--remote-delay", type=float, default=0.25)
    args = parser.parse_args()
    if not args.csv.is_file():
        print(f"skipped: {args.csv} is absent (it lies beside the project's own clones and CI)")
        return

    from assistant.embedding import MiniLMOnnxEmbedding

    load_average = os.getloadavg()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    source, n_records = subset(args.csv, args.n, tmp)
    started = time.perf_counter()
    model = MiniLMOnnxEmbedding(embed_batch_size=32)
    model.embed(["warm-up"])
    load_seconds = time.perf_counter() - started
    variants = {"ingest": None} | ({"ingest_before": args.before.resolve()} if args.before else {})
    rounds: list[dict[str, Any]] = []
    # A first ingest, not counted, gives the chunk texts it stores (and warms the disk cache).
    stores: dict[str, Any] = {"warm-up": stored(ingest_checked(source, tmp / "warm-up"))}
    texts = [text for text, _, _ in stores["warm-up"].values()]
    for r in range(args.rounds):
        row: dict[str, Any] = {"bare_seconds": [bare(model, texts)]}
        order = list(variants.items())
        for name, code in order if r % 2 == 0 else order[::-1]:  # neither always goes first
            data_dir = tmp / f"{name}-{r}"
            row[name] = ingest(source, data_dir, code)
            print(name, row[name], flush=True)
            if r == 0:
                stores[name] = stored(data_dir)
        row["bare_seconds"].append(bare(model, texts))  # each round's ingests between two
        print("bare", row["bare_seconds"], flush=True)
        rounds.append(row)
    papers = rounds[0]["ingest"]["papers"]
    figures: dict[str, Any] = {
        "csv": str(args.csv), "abstracts": papers, "records": n_records, "chunks": len(texts),
        "rounds": args.rounds, "cores": os.cpu_count(), "model_load_seconds": round(load_seconds, 2),
        "load_average_at_start": load_average, "load_average_at_end": os.getloadavg()[0],
        "command": "python bench/ingest.py " + " ".join(sys.argv[1:]),
    }
    bare_rates = [papers / statistics.mean(row["bare_seconds"]) for row in rounds]
    figures["bare_abstracts_per_s"] = round(statistics.median(bare_rates), 2)
    for name in variants:
        rates = [papers / row[name]["seconds"] for row in rounds]
        walls = [papers / row[name]["wall"] for row in rounds]
        figures[name] = {
            "abstracts_per_s": round(statistics.median(rates), 2),
            "abstracts_per_s_wall": round(statistics.median(walls), 2),
            "ratio_to_bare": round(statistics.median(r / b for r, b in zip(rates, bare_rates,
                                                                            strict=True)), 3),
            "ratio_to_bare_wall": round(statistics.median(w / b for w, b in zip(walls, bare_rates,
                                                                                strict=True)), 3),
            # the fastest of each over the run: the figure least touched by other work
            "ratio_best_to_best": round(min(row["bare_seconds"][i] for row in rounds for i in (0, 1))
                                        / min(row[name]["seconds"] for row in rounds), 3),
            "ratio_to_bare_per_round": [round(r / b, 3) for r, b in zip(rates, bare_rates,
                                                                         strict=True)],
            "runs": [row[name] for row in rounds],
        }
    figures["bare_seconds_runs"] = [row["bare_seconds"] for row in rounds]
    if "ingest_before" in stores:
        figures["before_vs_after_store"] = same_content(stores["ingest_before"], stores["ingest"])
    if args.remote:
        figures["remote"] = remote(source, tmp, args.remote_delay, papers,
                                   figures["ingest"]["abstracts_per_s"])
    save("ingest", figures)
    print(json.dumps({k: v for k, v in figures.items() if k != "bare_seconds_runs"}, indent=1))


def bare(model: Any, texts: list[str]) -> float:
    started = time.perf_counter()
    model.embed(texts)
    return round(time.perf_counter() - started, 2)


def remote(source: Path, tmp: Path, delay: float, papers: int, local_rate: float) -> dict[str, Any]:
    """``openai:fake`` ingests against the fake server, 1 and 4 requests in flight."""
    server = FakeEmbeddings(delay)
    try:
        out: dict[str, Any] = {"server": f"local fake, {delay} s per request of 32 texts",
                               "local_model_abstracts_per_s": local_rate}
        for concurrency in (1, 4):
            env = {"ASSISTANT_INDEX_EMBED_MODEL": "openai:fake",
                   "ASSISTANT_LLM_BASE_URL": server.base_url,
                   "ASSISTANT_INDEX_EMBED_CONCURRENCY": str(concurrency)}
            before = server.requests
            run = ingest(source, tmp / f"remote-{concurrency}", None, env)
            rate = papers / run["seconds"]
            out[f"in_flight_{concurrency}"] = {**run, "requests": server.requests - before,
                                               "abstracts_per_s": round(rate, 2),
                                               "vs_local_model": round(rate / local_rate, 2)}
            print(f"remote, {concurrency} in flight", out[f"in_flight_{concurrency}"], flush=True)
        out["speedup_4_vs_1"] = round(out["in_flight_4"]["abstracts_per_s"]
                                      / out["in_flight_1"]["abstracts_per_s"], 2)
        return out
    finally:
        server.close()


if __name__ == "__main__":
    main()
