"""The rows of the entry mirror (``fts.sqlite``): its schema and migrations, derived from
:data:`engine.core.models.ENTRY_FIELDS`, and an entry to a row and back.

See :mod:`engine.storage.mirror` for how the mirror is kept in step with the store.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core.models import (
    ENTRY_COLUMNS,
    ENTRY_FIELDS,
    Category,
    Entry,
    EntryField,
    FieldKind,
    Source,
)

__all__ = [
    "COLUMNS",
    "FTS_COLUMNS",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "entry_to_row",
    "migrate",
    "row_to_entry",
]

COLUMNS = ENTRY_COLUMNS
FTS_COLUMNS: tuple[str, ...] = tuple(f.column for f in ENTRY_FIELDS if f.searchable)
"""The columns of the FTS5 table, in its order (BM25 weights are given in this order)."""

_SQL_TYPES: dict[FieldKind, tuple[str, str]] = {
    FieldKind.ID: ("TEXT", ""),
    FieldKind.TEXT: ("TEXT", "''"),
    FieldKind.CATEGORY: ("TEXT", f"'{Category.GENERAL.value}'"),
    FieldKind.SOURCE: ("TEXT", f"'{Source.MANUAL.value}'"),
    FieldKind.KEYWORDS: ("TEXT", "'[]'"),
    FieldKind.COUNT: ("INTEGER", "0"),
    FieldKind.FLAG: ("INTEGER", "0"),
    FieldKind.LINE: ("INTEGER", "0"),
}
"""SQLite type and default of each kind of field (every column but the id has a default,
so that a migration can add it to a table with rows)."""


def _column_sql(field: EntryField) -> str:
    sql_type, default = _SQL_TYPES[field.kind]
    if field.kind is FieldKind.ID:
        return f"{field.column} {sql_type} NOT NULL UNIQUE"
    return f"{field.column} {sql_type} NOT NULL DEFAULT {default}"


def _fts_statements() -> list[str]:
    """The FTS5 table and the triggers that keep it in step with ``entries``."""
    cols = ", ".join(f"{c} UNINDEXED" if c == "id" else c for c in FTS_COLUMNS)
    old = ", ".join(f"old.{c}" for c in FTS_COLUMNS)
    new = ", ".join(f"new.{c}" for c in FTS_COLUMNS)
    names = ", ".join(FTS_COLUMNS)
    indexed = ", ".join(c for c in FTS_COLUMNS if c != "id")
    remove = (
        f"INSERT INTO memory_fts(memory_fts, rowid, {names}) VALUES ('delete', old.rowid, {old});"
    )
    add = f"INSERT INTO memory_fts(rowid, {names}) VALUES (new.rowid, {new});"
    # The update trigger fires only when a searchable column changes: a reference count
    # is one column's UPDATE and re-indexes nothing.
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5({cols}, content='entries',"
        " content_rowid='rowid', tokenize='porter unicode61')",
        f"CREATE TRIGGER IF NOT EXISTS entries_ai AFTER INSERT ON entries BEGIN {add} END",
        f"CREATE TRIGGER IF NOT EXISTS entries_ad AFTER DELETE ON entries BEGIN {remove} END",
        f"CREATE TRIGGER IF NOT EXISTS entries_au AFTER UPDATE OF {indexed} ON entries"
        f" BEGIN {remove} {add} END",
    ]


_TRIGGERS = ("entries_ai", "entries_ad", "entries_au")


_FTS = ";\n".join(_fts_statements())
SCHEMA_VERSION = "2"
"""The mirror's schema version, kept in ``fts_state``; :data:`MIGRATIONS` brings an older
mirror to it."""
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS entries (
    rowid INTEGER PRIMARY KEY,
    {", ".join(_column_sql(f) for f in ENTRY_FIELDS)}
);
CREATE INDEX IF NOT EXISTS entries_hash ON entries(contentHash);
CREATE INDEX IF NOT EXISTS entries_file ON entries(filePath);
CREATE INDEX IF NOT EXISTS entries_created ON entries(createdAt);
{_FTS};
CREATE TABLE IF NOT EXISTS fts_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reference_backlog (id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS unembedded (id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT OR IGNORE INTO fts_state VALUES ('schema', '{SCHEMA_VERSION}');
INSERT OR IGNORE INTO fts_state VALUES ('pending', '1');
"""


def _recreate_triggers(db: sqlite3.Connection) -> None:
    for name in _TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement in _fts_statements()[1:]:
        db.execute(statement)


MIGRATIONS: tuple[tuple[int, str, Callable[[sqlite3.Connection], None]], ...] = (
    (2, "keyword index re-indexed only when a searchable column changes", _recreate_triggers),
)
"""Numbered steps from one mirror schema version to the next: ``(to, what, step)``."""


def _table_columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in db.execute(f"PRAGMA table_info({table})")]


