"""Health of a project's memory, part by part, and repair of what is derived.

:func:`diagnose` checks the configuration, the store of record (a remote one in
:mod:`.health_remote`), the keyword index and its agreement with the store, entries waiting
for their vector, the embedding cache, ``meta.json``, the knowledge folder, the model and the
write lock: one :class:`Check` per part. Derived files are repaired on the way (an
unreadable index or cache moved aside as ``*.corrupt`` and rebuilt, an index out of step
re-synchronised, ``meta.json`` rebuilt by an index run). The store and the knowledge files
are never changed, except by :func:`rebuild_store` (:mod:`.health_rebuild`), asked for
explicitly: it moves a missing or unreadable store aside and rebuilds it from the keyword
index (all but the vectors). A store is unreadable when any of its files is: the check
reads every row once (:func:`~engine.storage.lance_reads.read_everything`).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from engine.core.config import DEFAULTS, Config, load_config
from engine.core.errors import EngineError, LockTimeoutError, StorageError
from engine.embedding.base import Embedder, model_path
from engine.services.health_files import (
    check_citations,
    check_store_missing,
    move_aside,
    write_denied,
)
from engine.services.health_rebuild import rebuild_reason, rebuild_store
from engine.services.health_remote import check_remote
from engine.services.health_report import Check, HealthReport, Status
from engine.services.health_report import count_of as _count
from engine.services.health_vectors import check_vectors
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.lance_errors import REBUILD_STORE
from engine.storage.lance_reads import read_everything
from engine.storage.meta import IndexMeta
from engine.storage.paths import MemoryPaths
from engine.storage.sqlite import is_busy_error, is_write_denied

__all__ = ["REBUILD_STORE", "Check", "HealthReport", "Status", "diagnose", "rebuild_store"]


def diagnose(
    root: Path, embedder: Embedder, *, rebuild_store_if_needed: bool = False
) -> HealthReport:
    """Check every part of the memory of the project at ``root``, repairing derived files.

    With ``rebuild_store_if_needed`` a missing or unreadable vector store is rebuilt
    from the keyword index (see :func:`rebuild_store`) before the other checks.
    """
    report = HealthReport()
    config = _check_config(root, report)
    try:
        paths = MemoryPaths.for_config(root, config)
    except EngineError as exc:  # a folder leads outside the project: nothing is read there
        if not any(exc.message == c.detail for c in report.checks):
            report.add("folders", Status.PROBLEM, exc.message, "point it inside the project")
        _check_model(report)
        return report
    if not paths.memory_dir.is_dir():
        report.add("memory", Status.PROBLEM, f"no memory in {root} yet", "memory-tui init")
    elif (denied := write_denied(paths.memory_dir)) is not None:
        _report_read_only(paths, report, denied)  # nothing can be checked by repairing it
    else:
        local = not paths.store_uri  # a remote store is never rebuilt from one machine
        if rebuild_store_if_needed and local and rebuild_reason(paths, embedder) is not None:
            count = rebuild_store(paths, embedder)
            detail = f"rebuilt from the keyword index: {_count(count, 'entry')}"
            report.add("vector store", Status.REPAIRED, detail)
        _check_embedding_cache(paths, report)
        _check_memory(paths, config, embedder, report)
    _check_knowledge(paths, config, report)
    _check_model(report)
    return report


def _check_config(root: Path, report: HealthReport) -> Config:
    try:
        config = load_config(root)
    except EngineError as exc:
        report.add("config", Status.PROBLEM, exc.message, "fix the file or variable named above")
        return DEFAULTS
    report.add("config", Status.OK, config.source)
    return config


def _check_embedding_cache(paths: MemoryPaths, report: HealthReport) -> None:
    path = paths.embedding_cache_path
    if not path.exists():
        report.add("embedding cache", Status.OK, "absent (filled on the next embedding)")
        return
    try:
        with sqlite3.connect(path, timeout=30) as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            rows = db.execute("SELECT count(*) FROM embedding_cache").fetchone()[0]
        db.close()
        if verdict != "ok":
            raise sqlite3.DatabaseError(str(verdict))
    except sqlite3.DatabaseError as exc:
        if is_busy_error(exc):
            report.add("embedding cache", Status.WARNING, "busy (another process is writing)")
            return
        if is_write_denied(exc, path):
            _report_read_only(paths, report, exc)
            return
        aside = move_aside(path)
        report.add(
            "embedding cache",
            Status.REPAIRED,
            f"was unreadable ({exc}); moved aside to {aside.name}, vectors are recomputed "
            "on demand",
        )
        return
    report.add("embedding cache", Status.OK, f"{_count(rows, 'vector')}")


def _report_read_only(paths: MemoryPaths, report: HealthReport, exc: Exception) -> None:
    why = getattr(exc, "strerror", None) or exc
    report.add(
        "memory folder",
        Status.PROBLEM,
        f"{paths.memory_dir} cannot be written ({why}): reads work from what is there, "
        "nothing can be added, changed or repaired",
        f"make it writable (e.g. chmod -R u+w {paths.memory_dir}) or free disk space",
    )


def _check_memory(
    paths: MemoryPaths, config: Config, embedder: Embedder, report: HealthReport
) -> None:
    fts_existed = paths.fts_path.exists() and paths.fts_path.stat().st_size > 0
    try:
        memory = Memory(paths, config, embedder)
    except LockTimeoutError as exc:
        report.add("write lock", Status.PROBLEM, exc.message, "retry when the writer finishes")
        return
    except StorageError as exc:  # the store is gone and a repair was pending
        report.add("vector store", Status.PROBLEM, exc.message, REBUILD_STORE)
        return
    with memory:
        parts = parts_of(memory)
        store_ok = check_remote(memory, report) and _check_store(memory, report)
        if store_ok:
            _check_keyword_index(memory, fts_existed, report)
            check_vectors(memory, report)
            _check_meta(memory, report)
            check_citations(memory, report)
        else:
            report.add(
                "keyword index",
                Status.WARNING,
                f"{parts.mirror.count()} entries, left untouched: while the vector store "
                "cannot be read it is the only copy of them",
            )
        free = parts.lock.try_hold()
        report.add(
            "write lock",
            Status.OK if free else Status.WARNING,
            "free" if free else "held by another process (a write is in progress)",
        )


def _check_store(memory: Memory, report: HealthReport) -> bool:
    mirrored = parts_of(memory).mirror.count()
    try:
        store = parts_of(memory).store()
        if not store.exists():
            if mirrored or not check_store_missing(memory, report):
                report.add("vector store", Status.OK, "empty (created on the first write)")
            return True
        count, version = store.count(), store.version
        read_everything(store)  # every file: a count reads the manifest alone
    except StorageError as exc:
        fix = REBUILD_STORE if mirrored else "memory-tui index --force"
        detail = re.split(r"; (?:run )?`memory-tui doctor", exc.message)[0]
        if mirrored:
            detail += f"; the keyword index still holds all {mirrored} entries"
        else:
            detail += "; only knowledge files can be re-indexed, other entries are lost"
        report.add("vector store", Status.PROBLEM, detail, fix)
        return False
    _report_store_size(memory, count, version, report)
    return True


def _report_store_size(memory: Memory, count: int, version: int, report: HealthReport) -> None:
    """Entries, version and size on disk; a store of many small fragments (single adds
    before compaction existed, or a crash before it ran) is compacted now."""
    from engine.storage.maintenance import compaction_threshold

    figures = parts_of(memory).store().figures()
    size = f"{_count(figures['fragments'], 'fragment')}, {figures['bytes'] / 1e6:.1f} MB on disk"
    if figures["small_fragments"] < compaction_threshold(figures["rows"]):
        report.add(
            "vector store", Status.OK, f"{_count(count, 'entry')} (version {version}; {size})"
        )
        return
    done = memory.compact()
    if not done:
        report.add(
            "vector store",
            Status.WARNING,
            f"{_count(count, 'entry')}; {size}",
            "memory-tui compact",
        )
        return
    report.add(
        "vector store",
        Status.REPAIRED,
        f"{_count(count, 'entry')}; compacted {done['fragments_before']} fragments into "
        f"{done['fragments']}, {done['bytes_before'] / 1e6:.1f} → {done['bytes'] / 1e6:.1f} MB",
    )


def _check_keyword_index(memory: Memory, existed: bool, report: HealthReport) -> None:
    parts = parts_of(memory)
    repaired = []
    if parts.mirror.recreated or not existed:
        repaired.append("was missing or unreadable and has been rebuilt from the store")
    elif memory.last_repair is not None and memory.last_repair.changed:
        repaired.append("was out of step with the store (an interrupted write) and is repaired")
    if not parts.mirror.integrity_ok():
        parts.records.rebuild_index()
        repaired.append("failed its integrity check and has been rebuilt")
    drift = parts.records.repair_index()
    if drift.changed:
        repaired.append(f"disagreed with the store ({drift.added} added, {drift.removed} removed)")
    count, stored = parts.mirror.count(), parts.store().count()
    if count != stored or set(parts.mirror.ids_and_stamps()) != set(parts.store().ids_and_stamps()):
        report.add(
            "keyword index", Status.PROBLEM, f"{_count(count, 'entry')} but the store has {stored}"
        )
        return
    agrees = f"{_count(count, 'entry')}, agrees with the store"
    if repaired:
        report.add("keyword index", Status.REPAIRED, f"{'; '.join(repaired)}: {agrees}")
    else:
        report.add("keyword index", Status.OK, agrees)


def _check_meta(memory: Memory, report: HealthReport) -> None:
    from engine.services.indexing import Indexer

    path = memory.paths.meta_path
    meta, problem = IndexMeta.load(path)
    if not problem and (path.exists() or not memory.paths.knowledge_dir.is_dir()):
        when = meta.last_indexed_at[:19] or "never"
        report.add("meta.json", Status.OK, f"{len(meta.file_hashes)} files, indexed {when}")
        return
    why = "was unreadable" if problem else "was missing"
    indexed = Indexer(memory).run()
    report.add(
        "meta.json",
        Status.REPAIRED,
        f"{why}; rebuilt by re-scanning {indexed.files_total} files "
        f"({indexed.embedded} chunks embedded)",
    )


def _check_knowledge(paths: MemoryPaths, config: Config, report: HealthReport) -> None:
    """The files the indexer reads — the knowledge folder and the documentation sources —
    through the same guard (no hidden files, FIFOs or links out, sizes checked before
    reading), whether each is readable and indexed."""
    from engine.core.hashing import content_hash_bytes
    from engine.guards.files import FileRefusedError, decode, project_files, read_project_bytes
    from engine.markdown.parse import parse_markdown

    folder = paths.knowledge_dir
    if not folder.is_dir():
        report.add("knowledge", Status.WARNING, f"{folder} does not exist", "memory-tui init")
        return
    from engine.services.sources import SourceSet

    meta, _ = IndexMeta.load(paths.meta_path)
    knowledge = sorted(project_files(folder))
    sources = [p for _, p in SourceSet(paths.root, config, folder).files()]
    files = [(folder, p) for p in knowledge] + [(paths.root, p) for p in sources]
    skipped, stale = [], 0
    for base, path in files:
        rel = path.relative_to(paths.root).as_posix()
        try:
            data = read_project_bytes(base, path, max_bytes=config.max_file_bytes)
            if meta.file_hashes.get(rel) != content_hash_bytes(data):
                stale += 1
            warnings = parse_markdown(decode(data, rel)).warnings
        except (FileRefusedError, EngineError) as exc:
            skipped.append(f"{rel}: {getattr(exc, 'reason', exc.message)}")
            continue
        skipped += [f"{rel}: {w}" for w in warnings]
    detail = (
        f"{_count(len(knowledge), 'knowledge file')}, {_count(len(sources), 'documentation file')}"
    )
    if skipped:
        shown = "; ".join(skipped[:3]) + (
            f"; … {len(skipped) - 3} more" if len(skipped) > 3 else ""
        )
        report.add("knowledge", Status.WARNING, f"{detail}; {shown}", "fix or remove those files")
    elif stale:
        report.add(
            "knowledge",
            Status.WARNING,
            f"{detail}; {stale} changed since the last index",
            "memory-tui index",
        )
    else:
        report.add("knowledge", Status.OK, f"{detail}, all indexed")


def _check_model(report: HealthReport) -> None:
    from engine.embedding.onnx_files import damaged_model_files

    try:
        folder = model_path()
    except Exception as exc:  # the package is missing or broken
        report.add(
            "model",
            Status.PROBLEM,
            f"packaged model unavailable ({exc})",
            "reinstall memory-tui (its package holds the model)",
        )
        return
    problems = damaged_model_files(folder)
    if not (folder / "tokenizer.json").is_file():
        problems.append("tokenizer.json is missing")
    if problems:
        report.add(
            "model",
            Status.PROBLEM,
            f"{folder}: " + "; ".join(problems),
            "reinstall memory-tui (its package holds the model)",
        )
        return
    report.add(
        "model", Status.OK, f"all-MiniLM-L6-v2 and its ONNX graphs intact at {folder} (offline)"
    )
