"""The LanceDB table's schema, entries to rows and back, and its version on disk.

Imports neither LanceDB nor pyarrow at module level (pyarrow only to build the schema).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.hashing import content_hash
from engine.core.models import Category, Entry, Source

if TYPE_CHECKING:
    import pyarrow as pa

TABLE = "memories"
"""The table's name inside the store's folder."""


def schema(dimension: int) -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("content", pa.string()),
            pa.field("category", pa.string()),
            pa.field("source", pa.string()),
            pa.field("filePath", pa.string()),
            pa.field("sectionTitle", pa.string()),
            pa.field("keywords", pa.string()),
            pa.field("referenceCount", pa.int32()),
            pa.field("promoted", pa.bool_()),
            pa.field("promotedAt", pa.string()),
            pa.field("createdAt", pa.string()),
            pa.field("updatedAt", pa.string()),
            pa.field("contentHash", pa.string()),
            pa.field("lineStart", pa.int32()),
            pa.field("lineEnd", pa.int32()),
            pa.field("vector", pa.list_(pa.float32(), dimension)),
        ]
    )


# Columns added after the original (v0.1) schema, with the SQL that fills old rows.
MIGRATIONS = {"contentHash": "''", "lineStart": "CAST(0 AS INT)", "lineEnd": "CAST(0 AS INT)"}


def first_line(exc: BaseException) -> str:
    """The first line of an error's text (LanceDB's run to dozens), at most 300 characters."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def unreadable(path: Path | str, exc: BaseException) -> str:
    """The message of a store that cannot be read, naming what to run."""
    return (
        f"the vector store at {path} cannot be read ({first_line(exc)}); run `memory-tui doctor` "
        "to see what can be recovered"
    )


def quote(value: str) -> str:
    """A SQL string literal for LanceDB filters."""
    return "'" + value.replace("'", "''") + "'"


def row_to_entry(row: dict[str, Any]) -> Entry:
    """Build an :class:`Entry` from a LanceDB row (vector ignored)."""
    keywords_raw = row.get("keywords") or "[]"
    try:
        keywords = json.loads(keywords_raw)
    except json.JSONDecodeError:
        keywords = [k for k in str(keywords_raw).split() if k]
    return Entry(
        id=row["id"],
        content=row["content"] or "",
        category=Category(row.get("category") or "general"),
        source=Source(row.get("source") or "manual"),
        file_path=row.get("filePath") or "",
        section_title=row.get("sectionTitle") or "",
        keywords=tuple(str(k) for k in keywords),
        reference_count=int(row.get("referenceCount") or 0),
        promoted=bool(row.get("promoted")),
        promoted_at=row.get("promotedAt") or "",
        created_at=row.get("createdAt") or "",
        updated_at=row.get("updatedAt") or "",
        content_hash=row.get("contentHash") or content_hash(row["content"] or ""),
        line_start=int(row.get("lineStart") or 0),
        line_end=int(row.get("lineEnd") or 0),
    )


def entry_to_row(entry: Entry, vector: Sequence[float]) -> dict[str, Any]:
    """The LanceDB row of an entry and its vector."""
    return {
        "id": entry.id,
        "content": entry.content,
        "category": entry.category.value,
        "source": entry.source.value,
        "filePath": entry.file_path,
        "sectionTitle": entry.section_title,
        "keywords": json.dumps(list(entry.keywords), ensure_ascii=False),
        "referenceCount": entry.reference_count,
        "promoted": entry.promoted,
        "promotedAt": entry.promoted_at,
        "createdAt": entry.created_at,
        "updatedAt": entry.updated_at,
        "contentHash": entry.content_hash,
        "lineStart": entry.line_start,
        "lineEnd": entry.line_end,
        "vector": vector,
    }


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
