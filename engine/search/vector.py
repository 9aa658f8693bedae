"""Nearest-neighbour retrieval: every vector a search reads comes from the store of record.

The nearest entries to a query are one LanceDB query on the store
(:meth:`engine.storage.record_store.RecordStore.nearest`: the category as a prefilter,
through the store's ANN index once it has one), and the similarities of keyword-only
candidates are their stored vectors read by id
(:meth:`engine.storage.record_store.RecordStore.vectors_for`). One path, whatever the
memory's size or the kind of process; nothing is copied, so a search sees what any
process committed before it began, without a reload.

An entry stored before its vector (two-phase indexing: an all-zero placeholder in the
store, a mark in the mirror's ``unembedded`` table) is never returned nor compared. The
mirror's marks decide, since they are what the embedding backlog works from and a repair
sets them from the store's placeholders: the nearest entries are asked for with one more
per entry waiting (up to ``limit`` more) and those marked are dropped, and a candidate
marked is not read. LanceDB itself leaves a zero vector out of a cosine search (its
distance is undefined), and a zero vector read by id compares as 0, never NaN.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from engine.core.models import Category, Entry
from engine.storage.mirror import EntryMirror

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.search.fusion import Fused
    from engine.storage.lance_search import Underway
    from engine.storage.record_store import RecordStore

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
    """Cosine search over the store's vectors, and similarities of given entries."""

    def __init__(self, mirror: EntryMirror, store: Callable[[], RecordStore]) -> None:
        self.mirror = mirror
        self.store = store
        self._waiting: tuple[tuple[str | None, str | None], int] = ((None, None), -1)
        """Entries waiting for their vector, counted again after each write (every write
        sets ``store_version``): with none, a search does not look its candidates up on
        the keyword search's read connection, where it waited for that search (issue 38)."""

    def waiting(self) -> int:
        """How many entries are stored without their vector yet (counted after a write)."""
        stamp = (self.mirror.state("store_version"), self.mirror.state("vectors_version"))
        if self._waiting[0] != stamp or None in stamp:
            self._waiting = (stamp, self.mirror.unembedded_count())
        return self._waiting[1]

    def unembedded_among(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` stored without their vector yet (two-phase indexing): vector
        search cannot find them, hybrid search ranks them by their keyword half."""
        if not ids or not self.waiting():
            return set()
        return self.mirror.unembedded_among(ids)

    def search(
        self, qvec: npt.NDArray[np.float32], limit: int, *, category: Category | None = None
    ) -> list[tuple[Entry, float]]:
        """The nearest entries, best first, with their cosine similarity."""
        return self.with_entries(self.nearest(qvec, limit, category=category))

    def search_each(
        self, qvecs: npt.NDArray[np.float32], limit: int
    ) -> list[list[tuple[Entry, float]]]:
        """:meth:`search` for each row of ``qvecs``, in one query of the store; entries
        waiting for their vector are left out, as :meth:`nearest` leaves them out."""
        if limit <= 0 or not len(qvecs):
            return [[] for _ in range(len(qvecs))]
        waiting = self.waiting()
        asked = limit + min(waiting, limit)
        refine = max(1, -(-ANN_RERANKED // asked))
        found = self.store().nearest_each(qvecs, asked, nprobes=ANN_NPROBES, refine=refine)
        ids = [entry_id for hits in found for entry_id, _ in hits]
        pending = self.mirror.unembedded_among(ids) if waiting else set()
        kept = [[h for h in hits if h[0] not in pending][:limit] for hits in found]
        return [self.with_entries(hits) for hits in kept]

    def with_entries(self, hits: Sequence[tuple[str, float]]) -> list[tuple[Entry, float]]:
        """``hits`` by id as entries (those still stored), in their order."""
        entries = self.mirror.get_many([entry_id for entry_id, _ in hits])
        return [(entries[i], sim) for i, sim in hits if i in entries]

    def nearest(
        self, qvec: npt.NDArray[np.float32], limit: int, *, category: Category | None = None
    ) -> list[tuple[str, float]]:
        """:meth:`search`'s ids and similarities, no entry read (hybrid search reads the
        entries its relevance gate judges, a fraction of the candidates): the store's
        query, with the ANN settings above."""
        return self.nearest_started(qvec, limit, category=category).result()

    def nearest_started(
        self, qvec: npt.NDArray[np.float32], limit: int, *, category: Category | None = None
    ) -> Underway[list[tuple[str, float]]]:
        """:meth:`nearest` under way while the caller works on (hybrid search ranks by
        keyword meanwhile; :class:`~engine.storage.lance_search.Underway`)."""
        from engine.storage.lance_search import Underway

        if limit <= 0:
            return Underway.ready([])
        where = f"category = '{category.value}'" if category is not None else None
        waiting = self.waiting()
        asked = limit + min(waiting, limit)
        refine = max(1, -(-ANN_RERANKED // asked))
        store = self.store()
        found = store.nearest_started(qvec, asked, where=where, nprobes=ANN_NPROBES, refine=refine)

        def kept(hits: list[tuple[str, float]]) -> list[tuple[str, float]]:
            if waiting:
                pending = self.mirror.unembedded_among([entry_id for entry_id, _ in hits])
                hits = [(entry_id, sim) for entry_id, sim in hits if entry_id not in pending]
            return hits[:limit]

        return found.then(kept)

    def similarities(
        self, qvec: npt.NDArray[np.float32], entries: Sequence[Entry]
    ) -> dict[str, float]:
        """Cosine similarity of a query to entries, their vectors read from the store by
        id; entries waiting for their vector have none."""
        return self.similarities_of(qvec, [e.id for e in entries])

    def similarities_of(
        self, qvec: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> dict[str, float]:
        """:meth:`similarities` by entry id, in one read of the store."""
        return self.similarities_started(qvec, ids).result()

    def similarities_started(
        self, qvec: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> Underway[dict[str, float]]:
        """:meth:`similarities_of` under way while the caller works on (the gate judges
        the candidates whose similarity it knows meanwhile)."""
        from engine.storage.lance_search import Underway

        wanted = sorted(set(ids) - self.unembedded_among(ids))
        if not wanted:
            return Underway.ready({})
        return self.store().vectors_started(wanted).then(lambda found: _cosines(qvec, found))


class CandidateSimilarities:
    """The similarities hybrid search's gate asks for, batch by batch, of the candidates
    that only keyword search found (``candidates``, in fused order): the first batch's
    are read by id, and at the next call every candidate left, in one read. A search
    reads the store by id twice at most: a query that found nothing relevant was judged
    up to ten batches deep, one read each (3 ms apiece at 10,000 entries, idle). Each
    read is handed back under way (:class:`~engine.storage.lance_search.Underway`).
    A candidate whose similarity is ``known`` already (the nearest query listed it past
    the fused depth: :data:`engine.search.searcher.NEAREST_LISTED`) is not read."""

    def __init__(
        self,
        vectors: VectorSearcher,
        candidates: Sequence[str],
        known: Mapping[str, float] | None = None,
    ) -> None:
        self._vectors = vectors
        self._known: dict[str, float] = dict(known or {})
        self._candidates = [c for c in candidates if c not in self._known]
        self._asked: set[str] = set(self._known)

    def __call__(
        self, qvec: npt.NDArray[np.float32], batch: Sequence[Fused]
    ) -> Underway[dict[str, float]]:
        """The similarities of the candidates of ``batch`` that only keyword search found."""
        from engine.storage.lance_search import Underway

        unknown = [c.id for c in batch if c.vector_similarity is None]
        wanted = [i for i in unknown if i not in self._asked]
        reading: Underway[dict[str, float]] = Underway.ready({})
        if wanted:
            if self._asked:  # the next batch: every candidate not read yet, at once
                wanted = list(dict.fromkeys([*wanted, *self._candidates]).keys() - self._asked)
            reading = self._vectors.similarities_started(qvec, wanted)
            self._asked.update(wanted)

        def known(found: dict[str, float]) -> dict[str, float]:
            self._known.update(found)
            return {i: self._known[i] for i in unknown if i in self._known}

        return reading.then(known)


def _cosines(
    qvec: npt.NDArray[np.float32], vectors: dict[str, npt.NDArray[np.float32]]
) -> dict[str, float]:
    """Cosine similarity of the query to each vector, by id (the store's own measure;
    a zero vector compares as 0).

    Read by id through the store's index of ids and compared here: an exact vector
    search restricted to the ids took 100 ms for 60 ids at 1,000,000 entries, this 19."""
    import numpy as np

    if not vectors:
        return {}
    matrix = np.stack(list(vectors.values()))
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(qvec))
    sims = (matrix @ qvec) / np.where(norms > 0, norms, 1.0)
    return dict(zip(vectors, sims.tolist(), strict=True))
