"""Query vectors kept in memory: a long-lived process (``serve-mcp``, the TUI) embeds a
repeated query once (seed 002, "L1 — In-memory LRU cache")."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.embedding.base import Embedder, Vectors

QUERY_CACHE_SIZE = 256
"""Most query vectors kept (each 1.5 KB at 384 dimensions)."""


class QueryCache:
    """Least-recently-used query vectors, keyed by model id and query text; thread-safe.

    ``hits`` and ``misses`` count lookups (misses reached the model)."""

    def __init__(self, capacity: int = QUERY_CACHE_SIZE) -> None:
        self.capacity = capacity
        self._vectors: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def embed_query(self, embedder: Embedder, text: str) -> Vectors:
        """The query vector of ``text``: from the cache, else from ``embedder`` (a copy is
        returned, so a caller cannot change the cached vector)."""
        key = (embedder.model_id, text)
        with self._lock:
            vector = self._vectors.get(key)
            if vector is not None:
                self._vectors.move_to_end(key)
                self.hits += 1
                return vector.copy()
        vector = embedder.embed_query(text)  # outside the lock: other queries go on
        with self._lock:
            self.misses += 1
            self._vectors[key] = vector.copy()
            self._vectors.move_to_end(key)
            while len(self._vectors) > self.capacity:
                self._vectors.popitem(last=False)
        return vector
