"""Incremental indexing of the curated markdown under ``.claude/knowledge/`` and of the
project's own documentation (the ``sources`` setting, :mod:`engine.services.sources`), in
two phases: text, keyword index and store rows first, vectors after (:mod:`.embedding_backlog`).

Each file's bytes are hashed; unchanged files are skipped (one whose stat is the one
recorded when it was last indexed is not even read: :mod:`.index_reads`). A changed file
is parsed and chunked again and compared with the entries it owns, by content hash: chunks
that still exist are kept (their line numbers and titles refreshed without
re-embedding), new chunks are added (and embedded), and chunks that disappeared are
deleted. A deleted file's entries are removed. Entries are owned per file, so the
same paragraph in two files survives an edit of either one.

One bad file (binary, not UTF-8, too large, unreadable) is reported and skipped —
its previous entries stay — and the rest is indexed. Work is committed in batches,
so an interrupted run keeps what it finished and the next run completes it.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import EngineError, NotFoundError
from engine.core.hashing import content_hash
from engine.core.models import Entry, SecretPolicy, Source
from engine.core.validation import now_iso, parse_category
from engine.guards.files import DEFAULT_MAX_BYTES, FileRefusedError, decode, project_files
from engine.services.aliases import promoted_from
from engine.services.embedding_backlog import EmbeddingBacklog
from engine.services.entries import NewEntry
from engine.services.index_reads import FileRead, RunFiles
from engine.services.index_report import FilePlan, IndexFreshness, IndexReport
from engine.services.parts import parts_of
from engine.services.sources import SourceSet
from engine.storage.meta import IndexMeta

if TYPE_CHECKING:
    from engine.services.memory import Memory

__all__ = ["BATCH_CHUNKS", "MAX_FILE_BYTES", "IndexReport", "Indexer", "Progress"]

log = logging.getLogger(__name__)

MAX_FILE_BYTES = DEFAULT_MAX_BYTES
"""Files larger than this (the ``max_file_bytes`` default) are reported and skipped."""
READERS = (
    *sorted((Path(__file__).parents[1] / "markdown").glob("*.py")),
    Path(__file__).parents[1] / "analyzer" / "doc_kinds.py",
)
"""The modules a file's chunks are made by, besides its bytes and the settings: the readers
and the chunker (:mod:`engine.markdown`) and what names a file's dialect
(:mod:`engine.analyzer.doc_kinds`)."""
BATCH_CHUNKS = 256
"""New chunks embedded and committed together."""


Progress = Callable[[int, int, str], None]
"""Called as ``progress(files_done, files_total, current_path)``."""
PageCap = Callable[[], int | None]


@cache
def chunker_version() -> str:
    """SHA-256 (16 hex digits) of the :data:`READERS`' names and bytes: an upgrade that
    reads or cuts a file otherwise re-chunks every file on the next index run, with no
    number to remember to bump (chunks that did not change keep their vectors). Computed
    once per process, from the source (about 3 ms)."""
    from engine.analyzer.parse_cache import add_sources  # the analyzer's own hashing

    digest = hashlib.sha256()
    add_sources(digest, READERS)
    return digest.hexdigest()[:16]


class Indexer:
    """Keeps the entries of a memory in step with its knowledge files."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.parts = parts_of(memory)
        self.root = memory.paths.root
        self.knowledge_dir = memory.paths.knowledge_dir
        self.sources = SourceSet(self.root, memory.config, self.knowledge_dir)

    def settings(self) -> dict[str, object]:
        """What, when changed, invalidates every file's chunks."""
        cfg = self.memory.config
        return {
            "chunk_size": cfg.chunk_size,
            "chunk_overlap": cfg.chunk_overlap,
            "model": self.parts.embedder.model_id,
            "chunker": chunker_version(),
        }

    def scan(self) -> list[tuple[str, Path]]:
        """(project-relative path, absolute path) of every file to index: the knowledge
        folder's markdown, then the project's documentation sources."""
        return self.knowledge_files() + self.sources.files()

    def wants(self, rel: str) -> bool:
        """Whether the project-relative path ``rel`` is indexed (by name alone)."""
        prefix = self.sources.knowledge_prefix
        in_knowledge = bool(prefix) and rel.startswith(prefix) and rel.endswith(".md")
        return in_knowledge or self.sources.wants(rel)

    def knowledge_files(self) -> list[tuple[str, Path]]:
        """(project-relative path, absolute path) of every knowledge markdown file, sorted."""
        # Hidden files, links out of the folder, FIFOs and devices are left out.
        found = project_files(self.knowledge_dir)
        return sorted((path.relative_to(self.root).as_posix(), path) for path in found)

    def run(
        self,
        *,
        force: bool = False,
        dry_run: bool = False,
        progress: Progress | None = None,
        only: Collection[str] | None = None,
        embed: bool = True,
        embed_progress: Progress | None = None,
    ) -> IndexReport:
        """Index what changed since the last run (everything with ``force``), in two
        phases: text, keyword index and store rows first (keyword search finds new chunks
        as soon as each batch commits), then, with ``embed``, the vectors of every entry
        still waiting for one (:class:`EmbeddingBacklog`; ``embed_progress`` follows it).
        Without ``embed`` the run returns after the first phase (``report.pending`` says
        how many wait): long-lived processes embed in the background.

        ``only`` limits the run to these project-relative paths (the git hooks, the
        watcher and promotion pass the files they know changed).

        One run of a project at a time (any process): a run started while another is
        still embedding waits for it, then plans against what it wrote. Two runs planned
        against the same old chunks would each add their version of an edited file, and
        the chunks of the one that finished first would stay searchable for ever.
        """
        if dry_run:
            return self._run(force=force, dry_run=True, progress=progress, only=only)
        lock = self.parts.records.index_lock
        if not lock.try_hold():
            log.warning("another index run of this project is in progress: waiting for it")
        with lock.hold():
            report = self._run(force=force, dry_run=False, progress=progress, only=only)
        if embed:
            return self.embed(report, progress=embed_progress)
        report.pending = self.memory.vectors_waiting()
        return report

    def freshness(self) -> IndexFreshness:
        """How many files a run would index now (a dry run, counted; takes no lock)."""
        report = self._run(force=False, dry_run=True, progress=None, only=None)
        return IndexFreshness(report.files_total, report.files_processed + report.files_removed)

    def embed(self, report: IndexReport, *, progress: Progress | None = None) -> IndexReport:
        """The second phase: embed every entry waiting for its vector (this run's or an
        earlier one's), refresh the ANN index if due; ``report`` gains the figures."""
        misses_before = getattr(self.parts.embedder, "misses", 0)
        done = EmbeddingBacklog(self.parts.records, self.parts.embedder).run(progress=progress)
        report.embed_seconds = done.seconds
        report.seconds += done.seconds
        report.pending = self.memory.vectors_waiting()
        if not report.pending:  # an ANN index over placeholders would be wrong
            report.vector_index = self.parts.records.maintain_vector_index()
        report.embedded += getattr(self.parts.embedder, "misses", 0) - misses_before
        return report

    def _run(
        self,
        *,
        force: bool,
        dry_run: bool,
        progress: Progress | None,
        only: Collection[str] | None,
    ) -> IndexReport:
        """See :meth:`run` (called under the index-run lock).

        Long because plan, embed and commit share the report and the scope of the write
        lock; read in one place, it shows what happens under the lock and what before it.
        """
        started = time.perf_counter()
        report = IndexReport(dry_run=dry_run)
        meta_path = self.memory.paths.meta_path
        meta, problem = IndexMeta.load(meta_path)
        meta_name = _shown(meta_path, self.root)
        if problem:  # the report carries it to the face, which shows it once
            log.debug("%s: %s", meta_path, problem)
            report.warnings.append((meta_name, problem))
        settings = self.settings()
        rechunk_all = force or meta.settings != settings
        files = self.scan()
        if only is not None:
            wanted = set(only)
            files = [(rel, path) for rel, path in files if rel in wanted]
        report.files_total = len(files)
        misses_before = getattr(self.parts.embedder, "misses", 0)
        current = {rel for rel, _ in files}
        owned = self.parts.mirror.file_paths_of_source(Source.MARKDOWN.value)
        reads = RunFiles(
            self.root, self.knowledge_dir, self.memory.config.max_file_bytes, meta, rechunk_all
        )
        reads.same_settings = meta.settings == settings
        if owned and not problem and not meta_path.exists():
            problem = "was missing; it is rebuilt now (unchanged chunks are kept)"
            log.debug("%s %s", meta_path, problem)
            report.warnings.append((meta_name, problem))
        gone = sorted((set(meta.file_hashes) | owned) - current)
        if only is not None:
            gone = [rel for rel in gone if rel in wanted]

        # Every file's entries, to hold each docs page to its share of them all.
        per_file = self.parts.mirror.counts_by("filePath")  # one query for every file
        per_file.pop("", None)  # (entries of no file)
        sizes = self._sizes(files, reads, per_file)
        stored = sum(per_file.get(rel, 0) for rel in [*current, *gone])
        total = self.memory.count() - stored + sum(sizes.values())
        outside = set(per_file) - current - set(gone)
        held = len(outside) + len([n for n in sizes.values() if n])
        batch: list[FilePlan] = []
        for done, (rel, path) in enumerate(files, start=1):
            if progress is not None:
                progress(done - 1, len(files), rel)
            own = sizes.get(rel, 0)
            cap = partial(_page_cap, total - own, held - (1 if own else 0))
            plan = self._plan_file(rel, path, reads, report, cap)
            if plan is None:
                continue
            report.files_processed += 1
            report.changed_files.append(rel)
            report.entries_created += len(plan.creates)
            report.entries_updated += len(plan.updates)
            report.entries_deleted += len(plan.deletes)
            batch.append(plan)
            if not dry_run and sum(len(p.creates) for p in batch) >= BATCH_CHUNKS:
                self._commit(batch, [], settings)
                batch = []
        mine = Source.MARKDOWN  # the indexer's entries; discovery's are its own to replace
        removed_ids = [e.id for rel in gone for e in self.parts.mirror.by_file(rel, mine)]
        report.files_removed = len(gone)
        report.entries_deleted += len(removed_ids)
        if not dry_run:
            self._commit(batch, gone, settings, removed_ids, learned=reads.learned)
            if force:  # --force also rebuilds the derived keyword index from the store
                self.parts.records.rebuild_index()
        if progress is not None:
            progress(len(files), len(files), "")
        report.embedded = getattr(self.parts.embedder, "misses", 0) - misses_before
        report.seconds = time.perf_counter() - started
        return report

    def _plan_file(
        self, rel: str, path: Path, reads: RunFiles, report: IndexReport, cap: PageCap
    ) -> FilePlan | None:
        """What indexing one file changes; None when it is unchanged or cannot be read.
        ``cap()``: the most chunks it may keep if it is a docs page."""
        if reads.unchanged_by_stat(rel, path):
            report.files_skipped += 1
            return None
        try:
            read = reads.read(rel, path)
        except (FileRefusedError, NotFoundError) as exc:
            report.errors.append((rel, getattr(exc, "detail", exc.message)))
            return None
        if reads.unchanged(rel, read):
            report.files_skipped += 1
            return None
        try:
            text = decode(read.data, rel)
            # Chunked already (for its size), uncapped: the same entries unless capped.
            page, most = not self._is_note(path), None
            if page:  # as last chunked when its bytes are the same (ids kept), else its share
                known, most = reads.recorded_cap(rel, read)
                most = most if known else cap()
            if read.entries is not None and most is None:
                desired = read.entries
                report.warnings += read.warnings
            else:
                desired = self._entries(rel, path, text, report, most)
        except (ValueError, EngineError) as exc:
            report.errors.append((rel, getattr(exc, "detail", str(exc))))
            return None
        plan = self._diff(rel, read.digest, desired)
        plan.stat, plan.page, plan.cap = read.stat, page, most
        plan.aliases = promoted_from(text)
        return plan

    def _is_note(self, path: Path) -> bool:
        """Whether the file is in the knowledge folder (a page cap holds only docs)."""
        return path.is_relative_to(self.knowledge_dir)

    def _entries(
        self, rel: str, path: Path, text: str, report: IndexReport, cap: int | None = None
    ) -> list[NewEntry]:
        """What the file becomes (:func:`~engine.services.file_entries.file_entries`; the
        markdown stack is imported only once a file has changed)."""
        from engine.services.file_entries import file_entries

        return file_entries(self.memory, self.knowledge_dir, rel, path, text, report, cap)

    def _sizes(
        self, files: list[tuple[str, Path]], reads: RunFiles, per_file: dict[str, int]
    ) -> dict[str, int]:
        """How many entries each file has: those stored for an unchanged file, else those
        it becomes before any page cap (a file that cannot be read has none)."""
        sizes: dict[str, int] = {}
        for rel, path in files:
            if reads.unchanged_by_stat(rel, path):
                sizes[rel] = per_file.get(rel, 0)
                continue
            try:
                read = reads.read(rel, path)
                if reads.unchanged(rel, read):
                    sizes[rel] = per_file.get(rel, 0)
                    continue
                entries = self._chunked(rel, path, read)
            except (FileRefusedError, NotFoundError, ValueError, EngineError):
                continue
            sizes[rel] = len({content_hash(e.content) for e in entries})
        return sizes

    def _chunked(self, rel: str, path: Path, read: FileRead) -> list[NewEntry]:
        """The file's entries before any page cap, kept on ``read`` with their warnings."""
        scratch = IndexReport(dry_run=True)
        read.entries = self._entries(rel, path, decode(read.data, rel), scratch)
        read.warnings = scratch.warnings
        return read.entries

    def _diff(self, rel: str, digest: str, desired: list[NewEntry]) -> FilePlan:
        plan = FilePlan(rel, digest)
        existing: dict[str, list[Entry]] = {}
        for entry in self.parts.mirror.by_file(rel, Source.MARKDOWN):
            existing.setdefault(entry.content_hash, []).append(entry)
        seen: set[str] = set()
        for item in desired:
            key = content_hash(item.content)
            if key in seen:
                continue  # the same text twice in one file is stored once
            seen.add(key)
            matches = existing.pop(key, [])
            if not matches:
                plan.creates.append(item)
                continue
            keep, extra = matches[0], matches[1:]
            plan.deletes.extend(e.id for e in extra)
            refreshed = replace(
                keep,
                category=parse_category(item.category),
                section_title=item.section_title,
                keywords=tuple(item.keywords),
                line_start=item.line_start,
                line_end=item.line_end,
                promoted=bool(item.promoted_at),
                promoted_at=item.promoted_at,
            )
            if refreshed != keep:
                plan.updates.append(replace(refreshed, updated_at=now_iso()))
        plan.deletes.extend(e.id for group in existing.values() for e in group)
        return plan

    def _commit(
        self,
        plans: list[FilePlan],
        gone: list[str],
        settings: dict[str, object],
        removed_ids: list[str] | None = None,
        *,
        learned: dict[str, tuple[int, ...]] | None = None,
    ) -> None:
        creates = [item for plan in plans for item in plan.creates]
        if creates:  # the first phase: vectors come from the cache or the backlog's run
            self.parts.entries.add_many(creates, secret_policy=SecretPolicy.REDACT, embed=False)
        updates = [entry for plan in plans for entry in plan.updates]
        if updates:
            self.parts.entries.update_metadata(updates)
        deletes = [i for plan in plans for i in plan.deletes] + (removed_ids or [])
        if deletes:
            self.parts.entries.delete_many(deletes)
        with self.parts.lock.hold():
            # Re-read: another indexer may have recorded other files meanwhile.
            meta, _ = IndexMeta.load(self.memory.paths.meta_path)
            if meta.settings != settings:
                meta.file_hashes, meta.file_stats, meta.page_caps = {}, {}, {}
                meta.settings = settings
            renewed = {plan.rel for plan in plans} | set(gone)
            meta.aliases = {k: v for k, v in meta.aliases.items() if v[0] not in renewed}
            for plan in plans:
                meta.record_file(plan.rel, plan.digest, plan.stat, page=plan.page, cap=plan.cap)
                meta.aliases.update((old, (plan.rel, line)) for old, line in plan.aliases.items())
            for rel in gone:
                meta.forget_file(rel)
            for rel, stat in (learned or {}).items():
                if rel in meta.file_hashes:  # (not re-chunked by another run meanwhile)
                    meta.file_stats[rel] = stat
            meta.last_indexed_at = now_iso()
            meta.save(self.memory.paths.meta_path)


def _page_cap(others: int, files: int) -> int | None:
    """:func:`engine.markdown.pages.page_cap`, imported once a docs page has changed."""
    from engine.markdown.pages import page_cap

    return page_cap(others, files)


def _shown(path: Path, root: Path) -> str:
    """``path`` as a warning names it: relative to the project, as file warnings are."""
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
