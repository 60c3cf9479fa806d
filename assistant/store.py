"""The Chroma store of one data directory or server: its client, an error guard that makes
every failure one line, and the version stamp other processes read.

Another process may write the same store (``assistant ingest`` beside a running
``assistant serve``): every write stamps ``store-version`` in the data directory, and the
read paths look at that stamp at most once a second; when another writer changed it they
drop their caches (papers, BM25: see ``ChromaStore.on_change``) and reopen Chroma, whose
vector index is otherwise held in memory as it was when opened.

With ``ASSISTANT_DATA_CHROMA_URL`` the store is a Chroma server (``chroma run``) that
processes on several machines share: the stamp then lives in the collection's metadata.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import chromadb
import httpx
from chromadb.api import ServerAPI
from chromadb.api.models.Collection import Collection
from chromadb.config import DEFAULT_DATABASE, DEFAULT_TENANT, System
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError, InternalError, NotFoundError

from assistant.errors import AssistantError, add_secret
from assistant.settings import DEFAULT_COLLECTION, Settings

# Chroma's defaults found a stored vector only 67–93% of the time at 20k vectors on these
# machines; a wider graph and search beam buy recall for ~1 ms (bench/ann_recall.py).
HNSW_CONFIG = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32}
VERSION_FILE = "store-version"  # rewritten after every write; readers compare it
VERSION_KEY = "store_version"  # the same stamp in the collection's metadata, with a server
REFRESH_SECONDS = 1.0  # how often a read path looks at it
PAGE_CHUNKS = 1000  # chunks read at a time (``ChromaStore.get_all``, ``papers``)


class IndexConfigError(AssistantError):
    """The index cannot be used as configured; the message says what to do."""


class EmbeddingMismatchError(IndexConfigError):
    pass


class _Guarded:
    """A Chroma client or collection whose failures are one line naming the store: a
    server that stops answering (it was a traceback of httpx's, in the CLI and in every
    UI handler) or an embedded store that cannot write (a full disk: Chroma's
    InternalError). Its NotFoundError passes: the code reads it as another process's
    --rebuild. A collection a call returns is guarded too."""

    def __init__(self, target: Any, where: str, server: str | None) -> None:
        self._target, self._where, self._server = target, where, server

    @property
    def unguarded(self) -> Any:
        return self._target

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = value(*args, **kwargs)
            except httpx.TransportError as exc:
                raise IndexConfigError(_unreachable(self._server or "", exc)) from exc
            except NotFoundError:
                raise
            except InternalError as exc:
                raise IndexConfigError(
                    f"the index at {self._where} failed: {exc}; check that its disk has free "
                    "space and is writable, then run the command again (what was stored "
                    "before stays)") from exc
            except ChromaError as exc:
                raise IndexConfigError(f"the index at {self._where} refused a request: "
                                       f"{exc}") from exc
            return _Guarded(result, self._where, self._server) if isinstance(
                result, Collection) else result

        return call


class ChromaStore:
    """The collection ``settings.data.collection`` under ``settings.data.dir`` (or on the
    server ``settings.data.chroma_url``), opened or created, with its version stamp.

    ``lock`` guards every read and write of the store and of the caches built on it (one
    lock for all the rooms of one index, so that a refresh never lands mid-way)."""

    def __init__(self, settings: Settings, rebuilding: bool = False) -> None:
        self.settings = settings
        self.dir = Path(settings.data.dir)
        self.name = settings.data.collection
        self.lock = threading.RLock()
        self._rebuilding = rebuilding  # a --rebuild replaces the collection whatever built it
        self.server = _without_credentials(settings.data.chroma_url)
        self._latest: Any = None  # a server's collection as ``_read_version`` last saw it
        self._listeners: list[Callable[[], None]] = []
        # Each collection of a data dir has its own version stamp (and BM25 copy); the
        # default keeps the names stores have always had.
        self._version_file = self.dir / f"{VERSION_FILE}{self.own_suffix}"
        self._client = self._open_client()
        self.embed_name = settings.index.embed_model
        if self.server:  # the version lives in the collection: open it first
            self.collection = self._open_collection()
            self.version = self._read_version()
        else:
            self.version = self._read_version()
            self.collection = self._open_collection()
        if not self.server and not self.version and self.collection.count():
            # a store written before its collection had a stamp of its own (another collection
            # of the dir, or a version without stamps): stamped once, so that its BM25 copy and
            # papers are saved and read, not rebuilt from Chroma by every process
            with contextlib.suppress(OSError):  # a read-only data dir: rebuilt each time then
                self.stamp()
        self.version_checked = time.monotonic()  # when the stamp was last read
        self._count: tuple[str, int] | None = None  # (store version, chunks) last counted

    @property
    def own_suffix(self) -> str:
        """What this collection's files in the data dir add to their names ("" for the
        default collection)."""
        return "" if self.name == DEFAULT_COLLECTION else f"-{self.name}"

    @property
    def where(self) -> str:
        """The store, as messages name it: a server and collection, or a directory."""
        if self.server:
            return f"{self.server} (collection '{self.name}')"
        return str(self.dir)

    # ------------------------------------------------------------ opening

    def _open_client(self) -> _Guarded:
        if self.server:
            client = _Guarded(_http_client(self.server), self.server, self.server)
            with contextlib.suppress(OSError):  # no copy on disk then: rebuilt when needed
                self.dir.mkdir(parents=True, exist_ok=True)
            return client
        try:
            (self.dir / "chroma").mkdir(parents=True, exist_ok=True)
            return _Guarded(chromadb.PersistentClient(
                path=str(self.dir / "chroma"),
                settings=ChromaSettings(anonymized_telemetry=False, allow_reset=True),
            ), str(self.dir), None)
        except Exception as exc:  # OSError, or Chroma's own errors for an unusable path
            raise IndexConfigError(f"cannot open the index in {self.dir}: {exc}; choose "
                                   "another directory with --data-dir or "
                                   "ASSISTANT_DATA_DIR") from exc

    def _open_collection(self) -> Any:
        existing = {c.name for c in self._client.list_collections()}
        if self.name in existing:
            return self._checked(self._client.get_collection(self.name))
        try:
            return self._client.create_collection(
                self.name,
                metadata={"embed_model": self.embed_name, "created": time.time()},
                configuration={"hnsw": HNSW_CONFIG},
            )
        except Exception as exc:  # a server: another process may have just created it
            if not self.server:
                raise
            try:
                return self._checked(self._client.get_collection(self.name))
            except EmbeddingMismatchError:
                raise
            except Exception:
                raise IndexConfigError(f"cannot create the collection '{self.name}' at "
                                       f"{self.where}: {exc}") from exc

    def _checked(self, collection: Any) -> Any:
        """``collection``, refused when another embedding model built it; an empty one (a
        first ingest that failed, with a mistyped model) is not (an ingest then labels it
        with the configured model), and a --rebuild replaces it anyway."""
        built_with = (collection.metadata or {}).get("embed_model")
        if built_with and built_with != self.embed_name and not self._rebuilding:
            if collection.count() == 0:  # relabelled by this process's first write only
                return collection
            raise EmbeddingMismatchError(
                f"the index at {self.where} was built with the embedding model '{built_with}', "
                f"but '{self.embed_name}' is configured. Rebuild it with "
                "`assistant ingest --rebuild`, or set "
                f"ASSISTANT_INDEX_EMBED_MODEL={built_with}."
            )
        return collection

    def recreate(self) -> None:
        """Delete the collection and open it anew, empty (the start of a --rebuild)."""
        self._client.delete_collection(self.name)
        self.collection = self._open_collection()

    def label(self) -> None:
        """An empty collection a failed first ingest labelled with another embedding model
        is this model's now."""
        built_with = (self.collection.metadata or {}).get("embed_model")
        if built_with != self.embed_name and self.chunk_count() == 0:
            self.collection.modify(metadata={**(self.collection.metadata or {}),
                                             "embed_model": self.embed_name})

    # ------------------------------------------------------------ other writers

    def on_change(self, forget: Callable[[], None]) -> None:
        """Have ``forget`` called whenever another process is found to have written the
        store (a cache built on it is stale then)."""
        self._listeners.append(forget)

    def _read_version(self) -> str:
        """The store's version: a file beside the embedded store; in server mode the
        collection's id and its metadata's stamp (processes may share no disk)."""
        if not self.server:
            try:
                return self._version_file.read_text()
            except (OSError, ValueError):  # none, or garbage (not UTF-8): written anew
                return ""
        try:
            collection = self._client.get_collection(self.name)
        except NotFoundError:  # mid-way through another process's --rebuild
            self._latest = None
            return ""
        self._latest = collection
        return f"{collection.id} {(collection.metadata or {}).get(VERSION_KEY, '')}"

    def stamp(self) -> None:
        """Mark the store as written (after every write), for readers in other processes."""
        stamp = f"{time.time_ns()} {os.getpid()} {uuid.uuid4().hex}"
        if self.server:
            # Only this key changes; the others (embed_model, created) are set at creation.
            self.collection.modify(metadata={**(self.collection.metadata or {}),
                                             VERSION_KEY: stamp})
            self.version = f"{self.collection.id} {stamp}"
            return
        tmp = self.dir / f".{self._version_file.name}.{os.getpid()}.{threading.get_ident()}"
        tmp.write_text(stamp)
        os.replace(tmp, self._version_file)
        self.version = stamp

    def refresh(self, force: bool = False) -> None:
        """When someone else wrote the store since we last looked (at most once a second
        unless ``force``): drop the caches (``on_change``) and reopen Chroma. Caller holds
        the lock."""
        now = time.monotonic()
        if not force and now - self.version_checked < REFRESH_SECONDS:
            return
        self.version_checked = now
        current = self._read_version()
        if current == self.version:
            return
        for forget in self._listeners:
            forget()
        if self._reopen_collection():
            self.version = current  # else: looked at again next time

    def _reopen_collection(self) -> bool:
        """A Chroma view of the store as it is now. Chroma keeps one client per path per
        process, holding the vector index as it was loaded; a private one of our own sees
        what the other process wrote, and leaves anyone else's client in this process be.
        The one it replaces is left to the garbage collector: a search may still use it.
        A server always answers with the store as it is now: only a --rebuild elsewhere
        (a new collection id) needs the handle that ``_read_version`` just fetched."""
        if self.server:
            if self._latest is None:
                return False
            self.collection = self._checked(self._latest)
            return True
        settings = ChromaSettings(anonymized_telemetry=False, allow_reset=True,
                                  is_persistent=True, persist_directory=str(self.dir / "chroma"))
        system = System(settings)
        api = system.instance(ServerAPI)
        system.start()
        try:
            model = api.get_collection(self.name, tenant=DEFAULT_TENANT, database=DEFAULT_DATABASE)
        except Exception:  # e.g. mid-way through another process's --rebuild
            system.stop()
            return False
        self.collection = self._checked(_Guarded(Collection(client=api, model=model),
                                                 str(self.dir), None))
        return True

    @property
    def rebuild_marker(self) -> Path:
        """The file a --rebuild under way keeps in the data dir (its process id)."""
        return self.dir / f".rebuilding-{self.name}"

    def rebuild_under_way(self) -> bool:
        """Another process's --rebuild has emptied this store and is filling it again:
        seeding it now would mix the seeds into the rebuilt index. A marker whose process is
        gone (an interrupted rebuild) is stale, and removed."""
        if self.server:
            return False
        try:
            pid = int(self.rebuild_marker.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            self.rebuild_marker.unlink(missing_ok=True)
            return False
        except PermissionError:  # another user's live process
            return True
        return True

    # ------------------------------------------------------------ reading

    def chunk_count(self) -> int:
        """The stored chunks, counted again only when the store's version changed (a count
        cost Chroma ~10 ms, once per question)."""
        with self.lock:
            self.refresh()
            if self._count is None or self._count[0] != self.version or not self.version:
                self._count = (self.version, int(self.collection.count()))
            return self._count[1]

    def pages(self, include: list[str]) -> Iterator[dict[str, Any]]:
        """Every chunk's ids and ``include`` fields, a Chroma ``get`` of PAGE_CHUNKS at a
        time: one get of all of them fails past ~32k chunks in the embedded store ("too
        many SQL variables", bench/scale.py at 50k), and one of every chunk's metadata held
        1.2 GB at 21.8k chunks (the allocator kept it), pages about a third of that."""
        offset = 0
        while True:
            got = self.collection.get(include=include, limit=PAGE_CHUNKS, offset=offset)
            yield got
            offset += PAGE_CHUNKS
            if len(got["ids"]) < PAGE_CHUNKS:
                return

    def get_all(self, include: list[str]) -> dict[str, list[Any]]:
        """Every chunk's ids and ``include`` fields, read in ``pages``."""
        out: dict[str, list[Any]] = {"ids": [], **{key: [] for key in include}}
        for got in self.pages(include):
            for key in out:
                page = got[key]  # embeddings come as one numpy array
                out[key].extend([] if page is None else page)
        return out


def _without_credentials(url: str | None) -> str | None:
    """The server URL as messages and the page show it: scheme, host and port. A user,
    password, path, query or fragment in it is never used (the client takes host and port)
    and never shown; the password and query values are kept out of every message."""
    url = (url or "").strip()
    if not url:
        return None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise IndexConfigError("bad Chroma server URL in ASSISTANT_DATA_CHROMA_URL or "
                               "--chroma-url: expected http://HOST:PORT") from None
    if parts.password:
        add_secret(parts.password)
    for _, value in parse_qsl(parts.query) + [("", parts.fragment)]:
        if value:
            add_secret(value)  # "?token=…": never sent, never shown
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return f"{parts.scheme}://{netloc}" if parts.scheme and netloc else url


def _unreachable(url: str, exc: BaseException | None = None) -> str:
    port = urlsplit(url).port or 8000
    why = f" ({type(exc).__name__})" if exc is not None else ""
    return (f"cannot reach a Chroma server at {url}{why}: start one with `chroma run --path DIR "
            f"--port {port}` (the chromadb package installs `chroma`), or unset "
            "ASSISTANT_DATA_CHROMA_URL / --chroma-url to use the index on disk; what was "
            "stored before stays")


# chromadb's own client waits forever: a server that accepts and never answers hung every
# command. The heartbeat gets 10 s; a call afterwards (a page of 13.9k papers' metadata) 120.
HEARTBEAT_TIMEOUT = httpx.Timeout(10.0)
SERVER_TIMEOUT = httpx.Timeout(120.0, connect=10.0)


def _http_client(url: str) -> Any:
    """A client of the Chroma server at ``url`` (telemetry off), or a one-line reason."""
    parts = urlsplit(url)  # checked by _without_credentials
    port = parts.port or (443 if parts.scheme == "https" else 8000)
    if parts.scheme not in ("http", "https") or not parts.hostname or not port:
        raise IndexConfigError(f"bad Chroma server URL '{url}': expected http://HOST:PORT "
                               "(ASSISTANT_DATA_CHROMA_URL or --chroma-url)")
    try:  # first a heartbeat that may wait only so long: a server that never answers hung
        httpx.get(f"{url}/api/v2/heartbeat", timeout=HEARTBEAT_TIMEOUT).raise_for_status()
        client = chromadb.HttpClient(host=parts.hostname, port=port, ssl=parts.scheme == "https",
                                     settings=ChromaSettings(anonymized_telemetry=False))
    except Exception as exc:  # refused, no such host, no answer, or not a Chroma server
        raise IndexConfigError(_unreachable(url, exc)) from exc
    session = getattr(getattr(client, "_server", None), "_session", None)
    if isinstance(session, httpx.Client):  # and every later call of this client
        session.timeout = SERVER_TIMEOUT
    return client
