"""BM25 keyword retrieval over the entry mirror's FTS5 index.

Every query term is quoted (:func:`engine.search.query.build_match_query`), so FTS5
syntax in user text is searched for, never parsed. Hits are ranked by ``bm25()`` with
titles and keywords weighted above content, and normalised to 0..1 against the best hit.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.models import ENTRY_COLUMNS, Category, Entry
from engine.search.query import (
    build_match_query,
    build_phrase_query,
    content_terms,
    is_prefix,
    words,
)
from engine.search.scoring import QueryWeights, query_weights
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_rows import row_to_entry

COMMON_TERM_SHARE = 0.1
"""In a memory of :data:`COMMON_TERM_MIN_ENTRIES` entries or more, a query term found in
more than this share of entries is left out of keyword search. BM25 gives such a term
little weight, but ranking the tens of thousands of entries it matches dominated search
at 100,000 entries: warm keyword p50 59 → 21 ms, hybrid 84 → 41 ms. It costs quality
(forced onto SciFact: train −0.014 keyword / −0.0025 hybrid nDCG@10, test −0.015 /
−0.016; a 0.2 share costs half as much but leaves hybrid at 59 ms), so only memories of
50,000 entries or more, where keyword search without it passes 30 ms, leave terms out."""
COMMON_TERM_MIN_ENTRIES = 50_000
# Column weights for bm25(): id (unindexed), content, category, source, filePath,
# sectionTitle, keywords. Titles and explicit keywords say more than a passing mention.
BM25_WEIGHTS = "0.0, 1.0, 0.5, 0.2, 0.5, 2.0, 2.0"
PHRASE_WEIGHT = 0.25
"""Weight of the phrase score in a hit's rank: ``bm25(words) + PHRASE_WEIGHT *
bm25(pairs of adjacent query words found as phrases)``. Words next to each other in the
question ("support group", "video game") next to each other in an entry say more than
the same words apart (term proximity, as in the sequential dependence model). Chosen on
SciFact train and LoCoMo dev (``python -m bench.fusion_lab phrases``): 0.25 raised LoCoMo
hybrid R@5 on each of its five conversations and kept SciFact train's nDCG@10."""
PHRASE_POOL = 100
"""Best word-ranked hits the phrase score may reorder (the hybrid's candidate depth)."""


@dataclass(frozen=True, slots=True)
class KeywordHit:
    """One keyword match: the entry, its 1-based rank, BM25 normalised to 0..1 against the
    best hit (the fusion's and the hook's concern, never shown) and the raw BM25."""

    entry: Entry
    rank: int
    score: float
    bm25: float
    """Raw FTS5 bm25() value (negative; lower is better)."""


