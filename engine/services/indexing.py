"""Incremental indexing of the curated markdown under ``.claude/knowledge/`` and of the
project's own documentation (the ``sources`` setting, :mod:`engine.services.sources`), in
two phases: text, keyword index and store rows first, vectors after (:mod:`.embedding_backlog`).

Each file's bytes are hashed; unchanged files are skipped. A changed file is parsed
and chunked again and compared with the entries it owns, by content hash: chunks
that still exist are kept (their line numbers and titles refreshed without
re-embedding), new chunks are added (and embedded), and chunks that disappeared are
deleted. A deleted file's entries are removed. Entries are owned per file, so the
same paragraph in two files survives an edit of either one.

One bad file (binary, not UTF-8, too large, unreadable) is reported and skipped —
its previous entries stay — and the rest is indexed. Work is committed in batches,
so an interrupted run keeps what it finished and the next run completes it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path

from engine.core.errors import EngineError, NotFoundError
from engine.core.hashing import content_hash, content_hash_bytes
from engine.core.models import Category, Entry, Source
from engine.core.validation import now_iso, parse_category
from engine.guards.files import (
    DEFAULT_MAX_BYTES,
    FileRefusedError,
    decode,
    project_files,
    read_project_bytes,
)
from engine.guards.privacy import (
    REDACTED,
    find_secrets,
    redact_private,
    redact_secrets,
    redact_secrets_in_place,
)
from engine.markdown.chunking import MIN_PROSE_CHARS, chunk_markdown, only_headings, split_to_fit
from engine.markdown.parse import blank_html_comments, parse_markdown
from engine.markdown.rst import as_markdown
from engine.services.aliases import promoted_from, promoted_sections
from engine.services.embedding_backlog import EmbeddingBacklog
from engine.services.entries import NewEntry
from engine.services.index_report import FilePlan, IndexFreshness, IndexReport
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.services.sources import SourceSet, category_for
from engine.storage.meta import IndexMeta

__all__ = ["BATCH_CHUNKS", "MAX_FILE_BYTES", "IndexReport", "Indexer", "Progress"]

log = logging.getLogger(__name__)

MAX_FILE_BYTES = DEFAULT_MAX_BYTES
"""Files larger than this (the ``max_file_bytes`` default) are reported and skipped."""
CHUNKER_VERSION = 4
"""Bump when chunking changes, so existing indexes are re-chunked."""
BATCH_CHUNKS = 256
"""New chunks embedded and committed together."""


Progress = Callable[[int, int, str], None]
"""Called as ``progress(files_done, files_total, current_path)``."""


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
            "chunker": CHUNKER_VERSION,
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
        if problem:
            log.warning(problem)
            report.warnings.append((str(meta_path), problem))
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
        if owned and not problem and not meta_path.exists():
            problem = f"{meta_path} was missing; it will be rebuilt (unchanged chunks are kept)"
            log.warning(problem)
            report.warnings.append((str(meta_path), problem))
        gone = sorted((set(meta.file_hashes) | owned) - current)
        if only is not None:
            gone = [rel for rel in gone if rel in wanted]

        batch: list[FilePlan] = []
        for done, (rel, path) in enumerate(files, start=1):
            if progress is not None:
                progress(done - 1, len(files), rel)
            plan = self._plan_file(rel, path, meta, rechunk_all, report)
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
        removed_ids = [e.id for rel in gone for e in self.parts.mirror.by_file(rel)]
        report.files_removed = len(gone)
        report.entries_deleted += len(removed_ids)
        if not dry_run:
            self._commit(batch, gone, settings, removed_ids)
            if force:  # --force also rebuilds the derived keyword index from the store
                self.parts.records.rebuild_index()
        if progress is not None:
            progress(len(files), len(files), "")
        report.embedded = getattr(self.parts.embedder, "misses", 0) - misses_before
        report.seconds = time.perf_counter() - started
        return report

    def _plan_file(
        self,
        rel: str,
        path: Path,
        meta: IndexMeta,
        rechunk_all: bool,
        report: IndexReport,
    ) -> FilePlan | None:
        # A source was chosen by the settings (a hidden one only when named outright).
        knowledge = path.is_relative_to(self.knowledge_dir)
        try:
            data = read_project_bytes(
                self.knowledge_dir if knowledge else self.root,
                path,
                max_bytes=self.memory.config.max_file_bytes,
                allow_hidden=not knowledge,
            )
        except (FileRefusedError, NotFoundError) as exc:
            report.errors.append((rel, getattr(exc, "detail", exc.message)))
            return None
        digest = content_hash_bytes(data)
        if not rechunk_all and meta.file_hashes.get(rel) == digest:
            report.files_skipped += 1
            return None
        try:
            text = decode(data, rel)
            desired = self._chunks(rel, path, text, report)
        except (ValueError, EngineError) as exc:
            report.errors.append((rel, getattr(exc, "detail", str(exc))))
            return None
        plan = self._diff(rel, digest, desired)
        plan.aliases = promoted_from(text)
        return plan

    def _chunks(self, rel: str, path: Path, text: str, report: IndexReport) -> list[NewEntry]:
        parsed = parse_markdown(as_markdown(text, rel), rel)  # .rst: read line for line
        for warning in parsed.warnings:
            report.warnings.append((rel, warning))
        if not parsed.index:
            return []
        category = self._category(path, parsed.category)
        promoted_at = str(parsed.front_matter.get("promoted_at") or "")
        appended = promoted_sections(text)  # sections promote appended to this file
        cfg = self.memory.config
        entries = []
        body = _clean_body(parsed.body, rel, report, cfg.secret_allowlist)
        # Titles and keywords are stored too; a secret in them must not slip past.
        allow = cfg.secret_allowlist
        keywords = tuple(k for k in parsed.keywords if not find_secrets(k, allow))
        if len(keywords) < len(parsed.keywords):
            report.warnings.append((rel, "dropped a keyword that looks like a secret"))
        # A docs section of a link or a label joins a neighbour; a note may be one sentence.
        min_prose = 0 if path.is_relative_to(self.knowledge_dir) else MIN_PROSE_CHARS
        for chunk in chunk_markdown(body, cfg.chunk_size, cfg.chunk_overlap, min_prose):
            if only_headings(chunk.own_text):
                continue  # a bare heading is not knowledge yet
            line = chunk.line_start + parsed.body_line_offset
            when = next((t for first, last, t in appended if first <= line <= last), promoted_at)
            for piece in split_to_fit(chunk.content):
                if piece == REDACTED:
                    continue  # nothing left to index once the private block is gone
                # Store-ready text (secrets redacted), so its hash matches what is stored.
                text, kinds = self.memory.prepare_content(piece, secret_policy="redact", path=rel)
                for kind in kinds:
                    report.warnings.append(
                        (
                            f"{rel}:{chunk.line_start + parsed.body_line_offset}",
                            f"redacted a likely secret ({kind})",
                        )
                    )
                entries.append(
                    NewEntry(
                        content=text,
                        category=category,
                        source=Source.MARKDOWN,
                        keywords=keywords,
                        file_path=rel,
                        section_title=redact_secrets(chunk.title, find_secrets(chunk.title, allow)),
                        line_start=line,
                        line_end=chunk.line_end + parsed.body_line_offset,
                        promoted_at=when,
                    )
                )
        return entries

    def _category(self, path: Path, declared: str | None) -> Category:
        """By front matter or folder in the knowledge folder; a documentation source is
        general (its own front matter may use ``category`` for something else)."""
        if path.is_relative_to(self.knowledge_dir):
            return category_for(path.relative_to(self.knowledge_dir), declared)
        try:
            return parse_category(declared) if declared else Category.GENERAL
        except (ValueError, EngineError):
            return Category.GENERAL

    def _diff(self, rel: str, digest: str, desired: list[NewEntry]) -> FilePlan:
        plan = FilePlan(rel, digest)
        existing: dict[str, list[Entry]] = {}
        for entry in self.parts.mirror.by_file(rel):
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
    ) -> None:
        creates = [item for plan in plans for item in plan.creates]
        if creates:  # the first phase: vectors come from the cache or the backlog's run
            self.parts.entries.add_many(creates, secret_policy="redact", embed=False)
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
                meta.file_hashes = {}
                meta.settings = settings
            renewed = {plan.rel for plan in plans} | set(gone)
            meta.aliases = {k: v for k, v in meta.aliases.items() if v[0] not in renewed}
            for plan in plans:
                meta.file_hashes[plan.rel] = plan.digest
                meta.aliases.update((old, (plan.rel, line)) for old, line in plan.aliases.items())
            for rel in gone:
                meta.file_hashes.pop(rel, None)
            meta.last_indexed_at = now_iso()
            meta.save(self.memory.paths.meta_path)


def _clean_body(body: str, rel: str, report: IndexReport, allow: Collection[str]) -> str:
    """The text of a whole file, ``<private>`` blocks, secrets and comments taken out,
    line breaks kept: done before chunking, so that no chunk boundary can cut a key (or a
    private block) in two and leave half of it where no one looks for it."""
    body = blank_html_comments(redact_private(body, keep_lines=True))
    body, found = redact_secrets_in_place(body, allow, rel)
    if found:
        names = ", ".join(sorted({h.kind for h in found}))
        report.warnings.append((rel, f"redacted {len(found)} likely secret(s) ({names})"))
    return body
