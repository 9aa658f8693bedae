"""LanceDB's caches in a long-lived process: one session, the store's, whatever the first
read is, and its metadata cache small however many commits it makes (issue 38: each
commit's manifest and metadata went into it, and a server's RSS rose for minutes while a
32 MiB cache filled)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder, note_texts

from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import maintenance

SINGLE_ADDS = 600
"""Commits enough to pass 8 MiB of cached metadata (~18 KiB each) without a bound."""


def test_the_metadata_cache_stays_within_a_few_mib_over_many_commits(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        for i in range(SINGLE_ADDS):
            memory.add(f"note {i}: the heron number {i} nests by the weir")
        store = parts_of(memory).records.store()
        assert store.figures()["rows"] == SINGLE_ADDS
        cached = store.cache.size_bytes
        assert 0 < cached <= 5 * 1024 * 1024, f"{cached / 2**20:.1f} MiB cached"
        hit = memory.search("heron number 377", mode="keyword").results[0]
        assert hit.entry.content.startswith("note 377:")


def test_a_search_reads_the_index_through_the_stores_one_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process whose first read of the store is a search (a server, the app) keeps the
    index pages it reads in the store's session, under its bounds: the search's handle
    on the table was opened before the connection made that session, and so read
    through LanceDB's default one (6 GiB of index, 1 GiB of metadata) beside it."""
    monkeypatch.setattr(maintenance, "ANN_MIN_ROWS", 300)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        assert parts_of(memory).records.maintain_vector_index().startswith("built")

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.search("gearbox oil deploy", mode="vector", limit=10).results
        index_vectors = 400 * FakeEmbedder().dimension * 4  # IVF_FLAT: a copy of each
        cached = parts_of(memory).records.store().cache.size_bytes
        assert cached >= index_vectors, f"{cached} bytes in the store's session"
