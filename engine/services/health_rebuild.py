"""The store of record rebuilt from the keyword index (``doctor --rebuild-store``): whether
it needs it (missing while the index lists entries, or any of its files unreadable) and
the rebuild, which keeps every entry's id, text, dates and counts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from engine.core.errors import StorageError
from engine.embedding.base import Embedder
from engine.embedding.cache import CachedEmbedder, EmbeddingCache
from engine.embedding.document import embed_entries
from engine.storage.lance_reads import read_everything
from engine.storage.locking import WriteLock
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths
from engine.storage.record_store import RecordStore

__all__ = ["rebuild_reason", "rebuild_store"]

_BATCH = 256


def rebuild_reason(paths: MemoryPaths, embedder: Embedder) -> str | None:
    """Why the store needs rebuilding from the keyword index, or None when it does not."""
    store = RecordStore(paths.vectors_dir, embedder.dimension)
    if not store.exists():
        if not paths.fts_path.exists():
            return None
        fts = EntryMirror(paths.fts_path)
        try:
            return "missing" if fts.count() else None
        finally:
            fts.close()
    try:
        read_everything(store)
    except StorageError as exc:
        return exc.message
    return None


def rebuild_store(paths: MemoryPaths, embedder: Embedder) -> int:
    """Rebuild the vector store from the keyword index; returns the number of entries.

    The old store folder (if any) is moved aside to ``vectors.broken-<time>``; every
    mirrored entry is written back with its id, dates and counts, its vector (of its
    labels and text) taken from the embedding cache or recomputed."""
    with WriteLock(paths.lock_path).hold():
        fts = EntryMirror(paths.fts_path)
        cache = EmbeddingCache(paths.embedding_cache_path)
        try:
            entries = fts.recent()
            if paths.vectors_dir.exists():
                stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
                paths.vectors_dir.replace(paths.vectors_dir.with_name(f"vectors.broken-{stamp}"))
            store = RecordStore(paths.vectors_dir, embedder.dimension)
            cached = CachedEmbedder(embedder, cache)
            for start in range(0, len(entries), _BATCH):
                batch = entries[start : start + _BATCH]
                store.add(batch, embed_entries(cached, batch))
            with fts.transaction() as db:
                fts.set_state(db, "pending", "0")
                fts.clear_unembedded(db)  # every entry was written with its vector
                fts.set_state(db, "store_version", str(store.version))
                fts.set_state(db, "vectors_version", uuid.uuid4().hex)
        finally:
            cache.close()
            fts.close()
    return len(entries)
