"""Fusing the vector and keyword rankings, with the score explanation each result carries
(its rank and score in either list, and the fused score).

Two methods (the ``fusion`` setting):

- ``zscore`` (the default): each list's raw scores (cosine similarity; BM25) become
  z-scores against that list's own candidates, and a document's fused score is
  ``keyword_weight * z_keyword + vector_weight * z_vector``; a document missing from a list
  gets that list's lowest z-score. Unlike rank fusion it sees *how much* better a hit is:
  on short notes the keyword list's head often stands far above the rest while the vector
  list is flat, and the z-scores let that decide. ``vector_weight`` is a gate on the vector
  list, per query (:func:`vector_weight`): full when the two lists agree on their first
  results, down to a half when they share none of them. The small embedding model finds
  "this speaker on this topic" where a question asks for the one note holding a fact; when
  its head and keyword's differ, it is the vector list that is usually off (bench/RESULTS.md,
  "Hybrid fusion": chosen on SciFact train and LoCoMo dev, as bench/fusion_lab.py shows).
  A word that matches few entries (a keyword list shorter than asked for) lifts them
  against every entry it does not match, counted as a BM25 of 0 (a one-item list has no
  spread of its own). The fused score only chooses the candidates: the relevance gate
  (:mod:`engine.search.gate`) shows them sorted by their relevance, to which each half
  adds what it found in absolute terms (cosine, share of the query's words), so a result
  near the top of both lists is shown above one first in one list and far down the other.
  (Capping each list's z-scores instead cost SciFact and LoCoMo: at a cap of 3, nDCG@10
  0.7388 → 0.7101 on SciFact train, R@5 0.6150 → 0.6047 on LoCoMo dev; ``python -m
  bench.fusion_lab cap``.)
- ``rrf``: Reciprocal Rank Fusion, ``1 / (k + vector_rank) + keyword_weight / (k + keyword_rank)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.models import Entry, Fusion, ScoreExplanation, SearchResult
from engine.search.keyword import KeywordRank


@dataclass(slots=True)
class Fused:
    """One candidate of the fused ranking, by entry id: its place in either list, the
    fused value and the score that orders the candidates."""

    id: str
    value: float = 0.0
    """The fused score: a sum of z-scores, or of reciprocal ranks."""
    vector_rank: int | None = None
    vector_similarity: float | None = None
    keyword_rank: int | None = None
    keyword_score: float | None = None
    vector_weight: float | None = None
    """The vector list's weight in this query's z-score fusion (None for RRF)."""
    score: float = 0.0
    """The fused value scaled to 0..1 over the candidates."""

    def result(self, entry: Entry) -> SearchResult:
        """The candidate as a search result for its ``entry``, with its explanation."""
        why = ScoreExplanation(
            self.vector_rank,
            self.vector_similarity,
            self.keyword_rank,
            self.keyword_score,
            self.value,
            vector_weight=self.vector_weight,
        )
        return SearchResult(entry, self.score, why)


FUSION_METHODS = tuple(Fusion)
DEFAULT_FUSION = Fusion.ZSCORE
"""The method used when none is named: the configuration's default too
(:attr:`engine.core.config.Config.fusion`)."""

AGREEMENT_HEAD = 10
"""How many first results of each list are compared to judge their agreement."""
VECTOR_WEIGHT_FLOOR = 0.5
"""The vector list's weight when its head shares nothing with keyword's."""
AGREEMENT_FULL = 0.5
"""The share of the head both lists hold from which the vector list counts in full."""


def vector_weight(vector_ids: Sequence[str], keyword_ids: Sequence[str]) -> float:
    """The vector list's weight in z-score fusion for one query: 1 when at least
    :data:`AGREEMENT_FULL` of the first :data:`AGREEMENT_HEAD` results of the shorter list
    are also among the other's first, falling linearly to :data:`VECTOR_WEIGHT_FLOOR` when
    none are. 1 when either list is empty (nothing to disagree with)."""
    head = min(AGREEMENT_HEAD, len(vector_ids), len(keyword_ids))
    if not head:
        return 1.0
    shared = len(set(vector_ids[:AGREEMENT_HEAD]) & set(keyword_ids[:AGREEMENT_HEAD])) / head
    return VECTOR_WEIGHT_FLOOR + (1.0 - VECTOR_WEIGHT_FLOOR) * min(1.0, shared / AGREEMENT_FULL)


def fuse_ranks(
    vector_hits: Sequence[tuple[str, float]],
    keyword_hits: Sequence[KeywordRank],
    k: int,
    keyword_weight: float = 1.0,
    method: Fusion = DEFAULT_FUSION,
    *,
    keyword_complete: bool = False,
) -> list[Fused]:
    """Fuse two ranked lists of entry ids by ``method`` (``zscore`` or ``rrf``); best
    first. ``keyword_complete``: the keyword list holds every entry that matches a query
    word (it is shorter than what was asked for), so an entry missing from it has none."""
    if Fusion(method) is Fusion.ZSCORE:
        return fuse_zscores(
            vector_hits, keyword_hits, keyword_weight, keyword_complete=keyword_complete
        )
    return fuse_rrf(vector_hits, keyword_hits, k, keyword_weight)


def fuse_zscores(
    vector_hits: Sequence[tuple[str, float]],
    keyword_hits: Sequence[KeywordRank],
    keyword_weight: float = 1.0,
    *,
    keyword_complete: bool = False,
) -> list[Fused]:
    """CombSUM of z-normalised scores (see the module docstring). The candidate's
    ``score`` is the fused score scaled to 0..1 over the candidates (the best reads 1):
    it orders the candidates, and the relevance gate replaces it with the score shown.

    With ``keyword_complete`` the entries missing from the keyword list match no query
    word: they get the z-score of a BM25 of 0, counted among the list's scores (so a
    word that matches a single entry lifts it: a one-item list alone has no spread)."""
    fused: dict[str, Fused] = {}
    weight = vector_weight([i for i, _ in vector_hits], [h.id for h in keyword_hits])
    z_vec = [weight * z for z in _zscores([s for _, s in vector_hits])]
    bm25 = [-h.bm25 for h in keyword_hits]  # bm25() is lower-is-better
    if keyword_complete and keyword_hits:
        *z_kw, floor_kw = _zscores([*bm25, 0.0])
    else:
        z_kw = _zscores(bm25)
        floor_kw = min(z_kw, default=0.0)
    for rank, ((entry_id, sim), z) in enumerate(zip(vector_hits, z_vec, strict=True), start=1):
        fused[entry_id] = Fused(entry_id, z, rank, sim, vector_weight=weight)
    floor_vec = min(z_vec, default=0.0)
    seen_vec = set(fused)
    for hit, z in zip(keyword_hits, z_kw, strict=True):
        slot = fused.setdefault(hit.id, Fused(hit.id, floor_vec, vector_weight=weight))
        slot.keyword_rank, slot.keyword_score = hit.rank, -hit.bm25
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
    """Each score as standard deviations above the list's mean (all 0 when flat). In
    floats, with exactly rounded sums: ``statistics.pstdev`` computes in fractions, a tenth
    of a hybrid search's time under load, for a difference in the last bits."""
    if len(scores) < 2:
        return [0.0 for _ in scores]
    mean = math.fsum(scores) / len(scores)
    spread = math.sqrt(math.fsum((s - mean) * (s - mean) for s in scores) / len(scores))
    return [(s - mean) / spread if spread else 0.0 for s in scores]


