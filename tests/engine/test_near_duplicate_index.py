"""The near-duplicate check of a memory large enough for an ANN index goes through the
store's query, and so through the index (issue 38; one vector read path, issue 49)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeEmbedder

from engine.search.vector import ANN_NPROBES
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import maintenance

WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
]


def note(n: int) -> str:
    """A note of ten words, most of them its own."""
    own = [f"w{n}x{k}" for k in range(7)]
    return " ".join([*own, WORDS[n % len(WORDS)], WORDS[(n * 7) % len(WORDS)], f"topic{n}"])


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Memory, list[str]]]:
    monkeypatch.setattr(maintenance, "ANN_MIN_ROWS", 300)
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    added = memory.add_many([NewEntry(note(n)) for n in range(400)])
    assert parts_of(memory).records.maintain_vector_index().startswith("built a vector index")
    yield memory, [r.entry.id for r in added]
    memory.close()


def test_a_near_duplicate_is_found_through_the_ann_index(
    indexed: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory, ids = indexed
    store = parts_of(memory).store()
    assert store.has_vector_index()
    asked: list[int] = []
    real = store.nearest_each

    def nearest_each(*args: Any, **kwargs: Any) -> list[list[tuple[str, float]]]:
        asked.append(kwargs["nprobes"])
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "nearest_each", nearest_each)
    added = memory.add(note(123) + " again")
    assert asked == [ANN_NPROBES]  # one query on the store, with the index's settings
    assert added.created
    assert added.near_duplicate is not None
    assert added.near_duplicate.entry.id == ids[123]
    assert added.near_duplicate.similarity >= 0.9
    assert memory.add("an unrelated sentence about database failover").near_duplicate is None


def test_adds_written_together_look_for_their_near_duplicates_in_one_query(
    indexed: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's batch of adds (``add_together``) asks the store once for all of them,
    not once per add: each query waited its turn on LanceDB with every search (issue 49)."""
    from engine import add_together

    memory, ids = indexed
    store = parts_of(memory).store()
    queries: list[int] = []
    real = store.nearest_each

    def counted(vectors: Any, *args: Any, **kwargs: Any) -> list[list[tuple[str, float]]]:
        queries.append(len(vectors))
        return real(vectors, *args, **kwargs)

    monkeypatch.setattr(store, "nearest_each", counted)
    drafts = [note(n) + " again" for n in (5, 77, 301)]
    results = add_together(memory, [*map(NewEntry, drafts), NewEntry("unrelated failover words")])
    assert queries == [4]  # one query, of the four vectors
    assert [r.near_duplicate.entry.id if r.near_duplicate else None for r in results] == [
        ids[5],
        ids[77],
        ids[301],
        None,
    ]
    assert all(r.created for r in results)
