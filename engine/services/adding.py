"""Adding one note: prepared once, checked for a near duplicate, written under one lock.

The content is checked, redacted and hashed once (:meth:`EntryService.prepare`); the
entry as it will be stored is looked up among its nearest stored neighbours
(:mod:`engine.services.near_duplicates`, embedded through the cache, so the write does
not embed it again); the write then takes the write lock once, for the duplicate check
and the store and mirror change together (:meth:`engine.storage.records.Records.apply`),
with whatever adds other threads of this process wait to write (:mod:`.add_batch`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.services.entries import AddResult, NewEntry
from engine.services.near_duplicates import find_near_duplicate

if TYPE_CHECKING:
    from engine.services.parts import Parts


def add_checked(parts: Parts, item: NewEntry) -> AddResult:
    """Add one entry, looking for a near duplicate first; the ``near_duplicate`` setting
    says whether one is reported (and the entry added), skipped or not looked for."""
    with parts.writes_first.writing():
        (prepared,) = parts.entries.prepare([item])
        policy = parts.config.near_duplicate
        near = None
        if policy != "keep" and parts.mirror.count():
            parts.store()  # a missing store refuses here, before the model loads
            near = find_near_duplicate(parts.embedder, parts.vectors, prepared.entry)
        if near is not None and policy == "skip":
            return AddResult(near.entry, False, near_duplicate=near)
        result = parts.add_batcher.add(prepared)  # with the adds other threads wait to write
    return replace(result, near_duplicate=near) if result.created and near else result
