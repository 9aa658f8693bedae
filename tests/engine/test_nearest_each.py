"""The near-duplicate query of a batch of adds (``RecordStore.nearest_each``, read like a
search's through engine/storage/lance_search.py, on the calling thread), on real LanceDB
files: the same answer as LanceDB's synchronous query, what was committed just before it
included, and no wait for LanceDB's loop thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import numpy as np
import pytest
from fakes import FakeEmbedder
from lancedb.background_loop import LOOP

from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.storage.record_store import RecordStore

TEXTS = [
    "LanceDB needs double quotes around camelCase columns",
    "The indexer skips unchanged knowledge files",
    "SQLite WAL mode lets readers proceed during writes",
    "The server batches the adds of every session",
]


def entry(n: int, content: str) -> Entry:
    stamp = "2025-01-01T00:00:00+00:00"
    return Entry(
        id=f"e{n}",
        content=content,
        created_at=stamp,
        updated_at=stamp,
        content_hash=content_hash(content),
    )


@pytest.fixture
def store(tmp_path: Path, fake_embedder: FakeEmbedder) -> RecordStore:
    store = RecordStore(tmp_path / "vectors", fake_embedder.dimension)
    entries = [entry(n, t) for n, t in enumerate(TEXTS)]
    store.add(entries, fake_embedder.embed_documents(TEXTS))
    return store


def queries(fake_embedder: FakeEmbedder, *texts: str) -> np.ndarray:
    return np.asarray(fake_embedder.embed_documents(list(texts)), dtype=np.float32)


async def the_usual_way(
    store: RecordStore, asked: np.ndarray, limit: int
) -> list[list[tuple[str, float]]]:
    """Called from a coroutine, the store asks through LanceDB's synchronous API."""
    return store.nearest_each(asked, limit, nprobes=20, refine=1)


def test_the_same_answer_as_the_stores_query(
    store: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    for texts in (TEXTS[:1], TEXTS[1:]):
        asked = queries(fake_embedder, *texts)
        here = store.nearest_each(asked, 3, nprobes=20, refine=1)
        usual = asyncio.run(the_usual_way(store, asked, 3))
        assert [[i for i, _ in hits] for hits in here] == [[i for i, _ in hits] for hits in usual]
        assert np.allclose([s for h in here for _, s in h], [s for h in usual for _, s in h])
        assert [hits[0][0] for hits in here] == [f"e{TEXTS.index(t)}" for t in texts]


def test_what_was_committed_just_before_is_found(
    store: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    asked = queries(fake_embedder, TEXTS[0])
    store.nearest_each(asked, 2, nprobes=20, refine=1)  # the async handle opened
    later = "A note stored after the first query"
    store.add([entry(9, later)], fake_embedder.embed_documents([later]))
    (hits,) = store.nearest_each(queries(fake_embedder, later), 1, nprobes=20, refine=1)
    assert hits[0][0] == "e9"


def test_nothing_to_search(tmp_path: Path, store: RecordStore, fake_embedder: FakeEmbedder) -> None:
    asked = queries(fake_embedder, TEXTS[0], TEXTS[1])
    assert store.nearest_each(asked, 0, nprobes=20, refine=1) == [[], []]
    absent = RecordStore(tmp_path / "absent", fake_embedder.dimension)
    assert absent.nearest_each(asked, 3, nprobes=20, refine=1) == [[], []]
    assert not absent.exists()


def test_inside_a_running_event_loop_it_asks_the_usual_way(
    store: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    asked = queries(fake_embedder, *TEXTS[:2])

    async def from_a_coroutine() -> list[list[tuple[str, float]]]:
        return store.nearest_each(asked, 2, nprobes=20, refine=1)

    found = asyncio.run(from_a_coroutine())
    assert [hits[0][0] for hits in found] == ["e0", "e1"]


def test_it_does_not_wait_for_lancedbs_loop_thread(
    store: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    """Issue 49: a server's searches queue their steps on LanceDB's one loop thread; the
    writer's check must not wait behind them. Here that thread is held until the check
    has answered: a check that went through it would wait the full timeout and fail."""
    asked = queries(fake_embedder, *TEXTS)
    store.table()  # opened (through LanceDB's loop) before the loop is held
    release = threading.Event()

    async def hold() -> bool:
        return release.wait(timeout=30)  # blocks the loop's thread, as a busy loop would

    held = asyncio.run_coroutine_threadsafe(hold(), LOOP.loop)
    try:
        found = store.nearest_each(asked, 1, nprobes=20, refine=1)
        answered_first = not held.done()
    finally:
        release.set()
    assert held.result(timeout=30)
    assert answered_first
    assert [hits[0][0] for hits in found] == ["e0", "e1", "e2", "e3"]
