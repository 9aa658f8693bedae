"""Hybrid search reads the entries of the candidates its relevance gate judges, not of
every candidate either retriever found (issue 38: converting two hundred rows was most of a
search's time under load), and answers exactly as when it read them all."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from search_oracles import gate

from bench.search_oracles import fuse
from engine.core.models import Entry
from engine.search.query import Query
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.mirror import EntryMirror

TOPICS = ["deploy", "database", "cache", "auth", "queue", "billing"]


@pytest.fixture
def crowded(memory: Memory) -> Memory:
    """150 notes, each holding the word 'service': every list is full."""
    memory.add_many(
        [
            NewEntry(f"Note {i}: the {TOPICS[i % 6]} service on port {8000 + i} restarts")
            for i in range(150)
        ]
    )
    return memory


def test_hybrid_reads_only_the_entries_it_judges(
    crowded: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[str] = []
    real = EntryMirror.get_many

    def get_many(self: EntryMirror, ids: Sequence[str]) -> dict[str, Entry]:
        read.extend(ids)
        return real(self, ids)

    def ranked(*args: object) -> None:
        raise AssertionError("hybrid search read the keyword hits' entries")

    monkeypatch.setattr(EntryMirror, "get_many", get_many)
    monkeypatch.setattr(EntryMirror, "ranked", ranked)
    response = crowded.search("deploy service restarts", mode="hybrid", limit=5)
    assert response.results
    assert all("deploy" in r.entry.content for r in response.results[:3])
    assert 0 < len(read) <= 40  # the gate's batches of 20; 100 + 100 candidates were found


def test_hybrid_answers_as_fusing_every_entry_does(crowded: Memory) -> None:
    """The same results, scores and explanations as fusing and gating the candidates
    with every entry read (the path before, still what ``fuse`` and ``gate`` do)."""
    searcher = parts_of(crowded).searcher
    for query in ["deploy service restarts", "port 8042", "billing queue", "auth cache"]:
        got = crowded.search(query, mode="hybrid", limit=5).results
        asked = searcher.keyword.search(query, 100)
        qvec = searcher.query_cache.embed_query(parts_of(crowded).embedder, query)
        nearest = searcher.vectors.search(qvec, 100)
        fused = fuse(
            nearest,
            asked,
            60,
            searcher.keyword_weight,
            searcher.fusion,
            keyword_complete=len(asked) < 100,
        )
        expected = gate(
            searcher.keyword.query_weights(Query.parse(query)),
            qvec,
            fused,
            5,
            min_score=searcher.min_score,
            similarities=lambda q, batch: searcher.vectors.similarities_started(
                q, [r.entry.id for r in batch if r.explanation.vector_similarity is None]
            ),
        )
        assert [(r.entry.id, r.score, r.explanation) for r in got] == [
            (r.entry.id, r.score, r.explanation) for r in expected
        ]
