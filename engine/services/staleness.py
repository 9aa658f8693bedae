"""Stale flags, as the faces ask for them: entries whose cited code changed, and why.

Stale flags are derived data (:mod:`engine.freshness`): a citation file that cannot be
read is logged and reads as "none stale", never as a failed listing or search.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.models import Entry, SearchResult

if TYPE_CHECKING:
    from engine.services.parts import Parts

log = logging.getLogger(__name__)


def stale_reasons(parts: Parts, ids: Sequence[str]) -> dict[str, str]:
    """Why each of these entries is stale, by id (fresh ones are absent)."""
    try:
        return parts.freshness.stale(list(ids)) if ids else {}
    except Exception:
        log.warning("could not check entries for stale citations", exc_info=True)
        return {}


def marked(parts: Parts, results: Sequence[SearchResult]) -> tuple[SearchResult, ...]:
    """``results`` with ``stale`` and its reason set on those whose entry is stale."""
    try:
        return parts.freshness.mark(results)
    except Exception:  # a broken citation file must not fail a search
        log.warning("could not check results for stale citations", exc_info=True)
        return tuple(results)


def stale_entries(parts: Parts, entries: Sequence[Entry]) -> list[tuple[Entry, str]]:
    """Every stale one of ``entries`` with its reason, most recently updated first."""
    by_id = {e.id: e for e in entries}
    found = parts.freshness.all_stale(by_id)
    rows = [(by_id[i], why) for i, why in found.items() if i in by_id]
    rows.sort(key=lambda row: row[0].updated_at, reverse=True)
    return rows


def mark_reviewed(parts: Parts, entries: Sequence[Entry]) -> None:
    """Record what these notes cite as of now: reviewed, they are no longer stale."""
    parts.freshness.note_citations(entries)
