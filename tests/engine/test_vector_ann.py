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
