"""A damaged store of record is reported in plain words, one line that names the repair
(issue 45, item 1), found by reading every file (a count reads only the manifest), and
said the same by a read and by a write that reads the damaged file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.core.errors import StorageError
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.lance_errors import REBUILD_STORE, is_damage, plain
from engine.storage.lance_reads import read_everything
from engine.storage.paths import MemoryPaths
from engine.storage.record_store import RecordStore

RUST_NOISE = ("/rustc/", ".rs:", "LanceError", "lance error", "cargo")


def _stored(root: Path, n: int = 20) -> RecordStore:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(f"note {i} about the billing ledger") for i in range(n)])
    return RecordStore(MemoryPaths.for_root(root).vectors_dir, FakeEmbedder().dimension)


def _data_files(root: Path) -> list[Path]:
    data = MemoryPaths.for_root(root).vectors_dir / "memories.lance" / "data"
    return sorted(data.glob("*.lance"))


def test_a_data_file_cut_short_is_found_by_reading_everything(tmp_path: Path) -> None:
    store = _stored(tmp_path)
    assert read_everything(store) == 20
    for part in _data_files(tmp_path):
        os.truncate(part, 100)
    store = RecordStore(store.path, store.dimension)
    assert store.count() == 20  # the manifest alone: the damage is not seen
    with pytest.raises(StorageError) as raised:
        read_everything(store)
    message = raised.value.message
    assert message == (
        f"the vector store at {store.path} is damaged (one of its files is cut short); "
        f"`{REBUILD_STORE}` rebuilds it from the keyword index"
    )
    assert not any(noise in message for noise in RUST_NOISE)


def test_a_missing_data_file_is_named_relative_to_the_store(tmp_path: Path) -> None:
    store = _stored(tmp_path)
    gone = _data_files(tmp_path)[0]
    gone.unlink()
    with pytest.raises(StorageError) as raised:
        RecordStore(store.path, store.dimension).all_entries()
    assert f"is damaged (memories.lance/data/{gone.name} is missing)" in raised.value.message
    assert not any(noise in raised.value.message for noise in RUST_NOISE)


def test_a_write_that_reads_the_damaged_file_says_the_same_line(tmp_path: Path) -> None:
    store = _stored(tmp_path)
    for part in _data_files(tmp_path):
        os.truncate(part, 100)
    with pytest.raises(StorageError) as read:
        RecordStore(store.path, store.dimension).all_entries()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        victim = memory.list(limit=1)[0].id
        with pytest.raises(StorageError) as written:
            parts_of(memory).store().delete([victim])  # a delete reads the rows it matches
        assert memory.count() == 20  # the keyword index keeps every entry
    assert written.value.message == read.value.message


def test_lancedb_messages_lose_their_wrapping_and_source_locations() -> None:
    cut = RuntimeError(
        "lance error: LanceError(IO): Generic LocalFileSystem error: failed to fill whole "
        "buffer, /rustc/2d8144b7880597b6e6d3dfd63a9a9efae3f533d3/library/core/src/ops/"
        "function.rs:250:5"
    )
    assert plain(cut) == "one of its files is cut short"
    gone = RuntimeError(
        "lance error: LanceError(IO): Generic N/A error: Wrapped error: Not found: "
        "team/memories.lance/_versions/7.manifest, /root/.cargo/registry/src/"
        "index.crates.io-1949cf8c6b5b557f/lance-io-13.0.0/src/local.rs:273:40"
    )
    assert plain(gone) == "team/memories.lance/_versions/7.manifest is missing"
    assert is_damage(cut) and is_damage(gone)
    refused = RuntimeError("lance error: Commit conflict for version 7, /x/src/io/commit.rs:9:1")
    assert plain(refused) == "Commit conflict for version 7"
    assert not is_damage(refused)
