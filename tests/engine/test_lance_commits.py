"""Commits that meet another machine's commit (engine.storage.lance_commits), on real
LanceDB tables in tmp_path: the conflicts are made by real concurrent writers' handles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
import pytest

from engine.core.errors import StorageError
from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.storage import lance_commits
from engine.storage.lance_rows import TABLE, entry_to_row, schema
from engine.storage.record_store import RecordStore

DIM = 8


def note(entry_id: str) -> Entry:
    text = f"note {entry_id}"
    return Entry(
        id=entry_id,
        content=text,
        created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00",
        content_hash=content_hash(text),
    )


def rows(*ids: str) -> list[dict[str, Any]]:
    return [entry_to_row(note(entry_id), [0.5] * DIM) for entry_id in ids]


def stale_handle_and_overwrite(folder: Path) -> Any:
    """A handle read at version 1 of an empty table, and another machine's creation that
    landed on top of it as version 2 (what Lance makes of two creations at once)."""
    lancedb.connect(folder).create_table(TABLE, schema=schema(DIM))
    stale = lancedb.connect(folder).open_table(TABLE)  # no consistency interval: stays at 1
    lancedb.connect(folder).create_table(TABLE, schema=schema(DIM), mode="overwrite")
    return stale


class TestConflicts:
    def test_an_append_refused_by_a_concurrent_creation_fails_without_a_retry(
        self, tmp_path: Path
    ) -> None:
        stale = stale_handle_and_overwrite(tmp_path)
        with pytest.raises(Exception, match="Incompatible transaction") as raised:
            stale.add(rows("a1"))
        assert lance_commits.is_conflict(raised.value)

    def test_it_is_tried_again_on_the_latest_version_and_lands_once(self, tmp_path: Path) -> None:
        stale = stale_handle_and_overwrite(tmp_path)
        calls: list[int] = []

        def append(table: Any) -> None:
            calls.append(table.version)
            table.add(rows("a1"))

        lance_commits.committed(stale, append)
        assert calls == [1, 2]  # refused at 1, landed on the overwrite
        fresh = lancedb.connect(tmp_path).open_table(TABLE)
        assert fresh.count_rows() == 1

    def test_other_errors_are_raised_at_once(self, tmp_path: Path) -> None:
        table = lancedb.connect(tmp_path).create_table(TABLE, schema=schema(DIM))
        calls: list[int] = []

        def broken(_: Any) -> None:
            calls.append(1)
            raise ValueError("Schema Error: no column named 'colour'")

        with pytest.raises(ValueError, match="colour"):
            lance_commits.committed(table, broken)
        assert calls == [1]

    def test_a_conflict_that_keeps_coming_is_reported_after_the_last_try(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(lance_commits, "PAUSE_S", 0.0)
        table = lancedb.connect(tmp_path).create_table(TABLE, schema=schema(DIM))
        calls: list[int] = []

        def contended(_: Any) -> None:
            calls.append(1)
            raise RuntimeError("lance error: Commit conflict for version 3: other writer")

        with pytest.raises(RuntimeError, match="Commit conflict"):
            lance_commits.committed(table, contended, attempts=3)
        assert calls == [1, 1, 1]


class TestCreation:
    def test_a_creation_that_overwrote_another_adds_its_rows_back(self, tmp_path: Path) -> None:
        db = lancedb.connect(tmp_path)
        first, restored = lance_commits.create(db, TABLE, schema(DIM))
        assert restored == 0 and first.version == 1
        first.add(rows("a1", "a2"))  # machine a's first adds, version 2
        # machine b's creation, which Lance committed on top as an overwrite (version 3)
        tag = "b-creation"
        tagged = schema(DIM).with_metadata({lance_commits.CREATOR: tag})
        second = lancedb.connect(tmp_path).create_table(TABLE, schema=tagged, mode="overwrite")
        assert second.count_rows() == 0  # a's notes are gone ...
        second.add(rows("b1"))  # ... and b adds its own before the check (version 4)
        assert lance_commits.restore_overwritten(db, TABLE, tag, second.version) == 2
        table = lancedb.connect(tmp_path).open_table(TABLE)
        assert sorted(r["id"] for r in table.to_arrow().select(["id"]).to_pylist()) == [
            "a1",
            "a2",
            "b1",
        ]

    def test_a_creation_on_an_empty_folder_restores_nothing(self, tmp_path: Path) -> None:
        db = lancedb.connect(tmp_path)
        table, restored = lance_commits.create(db, TABLE, schema(DIM))
        assert restored == 0
        assert (table.schema.metadata or {}).get(lance_commits.CREATOR.encode())
        tag = table.schema.metadata[lance_commits.CREATOR.encode()].decode()
        table.add(rows("a1"))
        assert lance_commits.restore_overwritten(db, TABLE, tag, table.version) == 0

    def test_a_table_created_by_another_is_opened_with_its_rows(self, tmp_path: Path) -> None:
        lancedb.connect(tmp_path).create_table(TABLE, schema=schema(DIM)).add(rows("a1"))
        table, restored = lance_commits.create(lancedb.connect(tmp_path), TABLE, schema(DIM))
        assert restored == 0 and table.count_rows() == 1

    def test_a_creation_that_fails_says_which_store_and_why(self) -> None:
        class Refusing:  # a database whose creations fail (a bucket refusing writes)
            def create_table(self, name: str, schema: pa.Schema) -> None:
                raise OSError("Generic S3 error: 403 Forbidden\nrequest id 7")

        with pytest.raises(StorageError) as raised:
            lance_commits.create(Refusing(), TABLE, schema(DIM), "s3://team/memory")
        assert str(raised.value) == (
            "cannot create the vector store at s3://team/memory (Generic S3 error: 403 Forbidden)"
        )

    def test_a_creation_that_cannot_be_read_back_says_so(self, tmp_path: Path) -> None:
        real = lancedb.connect(tmp_path)

        class Unreadable:  # creations land, reads fail (a store that fails under load)
            def create_table(self, name: str, schema: pa.Schema) -> Any:
                return real.create_table(name, schema=schema)

            def open_table(self, name: str) -> Any:
                raise OSError("Generic S3 error: 500 Internal Error")

        with pytest.raises(StorageError, match="cannot read back the new vector store at s3://"):
            lance_commits.create(Unreadable(), TABLE, schema(DIM), "s3://team/memory")

    def test_the_record_store_writes_through_a_refused_commit(self, tmp_path: Path) -> None:
        store = RecordStore(tmp_path, DIM)
        store._table = stale_handle_and_overwrite(tmp_path)  # as if opened before the overwrite
        store.add([note("e1")], np.full((1, DIM), 0.5, dtype=np.float32))
        assert RecordStore(tmp_path, DIM).count() == 1


def test_the_tag_does_not_change_the_columns() -> None:
    tagged = schema(DIM).with_metadata({lance_commits.CREATOR: "x"})
    assert tagged.names == schema(DIM).names
    assert isinstance(tagged.field("vector").type, pa.FixedSizeListType)
