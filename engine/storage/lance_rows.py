"""The LanceDB table's schema and migrations, derived from
:data:`engine.core.models.ENTRY_FIELDS`, entries to rows and back, and its version on disk.

Imports neither LanceDB nor pyarrow at module level (pyarrow only to build the schema).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.hashing import content_hash
from engine.core.models import ENTRY_FIELDS, Category, Entry, EntryField, FieldKind, Source

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

TABLE = "memories"
"""The table's name inside the store's folder."""


_ARROW_TYPES: dict[FieldKind, str] = {
    FieldKind.ID: "string",
    FieldKind.TEXT: "string",
    FieldKind.CATEGORY: "string",
    FieldKind.SOURCE: "string",
    FieldKind.KEYWORDS: "string",
    FieldKind.COUNT: "int32",
    FieldKind.FLAG: "bool_",
    FieldKind.LINE: "int32",
}
"""The Arrow type of each kind of field (the name of its pyarrow factory)."""

_FILL_SQL: dict[FieldKind, str] = {
    FieldKind.TEXT: "''",
    FieldKind.CATEGORY: f"'{Category.GENERAL.value}'",
    FieldKind.SOURCE: f"'{Source.MANUAL.value}'",
    FieldKind.KEYWORDS: "'[]'",
    FieldKind.COUNT: "CAST(0 AS INT)",
    FieldKind.FLAG: "false",
    FieldKind.LINE: "CAST(0 AS INT)",
}
"""The SQL that fills a column added by a migration, for the rows already stored."""

STORE_VERSION = max(f.since for f in ENTRY_FIELDS)
"""The newest store schema version: the ``since`` of the latest declared field."""


def schema(dimension: int) -> pa.Schema:
    """The table's schema: every declared field, then the vector."""
    import pyarrow as pa

    columns = [
        pa.field(f.column, getattr(pa, _ARROW_TYPES[f.kind])(), nullable=f.kind is not FieldKind.ID)
        for f in ENTRY_FIELDS
    ]
    return pa.schema([*columns, pa.field("vector", pa.list_(pa.float32(), dimension))])


def migrations(names: Collection[str]) -> list[tuple[int, dict[str, str]]]:
    """The numbered steps a table with columns ``names`` still needs, oldest first: each
    is ``(version, {column: SQL filling the rows already stored})``, the columns of the
    fields declared ``since`` that version that the table lacks. Version 1 is the original
    (v0.1) table; 2 added ``contentHash``, ``lineStart`` and ``lineEnd``."""
    steps = []
    for version in range(2, STORE_VERSION + 1):
        added = {
            f.column: _FILL_SQL[f.kind]
            for f in ENTRY_FIELDS
            if f.since == version and f.column not in names
        }
        if added:
            steps.append((version, added))
    return steps


def migrate(table: Any) -> None:
    """Apply the numbered migrations the LanceDB ``table`` still needs (see
    :func:`migrations`): one commit per step, nothing when the table is current."""
    for version, added in migrations(set(table.schema.names)):
        log.info("migrating the vector store to version %d: adding %s", version, ", ".join(added))
        table.add_columns(added)
        if "contentHash" in added:
            _backfill_hashes(table)


def _backfill_hashes(table: Any) -> None:
    import pyarrow as pa

    rows = table.search().select(["id", "content"]).limit(None).to_list()
    if not rows:
        return
    # One merge, one commit, whatever the number of rows (an update per row would be
    # a table version each).
    hashes = pa.table(
        {
            "id": pa.array([r["id"] for r in rows], pa.string()),
            "contentHash": pa.array([content_hash(r["content"] or "") for r in rows], pa.string()),
        }
    )
    table.merge_insert("id").when_matched_update_all().execute(hashes)


def quote(value: str) -> str:
    """A SQL string literal for LanceDB filters."""
    return "'" + value.replace("'", "''") + "'"


