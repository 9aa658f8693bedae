"""Reciprocal Rank Fusion of the vector and keyword rankings, with the score explanation
each result carries (its rank and score in either list, and the fused score)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.models import Entry, ScoreExplanation, SearchResult
from engine.search.keyword import KeywordHit


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
