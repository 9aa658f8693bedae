"""The shape of one write to the store of record and its mirror, and what it reports.

A write is a :class:`Change`: what it does to the store (:data:`StoreOp`) and what it does
to the mirror inside the mirror's transaction (:data:`MirrorOp`);
:meth:`engine.storage.records.Records.apply` applies it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.storage.record_store import RecordStore


StoreOp = Callable[["RecordStore"], object]
"""What a write does to the store of record."""
MirrorOp = Callable[[sqlite3.Connection], object]
"""What a write does to the mirror, inside the mirror's write transaction."""


@dataclass(frozen=True, slots=True)
class Change:
    """One write to the store and its mirror (see :meth:`Records.apply`)."""

    store_op: StoreOp
    mirror_op: MirrorOp
    vectors_changed: bool = True
    """Whether entries changed (a new ``vectors_version``: searches count them again)."""


@dataclass(frozen=True, slots=True)
class RepairReport:
    """What re-synchronising the keyword index with the store changed."""

    added: int
    removed: int

    @property
    def changed(self) -> bool:
        """Whether anything was out of step."""
        return bool(self.added or self.removed)
