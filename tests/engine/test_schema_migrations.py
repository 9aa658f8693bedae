"""A store and mirror written by earlier code open and are migrated in place, by numbered
steps derived from the declaration of an entry's fields (``ENTRY_FIELDS``).

The fixture ``tests/data/memory_at_main_3ac45a1`` is a memory written by the code of
commit 3ac45a1 (its README says how): mirror schema 1, store version 2.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from read_back import from_the_store

from engine.core.models import ENTRY_COLUMNS, Category, EntryField, FieldKind
from engine.services.memory import Memory
from engine.storage import lance_rows
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_rows import FTS_COLUMNS, SCHEMA_VERSION
from engine.storage.record_store import RecordStore

FIXTURE = Path(__file__).parent.parent / "data" / "memory_at_main_3ac45a1"
WOMBAT = "f79511079cb943d99e353ca066e0ef13"
TRAINS = "2f4809039ceb493ab100127c9428fcb8"
PARQUET = "239f3b44c65f4de98cc8db0500f968d8"
DIMENSION = 384


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    """A copy of the memory folder written by main, inside a project at tmp_path/project."""
    target = tmp_path / "project" / ".claude" / "memory"
    shutil.copytree(FIXTURE, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def _raw(fts: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(fts) as db:
        return db.execute(sql).fetchall()


def _columns(fts: Path, table: str) -> list[str]:
    return [str(row[1]) for row in _raw(fts, f"PRAGMA table_info({table})")]


class TestMirror:
    def test_schema_1_is_migrated_in_place(self, memory_dir: Path) -> None:
        fts = memory_dir / "fts.sqlite"
        assert _raw(fts, "SELECT value FROM fts_state WHERE key='schema'") == [("1",)]
        rows_before = _raw(fts, "SELECT rowid, id, referenceCount FROM entries ORDER BY rowid")
        mirror = EntryMirror(fts)
        try:
            assert not mirror.recreated
            assert mirror.state("schema") == SCHEMA_VERSION
            assert mirror.state("store_version") == "5"  # the rest of the state is kept
            assert mirror.reference_backlog() == {WOMBAT: 3}  # counts not yet in the store
            wombat = mirror.get(WOMBAT)
            assert wombat is not None
            assert wombat.category is Category.GOTCHA
            assert wombat.keywords == ("wombat", "retry")
            assert wombat.reference_count == 3
            assert wombat.content.startswith("the wombat importer")
            assert mirror.holding('"retry"', [WOMBAT, TRAINS]) == {WOMBAT}
            with mirror.transaction() as db:
                mirror.count_references(db, {TRAINS: 2})
        finally:
            mirror.close()
        (trigger,) = _raw(fts, "SELECT sql FROM sqlite_master WHERE name = 'entries_au'")
        assert "AFTER UPDATE OF content" in str(trigger[0])
        rows_after = _raw(fts, "SELECT rowid, id, referenceCount FROM entries ORDER BY rowid")
        assert [r[:2] for r in rows_after] == [r[:2] for r in rows_before]
        assert {r[1]: r[2] for r in rows_after}[TRAINS] == 3
        reopened = EntryMirror(fts)  # nothing left to migrate
        assert not reopened.recreated and reopened.count() == 3
        reopened.close()

    def test_missing_declared_columns_are_added_and_the_keyword_index_rebuilt(
        self, tmp_path: Path
    ) -> None:
        # An older mirror without lineEnd and without keywords in its keyword index: what
        # a mirror looks like to code that declares a new (searchable) field.
        fts = tmp_path / "fts.sqlite"
        old = [c for c in ENTRY_COLUMNS if c != "lineEnd"]
        with sqlite3.connect(fts) as db:
            db.executescript(
                f"""
                CREATE TABLE entries (rowid INTEGER PRIMARY KEY, {", ".join(old)});
                CREATE VIRTUAL TABLE memory_fts USING fts5(id UNINDEXED, content,
                    content='entries', content_rowid='rowid', tokenize='porter unicode61');
                CREATE TABLE fts_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                INSERT INTO fts_state VALUES ('schema', '1'), ('pending', '0');
                """
            )
            values = {c: "" for c in old} | {
                "id": "z",
                "content": "striped animals",
                "category": "general",
                "source": "manual",
                "keywords": '["zebra"]',
                "lineStart": 4,
                "referenceCount": 1,
                "promoted": 0,
            }
            marks = ", ".join("?" * len(old))
            db.execute(f"INSERT INTO entries ({', '.join(old)}) VALUES ({marks})",
                       [values[c] for c in old])  # fmt: skip
        mirror = EntryMirror(fts)
        try:
            assert not mirror.recreated
            entry = mirror.get("z")
            assert entry is not None
            assert (entry.line_start, entry.line_end, entry.reference_count) == (4, 0, 1)
            assert mirror.holding('"zebra"', ["z"]) == {"z"}  # the rebuilt index finds it
        finally:
            mirror.close()
        assert _columns(fts, "entries")[1:] == [*old, "lineEnd"]
        assert _columns(fts, "memory_fts") == list(FTS_COLUMNS)

    def test_a_newer_schema_is_recreated(self, memory_dir: Path) -> None:
        fts = memory_dir / "fts.sqlite"
        with sqlite3.connect(fts) as db:
            db.execute("UPDATE fts_state SET value = ? WHERE key = 'schema'",
                       (str(int(SCHEMA_VERSION) + 1),))  # fmt: skip
        mirror = EntryMirror(fts)
        assert mirror.recreated and mirror.count() == 0  # rebuilt from the store on open
        mirror.close()


class TestStore:
    def test_a_store_written_by_main_needs_no_step_and_reads_by_name(
        self, memory_dir: Path, fake_embedder: FakeEmbedder
    ) -> None:
        store = RecordStore(memory_dir / "vectors", DIMENSION)
        version = store.version
        names = store.table().schema.names
        assert lance_rows.migrations(set(names)) == []
        assert names != [*ENTRY_COLUMNS, "vector"]  # its own column order
        entries = store.get_many([WOMBAT, TRAINS, PARQUET])
        assert entries[WOMBAT].reference_count == 2  # the third is in the mirror's backlog
        assert entries[WOMBAT].keywords == ("wombat", "retry")
        assert entries[PARQUET].source.value == "session"
        assert store.version == version  # opening wrote nothing
        fresh = FakeEmbedder(DIMENSION)
        store.upsert([entries[TRAINS]], fresh.embed_documents([entries[TRAINS].content]))
        assert store.get_many([TRAINS])[TRAINS] == entries[TRAINS]
        store.set_reference_counts({WOMBAT: 3})
        assert store.get_many([WOMBAT])[WOMBAT].reference_count == 3

    def test_steps_are_numbered_by_the_fields_they_add(self) -> None:
        v1 = {c for c in ENTRY_COLUMNS if c not in ("contentHash", "lineStart", "lineEnd")}
        assert lance_rows.migrations(v1) == [
            (2, {"lineStart": "CAST(0 AS INT)", "lineEnd": "CAST(0 AS INT)", "contentHash": "''"})
        ]
        assert lance_rows.migrations(set(ENTRY_COLUMNS)) == []

    def test_a_field_declared_later_is_added_to_a_stored_table(
        self, memory_dir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        language = EntryField("language", "language", FieldKind.TEXT, "Its language.", since=3)
        monkeypatch.setattr(lance_rows, "ENTRY_FIELDS", (*lance_rows.ENTRY_FIELDS, language))
        monkeypatch.setattr(lance_rows, "STORE_VERSION", 3)
        store = RecordStore(memory_dir / "vectors", DIMENSION)
        version = store.version  # opening ran step 3: one commit
        table = store.table()
        assert "language" in table.schema.names
        rows = table.search().select(["id", "language"]).limit(None).to_list()
        assert sorted(r["id"] for r in rows) == sorted([WOMBAT, TRAINS, PARQUET])
        assert {r["language"] for r in rows} == {""}
        assert RecordStore(memory_dir / "vectors", DIMENSION).version == version


def test_memory_written_by_main_opens_searches_and_writes(memory_dir: Path) -> None:
    root = memory_dir.parent.parent
    with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:
        assert memory.require(WOMBAT).reference_count == 3
        found = memory.search("wombat importer", mode="keyword").results
        assert [r.entry.id for r in found] == [WOMBAT]
        assert memory.search("release trains", mode="vector").results[0].entry.id == TRAINS
        added = memory.add("a note written after the migration", keywords=["later"]).entry
    with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:
        assert memory.require(added.id).keywords == ("later",)
        assert {e.id for e in memory.list()} == {WOMBAT, TRAINS, PARQUET, added.id}
        stored = from_the_store(memory, FakeEmbedder(DIMENSION))
        assert stored[WOMBAT].reference_count == 3  # folded
