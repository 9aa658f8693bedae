"""SQLite files shared by several processes: opening them in WAL mode, telling busy from
damaged."""

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


def is_busy_error(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error means "locked by another connection" rather than "damaged"."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    return "locked" in str(exc).lower()
