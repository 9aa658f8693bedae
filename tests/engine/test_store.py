"""The LanceDB store of record, on real files in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fakes import FakeEmbedder

from engine.core.hashing import content_hash
from engine.core.models import Category, Entry, Source
from engine.storage.record_store import RecordStore


def make_entry(entry_id: str, content: str, **kwargs: object) -> Entry:
    return Entry(
        id=entry_id,
        content=content,
        created_at="2025-01-01T00:00:00+00:00",
        updated_at="2025-01-01T00:00:00+00:00",
        content_hash=content_hash(content),
        **kwargs,  # type: ignore[arg-type]
    )


TEXTS = {
    "a": "LanceDB needs double quotes around camelCase columns",
    "b": "The indexer skips unchanged knowledge files",
    "c": "SQLite WAL mode lets readers proceed during writes",
    "d": "It's a quote: O'Brien's column",
}


@pytest.fixture
def store(tmp_path: Path, fake_embedder: FakeEmbedder) -> RecordStore:
    return RecordStore(tmp_path / "vectors", fake_embedder.dimension)


@pytest.fixture
def filled(store: RecordStore, fake_embedder: FakeEmbedder) -> RecordStore:
    entries = [make_entry(i, t) for i, t in TEXTS.items()]
    store.add(entries, fake_embedder.embed_documents([e.content for e in entries]))
    return store


class TestBasics:
    def test_absent_store_reads_as_empty(self, store: RecordStore) -> None:
        assert not store.exists()
        assert store.table() is None
        assert store.count() == 0
        assert store.version == 0
        assert store.get_many(["x"]) == {}
        assert store.all_entries() == []
        assert store.vector_search(np.ones(4, dtype=np.float32), 5) == []
        assert not store.exists()  # reads never create the table

    def test_add_and_get_many_round_trip(
        self, store: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        entry = Entry(
            id="full",
            content="Everything — ünïcode",
            category=Category.PATTERN,
            source=Source.MARKDOWN,
            file_path="patterns/x.md",
            section_title="X > Y",
            keywords=("k1", "k2"),
            reference_count=4,
            promoted=True,
            promoted_at="2025-02-02T00:00:00+00:00",
            created_at="2025-01-01T00:00:00+00:00",
            updated_at="2025-01-02T00:00:00+00:00",
            content_hash=content_hash("Everything — ünïcode"),
            line_start=3,
            line_end=9,
        )
        store.add([entry], fake_embedder.embed_documents([entry.content]))
        assert store.exists()
        assert store.count() == 1
        assert store.get_many(["full", "missing"]) == {"full": entry}
        assert store.all_entries() == [entry]

    def test_add_nothing_creates_nothing(self, store: RecordStore) -> None:
        store.add([], np.zeros((0, 4), dtype=np.float32))
        assert not store.exists()

    def test_upsert_replaces_and_inserts(
        self, filled: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        changed = make_entry("a", "bananas and apples")
        new = make_entry("z", "brand new entry")
        filled.upsert([changed, new], fake_embedder.embed_documents([changed.content, new.content]))
        assert filled.count() == len(TEXTS) + 1
        assert filled.get_many(["a"])["a"].content == "bananas and apples"
        best, sim = filled.vector_search(fake_embedder.embed_query("bananas apples"), 1)[0]
        assert best.id == "a"
        assert sim == pytest.approx(1.0, abs=1e-5)

    def test_delete(self, filled: RecordStore) -> None:
        filled.delete(["a", "d", "missing"])
        assert filled.count() == len(TEXTS) - 2
        assert set(filled.get_many(list(TEXTS))) == {"b", "c"}

    def test_delete_many_ids_in_batches(
        self, store: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        entries = [make_entry(f"id{i}", f"entry {i}") for i in range(1100)]
        store.add(entries, fake_embedder.embed_documents([e.content for e in entries]))
        assert len(store.get_many([e.id for e in entries])) == 1100
        store.delete([e.id for e in entries[:1050]])
        assert store.count() == 50

    def test_clear(self, filled: RecordStore) -> None:
        filled.clear()
        assert filled.count() == 0
        assert filled.exists()

    def test_set_reference_counts_in_one_commit(self, filled: RecordStore) -> None:
        before = filled.version
        filled.set_reference_counts({"a": 2, "b": 1})
        got = filled.get_many(["a", "b", "c"])
        assert got["a"].reference_count == 2
        assert got["b"].reference_count == 1
        assert got["c"].reference_count == 0
        assert got["a"].content == TEXTS["a"]  # the other columns are untouched
        assert filled.version == before + 1

    def test_ids_with_quotes_are_escaped(
        self, store: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        entry = make_entry("it's", "quoted id")
        store.add([entry], fake_embedder.embed_documents([entry.content]))
        assert store.get_many(["it's"])["it's"] == entry
        store.set_reference_counts({"it's": 1})
        assert store.get_many(["it's"])["it's"].reference_count == 1
        store.delete(["it's"])
        assert store.count() == 0

    def test_version_grows_with_writes(self, filled: RecordStore) -> None:
        before = filled.version
        filled.delete(["a"])
        assert filled.version > before

    def test_ids_and_stamps(self, filled: RecordStore) -> None:
        filled.set_reference_counts({"a": 1})
        stamps = filled.ids_and_stamps()
        assert set(stamps) == set(TEXTS)
        assert stamps["a"] == "2025-01-01T00:00:00+00:00|1|0"

    def test_vectors_for(self, filled: RecordStore, fake_embedder: FakeEmbedder) -> None:
        vectors = filled.vectors_for(["a", "missing"])
        assert set(vectors) == {"a"}
        np.testing.assert_allclose(vectors["a"], fake_embedder.vector(TEXTS["a"]), atol=1e-6)

    def test_vectors_for_many_ids_in_order(
        self, filled: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        """Past one query's 500 ids, each id keeps its own vector (read as one matrix)."""
        ids = [f"none{i}" for i in range(600)] + sorted(TEXTS)
        vectors = filled.vectors_for(ids)
        assert list(vectors) != [] and set(vectors) == set(TEXTS)
        for entry_id, text in TEXTS.items():
            np.testing.assert_allclose(vectors[entry_id], fake_embedder.vector(text), atol=1e-6)


