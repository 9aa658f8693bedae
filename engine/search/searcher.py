"""One search: the retrievers run, their rankings fused, the gate applied.

Hybrid search over-fetches from both retrievers (:mod:`engine.search.keyword`,
:mod:`engine.search.vector`), fuses the two ranked lists (:mod:`engine.search.fusion`: by
the z-scores of their raw scores unless the ``fusion`` setting asks for Reciprocal Rank
Fusion), and then applies the relevance gate (:mod:`engine.search.gate`), which scores each result
by its relevance (:mod:`engine.search.scoring`) and returns them sorted by it. Keyword and
vector modes run one retriever, and score their results on the same scale. A query with
no informative word (stopwords and single letters only) returns nothing, with a warning.

If one retriever fails (no model, unreadable vector store, keyword index trouble)
the search degrades to the other and says so in :attr:`SearchResponse.warnings`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from engine.core.models import (
    Category,
    Fusion,
    ScoreExplanation,
    SearchMode,
    SearchResult,
    Source,
)
from engine.embedding.base import Embedder
from engine.embedding.query_cache import QueryCache
from engine.search.fusion import DEFAULT_FUSION, Fused, fuse_ranks
from engine.search.gate import FOUND, answering, gate_candidates, judged, shown
from engine.search.keyword import KeywordHit, KeywordRank, KeywordSearcher
from engine.search.query import Query
from engine.search.relevance import relevant_hits
from engine.search.scoring import RELEVANT, QueryWeights, keyword_relevance, query_weights
from engine.search.vector import CandidateSimilarities, VectorSearcher

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.storage.lance_search import Underway

log = logging.getLogger(__name__)

Hit = TypeVar("Hit", KeywordHit, KeywordRank)

OVERFETCH = 4
MIN_CANDIDATES = 100
NEAREST_LISTED = 1_000
"""Nearest entries a hybrid search's vector query lists: the first ``depth`` are the
vector ranking fused with the keyword one, and the cosines of the others are known to
the gate, which reads by id only the vectors of keyword candidates further away. The
index computes the distance of every row it probes anyway; listing more costs LanceDB's
top-k and the ids' conversion. On SciFact's claims, alternately in one process with the
fused depth alone (the same results): warm hybrid p50 0.90–0.94 of it at 10,000 entries
(a read by id was in 3 of 4 searches, then 1 of 4) and 1.01–1.03 at 100,000; 400
listed, 0.97–1.00 and 1.01–1.06 (bench/RESULTS.md, "Session 24")."""


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
        fusion: Fusion = DEFAULT_FUSION,
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
        ``min_score`` replaces the configured relevance floor for this search (vector and
        hybrid modes: keyword mode lists what holds the words typed, single letters too).

        Long because each mode's way of degrading is spelled out next to the others.
        """
        warnings: list[str] = []
        floor = self.min_score if min_score is None else min_score
        asked = Query.parse(query, prefix_last=prefix_last, category=category)
        if mode is SearchMode.KEYWORD:
            if min_score is not None:
                warnings.append(
                    "min_score applies to vector and hybrid search: ignored in keyword mode"
                )
            hits = self._keyword(asked, limit, warnings)
            results = self._keyword_results(asked, hits)
            return SearchResponse(results, mode, SearchMode.KEYWORD, tuple(warnings))
        weights = self._weights(asked)
        if not weights.terms:
            return SearchResponse((), mode, mode, (NOTHING_TO_SEARCH,))
        found = False
        if category is not None and floor > 0:
            # A filtered list is the unfiltered one restricted to the filter: whether the
            # query found anything is decided on the whole memory, not on one category.
            whole = self.search(
                query, mode=mode, limit=1, prefix_last=prefix_last,
                wait_for_model=wait_for_model, min_score=min_score,
            )  # fmt: skip
            if not whole.results:
                return whole
            found = True
        depth = limit if mode is SearchMode.VECTOR else max(limit * OVERFETCH, MIN_CANDIDATES)
        # Hybrid's two halves run side by side: the nearest query is handed to the store's
        # read loop first (engine.storage.lance_search) and runs while SQLite ranks here.
        listed = max(depth, NEAREST_LISTED) if mode is SearchMode.HYBRID else depth
        started = self._nearest_started(asked, listed, wait_for_model)
        keyword = None
        if mode is SearchMode.HYBRID:
            try:
                keyword = self._ranks(asked, depth, warnings)
            except BaseException:  # interrupted: nothing of the read is left open
                if not isinstance(started, str):
                    started[1].close()
                raise
        vector = self._nearest_of(started, warnings)
        if vector is None:  # degrade to keyword search
            if keyword is not None:  # the first `limit` of the deeper list
                hits = self._hits(keyword[:limit], warnings)
            else:
                hits = self._keyword(asked, limit, warnings)
            results = _gated_by_words(self._keyword_results(asked, hits), weights, floor, found)
            return SearchResponse(results, mode, SearchMode.KEYWORD, tuple(warnings))
        qvec, nearest = vector
        if keyword is None:
            scored = [
                judged(SearchResult(e, 0.0, ScoreExplanation(vector_rank=i)), s, weights)
                for i, (e, s) in enumerate(self.vectors.with_entries(nearest), start=1)
            ]
            # listed by meaning alone; judged and scored as in hybrid search
            best = max((answering(r, weights) for r in scored), default=0.0)
            kept = shown(scored, floor, limit, key=_cosine, best=FOUND if found else best)
            return SearchResponse(tuple(kept), mode, SearchMode.VECTOR, tuple(warnings))
        gated = self._hybrid(weights, qvec, nearest, keyword, limit, depth, floor, found=found)
        used = SearchMode.HYBRID if not warnings else SearchMode.VECTOR
        return SearchResponse(tuple(gated), mode, used, tuple(warnings))

    def _hybrid(
        self,
        weights: QueryWeights,
        qvec: npt.NDArray[np.float32],
        nearest: list[tuple[str, float]],
        ranks: list[KeywordRank],
        limit: int,
        depth: int,
        floor: float,
        *,
        found: bool = False,
    ) -> list[SearchResult]:
        """The two rankings fused by entry id and gated; only the candidates the gate
        judges have their entries read (a fifth of them, most often). ``nearest``: the
        vector ranking, of which the first ``depth`` are fused and the others' cosines
        spare the gate a read (:data:`NEAREST_LISTED`). ``found``: the query is known to
        have found something (in the whole memory)."""
        known = dict(nearest[depth:])
        nearest = nearest[:depth]
        fused = fuse_ranks(
            nearest,
            ranks,
            self.rrf_k,
            self.keyword_weight,
            self.fusion,
            keyword_complete=len(ranks) < depth,
        )
        mirror = self.keyword.mirror

        def results_of(batch: Sequence[Fused]) -> list[SearchResult]:
            entries = mirror.get_many([c.id for c in batch])
            return [c.result(entries[c.id]) for c in batch if c.id in entries]

        return gate_candidates(
            weights,
            qvec,
            fused,
            results_of,
            limit,
            min_score=floor,
            similarities=CandidateSimilarities(
                self.vectors, [c.id for c in fused if c.vector_similarity is None], known
            ),
            unembedded=self.vectors.unembedded_among([r.id for r in ranks]),
            found=found,
        )

    def _keyword_results(
        self, query: Query, hits: Sequence[KeywordHit]
    ) -> tuple[SearchResult, ...]:
        """Keyword hits scored by their keyword relevance (it follows BM25: the order
        stays), over every word searched for, single letters too."""
        if not hits:
            return ()
        try:
            weights = self.keyword.query_weights(query, every_word=True)
        except Exception:  # a broken keyword index: no hits came from it either
            weights = query_weights(query, {}, 0, every_word=True)
        return tuple(_keyword_result(h, keyword_relevance(-h.bm25, weights)) for h in hits)

    def _weights(self, query: Query) -> QueryWeights:
        """The query's informative words and their weight in this memory (each the same
        when the keyword index cannot say: the search then degrades as it says)."""
        try:
            return self.keyword.query_weights(query)
        except Exception as exc:  # a broken keyword index must not fail the search
            log.warning("keyword statistics unavailable: %s", exc)
            return query_weights(query, {}, 0)

    def relevant(self, prompt: str) -> list[tuple[SearchResult, float]]:
        """Keyword hits that cover enough of ``prompt`` to be shown unasked (the hook),
        with their coverage, best first (:mod:`engine.search.relevance`)."""
        return [(_keyword_result(r.hit), r.coverage) for r in relevant_hits(self.keyword, prompt)]

    def _keyword(self, query: Query, limit: int, warnings: list[str]) -> list[KeywordHit]:
        return self._keyword_safely(lambda: self.keyword.search(query, limit), warnings)

    def _ranks(self, query: Query, limit: int, warnings: list[str]) -> list[KeywordRank]:
        return self._keyword_safely(lambda: self.keyword.ranks(query, limit), warnings)

    def _hits(self, ranks: list[KeywordRank], warnings: list[str]) -> list[KeywordHit]:
        return self._keyword_safely(lambda: self.keyword.hits(ranks), warnings)

    def _keyword_safely(self, work: Callable[[], list[Hit]], warnings: list[str]) -> list[Hit]:
        """``work``'s keyword hits, or none (and a warning) when the keyword index fails."""
        try:
            return work()
        except Exception as exc:  # a broken keyword index must not fail the search
            if not self.closed:
                log.warning("keyword search failed: %s", exc)
            warnings.append(f"keyword search unavailable: {exc}")
            return []

    def _nearest_started(
        self, query: Query, depth: int, wait_for_model: bool
    ) -> tuple[npt.NDArray[np.float32], Underway[list[tuple[str, float]]]] | str:
        """The query's vector and the read of its nearest entries by id, under way; or
        the warning that says why there is none."""
        if not wait_for_model and not self._embedder.loaded:
            return "embedding model is still loading: keyword results only"
        try:
            qvec = self.query_cache.embed_query(self._embedder, query.text)
            return qvec, self.vectors.nearest_started(qvec, depth, category=query.category)
        except Exception as exc:  # degrade to keyword search rather than fail
            return self._vector_failed(exc)

    def _nearest_of(
        self,
        started: tuple[npt.NDArray[np.float32], Underway[list[tuple[str, float]]]] | str,
        warnings: list[str],
    ) -> tuple[npt.NDArray[np.float32], list[tuple[str, float]]] | None:
        """The query's vector and its nearest entries by id, or None (and a warning)."""
        if isinstance(started, str):
            warnings.append(started)
            return None
        qvec, pending = started
        try:
            return qvec, pending.result()
        except Exception as exc:  # degrade to keyword search rather than fail
            warnings.append(self._vector_failed(exc))
            return None

    def _vector_failed(self, exc: Exception) -> str:
        if not self.closed:
            log.warning("vector search failed: %s", exc)
        return f"vector search unavailable: {exc}"


