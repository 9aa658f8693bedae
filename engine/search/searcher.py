"""One search: the retrievers run, their rankings fused, the gate applied.

Hybrid search over-fetches from both retrievers (:mod:`engine.search.keyword`,
:mod:`engine.search.vector`), fuses the two ranked lists by ``1 / (k + rank)``
(:mod:`engine.search.fusion`), and then applies the relevance gate
(:mod:`engine.search.gate`). Keyword and vector modes run one retriever.

If one retriever fails (no model, unreadable vector store, keyword index trouble)
the search degrades to the other and says so in :attr:`SearchResponse.warnings`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.models import (
    Category,
    Entry,
    ScoreExplanation,
    SearchMode,
    SearchResult,
    Source,
)
from engine.embedding.base import Embedder
from engine.embedding.query_cache import QueryCache
from engine.search.fusion import fuse, spread_by_file
from engine.search.gate import gate
from engine.search.keyword import KeywordHit, KeywordSearcher
from engine.search.relevance import relevant_hits
from engine.search.vector import VectorSearcher

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """Threads for the keyword half of hybrid searches (created on first use)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="memory-keyword")
        return _POOL


OVERFETCH = 4
MIN_CANDIDATES = 100


@dataclass(frozen=True, slots=True)
class SearchResponse:
    """Results of one search, and how it was carried out."""

    results: tuple[SearchResult, ...]
    mode: SearchMode
    """The mode asked for."""
    used: SearchMode
    """The mode actually run (differs when one retriever was unavailable)."""
    warnings: tuple[str, ...] = field(default=())


class Searcher:
    """Runs searches through the keyword and vector retrievers."""

    def __init__(
        self,
        keyword: KeywordSearcher,
        vectors: VectorSearcher,
        embedder: Embedder,
        *,
        rrf_k: int,
        min_score: float,
        keyword_weight: float = 1.0,
        fusion: str = "zscore",
    ) -> None:
        self.keyword = keyword
        self.vectors = vectors
        self._embedder = embedder
        self.closed = False
        """Set when the memory closes: a search still running then (a TUI worker waiting
        for the model at quit) fails quietly instead of warning about closed files."""
        self.rrf_k = rrf_k
        self.min_score = min_score
        self.keyword_weight = keyword_weight
        self.fusion = fusion
        self.query_cache = QueryCache()

    def search(
        self,
        query: str,
        *,
        mode: SearchMode,
        limit: int,
        category: Category | None = None,
        prefix_last: bool = False,
        wait_for_model: bool = True,
        min_score: float | None = None,
    ) -> SearchResponse:
        """Search; see the module docstring for the semantics of each mode.
        ``min_score`` replaces the configured similarity gate for this search.

        Long because each mode's way of degrading is spelled out next to the others.
        """
        warnings: list[str] = []
        floor = self.min_score if min_score is None else min_score
        if mode is SearchMode.KEYWORD:
            if min_score is not None:
                warnings.append("min_score applies to vector similarity: ignored in keyword mode")
            hits = self._keyword(query, limit, category, prefix_last, warnings)
            results = tuple(_keyword_result(h) for h in hits)
            return SearchResponse(results, mode, SearchMode.KEYWORD, tuple(warnings))
        depth = limit if mode is SearchMode.VECTOR else max(limit * OVERFETCH, MIN_CANDIDATES)
        keyword: Future[list[KeywordHit]] | None = None
        if mode is SearchMode.HYBRID:
            # BM25 runs while the query is embedded: SQLite and onnxruntime both release
            # the GIL, so the two halves overlap (bench/RESULTS.md).
            keyword = _pool().submit(self._keyword, query, depth, category, prefix_last, warnings)
        vector = self._vector(query, depth, category, wait_for_model, warnings)
        if keyword is None or vector is None:
            if vector is None:  # degrade to keyword search
                if keyword is not None:  # the first `limit` of the deeper list
                    hits = keyword.result()[:limit]
                else:
                    hits = self._keyword(query, limit, category, prefix_last, warnings)
                results = tuple(_keyword_result(h) for h in hits)
                return SearchResponse(results, mode, SearchMode.KEYWORD, tuple(warnings))
            qvec, vhits = vector
            kept = [
                SearchResult(
                    e,
                    max(0.0, s),
                    ScoreExplanation(vector_rank=i, vector_similarity=s, gate="similarity"),
                )
                for i, (e, s) in enumerate(vhits, start=1)
                if s >= floor
            ]
            return SearchResponse(tuple(kept), mode, SearchMode.VECTOR, tuple(warnings))
        qvec, vhits = vector
        khits = keyword.result()
        fused = spread_by_file(fuse(vhits, khits, self.rrf_k, self.keyword_weight, self.fusion))
        gated = gate(
            query,
            qvec,
            fused,
            limit,
            min_score=floor,
            similarities=self.vectors.similarities,
            prefix_last=prefix_last,
            pending=self.vectors.pending_among([h.entry.id for h in khits]),
        )
        used = SearchMode.HYBRID if not warnings else SearchMode.VECTOR
        return SearchResponse(tuple(gated), mode, used, tuple(warnings))

    def relevant(self, prompt: str) -> list[tuple[SearchResult, float]]:
        """Keyword hits that cover enough of ``prompt`` to be shown unasked (the hook),
        with their coverage, in BM25 order (:mod:`engine.search.relevance`)."""
        return [(_keyword_result(r.hit), r.coverage) for r in relevant_hits(self.keyword, prompt)]

    def _keyword(
        self,
        query: str,
        limit: int,
        category: Category | None,
        prefix_last: bool,
        warnings: list[str],
    ) -> list[KeywordHit]:
        try:
            return self.keyword.search(query, limit, category=category, prefix_last=prefix_last)
        except Exception as exc:  # a broken keyword index must not fail the search
            if not self.closed:
                log.warning("keyword search failed: %s", exc)
            warnings.append(f"keyword search unavailable: {exc}")
            return []

    def _vector(
        self,
        query: str,
        depth: int,
        category: Category | None,
        wait_for_model: bool,
        warnings: list[str],
    ) -> tuple[npt.NDArray[np.float32], list[tuple[Entry, float]]] | None:
        if not wait_for_model and not getattr(self._embedder, "loaded", True):
            warnings.append("embedding model is still loading: keyword results only")
            return None
        try:
            qvec = self.query_cache.embed_query(self._embedder, query)
            return qvec, self.vectors.search(qvec, depth, category=category)
        except Exception as exc:  # degrade to keyword search rather than fail
            if not self.closed:
                log.warning("vector search failed: %s", exc)
            warnings.append(f"vector search unavailable: {exc}")
            return None


def _keyword_result(hit: KeywordHit) -> SearchResult:
    return SearchResult(
        hit.entry, hit.score, ScoreExplanation(keyword_rank=hit.rank, keyword_score=hit.score)
    )


def narrowed(
    results: Sequence[SearchResult], source: Source | None, stale_only: bool, limit: int
) -> tuple[SearchResult, ...]:
    """The best ``limit`` results from ``source`` (any when None), stale ones only if
    ``stale_only`` (stale flags must be set)."""
    kept = (
        r
        for r in results
        if (source is None or r.entry.source is source) and (r.stale or not stale_only)
    )
    return tuple(kept)[:limit]
