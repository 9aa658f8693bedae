"""The store's ANN index: built past a size, used by one-shot searches, kept up to date,
and never mistaken for drift between the store and the keyword index."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder, note_texts

from engine.services.entries import NewEntry
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import maintenance as maintenance_module


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maintenance_module, "ANN_MIN_ROWS", 300)


def exact_top(memory: Memory, query: str, k: int = 10) -> list[str]:
    qvec = parts_of(memory).embedder.embed_query(query)
    hits = parts_of(memory).store().vector_search(qvec, k, exact=True)
    return [entry.id for entry, _ in hits]


def test_small_memories_get_no_index(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(50, 1)])
        assert parts_of(memory).records.maintain_vector_index() == ""
        assert not parts_of(memory).store().has_vector_index()


@pytest.mark.usefixtures("small_threshold")
def test_index_is_built_past_the_threshold_and_searches_agree(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        assert (
            parts_of(memory).records.maintain_vector_index()
            == "built a vector index over 400 entries"
        )
        assert parts_of(memory).store().has_vector_index()
        assert parts_of(memory).records.maintain_vector_index() == ""  # nothing new since

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is None  # the index build is not drift
        found = 0
        for query in ("gearbox oil deploy", "sqlite porter stemmer", "kettle burr grinder"):
            ann = [r.entry.id for r in memory.search(query, mode="vector", limit=10).results]
            found += len(set(ann) & set(exact_top(memory, query)))
        assert found >= 24  # recall@10 >= 0.8 even on these tie-heavy fake vectors


@pytest.mark.usefixtures("small_threshold")
def test_new_rows_are_found_then_folded_in(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        parts_of(memory).records.maintain_vector_index()
        added = memory.add("zeppelin hangar blueprint").entry
        top = memory.search("zeppelin hangar blueprint", mode="vector", limit=1).results
        assert top[0].entry.id == added.id  # unindexed rows are searched too
        memory.add_many([NewEntry(t) for t in note_texts(60, 2)])
        assert parts_of(memory).records.maintain_vector_index().startswith("folded 61 new entries")
        top = memory.search("zeppelin hangar blueprint", mode="vector", limit=1).results
        assert top[0].entry.id == added.id


@pytest.mark.usefixtures("small_threshold")
def test_indexing_reports_the_index_build(tmp_path: Path) -> None:
    knowledge = tmp_path / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    for n, text in enumerate(note_texts(320, 3)):
        (knowledge / f"note-{n}.md").write_text(f"# Note {n}\n\n{text}\n", encoding="utf-8")
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        report = Indexer(memory).run()
        assert report.vector_index == f"built a vector index over {memory.count()} entries"


def vector_index(memory: Memory) -> tuple[str, str]:
    """(name, type) of the store's vector index."""
    indices = parts_of(memory).store().table().list_indices()
    index = next(i for i in indices if "vector" in i.columns)
    return index.name, index.index_type


@pytest.fixture
def hundred_per_partition(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maintenance_module, "ANN_MIN_ROWS", 300)
    monkeypatch.setattr(maintenance_module, "ROWS_PER_PARTITION", 100)


@pytest.mark.usefixtures("hundred_per_partition")
def test_the_index_is_ivf_flat_rebuilt_once_the_table_outgrows_its_partitions(
    tmp_path: Path,
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        records = parts_of(memory).records
        assert records.maintain_vector_index() == "built a vector index over 400 entries"
        assert vector_index(memory) == ("vector_ivf_flat_p4", "IvfFlat")
        memory.add_many([NewEntry(t) for t in note_texts(100, 2)])
        assert records.maintain_vector_index().startswith("folded 100 new entries")
        assert vector_index(memory) == ("vector_ivf_flat_p4", "IvfFlat")  # 5 < 2 × 4
        memory.add_many([NewEntry(t) for t in note_texts(300, 3)])
        assert records.maintain_vector_index() == "rebuilt the vector index over 800 entries"
        assert vector_index(memory) == ("vector_ivf_flat_p8", "IvfFlat")
        top = memory.search(note_texts(300, 3)[7], mode="vector", limit=1).results
        assert top[0].entry.content == note_texts(300, 3)[7]


@pytest.mark.usefixtures("hundred_per_partition")
def test_an_index_of_another_kind_is_rebuilt(tmp_path: Path) -> None:
    from lancedb.index import IvfHnswSq

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        table = parts_of(memory).store().table()
        table.create_index("vector", config=IvfHnswSq(distance_type="cosine", num_partitions=2))
        assert vector_index(memory) == ("vector_idx", "IvfHnswSq")  # a store indexed before
        assert (
            parts_of(memory).records.maintain_vector_index()
            == "rebuilt the vector index over 400 entries"
        )
        assert vector_index(memory) == ("vector_ivf_flat_p4", "IvfFlat")
        assert parts_of(memory).records.maintain_vector_index() == ""


@pytest.mark.usefixtures("hundred_per_partition")
def test_a_search_through_the_index_reads_no_vector_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IVF_FLAT's distances are exact: re-reading the rows returned for theirs (a refine
    factor of 1) is work for nothing (10,000 entries: 4.2 → 5.7 ms p50, issue 49)."""
    from lancedb.query import AsyncVectorQuery

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(400, 1)])
        parts_of(memory).records.maintain_vector_index()
        store = parts_of(memory).store()
        factors: list[int] = []
        real = AsyncVectorQuery.refine_factor  # a search's queries: lance_search

        def refine_factor(self: AsyncVectorQuery, factor: int) -> AsyncVectorQuery:
            factors.append(factor)
            return real(self, factor)

        monkeypatch.setattr(AsyncVectorQuery, "refine_factor", refine_factor)
        qvec = parts_of(memory).embedder.embed_query("gearbox oil deploy")
        found = store.nearest(qvec, 10, nprobes=4, refine=1)
        assert factors == []
        exact = [s for _, s in store.vector_search(qvec, 10, exact=True)]
        assert [s for _, s in found] == pytest.approx(exact, abs=1e-5)  # ties in any order
        cosine = store.similarities(qvec, [i for i, _ in found])
        assert all(s == pytest.approx(cosine[i], abs=1e-5) for i, s in found)
        store.nearest(qvec, 10, nprobes=4, refine=5)
        assert factors == [5]
