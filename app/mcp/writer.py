"""The server's one scheduling of engine work: adds written together by one thread, and
searches run a few at a time.

A server over HTTP answers many sessions at once, each request in a worker thread. Were
each ``memory_add`` written by its own request thread, concurrent adds would queue for the
project's write lock one store commit each, and each would take turns with every search
thread at each of its SQLite, model and store calls. Here the request hands its add to
:class:`Writer` and waits for the answer; the writer's one thread takes every add waiting
(up to :data:`MAX_BATCH`) and stores them with one :func:`engine.add_together`: one
embedding batch, one write lock, one store commit, one mirror transaction. An add alone
is a batch of one. A batch that fails is written again one add at a time, so each add gets
its own answer or error.

Searches never wait for an add: each runs in a worker thread of its own, but at most
:data:`SEARCHES_AT_ONCE` at once (:attr:`Writer.searches`); the others wait their turn
on the event loop, where waiting costs nothing. Sixteen sessions searching back to back
on two cores otherwise ran sixteen searches at once, each taking its turn at the
interpreter lock, at LanceDB's one loop thread and at the CPUs with the writer's thread
and the server's event loop: an add waited for its batch behind all of them (add p95
551–689 ms, against 226–268 ms with three at once at the same throughput, on two cores;
bench/RESULTS.md, issue 49 "adds, session 18"). The engine's :meth:`Memory.add` and
:meth:`Memory.search` stay plain and synchronous: the scheduling is the server's, which
has the sessions.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from engine import AddResult, Memory, NewEntry

log = logging.getLogger("memory_tui.mcp")

MAX_BATCH = 256
"""Most adds written in one batch (the indexer's batch size)."""


def _cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 2


SEARCHES_AT_ONCE = _cpus() + 1
"""Searches run at once: one per CPU this process may use, and one more for the moments a
search waits (its model, SQLite and LanceDB steps leave the interpreter lock). On two
cores, three answered adds in 138–151 / 226–268 ms (p50 / p95) at 53–61 calls/s, four in
159–181 / 269–323 ms at 51–64 calls/s, six and sixteen slower still (sixteen: 357–414 /
551–689 ms), at the same or a lower throughput (bench/RESULTS.md)."""
CLOSE_WAIT = 30.0
"""Seconds :meth:`Writer.close` waits for the adds already handed over to be written."""

AddTogether = Callable[["Memory", Sequence["NewEntry"]], "list[AddResult]"]


@dataclass(frozen=True, slots=True)
class _Add:
    memory: Memory
    item: NewEntry
    answer: Future[AddResult] = field(default_factory=Future)


def _engine_add_together(memory: Memory, items: Sequence[NewEntry]) -> list[AddResult]:
    from engine import add_together

    return add_together(memory, items)


class Writer:
    """Writes the adds handed to :meth:`add` in batches, from one thread; admits
    searches :data:`SEARCHES_AT_ONCE` at a time (:attr:`searches`)."""

    def __init__(
        self,
        add_together: AddTogether = _engine_add_together,
        searches_at_once: int = SEARCHES_AT_ONCE,
    ) -> None:
        self._add_together = add_together
        self.searches = anyio.CapacityLimiter(searches_at_once)
        """The worker threads a search may run in: ``anyio.to_thread.run_sync(...,
        limiter=writer.searches)``."""
        self._queue: queue.SimpleQueue[_Add | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._closed = False
        self.adds = 0
        """Adds written (or refused), since the server started."""
        self.batches = 0
        """Batches written, a batch of one included: fewer than :attr:`adds` when adds
        arrived together."""

    def add(self, memory: Memory, item: NewEntry) -> AddResult:
        """Store ``item`` in ``memory`` with whatever other adds wait, and return its result
        (blocking), or raise what storing it alone raises.

        Raises:
            EngineError: the add was refused (as :meth:`Memory.add` refuses it).
            RuntimeError: the server is closing.
        """
        pending = _Add(memory, item)
        with self._starting:
            if self._closed:
                raise RuntimeError("the server is closing: the add was not stored")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mcp-writer", daemon=True)
                self._thread.start()
            self._queue.put(pending)
        return pending.answer.result()

    def close(self, timeout: float = CLOSE_WAIT) -> None:
        """Write the adds already handed over, then stop the thread (refusing new adds)."""
        with self._starting:
            self._closed = True
            thread = self._thread
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("adds were still being written after %.0f s", timeout)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.append(more)
            for memory in dict.fromkeys(p.memory for p in batch):  # one memory, in practice
                self._write([p for p in batch if p.memory is memory])

    def _write(self, batch: list[_Add]) -> None:
        self.batches += 1
        self.adds += len(batch)
        try:
            results = self._add_together(batch[0].memory, [p.item for p in batch])
        except BaseException as exc:  # whatever it is, every add of the batch is answered
            if len(batch) == 1:
                batch[0].answer.set_exception(exc)
                return
            for pending in batch:  # each add's own answer: its error, or its entry stored
                self._write_alone(pending)
            return
        for pending, result in zip(batch, results, strict=True):
            pending.answer.set_result(result)

    def _write_alone(self, pending: _Add) -> None:
        self.batches += 1
        try:
            (result,) = self._add_together(pending.memory, [pending.item])
        except BaseException as exc:
            pending.answer.set_exception(exc)
        else:
            pending.answer.set_result(result)
