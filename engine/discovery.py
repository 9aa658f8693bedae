"""Turning codebase analysis into ``discovery`` entries, replacing the previous ones.

All entries with source ``discovery`` belong to the analyzer: a new analysis keeps
those whose text is unchanged, adds the new ones and deletes the rest, so re-running
it never piles up duplicates.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine.analyzer import Analysis, analyze, discovery_drafts
from engine.hashing import content_hash
from engine.memory import Memory, NewEntry, now_iso
from engine.meta import IndexMeta
from engine.models import Category, Source

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DiscoveryReport:
    """What an analysis found and changed."""

    analysis: Analysis
    created: int
    kept: int
    deleted: int


def run_discovery(memory: Memory) -> DiscoveryReport:
    """Analyse the project and bring its discovery entries up to date."""
    analysis = analyze(memory.paths.root)
    drafts = discovery_drafts(analysis)
    existing = {e.content_hash: e for e in memory.list(source=Source.DISCOVERY)}
    wanted: dict[str, NewEntry] = {}
    for draft in drafts:
        item = NewEntry(
            content=draft.content,
            category=Category.DISCOVERY,
            source=Source.DISCOVERY,
            keywords=draft.keywords[:10],
            file_path=draft.file_path,
            section_title=draft.section_title,
        )
        text, _ = memory.prepare_content(item.content, secret_policy="redact")
        wanted.setdefault(content_hash(text), item)
    creates = [item for digest, item in wanted.items() if digest not in existing]
    stale = [e.id for digest, e in existing.items() if digest not in wanted]
    if creates:
        memory.add_many(creates, secret_policy="redact")
    if stale:
        memory.delete_many(stale)
    with memory.lock.hold():
        meta, _ = IndexMeta.load(memory.paths.meta_path)
        meta.discovery = {
            "lastRunAt": now_iso(),
            "complete": True,
            "files": analysis.files,
        }
        meta.save(memory.paths.meta_path)
    return DiscoveryReport(analysis, len(creates), len(wanted) - len(creates), len(stale))
