"""Opening a shared SQLite file in WAL mode when several processes may do it at once."""

from __future__ import annotations

import sqlite3
import time


def enable_wal(db: sqlite3.Connection, timeout: float = 30.0) -> None:
    """Put ``db`` in WAL mode, waiting out other connections doing the same.

    When processes race to open a new file, ``PRAGMA journal_mode=WAL`` can fail at once
    with "database is locked": SQLite does not call the busy handler there, so the
    connection's timeout does not help. The mode is checked first (a read; nothing to do
    once any process has switched the file) and the switch is retried until ``timeout``.
    """
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            if str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