def _stored_version(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM fts_state WHERE key = 'schema'").fetchone()
    found = "" if row is None else str(row[0])
    if not found.isdigit() or not 1 <= int(found) <= int(SCHEMA_VERSION):
        raise sqlite3.DatabaseError(f"keyword index schema {found!r} is not {SCHEMA_VERSION}")
    return int(found)


def _missing(db: sqlite3.Connection) -> tuple[list[EntryField], bool]:
    """The declared fields the table lacks, and whether the FTS5 columns differ."""
    columns = _table_columns(db, "entries")
    missing = [f for f in ENTRY_FIELDS if f.column not in columns]
    return missing, list(FTS_COLUMNS) != _table_columns(db, "memory_fts")


def migrate(db: sqlite3.Connection) -> None:
    """Bring a mirror (its tables created if missing) to :data:`SCHEMA_VERSION`, in one
    transaction: the numbered :data:`MIGRATIONS` after its version, then the declared
    fields its table lacks (added with their kind's default; the FTS5 table rebuilt when
    one of them is searchable). A no-op on a current mirror; a second process that opens
    the same old mirror at once waits, then finds it current.

    Raises:
        sqlite3.DatabaseError: the mirror's schema is not one this program knows (newer,
            or older than the first, 1), or it is unreadable: the caller recreates it
            from the store.
    """
    missing, fts_changed = _missing(db)
    if _stored_version(db) == int(SCHEMA_VERSION) and not missing and not fts_changed:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        found = _stored_version(db)  # again, under the lock: another process may have run
        missing, fts_changed = _missing(db)
        for number, _, step in MIGRATIONS:
            if number > found:
                step(db)
        for field in missing:
            db.execute(f"ALTER TABLE entries ADD COLUMN {_column_sql(field)}")
        if fts_changed:
            for name in _TRIGGERS:
                db.execute(f"DROP TRIGGER IF EXISTS {name}")
            db.execute("DROP TABLE memory_fts")
            for statement in _fts_statements():
                db.execute(statement)
            db.execute("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')")
        db.execute("UPDATE fts_state SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _to_sql(field: EntryField, value: Any) -> object:
    if field.kind in (FieldKind.CATEGORY, FieldKind.SOURCE):
        return str(value.value)
    if field.kind is FieldKind.KEYWORDS:
        return json.dumps(list(value), ensure_ascii=False)
    if field.kind is FieldKind.FLAG:
        return int(value)
    return value


def _keywords(value: Any) -> tuple[str, ...]:
    return tuple(str(k) for k in json.loads(str(value))) if value else ()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _number(value: Any) -> int:
    return int(value or 0)


def _member(enum: type[Category] | type[Source]) -> Callable[[Any], Any]:
    members = {m.value: m for m in enum}

    def read(value: Any) -> Any:
        found = members.get(value)
        return enum(str(value)) if found is None else found  # unknown: the enum's error

    return read


def _reader(kind: FieldKind) -> Callable[[Any], Any]:
    """What :func:`_from_sql` does for a field of ``kind``, as one function (enum members
    looked up in a dict: ``Category(value)`` costs several times more)."""
    if kind is FieldKind.KEYWORDS:
        return _keywords
    if kind is FieldKind.CATEGORY:
        return _member(Category)
    if kind is FieldKind.SOURCE:
        return _member(Source)
    if kind in (FieldKind.COUNT, FieldKind.LINE):
        return _number
    if kind is FieldKind.FLAG:
        return bool
    return _text


def _from_sql(field: EntryField, value: Any) -> Any:
    kind = field.kind
    if kind is FieldKind.KEYWORDS:
        return tuple(str(k) for k in json.loads(str(value))) if value else ()
    if kind is FieldKind.CATEGORY:
        return Category(str(value))
    if kind is FieldKind.SOURCE:
        return Source(str(value))
    if kind in (FieldKind.COUNT, FieldKind.LINE):
        return int(value or 0)
    if kind is FieldKind.FLAG:
        return bool(value)
    return "" if value is None else str(value)


def entry_to_row(entry: Entry) -> tuple[object, ...]:
    """The mirror row of an entry, in :data:`COLUMNS` order."""
    return tuple(_to_sql(f, getattr(entry, f.attr)) for f in ENTRY_FIELDS)


def row_to_entry(row: sqlite3.Row | Mapping[str, Any] | Sequence[Any]) -> Entry:
    """The entry of a mirror row, read by column name: a :class:`sqlite3.Row` or a
    mapping; a plain sequence holds :data:`COLUMNS` in order (a ``SELECT`` of them)."""
    if isinstance(row, sqlite3.Row):
        named: Mapping[str, Any] = dict(zip(row.keys(), row, strict=True))
    elif isinstance(row, Mapping):
        named = row
    else:  # the common case (every search reads a hundred): one converter per column
        values = [read(v) for read, v in zip(_READERS, row, strict=False)]
        return Entry(**dict(zip(_ATTRS, values, strict=True)))
    return Entry(**{f.attr: _from_sql(f, named[f.column]) for f in ENTRY_FIELDS})


def where_clause(category: Category | None, source: Source | None) -> tuple[str, list[object]]:
    """The ``WHERE`` of a listing narrowed to a category and/or a source, and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    if category is not None:
        clauses.append("category = ?")
        params.append(category.value)
    if source is not None:
        clauses.append("source = ?")
        params.append(source.value)
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), params


_READERS = tuple(_reader(f.kind) for f in ENTRY_FIELDS)
"""The converter of each of :data:`COLUMNS`, in order."""
_ATTRS = tuple(f.attr for f in ENTRY_FIELDS)
