"""Heavy library imports, made cheaper: Python's cyclic garbage collector paused, then frozen.

Importing Chroma, the pipeline or LlamaIndex creates tens of thousands of long-lived objects
(~75,000 for Chroma and the pipeline), and the collector kept re-walking them while the
imports ran: ~17% of a cold `assistant ask`, and 0.3 s more at exit. ``gc.freeze`` afterwards
leaves them out of every later collection, the one at exit included.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_PAUSES = [0]  # imports under way in any thread; the collector runs again after the last
_BEFORE: list[tuple[bool, int]] = []  # the collector's state and len(sys.modules) at the first


@contextmanager
def importing() -> Iterator[None]:
    """Run the ``with`` block's imports with the collector paused (in every thread: the
    collector is global), then freeze every object alive if they imported anything new.
    Only then: a freeze also keeps any cyclic garbage of the moment for good, so a block
    whose modules are imported already (each upload's ingest in `assistant serve`) freezes
    nothing. A pause the caller made itself (``gc.disable()`` before) is left in place."""
    with _LOCK:
        if _PAUSES[0] == 0:
            _BEFORE.append((gc.isenabled(), len(sys.modules)))
            gc.disable()
        _PAUSES[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _PAUSES[0] -= 1
            if _PAUSES[0] == 0:
                enabled, modules = _BEFORE.pop()
                if len(sys.modules) > modules:
                    gc.freeze()
                if enabled:
                    gc.enable()
