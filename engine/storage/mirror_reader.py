"""A second connection to ``fts.sqlite`` for the keyword retriever's reads.

A hybrid search runs BM25 in one thread while the other reads the vector hits' entries;
on the mirror's one shared connection (guarded by its lock) the second waited for the
first: 5 of 15 ms at 10,000 entries. WAL lets the two connections read at once.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class ReadConnection:
    """A read-only connection of its own, opened on first use. :meth:`read` answers
    ``None`` where it cannot (it never opened, or failed once: a read-only file, say),
    and the caller then reads on the shared connection; :meth:`close` lets it open
    again (after the mirror reopened its file)."""

    def __init__(self, path: Path, busy_timeout_s: float) -> None:
        self.path = path
        self._busy_timeout_s = busy_timeout_s
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._failed = False

    def read(self, sql: str, params: Sequence[object]) -> list[Any] | None:
        """The statement's rows, or None when this connection cannot give them."""
        with self._lock:
            db = self._open()
            if db is None:
                return None
            try:
                return db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:  # the shared connection answers (or says why)
                log.debug("separate read connection to %s failed: %s", self.path, exc)
                with contextlib.suppress(sqlite3.Error):
                    db.close()
                self._db, self._failed = None, True
                return None

    @property
    def is_open(self) -> bool:
        """Whether the connection is open now."""
        return self._db is not None

    def close(self) -> None:
        """Close it; the next read opens it again."""
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
            self._db, self._failed = None, False

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and not self._failed:
            try:
                db = sqlite3.connect(
                    self.path,
                    timeout=self._busy_timeout_s,
                    check_same_thread=False,
                    isolation_level=None,
                )
                db.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_s * 1000)}")
                db.execute("PRAGMA query_only=1")
                self._db = db
            except sqlite3.Error as exc:
                log.debug("no separate read connection to %s: %s", self.path, exc)
                self._failed = True
        return self._db
