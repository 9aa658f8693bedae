"""Keeping the LanceDB table small: compaction and cleanup of old versions.

Each single add, update or delete commits a new fragment and a new manifest listing all
of them; an agent adding notes one at a time made the table grow quadratically (2,000
single adds: 243.8 MB against 15.0 MB for the same rows written at once) and every write
slower. Every :data:`COMPACT_CHECK_EVERY` writes the store looks at its small fragments and,
past :data:`COMPACT_SMALL_FRAGMENTS`, runs LanceDB's ``optimize``: fragments merged, versions
older than :data:`KEEP_VERSIONS_FOR` removed, indices brought up to date.

In a local store the automatic compaction runs in a thread of its own
(:class:`Compactor`), outside the project's write lock, on a table handle of its own: it
rewrote the whole table (~0.5 s under load at 2,000 rows) while every add waited for the
lock (issue 38). Lance commits it with conflict resolution against the appends that
landed meanwhile (a rewrite and an append both land; an update of rewritten rows is
refused and tried again, see :mod:`engine.storage.lance_commits`), and a writer or reader
that began on a version the cleanup removed tries again on the latest one.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from engine.core.errors import LockTimeoutError, StorageError
from engine.storage.lance_commits import is_conflict
from engine.storage.lance_errors import is_damage
from engine.storage.lance_rows import TABLE
from engine.storage.locking import WriteLock

if TYPE_CHECKING:
    from pathlib import Path


class RecordStore(Protocol):
    """What maintenance needs of :class:`engine.storage.record_store.RecordStore`."""

    path: Path
    remote: Any
    cache: Any

    def table(self) -> Any: ...

    def has_vector_index(self) -> bool: ...


log = logging.getLogger(__name__)

ANN_MIN_ROWS = 2_000
"""From this many rows the store keeps a vector index, which every vector search reads
(issue 49). Below it LanceDB's exact search costs what a search through an index does
(its per-query work dominates); from 2,000 rows the index is the faster of the two
(bench/RESULTS.md, "Issue 49: the store's ANN index")."""
ANN_REINDEX_SHARE = 0.1
"""Re-fold the index when this share of rows has been added since it was built."""
ROWS_PER_PARTITION = 1_000
"""The index's IVF partitions: one per this many rows when it is built, so that a search
probing ``vector.ANN_NPROBES`` (70) of them reads every vector up to 70,000 rows (exact,
from the index's copy of the vectors) and about 70,000 of them beyond. One per 2,000 rows
built 1,000,000 rows in 312 s instead of 457 s but read twice the vectors per probe."""
REBUILD_GROWTH = 2
"""Build the index again (partitions for the new size) once the table needs this many
times the partitions it was built with; new rows in between are folded into them."""
INDEX_NAME = "vector_ivf_flat"
"""The vector index's name, followed by ``_p`` and its partition count."""

COMPACT_SMALL_FRAGMENTS = 32
"""Compact once the table holds this many small fragments: each single add or update
writes one, and thousands of them made the store grow quadratically (every commit also
writes a manifest listing them all) and slowed every write."""
COMPACT_MAX_SMALL_FRAGMENTS = 256
ROWS_PER_SMALL_FRAGMENT = 200
"""Past :data:`COMPACT_SMALL_FRAGMENTS`, the threshold grows with the table (one small
fragment per this many rows, up to :data:`COMPACT_MAX_SMALL_FRAGMENTS`): a compaction
rewrites the whole table (its one large fragment is below LanceDB's target size too), so
at 50,000 rows compacting every 32 adds would rewrite 75 MB for every 32 notes."""
COMPACT_CHECK_EVERY = 16
"""Writes between two looks at the fragment count (the look itself costs ~1 ms)."""
KEEP_VERSIONS_FOR = timedelta(0)
"""Old versions younger than this survive a compaction: none. Readers and writers open the
latest version (``read_consistency_interval=0``); a read that began on a version a
compaction has just removed reads again from the latest one (see ``record_store._reads``),
and a write tries again on it (``lance_commits.committed``: the background compaction
runs outside the write lock). Every version kept also keeps the copy of the table's tail that
compaction rewrote: with 2 s, 1,000 single adds through serve-mcp left 10.9 MB of data
files for 1.6 MB of rows; with 60 s, 35.7 MB."""
REMOTE_KEEP_VERSIONS_FOR = timedelta(seconds=2)
"""The same for a store on object storage (it was five minutes). Other machines hold no
lock of ours: a read on a version that one of them has just compacted away reads again
from the latest one, as locally, and a commit begun on such a version still lands on the
latest (Lance rebases it; tests/engine/test_remote_requests.py). What the two seconds
cover is the moment between another machine's listing of ``_versions/`` and its read of
the manifest it found latest: with none kept, two machines adding 200 notes each at once
saw one add fail on a manifest compacted away in between. Every version kept is an object
each commit's listing returns, with the data files it keeps: with five minutes, 200 single
adds grew from 56 to 247 ms p50 on loopback S3 (bench/RESULTS.md, "shared use that stays flat")."""


def compact(store: RecordStore, *, force: bool = True) -> dict[str, int]:
    """Merge small fragments and drop versions older than :data:`KEEP_VERSIONS_FOR`
    (LanceDB's ``optimize``); unless ``force``, only when
    :data:`COMPACT_SMALL_FRAGMENTS` small fragments have piled up. Runs under the
    caller's write lock (writes call it); a failure is logged, never raised, since the
    data is intact either way. Returns the store's figures before and after."""
    table = store.table()
    if table is None:
        return {}
    try:
        if not force and not _due(table):
            return {}  # the usual case after a write: a look at the stats, no disk walk
        local = store.remote is None  # listing an object store's versions: a GET each
        before = figures(store, versions=local)
        _optimize(table, store)
        after = figures(store, versions=local)
    except Exception:
        log.warning("compacting the vector store at %s failed", store.path, exc_info=True)
        return {}
    return {f"{k}_before": v for k, v in before.items()} | after


def _optimize(table: Any, store: RecordStore) -> None:
    with warnings.catch_warnings():
        # LanceDB warns that readers and writers of an older version would fail: ours
        # read again (record_store._reads) and commit again (lance_commits.committed).
        warnings.filterwarnings("ignore", message=r"optimize\(cleanup_older_than=0\)")
        table.optimize(cleanup_older_than=keep_versions_for(store))


class Compactor:
    """A local store's automatic compaction, in a thread of its own and outside the write
    lock: writes call :meth:`request` every :data:`COMPACT_CHECK_EVERY` writes and go
    on at once; the thread looks at the small fragments and compacts when they are due.

    One compaction at a time per project: ``lock_path`` is taken without waiting (a
    compaction of another process is running: this one is skipped, the next request
    looks again). ``on_compacted(before, after)`` is told the version the compaction
    began on and the one it left (it may commit more than once), so that the mirror can
    record the latter (it changes no entry)."""

    def __init__(
        self,
        store: RecordStore,
        lock_path: Path,
        on_compacted: Callable[[int, int], None] | None = None,
    ) -> None:
        self._store = store
        self._lock = WriteLock(lock_path, timeout=0)
        self._on_compacted = on_compacted
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        self._table: Any = None
        self.runs = 0
        """Compactions this process's thread ran to the end."""

    def request(self) -> None:
        """Look at the fragments in the compaction thread (started unless running)."""
        with self._guard:
            if self._thread is not None and self._thread.is_alive():
                return  # running already: the next request looks again
            self._idle.clear()
            # Not a daemon: a process that exits lets a compaction begun finish first.
            self._thread = threading.Thread(target=self._run, name="memory-tui-compaction")
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no compaction of this process runs; whether none does."""
        return self._idle.wait(timeout)

    def join(self) -> None:
        """Wait for the compaction thread to finish, its report to the mirror included."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        try:
            versions = self._compact()
        finally:
            self._idle.set()
        if versions is not None and self._on_compacted is not None:
            try:
                self._on_compacted(*versions)
            except Exception:  # the next open repairs the mirror's version instead
                log.info("could not record the compacted version", exc_info=True)

    def _detached_table(self) -> Any:
        """A handle of its own on the table: LanceDB's compaction holds its handle's
        dataset for its whole run, and this process's reads and writes go through the
        store's. ``None`` while the table is absent."""
        if self._table is None:
            if self._store.table() is None:  # opens the store's connection and session
                return None
            import lancedb

            db = lancedb.connect(  # the store's session: its caches' bounds hold for both
                self._store.path, read_consistency_interval=timedelta(0), session=self._store.cache
            )
            self._table = db.open_table(TABLE)
        return self._table

    def _compact(self) -> tuple[int, int] | None:
        try:
            with self._lock.hold():
                table = self._detached_table()
                if table is None or not _due(table):
                    return None
                before = int(table.version)
                _optimize(table, self._store)
                self.runs += 1
                return before, int(table.version)
        except LockTimeoutError:
            return None  # another process is compacting
        except StorageError as exc:
            log.warning("%s", exc.message)
        except Exception as exc:
            if is_conflict(exc):  # a write of rewritten rows landed first: the next look
                log.info("compaction gave way to a concurrent write: %s", exc)
            else:
                where = self._store.path
                log.warning("compacting the vector store at %s failed", where, exc_info=True)
        return None


def keep_versions_for(store: RecordStore) -> timedelta:
    """How long a compaction of ``store`` keeps old versions."""
    return KEEP_VERSIONS_FOR if store.remote is None else REMOTE_KEEP_VERSIONS_FOR


def _due(table: Any) -> bool:
    stats = table.stats()
    small = int(stats.get("fragment_stats", {}).get("num_small_fragments", 0))
    return small >= compaction_threshold(int(stats.get("num_rows", 0)))


def compaction_threshold(rows: int) -> int:
    """Small fragments that make a table of ``rows`` rows due for compaction."""
    scaled = rows // ROWS_PER_SMALL_FRAGMENT
    return max(COMPACT_SMALL_FRAGMENTS, min(COMPACT_MAX_SMALL_FRAGMENTS, scaled))


def figures(store: RecordStore, *, versions: bool = True) -> dict[str, int]:
    """Rows, fragments (small ones too), versions kept (unless not ``versions``: -1) and
    bytes of the table on disk."""
    table = store.table()
    if table is None:
        return {"rows": 0, "fragments": 0, "small_fragments": 0, "versions": 0, "bytes": 0}
    stats = table.stats()
    fragments = stats.get("fragment_stats", {})
    folder = store.path / f"{TABLE}.lance"
    if store.remote is not None:  # no listing of every object: the latest version's bytes
        on_disk = int(stats.get("total_bytes", 0))
    else:
        on_disk = sum(_size(p) for p in folder.rglob("*"))
    return {
        "rows": int(stats.get("num_rows", 0)),
        "fragments": int(fragments.get("num_fragments", 0)),
        "small_fragments": int(fragments.get("num_small_fragments", 0)),
        "versions": _versions(table) if versions else -1,
        "bytes": on_disk,
    }


def _size(path: Path) -> int:
    """A file's size, 0 for a folder or a file the background compaction removed since
    the folder was listed."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except FileNotFoundError:
        return 0


def _versions(table: Any, tries: int = 3) -> int:
    """How many versions the table keeps. The background compaction removes old versions
    while this lists them, and LanceDB then reports a manifest it listed as not found:
    the listing is taken again (a version found missing is no damage here)."""
    for _ in range(tries - 1):
        try:
            return len(table.list_versions())
        except Exception as exc:
            if not is_damage(exc):
                raise
    return len(table.list_versions())


def vector_index_config(rows: int) -> Any:
    """The vector index for a table of ``rows`` rows: IVF_FLAT (exact distances: no
    re-ranking against the table's vectors, which was most of a search's time at
    1,000,000 rows), one partition per :data:`ROWS_PER_PARTITION` rows."""
    from lancedb.index import IvfFlat

    return IvfFlat(distance_type="cosine", num_partitions=partitions_for(rows))


def partitions_for(rows: int) -> int:
    """IVF partitions of an index built over ``rows`` rows."""
    return max(1, rows // ROWS_PER_PARTITION)


def maintain_vector_index(store: RecordStore) -> str:
    """Create the ANN index once the table has :data:`ANN_MIN_ROWS` rows (and the index
    of ids beside it, :func:`ensure_id_index`), build it again once the table has
    outgrown its partitions (:data:`REBUILD_GROWTH`) or when it is of another kind (a
    store indexed before issue 49), and fold new rows into it when many were added since;
    returns what was done ("" if nothing)."""
    table = store.table()
    if table is None:
        return ""
    rows = table.count_rows()
    if rows < ANN_MIN_ROWS:
        return ""
    ids = ensure_id_index(table)
    index = next((i for i in table.list_indices() if "vector" in i.columns), None)
    if index is None:
        _build(table, rows)
        return f"built a vector index over {rows} entries"
    if partitions_for(rows) >= REBUILD_GROWTH * _partitions(index.name):
        table.drop_index(index.name)
        _build(table, rows)
        return f"rebuilt the vector index over {rows} entries"
    unindexed = int(getattr(index, "num_unindexed_rows", 0) or 0)
    if unindexed < ANN_REINDEX_SHARE * rows:
        return "indexed the entries' ids" if ids else ""
    table.optimize()
    return f"folded {unindexed} new entries into the vector index"


def _partitions(name: str) -> int:
    """The partitions an index of ours was built with, from its name; an index of
    another kind (a store indexed before issue 49) has none: it is built again."""
    prefix = f"{INDEX_NAME}_p"
    tail = name[len(prefix) :] if name.startswith(prefix) else ""
    return int(tail) if tail.isdigit() else 0


def _build(table: Any, rows: int) -> None:
    name = f"{INDEX_NAME}_p{partitions_for(rows)}"
    table.create_index("vector", config=vector_index_config(rows), replace=True, name=name)


def ensure_id_index(table: Any) -> bool:
    """Give the table a B-tree index of entry ids (once; ``optimize`` keeps it up to date)
    and say whether it was made. Reads by id (``id IN (…)``: the similarities of keyword
    hits that vector search did not return, entries, vectors) otherwise scan every id:
    at 100,000 entries 325–1,030 ms for 50 ids under load, 13–33 ms with it (issue 38)."""
    if any(list(i.columns) == ["id"] for i in table.list_indices()):
        return False
    from lancedb.index import BTree

    table.create_index("id", config=BTree(), replace=True)
    return True
