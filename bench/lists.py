"""List questions among the 13.9k: recall and precision of the exhaustive list mode against
the answer's top 5 and top 20, seconds per list question, and the screen's thresholds chosen
on the dev split (evals/lists.jsonl; how it was labelled: evals/README.md).

Usage: python bench/lists.py [DATA_DIR] [--tune] [--text] [--model NAME] [--reread N]
(default .data-distractors). With --model, a bundled model (bench/model_server.py, a real
llama.cpp server) judges the uncertain band by the relevance check, as a user with the model
configured and ASSISTANT_LLM_RELEVANCE_CHECK on gets it; written to lists-NAME.json. With
--reread N, the shipped screen at a reading budget of N (``ask --reread N``), to
lists-reread-N.json.
With --text no store is opened: the seeds and the 1987-2021 abstracts are read from their
files into ``TextIndex``, BM25 over one document a paper with no dense side (no cosine, no
dense candidates), for a machine where the 13.9k store is not built; the top-k baselines are
then BM25's first k papers, not the answer's. With --tune, every dev question's pool is read
once (its cheap signals, and the cross-encoder's logit for its first READ_FOR_TUNING papers,
of the question and of the topic), the grid below is scored on dev alone, and the best
settings printed and measured (copy them into ``listing.ScreenSettings``); without it, the
shipped settings. Every question is screened, timed with the cross-encoder's memory emptied
first, and scored per split twice: against the grep's labels (``recall``, ``precision``; the
tuning reads these) and with the blind judge's answers among the listed papers the grep
missed expected too (``pooled_recall``, ``pooled_precision``, evals/lists-pooled.jsonl).
Writes bench/results/lists.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
from common import bench_settings, read_jsonl, save
from model_server import MODELS, ModelServer

import assistant  # noqa: F401
from assistant import reranking
from assistant.corpus import Paper, read_paths
from assistant.index import ChunkHit
from assistant.keywords import (
    KeywordStats,
    best_reading_scores,
    document_frequencies,
    tokenize,
)
from assistant.list_records import MODEL, Candidate
from assistant.listing import Judge, ListScreen
from assistant.pipeline import Assistant
from assistant.reranking import CrossEncoder
from assistant.settings import PROJECT_ROOT
from assistant.topics import reread_pairs, topic_of

QUESTIONS = PROJECT_ROOT / "evals" / "lists.jsonl"
# The papers the screen listed beyond the grep's matches, each read by a blind judge
# (evals/README.md): scored a second way, with the judged answers among the expected.
POOLED = PROJECT_ROOT / "evals" / "lists-pooled.jsonl"
CORPUS = PROJECT_ROOT.parent / "shared" / "data" / "neurips-1987-2021"
# Candidates per question, by cheap score, whose logits the tuning reads: a band paper past
# them is decided by its cheap score in the simulation, as an unread one is by the screen.
READ_FOR_TUNING = 150
GRID: dict[str, list[Any]] = {
    "idf_power": [2.0],  # 1.0 lost on dev in every earlier run
    "phrase_weight": [0.5],  # 0.5 won on dev over 0.0 and 1.0 (two earlier runs)
    "max_reread": [30, 80],  # the focused reading is a title and one sentence a paper
    "reread_weight": [1.6, 100.0],  # 100: the band decided by the logit alone (0.8 never won)
    "dense_weight": [0.3, 0.6, 0.9],  # cheap = coverage + weight × best cosine (0, 1.2 lost)
    "keep_at": [1.2, 1.3, 1.4, 1.5, 1.7, 9.0],  # 9: no paper kept unread
    "drop_below": [0.5, 0.6, 0.7, 0.8],  # 0.4 never won
    "reread_keeps": [-2.0, 0.0, 1.0, 2.0, 3.0, 4.0],  # -4 never won
    "reread_question": [False],  # the topic read as well as the question on dev (an earlier run)
    "sense_keeps": [0.65, 0.75, 2.0],  # 2.0: the cross-encoder's "no" stands
    "acronyms": [False, True],  # a run of the topic's words read as its acronym too
}
# the settings that change the pool (each value pooled and read once)
POOL_KEYS = ("idf_power", "phrase_weight", "acronyms")


class TextIndex:
    """The store's reading methods the list screen calls, over texts read from files: BM25
    (the store's tokenizer and reading of a question) over one document a paper (title and
    abstract), and no dense side."""

    def __init__(self, paths: list[Path]) -> None:
        self._papers = {p.paper_id: p for p in read_paths(paths).papers}
        self.ids = list(self._papers)
        tokens = tokenize([f"{p.title}. {p.text}" for p in self._papers.values()])
        self.bm25 = bm25s.BM25()
        self.bm25.index(tokens, show_progress=False)
        self.stats = KeywordStats(len(self.ids), self.bm25.vocab_dict,
                                  document_frequencies(tokens.ids, len(tokens.vocab)))

    def papers(self) -> dict[str, Paper]:
        return self._papers

    def keyword_stats(self) -> KeywordStats:
        return self.stats

    def bm25_paper_scores(self, query: str, allowed: set[str] | None = None) -> dict[str, float]:
        mask = None if allowed is None else np.array([p in allowed for p in self.ids], np.float32)
        found = best_reading_scores(query, self.bm25.vocab_dict,
                                    lambda ids: self.bm25.get_scores(ids, weight_mask=mask))
        if found is None:
            return {}
        return {self.ids[i]: float(found[i]) for i in np.flatnonzero(found > 0)}

    def query_vector(self, query: str) -> np.ndarray:
        return np.zeros(1, dtype=np.float32)

    def search_dense(self, *args: Any, **kwargs: Any) -> list[ChunkHit]:
        return []

    def paper_cosines(self, *args: Any) -> dict[str, float]:
        return {}

    def paper_vector(self, paper_id: str) -> None:
        return None


def scores(found: list[str], expected: set[str]) -> tuple[float, float]:
    """(recall, precision) of the listed locators; an empty list has precision 1."""
    hits = len(set(found) & expected)
    return hits / len(expected), (hits / len(found) if found else 1.0)


def simulate(pool: list[Candidate], logits: dict[bool, dict[str, float]],
             screen: ListScreen) -> list[str]:
    """The locators ``screen.screen`` keeps, from cached signals. One approximation: each
    candidate's ``sense`` was computed once, with the shipped ``dense_weight`` choosing the
    surest papers, whatever the trial's weight."""
    s = screen.settings
    cheap = sorted(((c.coverage + s.dense_weight * c.cosine, c) for c in pool),
                   key=lambda x: -x[0])
    band = [(v, c) for v, c in cheap if s.drop_below <= v < s.keep_at]
    read = band[:s.max_reread]
    middle = (s.keep_at + s.drop_below) / 2
    kept = [c for v, c in cheap if v >= s.keep_at]
    for v, c in read:
        logit = logits[s.reread_question].get(c.paper.paper_id)
        kept.append(c) if (v >= middle if logit is None else screen.read_keeps(v, logit, c.sense)
                           ) else None
    kept += [c for v, c in band[s.max_reread:] if v >= middle]
    return [c.paper.source for c in kept]


