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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


STEP_INSTRUCTIONS = 5_000
"""Virtual-machine instructions between two calls of a read's ``between``: about 0.4 ms
of a keyword ranking on this machine, several turns for a nearest query that takes 2–5 ms
at 10,000 entries. Each call takes the interpreter lock, which a server's other sessions
wait for, so fewer calls keep them moving; too few leave the nearest query behind once
the ranking is done. Hybrid searches of the SciFact memory at 10,000 entries taking turns
in one process: every 2,000, 5,000, 10,000 and 20,000 instructions gave p50 15.08, 15.17,
15.34 and 16.21 ms; ``bench.warm_latency`` in fresh processes, 5,000 against 10,000:
14.2 / 15.7 / 14.3 against 15.8 / 14.3 / 15.3 ms; the HTTP load's add p95 the same within
its noise (bench/RESULTS.md, "Issue 49 (session 21)"; in session 19, before the keyword
ranking was cut by a quarter, 20,000 was as good as 2,000)."""


def _continuing(between: Callable[[], None]) -> Callable[[], int]:
    """``between`` as a progress handler: called, then the statement goes on (a handler
    that failed would abort the statement, which the search would then read again on the
    shared connection: the failure is logged instead)."""

    def handler() -> int:
        try:
            between()
        except Exception as exc:  # never abort the statement for the other half
            log.warning("a read between keyword statements failed: %s", exc)
        return 0

    return handler


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

    def read(
        self, sql: str, params: Sequence[object], between: Callable[[], None] | None = None
    ) -> list[Any] | None:
        """The statement's rows, or None when this connection cannot give them.

        ``between`` is called before the statement and, while it runs, every
        :data:`STEP_INSTRUCTIONS` of SQLite's virtual machine (its progress handler, the
        hook SQLite offers to let an event loop run during a long statement): a hybrid
        search's nearest query, under way on LanceDB's runtime, takes its next steps
        there (:class:`engine.storage.lance_search.Underway`) instead of waiting for the
        keyword ranking to end."""
        with self._lock:
            db = self._open()
            if db is None:
                return None
            try:
                if between is None:
                    return db.execute(sql, params).fetchall()
                between()
                db.set_progress_handler(_continuing(between), STEP_INSTRUCTIONS)
                try:
                    return db.execute(sql, params).fetchall()
                finally:
                    db.set_progress_handler(None, 0)
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
