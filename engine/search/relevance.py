"""Is an entry relevant enough to put in front of an agent unasked? (the prompt hook)

Search ranks; it does not say whether anything it found answers the prompt. The hook must
say nothing rather than inject noise, and it runs on every prompt, so it cannot load the
embedding model. The test here is keyword-only and cheap: the share of the prompt's
*information* that an entry holds. Each prompt term weighs its inverse document frequency
in this memory (the BM25 idf): "option" in a CLI library's memory weighs little, a rare
name weighs a lot, and a term the memory has never seen ("banana") weighs the most — so
a prompt about something else entirely is covered by nothing and injects nothing.
Terms are matched by FTS5 itself (the same porter stemming as search).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.search.keyword import KeywordHit, KeywordSearcher
from engine.search.query import content_terms

MIN_COVERAGE = 0.5
"""Share of the prompt's idf weight an entry must hold: half of what the prompt says.
Chosen by reasoning, then checked on bench/repo_qa (0.45 and 0.4 found a few more
answers but spoke on more off-topic prompts)."""
CANDIDATES = 20
"""Best BM25 hits examined."""
MIN_TERMS = 2
"""Prompts with fewer content terms ("thanks", "go on") never inject."""


@dataclass(frozen=True, slots=True)
class RelevantHit:
    """A keyword hit that covers enough of the prompt."""

    hit: KeywordHit
    coverage: float
    """Share of the prompt's idf weight that the entry holds (0..1)."""
    matched: tuple[str, ...]


def term_weights(keyword: KeywordSearcher, terms: list[str]) -> dict[str, float]:
    """BM25 idf of each term in this memory (unseen terms get the largest)."""
    total = keyword.mirror.count()
    weights = {}
    for term in terms:
        rows = keyword.mirror.read(
            "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", (_quoted(term),)
        )
        df = int(rows[0][0]) if rows else 0
        weights[term] = math.log(1 + (total - df + 0.5) / (df + 0.5))
    return weights


def relevant_hits(
    keyword: KeywordSearcher, prompt: str, *, min_coverage: float = MIN_COVERAGE
) -> list[RelevantHit]:
    """The BM25 hits for ``prompt`` that hold at least ``min_coverage`` of its weight, in
    BM25 order (ordering by coverage instead found fewer answers on bench/repo_qa)."""
    terms = content_terms(prompt)
    if len(terms) < MIN_TERMS:
        return []
    # BM25 over the words alone: the phrase reranking (made for search) moved the hook's
    # candidates on bench/repo_qa for no answer found, and cost one on zustand.
    hits = keyword.search(prompt, CANDIDATES, phrases=False)
    if not hits:
        return []
    weights = term_weights(keyword, terms)
    total = sum(weights.values()) or 1.0
    found = _matches(keyword, terms, [h.entry.id for h in hits])
    chosen = []
    for hit in hits:
        matched = tuple(t for t in terms if hit.entry.id in found.get(t, ()))
        coverage = sum(weights[t] for t in matched) / total
        if coverage >= min_coverage:
            chosen.append(RelevantHit(hit, coverage, matched))
    return chosen


def _matches(keyword: KeywordSearcher, terms: list[str], ids: list[str]) -> dict[str, set[str]]:
    """For each term, which of the entries ``ids`` contain it (any column FTS indexes)."""
    marks = ", ".join("?" for _ in ids)
    found: dict[str, set[str]] = {}
    for term in terms:
        rows = keyword.mirror.read(
            "SELECT e.id FROM memory_fts JOIN entries e ON e.rowid = memory_fts.rowid"
            f" WHERE memory_fts MATCH ? AND e.id IN ({marks})",
            (_quoted(term), *ids),
        )
        found[term] = {str(r[0]) for r in rows}
    return found


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
