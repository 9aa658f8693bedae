"""Where an add's time goes, for benchmarks: lock wait, store commit, mirror transaction,
embedding: the split that says which part of a write to cut.

Off unless ``MEMORY_TUI_WRITE_PROFILE`` names a file: then each finished add appends one
JSON line ``{"lock_wait": ms, "store": ms, "mirror": ms, "embed": ms, ..., "total": ms}``
to it (``bench.http_load`` sets it for the server it starts and reads the file after).
Parts are gathered per thread: the add's own thread times its embedding, and the write it
reaches times the lock, the commit and the mirror transaction.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator

ENV = "MEMORY_TUI_WRITE_PROFILE"

_local = threading.local()
_file_lock = threading.Lock()


def enabled() -> bool:
    """Whether adds are being profiled (the environment names a file)."""
    return bool(os.environ.get(ENV))


def note(part: str, ms: float) -> None:
    """Add ``ms`` to ``part`` of this thread's add in progress."""
    parts: dict[str, float] | None = getattr(_local, "parts", None)
    if parts is not None:
        parts[part] = parts.get(part, 0.0) + ms


@contextlib.contextmanager
def timed(part: str) -> Iterator[None]:
    """Time the block as ``part`` of this thread's add in progress."""
    if getattr(_local, "parts", None) is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        note(part, (time.perf_counter() - started) * 1000)


@contextlib.contextmanager
def add() -> Iterator[None]:
    """Profile one add (a no-op unless :func:`enabled`); nested calls join the outer one."""
    path = os.environ.get(ENV)
    if not path or getattr(_local, "parts", None) is not None:
        yield
        return
    _local.parts = {}
    started = time.perf_counter()
    try:
        yield
    finally:
        parts = _local.parts
        _local.parts = None
        parts["total"] = (time.perf_counter() - started) * 1000
        line = json.dumps({k: round(v, 3) for k, v in parts.items()})
        with _file_lock, open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
