"""A search's reads of the store (:mod:`engine.storage.lance_search`): through LanceDB's
async API in the caller's thread, and the same answers where that cannot run."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fakes import FakeEmbedder

from engine.core.errors import StorageError
from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.storage.record_store import RecordStore

TEXTS = {
    "a": "LanceDB needs double quotes around camelCase columns",
    "b": "The indexer skips unchanged knowledge files",
    "c": "SQLite WAL mode lets readers proceed during writes",
    "d": "It's a quote: O'Brien's column",
}


def make_entry(entry_id: str, content: str) -> Entry:
    stamp = "2025-01-01T00:00:00+00:00"
    return Entry(
        id=entry_id, content=content, created_at=stamp, updated_at=stamp,
        content_hash=content_hash(content),
    )  # fmt: skip


@pytest.fixture
def filled(tmp_path: Path, fake_embedder: FakeEmbedder) -> RecordStore:
    store = RecordStore(tmp_path / "vectors", fake_embedder.dimension)
    entries = [make_entry(i, t) for i, t in TEXTS.items()]
    store.add(entries, fake_embedder.embed_documents([e.content for e in entries]))
    return store


def reads(store: RecordStore, qvec: Any) -> tuple[Any, ...]:
    return (
        store.nearest(qvec, 3),
        store.vectors_for(["a", "c", "missing"]),
        store.nearest(qvec, 2, where="id != 'a'"),
    )


def same(one: tuple[Any, ...], other: tuple[Any, ...]) -> None:
    assert one[0] == other[0]
    assert sorted(one[1]) == sorted(other[1])
    for entry_id, vector in one[1].items():
        np.testing.assert_array_equal(vector, other[1][entry_id])
    assert one[2] == other[2]


def test_a_search_s_reads_do_not_go_through_the_synchronous_table(
    filled: RecordStore, fake_embedder: FakeEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    qvec = fake_embedder.embed_query("quote column")
    table = filled.table()
    before = reads(filled, qvec)
    exact = [e.id for e, _ in filled.vector_search(qvec, 3, exact=True)]

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a search read through the synchronous table")

    monkeypatch.setattr(table, "search", refused)
    after = reads(filled, qvec)

    same(after, before)
    assert [i for i, _ in after[0]] == exact
    assert set(after[1]) == {"a", "c"}
    assert [i for i, _ in after[2]] and "a" not in dict(after[2])


def test_inside_a_running_event_loop_the_same_reads_take_the_synchronous_api(
    filled: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    """A coroutine calling the blocking search directly: ``asyncio.run`` cannot nest, so
    LanceDB's synchronous API answers, the same."""
    qvec = fake_embedder.embed_query("quote column")

    async def in_a_loop() -> tuple[Any, ...]:
        return reads(filled, qvec)

    same(asyncio.run(in_a_loop()), reads(filled, qvec))


def test_a_search_leaves_its_thread_s_event_loop_as_it_was(
    filled: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    """A thread with an event loop set (not running) keeps it: the reads run on a loop
    of their own (``asyncio.run`` would have unset the thread's)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        assert filled.nearest(fake_embedder.embed_query("quote column"), 2)
        assert asyncio.get_event_loop_policy().get_event_loop() is loop
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def test_a_search_sees_a_write_made_after_its_handle_opened(
    filled: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    qvec = fake_embedder.embed_query("zeppelin hangar")
    assert "z" not in dict(filled.nearest(qvec, 10))
    filled.add(
        [make_entry("z", "zeppelin hangar")], fake_embedder.embed_documents(["zeppelin hangar"])
    )
    assert filled.nearest(qvec, 1)[0][0] == "z"
    filled.delete(["z"])
    assert "z" not in dict(filled.nearest(qvec, 10)) and filled.vectors_for(["z"]) == {}


def test_a_store_gone_under_a_search_fails_with_a_clear_message(
    filled: RecordStore, fake_embedder: FakeEmbedder
) -> None:
    qvec = fake_embedder.embed_query("quote column")
    assert filled.nearest(qvec, 2)
    shutil.rmtree(filled.path)
    with pytest.raises(StorageError, match="vector store"):
        filled.vectors_for(["a"])
