"""Vectors kept on disk: :class:`EmbeddingCache` (SQLite, keyed by a hash of the embedded
text — for entries, :func:`~engine.embedding.document.document_key` — and the model id)
and :class:`CachedEmbedder`, which sends only unseen texts to the model."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import LockTimeoutError
from engine.core.hashing import content_hash
from engine.embedding.base import Embedder
from engine.storage.sqlite import (
    enable_wal,
    is_busy_error,
    is_write_denied,
    open_read_only,
    warn_read_only,
)

if TYPE_CHECKING:
    from engine.embedding.base import Vectors

log = logging.getLogger(__name__)

PAGE_SIZE = 16_384
"""SQLite page size of a new cache file. A row (64-character key, model id, 1,536 bytes of
float32 at 384 dimensions) is larger than what a ``WITHOUT ROWID`` table keeps in a 4 KiB
page (about 1 KB): the rest went to an overflow page of its own, 4.7 KB on disk per vector
(447 MiB for 100,000 entries). In 16 KiB pages the row stays whole: 1.9 KB per vector
(issue 38). A file made before keeps its pages (SQLite changes them only in a VACUUM)."""


class EmbeddingCache:
    """Persistent vectors keyed by (content hash, model id), in a small SQLite file.

    Safe to share between threads and processes (WAL, short transactions).
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.recreated = False
        """True when an unreadable file was moved aside (``.corrupt``) and started anew."""
        self.read_only = False
        """True when the file could only be opened for reading (new vectors are dropped)."""
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if is_busy_error(exc):
                raise LockTimeoutError(f"memory is busy: {path} stayed locked") from exc
            if path.exists() and is_write_denied(exc, path):
                self._db = self._read_only(exc)
                return
            # Derived data: vectors are recomputed on demand, so start over.
            log.warning("embedding cache %s is unreadable (%s); starting a new one", path, exc)
            for suffix in ("", "-wal", "-shm"):
                part = path.with_name(path.name + suffix)
                if part.exists():
                    part.replace(part.with_name(part.name + ".corrupt"))
            self._db = self._open()
            self.recreated = True

    def _read_only(self, exc: sqlite3.DatabaseError) -> sqlite3.Connection:
        """The cache opened for reading, when its folder cannot be written (see
        :func:`~engine.storage.sqlite.is_write_denied`); new vectors are then not kept."""
        warn_read_only(self._path, exc)
        self.read_only = True
        try:
            return open_read_only(self._path)
        except sqlite3.DatabaseError:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            db.execute(
                "CREATE TABLE embedding_cache (content_hash TEXT NOT NULL, model_id TEXT NOT "
                "NULL, vector BLOB NOT NULL, PRIMARY KEY (content_hash, model_id))"
            )
            return db

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._path, timeout=30, check_same_thread=False)
        try:
            db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new, empty file only
            enable_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS embedding_cache ("
                " content_hash TEXT NOT NULL, model_id TEXT NOT NULL, vector BLOB NOT NULL,"
                " PRIMARY KEY (content_hash, model_id)) WITHOUT ROWID"
            )
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def get_many(self, hashes: Sequence[str], model_id: str) -> dict[str, bytes]:
        """Cached vectors (raw float32 bytes) for those of ``hashes`` that are present."""
        found: dict[str, bytes] = {}
        with self._lock:
            for start in range(0, len(hashes), 500):
                part = list(hashes[start : start + 500])
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    "SELECT content_hash, vector FROM embedding_cache"
                    f" WHERE model_id = ? AND content_hash IN ({marks})",
                    [model_id, *part],
                )
                found.update(rows.fetchall())
        return found

    def put_many(self, items: Sequence[tuple[str, bytes]], model_id: str) -> None:
        """Store vectors; existing keys are left as they are (nothing when read-only)."""
        if self.read_only:
            return
        with self._lock:
            self._db.executemany(
                "INSERT OR IGNORE INTO embedding_cache (content_hash, model_id, vector)"
                " VALUES (?, ?, ?)",
                [(h, model_id, v) for h, v in items],
            )
            self._db.commit()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


class CachedEmbedder:
    """Wraps an :class:`Embedder`; documents already embedded are read from the cache.

    ``misses`` counts texts actually sent to the model, which tests and the indexer
    report ("re-embedded chunks").
    """

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.misses = 0

    @property
    def model_id(self) -> str:
        """See :class:`Embedder`."""
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        """See :class:`Embedder`."""
        return self.inner.dimension

    @property
    def loaded(self) -> bool:
        """Whether the wrapped model is in memory (searches that must not wait check it)."""
        return self.inner.loaded

    def load(self) -> None:
        """Load the wrapped model now, if it loads lazily."""
        self.inner.load()

    @property
    def model(self) -> Embedder:
        """See :class:`Embedder`: the wrapped model's."""
        return self.inner.model

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """See :class:`Embedder`; only cache misses reach the model."""
        return self.embed_keyed(texts, [content_hash(t) for t in texts])

    def embed_keyed(self, texts: Sequence[str], keys: Sequence[str]) -> Vectors:
        """Like :meth:`embed_documents`, the cache keeping each text's vector under the
        given key (an entry's :func:`~engine.embedding.document.document_key`)."""
        import numpy as np

        cached = self.cache.get_many(list(dict.fromkeys(keys)), self.model_id)
        missing = list(dict.fromkeys(k for k in keys if k not in cached))
        if missing:
            text_of = dict(zip(keys, texts, strict=True))
            fresh = self.inner.embed_documents([text_of[k] for k in missing])
            self.misses += len(missing)
            items = [(k, fresh[i].astype(np.float32).tobytes()) for i, k in enumerate(missing)]
            self.cache.put_many(items, self.model_id)
            cached.update(items)
        out = np.empty((len(keys), self.dimension), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = np.frombuffer(cached[key], dtype=np.float32)
        return out

    def cached_keyed(self, keys: Sequence[str]) -> tuple[Vectors, list[int]]:
        """The vectors the cache holds under ``keys`` without running the model, and the
        rows it has none for (left all zeros)."""
        import numpy as np

        found = self.cache.get_many(list(dict.fromkeys(keys)), self.model_id)
        out = np.zeros((len(keys), self.dimension), dtype=np.float32)
        missing = []
        for row, key in enumerate(keys):
            if key in found:
                out[row] = np.frombuffer(found[key], dtype=np.float32)
            else:
                missing.append(row)
        return out, missing

    def embed_query(self, text: str) -> Vectors:
        """See :class:`Embedder` (queries are not cached)."""
        return self.inner.embed_query(text)
