"""A search's reads of the store through LanceDB's async API, on one event-loop thread.

LanceDB's synchronous API hands each step of a query (the table's schema, its version,
the query, each batch of rows) to LanceDB's background event-loop thread and waits for
the answer: 5 to 7 round trips between two threads a query, each a wake-up that waits
for a core on a busy machine. Here each read of a search (the nearest query, the
keyword-only candidates' vectors by id) and the near-duplicate query of a batch of adds
is one coroutine on LanceDB's async API. A search's reads are handed to an event loop
the store owns, running in a thread of its own (:class:`ReadLoop`, started by the first
read, stopped when the memory closes): the caller hands the read over once and waits
once, and meanwhile works on. The add's near-duplicate query runs to its end on an event
loop of the calling thread (the server's writer), as before: it waits behind no search.

A hybrid search ranks by keyword in SQLite while the nearest query runs, and the gate
judges the candidates whose similarity it knows while the others' vectors are read; the
caller's own thread never runs LanceDB's steps, so SQLite's work and LanceDB's Python
steps go on side by side (SQLite lets go of the interpreter lock while a statement
runs).
Measured against running the read's steps in the caller's thread between SQLite's
statements, alternately in one process: bench/RESULTS.md, "Issue 49 (session 34)".

The async table is a second handle on the same table, opened through
``lancedb.connect_async`` with the store's own session (one cache of index pages and
manifests) and the same consistency (every read sees the latest commit). Writes, and
the store's other reads (entries, counts, scans), keep the synchronous table.

A store on object storage keeps LanceDB's synchronous API for the same reads (its table
stays on one version between looks, :mod:`.remote_table`, which a second handle would
not follow; a round trip between threads is nothing beside one to the object store):
:func:`can_run` says which.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import Future
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
    """Whether a store's reads run on its read loop: a local store (``remote`` None)."""
    return remote is None


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
    at the latest version (as the synchronous connection reads), every read run on the
    store's :class:`ReadLoop`."""

    def __init__(self, path: str, session: Any) -> None:
        self.path = path
        self.session = session
        self.loop = ReadLoop()
        self._table: Any = None

    def read(
        self, near: Nearest | None, ids: Sequence[str]
    ) -> tuple[pa.Table | None, list[pa.Table]]:
        """The ``id`` and ``_distance`` of ``near``'s rows (None when not asked), and the
        ``id`` and ``vector`` of the rows ``ids`` (one table per 500 ids), the queries
        issued together."""
        return self.start(near, ids).result()

    def start(
        self, near: Nearest | None, ids: Sequence[str]
    ) -> Underway[tuple[pa.Table | None, list[pa.Table]]]:
        """:meth:`read` under way: the caller works on while LanceDB answers."""

        async def reads() -> tuple[pa.Table | None, list[pa.Table]]:
            table = await self._opened()
            found = [_by_id(table, part) for part in id_lists(ids)]
            if near is None:
                return None, list(await asyncio.gather(*found))
            nearest, *rows = await asyncio.gather(_nearest(table, near), *found)
            return nearest, rows

        return self.loop.start(reads())

    def read_each(self, near: Nearest) -> pa.Table:
        """The ``id``, ``_distance`` and ``query_index`` (the row of ``near.vector`` each
        answers, when it holds more than one) of the rows nearest each row of
        ``near.vector`` (n, dimension): LanceDB's multi-vector query (the near-duplicate
        check of a batch of adds). Run to its end on an event loop of the caller's thread
        made for it, not on the read loop: the writer's check neither waits behind the
        searches' reads nor adds a thread to the add's path; on the read loop only where
        the caller's thread runs an event loop already (one loop cannot run inside
        another)."""

        async def reads() -> pa.Table:
            return await _nearest(await self._opened(), near)

        if _loop_running():
            return self.loop.start(reads()).result()
        loop = asyncio.new_event_loop()  # never set as the thread's: nothing changes
        try:
            return loop.run_until_complete(reads())
        finally:
            loop.close()

    def close(self) -> None:
        """Stop the read loop (a read after this starts it again)."""
        self.loop.close()

    async def _opened(self) -> Any:
        if self._table is None:
            import lancedb

            db = await lancedb.connect_async(
                self.path, read_consistency_interval=timedelta(0), session=self.session
            )
            self._table = await db.open_table(TABLE)
        return self._table


class ReadLoop:
    """An event loop in a thread of its own, which runs the reads handed to it
    (:meth:`start`): started by the first, stopped by :meth:`close`. Reads from many
    threads (a server's sessions) share it: each is a coroutine that waits on LanceDB's
    runtime, so they do not queue behind each other. A daemon thread: a process that
    never closes its memory still exits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self, reads: Coroutine[Any, Any, T]) -> Underway[T]:
        """``reads`` handed to the loop, under way."""
        future = asyncio.run_coroutine_threadsafe(reads, self._running())
        return Underway(future.result, lambda: _given_up(future))

    def close(self) -> None:
        """Stop the loop and wait for its thread (reads still under way are cancelled)."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join()

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=_serve, args=(loop,), name="memory-tui-reads", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop


def _serve(loop: asyncio.AbstractEventLoop) -> None:
    """The read loop's thread: run until stopped, then cancel what is left and close."""
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        left = asyncio.all_tasks(loop)
        for task in left:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
        loop.close()


def _loop_running() -> bool:
    """Whether this thread runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _given_up(future: Future[Any]) -> None:
    """A read given up unanswered: cancelled on the loop, nothing left to wait for."""
    future.cancel()


@dataclass(frozen=True, slots=True)
class Underway(Generic[T]):
    """A read under way, whose answer :meth:`result` waits for: the caller works on
    meanwhile (a hybrid search ranks by keyword in SQLite while LanceDB looks for the
    nearest vectors)."""

    result: Callable[[], T]
    """The read's answer, waited for (or its error); asked again, the same answer."""
    close: Callable[[], None]
    """Give the read up unanswered; after :meth:`result`, nothing."""

    def then(self, finish: Callable[[T], U]) -> Underway[U]:
        """This read, its answer passed through ``finish``."""
        return Underway(lambda: finish(self.result()), self.close)

    @staticmethod
    def ready(value: U) -> Underway[U]:
        """A read already answered (the synchronous API's)."""
        return Underway(lambda: value, lambda: None)


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
