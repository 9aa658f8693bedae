"""The store of record and its mirror, kept in step: every write goes through here.

A write changes LanceDB (:class:`engine.storage.record_store.RecordStore`) and the SQLite
mirror (:class:`engine.storage.mirror.EntryMirror`) under the project's write lock,
crash-safely: ``pending`` is set in the mirror before the store changes and cleared in the
same mirror transaction that applies the change, so a writer killed in between leaves
``pending`` set and the next open repairs the mirror from the store. Reference counts
recorded by searches live in the mirror (and its backlog) and reach the store in batches.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections import Counter
from collections.abc import Callable, Sequence

from engine.core.errors import LockTimeoutError, StorageError
from engine.core.models import Entry
from engine.storage import maintenance
from engine.storage.changes import Change, MirrorOp, StoreOp
from engine.storage.changes import RepairReport as RepairReport  # re-exported
from engine.storage.lance_rows import latest_version_on_disk, placeholders
from engine.storage.locking import WriteLock
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths
from engine.storage.record_store import RecordStore
from engine.storage.remote import is_unreachable, remote_store
from engine.storage.remote_sync import RemoteWatch, pull, synced_version, to_latest

log = logging.getLogger(__name__)

REFERENCE_FOLD_BATCH = 256
"""Entries with reference counts the store has yet to receive before a write folds them
in (one commit for all of them); closing a process, compaction and repairs fold them
whatever their number. Until then the mirror, where a count costs one SQLite row, holds
them, and every face reads counts from the mirror."""

REFERENCE_LOCK_WAIT = 1.0
"""Seconds a search waits for the write lock to count its results before giving up."""
INDEX_RUN_WAIT = 1800.0
"""Seconds a second index run waits for the first before giving up."""
COMPACT_LOCK = "compact.lock"  # under .claude/memory/: held while a thread compacts


class Records:
    """One project's store of record, its mirror and the write lock that orders them."""

    def __init__(self, paths: MemoryPaths, dimension: int) -> None:
        self.paths = paths
        self.dimension = dimension
        paths.memory_dir.mkdir(parents=True, exist_ok=True)
        self.lock = WriteLock(paths.lock_path)
        self._compact_lock = paths.memory_dir / COMPACT_LOCK
        self.index_lock = WriteLock(paths.index_lock_path, timeout=INDEX_RUN_WAIT)
        """Held for a whole index run (and other bulk writers): a second run waits."""
        self.mirror = EntryMirror(paths.fts_path)
        self._store: RecordStore | None = None
        self.watch = RemoteWatch() if paths.store_uri else None
        """Looks at a remote store's version (see :mod:`engine.storage.remote_sync`)."""

    def store(self) -> RecordStore:
        """The store of record (LanceDB is imported on first call).

        Raises:
            StorageError: the store is gone although entries were written to it; a
                write now would start an empty store and repairs would then empty the
                keyword index, the last copy of those entries.
        """
        if self._store is None:
            uri, http = self.paths.store_uri, self.paths.store_allow_http
            remote = remote_store(uri, allow_http=http) if uri else None
            store = RecordStore(self.paths.vectors_dir, self.dimension, remote)
            if not store.exists() and self._recorded_store_version() > 0:
                raise StorageError(
                    f"the vector store at {self.paths.vectors_dir} is missing, but the "
                    f"keyword index lists {self.mirror.count()} entries written to it; run "
                    "`memory-tui doctor --rebuild-store` to rebuild it from the keyword index"
                )
            if not uri:  # a remote store compacts under the write lock, as it writes
                store.compactor = maintenance.Compactor(store, self._compact_lock, self._compacted)
            self._store = store
        return self._store

    def _recorded_store_version(self) -> int:
        try:
            return int(self.mirror.state("store_version") or 0)
        except ValueError:
            return 0

    # --- consistency ---------------------------------------------------------------------

    def _needs_repair(self, *, force: bool = False) -> bool:
        """Whether the keyword index may be out of step with the store: it was recreated,
        a write was interrupted (``pending``), or the store's version on disk is not the
        one the index was last synchronised with (a store restored from a copy, a writer
        that bypassed the mirror). Reads one directory listing, never opens LanceDB; a
        remote store: one listing of its versions when a look is due (or ``force``)."""
        if self.mirror.recreated or self.mirror.pending:
            return True
        if self.watch is not None:
            latest = self.watch.version(self.store(), force=force)
        else:
            latest = latest_version_on_disk(self.paths.vectors_dir)
        return latest is not None and latest != self._recorded_store_version()

    def ensure_consistent(self) -> RepairReport | None:
        """Repair the mirror when it may be out of step (see :meth:`_needs_repair`)."""
        try:
            if not self._needs_repair():
                return None
        except StorageError as exc:  # a remote store out of reach: the mirror serves reads
            log.warning("%s", exc.message)
            return None
        with self.lock.hold():
            try:
                if not self._needs_repair(force=True):
                    return None  # a concurrent writer finished while we waited
                report = self.repair_index()
            except LockTimeoutError:
                raise
            except StorageError as exc:
                # The store cannot be read: keep serving reads from the mirror, which is
                # then the only copy; writes refuse with the same message.
                log.warning("%s", exc.message)
                return None
        if report.changed:  # the usual news from a remote store that others write to
            (log.info if self.watch is not None else log.warning)(
                "keyword index was out of step with the store and has been repaired "
                "(%d rows added or refreshed, %d removed)",
                report.added,
                report.removed,
            )
        return report

    def refresh_mirror(self, *, look: bool = True) -> RepairReport | None:
        """Reopen the keyword index when its file was deleted or replaced under this
        process, then repair it from the store if it is new (one ``stat`` otherwise); with
        a remote store, also when a ``look`` at its version is due."""
        if not self.mirror.replaced():
            due = look and self.watch is not None and self.watch.due()
            return self.ensure_consistent() if due else None
        log.warning("keyword index %s was deleted or replaced: reopening it", self.paths.fts_path)
        self.mirror.reopen()
        return self.ensure_consistent()

    def repair_index(self) -> RepairReport:
        """Bring the keyword index in line with the store (only what differs is rewritten)."""
        with self.lock.hold():
            if not self.store().exists():
                with self.mirror.transaction() as db:
                    removed = self.mirror.count()
                    self.mirror.clear(db)
                    self._mark_synced(db, 0)
                return RepairReport(0, removed)
            to_latest(self.store())
            # Counts only the mirror has would otherwise be overwritten by the store's.
            folded = self._fold_references(self.store())
            version = self.store().version  # before the scan: a later commit is seen next time
            store_stamps = self.store().ids_and_stamps()
            mirror_stamps = self.mirror.ids_and_stamps()
            changed = [i for i, s in store_stamps.items() if mirror_stamps.get(i) != s]
            gone = [i for i in mirror_stamps if i not in store_stamps]
            fresh, looked, waiting = self._pull_changed(changed)
            with self.mirror.transaction() as db:
                if folded:
                    self.mirror.clear_reference_backlog(db)
                self.mirror.delete(db, gone)
                self.mirror.upsert(db, fresh)
                self.mirror.clear_unembedded(db, [*looked, *gone])
                self.mirror.mark_unembedded(db, sorted(waiting))
                self._mark_synced(db, version, vectors_changed=bool(changed or gone))
        self.mirror.recreated = False
        return RepairReport(len(changed), len(gone))

    def rebuild_index(self) -> int:
        """Rebuild the keyword index from the store from scratch; returns the entry count."""
        with self.lock.hold():
            to_latest(self.store())
            if self.store().exists():
                self._fold_references(self.store())
            version = self.store().version  # before the scan, as in repair_index
            entries = self.store().all_entries()
            unembedded: set[str] = set()
            if self.store().exists():  # a mirror made anew: every placeholder is looked for
                ids, _, matrix = self.store().all_vectors()
                unembedded = placeholders(ids, matrix)
            with self.mirror.transaction() as db:
                self.mirror.clear(db)
                self.mirror.upsert(db, entries)
                self._mark_unembedded(db, unembedded)
                self._mark_synced(db, version)
        return len(entries)

    def _pull_changed(self, changed: Sequence[str]) -> tuple[list[Entry], list[str], set[str]]:
        """The ``changed`` entries, read in one scan with the rows of entries marked as
        waiting for their vector (a batch of vectors may have reached the store but not
        the mirror); also the ids whose marks the repair sets anew and which of them hold
        a placeholder in the store.
        Reads only those rows, not the table: a remote store is repaired this way each
        time another machine commits."""
        wanted = set(changed)
        looked = sorted(wanted | {e.id for e in self.mirror.unembedded(-1)})
        entries, matrix = pull(self.store(), looked)
        rows = [n for n, e in enumerate(entries) if e.id in wanted]
        waiting = placeholders([e.id for e in entries], matrix)
        return [entries[n] for n in rows], looked, waiting

    def _mark_unembedded(self, db: sqlite3.Connection, ids: set[str]) -> None:
        """Make the mirror's marks of entries waiting for their vector those of the store
        (its placeholder vectors): a crash between the store's write and the mirror's, or
        a mirror rebuilt from scratch, then neither loses a mark nor keeps a stale one."""
        self.mirror.clear_unembedded(db)
        self.mirror.mark_unembedded(db, sorted(ids))

    def _mark_synced(
        self, db: sqlite3.Connection, version: int, *, vectors_changed: bool = True
    ) -> None:
        """Record the store version the mirror now matches, and when entries changed a
        new ``vectors_version`` (searches count the entries, and those waiting for their
        vector, again when it changes: a store rebuilt anew may reach the same version)."""
        self.mirror.set_state(db, "pending", "0")
        self.mirror.set_state(db, "store_version", str(version))
        if vectors_changed:
            self.mirror.set_state(db, "vectors_version", uuid.uuid4().hex)

    # --- writes --------------------------------------------------------------------------

    def write(
        self,
        store_op: StoreOp,
        mirror_op: MirrorOp,
        *,
        vectors_changed: bool = True,
        force_fold: bool = False,
    ) -> None:
        """Apply one change to the store and the mirror, crash-safely, under the lock
        (:meth:`apply` with a change decided beforehand)."""
        self.apply(lambda: Change(store_op, mirror_op, vectors_changed), force_fold=force_fold)

    def apply(self, plan: Callable[[], Change | None], *, force_fold: bool = False) -> bool:
        """Decide a change and apply it to the store and the mirror, crash-safely, holding
        the write lock once for both: ``plan`` runs under it, so what it reads of the
        mirror (a duplicate, the entry as it is now) is what the write changes; it returns
        None when there is nothing to write. Returns whether something was written.

        Reference counts recorded since the last fold go to the store first when
        :data:`REFERENCE_FOLD_BATCH` of them have piled up (or ``force_fold``)."""
        self.refresh_mirror(look=False)  # other machines' commits: see _version_after
        with self.lock.hold():
            if self.mirror.pending:  # an earlier write reached the store but not the index
                self.repair_index()
            change = plan()
            if change is None:
                return False
            store = self.store()  # a missing store refuses here, before pending is set
            try:
                start = (store.version, store.commits, store.uncounted) if self.watch else (0,) * 3
                self.mirror.mark_pending()
                folded = self._fold_references(store, force=force_fold)
                change.store_op(store)
            except StorageError as exc:
                if self.watch is not None and is_unreachable(exc.__cause__ or exc):
                    self.watch.unreachable()  # reads serve the mirror without waiting
                raise
            version = self._version_after(store, start)
            with self.mirror.transaction() as db:
                if folded:
                    self.mirror.clear_reference_backlog(db)
                change.mirror_op(db)
                self._mark_synced(db, version, vectors_changed=change.vectors_changed)
        return True

    def compact(self) -> dict[str, int]:
        """Fold the pending reference counts into the store, then compact it under the
        write lock (after this process's background compaction, if one runs); the
        version it leaves is recorded as the background compaction's is
        (:meth:`_compacted`), so the next open does not repair a mirror that is in step.
        Returns the figures (empty: nothing to do)."""
        self.flush_references()
        with self.lock.hold():
            store = self.store()
            before = store.version
            done = store.compact()
            after = store.version
        if done:
            self._compacted(before, after)
        return done

    def _compacted(self, before: int, version: int) -> None:
        """A compaction, begun on version ``before``, left ``version`` (no entry
        changed): recorded when the mirror was at ``before`` and nothing committed
        since, so the next open does not repair it; else the next write records it."""
        with self.lock.hold(timeout=REFERENCE_LOCK_WAIT):
            at = (self.mirror.pending, self._recorded_store_version())
            if at != (False, before) or latest_version_on_disk(self.paths.vectors_dir) != version:
                return
            with self.mirror.transaction() as db:
                self.mirror.set_state(db, "store_version", str(version))

    def _version_after(self, store: RecordStore, start: tuple[int, int, int]) -> int:
        """The store version the mirror records after a write (see
        :func:`engine.storage.remote_sync.synced_version` for a remote store)."""
        if self.watch is None:
            return store.version
        version, commits, uncounted = start
        own = store.commits - commits if store.uncounted == uncounted else -1
        return synced_version(self._recorded_store_version(), version, store.version, own)

    def count_references(self, ids: Sequence[str]) -> None:
        """Count that these entries were returned to a caller: ``referenceCount`` grows by
        the number of times each id appears in ``ids``. Bookkeeping: a failure (a
        read-only disk, a lock held too long) is logged, never raised."""
        if not ids:
            return
        try:
            self._count(ids)
        except Exception as exc:
            log.info("reference counts not recorded: %s", exc)

    def _count(self, ids: Sequence[str]) -> None:
        # Counted in the mirror only, one column's UPDATE per entry; the store receives the
        # counts with a later write (:meth:`_fold_references`), so a search never opens
        # LanceDB nor adds a store version. Under the write lock, so that a fold in another
        # process cannot clear the backlog between a count and its note. A search (the
        # prompt hook above all) never waits long for it.
        with self.lock.hold(timeout=REFERENCE_LOCK_WAIT), self.mirror.transaction() as db:
            self.mirror.count_references(db, Counter(ids))

    def flush_references(self) -> None:
        """Write reference counts recorded since the store's last write into the store now
        (a long-lived process does it when it closes). Never raises: on failure, or after
        the store failed in this process (said then), the counts wait in the backlog."""
        try:
            backlog = self.mirror.reference_backlog()
        except Exception:  # a closed or unreadable index has nothing to hand over
            return
        if not backlog or (self._store and self._store.failed) or not self.paths.may_have_store():
            return
        try:
            self.write(lambda store: None, lambda db: None, vectors_changed=False, force_fold=True)
        except Exception as exc:
            log.warning("reference counts stay in the backlog until the next write: %s", exc)

    def _fold_references(self, store: RecordStore, *, force: bool = True) -> bool:
        """Give the store the reference counts recorded in the mirror since they were last
        folded, in one commit (under the write lock; the caller clears the backlog in its
        mirror transaction). Unless ``force``, only once :data:`REFERENCE_FOLD_BATCH`
        entries wait: a search followed by an add then costs one store version, not two."""
        backlog = self.mirror.reference_backlog()
        if not backlog or (not force and len(backlog) < REFERENCE_FOLD_BATCH):
            return False
        store.set_reference_counts(backlog)
        return True

    def maintain_vector_index(self) -> str:
        """Create or refresh the store's ANN index when the memory is large enough for one
        (:data:`engine.storage.maintenance.ANN_MIN_ROWS`); says what it did, "" when
        nothing was due. Smaller memories return at once, without opening LanceDB."""
        if self.mirror.count() < maintenance.ANN_MIN_ROWS or not self.paths.may_have_store():
            return ""
        done = ""

        def build(store: RecordStore) -> None:
            nonlocal done
            done = store.maintain_vector_index()

        # Under the write lock like any write: an index build is a new store version.
        self.write(build, lambda db: None, vectors_changed=False)
        if done:
            log.info("%s", done)
        return done

    def close(self) -> None:
        """Fold reference counts into the store if this process wrote to it (one commit,
        milliseconds), then close the mirror. A process that only read, a vector search
        included, leaves them in the mirror's backlog, a SQLite table as durable as the
        counts, for the next writer: a search adds no store version, not even when it
        closes, and closing never imports LanceDB, so a server leaves at once."""
        if self._store is not None:
            if self._store.commits:
                self.flush_references()
            self._store.wait_for_compaction()
            self._store.close_reads()
        self.mirror.close()
