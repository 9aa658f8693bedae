"""The entry mirror: every entry's fields but its vector in SQLite (``fts.sqlite``),
derived from the store of record and rebuildable from it.

The ``entries`` table and an external-content FTS5 index over it are kept in step by
triggers. Listing and lookups by id or content hash are served from here, and keyword
search reads the FTS5 index through :meth:`EntryMirror.ranked` (the SQL in
:mod:`.mirror_keyword`), so those paths never import LanceDB or the embedding stack.

Consistency with the store is tracked in ``fts_state``: writers set ``pending`` before
touching the store and clear it in the same transaction that updates the mirror, so a
crash in between leaves ``pending`` set and the next open repairs the mirror.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.errors import LockTimeoutError
from engine.core.models import Category, Entry, Source
from engine.storage import mirror_keyword
from engine.storage.mirror_keyword import MatchQuery, fts_columns
from engine.storage.mirror_reader import ReadConnection
from engine.storage.mirror_rows import (
    COLUMNS,
    SCHEMA,
    entry_to_row,
    migrate,
    row_to_entry,
    where_clause,
)
from engine.storage.sqlite import (
    enable_wal,
    is_busy_error,
    is_write_denied,
    open_read_only,
    warn_read_only,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 30.0
"""How long a statement waits for another process's write lock on ``fts.sqlite``."""


