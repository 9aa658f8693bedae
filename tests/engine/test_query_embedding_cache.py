"""A repeated query is embedded once: the least-recently-used cache of query vectors."""

from __future__ import annotations

from fakes import FakeEmbedder

from engine.services.memory import Memory

CLOSE = "sprocket grease schedule weekly"


def test_seed002_query_embedding_lru_cache(memory: Memory, fake_embedder: FakeEmbedder) -> None:
    from engine.embedding.query_cache import QueryCache

    memory.add(CLOSE)
    before = fake_embedder.queries
    first = memory.search("sprocket grease", mode="vector").results
    again = memory.search("sprocket grease", mode="hybrid").results
    assert fake_embedder.queries == before + 1
    assert [r.entry.id for r in first] == [r.entry.id for r in again]
    memory.search("another question", mode="vector")
    assert fake_embedder.queries == before + 2
    # Least recently used first out; the vector handed out is a copy.
    cache = QueryCache(capacity=2)
    for text in ("a", "b", "a", "c", "a", "b"):
        cache.embed_query(fake_embedder, text)[0] = 99.0
    assert (cache.hits, cache.misses) == (2, 4)  # "b" was evicted by "c"
    assert cache.embed_query(fake_embedder, "a")[0] != 99.0
