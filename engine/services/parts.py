"""What one project's memory is made of, put together once: the engine's own view of it.

:class:`Parts` composes the store of record and its mirror
(:class:`engine.storage.records.Records`), the embedder behind its cache, the writes
(:class:`engine.services.entries.EntryService`), the vector and hybrid searches
(:class:`engine.search.searcher.Searcher`) and the stale flags (:class:`Freshness`); the
writes, the searches and the stale flags are made on first use.
:class:`engine.services.memory.Memory` holds one and hands none of it out: the faces use
Memory's methods. The engine's own use cases (indexing, discovery,
promotion, health) reach the parts of the Memory they are given through :func:`parts_of`,
which the public API (``engine/__init__.py``) does not export.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Protocol

from engine.core.config import Config
from engine.embedding.base import Embedder
from engine.embedding.cache import CachedEmbedder, EmbeddingCache
from engine.storage.paths import MemoryPaths
from engine.storage.records import Records

if TYPE_CHECKING:
    from collections.abc import Sequence

    from engine.core.models import Entry
    from engine.freshness.stale import Freshness
    from engine.search.searcher import Searcher
    from engine.search.vector import VectorSearcher
    from engine.services.entries import EntryService
    from engine.storage.locking import WriteLock
    from engine.storage.mirror import EntryMirror
    from engine.storage.record_store import RecordStore

log = logging.getLogger(__name__)


class Parts:
    """The parts of one project's memory, wired together."""

    def __init__(
        self,
        paths: MemoryPaths,
        config: Config,
        embedder: Embedder,
        *,
        cache_embeddings: bool = True,
    ) -> None:
        self.paths = paths
        self.config = config
        paths.memory_dir.mkdir(parents=True, exist_ok=True)
        self.embedder: Embedder = (
            CachedEmbedder(embedder, EmbeddingCache(paths.embedding_cache_path))
            if cache_embeddings
            else embedder
        )
        self.records = Records(paths, self.embedder.dimension)
        self._freshness: Freshness | None = None
        self._entries: EntryService | None = None
        self._making = threading.Lock()  # one EntryService per process
        self._vectors: VectorSearcher | None = None
        self._searcher: Searcher | None = None
        self._searching = threading.Lock()  # one VectorSearcher and Searcher per process

    @property
    def vectors(self) -> VectorSearcher:
        """The vector search (:class:`engine.search.vector.VectorSearcher`), made on first
        use, as the hybrid search it belongs to: a process that only writes (an index
        run) imports neither."""
        return self._search_parts()[0]

    @property
    def searcher(self) -> Searcher:
        """The keyword, vector and hybrid searches (:class:`engine.search.searcher.Searcher`),
        made on first use (see :attr:`vectors`)."""
        return self._search_parts()[1]

    def _search_parts(self) -> tuple[VectorSearcher, Searcher]:
        with self._searching:
            if self._vectors is None or self._searcher is None:
                from engine.search.keyword import KeywordSearcher
                from engine.search.searcher import Searcher
                from engine.search.vector import VectorSearcher

                vectors = VectorSearcher(self.mirror, self.records.store)
                cfg = self.config
                self._searcher = Searcher(
                    KeywordSearcher(self.mirror),
                    vectors,
                    self.embedder,
                    rrf_k=cfg.rrf_k,
                    min_score=cfg.min_score,
                    keyword_weight=cfg.keyword_weight,
                    fusion=cfg.fusion,
                )
                self._vectors = vectors
            return self._vectors, self._searcher

    @property
    def entries(self) -> EntryService:
        """The writes (:class:`engine.services.entries.EntryService`), made on first use:
        their modules (content checks, the secret rules) are not imported by a process
        that only reads, such as the prompt hook."""
        with self._making:
            if self._entries is None:
                from engine.services.entries import EntryService

                self._entries = EntryService(
                    self.records, self.embedder, self.config, on_written=self.note_citations
                )
            return self._entries

    @property
    def mirror(self) -> EntryMirror:
        """The SQLite entry mirror and its keyword index."""
        return self.records.mirror

    @property
    def lock(self) -> WriteLock:
        """The project's write lock."""
        return self.records.lock

    def store(self) -> RecordStore:
        """The store of record (LanceDB is imported on first call); see
        :meth:`engine.storage.records.Records.store`."""
        return self.records.store()

    @property
    def freshness(self) -> Freshness:
        """Citations of code and stale flags (:mod:`engine.freshness`), opened on first use."""
        if self._freshness is None:
            from engine.freshness.stale import Freshness

            self._freshness = Freshness(self.paths.root, self.paths.memory_dir)
        return self._freshness

    def note_citations(self, entries: Sequence[Entry]) -> None:
        """Record what notes cite of the code; a failure here never fails the write."""
        try:
            self.freshness.note_citations(entries)
        except Exception:
            log.warning("could not record what %d entries cite", len(entries), exc_info=True)

    @property
    def base_embedder(self) -> Embedder:
        """The model behind the cache."""
        return self.embedder.model

    def close(self) -> None:
        """Release file handles (reference counts wait in the mirror; see
        :meth:`Records.close`)."""
        if self._searcher is not None:
            self._searcher.closed = True
        self.records.close()
        if self._freshness is not None:
            self._freshness.close()
        if self.embedder.cache is not None:
            self.embedder.cache.close()


class Composed(Protocol):
    """What :func:`parts_of` reads: an object (a Memory) holding its parts."""

    _parts: Parts


def parts_of(memory: Composed) -> Parts:
    """The parts of ``memory`` (a :class:`engine.services.memory.Memory`), for the
    engine's own use cases; the faces have Memory's methods instead."""
    return memory._parts
