"""A search's reads of the store through LanceDB's async API, in the caller's thread.

LanceDB's synchronous API hands each step of a query (the table's schema, its version,
the query, each batch of rows) to LanceDB's background event-loop thread and waits for
the answer: 5 to 7 round trips between two threads a query, each a wake-up that waits
for a core on a busy machine, in turn with every other thread's steps. Here each read
of a search (the nearest query, the keyword-only candidates' vectors by id) and the
near-duplicate query of a batch of adds is one coroutine run on an event loop of the
calling thread (a new one each time, never set as the thread's loop): the thread waits
once, on LanceDB's runtime, not on LanceDB's thread (bench/RESULTS.md, "Issue 49
(session 18)" and "Session 18: the branches merged").

The async table is a second handle on the same table, opened through
``lancedb.connect_async`` with the store's own session (one cache of index pages and
manifests) and the same consistency (every read sees the latest commit). Writes, and
the store's other reads (entries, counts, scans), keep the synchronous table.

Two callers keep LanceDB's synchronous API, for the same query: a store on object
storage (its table stays on one version between looks, :mod:`.remote_table`, which a
second handle would not follow; a round trip between threads is nothing beside one to
the object store) and a caller whose thread runs an event loop already (a coroutine
calling the blocking search directly: a loop cannot run inside another in one
thread). :func:`can_run` says which.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.storage.lance_rows import TABLE, id_lists

T = TypeVar("T")
U = TypeVar("U")

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa


def can_run(remote: object) -> bool:
    """Whether a read can run here: a local store, and no event loop running in this
    thread."""
    if remote is not None:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return True
    return False


@dataclass(frozen=True, slots=True)
class Nearest:
    """A nearest query: the ``limit`` rows nearest ``vector`` by cosine distance,
    filtered by ``where`` first, through the ANN index with ``nprobes`` partitions when
    the table has one (LanceDB ignores it otherwise), re-ranked ``refine`` times over
    when above 1 (asked only of an indexed table). ``vector`` may be a matrix
    (n, dimension): the nearest rows of each of its rows, in one query."""

    vector: npt.NDArray[np.float32]
    limit: int
    where: str | None
    nprobes: int
    refine: int


class SearchTable:
    """The async handle on a local store's table, opened by its first read: the table
    at ``path``, through ``session`` (the synchronous connection's caches), each query
    at the latest version (as the synchronous connection reads)."""

    def __init__(self, path: str, session: Any) -> None:
        self.path = path
        self.session = session
        self._table: Any = None

    def read(
        self, near: Nearest | None, ids: Sequence[str]
    ) -> tuple[pa.Table | None, list[pa.Table]]:
        """The ``id`` and ``_distance`` of ``near``'s rows (None when not asked), and the
        ``id`` and ``vector`` of the rows ``ids`` (one table per 500 ids), all read in one
        run of an event loop of this thread, the queries issued together."""
        return self.start(near, ids).result()

    def start(
        self, near: Nearest | None, ids: Sequence[str]
    ) -> Underway[tuple[pa.Table | None, list[pa.Table]]]:
        """:meth:`read` under way: the caller works on while LanceDB answers, and lets
        the read take its next steps between pieces of that work (:class:`Underway`)."""

        async def reads() -> tuple[pa.Table | None, list[pa.Table]]:
            table = await self._opened()
            found = [_by_id(table, part) for part in id_lists(ids)]
            if near is None:
                return None, list(await asyncio.gather(*found))
            if not found:  # no task of its own: the query is asked for one turn sooner
                return await _nearest(table, near), []
            nearest, *rows = await asyncio.gather(_nearest(table, near), *found)
            return nearest, rows

        return started(reads())

    def read_each(self, near: Nearest) -> pa.Table:
        """The ``id``, ``_distance`` and ``query_index`` (the row of ``near.vector`` each
        answers, when it holds more than one) of the rows nearest each row of
        ``near.vector`` (n, dimension): LanceDB's multi-vector query, one run of an event
        loop of this thread (the near-duplicate check of a batch of adds)."""

        async def reads() -> pa.Table:
            return await _nearest(await self._opened(), near)

        return _run(reads())

    async def _opened(self) -> Any:
        if self._table is None:
            import lancedb

            db = await lancedb.connect_async(
                self.path, read_consistency_interval=timedelta(0), session=self.session
            )
            self._table = await db.open_table(TABLE)
        return self._table


def _run(reads: Coroutine[Any, Any, T]) -> T:
    """``reads`` run to the end on an event loop made for it, never set as the thread's
    loop: nothing of the caller's changes."""
    return started(reads).result()


@dataclass(frozen=True, slots=True)
class Underway(Generic[T]):
    """A read under way in this thread, whose answer :meth:`result` waits for.

    LanceDB answers each step of a query (its plan, then its batches) from its own
    runtime, and needs a turn of the caller's event loop between two steps to be asked
    for the next. :meth:`step` gives the read that turn without waiting, so the caller
    can do work of its own meanwhile and let the read move on between pieces of it: a
    hybrid search runs its keyword statements in SQLite while LanceDB looks for the
    nearest vectors (bench/RESULTS.md, "Issue 49 (session 19)"). One thread, no lock:
    the read's steps run only where the caller calls :meth:`step` or :meth:`result`.
    """

    step: Callable[[], None]
    """Let the read take the steps whose answers are in; never waits."""
    result: Callable[[], T]
    """The read's answer, waited for (or its error); asked again, the same answer."""
    close: Callable[[], None]
    """Give the read up unanswered (nothing is left open); after :meth:`result`, nothing."""

    def then(self, finish: Callable[[T], U]) -> Underway[U]:
        """This read, its answer passed through ``finish``."""
        return Underway(self.step, lambda: finish(self.result()), self.close)

    @staticmethod
    def ready(value: U) -> Underway[U]:
        """A read already answered (the synchronous API's)."""
        return Underway(lambda: None, lambda: value, lambda: None)


def started(reads: Coroutine[Any, Any, T]) -> Underway[T]:
    """``reads`` begun on an event loop made for it (never set as the thread's loop:
    nothing of the caller's changes), up to its first wait on LanceDB."""
    loop = asyncio.new_event_loop()
    task = loop.create_task(reads)

    def step() -> None:
        if not loop.is_closed() and not task.done():
            loop.call_soon(loop.stop)  # asyncio: one pass over what is ready, then stop
            loop.run_forever()

    def result() -> T:
        if loop.is_closed():
            return task.result()
        try:
            return loop.run_until_complete(task)
        finally:
            loop.close()

    def close() -> None:
        if not loop.is_closed():
            task.cancel()
            try:
                loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
            finally:
                loop.close()

    step()
    return Underway(step, result, close)


async def _nearest(table: Any, near: Nearest) -> pa.Table:
    query = table.query().nearest_to(near.vector)  # a matrix's rows: one query each
    query = query.distance_type("cosine").nprobes(near.nprobes)
    if near.refine > 1:
        query = query.refine_factor(near.refine)
    if near.where:
        query = query.where(near.where)
    return await query.select(["id", "_distance"]).limit(near.limit).to_arrow()


async def _by_id(table: Any, part: str) -> pa.Table:
    """The ``id`` and ``vector`` of the rows whose ids are the quoted list ``part``
    (through the index of ids)."""
    return await table.query().where(f"id IN ({part})").select(["id", "vector"]).to_arrow()
