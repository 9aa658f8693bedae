"""One declaration of an entry's fields (``ENTRY_FIELDS``): every place that names them
is derived from it, or, for the shipped JSON Schema files, agrees with it."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeEmbedder

from app.mcp.schemas import EntryOut, SearchHit
from engine import output_schema
from engine.core.models import (
    ENTRY_COLUMNS,
    ENTRY_FIELDS,
    MAX_KEYWORDS,
    Category,
    Entry,
    FieldKind,
    Source,
)
from engine.output.export import FIELDS
from engine.output.serialize import ENTRY_KEYS, entry_json
from engine.storage import lance_rows, mirror_rows
from engine.storage.mirror import EntryMirror
from engine.storage.record_store import RecordStore

JSON_TYPES: dict[FieldKind, dict[str, Any]] = {
    FieldKind.ID: {"type": "string", "minLength": 1},
    FieldKind.TEXT: {"type": "string"},
    FieldKind.CATEGORY: {"enum": [c.value for c in Category]},
    FieldKind.SOURCE: {"enum": [s.value for s in Source]},
    FieldKind.KEYWORDS: {"type": "array", "items": {"type": "string"}, "maxItems": MAX_KEYWORDS},
    FieldKind.COUNT: {"type": "integer", "minimum": 0},
    FieldKind.FLAG: {"type": "boolean"},
    FieldKind.LINE: {"type": ["integer", "null"], "minimum": 1},
}
"""What the JSON Schema files must say of each kind of field."""

FULL = Entry(
    id="e1",
    content="every field set",
    category=Category.GOTCHA,
    source=Source.SESSION,
    file_path="docs/a.md",
    line_start=3,
    line_end=9,
    section_title="A > B",
    keywords=("one", "two"),
    reference_count=4,
    promoted=True,
    promoted_at="2026-01-02",
    created_at="2026-01-01",
    updated_at="2026-01-03",
    content_hash="abc",
)


def test_entry_declares_exactly_its_attributes() -> None:
    assert [f.name for f in dataclasses.fields(Entry)] == [f.attr for f in ENTRY_FIELDS]
    assert len(set(ENTRY_COLUMNS)) == len(ENTRY_COLUMNS)
    assert len({f.key for f in ENTRY_FIELDS}) == len(ENTRY_FIELDS)
    defaults = [dataclasses.fields(Entry)[n].default for n in range(len(ENTRY_FIELDS))]
    assert all(getattr(FULL, f.attr) != d for f, d in zip(ENTRY_FIELDS, defaults, strict=True))


@pytest.mark.parametrize("name", ["entry", "search_result"])
def test_the_json_schema_files_agree_with_the_declaration(name: str) -> None:
    schema = output_schema(name)
    properties = schema["properties"]
    for field in ENTRY_FIELDS:
        described = dict(properties[field.key])
        assert described.pop("description") == field.description, field.key
        assert described == JSON_TYPES[field.kind], field.key
    assert list(schema["required"]) == list(properties)


def test_the_json_shape_is_derived() -> None:
    shape = entry_json(FULL)
    assert tuple(shape) == ENTRY_KEYS
    assert {f.key: shape[f.key] for f in ENTRY_FIELDS} == {
        "id": "e1",
        "content": "every field set",
        "category": "gotcha",
        "source": "session",
        "filePath": "docs/a.md",
        "line": 3,
        "lineEnd": 9,
        "sectionTitle": "A > B",
        "keywords": ["one", "two"],
        "referenceCount": 4,
        "promoted": True,
        "promotedAt": "2026-01-02",
        "createdAt": "2026-01-01",
        "updatedAt": "2026-01-03",
        "contentHash": "abc",
    }
    assert entry_json(Entry(id="e2", content="x"))["line"] is None


def test_the_export_columns_are_the_exported_fields() -> None:
    exported = [f.key for f in ENTRY_FIELDS if f.exported]
    assert set(FIELDS) - {"rank", "score", "stale"} == set(exported)
    assert FIELDS[:3] == ("rank", "id", "score") and FIELDS[-2:] == ("stale", "content")


def test_the_mcp_output_model_is_derived() -> None:
    assert tuple(EntryOut.model_fields) == ENTRY_KEYS
    assert tuple(SearchHit.model_fields)[: len(ENTRY_KEYS)] == ENTRY_KEYS
    for field in ENTRY_FIELDS:
        assert EntryOut.model_fields[field.key].description == field.description
    shape = entry_json(FULL)
    assert EntryOut.model_validate(shape).model_dump() == shape


def test_the_mirror_is_derived(tmp_path: Path) -> None:
    mirror = EntryMirror(tmp_path / "fts.sqlite")
    try:
        with mirror.transaction() as db:
            mirror.upsert(db, [FULL])
        assert mirror.get("e1") == FULL
    finally:
        mirror.close()
    with sqlite3.connect(tmp_path / "fts.sqlite") as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(entries)")]
        fts = [row[1] for row in db.execute("PRAGMA table_info(memory_fts)")]
    assert columns == ["rowid", *ENTRY_COLUMNS]
    assert fts == [f.column for f in ENTRY_FIELDS if f.searchable]
    assert (
        mirror_rows.row_to_entry(
            dict(zip(ENTRY_COLUMNS, mirror_rows.entry_to_row(FULL), strict=True))
        )
        == FULL
    )


def test_the_store_is_derived(tmp_path: Path) -> None:
    embedder = FakeEmbedder(8)
    store = RecordStore(tmp_path / "vectors", embedder.dimension)
    store.add([FULL], embedder.embed_documents([FULL.content]))
    assert store.table().schema.names == [*ENTRY_COLUMNS, "vector"]
    assert store.get_many(["e1"]) == {"e1": FULL}
    assert lance_rows.schema(8).field("id").nullable is False