def fuse_rrf(
    vector_hits: Sequence[tuple[str, float]],
    keyword_hits: Sequence[KeywordRank],
    k: int,
    keyword_weight: float = 1.0,
) -> list[Fused]:
    """Reciprocal Rank Fusion of two ranked lists; entries in both are merged.

    An entry scores ``1 / (k + vector_rank) + keyword_weight / (k + keyword_rank)``.
    The candidate's ``score`` is that divided by its maximum (first in both lists), so it
    reads 0..1 like the other modes.
    """
    fused: dict[str, Fused] = {}
    for rank, (entry_id, sim) in enumerate(vector_hits, start=1):
        fused[entry_id] = Fused(entry_id, 1.0 / (k + rank), rank, sim)
    for hit in keyword_hits:
        slot = fused.setdefault(hit.id, Fused(hit.id))
        slot.keyword_rank, slot.keyword_score = hit.rank, -hit.bm25
        slot.value += keyword_weight / (k + hit.rank)
    best = (1.0 + keyword_weight) / (k + 1)
    return _ranked(fused, lambda value: value / best)


def _ranked(fused: dict[str, Fused], scale: Callable[[float], float]) -> list[Fused]:
    """Candidates best first, each with ``score = scale(fused value)``."""
    for slot in fused.values():
        slot.score = scale(slot.value)
    return sorted(fused.values(), key=_score, reverse=True)


def _score(candidate: Fused) -> float:
    return candidate.score