NOTHING_TO_SEARCH = (
    "nothing to search for: the query has no informative word (stopwords and single "
    "letters are left out)"
)


def _gated_by_words(
    results: tuple[SearchResult, ...], weights: QueryWeights, floor: float, found: bool
) -> tuple[SearchResult, ...]:
    """Keyword results standing in for a vector or hybrid search (no model yet, or no
    vector store), through the same gate: shown only when one of them answers the query
    by its words alone (as an entry still waiting for its vector is judged), and then down
    to ``floor``. An off-topic question gets nothing while the model loads, too."""
    if floor <= 0:
        return results
    best = max((answering(judged(r, None, weights), weights) for r in results), default=0.0)
    if not found and best < max(RELEVANT, floor):
        return ()
    return tuple(r for r in results if r.score >= floor)


def _cosine(result: SearchResult) -> float:
    return result.explanation.vector_similarity or 0.0


def _keyword_result(hit: KeywordHit, score: float | None = None) -> SearchResult:
    """A keyword hit as a result: its raw BM25 in the explanation; its score the keyword
    relevance when given (else BM25 normalised to the best hit: the hook's order)."""
    return SearchResult(
        hit.entry,
        hit.score if score is None else score,
        ScoreExplanation(keyword_rank=hit.rank, keyword_score=-hit.bm25),
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
