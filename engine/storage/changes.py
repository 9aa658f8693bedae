"""The shape of one write to the store of record and its mirror, and what it reports.

A write is a :class:`Change`: what it does to the store (:data:`StoreOp`), what it does to
the mirror inside the mirror's transaction (:data:`MirrorOp`) and what it changed of the
vectors (:class:`VectorDelta`); :meth:`engine.storage.records.Records.apply` applies it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.models import Entry

if TYPE_CHECKING:
    from engine.storage.record_store import RecordStore


@dataclass(frozen=True, slots=True)
class VectorDelta:
    """What a write changed of the vectors: entries written with their vectors (row for
    row), and ids removed. Given to :attr:`Records.vector_listeners` after the commit."""

    written: Sequence[Entry] = ()
    vectors: Any = None
    removed: Sequence[str] = ()
    pulled: bool = False
    """Written by another machine, pulled from a remote store (not embedded here)."""


VectorListener = Callable[[str, str, VectorDelta], None]
"""Called as ``listener(version_before, version_after, delta)``."""

StoreOp = Callable[["RecordStore"], object]
"""What a write does to the store of record."""
MirrorOp = Callable[[sqlite3.Connection], object]
"""What a write does to the mirror, inside the mirror's write transaction."""


@dataclass(frozen=True, slots=True)
class Change:
    """One write to the store and its mirror (see :meth:`Records.apply`)."""

    store_op: StoreOp
    mirror_op: MirrorOp
    delta: VectorDelta | None = None
    """What the write changed of the vectors, for :attr:`Records.vector_listeners`."""
    vectors_changed: bool = True


@dataclass(frozen=True, slots=True)
class RepairReport:
    """What re-synchronising the keyword index with the store changed."""

    added: int
    removed: int

    @property
    def changed(self) -> bool:
        """Whether anything was out of step."""
        return bool(self.added or self.removed)
