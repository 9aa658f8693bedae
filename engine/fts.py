"""SQLite FTS5 keyword index, derived from the vector store and rebuildable from it.

``fts.sqlite`` holds a mirror of every entry's fields (all but the vector) in the
``entries`` table and an external-content FTS5 index over it. Keyword search, listing
and lookups by id or content hash are served from here, so those paths never import
LanceDB or the embedding stack.

Consistency with the store is tracked in ``fts_state``: writers set ``pending`` before
touching the store and clear it in the same transaction that updates the mirror, so a
crash in between leaves ``pending`` set and the next open repairs the mirror.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import LockTimeoutError
from engine.models import ENTRY_COLUMNS, Category, Entry, Source
from engine.sqlite_wal import enable_wal

log = logging.getLogger(__name__)

SCHEMA_VERSION = "1"
BUSY_TIMEOUT_S = 30.0
"""How long a statement waits for another process's write lock on ``fts.sqlite``."""
_COLUMNS = ENTRY_COLUMNS
_SCHEMA = f"""
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
INSERT OR IGNORE INTO fts_state VALUES ('schema', '{SCHEMA_VERSION}');
INSERT OR IGNORE INTO fts_state VALUES ('pending', '1');
"""
# Column weights for bm25(): id (unindexed), content, category, source, filePath,
# sectionTitle, keywords. Titles and explicit keywords say more than a passing mention.
_BM25_WEIGHTS = "0.0, 1.0, 0.5, 0.2, 0.5, 2.0, 2.0"

_TOKEN = re.compile(r"\w+", re.UNICODE)
COMMON_TERM_SHARE = 0.1
"""In a memory of :data:`COMMON_TERM_MIN_ENTRIES` entries or more, a query term found in
more than this share of entries is left out of keyword search. BM25 gives such a term
little weight, but ranking the tens of thousands of entries it matches dominated search
at 100,000 entries: warm keyword p50 59 → 21 ms, hybrid 84 → 41 ms. It costs quality
(forced onto SciFact: train −0.014 keyword / −0.0025 hybrid nDCG@10, test −0.015 /
−0.016; a 0.2 share costs half as much but leaves hybrid at 59 ms), so only memories of
50,000 entries or more, where keyword search without it passes 30 ms, leave terms out."""
COMMON_TERM_MIN_ENTRIES = 50_000
MAX_QUERY_TERMS = 128
"""Most distinct terms of one query sent to FTS5."""
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "should",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


@dataclass(frozen=True, slots=True)
class KeywordHit:
    """One keyword match: the entry, its 1-based rank and BM25 normalised to 0..1."""

    entry: Entry
    rank: int
    score: float
    bm25: float
    """Raw FTS5 bm25() value (negative; lower is better)."""


def content_terms(query: str) -> list[str]:
    """The distinct lower-cased terms of ``query`` that keyword search looks for."""
    terms = list(dict.fromkeys(t.lower() for t in _TOKEN.findall(query)))
    return ([t for t in terms if t not in STOPWORDS] or terms)[:MAX_QUERY_TERMS]


def build_match_query(
    query: str, *, prefix_last: bool = False, leave_out: frozenset[str] = frozenset()
) -> str | None:
    """Turn free text into a safe FTS5 MATCH expression, or ``None`` if it has no terms.

    Every term is double-quoted, so FTS5 operators in user text (``NOT``, ``*``, ``:``,
    ``-``, parentheses, quotes) are searched for as words, never parsed. Terms are
    OR-ed and ranked by BM25: an implicit AND finds nothing for long natural-language
    queries. Stopwords are dropped unless the query has nothing else; so are the terms
    in ``leave_out`` (see :data:`COMMON_TERM_SHARE`), unless that would leave nothing.
    """
    tokens = [t.lower() for t in _TOKEN.findall(query)]
    if not tokens:
        return None
    # FTS5 slows down sharply with very many OR-ed phrases (150k terms: ~12 s); a query
    # that long is pasted text, and its first terms rank as well as all of them.
    terms = content_terms(query)
    terms = [t for t in terms if t not in leave_out] or terms
    quoted = [f'"{t}"' for t in terms]
    # The word being typed is the last token, even when it repeats an earlier one.
    if prefix_last and not query[-1].isspace() and tokens[-1] in terms:
        where = terms.index(tokens[-1])
        quoted[where] = quoted[where] + "*"
    return " OR ".join(quoted)


