"""A search result as the gate judges it, built for a test: a section of a code file
(``source`` discovery, lines 3–9) whose ``score`` is its relevance and ``fused`` what
orders it in the fused ranking."""

from __future__ import annotations

from engine.core.models import Entry, ScoreExplanation, SearchResult, Source


def judged(entry_id: str, score: float, fused: float, path: str) -> SearchResult:
    """A result for the entry ``entry_id`` (its content the same text) of ``path``."""
    entry = Entry(
        id=entry_id,
        content=entry_id,
        source=Source.DISCOVERY,
        file_path=path,
        line_start=3,
        line_end=9,
    )
    why = ScoreExplanation(fused_score=fused, vector_similarity=0.0, coverage=0.0)
    return SearchResult(entry, score, why)
