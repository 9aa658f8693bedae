"""The relevance gate: which fused candidates are worth showing at all.

A candidate survives when its cosine similarity to the query reaches ``min_score`` or
when it contains every content term of the query (or, while it waits for its vector, on
its keyword match alone). That keeps exact identifier matches
while an unrelated query returns nothing instead of its least-bad neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.models import Entry, SearchResult
from engine.search.query import STOPWORDS, WORD, is_prefix, stem, words

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

VECTOR_PENDING = "vector_pending"
"""The gate's reason for an entry kept on its keyword match alone: it has no vector yet."""

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


def gate(
    query: str,
    qvec: npt.NDArray[np.float32],
    fused: list[SearchResult],
    limit: int,
    *,
    min_score: float,
    similarities: Similarities,
    prefix_last: bool = False,
    pending: Collection[str] = (),
) -> list[SearchResult]:
    """The first ``limit`` fused candidates that are semantically close or lexically
    complete; similarities of keyword-only candidates are looked up a batch at a time.
    An entry in ``pending`` has no vector yet (two-phase indexing): its keyword match,
    which made it a candidate, is all there is to judge it by, and it is kept with the
    reason ``"vector_pending"``."""
    kept: list[SearchResult] = []
    batch_start = 0
    while len(kept) < limit and batch_start < len(fused):
        batch = fused[batch_start : batch_start + max(limit * 2, 20)]
        batch_start += len(batch)
        unknown = [r.entry for r in batch if r.explanation.vector_similarity is None]
        sims = similarities(qvec, unknown) if unknown else {}
        for result in batch:
            sim = result.explanation.vector_similarity
            if sim is None:
                sim = sims.get(result.entry.id)
            if sim is not None and sim >= min_score:
                passed = "similarity"
            elif result.entry.id in pending:
                passed = VECTOR_PENDING
            elif covers_all_terms(query, result.entry, prefix_last=prefix_last):
                passed = "terms"
            else:
                continue
            kept.append(with_similarity(result, sim, passed))
            if len(kept) == limit:
                break
    return kept


def with_similarity(result: SearchResult, sim: float | None, passed: str | None) -> SearchResult:
    """``result`` with the vector similarity and the gate's reason in its explanation."""
    explanation = replace(result.explanation, vector_similarity=sim, gate=passed)
    return replace(result, explanation=explanation)
