"""The rows of the entry mirror (``fts.sqlite``): its schema, and an entry to a row and back.

See :mod:`engine.storage.mirror` for how the mirror is kept in step with the store.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.core.models import ENTRY_COLUMNS, Category, Entry, Source

__all__ = ["COLUMNS", "SCHEMA", "SCHEMA_VERSION", "entry_to_row", "row_to_entry"]

SCHEMA_VERSION = "1"
COLUMNS = ENTRY_COLUMNS
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS entries (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    content TEXT NOT NULL, category TEXT NOT NULL, source TEXT NOT NULL,
    filePath TEXT NOT NULL DEFAULT '', sectionTitle TEXT NOT NULL DEFAULT '',
    keywords TEXT NOT NULL DEFAULT '[]', referenceCount INTEGER NOT NULL DEFAULT 0,
    promoted INTEGER NOT NULL DEFAULT 0, promotedAt TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL, contentHash TEXT NOT NULL,
    lineStart INTEGER NOT NULL DEFAULT 0, lineEnd INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS entries_hash ON entries(contentHash);
CREATE INDEX IF NOT EXISTS entries_file ON entries(filePath);
CREATE INDEX IF NOT EXISTS entries_created ON entries(createdAt);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(
    id UNINDEXED, content, category, source, filePath, sectionTitle, keywords,
    content='entries', content_rowid='rowid', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS entries_ai AFTER INSERT ON entries BEGIN
    INSERT INTO memory_fts(rowid, id, content, category, source, filePath, sectionTitle, keywords)
    VALUES (new.rowid, new.id, new.content, new.category, new.source, new.filePath,
            new.sectionTitle, new.keywords);
END;
CREATE TRIGGER IF NOT EXISTS entries_ad AFTER DELETE ON entries BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, id, content, category, source, filePath,
                           sectionTitle, keywords)
    VALUES ('delete', old.rowid, old.id, old.content, old.category, old.source, old.filePath,
            old.sectionTitle, old.keywords);
END;
CREATE TRIGGER IF NOT EXISTS entries_au AFTER UPDATE ON entries BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, id, content, category, source, filePath,
                           sectionTitle, keywords)
    VALUES ('delete', old.rowid, old.id, old.content, old.category, old.source, old.filePath,
            old.sectionTitle, old.keywords);
    INSERT INTO memory_fts(rowid, id, content, category, source, filePath, sectionTitle, keywords)
    VALUES (new.rowid, new.id, new.content, new.category, new.source, new.filePath,
            new.sectionTitle, new.keywords);
END;
CREATE TABLE IF NOT EXISTS fts_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reference_backlog (id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS unembedded (id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT OR IGNORE INTO fts_state VALUES ('schema', '{SCHEMA_VERSION}');
INSERT OR IGNORE INTO fts_state VALUES ('pending', '1');
"""


def entry_to_row(entry: Entry) -> tuple[object, ...]:
    """The mirror row of an entry, in :data:`COLUMNS` order."""
    return (
        entry.id,
        entry.content,
        entry.category.value,
        entry.source.value,
        entry.file_path,
        entry.section_title,
        json.dumps(list(entry.keywords), ensure_ascii=False),
        entry.reference_count,
        int(entry.promoted),
        entry.promoted_at,
        entry.created_at,
        entry.updated_at,
        entry.content_hash,
        entry.line_start,
        entry.line_end,
    )


def row_to_entry(row: Sequence[Any]) -> Entry:
    """Inverse of :func:`entry_to_row`."""
    keywords = json.loads(str(row[6])) if row[6] else []
    return Entry(
        id=str(row[0]),
        content=str(row[1]),
        category=Category(str(row[2])),
        source=Source(str(row[3])),
        file_path=str(row[4]),
        section_title=str(row[5]),
        keywords=tuple(str(k) for k in keywords),
        reference_count=int(row[7]),
        promoted=bool(row[8]),
        promoted_at=str(row[9]),
        created_at=str(row[10]),
        updated_at=str(row[11]),
        content_hash=str(row[12]),
        line_start=int(row[13]),
        line_end=int(row[14]),
    )
