"""Adding notes: prepared once, checked for a near duplicate, written under one lock.

The content is checked, redacted and hashed once (:meth:`EntryService.prepare`); each
entry as it will be stored is looked up among its nearest stored neighbours
(:mod:`engine.services.near_duplicates`, embedded through the cache in one batch, so the
write does not embed them again); the write then takes the write lock once, for the
duplicate check and the store and mirror change together
(:meth:`engine.storage.records.Records.apply`). :meth:`Memory.add` is one such add;
:func:`add_together` is several, written in one write: what a server answering many
sessions does with the adds that arrive together (``app/mcp/writer.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.models import NearDuplicatePolicy
from engine.services.entries import AddResult, NewEntry
from engine.services.near_duplicates import find_near_duplicates
from engine.services.parts import Composed, parts_of

if TYPE_CHECKING:
    from engine.services.entries import NearDuplicate
    from engine.services.parts import Parts


def add_together(memory: Composed, items: Sequence[NewEntry]) -> list[AddResult]:
    """Several adds to ``memory`` (a :class:`Memory`), each as :meth:`Memory.add` makes
    it (its near duplicate looked for), stored in one write: one embedding batch, one
    write lock, one store commit. Returns one result per item, in order.

    Raises:
        EngineError: as :meth:`Memory.add` does, for the first item it refuses; nothing
            is stored then.
    """
    return add_checked(parts_of(memory), items)


def add_checked(parts: Parts, items: Sequence[NewEntry]) -> list[AddResult]:
    """Add entries, looking for each one's near duplicate first; the ``near_duplicate``
    setting says whether one is reported (and the entry added), skipped or not looked
    for. Every item is checked before anything is stored."""
    prepared = parts.entries.prepare(items)
    policy = parts.config.near_duplicate
    near: list[NearDuplicate | None] = [None] * len(prepared)
    if policy != NearDuplicatePolicy.KEEP and parts.mirror.count():
        parts.store()  # a missing store refuses here, before the model loads
        near = find_near_duplicates(parts.embedder, parts.vectors, [p.entry for p in prepared])
    skipped = [n is not None and policy == NearDuplicatePolicy.SKIP for n in near]
    kept = [p for p, skip in zip(prepared, skipped, strict=True) if not skip]
    written = iter(parts.entries.add_prepared(kept) if kept else [])
    results = []
    for close, skip in zip(near, skipped, strict=True):
        if close is not None and skip:
            results.append(AddResult(close.entry, False, near_duplicate=close))
            continue
        result = next(written)
        created_close = result.created and close is not None
        results.append(replace(result, near_duplicate=close) if created_close else result)
    return results
