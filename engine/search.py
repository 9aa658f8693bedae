"""Vector, keyword and hybrid retrieval, fused with Reciprocal Rank Fusion.

Hybrid search over-fetches from both retrievers, fuses the two ranked lists by
``1 / (k + rank)``, and then applies a relevance gate: a candidate survives when its
cosine similarity to the query reaches ``min_score`` or when it contains every
content term of the query. That keeps exact identifier matches while an unrelated
query returns nothing instead of its least-bad neighbours.

If one retriever fails (no model, unreadable vector store, keyword index trouble)
the search degrades to the other and says so in :attr:`SearchResponse.warnings`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.fts import STOPWORDS, FtsIndex, KeywordHit
from engine.models import Category, Entry, ScoreExplanation, SearchMode, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.embeddings import Embedder
    from engine.store import VectorStore

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
MIN_CANDIDATES = 40
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class SearchResponse:
    """Results of one search, and how it was carried out."""

    results: tuple[SearchResult, ...]
    mode: SearchMode
    """The mode asked for."""
    used: SearchMode
    """The mode actually run (differs when one retriever was unavailable)."""
    warnings: tuple[str, ...] = field(default=())


@dataclass(slots=True)
class _Fused:
    entry: Entry
    rrf: float = 0.0
    vector_rank: int | None = None
    vector_similarity: float | None = None
    keyword_rank: int | None = None
    keyword_score: float | None = None


def fuse(
    vector_hits: Sequence[tuple[Entry, float]],
    keyword_hits: Sequence[KeywordHit],
    k: int,
    keyword_weight: float = 1.0,
) -> list[SearchResult]:
    """Reciprocal Rank Fusion of two ranked lists; entries in both are merged.

    An entry scores ``1 / (k + vector_rank) + keyword_weight / (k + keyword_rank)``.
    The result's ``score`` is that divided by its maximum (first in both lists), so it
    reads 0..1 like the other modes.
    """
    fused: dict[str, _Fused] = {}
    for rank, (entry, sim) in enumerate(vector_hits, start=1):
        fused[entry.id] = _Fused(entry, 1.0 / (k + rank), rank, sim)
    for hit in keyword_hits:
        slot = fused.setdefault(hit.entry.id, _Fused(hit.entry))
        slot.keyword_rank, slot.keyword_score = hit.rank, hit.score
        slot.rrf += keyword_weight / (k + hit.rank)
    best = (1.0 + keyword_weight) / (k + 1)
    results = [
        SearchResult(
            slot.entry,
            slot.rrf / best,
            ScoreExplanation(
                slot.vector_rank,
                slot.vector_similarity,
                slot.keyword_rank,
                slot.keyword_score,
                slot.rrf,
            ),
        )
        for slot in fused.values()
    ]
    results.sort(key=lambda r: r.score, reverse=True)
    return results


def covers_all_terms(query: str, entry: Entry, *, prefix_last: bool = False) -> bool:
    """Whether every content word of the query occurs in the entry's searchable text.

    With ``prefix_last`` (search as you type) the last word, unless followed by a space,
    only has to start a word of the entry, as it does for the keyword retriever.
    """
    tokens = [t.lower() for t in _WORD.findall(query)]
    terms = set(tokens) - STOPWORDS
    if not terms:
        return False
    text = " ".join((entry.content, entry.section_title, " ".join(entry.keywords))).lower()
    words = set(_WORD.findall(text))
    partial = tokens[-1] if prefix_last and not query[-1].isspace() else None
    return all(t in words or (t == partial and any(w.startswith(t) for w in words)) for t in terms)


class Searcher:
    """Runs searches against the keyword index and (lazily) the vector store."""

    def __init__(
        self,
        fts: FtsIndex,
        store: Callable[[], VectorStore],
        embedder: Embedder,
        *,
        rrf_k: int,
        min_score: float,
        keyword_weight: float = 1.0,
        similarities: Callable[[npt.NDArray[np.float32], Sequence[Entry]], dict[str, float]]
        | None = None,
        vector_search: Callable[
            [npt.NDArray[np.float32], int, Category | None], list[tuple[Entry, float]]
        ]
        | None = None,
    ) -> None:
        self._fts = fts
        self._store = store
        self._vector_search = vector_search or (
            lambda q, n, c: store().vector_search(
                q, n, where=f"category = '{c.value}'" if c is not None else None
            )
        )
        self._similarities: Callable[
            [npt.NDArray[np.float32], Sequence[Entry]], dict[str, float]
        ] = similarities or (lambda q, entries: store().similarities(q, [e.id for e in entries]))
        self._embedder = embedder
        self.rrf_k = rrf_k
        self.min_score = min_score
        self.keyword_weight = keyword_weight

    def search(
        self,
        query: str,
        *,
        mode: SearchMode,
        limit: int,
        category: Category | None = None,
        prefix_last: bool = False,
        wait_for_model: bool = True,
    ) -> SearchResponse:
        """Search; see the module docstring for the semantics of each mode."""
        warnings: list[str] = []
        if mode is SearchMode.KEYWORD:
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
                SearchResult(e, max(0.0, s), ScoreExplanation(vector_rank=i, vector_similarity=s))
                for i, (e, s) in enumerate(vhits, start=1)
                if s >= self.min_score
            ]
            return SearchResponse(tuple(kept), mode, SearchMode.VECTOR, tuple(warnings))
        qvec, vhits = vector
        khits = keyword.result()
        fused = fuse(vhits, khits, self.rrf_k, self.keyword_weight)
        gated = self._gate(query, qvec, fused, limit, prefix_last=prefix_last)
        used = SearchMode.HYBRID if not warnings else SearchMode.VECTOR
        return SearchResponse(tuple(gated), mode, used, tuple(warnings))

    def _gate(
        self,
        query: str,
        qvec: npt.NDArray[np.float32],
        fused: list[SearchResult],
        limit: int,
        *,
        prefix_last: bool = False,
    ) -> list[SearchResult]:
        """Drop candidates that are neither semantically close nor lexically complete."""
        kept: list[SearchResult] = []
        batch_start = 0
        while len(kept) < limit and batch_start < len(fused):
            batch = fused[batch_start : batch_start + max(limit * 2, 20)]
            batch_start += len(batch)
            unknown = [r.entry for r in batch if r.explanation.vector_similarity is None]
            sims = self._similarities(qvec, unknown) if unknown else {}
            for result in batch:
                sim = result.explanation.vector_similarity
                if sim is None:
                    sim = sims.get(result.entry.id)
                    result = _with_similarity(result, sim)
                if (sim is not None and sim >= self.min_score) or covers_all_terms(
                    query, result.entry, prefix_last=prefix_last
                ):
                    kept.append(result)
                    if len(kept) == limit:
                        break
        return kept

    def _keyword(
        self,
        query: str,
        limit: int,
        category: Category | None,
        prefix_last: bool,
        warnings: list[str],
    ) -> list[KeywordHit]:
        try:
            return self._fts.search(query, limit, category=category, prefix_last=prefix_last)
        except Exception as exc:  # a broken keyword index must not fail the search
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
            qvec = self._embedder.embed_query(query)
            return qvec, self._vector_search(qvec, depth, category)
        except Exception as exc:  # degrade to keyword search rather than fail
            log.warning("vector search failed: %s", exc)
            warnings.append(f"vector search unavailable: {exc}")
            return None


def _keyword_result(hit: KeywordHit) -> SearchResult:
    return SearchResult(
        hit.entry, hit.score, ScoreExplanation(keyword_rank=hit.rank, keyword_score=hit.score)
    )


def _with_similarity(result: SearchResult, sim: float | None) -> SearchResult:
    e = result.explanation
    explanation = ScoreExplanation(
        e.vector_rank, sim, e.keyword_rank, e.keyword_score, e.fused_score
    )
    return SearchResult(result.entry, result.score, explanation, result.stale)
