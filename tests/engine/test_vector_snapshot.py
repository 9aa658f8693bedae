"""Exact vector search over the embedding cache agrees with LanceDB, and falls back to
the store whenever the cache cannot answer for every entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.search import vector as memory_module
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of

TOPICS = [
    "gearbox oil change in spring",
    "coffee machine descaling",
    "deploy pipeline waits for sync waves",
    "lancedb filters need quoted camelCase columns",
    "sqlite fts5 uses the porter stemmer",
    "oil pressure sensor of the gearbox",
    "the coffee beans come from the corner shop",
    "sync waves order resources in a deploy",
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many(
            [
                NewEntry(f"{text} (note {i})", category="gotcha" if i % 2 else "pattern")
                for i, text in enumerate(TOPICS * 3)
            ]
        )
    return tmp_path


def ranked(root: Path, query: str, category: str | None = None) -> list[tuple[str, float]]:
    """Every entry (of ``category``) with its similarity, best first, ties by id."""
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        parts_of(memory).searcher.min_score = -1.0  # no gate: compare whole rankings
        response = memory.search(query, mode="vector", limit=100, category=category)
        hits = [(r.entry.id, round(r.score, 5)) for r in response.results]
    return sorted(hits, key=lambda hit: (-hit[1], hit[0]))


@pytest.mark.parametrize("category", [None, "gotcha"])
def test_cache_snapshot_ranks_like_lancedb(
    root: Path, monkeypatch: pytest.MonkeyPatch, category: str | None
) -> None:
    from_cache = ranked(root, "gearbox oil", category)
    monkeypatch.setattr(memory_module, "EXACT_IN_MEMORY_MAX", 0)  # force LanceDB
    from_lancedb = ranked(root, "gearbox oil", category)

    assert from_cache == from_lancedb
    assert len(from_cache) == (24 if category is None else 12)
    assert from_cache[0][1] > from_cache[-1][1]


def test_a_missing_cache_falls_back_to_the_store(root: Path) -> None:
    expected = ranked(root, "coffee")
    (root / ".claude" / "memory" / "embeddings.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{root}/.claude/memory/embeddings.sqlite{suffix}").unlink(missing_ok=True)

    assert ranked(root, "coffee") == expected


def test_an_entry_missing_from_the_cache_falls_back_to_the_store(root: Path) -> None:
    with Memory.open(root, embedder=FakeEmbedder(), cache_embeddings=False) as memory:
        extra = memory.add("coffee grinder needs new burrs").entry  # not in the cache

    hits = [entry_id for entry_id, _ in ranked(root, "coffee grinder burrs")]

    assert hits[0] == extra.id


def test_long_lived_memory_sees_writes_of_other_processes(root: Path) -> None:
    with Memory.open(root, embedder=FakeEmbedder(), vectors_in_memory=True) as reader:
        before = reader.search("kettle", mode="vector", limit=3).results
        with Memory.open(root, embedder=FakeEmbedder()) as writer:
            added = writer.add("the kettle whistles when done").entry
        after = reader.search("kettle", mode="vector", limit=3).results

    assert added.id not in [r.entry.id for r in before]
    assert after[0].entry.id == added.id


def test_an_empty_memory_searches_to_nothing(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.search("anything", mode="vector").results == ()
        assert memory.search("anything", mode="hybrid").results == ()
