"""Fusing the vector and keyword rankings, with the score explanation each result carries
(its rank and score in either list, and the fused score).

Two methods (the ``fusion`` setting):

- ``zscore`` (the default): each list's raw scores (cosine similarity; BM25) become
  z-scores against that list's own candidates, and a document's fused score is
  ``keyword_weight * z_keyword + z_vector``; a document missing from a list gets that list's
  lowest z-score. Unlike rank fusion it sees *how much* better a hit is: on short notes
  the keyword list's head often stands far above the rest while the vector list is flat,
  and the z-scores let that decide (bench/fusion_lab.py, bench/RESULTS.md).
- ``rrf``: Reciprocal Rank Fusion, ``1 / (k + vector_rank) + keyword_weight / (k + keyword_rank)``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.models import Entry, ScoreExplanation, SearchResult
from engine.search.keyword import KeywordHit


@dataclass(slots=True)
class _Fused:
    entry: Entry
    value: float = 0.0
    """The fused score: a sum of z-scores, or of reciprocal ranks."""
    vector_rank: int | None = None
    vector_similarity: float | None = None
    keyword_rank: int | None = None
    keyword_score: float | None = None


FUSION_METHODS = ("zscore", "rrf")


def fuse(
    vector_hits: Sequence[tuple[Entry, float]],
    keyword_hits: Sequence[KeywordHit],
    k: int,
    keyword_weight: float = 1.0,
    method: str = "rrf",
) -> list[SearchResult]:
    """Fuse two ranked lists by ``method`` (``zscore`` or ``rrf``); best first."""
    if method == "zscore":
        return fuse_zscores(vector_hits, keyword_hits, keyword_weight)
    return fuse_rrf(vector_hits, keyword_hits, k, keyword_weight)


def fuse_zscores(
    vector_hits: Sequence[tuple[Entry, float]],
    keyword_hits: Sequence[KeywordHit],
    keyword_weight: float = 1.0,
) -> list[SearchResult]:
    """CombSUM of z-normalised scores (see the module docstring). The result's ``score``
    is the fused score scaled to 0..1 over the candidates (the best reads 1)."""
    fused: dict[str, _Fused] = {}
    z_vec = _zscores([s for _, s in vector_hits])
    z_kw = _zscores([-h.bm25 for h in keyword_hits])  # bm25() is lower-is-better
    for rank, ((entry, sim), z) in enumerate(zip(vector_hits, z_vec, strict=True), start=1):
        fused[entry.id] = _Fused(entry, z, rank, sim)
    floor_vec, floor_kw = min(z_vec, default=0.0), min(z_kw, default=0.0)
    seen_vec = set(fused)
    for hit, z in zip(keyword_hits, z_kw, strict=True):
        slot = fused.setdefault(hit.entry.id, _Fused(hit.entry, floor_vec))
        slot.keyword_rank, slot.keyword_score = hit.rank, hit.score
        slot.value += keyword_weight * z
    for entry_id, slot in fused.items():
        if entry_id in seen_vec and slot.keyword_rank is None:
            slot.value += keyword_weight * floor_kw
    values = [slot.value for slot in fused.values()]
    low, span = min(values, default=0.0), (max(values, default=0.0) - min(values, default=0.0))
    if not span:  # one candidate, or all alike: each is as good as the best
        return _ranked(fused, lambda value: 1.0)
    return _ranked(fused, lambda value: (value - low) / span)


def _zscores(scores: Sequence[float]) -> list[float]:
    """Each score as standard deviations above the list's mean (all 0 when flat)."""
    if len(scores) < 2:
        return [0.0 for _ in scores]
    mean, spread = statistics.fmean(scores), statistics.pstdev(scores)
    return [(s - mean) / spread if spread else 0.0 for s in scores]


def fuse_rrf(
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
        slot.value += keyword_weight / (k + hit.rank)
    best = (1.0 + keyword_weight) / (k + 1)
    return _ranked(fused, lambda value: value / best)


def _ranked(fused: dict[str, _Fused], scale: Callable[[float], float]) -> list[SearchResult]:
    """Results best first, each with ``score = scale(fused value)`` and its explanation."""
    results = [
        SearchResult(
            slot.entry,
            scale(slot.value),
            ScoreExplanation(
                slot.vector_rank,
                slot.vector_similarity,
                slot.keyword_rank,
                slot.keyword_score,
                slot.value,
            ),
        )
        for slot in fused.values()
    ]
    results.sort(key=lambda r: r.score, reverse=True)
    return results
