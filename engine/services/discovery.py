"""Turning codebase analysis into ``discovery`` entries, replacing the previous ones.

All entries with source ``discovery`` belong to the analyzer: a new analysis keeps
those whose text is unchanged, adds the new ones and deletes the rest, so re-running
it never piles up duplicates.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.analyzer import Analysis, DiscoveryDraft, analyze, discovery_drafts
from engine.analyzer.definitions import budget_order, definition_drafts
from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.parse_cache import ParseCache, analyzer_version
from engine.analyzer.topics import own_source_dirs, ranked_entry_points
from engine.core.hashing import content_hash
from engine.core.models import MAX_CONTENT_LENGTH, Category, SecretPolicy, Source
from engine.core.validation import now_iso
from engine.freshness.citations import Citation
from engine.services.entries import NewEntry
from engine.services.indexing import Progress, chunker_version
from engine.services.parts import parts_of
from engine.storage.meta import IndexMeta

if TYPE_CHECKING:
    from engine.services.memory import Memory

log = logging.getLogger(__name__)

ANALYSIS_CACHE = "analysis-cache.json"
EMBED_BATCH = 64
"""Entries embedded between two progress reports."""
"""Per-file parse results of the last discovery, in ``.claude/memory/``."""


@dataclass(frozen=True, slots=True)
class DiscoveryReport:
    """What an analysis found and changed."""

    analysis: Analysis
    created: int
    kept: int
    deleted: int
    changed_files: tuple[str, ...] = ()
    """Files added, edited or removed since the previous discovery (all, the first time)."""
    previous_run: str = ""
    """When the previous discovery ran (``""`` if never)."""
    skipped: bool = False
    """Incremental run that found nothing changed and left the entries alone."""
    parsed: int = 0
    """Files parsed in this run (the others were unchanged: their last parse was reused)."""

    def summary(self) -> dict[str, object]:
        """The analysis in brief, as plain data (the CLI's ``--json`` and the MCP tool)."""
        analysis = self.analysis
        noise = NoiseClassifier(analysis.root)
        return {
            "name": analysis.name,
            "files": int(analysis.stats.get("files", 0)),
            "languages": [
                {"language": s.language, "files": s.files, "lines": s.lines}
                for s in analysis.languages
            ],
            "sourceDirs": own_source_dirs(analysis, noise),
            "entryPoints": ranked_entry_points(analysis, noise),
            "frameworks": list(analysis.frameworks),
            "testTools": list(analysis.test_tools),
            "symbols": len(analysis.symbols),
            "entries": {"created": self.created, "kept": self.kept, "deleted": self.deleted},
            "changedFiles": list(self.changed_files),
            "previousRun": self.previous_run,
            "parsedFiles": self.parsed,
        }


FIT_SLACK = 500
"""Characters left under the entry limit by :func:`fitted`, for what redaction adds."""


def fitted(drafts: Sequence[DiscoveryDraft]) -> list[DiscoveryDraft]:
    """``drafts``, each one too long for an entry cut at its lines into parts that fit
    (``name (part 2 of 3)``), logged. The analyzer's cuts keep within the limit; where one
    does not (a table of numbers that was one part of 14,000 characters, serde_json's
    ``large_powers64.rs``), the project's other entries are still stored: one draft never
    stops ``init``."""
    out: list[DiscoveryDraft] = []
    high = MAX_CONTENT_LENGTH - FIT_SLACK
    for draft in drafts:
        if len(draft.content) <= high:
            out.append(draft)
            continue
        log.warning(
            "%s: %s is %d characters; cut to fit",
            draft.file_path,
            draft.section_title,
            len(draft.content),
        )
        pieces = _cut_at_lines(draft.content, high)
        title = draft.section_title
        out += [
            replace(draft, content=piece, section_title=f"{title} (part {n} of {len(pieces)})")
            for n, piece in enumerate(pieces, start=1)
        ]
    return out


def _cut_at_lines(text: str, high: int) -> list[str]:
    """``text`` in consecutive pieces of at most ``high`` characters, cut after a line
    where one ends within the piece (a line longer than ``high`` is cut inside it)."""
    pieces: list[str] = []
    while len(text) > high:
        cut = text.rfind("\n", 0, high) + 1 or high
        pieces.append(text[:cut].rstrip("\n"))
        text = text[cut:]
    return [*pieces, text] if text.strip() else pieces


def run_discovery(
    memory: Memory, *, incremental: bool = False, progress: Progress | None = None
) -> DiscoveryReport:
    """Analyse the project and bring its discovery entries up to date.

    The files read and their hashes are kept in ``meta.json`` (``discovery.files``). With
    ``incremental``, a run that finds no file added, edited or removed since then, by the
    same analyzer and settings (:func:`drafts_version`), changes nothing; otherwise only
    the entries whose text changed are replaced (an edited module's entry, the overview),
    the others are kept as they are.

    Long because it is one sequence (load the last hashes, analyse, diff, write under the
    lock, save the hashes) whose steps share the old and new file hashes; split apart,
    what runs under the write lock would be harder to see. ``progress(done, total, what)``
    follows the embedding of the new entries (the long part of a first run).
    """
    parts = parts_of(memory)
    previous, _ = IndexMeta.load(memory.paths.meta_path)
    before = previous.discovery.get("files")
    before = before if isinstance(before, dict) else {}
    last_run = str(previous.discovery.get("lastRunAt", ""))
    cache_path = memory.paths.memory_dir / ANALYSIS_CACHE
    cache = ParseCache(cache_path if incremental else None)
    cfg = memory.config
    noise = NoiseClassifier(
        memory.paths.root, own=cfg.analyzer_include, excluded=cfg.analyzer_exclude
    )
    analysis = analyze(memory.paths.root, cache=cache, noise=noise)
    cache.path = cache_path
    cache.save()
    changed = changed_files(before, analysis.files)
    drafted_by = drafts_version(cfg.analyzer_include, cfg.analyzer_exclude)
    same_drafts = previous.discovery.get("draftedBy") == drafted_by
    if (
        incremental
        and last_run
        and previous.discovery.get("complete")
        and same_drafts
        and not changed
    ):
        kept = memory.count(category=Category.DISCOVERY)
        return DiscoveryReport(
            analysis, 0, kept, 0, (), last_run, skipped=True, parsed=cache.misses
        )
    summaries = discovery_drafts(analysis, noise)
    items = [
        NewEntry(
            content=draft.content,
            category=Category.DISCOVERY,
            source=Source.DISCOVERY,
            keywords=draft.keywords[:10],
            file_path=draft.file_path,
            section_title=draft.section_title,
            line_start=draft.line_start,
            line_end=draft.line_end,
        )
        for draft in fitted(
            [
                *summaries,
                *definition_drafts(
                    analysis.root, budget_order(analysis), noise, summaries, analysis.scripts
                ),
            ]
        )
    ]
    edited = {(e.file_path, e.section_title) for e in memory.list(source=Source.MANUAL)}
    items = [i for i in items if (i.file_path, i.section_title) not in edited]
    existing = {e.content_hash: e for e in memory.list(source=Source.DISCOVERY)}
    wanted: dict[str, NewEntry] = {}
    texts: dict[str, str] = {}
    for item in items:
        text, _ = memory.prepare_content(
            item.content, secret_policy=SecretPolicy.REDACT, path=item.file_path
        )
        wanted.setdefault(content_hash(text), item)
        texts.setdefault(content_hash(text), text)
    creates = [item for digest, item in wanted.items() if digest not in existing]
    if progress is not None:
        _embed_ahead(memory, [t for d, t in texts.items() if d not in existing], progress)
    dropped = [e.id for digest, e in existing.items() if digest not in wanted]
    added = memory.add_many(creates, secret_policy=SecretPolicy.REDACT) if creates else []
    if dropped:
        parts.entries.delete_many(dropped)
    ids = {digest: e.id for digest, e in existing.items() if digest in wanted}
    ids.update(
        (r.entry.content_hash, r.entry.id) for r in added if r.entry.source is Source.DISCOVERY
    )
    _note_citations(memory, analysis, wanted, ids, dropped)
    with parts.lock.hold():
        meta, _ = IndexMeta.load(memory.paths.meta_path)
        meta.discovery = {
            "lastRunAt": now_iso(),
            "complete": True,
            "files": analysis.files,
            "draftedBy": drafted_by,
        }
        meta.save(memory.paths.meta_path)
    return DiscoveryReport(
        analysis,
        len(creates),
        len(wanted) - len(creates),
        len(dropped),
        changed,
        last_run,
        parsed=cache.misses,
    )


def _embed_ahead(memory: Memory, texts: list[str], progress: Progress) -> None:
    """Embed ``texts`` in batches, reporting each: the cache then serves ``add_many``."""
    for start in range(0, len(texts), EMBED_BATCH):
        progress(start, len(texts), "embedding")
        parts_of(memory).embedder.embed_documents(texts[start : start + EMBED_BATCH])
    progress(len(texts), len(texts), "")


def drafts_version(include: Sequence[str], exclude: Sequence[str]) -> str:
    """What the discovery entries were drafted by besides the files: the analyzer's version,
    the documentation chunker's (doc comments are cut by it: :func:`chunker_version`) and
    the ``analyzer_include`` / ``analyzer_exclude`` settings. An incremental run with no
    file changed still drafts again when one of them moved (a memory-tui upgrade, a setting
    that takes a folder out of the project's own code), not only when a file did."""
    settings = json.dumps([list(include), list(exclude)])
    return content_hash(f"{analyzer_version()}\n{chunker_version()}\n{settings}")[:16]


def changed_files(before: dict[str, str], now: dict[str, str]) -> tuple[str, ...]:
    """Paths added, edited or removed between two ``path → hash`` maps, sorted."""
    return tuple(sorted(p for p in set(before) | set(now) if before.get(p) != now.get(p)))


def _note_citations(
    memory: Memory,
    analysis: Analysis,
    wanted: dict[str, NewEntry],
    ids: dict[str, str],
    removed: list[str],
) -> None:
    """Each discovery entry cites the file it describes (flagged stale when that changes);
    the symbol table lets notes that name a symbol cite its file."""
    parts = parts_of(memory)
    cited: dict[str, list[Citation]] = {}
    for digest, item in wanted.items():
        entry_id = ids.get(digest)
        if entry_id is None:
            continue
        file_hash = analysis.files.get(item.file_path)
        cited[entry_id] = [Citation(item.file_path, "", file_hash)] if file_hash else []
    try:
        parts.freshness.record(cited)
        parts.freshness.index.forget(removed)
        parts.freshness.index.set_symbols((s.name, s.file) for s in analysis.symbols)
    except Exception:  # stale flags are derived; the discovery itself succeeded
        log.warning("could not record what discovery entries cite", exc_info=True)
