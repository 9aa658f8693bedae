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


_BLAS_LIMITED = False


def single_threaded_blas() -> None:
    """Make BLAS use one thread, once for the process. A matrix-vector product is bound by
    memory bandwidth, and OpenBLAS's threads, spinning against other processes for two
    cores, made it 20x slower (20 ms instead of 1 ms at 10,000 entries, under load). Set
    once rather than around each product: threadpoolctl's context looked the libraries up
    again on every search (about 4 ms of a 15 ms hybrid search at 10,000 entries)."""
    global _BLAS_LIMITED
    if not _BLAS_LIMITED:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
        _BLAS_LIMITED = True


class VectorSnapshot:
    """Exact cosine search over a snapshot of the store's vectors."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: str | None = None
        self._ids: list[str] = []
        self._categories: Any = None
        self._matrix: Any = None
        self._rows: dict[str, int] = {}
        self._codes: dict[str, int] = {}
        self._buffer: Any = None
        """The storage behind ``_matrix`` (rows past it are free), or None when the matrix
        is a loaded snapshot of its own."""
        self._codes_buffer: Any = None

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
            self._ids = list(ids)
            names = sorted(set(categories))
            self._codes = {name: code for code, name in enumerate(names)}
            lookup = self._codes
            self._categories = np.fromiter((lookup[c] for c in categories), np.int16, len(ids))
            self._matrix = matrix
            self._buffer = self._codes_buffer = None
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
        this process thus costs its own rows, not a reload of every vector from disk
        (20–90 ms and as many megabytes of garbage per add under load). False, and
        nothing changed, when the snapshot is not at ``before`` (it reloads on its next
        search)."""
        import numpy as np

        ids, categories, vectors = changed
        with self._lock:
            if self._version is None or self._version != before:
                return False
            drop = [self._rows[i] for i in {*removed, *ids} if i in self._rows]
            if drop:
                self._drop(drop)
            for name in categories:
                self._codes.setdefault(name, len(self._codes))
            codes = np.fromiter((self._codes[c] for c in categories), np.int16, len(ids))
            start = len(self._ids)
            self._append(np.asarray(vectors, dtype=np.float32), codes)
            self._ids.extend(ids)  # searches read only the rows of the view they took
            if drop:
                self._rows = {entry_id: row for row, entry_id in enumerate(self._ids)}
            else:
                self._rows.update((entry_id, start + n) for n, entry_id in enumerate(ids))
            self._version = after
            return True

    def _drop(self, rows: list[int]) -> None:
        """Take ``rows`` out of the snapshot (a rewrite of what is held: rare, updates and
        deletes only)."""
        import numpy as np

        keep = np.ones(len(self._ids), dtype=bool)
        keep[rows] = False
        self._ids = [i for i, k in zip(self._ids, keep.tolist(), strict=True) if k]
        self._matrix, self._categories = self._matrix[keep], self._categories[keep]
        self._buffer = self._codes_buffer = None

    def _append(self, vectors: npt.NDArray[np.float32], codes: npt.NDArray[np.int16]) -> None:
        """Add rows at the end. The matrix is a view of a buffer that doubles when full,
        so one add costs its own row, not a copy of every vector (the copy made single adds
        slower as the memory grew: 0.4 ms per add at 5,000 entries). Searches that took the
        previous view keep reading rows that stay unchanged."""
        import numpy as np

        held, extra = len(self._ids), len(vectors)
        if not extra:
            return
        buffer, codes_buffer = self._buffer, self._codes_buffer
        if buffer is None or held + extra > len(buffer):
            capacity = max(64, 2 * (held + extra))
            buffer = np.empty((capacity, vectors.shape[1]), dtype=np.float32)
            codes_buffer = np.empty(capacity, dtype=np.int16)
            if held:
                buffer[:held] = self._matrix
                codes_buffer[:held] = self._categories
            self._buffer, self._codes_buffer = buffer, codes_buffer
        assert codes_buffer is not None
        buffer[held : held + extra] = vectors
        codes_buffer[held : held + extra] = codes
        self._matrix = buffer[: held + extra]
        self._categories = codes_buffer[: held + extra]

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
        single_threaded_blas()
        scores = matrix @ query
        if code is not None:
            scores = np.where(categories == code, scores, -np.inf)
        count = min(limit, len(ids))
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    def similarities(self, query: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of the query to those of ``ids`` in the snapshot."""
        with self._lock:  # rows looked up with the matrix they index (adds extend both)
            matrix, rows = self._matrix, self._rows
            found = [(i, rows[i]) for i in ids if i in rows] if matrix is not None else []
        if not found:
            return {}
        scores = matrix[[row for _, row in found]] @ query
        return {entry_id: float(score) for (entry_id, _), score in zip(found, scores, strict=True)}