def entry_to_row(entry: Entry) -> tuple[object, ...]:
    """The mirror row of an entry, in :data:`_COLUMNS` order."""
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


def is_busy_error(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error means "locked by another connection" rather than "damaged"."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    return "locked" in str(exc).lower()


def _unit(value: float) -> float:
    return max(0.0, min(1.0, value))


class FtsIndex:
    """The keyword index and entry mirror in ``fts.sqlite``.

    A connection is shared by the threads of one process (guarded by a lock);
    other processes use their own connections, and WAL lets readers proceed while
    one of them writes.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._df: dict[str, int] = {}
        self._df_total = -1
        self.recreated = False
        """True when the file was missing or unreadable and had to be made anew."""
        self._db = self._connect()

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
            log.warning("keyword index %s is unreadable (%s); recreating it", self.path, exc)
            self._move_aside()
            db = self._open_schema()
            existed = False
        self.recreated = not existed
        return db

    def _open_schema(self) -> sqlite3.Connection:
        db = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
        )
        try:
            db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            enable_wal(db, BUSY_TIMEOUT_S)
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            version = db.execute("SELECT value FROM fts_state WHERE key='schema'").fetchone()
            if version is None or version[0] != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version} != {SCHEMA_VERSION}")
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
        """Close the connection."""
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

    # --- consistency state -------------------------------------------------------------

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
        marks = ",".join("?" * len(_COLUMNS))
        db.executemany(f"INSERT INTO entries ({','.join(_COLUMNS)}) VALUES ({marks})", rows)

    def delete(self, db: sqlite3.Connection, ids: Iterable[str]) -> None:
        """Remove entries by id; unknown ids are ignored."""
        db.executemany("DELETE FROM entries WHERE id = ?", [(i,) for i in ids])

    def clear(self, db: sqlite3.Connection) -> None:
        """Remove every entry."""
        db.execute("DELETE FROM entries")
        db.execute("DELETE FROM reference_backlog")
        db.execute("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')")

    # --- reference counts not yet in the store ------------------------------------------

    def note_references(self, db: sqlite3.Connection, ids: Iterable[str]) -> None:
        """Record that these entries' ``referenceCount`` changed here but not in the store."""
        db.executemany("INSERT OR IGNORE INTO reference_backlog VALUES (?)", [(i,) for i in ids])

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

    # --- reads ----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        limit: int,
        *,
        category: Category | None = None,
        prefix_last: bool = False,
    ) -> list[KeywordHit]:
        """BM25-ranked entries matching any term of ``query``; never raises on user text."""
        leave_out = self._common_terms(query, prefix_last)
        match = build_match_query(query, prefix_last=prefix_last, leave_out=leave_out)
        if match is None or limit <= 0:
            return []
        columns = ", ".join("e." + c for c in _COLUMNS)
        params: list[object] = [match]
        if category is None:
            # Rank inside FTS5 first, then read the few winning rows: joining before the
            # LIMIT reads every matching row's content (2-3x slower, bench/RESULTS.md).
            sql = (
                f"SELECT {columns}, hits.rank FROM (SELECT rowid, bm25(memory_fts,"
                f" {_BM25_WEIGHTS}) AS rank FROM memory_fts WHERE memory_fts MATCH ?"
                " ORDER BY rank LIMIT ?) AS hits JOIN entries e ON e.rowid = hits.rowid"
                " ORDER BY hits.rank"
            )
        else:
            sql = (
                f"SELECT {columns}, bm25(memory_fts, {_BM25_WEIGHTS}) AS rank FROM memory_fts"
                " JOIN entries e ON e.rowid = memory_fts.rowid"
                " WHERE memory_fts MATCH ? AND e.category = ? ORDER BY rank LIMIT ?"
            )
            params.append(category.value)
        params.append(limit)
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        if not rows:
            return []
        best = float(rows[0][-1]) or -1e-9
        return [
            KeywordHit(
                row_to_entry(r), i + 1, max(0.0, min(1.0, float(r[-1]) / best)), float(r[-1])
            )
            for i, r in enumerate(rows)
        ]

    def _common_terms(self, query: str, prefix_last: bool) -> frozenset[str]:
        """Terms of ``query`` in more than :data:`COMMON_TERM_SHARE` of the entries (the
        rarest term always stays); none in memories under :data:`COMMON_TERM_MIN_ENTRIES`."""
        total = self.count()
        if total < COMMON_TERM_MIN_ENTRIES:
            return frozenset()
        terms = content_terms(query)
        if prefix_last and query and not query[-1].isspace() and terms:
            terms = terms[:-1]  # the word being typed is a prefix: always searched
        if not terms:
            return frozenset()
        with self._lock:
            if self._df_total != total:  # document frequencies moved: count again
                self._df, self._df_total = {}, total
            for term in terms:
                if term not in self._df:
                    row = self._db.execute(
                        "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", (f'"{term}"',)
                    ).fetchone()
                    self._df[term] = int(row[0])
            df = {t: self._df[t] for t in terms}
        common = {t for t in terms if df[t] > COMMON_TERM_SHARE * total}
        if len(common) == len(terms):
            common.discard(min(terms, key=df.__getitem__))
        return frozenset(common)

    def get(self, entry_id: str) -> Entry | None:
        """The mirrored entry with this id."""
        found = self._select("WHERE id = ?", (entry_id,))
        return found[0] if found else None

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

    def by_file(self, file_path: str) -> list[Entry]:
        """Entries indexed from one knowledge file, in line order."""
        return self._select("WHERE filePath = ? ORDER BY lineStart", (file_path,))

    def recent(
        self,
        *,
        category: Category | None = None,
        source: Source | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Entry]:
        """Entries newest first, optionally filtered."""
        clauses, params = self._filters(category, source)
        sql = f"{clauses} ORDER BY createdAt DESC, rowid DESC LIMIT ? OFFSET ?"
        return self._select(sql, [*params, -1 if limit is None else limit, offset])

    def count(self, *, category: Category | None = None, source: Source | None = None) -> int:
        """Number of entries, optionally filtered."""
        clauses, params = self._filters(category, source)
        with self._lock:
            return int(
                self._db.execute(f"SELECT count(*) FROM entries {clauses}", params).fetchone()[0]
            )

    def counts_by(self, column: str) -> dict[str, int]:
        """Entry counts grouped by ``category`` or ``source``."""
        if column not in {"category", "source"}:
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

    def vector_keys(self) -> tuple[list[str], list[str], list[str]]:
        """Ids, content hashes and categories of every entry, in one consistent read
        (the keys under which the embedding cache holds their vectors)."""
        with self._lock:
            rows = self._db.execute("SELECT id, contentHash, category FROM entries").fetchall()
        return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]

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

    @staticmethod
    def _filters(category: Category | None, source: Source | None) -> tuple[str, list[object]]:
        clauses: list[str] = []
        params: list[object] = []
        if category is not None:
            clauses.append("category = ?")
            params.append(category.value)
        if source is not None:
            clauses.append("source = ?")
            params.append(source.value)
        return ("WHERE " + " AND ".join(clauses) if clauses else ""), params

    def _select(self, tail: str, params: Sequence[object]) -> list[Entry]:
        with self._lock:
            rows = self._db.execute(f"SELECT {','.join(_COLUMNS)} FROM entries {tail}", params)
            return [row_to_entry(r) for r in rows.fetchall()]
