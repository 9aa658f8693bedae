"""Nearest-neighbour retrieval: the query vector against every entry's vector.

Vectors come from the cheapest place that has them all: the in-memory copy
(:class:`engine.search.vector_snapshot.VectorSnapshot`, kept by long-lived processes up
to :data:`SNAPSHOT_MAX` entries), the embedding cache (one SQLite scan, no LanceDB
import), or the store of record (LanceDB, with its ANN index in large memories).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.core.models import Category, Entry
from engine.embedding.base import Embedder
from engine.embedding.document import cached_vector, document_key, row_key
from engine.search.vector_snapshot import VectorSnapshot
from engine.storage.mirror import EntryMirror
from engine.storage.records import VectorDelta

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.storage.record_store import RecordStore

log = logging.getLogger(__name__)

EXACT_IN_MEMORY_MAX = 20_000
"""Up to this many entries a one-shot search loads every vector from the embedding cache
and searches exactly in memory (tens of milliseconds) instead of importing LanceDB
(over a second); see bench/RESULTS.md."""
SNAPSHOT_MAX = 200_000
"""Up to this many entries a long-lived process (``in_memory``) keeps the exact in-memory
copy of every vector; past it, it searches the store's ANN index like a one-shot process
(``maintenance.ANN_MIN_ROWS``: the index exists from 50,000 entries). The copy costs
1.5 KB of float32 per entry, and a search reads all of it: at 1,000,000 entries 1.5 GB of
memory, over 2 GB while it loads, and a few hundred milliseconds of matrix product per
query on a shared machine, against issue 38's 3 GB and 50 ms. Below it nothing changes,
so the rankings of small memories (repo_qa, SciFact) are exact as before
(bench/RESULTS.md, issue 38 "A million entries")."""


ANN_NPROBES = 70
ANN_RERANKED = 0
"""The ANN index's settings for search: IVF partitions probed (``maintenance`` builds one
per 1,000 rows, so up to 70,000 rows every vector is read: exact), and candidates
re-ranked with the table's vectors, this many at least. The index is IVF_FLAT, whose
distances are already exact, so none is re-ranked beyond the rows returned (a refine
factor of 1, the least asked below). Chosen by recall@10 against exact search and time
on ``bench.scale``'s vectors at 10,000, 100,000 and 1,000,000 entries (``python -m
bench.ann_index``): 50 probes found 0.917–0.930 of the exact 10 at 1,000,000, 70 found
0.958–0.963 (two builds; bench/RESULTS.md, "Issue 49: the store's ANN index")."""


class VectorSearcher:
    """Cosine search over the memory's vectors, and similarities of given entries."""

    def __init__(
        self,
        mirror: EntryMirror,
        embedder: Embedder,
        store: Callable[[], RecordStore],
        *,
        in_memory: bool = False,
    ) -> None:
        self.mirror = mirror
        self.embedder = embedder
        self.store = store
        self.in_memory = in_memory
        """Keep a copy of all vectors for fast search (long-lived processes: TUI, MCP)."""
        self.index = VectorSnapshot()
        self._size: tuple[str, int] = ("", -1)
        """(``vectors_version``, entry count) when last counted."""
        self._waiting: tuple[tuple[str | None, str | None], int] = ((None, None), -1)
        """Entries waiting for their vector, counted again after each write (every write
        sets ``store_version``): with none, a search does not look its candidates up on
        the keyword search's read connection, where it waited for that search (issue 38)."""

    def entries(self) -> int:
        """The memory's entry count, counted again only when another write changed the
        vectors (``vectors_version``): a count of a million rows is a scan of an index,
        tens of milliseconds, too much for every search."""
        version = self.mirror.state("vectors_version") or ""
        if self._size[0] != version or self._size[1] < 0 or not version:
            self._size = (version, self.mirror.count())
        return self._size[1]

    def exact(self) -> bool:
        """Whether searches go through an exact copy of every vector in this process (see
        :data:`SNAPSHOT_MAX`, :data:`EXACT_IN_MEMORY_MAX`) rather than the store; a copy
        held from when the memory was smaller is let go once it is not."""
        limit = SNAPSHOT_MAX if self.in_memory else EXACT_IN_MEMORY_MAX
        if self.entries() <= limit:
            return True
        if self.index.size:
            self.index = VectorSnapshot()
        return False

    def snapshot(self) -> tuple[list[str], list[str], Any]:
        """Every entry's vector: from the embedding cache (a SQLite read, no LanceDB
        import) when it holds them all, else from the store."""
        import numpy as np

        cache = self.embedder.cache
        if cache is not None:
            rows = self.mirror.vector_keys()
            ids, categories = [r[0] for r in rows], [r[2] for r in rows]
            # One scan of the cache beats 500-key lookups several times over (88 vs 300 ms
            # for 10,000 entries), even when it holds vectors of deleted entries too.
            cached = cache.all_of(self.embedder.model_id)
            blobs = [
                cached_vector(cached, row_key(digest, source, cat, words, title), digest)
                for _, digest, cat, source, words, title in rows
            ]
            if all(b is not None for b in blobs):
                flat = np.frombuffer(b"".join(blobs), dtype=np.float32)  # type: ignore[arg-type]
                return ids, categories, flat.reshape(len(ids), self.embedder.dimension)
            log.info("embedding cache incomplete; reading vectors from the store")
        ids, categories, matrix = self.store().all_vectors()
        real = np.any(matrix != 0, axis=1)  # placeholders (not embedded yet) are all zeros
        if bool(real.all()):
            return ids, categories, matrix
        keep: list[int] = np.flatnonzero(real).tolist()
        return [ids[i] for i in keep], [categories[i] for i in keep], matrix[real]

    def unembedded_among(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` stored without their vector yet (two-phase indexing): vector
        search cannot find them, hybrid search ranks them by their keyword half."""
        if not ids:
            return set()
        stamp = (self.mirror.state("store_version"), self.mirror.state("vectors_version"))
        if self._waiting[0] != stamp or None in stamp:
            self._waiting = (stamp, self.mirror.unembedded_count())
        return self.mirror.unembedded_among(ids) if self._waiting[1] else set()

    def apply(self, before: str, after: str, delta: VectorDelta) -> None:
        """Update the in-memory copy with a write of this process (see
        :meth:`VectorSnapshot.apply`); a copy that is not kept or not current reloads later."""
        import numpy as np

        written, vectors = list(delta.written), delta.vectors
        removed = list(delta.removed)
        if written:  # a placeholder (an entry not embedded yet) is no vector to search
            matrix = np.asarray(vectors, dtype=np.float32)
            real: list[bool] = np.any(matrix != 0, axis=1).tolist()
            removed += [e.id for e, ok in zip(written, real, strict=True) if not ok]
            written = [e for e, ok in zip(written, real, strict=True) if ok]
            vectors = matrix[np.asarray(real, dtype=bool)]
        changed = (
            [e.id for e in written],
            [e.category.value for e in written],
            vectors if written else np.zeros((0, self.embedder.dimension), np.float32),
        )
        self.index.apply(before, after, changed, removed)

    def refresh(self) -> None:
        """Reload the in-memory copy if any process changed the vectors since."""
        self.index.refresh(self.mirror.state("vectors_version") or "", self.snapshot)

    def search(
        self, qvec: npt.NDArray[np.float32], limit: int, *, category: Category | None = None
    ) -> list[tuple[Entry, float]]:
        """Nearest entries: from the in-memory copy when kept (or when the memory is small
        enough that loading it beats importing LanceDB), else from LanceDB."""
        return self.with_entries(self.nearest(qvec, limit, category=category))

    def with_entries(self, hits: Sequence[tuple[str, float]]) -> list[tuple[Entry, float]]:
        """``hits`` by id as entries (those still stored), in their order."""
        entries = self.mirror.get_many([entry_id for entry_id, _ in hits])
        return [(entries[i], sim) for i, sim in hits if i in entries]

    def nearest(
        self, qvec: npt.NDArray[np.float32], limit: int, *, category: Category | None = None
    ) -> list[tuple[str, float]]:
        """:meth:`search`'s ids and similarities, no entry read (hybrid search reads the
        entries its relevance gate judges, a fraction of the candidates)."""
        if self.exact():
            self.refresh()
            return self.index.search(qvec, limit, category.value if category else None)
        where = f"category = '{category.value}'" if category is not None else None
        refine = max(1, -(-ANN_RERANKED // max(1, limit)))
        hits = self.store().nearest(qvec, limit, where=where, nprobes=ANN_NPROBES, refine=refine)
        pending = self.unembedded_among([entry_id for entry_id, _ in hits])
        return [(entry_id, sim) for entry_id, sim in hits if entry_id not in pending]

    def similarities(
        self, qvec: npt.NDArray[np.float32], entries: Sequence[Entry]
    ) -> dict[str, float]:
        """Cosine similarity of a query to entries: from the in-memory vector copy when
        kept, else the embedding cache (a SQLite lookup), else the store (LanceDB)."""
        import numpy as np

        sims: dict[str, float] = {}
        if (self.in_memory or self.index.size) and self.exact():
            self.refresh()
            sims = self.index.similarities(qvec, [e.id for e in entries])
        cache = self.embedder.cache
        if cache is not None and len(sims) < len(entries):
            wanted = [e for e in entries if e.id not in sims]
            keys = {e.id: document_key(e) for e in wanted}
            hashes = list({*keys.values(), *(e.content_hash for e in wanted)})
            cached = cache.get_many(hashes, self.embedder.model_id)
            for entry in wanted:
                blob = cached_vector(cached, keys[entry.id], entry.content_hash)
                if blob is not None:
                    sims[entry.id] = float(np.frombuffer(blob, dtype=np.float32) @ qvec)
        missing = [e.id for e in entries if e.id not in sims]
        missing = sorted(set(missing) - self.unembedded_among(missing))  # no vector to compare
        if missing:
            sims.update(_cosines(qvec, self.store().vectors_for(missing)))
        return sims


def _cosines(
    qvec: npt.NDArray[np.float32], vectors: dict[str, npt.NDArray[np.float32]]
) -> dict[str, float]:
    """Cosine similarity of the query to each vector, by id (the store's own measure).

    Read by id through the store's index of ids and compared here: an exact vector
    search restricted to the ids took 100 ms for 60 ids at 1,000,000 entries, this 19."""
    import numpy as np

    if not vectors:
        return {}
    matrix = np.stack(list(vectors.values()))
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(qvec))
    sims = (matrix @ qvec) / np.where(norms > 0, norms, 1.0)
    return dict(zip(vectors, sims.tolist(), strict=True))