def test_a_vector_column_with_a_null_reads_as_zeros_in_its_row() -> None:
    """A null vector (no writer of ours leaves one) must not shift the rows after it."""
    import pyarrow as pa

    from engine.storage.lance_rows import vector_matrix

    column = pa.chunked_array(
        [
            pa.array([[1.0, 2.0], None], pa.list_(pa.float32(), 2)),
            pa.array([[3.0, 4.0]], pa.list_(pa.float32(), 2)),
        ]
    )
    matrix = vector_matrix(column, 2)
    assert matrix.dtype == np.float32
    assert matrix.tolist() == [[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]]

    def test_second_store_sees_writes(
        self, filled: RecordStore, tmp_path: Path, fake_embedder: FakeEmbedder
    ) -> None:
        other = RecordStore(tmp_path / "vectors", fake_embedder.dimension)
        assert other.count() == len(TEXTS)
        filled.delete(["a"])
        assert other.count() == len(TEXTS) - 1  # read consistency interval 0


class TestVectorSearch:
    def test_nearest_first_with_cosine_similarity(
        self, filled: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        hits = filled.vector_search(fake_embedder.embed_query("lancedb camelcase columns"), 4)
        assert hits[0][0].id == "a"
        sims = [s for _, s in hits]
        assert sims == sorted(sims, reverse=True)
        expected = float(
            np.dot(
                fake_embedder.vector("lancedb camelcase columns"), fake_embedder.vector(TEXTS["a"])
            )
        )
        assert sims[0] == pytest.approx(expected, abs=1e-5)
        assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for s in sims)

    def test_limit(self, filled: RecordStore, fake_embedder: FakeEmbedder) -> None:
        assert len(filled.vector_search(fake_embedder.embed_query("x"), 2)) == 2
        assert filled.vector_search(fake_embedder.embed_query("x"), 0) == []

    def test_where_prefilters_before_the_limit(
        self, store: RecordStore, fake_embedder: FakeEmbedder
    ) -> None:
        general = [make_entry(f"g{i}", f"cache eviction policy {i}") for i in range(30)]
        gotchas = [
            make_entry(f"x{i}", f"gotcha number {i} about caching", category=Category.GOTCHA)
            for i in range(5)
        ]
        entries = general + gotchas
        store.add(entries, fake_embedder.embed_documents([e.content for e in entries]))
        hits = store.vector_search(
            fake_embedder.embed_query("cache eviction policy"), 5, where="category = 'gotcha'"
        )
        assert {e.id for e, _ in hits} == {f"x{i}" for i in range(5)}

    def test_similarities(self, filled: RecordStore, fake_embedder: FakeEmbedder) -> None:
        query = fake_embedder.embed_query("indexer knowledge files")
        sims = filled.similarities(query, ["b", "c", "missing"])
        assert set(sims) == {"b", "c"}
        assert sims["b"] == pytest.approx(
            float(np.dot(query, fake_embedder.vector(TEXTS["b"]))), abs=1e-5
        )
        assert filled.similarities(query, []) == {}


