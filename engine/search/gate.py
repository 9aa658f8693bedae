"""The relevance gate: which candidates are worth showing at all, with the score shown.

Every candidate gets its relevance (:mod:`engine.search.scoring`: cosine similarity and
the share of the query's information it holds). Two decisions follow:

- **the query**: a search shows anything only when one of its candidates is relevant
  (:data:`~engine.search.scoring.RELEVANT`, 0.5). An unrelated query (nonsense, another
  topic) has no candidate close in meaning nor holding its rare words, and returns
  nothing instead of its least-bad neighbours;
- **each result**: once the query has found something, results down to ``min_score``
  (0.2 by default) are listed: the answer to a question is often a section or a piece of
  code less close in wording than the overview above it.

The fused ranking chooses which candidates are looked at, best first, until ``limit`` are
kept (and at least :data:`SCAN` while none is relevant); those are returned sorted by
relevance, the score every face shows. A ``min_score`` of 0 or less turns both decisions
off. An entry still waiting for its vector (two-phase indexing) is judged by its words
alone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.models import Entry, SearchResult
from engine.search.query import STOPWORDS, WORD, is_prefix, stem, words
from engine.search.scoring import (
    COVERAGE_WEIGHT,
    RELEVANT,
    QueryWeights,
    coverage,
    relevance,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

VECTOR_PENDING = "vector_pending"
"""The gate's reason for an entry judged on its words alone: it has no vector yet."""

SCAN = 40
"""Fused candidates examined at least before a search says that none is relevant."""

Similarities = Callable[["npt.NDArray[np.float32]", Sequence[Entry]], dict[str, float]]
"""Cosine similarity of a query vector to entries, by id (missing: unknown)."""


def covers_all_terms(query: str, entry: Entry, *, prefix_last: bool = False) -> bool:
    """Whether every content word of the query occurs in the entry's searchable text,
    compared by Porter stem as the keyword index does ("turnips" finds "turnip").

    With ``prefix_last`` (search as you type) the last word, unless followed by a space,
    only has to start a word of the entry, as it does for the keyword retriever.
    """
    tokens = words(query)
    terms = set(tokens) - STOPWORDS
    if not terms:
        return False
    text = " ".join((entry.content, entry.section_title, " ".join(entry.keywords))).lower()
    found = set(WORD.findall(text))
    stems = {stem(w) for w in found}
    partial = tokens[-1] if prefix_last and is_prefix(query, tokens) else None
    return all(
        t in found or stem(t) in stems or (t == partial and any(w.startswith(t) for w in found))
        for t in terms
    )


def judged(
    result: SearchResult, sim: float | None, query: QueryWeights, *, pending: bool = False
) -> SearchResult:
    """``result`` scored by its relevance, with its cosine similarity and coverage in
    the explanation and the gate's reason: which half of the evidence is the larger,
    ``similarity`` (the cosine) or ``terms`` (the query's words it holds, weighed), or
    ``vector_pending`` when it has no vector yet. Without a similarity (pending, or a
    vector that cannot be read) it is judged by its words alone, as if its cosine were 0
    (unrelated text), so holding all the query's words reads 0.5."""
    covered = coverage(query, result.entry) if query.weights else None
    words = covered or 0.0
    if sim is None:
        score = relevance(0.0, words)
        reason = VECTOR_PENDING if pending else "terms"
    else:
        score = relevance(sim, words)
        reason = "similarity" if sim >= COVERAGE_WEIGHT * words else "terms"
    shown_coverage = None if covered is None else round(covered, 6)
    explanation = replace(
        result.explanation, vector_similarity=sim, coverage=shown_coverage, gate=reason
    )
    return replace(result, score=score, explanation=explanation)


def gate(
    query: QueryWeights,
    qvec: npt.NDArray[np.float32],
    fused: list[SearchResult],
    limit: int,
    *,
    min_score: float,
    similarities: Similarities,
    pending: Collection[str] = (),
) -> list[SearchResult]:
    """The first ``limit`` fused candidates whose relevance reaches ``min_score``, sorted
    by relevance (best first; the fused order breaks ties), or none when no candidate is
    relevant (see the module docstring). Similarities of keyword-only candidates are
    looked up a batch at a time. An entry in ``pending`` has no vector yet (two-phase
    indexing) and is judged by its words alone. A query without an informative word
    keeps nothing."""
    if not query.terms:
        return []
    kept: list[SearchResult] = []
    waiting: list[SearchResult] = []
    best, batch_start = 0.0, 0
    while batch_start < len(fused) and (
        len(kept) + len(waiting) < limit or (best < RELEVANT and batch_start < SCAN)
    ):
        batch = fused[batch_start : batch_start + max(limit * 2, 20)]
        batch_start += len(batch)
        unknown = [r.entry for r in batch if r.explanation.vector_similarity is None]
        sims = similarities(qvec, unknown) if unknown else {}
        for result in batch:
            sim = result.explanation.vector_similarity
            if sim is None:
                sim = sims.get(result.entry.id)
            if sim is None and result.entry.id in pending:
                waiting.append(judged(result, None, query, pending=True))
                continue
            scored = judged(result, sim, query)
            best = max(best, scored.score)
            if scored.score >= min_score:
                kept.append(scored)
                if len(kept) + len(waiting) >= limit and best >= RELEVANT:
                    break
    return shown(kept, min_score, limit, waiting)


def shown(
    results: list[SearchResult],
    min_score: float,
    limit: int,
    waiting: Sequence[SearchResult] = (),
) -> list[SearchResult]:
    """The best ``limit`` of ``results`` (each already at ``min_score`` or above) and of
    ``waiting`` (entries without their vector yet, kept on their keyword match as before
    they are embedded), sorted by score; ``results`` count only when ``min_score`` is 0
    or less or one of them is relevant."""
    best = max((r.score for r in results), default=0.0)
    if min_score > 0 and best < max(RELEVANT, min_score):
        results = []
    return by_score([*results, *waiting])[:limit]


def by_score(results: list[SearchResult]) -> list[SearchResult]:
    """``results`` best score first; equal scores keep their order (stable sort)."""
    return sorted(results, key=lambda r: r.score, reverse=True)