def id_lists(ids: Sequence[str], size: int = 500) -> list[str]:
    """``ids`` as the quoted lists of ``id IN (…)`` filters, ``size`` ids to a filter."""
    return [", ".join(quote(i) for i in ids[at : at + size]) for at in range(0, len(ids), size)]


def _from_arrow(field: EntryField, value: Any) -> Any:
    """A stored value as the entry's attribute; nulls (rows of an older table) read as
    the kind's empty value, numbers stored as doubles by older writers as integers."""
    kind = field.kind
    if kind is FieldKind.KEYWORDS:
        raw = value or "[]"
        try:
            words = json.loads(raw)
        except json.JSONDecodeError:
            words = str(raw).split()
        return tuple(str(k) for k in words if k)
    if kind is FieldKind.CATEGORY:
        return Category(value or Category.GENERAL.value)
    if kind is FieldKind.SOURCE:
        return Source(value or Source.MANUAL.value)
    if kind in (FieldKind.COUNT, FieldKind.LINE):
        return int(value or 0)
    if kind is FieldKind.FLAG:
        return bool(value)
    return value or ""


def _to_arrow(field: EntryField, value: Any) -> Any:
    if field.kind in (FieldKind.CATEGORY, FieldKind.SOURCE):
        return value.value
    if field.kind is FieldKind.KEYWORDS:
        return json.dumps(list(value), ensure_ascii=False)
    return value


def row_to_entry(row: dict[str, Any]) -> Entry:
    """Build an :class:`Entry` from a LanceDB row (vector ignored), by column name."""
    entry = Entry(**{f.attr: _from_arrow(f, row.get(f.column)) for f in ENTRY_FIELDS})
    if not entry.content_hash:  # a row written before the column: hashed on reading
        entry = replace(entry, content_hash=content_hash(entry.content))
    return entry


def entry_to_row(entry: Entry, vector: Sequence[float]) -> dict[str, Any]:
    """The LanceDB row of an entry and its vector."""
    row = {f.column: _to_arrow(f, getattr(entry, f.attr)) for f in ENTRY_FIELDS}
    row["vector"] = vector
    return row


def latest_version_on_disk(path: Path) -> int | None:
    """The table's latest committed version from its manifest file names, without
    importing LanceDB; ``None`` when there is no table. Manifests are named ``N.manifest``
    or, in the newer layout, ``(2**64 - 1 - N).manifest`` (so the newest sorts first)."""
    versions = path / f"{TABLE}.lance" / "_versions"
    try:
        names = [n[: -len(".manifest")] for n in os.listdir(versions) if n.endswith(".manifest")]
    except OSError:
        return None
    numbers = [int(n) for n in names if n.isdigit()]
    if not numbers:
        return None
    newest = max(numbers)
    return newest if newest < 2**63 else 2**64 - 1 - min(numbers)


def placeholders(ids: Sequence[str], vectors: Any) -> set[str]:
    """Those of ``ids`` whose vector (the row of ``vectors`` at the same place) is a
    placeholder: all zeros, written by the first phase of indexing and not embedded yet
    (a real vector has unit length)."""
    import numpy as np

    empty = ~np.any(np.asarray(vectors) != 0, axis=1) if len(ids) else []
    return {entry_id for entry_id, none in zip(ids, empty, strict=True) if none}


def vector_matrix(column: Any, dimension: int) -> npt.NDArray[np.float32]:
    """The table's vector column (arrow, fixed-size lists) as an (n, dimension) float32
    matrix, row for row, without a Python list per row (those were 40 % of a read by id);
    a null vector reads as zeros, as a placeholder does."""
    import numpy as np

    column = column.combine_chunks()  # one array (a chunked column's chunks joined)
    values = column.flatten().to_numpy(zero_copy_only=False)  # the valid rows' values
    rows = np.asarray(values, dtype=np.float32).reshape(-1, dimension)
    if not column.null_count:
        return rows
    matrix = np.zeros((len(column), dimension), dtype=np.float32)
    matrix[column.is_valid().to_numpy(zero_copy_only=False)] = rows
    return matrix
