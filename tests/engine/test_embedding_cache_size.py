"""The embedding cache's size on disk per vector (issue 38: 4.7 KB per 1.5 KB vector,
each row spilling into an overflow page of its own)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import numpy as np

from engine.embedding.cache import EmbeddingCache

VECTORS = 3_000


def test_a_new_cache_keeps_each_vector_whole(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    cache = EmbeddingCache(path)
    rng = np.random.default_rng(38)
    items = [
        (hashlib.sha256(str(n).encode()).hexdigest(), rng.random(384, np.float32).tobytes())
        for n in range(VECTORS)
    ]
    for start in range(0, VECTORS, 500):  # keys in random order, as content hashes come
        cache.put_many(items[start : start + 500], "onnx-all-MiniLM-L6-v2-int8")
    got = cache.get_many([items[7][0], items[2_999][0]], "onnx-all-MiniLM-L6-v2-int8")
    cache.close()

    assert got == {items[7][0]: items[7][1], items[2_999][0]: items[2_999][1]}
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        size = pages * db.execute("PRAGMA page_size").fetchone()[0]
    assert size / VECTORS < 2.5 * 1536  # a 1,536-byte vector and its key, not 4.7 KB


def test_an_existing_cache_opens_with_its_own_pages(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA page_size=4096")
        db.execute(
            "CREATE TABLE embedding_cache (content_hash TEXT NOT NULL, model_id TEXT NOT NULL,"
            " vector BLOB NOT NULL, PRIMARY KEY (content_hash, model_id)) WITHOUT ROWID"
        )
        db.execute("INSERT INTO embedding_cache VALUES ('k', 'm', x'0000803f')")
    cache = EmbeddingCache(path)
    assert cache.get_many(["k"], "m") == {"k": b"\x00\x00\x80\x3f"}
    cache.close()
