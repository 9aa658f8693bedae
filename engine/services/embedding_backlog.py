"""The second phase of indexing: embedding the entries the first phase stored without
their vector.

The first phase (:class:`engine.services.indexing.Indexer`) writes each new chunk's text,
its mirror row (and FTS5 row) and its store row at once, with an all-zero placeholder
vector unless the embedding cache already holds the text's vector, and marks it in the
mirror's ``unembedded`` table in the same transaction: keyword search finds it as soon as
that commits. :class:`EmbeddingBacklog` then embeds the marked entries a batch at a time,
outside the write lock, and writes each batch's vectors under the lock, clearing the marks
in the same mirror transaction (:meth:`engine.storage.records.Records.write`). A process
killed anywhere leaves the marks of what it had not committed, and the next run embeds
just those; the embedding cache spares it the batches the model had finished.

One process embeds a project's backlog at a time (``embed.lock``): a second one waits
(``wait=True``, the CLI) or leaves it to the first (long-lived processes).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.errors import LockTimeoutError
from engine.core.models import Entry
from engine.embedding.base import Embedder
from engine.embedding.document import document_key, embed_entries
from engine.storage.changes import Change
from engine.storage.locking import WriteLock
from engine.storage.records import Records

log = logging.getLogger(__name__)

BATCH = 256
"""Entries embedded and committed together (one store version each)."""
WAIT_FOR_OTHER = 1800.0
"""Seconds a foreground run waits for another process that is embedding the backlog."""

Progress = Callable[[int, int, str], None]
"""Called as ``progress(embedded, total, "")`` after each batch."""


@dataclass(slots=True)
class BacklogReport:
    """What one run over the backlog did."""

    embedded: int = 0
    """Entries that received their vector."""
    pending: int = 0
    """Entries still waiting when the run returned (stopped, or another process embeds)."""
    seconds: float = 0.0
    busy: bool = False
    """Another process was embedding this backlog; this run left it to that one."""


class EmbeddingBacklog:
    """Embeds the entries of one memory that wait for their vector."""

    def __init__(self, records: Records, embedder: Embedder, *, batch_size: int = BATCH) -> None:
        self.records = records
        self.mirror = records.mirror
        self.embedder = embedder
        self.batch_size = batch_size
        self.lock = WriteLock(records.paths.embed_lock_path, timeout=WAIT_FOR_OTHER)

    def pending(self) -> int:
        """How many entries wait for their vector."""
        return self.mirror.unembedded_count()

    def run(
        self,
        *,
        progress: Progress | None = None,
        stop: threading.Event | None = None,
        wait: bool = True,
    ) -> BacklogReport:
        """Embed the backlog until it is empty or ``stop`` is set (checked between
        batches). ``wait``: when another process embeds it, wait for it (then embed what
        is left) rather than return at once with ``busy`` set.

        Raises:
            LockTimeoutError: (``wait``) the other process embedded for longer than
                :data:`WAIT_FOR_OTHER` seconds.
        """
        started = time.perf_counter()
        report = BacklogReport()
        if not self.pending():
            return report
        if not wait and not self.lock.try_hold():
            report.busy, report.pending = True, self.pending()
            return report
        try:
            with self.lock.hold(timeout=None if wait else 0):
                self._drain(report, progress, stop)
        except LockTimeoutError:
            if wait:
                raise
            report.busy = True  # taken between the check and the hold
        report.pending = self.pending()
        report.seconds = time.perf_counter() - started
        return report

    def _drain(
        self, report: BacklogReport, progress: Progress | None, stop: threading.Event | None
    ) -> None:
        total = self.pending()
        while not (stop is not None and stop.is_set()):
            batch = self.mirror.unembedded(self.batch_size)
            if not batch:
                break
            report.embedded += self.embed(batch)
            total = max(total, report.embedded + self.pending())
            if progress is not None:
                progress(report.embedded, total, "")

    def embed(self, batch: Sequence[Entry]) -> int:
        """Embed ``batch`` (outside the write lock) and write the vectors of those of its
        entries that still wait for them, unchanged; returns how many were written."""
        vectors = embed_entries(self.embedder, batch)
        written: list[Entry] = []

        def plan() -> Change | None:
            ids = [e.id for e in batch]
            current = self.mirror.get_many(ids)
            waiting = self.mirror.unembedded_among(ids)
            # Re-read under the lock: counts, titles or lines may have changed meanwhile
            # (the store takes the mirror's fields); a deleted entry is not brought back.
            unchanged = {i for i, e in current.items() if i in waiting}
            rows = [
                row
                for row, e in enumerate(batch)
                if e.id in unchanged and document_key(current[e.id]) == document_key(e)
            ]
            entries = [current[batch[row].id] for row in rows]
            matrix = vectors[rows]
            gone = [i for i in waiting if i not in current]
            if not entries and not gone:
                return None
            written.extend(entries)

            def mirror_op(db: sqlite3.Connection) -> None:
                self.mirror.clear_unembedded(db, [e.id for e in entries] + gone)

            return Change(lambda store: store.upsert(entries, matrix), mirror_op)

        self.records.apply(plan)
        return len(written)
