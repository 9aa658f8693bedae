"""A query of the store answered on the calling thread, not on LanceDB's shared loop.

LanceDB's synchronous API runs every call of every thread of a process on one thread of
its own (``lancedb.background_loop``): each step of a query (its plan, each batch read,
the version looked at) is handed to that thread and waited for, in turn with every other
thread's steps. In a server answering 16 sessions, the near-duplicate check of a batch of
adds (13.8 ms alone) waited there behind the searches' 5–7 steps each, and was 61 % of
the adds' time (issue 49). Here the same query goes through LanceDB's public async API
(``lancedb.connect_async``) on an event loop the calling thread makes for the call
(:func:`asyncio.run`): its steps are answered on the caller's thread, and wait for
nothing but the interpreter lock.

The async connection shares the store's ``Session`` (its caches, so no second copy of
the manifests) and, like the store's own connection, reads the latest version every time
(``read_consistency_interval`` 0), so it sees what was committed before the call. Used
for a local store only: a store on object storage keeps its table on one version
between looks (:mod:`engine.storage.remote_table`), which this second handle would not
follow.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from engine.storage.lance_rows import TABLE

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np
    import numpy.typing as npt

Hits = list[list[tuple[str, float]]]


class _Store(Protocol):
    path: Path
    cache: Any
    _async_table: Any


def running_here() -> bool:
    """Whether the calling thread runs an event loop already (it cannot make another)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def nearest_each(
    store: _Store, vectors: npt.NDArray[np.float32], limit: int, nprobes: int, refine: int
) -> Hits:
    """Ids and cosine similarities of the ``limit`` entries nearest to each row of
    ``vectors``, best first: one multi-vector query (``nprobes`` IVF partitions probed,
    ``refine`` times the limit re-ranked where the table has an ANN index; exact where it
    has none), on an event loop of the calling thread."""
    return asyncio.run(_nearest_each(store, vectors, limit, nprobes, refine))


async def _table(store: _Store) -> Any:
    if store._async_table is None:
        import lancedb

        db = await lancedb.connect_async(
            store.path, read_consistency_interval=timedelta(0), session=store.cache
        )
        store._async_table = await db.open_table(TABLE)
    return store._async_table


async def _nearest_each(
    store: _Store, vectors: npt.NDArray[np.float32], limit: int, nprobes: int, refine: int
) -> Hits:
    table = await _table(store)
    rows = vectors.tolist()
    query = table.vector_search(rows if len(rows) > 1 else rows[0])
    query = query.column("vector").distance_type("cosine").nprobes(nprobes)
    query = query.refine_factor(refine) if refine > 1 else query
    arrow = await query.select(["id", "_distance"]).limit(limit).to_arrow()
    hits: Hits = [[] for _ in rows]
    queries = arrow["query_index"].to_pylist() if len(rows) > 1 else [0] * arrow.num_rows
    found = zip(queries, arrow["id"].to_pylist(), arrow["_distance"].to_pylist(), strict=True)
    for n, entry_id, distance in found:
        hits[n].append((entry_id, 1.0 - float(distance)))
    for each in hits:  # nearest first within each query
        each.sort(key=lambda hit: -hit[1])
    return hits
