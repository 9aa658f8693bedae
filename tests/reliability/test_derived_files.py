"""Derived files under load and damage: fts.sqlite busy is not fts.sqlite broken."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine import fts as fts_module
from engine.errors import LockTimeoutError, StorageError
from engine.fts import FtsIndex
from engine.memory import Memory, NewEntry
from engine.paths import MemoryPaths


def test_a_keyword_index_locked_by_another_process_is_not_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("an entry that must stay in the keyword index")
        path = memory.paths.fts_path
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another writer, mid-transaction
    monkeypatch.setattr(fts_module, "BUSY_TIMEOUT_S", 0.2, raising=False)
    try:
        with pytest.raises(LockTimeoutError, match="busy"):
            FtsIndex(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not path.with_name(path.name + ".corrupt").exists()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is None
        assert memory.count() == 1


def _add(root: Path, *texts: str) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in texts])


def test_an_older_copy_of_the_keyword_index_is_detected_and_repaired(tmp_path: Path) -> None:
    _add(tmp_path, *(f"first batch entry {n}" for n in range(5)))
    fts_path = MemoryPaths.for_root(tmp_path).fts_path
    saved = tmp_path / "fts-copy.sqlite"
    shutil.copy(fts_path, saved)  # not pending: the copy was consistent when taken
    _add(tmp_path, *(f"second batch entry {n}" for n in range(5)))
    for suffix in ("-wal", "-shm"):
        Path(f"{fts_path}{suffix}").unlink(missing_ok=True)
    shutil.copy(saved, fts_path)  # e.g. restored from a backup, or synced from elsewhere
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is not None
        assert memory.last_repair.added == 5
        assert memory.count() == 10
        assert len(memory.search("second batch", mode="keyword", limit=20).results) == 10


def test_a_missing_store_refuses_writes_and_keeps_the_keyword_copy(tmp_path: Path) -> None:
    _add(tmp_path, *(f"precious note {n}" for n in range(6)))
    shutil.rmtree(MemoryPaths.for_root(tmp_path).vectors_dir)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.count() == 6  # reads are served by the mirror
        assert memory.search("precious", mode="keyword").results
        with pytest.raises(StorageError, match=r"missing.*memory-tui doctor --rebuild-store"):
            memory.add("a new note that would start an empty store")
        with pytest.raises(StorageError, match="rebuild-store"):
            memory.repair_index()
        assert memory.count() == 6
    assert not MemoryPaths.for_root(tmp_path).vectors_dir.exists()


def test_an_unreadable_embedding_cache_is_moved_aside_and_started_anew(tmp_path: Path) -> None:
    _add(tmp_path, "kafka consumers commit offsets after processing")
    cache = MemoryPaths.for_root(tmp_path).embedding_cache_path
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(b"not a database at all" * 200)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert [r.entry.content for r in memory.search("kafka offsets").results] == [
            "kafka consumers commit offsets after processing"
        ]
        assert memory.add("a second note re-fills the cache").created
    assert cache.with_name(cache.name + ".corrupt").exists()


def test_missing_store_data_is_a_storage_error_naming_doctor(tmp_path: Path) -> None:
    _add(tmp_path, *(f"note {n}" for n in range(3)))
    data = MemoryPaths.for_root(tmp_path).vectors_dir / "memories.lance" / "data"
    for part in data.iterdir():
        part.unlink()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        with pytest.raises(StorageError, match=r"cannot be read .*memory-tui doctor"):
            memory.store().all_entries()
        with pytest.raises(StorageError, match="cannot be read"):
            memory.repair_index()
        assert memory.count() == 3  # the mirror is left alone
