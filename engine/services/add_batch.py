"""Concurrent adds of one process written together: one lock, one commit, one mirror
transaction for every add that arrived while the previous write ran.

Written one commit each, concurrent adds spend most of their time waiting for the write
lock that the others hold. Here the first add to arrive writes everything waiting
(:meth:`EntryService.add_prepared`, which stores a batch in one write); those arriving
meanwhile wait, and the first of them writes the next batch. An add alone pays nothing
more than before: it is a batch of one. A batch that fails is written again one add at a
time, so that each add gets its own answer or error.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.services.entries import AddResult, Prepared

MAX_BATCH = 256
"""Most adds written in one batch (the indexer's batch size)."""

AddMany = Callable[[Sequence[Prepared]], list[AddResult]]


@dataclass
class _Slot:
    item: Prepared
    result: AddResult | None = None
    error: BaseException | None = None
    done: bool = field(default=False)

    def outcome(self) -> AddResult:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class AddBatcher:
    """Writes the adds of concurrent threads in batches, through ``add_many``."""

    def __init__(self, add_many: AddMany) -> None:
        self._add_many = add_many
        self._cond = threading.Condition()
        self._queue: list[_Slot] = []
        self._busy = False
        self.batches = 0
        """Batches written (a batch of one included)."""

    def add(self, item: Prepared) -> AddResult:
        """Store ``item`` (with whatever other adds wait) and return its result, or raise
        what storing it alone raises."""
        slot = _Slot(item)
        with self._cond:
            self._queue.append(slot)
            while self._busy and not slot.done:
                self._cond.wait()
            if slot.done:
                return slot.outcome()
            self._busy = True
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
        try:
            self._write(batch)
        except BaseException as exc:  # an interrupt: no add of the batch waits forever
            for waiting in batch:
                if not waiting.done:
                    self._finish(waiting, error=exc)
            raise
        finally:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
        return slot.outcome()

    def _write(self, batch: list[_Slot]) -> None:
        self.batches += 1
        try:
            results = self._add_many([s.item for s in batch])
        except Exception as exc:
            if len(batch) == 1:
                self._finish(batch[0], error=exc)
                return
            for slot in batch:  # each add's own answer: its error, or its entry stored
                try:
                    self._finish(slot, result=self._add_many([slot.item])[0])
                except Exception as own:
                    self._finish(slot, error=own)
            return
        for slot, result in zip(batch, results, strict=True):
            self._finish(slot, result=result)

    @staticmethod
    def _finish(
        slot: _Slot, *, result: AddResult | None = None, error: BaseException | None = None
    ) -> None:
        slot.result, slot.error, slot.done = result, error, True
