"""The LanceDB table of a store on object storage: opened without a listing of the
tables, and kept on its version between looks, so that an add or a one-shot search costs
a constant few requests however many versions the table has.

With ``read_consistency_interval=0`` LanceDB lists the table's ``_versions/`` before every
operation: 7 listings an add, 9 a one-shot open. On object storage the table instead
stays on the version it was opened or last moved to, and :func:`latest_version` moves it
(remote_sync's looks, repairs, ``count``). A commit begun on an older version still lands
on the latest: Lance rebases it, and :mod:`engine.storage.lance_commits` retries the
incompatible ones.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from engine.storage.lance_errors import read_failed
from engine.storage.lance_rows import TABLE

JUST_OPENED_S = 1.0
"""A table opened this recently is at its latest version: a look at it then (the one on
open) costs no second listing."""


class _Store(Protocol):
    path: Path
    where: str
    remote: Any
    failed: bool
    _table: Any
    _opened_at: float | None

    def table(self) -> Any: ...


def open_table(store: _Store, db: Any) -> Any:
    """The existing table, ``None`` if there is none. On object storage it is opened
    straight away (one listing of its versions and its manifest), not after a listing of
    the tables; a local one when its folder exists."""
    if store.remote is None and not (store.path / f"{TABLE}.lance").is_dir():
        return None
    try:
        return db.open_table(TABLE)
    except Exception as exc:
        if store.remote is not None and f"'{TABLE}' was not found" in str(exc):
            return None
        raise read_failed(store, exc) from exc


def mark_opened(store: _Store) -> None:
    """The table was just opened or created: at its latest version (see below)."""
    store._opened_at = time.monotonic()


def latest_version(store: _Store) -> int | None:
    """The table's latest version, the table moved to it (``None``: no table yet). A table
    opened by this call or within :data:`JUST_OPENED_S` before it, and not looked at since,
    is at its latest already: no second look."""
    opened = store._opened_at
    fresh = store._table is None or (
        opened is not None and time.monotonic() - opened < JUST_OPENED_S
    )
    table = store.table()
    if table is None:
        return None
    try:
        if not fresh:
            table.checkout_latest()
        store._opened_at = None
        return int(table.version)
    except Exception as exc:  # a remote store: one listing of its versions
        raise read_failed(store, exc) from exc