def logits_for(encoder: CrossEncoder, text: str, pool: list[Candidate],
               memory: dict[str, dict[str, float]], stats: KeywordStats) -> dict[str, float]:
    """The cross-encoder's logit for ``text`` (a topic, or the question) with each of
    ``pool``'s READ_FOR_TUNING papers of highest cheap score, read as the screen reads them
    (``reread_pairs``: the best over its texts), from ``memory`` (LISTS_LOGITS, a JSON
    file) where read before."""
    first = sorted(pool, key=lambda c: -c.cheap)[:READ_FOR_TUNING]
    texts, passages = reread_pairs(text, [c.paper for c in first], stats)
    best: dict[str, float] = {}
    for read in texts:
        # the passage read depends on the whole topic's readings, so the key holds both
        known = memory.setdefault(f"{text}\n{read}", {})
        missing = [(c, p) for c, p in zip(first, passages, strict=True)
                   if c.paper.paper_id not in known]
        if missing:
            values = encoder.scores(read, [p for _, p in missing])
            known.update({c.paper.paper_id: float(x)
                          for (c, _), x in zip(missing, values.tolist(), strict=True)})
        for c in first:
            best[c.paper.paper_id] = max(best.get(c.paper.paper_id, -1e9), known[c.paper.paper_id])
    return best


