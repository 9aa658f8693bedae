"""Issue 38: LanceDB's metadata cache of a long-lived process stays small however many
commits it makes (each commit's manifest and metadata went into it, and a server's RSS
rose for minutes while a 32 MiB cache filled)."""

from __future__ import annotations

from pathlib import Path

from fakes import FakeEmbedder

from engine.services.memory import Memory
from engine.services.parts import parts_of

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
