"""Keeping this machine's mirror in step with a store of record on object storage.

Other machines write to the same LanceDB table without taking this machine's write lock;
LanceDB orders their commits (conditional writes on the object store). This machine:

- looks at the remote version on open and then at most every :data:`CHECK_EVERY` seconds
  (one listing of the table's versions), and after an unreachable store only every
  :data:`UNREACHABLE_BACKOFF` seconds, so that reads from the mirror do not each wait for
  a timeout;
- after its own write, records the new version as synchronised only when every commit
  between the version it had synchronised and the new one is its own
  (:func:`synced_version`); otherwise the next look repairs the mirror;
- repairs by pulling the entries whose stamps differ, with their vectors (:func:`pull`:
  which of them are placeholders): the mirror updates incrementally, and a new machine
  builds its mirror in one scan of the table.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.errors import StorageError
from engine.core.models import ENTRY_COLUMNS, Entry
from engine.storage.lance_errors import read_failed
from engine.storage.lance_rows import quote, row_to_entry

if TYPE_CHECKING:
    from engine.storage.record_store import RecordStore

CHECK_EVERY = 2.0
"""Seconds between two looks at the remote version in a long-lived process."""
UNREACHABLE_BACKOFF = 30.0
"""Seconds before looking again at a remote store that could not be reached."""
PULL_BY_ID_MAX = 1_000
"""Up to this many changed entries are read through a filter on their ids; more (a new
machine, a long absence) in a scan of the whole table."""


class RemoteWatch:
    """When this process last looked at the remote store's version."""

    def __init__(self) -> None:
        self._next = 0.0  # the first look (on open) is due at once

    def due(self) -> bool:
        """Whether a look at the remote version is due."""
        return time.monotonic() >= self._next

    def version(self, store: RecordStore, *, force: bool = False) -> int | None:
        """The remote table's latest version (``None``: no table yet, or no look due).

        Raises:
            StorageError: the store cannot be reached; no look is due for
                :data:`UNREACHABLE_BACKOFF` seconds then.
        """
        if not force and not self.due():
            return None
        try:
            latest = store.latest_version()
        except StorageError:
            self.unreachable()
            raise
        self._next = time.monotonic() + CHECK_EVERY
        return latest

    def unreachable(self) -> None:
        """A call failed because the store could not be reached: no look for a while."""
        self._next = time.monotonic() + UNREACHABLE_BACKOFF


def to_latest(store: RecordStore) -> None:
    """Move a remote store's table to its latest version before a repair reads it (it
    stays on its version between looks: :mod:`engine.storage.remote_table`); a local
    store reads the latest version anyway."""
    if store.remote is not None and store.exists():
        store.latest_version()


def synced_version(recorded: int, before: int, after: int, own_commits: int) -> int:
    """The store version a mirror can record after a write that moved the store from
    ``before`` to ``after`` with ``own_commits`` commits of its own (-1: uncounted ones
    too): ``after`` when the mirror was synchronised at ``before`` and no other machine
    committed in between, else what it recorded, so that the next look repairs it."""
    if recorded == before and own_commits >= 0 and after - before == own_commits:
        return after
    return recorded


def pull(store: RecordStore, ids: Sequence[str]) -> tuple[list[Entry], Any]:
    """The entries ``ids`` and the matrix of their vectors (row for row), in one scan of
    the table: every request to an object store costs tens of milliseconds."""
    import numpy as np

    table = store.table()
    wanted = set(ids)
    if table is None or not wanted:
        return [], np.zeros((0, store.dimension), dtype=np.float32)
    query = table.search().select([*ENTRY_COLUMNS, "vector"]).limit(None)
    if len(wanted) <= PULL_BY_ID_MAX:
        query = query.where(f"id IN ({', '.join(quote(i) for i in wanted)})")
    try:
        rows = [r for r in query.to_list() if r["id"] in wanted]
    except Exception as exc:
        raise read_failed(store, exc) from exc
    matrix = np.asarray([r["vector"] for r in rows], dtype=np.float32)
    return [row_to_entry(r) for r in rows], matrix.reshape(len(rows), store.dimension)
