"""Health checks of the recorded files beside the store (see :mod:`engine.services.health`).

``citations.sqlite`` is opened, checked (integrity, schema) and its rows counted against
the store; an unreadable one is moved aside and the notes' citations recorded again. A
store of record that is missing while ``meta.json`` still records indexed files means
the entries are gone (not "empty"): that is a problem, with what to run.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from engine.freshness.citations import CITATIONS_FILE
from engine.freshness.stale import CITING_SOURCES
from engine.services.health_report import HealthReport, Status
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.meta import IndexMeta
from engine.storage.sqlite import is_busy_error

_TABLES = {"citations", "symbols"}


def move_aside(path: Path) -> Path:
    """Rename a damaged SQLite file (and its WAL files) to ``*.corrupt``; returns the name."""
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            part.replace(part.with_name(part.name + ".corrupt"))
    return path.with_name(path.name + ".corrupt")


def write_denied(folder: Path) -> OSError | None:
    """Why no file can be created in ``folder`` (read-only, full, no permission), or None."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as exc:
        return exc


def check_store_missing(memory: Memory, report: HealthReport) -> bool:
    """Report a missing store whose entries meta.json says were indexed; True if so."""
    meta, _ = IndexMeta.load(memory.paths.meta_path)
    recorded = len(meta.file_hashes)
    if not recorded and not meta.discovery:
        return False
    what = f"{recorded} indexed knowledge files" if recorded else "a codebase discovery"
    report.add(
        "vector store",
        Status.PROBLEM,
        f"missing (the store of record, {memory.paths.vectors_dir.name}/), but meta.json "
        f"records {what}: the memory's entries are gone, not empty. Restore "
        f"{memory.paths.vectors_dir} from a backup if there is one; otherwise re-create what "
        "can be (notes added by hand or by agents cannot)",
        "memory-tui index --force && memory-tui discover --full",
    )
    return True


def check_citations(memory: Memory, report: HealthReport) -> None:
    """Open and check citations.sqlite; move an unreadable one aside and re-record."""
    parts = parts_of(memory)
    path = memory.paths.memory_dir / CITATIONS_FILE
    if not path.exists():
        report.add("citations", Status.OK, "absent (recorded on the next write)")
        return
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(str(verdict))
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if not tables >= _TABLES:
                raise sqlite3.DatabaseError(f"tables {sorted(_TABLES - tables)} are missing")
            cited = [r[0] for r in db.execute("SELECT DISTINCT entry_id FROM citations")]
        db.close()
    except sqlite3.DatabaseError as exc:
        if is_busy_error(exc):
            report.add("citations", Status.WARNING, "busy (another process is writing)")
            return
        _rebuild_citations(memory, report, str(exc))
        return
    orphans = sorted(set(cited) - set(parts.mirror.ids_and_stamps()))
    detail = f"{len(cited)} {'entry cites' if len(cited) == 1 else 'entries cite'} code"
    if orphans:
        parts.freshness.index.forget(orphans)
        report.add(
            "citations",
            Status.REPAIRED,
            f"{detail}; dropped {len(orphans)} deleted "
            + ("entry" if len(orphans) == 1 else "entries"),
        )
    else:
        report.add("citations", Status.OK, f"{detail}, all in the store")


def _rebuild_citations(memory: Memory, report: HealthReport, why: str) -> None:
    parts = parts_of(memory)
    parts.freshness.close()
    aside = move_aside(memory.paths.memory_dir / CITATIONS_FILE)
    parts.freshness.index.unreadable = None
    notes = [e for e in memory.list() if e.source in CITING_SOURCES]
    parts.freshness.note_citations(notes)
    report.add(
        "citations",
        Status.WARNING,
        f"was unreadable ({why}); moved aside to {aside.name} and the citations of "
        f"{len(notes)} notes recorded again, as of the code today (stale flags restart); "
        "discovery entries cite their modules again after a full discovery",
        "memory-tui discover --full",
    )
