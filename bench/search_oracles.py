"""Search functions the benches (and tests) compare the engine against; the engine's own
path does not call them (issue 49: no bench or test oracle in production code)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.models import Entry, SearchResult
from engine.search.fusion import DEFAULT_FUSION, fuse_ranks
from engine.search.keyword import KeywordHit, KeywordRank
from engine.search.query import STOPWORDS, WORD, Query, stem

__all__ = ["covers_all_terms", "fuse"]


def covers_all_terms(query: str, entry: Entry, *, prefix_last: bool = False) -> bool:
    """Whether every content word of the query occurs in the entry's searchable text,
    compared by Porter stem as the keyword index does ("turnips" finds "turnip").

    With ``prefix_last`` (search as you type) the last word, unless followed by a space,
    only has to start a word of the entry, as it does for the keyword retriever.
    """
    asked = Query.parse(query, prefix_last=prefix_last)
    terms = set(asked.tokens) - STOPWORDS
    if not terms:
        return False
    text = " ".join((entry.content, entry.section_title, " ".join(entry.keywords))).lower()
    found = set(WORD.findall(text))
    stems = {stem(w) for w in found}
    partial = asked.partial
    return all(
        t in found or stem(t) in stems or (t == partial and any(w.startswith(t) for w in found))
        for t in terms
    )


def fuse(
    vector_hits: Sequence[tuple[Entry, float]],
    keyword_hits: Sequence[KeywordHit],
    k: int,
    keyword_weight: float = 1.0,
    method: str = DEFAULT_FUSION,
    *,
    keyword_complete: bool = False,
) -> list[SearchResult]:
    """Fuse two ranked lists of entries by ``method`` (``zscore`` or ``rrf``); best first
    (:func:`fuse_ranks` on their ids)."""
    entries = {h.entry.id: h.entry for h in keyword_hits}
    entries.update((e.id, e) for e, _ in vector_hits)
    fused = fuse_ranks(
        [(e.id, sim) for e, sim in vector_hits],
        [KeywordRank(h.entry.id, h.rank, h.score, h.bm25) for h in keyword_hits],
        k,
        keyword_weight,
        method,
        keyword_complete=keyword_complete,
    )
    return [c.result(entries[c.id]) for c in fused]
