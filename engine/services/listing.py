"""Reads that list rather than search: a page of entries with its total, and counts.

Every face lists the same way (the CLI's ``list``, MCP's ``memory_list``, the terminal
app's browsing): newest first (or most referenced), optionally of one category or
source, optionally only the stale ones, with how many match in all and why each listed
entry is stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.errors import InvalidInputError
from engine.core.models import Category, Entry, SearchResult, Source
from engine.core.validation import parse_category, parse_source
from engine.services.staleness import stale_reasons

if TYPE_CHECKING:
    from engine.services.parts import Parts

SORTS = ("recent", "refs")


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of a listing."""

    entries: tuple[Entry, ...]
    total: int
    """How many entries match the filters (with ``stale_only``: how many are stale)."""
    stale: Mapping[str, str]
    """Why each listed entry is stale, by id (fresh ones are absent)."""

    def results(self) -> tuple[SearchResult, ...]:
        """The entries as results of no query (score 0, their stale flags), in order: what
        the exporters (:func:`engine.render`) take."""
        return tuple(
            SearchResult(e, 0.0, stale=e.id in self.stale, stale_reason=self.stale.get(e.id, ""))
            for e in self.entries
        )


@dataclass(frozen=True, slots=True)
class Counts:
    """How many entries there are, by category and by source."""

    total: int
    by_category: Mapping[str, int]
    """Within the source asked for, if any."""
    by_source: Mapping[str, int]


def entries(
    parts: Parts,
    *,
    category: Category | str | None = None,
    source: Source | str | None = None,
    limit: int | None = None,
    offset: int = 0,
    sort: str = "recent",
) -> list[Entry]:
    """Entries newest first (``sort="refs"``: most referenced first, then newest),
    optionally filtered by category and source."""
    if sort not in SORTS:
        raise InvalidInputError(f"sort must be recent or refs, got {sort!r}")
    parts.records.refresh_mirror()
    return parts.mirror.recent(
        category=parse_category(category) if category is not None else None,
        source=parse_source(source) if source is not None else None,
        limit=limit,
        offset=offset,
        by_references=sort == "refs",
    )


def listing(
    parts: Parts,
    *,
    category: Category | str | None = None,
    source: Source | str | None = None,
    limit: int | None = None,
    stale_only: bool = False,
    sort: str = "recent",
) -> Listing:
    """The first ``limit`` entries (all with ``None``) that match, their total and their
    stale reasons; with ``stale_only`` the stale ones only (all are checked)."""
    found = entries(
        parts, category=category, source=source, limit=None if stale_only else limit, sort=sort
    )
    stale = stale_reasons(parts, [e.id for e in found])
    if stale_only:
        found = [e for e in found if e.id in stale]
        total = len(found)
        found = found[:limit] if limit is not None else found
    else:
        total = count(parts, category=category, source=source)
    return Listing(tuple(found), total, {e.id: stale[e.id] for e in found if e.id in stale})


def count(
    parts: Parts, *, category: Category | str | None = None, source: Source | str | None = None
) -> int:
    """Number of entries (optionally of one category, from one source)."""
    parts.records.refresh_mirror()
    return parts.mirror.count(
        category=parse_category(category) if category else None,
        source=parse_source(source) if source else None,
    )


def counts(parts: Parts, *, source: Source | str | None = None) -> Counts:
    """Entries in all, by source, and by category (within ``source`` when given)."""
    parts.records.refresh_mirror()
    mirror = parts.mirror
    wanted = parse_source(source) if source is not None else None
    if wanted is None:
        by_category = mirror.counts_by("category")
    else:
        by_category = {c.value: mirror.count(category=c, source=wanted) for c in Category}
    return Counts(mirror.count(), by_category, mirror.counts_by("source"))


def stats(parts: Parts) -> dict[str, Any]:
    """Counts by category and source, and where things are (``memory-tui stats``)."""
    mirror = parts.mirror
    return {
        "entries": mirror.count(),
        "by_category": mirror.counts_by("category"),
        "by_source": mirror.counts_by("source"),
        "files": len(mirror.file_paths()),
        "project": str(parts.paths.root),
        "memory_dir": str(parts.paths.memory_dir),
        "config": parts.config.source,
    }