class EntryMirror:
    """The keyword index and entry mirror in ``fts.sqlite``.

    A connection is shared by the threads of one process (guarded by a lock);
    other processes use their own connections, and WAL lets readers proceed while
    one of them writes.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self.reader = ReadConnection(path, BUSY_TIMEOUT_S)
        self.recreated = False
        """True when the file was missing or unreadable and had to be made anew."""
        self._db = self._connect()
        self._identity = self._file_identity()
        self._fts_columns = fts_columns(self._db)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            db = self._open_schema()
        except sqlite3.DatabaseError as exc:
            if is_busy_error(exc):
                # Another process holds the database: it is busy, not broken. Moving it
                # aside would split the writers between two files.
                raise LockTimeoutError(
                    f"memory is busy: the keyword index {self.path} stayed locked "
                    f"for {BUSY_TIMEOUT_S:g} s"
                ) from exc
            if existed and is_write_denied(exc, self.path):
                with contextlib.suppress(sqlite3.DatabaseError):
                    db = open_read_only(self.path)  # healthy, only not writable: keep it
                    warn_read_only(self.path, exc)
                    return db
            log.warning("keyword index %s is unreadable (%s); recreating it", self.path, exc)
            self._move_aside()
            db = self._open_schema()
            existed = False
        self.recreated = not existed
        return db

    def _file_identity(self) -> tuple[int, int] | None:
        with contextlib.suppress(OSError):
            stat = os.stat(self.path)
            return stat.st_dev, stat.st_ino
        return None

    def replaced(self) -> bool:
        """Whether ``fts.sqlite`` was deleted or replaced since this connection opened
        it (by a user, ``doctor``, another process): the connection then still reads the
        old file and would never see what others write. One ``stat``."""
        return self._file_identity() != self._identity

    def reopen(self) -> None:
        """Open the file now at the path (creating it when missing; ``recreated`` says so)."""
        self.reader.close()
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = self._connect()
            self._identity = self._file_identity()
            self._fts_columns = fts_columns(self._db)

    def _open_schema(self) -> sqlite3.Connection:
        db = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
        )
        try:
            db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            enable_wal(db, BUSY_TIMEOUT_S)
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
            migrate(db)
            db.execute("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH 'x'").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            part = self.path.with_name(self.path.name + suffix)
            if part.exists():
                part.replace(part.with_name(part.name + ".corrupt"))

    def close(self) -> None:
        """Close the connections."""
        self.reader.close()
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on error)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def state(self, key: str) -> str | None:
        """A value of ``fts_state`` (``pending``, ``store_version``, …)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM fts_state WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_state(self, db: sqlite3.Connection, key: str, value: str) -> None:
        """Set a state value inside a transaction opened with :meth:`transaction`."""
        db.execute("INSERT OR REPLACE INTO fts_state VALUES (?, ?)", (key, value))

    @property
    def pending(self) -> bool:
        """True when a write to the store may not be reflected here."""
        return self.state("pending") != "0"

    def mark_pending(self) -> None:
        """Record that the store is about to change."""
        with self.transaction() as db:
            self.set_state(db, "pending", "1")

    # --- writes (call inside transaction()) ---------------------------------------------

    def upsert(self, db: sqlite3.Connection, entries: Iterable[Entry]) -> None:
        """Insert or replace entries (by id)."""
        rows = [entry_to_row(e) for e in entries]
        db.executemany("DELETE FROM entries WHERE id = ?", [(r[0],) for r in rows])
        marks = ",".join("?" * len(COLUMNS))
        db.executemany(f"INSERT INTO entries ({','.join(COLUMNS)}) VALUES ({marks})", rows)

    def delete(self, db: sqlite3.Connection, ids: Iterable[str]) -> None:
        """Remove entries by id; unknown ids are ignored."""
        params = [(i,) for i in ids]
        db.executemany("DELETE FROM entries WHERE id = ?", params)
        db.executemany("DELETE FROM unembedded WHERE id = ?", params)

    def clear(self, db: sqlite3.Connection) -> None:
        """Remove every entry."""
        db.execute("DELETE FROM entries")
        db.execute("DELETE FROM reference_backlog")
        db.execute("DELETE FROM unembedded")
        db.execute("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')")

    # --- entries stored without their vector yet (two-phase indexing) -------------------

    def mark_unembedded(self, db: sqlite3.Connection, ids: Iterable[str]) -> None:
        """Record that these entries' vectors in the store are placeholders."""
        db.executemany("INSERT OR IGNORE INTO unembedded VALUES (?)", [(i,) for i in ids])

    def clear_unembedded(self, db: sqlite3.Connection, ids: Iterable[str] | None = None) -> None:
        """These entries (every entry when ``ids`` is None) have their vectors now."""
        if ids is None:
            db.execute("DELETE FROM unembedded")
        else:
            db.executemany("DELETE FROM unembedded WHERE id = ?", [(i,) for i in ids])

    def unembedded_count(self) -> int:
        """How many entries wait for their vector."""
        with self._lock:
            sql = "SELECT count(*) FROM unembedded u JOIN entries e ON e.id = u.id"
            return int(self._db.execute(sql).fetchone()[0])

    def unembedded(self, limit: int) -> list[Entry]:
        """Up to ``limit`` entries waiting for their vector, oldest row first."""
        where = "WHERE id IN (SELECT id FROM unembedded) ORDER BY rowid LIMIT ?"
        return self._select(where, (limit,))

    def unembedded_among(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` that wait for their vector."""
        found: set[str] = set()
        for start in range(0, len(ids), 500):  # on the read connection: every hybrid search
            part = list(ids[start : start + 500])  # asks, and must not wait for a writer
            marks = ",".join("?" * len(part))
            rows = self._read(f"SELECT id FROM unembedded WHERE id IN ({marks})", part)
            found.update(str(r[0]) for r in rows)
        return found

    # --- reference counts not yet in the store ------------------------------------------

    def count_references(self, db: sqlite3.Connection, counts: Mapping[str, int]) -> None:
        """``referenceCount += n`` for each id and its ``n`` (unknown ids are ignored), and
        the counted entries noted in the backlog of counts the store has yet to receive.
        One column's UPDATE: the row keeps its rowid and the keyword index is not touched
        (its update trigger watches only the searchable columns)."""
        db.executemany(
            "UPDATE entries SET referenceCount = referenceCount + ? WHERE id = ?",
            [(int(n), i) for i, n in counts.items()],
        )
        db.executemany(
            "INSERT OR IGNORE INTO reference_backlog SELECT id FROM entries WHERE id = ?",
            [(i,) for i in counts],
        )

    def reference_backlog(self) -> dict[str, int]:
        """id → the mirror's ``referenceCount``, for counts the store has yet to receive."""
        with self._lock:
            rows = self._db.execute(
                "SELECT e.id, e.referenceCount FROM reference_backlog b"
                " JOIN entries e ON e.id = b.id"
            )
            return {str(i): int(n) for i, n in rows.fetchall()}

    def clear_reference_backlog(self, db: sqlite3.Connection) -> None:
        """Forget the backlog (its counts have reached the store)."""
        db.execute("DELETE FROM reference_backlog")

    def ranked(self, query: MatchQuery) -> list[tuple[Entry, float]]:
        """Entries ranked by BM25, with their raw rank (:func:`.mirror_keyword.ranked`)."""
        return mirror_keyword.ranked(self._read, self._fts_columns, query)

    def ranked_ids(self, query: MatchQuery) -> list[tuple[str, float]]:
        """:meth:`ranked`'s entry ids and ranks, no entry read."""
        return mirror_keyword.ranked_ids(self._read, self._fts_columns, query)

    def match_count(self, match: str) -> int:
        """How many entries match an FTS5 expression (a term's document frequency)."""
        return mirror_keyword.match_count(self._read, match)

    def holding(self, match: str, ids: Sequence[str]) -> set[str]:
        """Those of the entries ``ids`` that match an FTS5 expression."""
        return mirror_keyword.holding(self._read, match, ids)

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        """Rows of one read-only statement, on a connection of its own so that a search
        does not wait for this one (:mod:`.mirror_reader`); on this one if that cannot."""
        rows = self.reader.read(sql, params)
        if rows is not None:
            return rows
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def get(self, entry_id: str) -> Entry | None:
        """The mirrored entry with this id."""
        return next(iter(self._select("WHERE id = ?", (entry_id,))), None)

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to ``limit`` ids that start with ``prefix`` (a range scan of the id index)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM entries WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                (prefix, prefix + "\U0010ffff", limit),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        """Mirrored entries by id (missing ids are absent from the result)."""
        out: dict[str, Entry] = {}
        for start in range(0, len(ids), 500):
            part = list(ids[start : start + 500])
            marks = ",".join("?" * len(part))
            out.update((e.id, e) for e in self._select(f"WHERE id IN ({marks})", part))
        return out

    def find_by_hash(self, digest: str, *, file_path: str | None = None) -> list[Entry]:
        """Entries whose content hash is ``digest`` (optionally only those of one file)."""
        if file_path is None:
            return self._select("WHERE contentHash = ?", (digest,))
        return self._select("WHERE contentHash = ? AND filePath = ?", (digest, file_path))

    def by_file(self, file_path: str, source: Source | None = None) -> list[Entry]:
        """Entries that cite one file, in line order; only those of ``source`` if given
        (the indexer's own, from the file's text)."""
        if source is None:
            return self._select("WHERE filePath = ? ORDER BY lineStart", (file_path,))
        where = "WHERE filePath = ? AND source = ? ORDER BY lineStart"
        return self._select(where, (file_path, source.value))

    def recent(
        self,
        *,
        category: Category | None = None,
        source: Source | None = None,
        limit: int | None = None,
        offset: int = 0,
        by_references: bool = False,
    ) -> list[Entry]:
        """Entries newest first (``by_references``: most referenced first, then newest),
        optionally filtered."""
        clauses, params = where_clause(category, source)
        order = "referenceCount DESC, " if by_references else ""
        sql = f"{clauses} ORDER BY {order}createdAt DESC, rowid DESC LIMIT ? OFFSET ?"
        return self._select(sql, [*params, -1 if limit is None else limit, offset])

    def count(self, *, category: Category | None = None, source: Source | None = None) -> int:
        """Number of entries, optionally filtered."""
        clauses, params = where_clause(category, source)
        with self._lock:
            return int(
                self._db.execute(f"SELECT count(*) FROM entries {clauses}", params).fetchone()[0]
            )

    def counts_by(self, column: str) -> dict[str, int]:
        """Entry counts grouped by ``category``, ``source`` or ``filePath``."""
        if column not in {"category", "source", "filePath"}:
            raise ValueError(column)
        with self._lock:
            rows = self._db.execute(f"SELECT {column}, count(*) FROM entries GROUP BY {column}")
            return {str(k): int(v) for k, v in rows.fetchall()}

    def ids_and_stamps(self) -> dict[str, str]:
        """id → "updatedAt|referenceCount|promoted" (drift detection against the store)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, updatedAt || '|' || referenceCount || '|' || promoted FROM entries"
            )
            return dict(rows.fetchall())

    def file_paths(self) -> set[str]:
        """Every distinct non-empty filePath."""
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT filePath FROM entries WHERE filePath != ''")
            return {str(r[0]) for r in rows.fetchall()}

    def file_paths_of_source(self, source: str) -> set[str]:
        """Distinct non-empty filePath values of entries from one source."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT filePath FROM entries WHERE filePath != '' AND source = ?",
                (source,),
            )
            return {str(r[0]) for r in rows.fetchall()}

    def integrity_ok(self) -> bool:
        """Run FTS5's own integrity check and SQLite's quick_check."""
        with self._lock:
            try:
                self._db.execute("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')")
                return bool(self._db.execute("PRAGMA quick_check").fetchone()[0] == "ok")
            except sqlite3.DatabaseError:
                return False

    def _select(self, tail: str, params: Sequence[object]) -> list[Entry]:
        """Entries of the rows ``tail`` selects: :data:`COLUMNS` in order, read as plain
        tuples (one converter per column; a ``sqlite3.Row`` read by name took twice as
        long, and a search reads 20–40)."""
        with self._lock:
            rows = self._db.execute(f"SELECT {','.join(COLUMNS)} FROM entries {tail}", params)
            found = rows.fetchall()
        return [row_to_entry(r) for r in found]
