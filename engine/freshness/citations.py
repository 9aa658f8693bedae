"""What entries cite of the repository's source code, kept beside the store.

An entry about code (a discovery entry, or a note whose text names a file or a symbol of
the repository) records each file it cites, the symbol if one is named, and the SHA-256 of
the file when the entry was written. :mod:`engine.freshness.stale` compares that with the file
today to flag the entry stale.

Citations live in ``.claude/memory/citations.sqlite``, derived data like the keyword index:
the LanceDB schema is untouched, and losing the file only loses the stale flags. The same
file holds the repository's symbol table from the last discovery (name → defining file),
which lets a note that names ``compute_total`` without a path cite the right file.

A damaged file (garbage bytes, a failed integrity check) fails nothing: the first error is
logged once, with what to do (``memory-tui doctor`` rebuilds it); reads then answer
"nothing cited" and writes are skipped until the file is repaired. The file is never
renamed or deleted here: only ``doctor`` does that.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sqlite3
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.storage.sqlite import (
    enable_wal,
    is_busy_error,
    is_write_denied,
    open_read_only,
    warn_read_only,
)

log = logging.getLogger(__name__)

CITATIONS_FILE = "citations.sqlite"
"""Name of the citation database inside ``.claude/memory/``."""

MAX_CITATIONS = 20
"""Most citations recorded for one entry (a long note naming many files)."""

_PATH = re.compile(r"(?<![\w/.@-])(?:\./)?((?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})\b")
_CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)?)\(")
_CODE_NAME = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\([^()]*\))?")
_SKIPPED_DIRS = (".git/", ".claude/memory/")


@dataclass(frozen=True, slots=True)
class Citation:
    """One file (and optionally one symbol in it) that an entry talks about."""

    path: str
    """Posix path relative to the project root."""
    symbol: str = ""
    """A function, class or ``Class.method`` defined in :attr:`path`; ``""`` for the file."""
    file_hash: str = ""
    """SHA-256 of the file's bytes when the entry was written."""