def tune(screen: ListScreen, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The grid's best settings on ``items`` (dev): the highest of the weaker of mean recall
    and mean precision (the target asks for both), then the fewest rereads."""
    encoder = CrossEncoder()
    memory_file = Path(os.environ["LISTS_LOGITS"]) if os.environ.get("LISTS_LOGITS") else None
    memory = json.loads(memory_file.read_text()) if memory_file and memory_file.exists() else {}
    pools: dict[tuple[Any, ...], list[Candidate]] = {}
    logits: dict[tuple[Any, ...], dict[bool, dict[str, float]]] = {}
    for item in items:
        question = item["question"]
        for values in itertools.product(*(GRID[k] for k in POOL_KEYS)):
            pooled = ListScreen(screen.index, dataclasses.replace(
                screen.settings, **dict(zip(POOL_KEYS, values, strict=True))))
            pool = pooled.candidates(question)
            pools[question, *values] = pool
            logits[question, *values] = {True: {}, False: {}}
            for as_question in set(GRID["reread_question"]):
                text = question if as_question else pooled.searched_topic(question)
                logits[question, *values][as_question].update(
                    logits_for(encoder, text, pool, memory, screen.index.keyword_stats()))
        print(f"read {item['id']}", flush=True)
        if memory_file:
            memory_file.write_text(json.dumps(memory))
    best: tuple[float, float, dict[str, Any]] | None = None
    for values in itertools.product(*GRID.values()):
        chosen = dict(zip(GRID, values, strict=True))
        if chosen["drop_below"] >= chosen["keep_at"]:
            continue
        s = dataclasses.replace(screen.settings, **chosen)
        trial = ListScreen(screen.index, s)
        recalls, precisions, reads = [], [], 0
        for item in items:
            at = (item["question"], *(getattr(s, k) for k in POOL_KEYS))
            found = simulate(pools[at], logits[at], trial)
            pool = pools[at]
            recall, precision = scores(found, set(item["expected_sources"]))
            recalls.append(recall)
            precisions.append(precision)
            reads += min(s.max_reread, sum(
                1 for c in pool if s.drop_below <= c.coverage + s.dense_weight * c.cosine
                < s.keep_at))
        recall, precision = statistics.fmean(recalls), statistics.fmean(precisions)
        key = (min(recall, precision), -reads)  # the weaker of the two, as the target reads
        if best is None or key > best[:2]:
            best = (key[0], key[1], chosen)
    assert best is not None
    print(f"best on dev: min(mean recall, mean precision) {best[0]:.3f} with {best[2]}")
    return {"min_recall_precision_dev": round(best[0], 4), "settings": best[2]}


def pooled_answers() -> dict[str, set[str]]:
    """Each question's papers outside the grep's matches that the blind judge read as
    answering (its control lines, papers the grep matched, left out)."""
    answers: dict[str, set[str]] = {}
    for line in read_jsonl(POOLED):
        if line["answers"] and not line["control"]:
            answers.setdefault(line["id"], set()).add(line["source"])
    return answers


def measure(top: Any, screen: ListScreen, items: list[dict[str, Any]],
            judge: Judge | None = None) -> list[dict[str, Any]]:
    """Each question screened (timed, the cross-encoder's memory emptied first) and scored,
    beside ``top(question, k)``'s first 5 and 20 locators; scored again with the pooled
    judgments' answers expected too (``pooled_*``; ``unjudged``: listed papers no one read)."""
    rows = []
    pooled = pooled_answers()
    judged = {(line["id"], line["source"]) for line in read_jsonl(POOLED)}
    for item in items:
        expected = set(item["expected_sources"])
        matched = expected | set(item["excluded"])
        reranking._SCORED.clear()  # a fresh question pays for its reading
        started = time.perf_counter()
        result = screen.screen(item["question"], judge=judge)
        seconds = time.perf_counter() - started
        listed = [p.paper.source for p in result.papers]
        row: dict[str, Any] = {"id": item["id"], "split": item["split"],
                               "expected": len(expected), "listed": len(listed),
                               "screened": result.screened, "reread": result.reread,
                               "model_judged_papers": sum(c.reader == MODEL for c in result.candidates),
                               "unread_left_out": result.unread_left_out,
                               "seconds": round(seconds, 2)}
        row["recall"], row["precision"] = (round(x, 3) for x in scores(listed, expected))
        asked = {item["id"], item.get("same_as", item["id"])}  # a rephrasing shares labels
        answers = set().union(*(pooled.get(i, set()) for i in asked))
        row["pooled_recall"], row["pooled_precision"] = (
            round(x, 3) for x in scores(listed, expected | answers))
        row["unjudged"] = sorted(s for s in listed if s not in matched
                                 and not any((i, s) in judged for i in asked))
        for k in (5, 20):
            first = top(item["question"], k)
            row[f"top{k}_recall"], row[f"top{k}_precision"] = (
                round(x, 3) for x in scores(first, expected))
        row["missed"] = sorted(expected - set(listed))
        row["extra"] = sorted(set(listed) - expected)
        rows.append(row)
        print(f"{item['id']} {item['split']:4s} R {row['recall']:.2f} P {row['precision']:.2f} "
              f"({row['listed']} listed / {row['expected']} expected, {row['reread']} reread, "
              f"{seconds:.2f} s) top5 R {row['top5_recall']:.2f} top20 R "
              f"{row['top20_recall']:.2f}", flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"questions": len(rows)}
    for key in ("recall", "precision", "pooled_recall", "pooled_precision", "top5_recall",
                "top5_precision", "top20_recall", "top20_precision", "seconds"):
        out[key] = round(statistics.fmean(r[key] for r in rows), 3)
    out["seconds_max"] = max(r["seconds"] for r in rows)
    out["unjudged"] = sum(len(r["unjudged"]) for r in rows)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", nargs="?", type=Path,
                        default=PROJECT_ROOT / ".data-distractors")
    parser.add_argument("--tune", action="store_true", help="choose the grid's best on dev")
    parser.add_argument("--text", action="store_true", help="no store: BM25 over the files")
    parser.add_argument("--reread", type=int, metavar="N",
                        help="the reading budget a user sets (ask --reread N) instead of the "
                        "shipped one; written to lists-reread-N.json")
    parser.add_argument("--model", choices=list(MODELS),
                        help="a bundled model judges the uncertain band (relevance check)")
    args = parser.parse_args()
    if args.model and args.text:
        parser.error("--model judges with a store's assistant; leave out --text")
    if args.reread is not None and (args.tune or args.model or args.reread < 1):
        parser.error("--reread N (1 or more) measures the shipped screen at another budget, "
                     "offline")
    if args.model is None:
        measured("lists" if args.reread is None else f"lists-reread-{args.reread}", args, None)
        return
    with ModelServer(args.model) as server:  # the relevance check on, as a user turns it on
        measured(f"lists-{args.model}", args,
                 {"base_url": server.base_url, "model": args.model, "relevance_check": True,
                  "timeout": 600.0})  # a generous deadline: two busy cores


def measured(name: str, args: argparse.Namespace, llm: dict[str, Any] | None) -> None:
    """Every question screened (tuned first with --tune) and the results saved as NAME;
    with ``llm``, the assistant's model endpoint judges the uncertain band."""
    items = read_jsonl(QUESTIONS)
    judge: Judge | None = None
    if args.text:
        text = TextIndex([PROJECT_ROOT / "seeds", CORPUS])
        screen = ListScreen(text)  # type: ignore[arg-type]
        source = "text: BM25 over the files, no dense side"
        GRID["dense_weight"] = [0.0]  # no cosines to weigh

        def top(question: str, k: int) -> list[str]:
            found = text.bm25_paper_scores(topic_of(question))
            return [text.papers()[p].source for p in sorted(found, key=lambda p: -found[p])[:k]]
    else:
        app = Assistant(bench_settings(args.data_dir, llm))
        screen, source = ListScreen(app.index), str(args.data_dir)
        if llm:
            judge, source = app.lists.judge, f"{source}; the band judged by {llm['model']}"

        def top(question: str, k: int) -> list[str]:
            return [f.paper.source for f in app.retrieve(question, top_k=k)]
    tuned = tune(screen, [i for i in items if i["split"] == "dev"]) if args.tune else None
    if tuned:  # measured as tuned (the shipped defaults are set from these by hand)
        screen.settings = dataclasses.replace(screen.settings, **tuned["settings"])
    if args.reread is not None:
        screen.settings = dataclasses.replace(screen.settings, max_reread=args.reread)
    screen.screen("warm up: which papers use neural networks?")  # models loaded once
    report(name, screen, source, tuned, measure(top, screen, items, judge))


def report(name: str, screen: ListScreen, source: str, tuned: dict[str, Any] | None,
           rows: list[dict[str, Any]]) -> None:
    """Each split's means printed and saved with the rows (bench/results/NAME.json)."""
    splits = {split: summary([r for r in rows if r["split"] == split]) for split in ("dev", "test")}
    for split, figures in splits.items():
        print(split, figures)
    save(name, {"store": source, "papers": len(screen.index.papers()),
                "settings": dataclasses.asdict(screen.settings), "tuned": tuned,
                "splits": splits, "rows": rows})


if __name__ == "__main__":
    main()
