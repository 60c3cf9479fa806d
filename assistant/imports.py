"""Heavy library imports, made cheaper: Python's cyclic garbage collector paused, then frozen.

Importing Chroma alone creates ~75,000 long-lived objects, and the collector kept re-walking
them while the imports ran: under `perf`, ~17% of `import chromadb` was the collector, and
~0.3 s more went to walking them again at exit. ``gc.freeze`` afterwards leaves them out of
every later collection, the one at exit included.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class _Pause:
    """The pause under way: how many ``importing`` blocks (in any thread) are inside it, and
    what its first one found: the collector's state and how many modules were loaded."""

    depth: int = 0
    was_enabled: bool = True
    modules: int = 0


_LOCK = threading.Lock()
_PAUSE = _Pause()


@contextmanager
def importing() -> Iterator[None]:
    """Run the ``with`` block's imports with the collector paused (in every thread: the
    collector is global), then freeze every object alive if they imported anything new.
    Only then: a freeze also keeps any cyclic garbage of the moment for good, so a block
    whose modules are imported already (each upload's ingest in `assistant serve`) freezes
    nothing. A pause the caller made itself (``gc.disable()`` before) is left in place."""
    with _LOCK:
        if _PAUSE.depth == 0:
            _PAUSE.was_enabled, _PAUSE.modules = gc.isenabled(), len(sys.modules)
            gc.disable()
        _PAUSE.depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _PAUSE.depth -= 1
            if _PAUSE.depth == 0:
                if len(sys.modules) > _PAUSE.modules:
                    gc.freeze()
                if _PAUSE.was_enabled:
                    gc.enable()