def file_digest(path: Path) -> str | None:
    """SHA-256 of a file's bytes, or None when it cannot be read or is not a regular file.

    Opened non-blocking and checked with ``fstat``, so a FIFO never blocks the check, and
    hashed in blocks, so a huge file is never held in memory whole.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            digest = hashlib.sha256()
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    except OSError:
        return None


class CitationDb:
    """The citation database of one project (thread-safe; opened on first use).

    Reads never create the file: a memory without citations answers "none" cheaply.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.unreadable: str | None = None
        """Why the file could not be used (then nothing is read from or written to it)."""

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn a damaged file into one warning and no citations (see the module)."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if is_busy_error(exc):
                raise
            if is_write_denied(exc, self.path):  # healthy, only not writable: nothing recorded
                warn_read_only(self.path, exc)
                return
            self.unreadable = str(exc)
            if self._db is not None:
                self._db.close()
                self._db = None
            log.warning(
                "%s is unreadable (%s): stale checks are off; run `memory-tui doctor` to "
                "rebuild it",
                self.path,
                exc,
            )
        except OSError as exc:  # a read-only or full disk: nothing recorded
            warn_read_only(self.path, exc)

    def _connect(self, *, create: bool) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        if self.unreadable is not None or (not create and not self.path.exists()):
            return None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if not (self.path.exists() and is_write_denied(exc, self.path)):
                raise
            warn_read_only(self.path, exc)
            self._db = open_read_only(self.path)
        return self._db

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        enable_wal(db)
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(
            "CREATE TABLE IF NOT EXISTS citations ("
            " entry_id TEXT NOT NULL, path TEXT NOT NULL, symbol TEXT NOT NULL,"
            " file_hash TEXT NOT NULL, PRIMARY KEY (entry_id, path, symbol)) WITHOUT ROWID;"
            "CREATE INDEX IF NOT EXISTS citations_by_path ON citations (path);"
            "CREATE TABLE IF NOT EXISTS symbols ("
            " name TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (name, path)) WITHOUT ROWID;"
        )
        db.commit()
        self._db = db
        return db

    def close(self) -> None:
        """Close the database (it reopens on next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def record(self, cited: Mapping[str, Sequence[Citation]]) -> None:
        """Replace the citations of each entry id in ``cited`` (an empty list clears them)."""
        if not cited:
            return
        with self._lock, self._guard():
            db = self._connect(create=True)
            if db is None:
                return
            with db:
                for entry_id, citations in cited.items():
                    db.execute("DELETE FROM citations WHERE entry_id = ?", (entry_id,))
                    db.executemany(
                        "INSERT OR REPLACE INTO citations VALUES (?, ?, ?, ?)",
                        [(entry_id, c.path, c.symbol, c.file_hash) for c in citations],
                    )

    def forget(self, ids: Iterable[str]) -> None:
        """Drop the citations of these entries."""
        wanted = list(ids)
        with self._lock, self._guard():
            db = self._connect(create=False)
            if db is None or not wanted:
                return
            with db:
                db.executemany("DELETE FROM citations WHERE entry_id = ?", [(i,) for i in wanted])

    def of(self, ids: Sequence[str]) -> dict[str, list[Citation]]:
        """Citations of the given entries (entries citing nothing are absent)."""
        out: dict[str, list[Citation]] = {}
        with self._lock, self._guard():
            db = self._connect(create=False)
            if db is None:
                return out
            for start in range(0, len(ids), 500):
                part = list(ids[start : start + 500])
                marks = ",".join("?" * len(part))
                rows = db.execute(
                    "SELECT entry_id, path, symbol, file_hash FROM citations"
                    f" WHERE entry_id IN ({marks})",
                    part,
                )
                for entry_id, path, symbol, digest in rows:
                    out.setdefault(entry_id, []).append(Citation(path, symbol, digest))
        return out

    def all(self) -> dict[str, list[Citation]]:
        """Every entry's citations."""
        out: dict[str, list[Citation]] = {}
        with self._lock, self._guard():
            db = self._connect(create=False)
            if db is None:
                return out
            for entry_id, path, symbol, digest in db.execute(
                "SELECT entry_id, path, symbol, file_hash FROM citations"
            ):
                out.setdefault(entry_id, []).append(Citation(path, symbol, digest))
        return out

    def set_symbols(self, symbols: Iterable[tuple[str, str]]) -> None:
        """Replace the repository's symbol table with ``(name, path)`` pairs."""
        rows = sorted(set(symbols))
        with self._lock, self._guard():
            db = self._connect(create=True)
            if db is None:
                return
            with db:
                db.execute("DELETE FROM symbols")
                db.executemany("INSERT OR IGNORE INTO symbols VALUES (?, ?)", rows)

    def files_defining(self, names: Sequence[str]) -> dict[str, list[str]]:
        """For each name found in the symbol table, the files that define it."""
        out: dict[str, list[str]] = {}
        with self._lock, self._guard():
            db = self._connect(create=False)
            if db is None or not names:
                return out
            marks = ",".join("?" * len(names))
            for name, path in db.execute(
                f"SELECT name, path FROM symbols WHERE name IN ({marks})", list(names)
            ):
                out.setdefault(name, []).append(path)
        return out

    def known_files(self) -> list[str]:
        """Files that appear in the symbol table (for resolving a bare file name)."""
        with self._lock, self._guard():
            db = self._connect(create=False)
            if db is None:
                return []
            return [row[0] for row in db.execute("SELECT DISTINCT path FROM symbols")]
        return []


def mentioned_paths(text: str, root: Path, known: Sequence[str] = ()) -> list[str]:
    """Files of the repository at ``root`` that ``text`` names, in order of mention.

    A path counts when it exists under the root (``engine/memory.py``, ``./app/cli.py``), or
    when a bare name (``memory.py``) ends exactly one path in ``known``. Paths that leave the
    root, or point into ``.git`` or the memory's own folder, never count.
    """
    found: list[str] = []
    base = root.resolve()
    for match in _PATH.finditer(text):
        rel = match.group(1)
        if ".." in rel.split("/") or rel.startswith(_SKIPPED_DIRS):
            continue
        candidate = (root / rel).resolve()
        if candidate.is_relative_to(base) and candidate.is_file():
            rel = candidate.relative_to(base).as_posix()
        else:
            tails = [k for k in known if k == rel or k.endswith("/" + rel)]
            if len(tails) != 1:
                continue
            rel = tails[0]
        if rel not in found and not rel.startswith(_SKIPPED_DIRS):
            found.append(rel)
    return found


def mentioned_names(text: str) -> list[str]:
    """Identifiers that ``text`` presents as code: in backticks, or called (``name()``)."""
    names: list[str] = []
    for span in _CODE_SPAN.findall(text):
        ident = _CODE_NAME.fullmatch(span.strip())  # `name`, `Class.method`, `name(args)`
        if ident:
            names.append(ident.group(1))
    names += _CALL.findall(text)
    out: list[str] = []
    for name in names:
        for variant in (name, name.rpartition(".")[2]):
            if len(variant) >= 3 and variant not in out:
                out.append(variant)
    return out
