"""Every vector a search reads comes from the store of record (issue 49): no copy of the
vectors in memory, no tier by size or kind of process, the embedding cache never read by
a search; entries stored before their vector are never returned nor compared."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeEmbedder, note_texts

from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import maintenance

TESTS = Path(__file__).resolve().parents[1]


def test_there_is_no_in_memory_copy_of_the_vectors() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("engine.search.vector_snapshot")


def test_every_search_reads_its_vectors_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small memory in a long-lived process used to search a copy of every vector (and a
    one-shot process the embedding cache): now both halves of a hybrid search ask the
    store, and the embedding cache is read by writes only."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(40, 1)])
        memory.add("gearbox oil zeppelin hangar")
        memory.search("warm up", mode="hybrid")
        store, cache = parts_of(memory).store(), parts_of(memory).embedder.cache
        assert cache is not None
        nearest: list[int] = []
        cached: list[int] = []
        real_nearest, real_get = store.nearest_started, cache.get_many

        def asked(*args: Any, **kwargs: Any) -> Any:
            nearest.append(1)
            return real_nearest(*args, **kwargs)

        def looked_up(*args: Any) -> dict[str, bytes]:
            cached.append(1)
            return real_get(*args)

        monkeypatch.setattr(store, "nearest_started", asked)
        monkeypatch.setattr(cache, "get_many", looked_up)

        hits = memory.search("gearbox oil zeppelin", mode="hybrid", limit=5).results

    assert hits and hits[0].entry.content == "gearbox oil zeppelin hangar"
    assert nearest == [1]
    assert all(r.explanation.vector_similarity is not None for r in hits)
    assert cached == []


WRITER = """
import sys
sys.path[:0] = {paths!r}
from fakes import FakeEmbedder
from engine.services.memory import Memory
with Memory.open({root!r}, embedder=FakeEmbedder()) as memory:
    print(memory.add("the kettle whistles when the water boils").entry.id)
"""


def test_a_running_process_finds_what_another_process_just_wrote(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as reader:
        reader.add_many([NewEntry(t) for t in note_texts(30, 1)])
        reader.search("kettle whistles", mode="hybrid")
        code = WRITER.format(paths=[str(TESTS.parent), str(TESTS)], root=str(tmp_path))
        written = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()[-1]

        vector = reader.search("kettle whistles water", mode="vector", limit=3).results
        hybrid = reader.search("kettle whistles water", mode="hybrid", limit=3).results

    assert vector[0].entry.id == written
    assert hybrid[0].entry.id == written


@pytest.mark.parametrize("indexed", [False, True], ids=["flat", "ann-index"])
def test_an_entry_waiting_for_its_vector_is_never_returned_by_vector_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, indexed: bool
) -> None:
    """Placeholders (all zeros) in the store, marked in the mirror: a vector search of any
    depth returns every entry that has its vector and none of them, through the ANN index
    too (built here over them); hybrid search finds them by their words."""
    monkeypatch.setattr(maintenance, "ANN_MIN_ROWS", 100)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(120, 1)])
        waiting = parts_of(memory).entries.add_many(
            [NewEntry(f"zeppelin hangar gearbox note {n}") for n in range(8)], embed=False
        )
        ids = {r.entry.id for r in waiting}
        assert memory.vectors_waiting() == 8
        if indexed:
            assert parts_of(memory).store().maintain_vector_index().startswith("built")

        for limit in (3, 20, 200):
            found = memory.search(
                "zeppelin hangar gearbox", mode="vector", limit=limit, min_score=-1
            ).results
            assert not ids & {r.entry.id for r in found}
            assert len(found) == min(limit, 120)
        hybrid = memory.search("zeppelin hangar gearbox", mode="hybrid", min_score=0).results
        pending = [r for r in hybrid if r.entry.id in ids]
        assert pending and all(r.explanation.vector_similarity is None for r in pending)


def test_a_zero_vector_compares_as_nothing_not_nan(tmp_path: Path) -> None:
    """An entry whose placeholder the mirror no longer marks (a mark lost) still compares
    without breaking the cosine: 0, not NaN."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("gearbox oil deploy")
        waiting = parts_of(memory).entries.add_many([NewEntry("zeppelin")], embed=False)[0]
        mirror = parts_of(memory).mirror
        with mirror.transaction() as db:
            mirror.clear_unembedded(db)
        vectors = parts_of(memory).vectors
        qvec = parts_of(memory).embedder.embed_query("zeppelin")

        assert vectors.similarities(qvec, [waiting.entry]) == {waiting.entry.id: 0.0}
        hits = memory.search("zeppelin", mode="vector", limit=10, min_score=-1).results
        assert waiting.entry.id not in {r.entry.id for r in hits}


def test_a_category_is_a_prefilter_of_the_store_s_query(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many(
            [
                NewEntry(t, category="gotcha" if n % 10 == 0 else "general")
                for n, t in enumerate(note_texts(100, 1))
            ]
        )
        hits = memory.search(
            "gearbox oil", mode="vector", limit=8, category="gotcha", min_score=-1
        ).results

    assert len(hits) == 8
    assert {r.entry.category.value for r in hits} == {"gotcha"}


def test_the_gate_s_batches_read_the_store_twice_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hybrid search judged batch after batch (up to ten when nothing is relevant) read
    the keyword-only candidates' vectors once a batch; now the first batch's, then every
    candidate left at once, and each batch gets what reading it alone gave."""
    from engine.search.fusion import Fused
    from engine.search.vector import CandidateSimilarities

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(60, 1)])
        memory.add("gearbox oil zeppelin hangar")
        vectors = parts_of(memory).searcher.vectors
        entries = memory.list(limit=100)
        batches = [entries[i : i + 20] for i in range(0, len(entries), 20)]
        qvec = parts_of(memory).embedder.embed_query("gearbox oil")
        alone = [vectors.similarities(qvec, batch) for batch in batches]
        store = parts_of(memory).store()
        reads: list[int] = []
        real = store.vectors_started

        def counted(ids: Any) -> Any:
            reads.append(len(ids))
            return real(ids)

        monkeypatch.setattr(store, "vectors_started", counted)
        read = CandidateSimilarities(vectors, [e.id for e in entries])
        together = [read(qvec, [Fused(e.id) for e in batch]).result() for batch in batches]

    assert len(batches) == 4 and together == alone
    assert reads == [20, 41]
    again = read(qvec, [Fused(e.id) for e in batches[0]]).result()
    assert again == alone[0] and len(reads) == 2  # nothing read again
