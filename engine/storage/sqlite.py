"""SQLite files shared by several processes: opening them in WAL mode, telling busy from
damaged."""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)


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


_WRITE_DENIED = ("readonly database", "unable to open database file", "disk is full")
_DENIED_CODES = (
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_FULL,
)


def is_write_denied(exc: sqlite3.DatabaseError, path: Path) -> bool:
    """Whether an error on the file at ``path`` means "cannot write here" (permissions, a
    read-only or full disk) rather than "damaged": such a file must never be moved aside
    as if it were broken. A bare I/O error counts only when the folder refuses a write."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DENIED_CODES:
        return True
    if any(text in str(exc).lower() for text in _WRITE_DENIED):
        return True
    io_error = (code is not None and code & 0xFF == sqlite3.SQLITE_IOERR) or (
        "i/o error" in str(exc).lower()
    )
    return io_error and not _folder_takes_writes(path.parent)


def _folder_takes_writes(folder: Path) -> bool:
    """Whether a small file can be written in ``folder`` now (not read-only, not full)."""
    try:
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"\0" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError:
        return False
    return True


_warned: set[Path] = set()


def warn_read_only(path: Path, exc: BaseException) -> None:
    """Log, once per folder and process, that ``path``'s folder cannot be written."""
    if path.parent in _warned:
        return
    _warned.add(path.parent)
    log.warning(
        "cannot write %s (%s): reading what is there; changes fail until %s is writable "
        "(check its permissions, or free disk space)",
        path,
        exc,
        path.parent,
    )


def open_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened for reading only, for a folder this process cannot write.

    ``mode=ro`` still needs the WAL index file (``-shm``), which a clean close deleted and a
    read-only folder cannot recreate; ``immutable=1`` then reads the file as it is.

    Raises:
        sqlite3.DatabaseError: the file cannot be read either.
    """
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError:
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True, check_same_thread=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return db
