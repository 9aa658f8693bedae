"""A long-lived process updates its in-memory vectors with its own writes (issue 16).

Before, every add made the next vector search reload every vector from disk (20–90 ms
and megabytes of garbage per add in a busy server). Now the write's delta is applied in
place; a write of another process still makes the copy reload.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fakes import FakeEmbedder

from engine.search.vector_snapshot import VectorSnapshot
from engine.services.memory import Memory
from engine.services.parts import parts_of


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    opened = Memory.open(tmp_path, embedder=FakeEmbedder(), vectors_in_memory=True)
    yield opened
    opened.close()


def _count_loads(memory: Memory) -> list[int]:
    loads = [0]
    original = parts_of(memory).vectors.snapshot

    def counting() -> object:
        loads[0] += 1
        return original()

    parts_of(memory).vectors.snapshot = counting  # type: ignore[method-assign]
    return loads


def _ranking(memory: Memory, query: str) -> list[str]:
    return [r.entry.id for r in memory.search(query, mode="vector", limit=50).results]


def test_own_writes_update_the_copy_without_a_reload(memory: Memory, tmp_path: Path) -> None:
    first = [memory.add(f"river {i} bank erosion notes").entry for i in range(5)]
    loads = _count_loads(memory)
    assert _ranking(memory, "river erosion")  # loads at most once (adds may have loaded it)
    assert loads[0] <= 1
    before = loads[0]
    added = memory.add("river delta sediment", category="architecture").entry
    memory.update(first[0].id, content="mountain glacier retreat")
    memory.delete(first[1].id)
    parts_of(memory).entries.update_metadata([memory.require(first[2].id)])
    ranking = _ranking(memory, "river erosion")
    assert loads[0] == before  # no reload for this process's own writes
    assert added.id in ranking and first[1].id not in ranking
    assert _ranking(memory, "glacier")[0] == first[0].id
    with Memory.open(tmp_path, embedder=FakeEmbedder(), vectors_in_memory=True) as fresh:
        assert _ranking(fresh, "river erosion") == ranking  # same as a full load
        assert [
            r.entry.id
            for r in fresh.search("sediment", mode="vector", category="architecture").results
        ] == [added.id]
    assert [
        r.entry.id
        for r in memory.search("sediment", mode="vector", category="architecture").results
    ] == [added.id]


def test_another_process_write_still_reloads(memory: Memory, tmp_path: Path) -> None:
    memory.add("first note about owls")
    loads = _count_loads(memory)
    _ranking(memory, "owls")
    before = loads[0]
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as other:
        owl = other.add("second note about owls at night").entry
    assert owl.id in _ranking(memory, "owls")
    assert loads[0] == before + 1


def test_a_delta_for_another_version_is_ignored() -> None:
    index = VectorSnapshot()
    matrix = np.eye(3, dtype=np.float32)
    index.refresh("v1", lambda: (["a", "b", "c"], ["x", "x", "y"], matrix))
    vectors = np.array([[0, 1, 0]], dtype=np.float32)
    assert not index.apply("v0", "v2", (["d"], ["x"], vectors))
    assert index.size == 3
    assert index.apply("v1", "v2", (["d"], ["z"], vectors), removed=["b"])
    assert index.size == 3
    assert [i for i, _ in index.search(np.array([0, 1, 0], np.float32), 1)] == ["d"]
    assert [i for i, _ in index.search(np.array([0, 1, 0], np.float32), 5, "z")] == ["d"]


def test_many_single_deltas_match_a_fresh_load() -> None:
    """Adds append into a growing buffer (no copy of the matrix per add); after hundreds of
    them, with deletes and re-embeddings among them, every search and the similarities
    read the same rows as an index loaded from scratch."""
    rng = np.random.default_rng(7)
    held: dict[str, tuple[str, np.ndarray]] = {}
    index = VectorSnapshot()
    index.refresh("v0", lambda: ([], [], np.empty((0, 8), np.float32)))
    for step in range(300):
        entry_id = f"e{step}"
        vector = rng.standard_normal((1, 8)).astype(np.float32)
        category = "even" if step % 2 == 0 else "odd"
        removed = [f"e{step - 7}"] if step % 10 == 9 else []
        if step % 25 == 24:
            entry_id = f"e{step - 3}"  # re-embedded: the same id with a new vector
        assert index.apply(f"v{step}", f"v{step + 1}", ([entry_id], [category], vector), removed)
        for gone in removed:
            held.pop(gone, None)
        held[entry_id] = (category, vector[0])
    assert index.size == len(held)
    fresh = VectorSnapshot()
    ids = list(held)
    matrix = np.stack([held[i][1] for i in ids]).astype(np.float32)
    fresh.refresh("f", lambda: (ids, [held[i][0] for i in ids], matrix))
    for _ in range(20):
        query = rng.standard_normal(8).astype(np.float32)
        assert index.search(query, 10) == fresh.search(query, 10)
        assert index.search(query, 10, "odd") == fresh.search(query, 10, "odd")
        assert index.similarities(query, ids[:30]) == fresh.similarities(query, ids[:30])
