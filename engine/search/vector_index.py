"""An in-memory copy of the store's vectors for fast exact search.

LanceDB answers a query in tens of milliseconds even on a small table (and importing
it costs a second); a matrix product over all vectors takes about a millisecond for
10,000 entries. The TUI and the MCP server keep this copy and reload it when
``vectors_version`` in the keyword index's state changes — every write that adds,
deletes or re-embeds entries (in any process) sets a new one; counting references does
not. A one-shot CLI search of a small memory loads it once from the embedding cache.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    import numpy.typing as npt

    Snapshot = tuple[list[str], list[str], npt.NDArray[np.float32]]
    """Ids, categories and the (n, dimension) matrix of unit vectors, row for row."""


_BLAS: Any = None


def single_threaded_blas() -> Any:
    """A context in which BLAS uses one thread. A matrix-vector product is bound by
    memory bandwidth, and OpenBLAS's threads, spinning against other processes for two
    cores, made it 20x slower (20 ms instead of 1 ms at 10,000 entries, under load)."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


class VectorIndex:
    """Exact cosine search over a snapshot of the store's vectors."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: str | None = None
        self._ids: list[str] = []
        self._categories: Any = None
        self._matrix: Any = None
        self._rows: dict[str, int] = {}
        self._codes: dict[str, int] = {}

    @property
    def size(self) -> int:
        """Number of vectors held."""
        return len(self._ids)

    def refresh(self, version: str, load: Callable[[], Snapshot]) -> None:
        """Reload with ``load()`` unless the snapshot is already at ``version``."""
        if version == self._version:
            return
        with self._lock:
            if version == self._version:
                return
            import numpy as np

            ids, categories, matrix = load()
            self._ids = ids
            names = sorted(set(categories))
            self._codes = {name: code for code, name in enumerate(names)}
            lookup = self._codes
            self._categories = np.fromiter((lookup[c] for c in categories), np.int16, len(ids))
            self._matrix = matrix
            self._rows = {entry_id: row for row, entry_id in enumerate(ids)}
            self._version = version

    def apply(
        self,
        before: str,
        after: str,
        changed: tuple[Sequence[str], Sequence[str], npt.NDArray[np.float32]],
        removed: Sequence[str] = (),
    ) -> bool:
        """Bring a snapshot at version ``before`` to ``after`` in place: ``changed`` are
        the (ids, categories, vectors) written, ``removed`` the ids deleted. A write of
        this process thus costs a copy of the matrix, not a reload of every vector from
        disk (20–90 ms and as many megabytes of garbage per add under load). False, and
        nothing changed, when the snapshot is not at ``before`` (it reloads on its next
        search)."""
        import numpy as np

        ids, categories, vectors = changed
        with self._lock:
            if self._version is None or self._version != before:
                return False
            drop = [self._rows[i] for i in {*removed, *ids} if i in self._rows]
            base_ids, base_cats, base = self._ids, self._categories, self._matrix
            if drop:
                keep = np.ones(len(base_ids), dtype=bool)
                keep[drop] = False
                base_ids = [i for i, k in zip(base_ids, keep.tolist(), strict=True) if k]
                base_cats, base = base_cats[keep], base[keep]
            for name in categories:
                self._codes.setdefault(name, len(self._codes))
            codes = np.fromiter((self._codes[c] for c in categories), np.int16, len(ids))
            self._matrix = np.vstack([base, np.asarray(vectors, dtype=np.float32)])
            self._categories = np.concatenate([base_cats, codes])
            self._ids = [*base_ids, *ids]
            if drop:
                self._rows = {entry_id: row for row, entry_id in enumerate(self._ids)}
            else:
                start = len(base_ids)
                self._rows.update((entry_id, start + n) for n, entry_id in enumerate(ids))
            self._version = after
            return True

    def search(
        self, query: npt.NDArray[np.float32], limit: int, category: str | None = None
    ) -> list[tuple[str, float]]:
        """(id, cosine similarity) of the nearest entries, best first."""
        import numpy as np

        with self._lock:
            matrix, ids, categories = self._matrix, self._ids, self._categories
            code = self._codes.get(category, -1) if category is not None else None
        if matrix is None or not ids or limit <= 0:
            return []
        with single_threaded_blas():
            scores = matrix @ query
        if code is not None:
            scores = np.where(categories == code, scores, -np.inf)
        count = min(limit, len(ids))
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    def similarities(self, query: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of the query to those of ``ids`` in the snapshot."""
        with self._lock:
            matrix, rows = self._matrix, self._rows
        if matrix is None:
            return {}
        found = [(i, rows[i]) for i in ids if i in rows]
        if not found:
            return {}
        scores = matrix[[row for _, row in found]] @ query
        return {entry_id: float(score) for (entry_id, _), score in zip(found, scores, strict=True)}