class TestMigration:
    """A memory written by the original tool (v0.1 schema) is opened and upgraded in place."""

    @staticmethod
    def create_v01_table(path: Path, dimension: int, reference_type: str) -> dict[str, str]:
        import lancedb
        import pyarrow as pa

        fake = FakeEmbedder(dimension)
        schema = pa.schema(
            [
                pa.field("id", pa.string()),
                pa.field("content", pa.string()),
                pa.field("category", pa.string()),
                pa.field("source", pa.string()),
                pa.field("filePath", pa.string()),
                pa.field("sectionTitle", pa.string()),
                pa.field("keywords", pa.string()),
                pa.field("referenceCount", getattr(pa, reference_type)()),
                pa.field("promoted", pa.bool_()),
                pa.field("promotedAt", pa.string()),
                pa.field("createdAt", pa.string()),
                pa.field("updatedAt", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), dimension)),
            ]
        )
        texts = {
            "old1": "First entry of the old tool\r\n",
            "old2": "  Second entry, with 'quotes' and a trailing newline\n",
            "old3": "Third entry from a markdown file",
        }
        rows = [
            {
                "id": entry_id,
                "content": text,
                "category": "gotcha" if entry_id == "old1" else "general",
                "source": "markdown" if entry_id == "old3" else "session",
                "filePath": "gotchas.md" if entry_id == "old3" else None,
                "sectionTitle": None,
                "keywords": json.dumps(["legacy"]),
                "referenceCount": 2,
                "promoted": False,
                "promotedAt": None,
                "createdAt": "2024-05-01T00:00:00.000Z",
                "updatedAt": "2024-05-01T00:00:00.000Z",
                "vector": fake.vector(text).tolist(),
            }
            for entry_id, text in texts.items()
        ]
        db = lancedb.connect(path)
        db.create_table("memories", pa.Table.from_pylist(rows, schema=schema))
        return texts

    @pytest.mark.parametrize("reference_type", ["int32", "float64"])
    def test_columns_added_and_hashes_backfilled(
        self, tmp_path: Path, fake_embedder: FakeEmbedder, reference_type: str
    ) -> None:
        path = tmp_path / "vectors"
        texts = self.create_v01_table(path, fake_embedder.dimension, reference_type)
        store = RecordStore(path, fake_embedder.dimension)
        names = store.table().schema.names
        assert {"contentHash", "lineStart", "lineEnd"} <= set(names)

        import lancedb

        raw = lancedb.connect(path).open_table("memories").to_arrow().to_pylist()
        assert {r["id"]: r["contentHash"] for r in raw} == {
            i: content_hash(t) for i, t in texts.items()
        }
        assert all(r["lineStart"] == 0 and r["lineEnd"] == 0 for r in raw)
        # Columns other than the new ones are intact.
        assert {r["id"]: r["content"] for r in raw} == texts
        entries = store.get_many(list(texts))
        assert entries["old1"].category is Category.GOTCHA
        assert entries["old3"].file_path == "gotchas.md"
        assert entries["old2"].section_title == ""
        assert entries["old2"].keywords == ("legacy",)
        assert entries["old2"].reference_count == 2
        assert entries["old2"].content_hash == content_hash(
            "Second entry, with 'quotes' and a trailing newline"
        )
        hits = store.vector_search(fake_embedder.embed_query("first entry old tool"), 1)
        assert hits[0][0].id == "old1"
        # Stamps read the same as the keyword mirror's would.
        assert store.ids_and_stamps()["old1"] == "2024-05-01T00:00:00.000Z|2|0"

    def test_migrated_store_accepts_new_entries_and_reopens(
        self, tmp_path: Path, fake_embedder: FakeEmbedder
    ) -> None:
        path = tmp_path / "vectors"
        self.create_v01_table(path, fake_embedder.dimension, "int32")
        store = RecordStore(path, fake_embedder.dimension)
        new = make_entry("new", "added after migration", line_start=4, line_end=8)
        store.add([new], fake_embedder.embed_documents([new.content]))
        store.set_reference_counts({"old1": 3, "new": 1})
        version = store.version
        reopened = RecordStore(path, fake_embedder.dimension)
        assert reopened.count() == 4
        assert reopened.get_many(["new"])["new"].line_end == 8
        assert reopened.get_many(["old1"])["old1"].reference_count == 3
        assert reopened.version == version  # nothing left to migrate: no new commit

    def test_memory_opens_a_v01_project(self, tmp_path: Path, fake_embedder: FakeEmbedder) -> None:
        from engine.services.memory import Memory

        texts = self.create_v01_table(
            tmp_path / ".claude" / "memory" / "vectors", fake_embedder.dimension, "int32"
        )
        with Memory.open(tmp_path, embedder=fake_embedder) as memory:
            assert memory.last_repair is not None
            assert memory.last_repair.added == 3
            assert memory.count() == 3
            again = memory.add("First entry of the old tool")
            assert not again.created
            assert again.entry.id == "old1"
            hits = memory.search("quotes trailing newline", mode="keyword").results
            assert hits[0].entry.id == "old2"
        assert len(texts) == 3
