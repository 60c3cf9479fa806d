"""Chunk papers and embed the chunks, for the ingest to write: LlamaIndex's sentence
splitter makes the chunks (each with its paper's fields as metadata), the configured model
embeds them, and with MiniLM each paper's sentence vectors come from the same run, packed
into the chunks' metadata.

For throughput (bench/ingest.py): a thread chunks the next batches while this one is
embedded (onnxruntime and the tokenizers release the GIL); a batch is embedded in one call,
tokenized once and run in length-sorted sub-batches, and the ingest writes it while the
next is embedded.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np
import tiktoken

from assistant.chunks import SENTENCES_KEY, chunk_id, pack_sentences, paper_meta
from assistant.corpus import Paper, split_sentences
from assistant.embedding import Embedder, MiniLMOnnxEmbedding, Span, dimension_mismatch
from assistant.imports import importing
from assistant.settings import Settings
from assistant.store import ChromaStore

if TYPE_CHECKING:  # llama_index is imported by the ingest only: a question needs none of it
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.schema import TextNode

ProgressFn = Callable[[int, int, str], None]
Batch = tuple[int, list["TextNode"]]  # (papers, their chunks)
Item = Batch | BaseException | None  # what the chunking thread hands over; None: done


class ChunkEmbedder:
    """Turns papers into embedded chunks of ``store``'s layout, in batches of whole papers."""

    def __init__(self, settings: Settings, store: ChromaStore,
                 embedder: Callable[[], Embedder]) -> None:
        self.settings, self.store, self._embedder = settings, store, embedder

    def _splitter(self) -> SentenceSplitter:
        from llama_index.core.node_parser import SentenceSplitter

        encoding = tiktoken.get_encoding("cl100k_base")
        return SentenceSplitter(
            chunk_size=self.settings.index.chunk_size,
            chunk_overlap=self.settings.index.chunk_overlap,
            tokenizer=encoding.encode,
        )

    def _chunk_all(self, papers: list[Paper], per_write: int, put: Callable[[Item], None],
                   stop: threading.Event) -> None:
        """Chunk ``papers`` into batches of about ``per_write`` chunks, handed to ``put``;
        then None, or the exception that stopped it. Runs in a thread of its own."""
        try:
            with importing():  # LlamaIndex's first import: ~2 s before the first chunk
                from llama_index.core.schema import Document

            splitter = self._splitter()
            batch: list[TextNode] = []
            count, first = 0, True
            for paper in papers:
                if stop.is_set():
                    return
                doc = Document(text=paper.text, doc_id=paper.paper_id, metadata=paper_meta(paper))
                doc.excluded_embed_metadata_keys = list(doc.metadata)
                doc.excluded_llm_metadata_keys = list(doc.metadata)
                nodes = splitter.get_nodes_from_documents([doc])
                for i, node in enumerate(nodes):
                    node.id_ = chunk_id(paper.paper_id, i)
                    node.metadata["chunk"] = i
                batch.extend(nodes)
                count += 1
                if len(batch) >= per_write or (first and len(batch) >= per_write // 32):
                    put((count, batch))  # a small first batch starts the embedder early
                    batch, count, first = [], 0, False
            if batch:
                put((count, batch))
            put(None)
        except BaseException as exc:  # handed to the caller's thread, raised there
            put(exc)

    def batches(self, papers: list[Paper], progress: ProgressFn | None) -> Iterator[list[TextNode]]:
        """Chunk and embed ``papers``; yields embedded nodes, whole papers per batch (about
        32 embedding batches: 1,024 chunks by default, about a minute of work on 2 cores that
        an interrupt loses; each is sorted by length before it is embedded, and the bigger it is, the less
        padding: on the 2016 abstracts 6% more tokens than one global sort at 256 chunks, 2%
        at 1,024), for the caller to write as they come. Progress counts abstracts."""
        if not papers:
            return
        per_write = max(16, 32 * self.settings.index.embed_batch_size)  # chunks, about
        stop = threading.Event()
        chunked: queue.Queue[Item] = queue.Queue(2)

        def put(item: Item) -> None:
            while not stop.is_set():
                with contextlib.suppress(queue.Full):
                    chunked.put(item, timeout=0.2)
                    return

        chunker = threading.Thread(target=self._chunk_all, args=(papers, per_write, put, stop),
                                   name="chunker", daemon=True)
        chunker.start()
        try:
            yield from self._embedded(chunked, len(papers), progress)
        finally:
            stop.set()

    def _embedded(self, chunked: queue.Queue[Item], total: int, progress: ProgressFn | None
                  ) -> Iterator[list[TextNode]]:
        """The batches of ``chunked``, embedded as they come."""
        model = self._embedder()  # loads while the first batch is chunked
        got = self.store.collection.get(limit=1, include=["embeddings"])
        stored = got.get("embeddings")
        stored_dim = len(stored[0]) if stored is not None and len(stored) else None
        done = 0
        if progress:
            progress(0, total, "embedding abstracts")
        while (item := chunked.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            count, nodes = item
            embedded = [0]  # texts of this batch embedded so far

            def step(n: int, before: int = done, count: int = count, size: int = len(nodes),
                     embedded: list[int] = embedded) -> None:
                embedded[0] += n
                if progress:
                    progress(before + count * embedded[0] // size, total, "embedding abstracts")

            vectors = embed_nodes(model, nodes, step)
            if stored_dim is not None and len(vectors) and vectors.shape[1] != stored_dim:
                raise dimension_mismatch(vectors.shape[1], stored_dim, model.model_name)
            stored_dim = stored_dim or (vectors.shape[1] if len(vectors) else None)
            for node, vector in zip(nodes, vectors.tolist(), strict=True):
                node.embedding = vector
            done += count
            if progress:
                progress(done, total, "embedding abstracts")
            yield nodes


def embed_nodes(model: Embedder, nodes: list[TextNode], on_progress: Callable[[int], None]
                ) -> np.ndarray:
    """The chunks' vectors; with MiniLM also each paper's sentence vectors, from the same
    run (``embed_with_spans``), packed into the chunks' metadata: the extractive answer
    scores every sentence of the abstracts it quotes, and embedding them per question was
    most of an answer's time (bench/latency.py). A sentence no chunk holds whole (an
    abstract past the word-piece limit) is embedded on its own."""
    texts = [n.text for n in nodes]
    if not isinstance(model, MiniLMOnnxEmbedding):
        return model.embed(texts, on_progress)
    spans = _SentenceSpans(nodes, texts)
    vectors, pooled = model.embed_with_spans(texts, spans.plans, on_progress)
    chosen, missing = spans.chosen(pooled)
    if missing:
        alone = model.embed([spans.sentences_of[pid][k] for pid, k in missing])
        for (pid, k), vector in zip(missing, alone, strict=True):
            chosen[pid][k] = (spans.by_paper[pid][0], vector)
    for pid, best in chosen.items():
        per_node: dict[int, list[tuple[int, np.ndarray]]] = {}
        for k, (i, vector) in best.items():
            per_node.setdefault(i, []).append((k, vector))
        for i, items in per_node.items():
            nodes[i].metadata[SENTENCES_KEY] = pack_sentences(sorted(items, key=lambda x: x[0]),
                                                              len(spans.sentences_of[pid]))
    return vectors


class _SentenceSpans:
    """Where each paper's sentences lie in its chunks: the spans each chunk's run pools
    (``plans``) and the sentence number of each span (``owners``)."""

    def __init__(self, nodes: list[TextNode], texts: list[str]) -> None:
        self.by_paper: dict[str, list[int]] = {}
        for i, node in enumerate(nodes):
            self.by_paper.setdefault(str(node.metadata["paper_id"]), []).append(i)
        self.plans: list[list[Span]] = [[] for _ in nodes]
        self.owners: list[list[int]] = [[] for _ in nodes]  # the sentence number of each span
        self.sentences_of: dict[str, list[str]] = {}
        for pid, members in self.by_paper.items():
            # Exact places, not a search in the chunk (a sentence repeated, or inside a longer
            # one, would take the other's words): each sentence's start in the abstract by a
            # cursor, each chunk's from the splitter (``start_char_idx``, found the same way).
            abstract = str(nodes[members[0]].metadata["abstract"])
            sentences = self.sentences_of[pid] = split_sentences(abstract)
            starts, cursor = [], 0
            for sentence in sentences:
                at = abstract.find(sentence, cursor)
                starts.append(at)
                cursor = at + len(sentence) if at >= 0 else cursor
            for i in members:
                begin = nodes[i].start_char_idx
                if begin is None or abstract[begin:begin + len(texts[i])] != texts[i]:
                    continue  # no trustworthy offsets: its sentences are embedded alone
                for k, (sentence, at) in enumerate(zip(sentences, starts, strict=True)):
                    if at >= begin and at + len(sentence) <= begin + len(texts[i]):
                        self.plans[i].append((at - begin, at - begin + len(sentence)))
                        self.owners[i].append(k)

    def chosen(self, pooled: list[np.ndarray]
               ) -> tuple[dict[str, dict[int, tuple[int, np.ndarray]]], list[tuple[str, int]]]:
        """Each paper's sentence vectors from the pooled spans, the first chunk's where two
        hold a sentence (by sentence number: the chunk and the vector), and the sentences
        no chunk held whole."""
        missing: list[tuple[str, int]] = []
        chosen: dict[str, dict[int, tuple[int, np.ndarray]]] = {}
        for pid, members in self.by_paper.items():
            best = chosen.setdefault(pid, {})
            for i in members:
                for k, vector in zip(self.owners[i], pooled[i], strict=True):
                    if k not in best and vector.any():
                        best[k] = (i, vector)
            missing += [(pid, k) for k in range(len(self.sentences_of[pid])) if k not in best]
        return chosen, missing