class KeywordSearcher:
    """Ranks the mirrored entries against a query with FTS5's BM25 (thread-safe).

    Reads through :meth:`EntryMirror.read`; caches document frequencies of query terms
    (used only in very large memories) until the entry count changes.
    """

    def __init__(self, mirror: EntryMirror) -> None:
        self.mirror = mirror
        self._lock = threading.Lock()
        self._df: dict[str, int] = {}
        self._df_total = -1

    def search(
        self,
        query: str,
        limit: int,
        *,
        category: Category | None = None,
        prefix_last: bool = False,
        phrases: bool = True,
    ) -> list[KeywordHit]:
        """BM25-ranked entries matching any term of ``query``, reranked by its adjacent
        word pairs found as phrases unless ``phrases`` is false (:data:`PHRASE_WEIGHT`);
        never raises on user text."""
        leave_out = self._common_terms(query, prefix_last)
        match = build_match_query(query, prefix_last=prefix_last, leave_out=leave_out)
        if match is None or limit <= 0:
            return []
        pairs = (
            build_phrase_query(query, prefix_last=prefix_last, leave_out=leave_out)
            if phrases
            else None
        )
        sql, params = _ranking_sql(match, pairs, limit, category)
        rows = self.mirror.read(sql, params)
        if not rows:
            return []
        best = float(rows[0][-1]) or -1e-9
        return [
            KeywordHit(
                row_to_entry(r[:-1]), i + 1, max(0.0, min(1.0, float(r[-1]) / best)), float(r[-1])
            )
            for i, r in enumerate(rows)
        ]

    def document_frequencies(
        self, terms: Sequence[str], total: int | None = None
    ) -> dict[str, int]:
        """How many entries hold each of ``terms`` (as FTS5 matches it: by Porter stem),
        cached until the entry count changes; ``total`` is that count when known."""
        total = self.mirror.count() if total is None else total
        with self._lock:
            if self._df_total != total:  # document frequencies moved: count again
                self._df, self._df_total = {}, total
            for term in terms:
                if term not in self._df:  # "word*": a word being typed, matched as a prefix
                    match = _quoted(term[:-1]) + "*" if term.endswith("*") else _quoted(term)
                    rows = self.mirror.read(
                        "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", (match,)
                    )
                    self._df[term] = int(rows[0][0]) if rows else 0
            return {t: self._df[t] for t in terms}

    def query_weights(
        self, query: str, *, prefix_last: bool = False, every_word: bool = False
    ) -> QueryWeights:
        """The informative words of ``query`` (``every_word``: all it searches for) with
        their weight (idf) in this memory."""
        total = self.mirror.count()
        weights = query_weights(query, {}, total, prefix_last=prefix_last, every_word=every_word)
        asked = [t + "*" if t == weights.partial else t for t in weights.terms]
        found = self.document_frequencies(asked, total)
        frequencies = {t.rstrip("*"): n for t, n in found.items()}
        return query_weights(
            query, frequencies, total, prefix_last=prefix_last, every_word=every_word
        )

    def _common_terms(self, query: str, prefix_last: bool) -> frozenset[str]:
        """Terms of ``query`` in more than :data:`COMMON_TERM_SHARE` of the entries (the
        rarest term always stays); none in memories under :data:`COMMON_TERM_MIN_ENTRIES`."""
        total = self.mirror.count()
        if total < COMMON_TERM_MIN_ENTRIES:
            return frozenset()
        terms = content_terms(query)
        if prefix_last and query and is_prefix(query, words(query)) and terms:
            terms = terms[:-1]  # the word being typed is a prefix: always searched
        if not terms:
            return frozenset()
        df = self.document_frequencies(terms, total)
        common = {t for t in terms if df[t] > COMMON_TERM_SHARE * total}
        if len(common) == len(terms):
            common.discard(min(terms, key=df.__getitem__))
        return frozenset(common)


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _ranking_sql(
    match: str, phrases: str | None, limit: int, category: Category | None
) -> tuple[str, list[object]]:
    """The statement ranking entries for ``match`` (and ``phrases``), and its parameters:
    FTS5 ranks first and only the winning rows are read (joining before the LIMIT reads
    every matching row's content: 2-3x slower, bench/RESULTS.md). With phrases, the best
    :data:`PHRASE_POOL` by words are reranked by words and phrases together."""
    columns = ", ".join("e." + c for c in ENTRY_COLUMNS)
    source, where, params = "memory_fts", "memory_fts MATCH ?", [match]
    if category is not None:
        source += " JOIN entries c ON c.rowid = memory_fts.rowid"
        where += " AND c.category = ?"
        params.append(category.value)
    words_rank = (
        f"SELECT memory_fts.rowid AS rowid, bm25(memory_fts, {BM25_WEIGHTS}) AS rank"
        f" FROM {source} WHERE {where} ORDER BY rank LIMIT ?"
    )
    if phrases is None:
        sql = (
            f"SELECT {columns}, hits.rank FROM ({words_rank}) AS hits"
            " JOIN entries e ON e.rowid = hits.rowid ORDER BY hits.rank"
        )
        return sql, [*params, limit]
    sql = (
        f"WITH hits AS ({words_rank}), phrase AS (SELECT rowid, bm25(memory_fts,"
        f" {BM25_WEIGHTS}) AS rank FROM memory_fts WHERE memory_fts MATCH ?),"
        " ranked AS (SELECT hits.rowid, hits.rank + ? * coalesce(phrase.rank, 0) AS rank"
        " FROM hits LEFT JOIN phrase ON phrase.rowid = hits.rowid ORDER BY rank LIMIT ?)"
        f" SELECT {columns}, ranked.rank FROM ranked JOIN entries e ON e.rowid = ranked.rowid"
        " ORDER BY ranked.rank"
    )
    return sql, [*params, max(limit, PHRASE_POOL), phrases, PHRASE_WEIGHT, limit]
