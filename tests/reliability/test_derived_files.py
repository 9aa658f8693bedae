"""Derived files under load and damage: fts.sqlite busy is not fts.sqlite broken."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine import fts as fts_module
from engine.errors import LockTimeoutError
from engine.fts import FtsIndex
from engine.memory import Memory


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
