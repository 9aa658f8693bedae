"""Searches through the store's ANN index (issue 38: a memory of a million entries): the
store answers ids, distances and vectors only, re-ranks enough candidates, and a search
looks up nothing it does not need."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder, note_texts

from engine.search.searcher import NEAREST_LISTED
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import maintenance


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maintenance, "ANN_MIN_ROWS", 120)


def exact_top(memory: Memory, query: str, k: int = 5) -> list[str]:
    qvec = parts_of(memory).embedder.embed_query(query)
    return [e.id for e, _ in parts_of(memory).store().vector_search(qvec, k, exact=True)]


@pytest.mark.usefixtures("small_limits")
def test_searches_through_the_ann_index_find_the_exact_best(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as writer:
        writer.add_many([NewEntry(t) for t in note_texts(150, 1)])
        assert parts_of(writer).records.maintain_vector_index().startswith("built")
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        for query in ("gearbox oil deploy", "kettle burr grinder"):
            vector = memory.search(query, mode="vector", limit=5).results
            hybrid = memory.search(query, mode="hybrid", limit=5).results
            assert vector and hybrid
            assert vector[0].entry.id == exact_top(memory, query)[0]
            assert all(r.explanation.vector_similarity is not None for r in hybrid)


@pytest.mark.usefixtures("small_limits")
def test_the_store_indexes_ids_beside_its_ann_index(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(150, 1)])
        records = parts_of(memory).records
        records.maintain_vector_index()
        table = parts_of(memory).store().table()
        assert [list(i.columns) for i in table.list_indices() if "id" in i.columns] == [["id"]]
        table.drop_index(next(i.name for i in table.list_indices() if "id" in i.columns))
        assert records.maintain_vector_index() == "indexed the entries' ids"  # an older store
        assert records.maintain_vector_index() == ""

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        hits = memory.search("gearbox oil deploy", mode="hybrid", limit=10).results
        vectors = parts_of(memory).store().vectors_for([r.entry.id for r in hits])
        qvec = parts_of(memory).embedder.embed_query("gearbox oil deploy")
        for result in hits:  # keyword-only candidates too, read from the store by id
            expected = float(vectors[result.entry.id] @ qvec)
            assert result.explanation.vector_similarity == pytest.approx(expected, abs=1e-5)


@pytest.mark.usefixtures("small_limits")
def test_the_store_answers_ids_and_vectors_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every column of a hundred rows from LanceDB was half of a hybrid search at a million
    entries, and an exact search restricted to the keyword-only candidates' ids another
    third: the entries come from the mirror, the similarities from their vectors."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as writer:
        writer.add_many([NewEntry(t) for t in note_texts(150, 1)])
        parts_of(writer).records.maintain_vector_index()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        store = parts_of(memory).store()
        expected = memory.search("gearbox oil deploy", mode="hybrid", limit=10).results
        top = exact_top(memory, "gearbox oil deploy")
        qvec = parts_of(memory).embedder.embed_query("gearbox oil deploy")

        def whole_rows(*args: object, **kwargs: object) -> None:
            raise AssertionError("whole rows read from the store")

        for method in ("vector_search", "similarities", "get_many"):
            monkeypatch.setattr(store, method, whole_rows)
        hits = memory.search("gearbox oil deploy", mode="hybrid", limit=10).results
        assert [r.entry for r in hits] == [r.entry for r in expected]
        assert [r.explanation for r in hits] == [r.explanation for r in expected]
        assert [i for i, _ in store.nearest(qvec, 5)] == top


def test_searches_count_the_entries_again_only_after_a_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(30, 1)])
        mirror = parts_of(memory).records.mirror
        counts: list[int] = []
        real = mirror.count

        def counting(**filters: object) -> int:
            counts.append(1)
            return real(**filters)  # type: ignore[arg-type]

        monkeypatch.setattr(mirror, "count", counting)
        memory.search("gearbox oil", mode="hybrid")
        first = len(counts)
        for query in ("kettle burr", "sqlite porter", "gearbox oil"):
            memory.search(query, mode="hybrid")
        assert len(counts) == first  # a count of a million rows is ~120 ms
        memory.add("zeppelin hangar blueprint")
        memory.search("zeppelin", mode="hybrid")
        assert len(counts) > first
        assert parts_of(memory).searcher.keyword.entries() == 31


@pytest.mark.usefixtures("small_limits")
def test_searches_through_the_index_re_rank_no_more_than_they_return(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index is IVF_FLAT (issue 49): its distances are exact, so a vector search of 10
    and hybrid's list (its 100 fused, and the cosines of the nearest 1,000 for its gate)
    ask for no candidates beyond those (re-ranking 5 times hybrid's 100 was most of a
    search at 1,000,000 entries under IVF_HNSW_SQ)."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as writer:
        writer.add_many([NewEntry(t) for t in note_texts(150, 1)])
        parts_of(writer).records.maintain_vector_index()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        store = parts_of(memory).store()
        asked: list[tuple[int, int]] = []
        real = store.nearest_started

        def nearest(vector: object, limit: int, **kwargs: int) -> object:
            asked.append((limit, kwargs["refine"]))
            return real(vector, limit, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "nearest_started", nearest)
        memory.search("gearbox oil deploy", mode="vector", limit=10)
        memory.search("gearbox oil deploy", mode="hybrid", limit=10)
        assert asked == [(10, 1), (NEAREST_LISTED, 1)]


def test_with_no_entry_waiting_for_its_vector_a_search_does_not_look_candidates_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up waited for the keyword half on its read connection (issue 38); once an
    entry waits (``--no-embed``), it is looked up again and left out of vector search."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in note_texts(30, 1)])
        mirror = parts_of(memory).records.mirror
        looked: list[int] = []
        real = mirror.unembedded_among

        def among(ids: list[str]) -> set[str]:
            looked.append(len(ids))
            return real(ids)

        monkeypatch.setattr(mirror, "unembedded_among", among)
        memory.search("gearbox oil deploy", mode="hybrid")
        memory.search("kettle burr grinder", mode="hybrid")
        assert looked == []
        service = parts_of(memory).entries
        waiting = service.add_many([NewEntry("gearbox oil zeppelin")], embed=False)[0].entry
        hits = memory.search("gearbox oil zeppelin", mode="hybrid", min_score=0).results
        assert looked
        found = [r for r in hits if r.entry.id == waiting.id]  # by its words alone
        assert found and found[0].explanation.vector_similarity is None


def test_a_hybrid_search_reads_no_vector_its_nearest_list_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hybrid search fuses the nearest 100 and keeps the cosines of the nearest
    NEAREST_LISTED: a keyword candidate among those is judged without a read of its
    vector by id (a read of the store in 3 of 4 searches at 10,000 entries), and the
    results are those the reads gave."""
    from engine.search import searcher

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        # 250 short notes on gearboxes are the nearest; 50 long ones naming a zeppelin
        # once are far in meaning and first by keyword: candidates of the keyword half
        # alone, past the nearest 100
        far = [" ".join(["zeppelin", *(f"w{n}x{k}" for k in range(60))]) for n in range(50)]
        memory.add_many([NewEntry(f"gearbox {t}") for t in note_texts(250, 1)])
        memory.add_many([NewEntry(t) for t in far])
        store = parts_of(memory).store()
        reads: list[int] = []
        real = store.vectors_started

        def counted(ids: list[str]) -> object:
            reads.append(len(ids))
            return real(ids)

        monkeypatch.setattr(store, "vectors_started", counted)
        listed = memory.search("zeppelin gearbox", mode="hybrid", min_score=0).results
        assert reads == []
        monkeypatch.setattr(searcher, "NEAREST_LISTED", 0)  # the fused 100 alone
        fused_only = memory.search("zeppelin gearbox", mode="hybrid", min_score=0).results

    assert reads  # the keyword-only candidates were read by id
    assert [r.entry.id for r in listed] == [r.entry.id for r in fused_only]
    assert [r.score for r in listed] == pytest.approx([r.score for r in fused_only])
