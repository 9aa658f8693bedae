"""Keyword reads of the entry mirror: the FTS5 statements BM25 ranking is made of.

The search layer says what to look for in a :class:`MatchQuery` (its FTS5 MATCH
expressions, the weight of each FTS column by name, a category filter, how many);
the SQL against ``memory_fts`` and ``entries`` is written here, next to the schema it
reads (:mod:`engine.storage.mirror_rows`). Column weights are matched to the FTS5
columns by name, in the order the index declares them, so a weight cannot land on the
wrong column when the columns change.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core.models import Category, Entry
from engine.storage.mirror_rows import COLUMNS, row_to_entry

Read = Callable[[str, Sequence[object]], list[Any]]
"""Rows of one read-only statement on the mirror."""

FTS_TABLE = "memory_fts"
BM25_K1 = 1.2
"""FTS5's ``bm25()`` constant k1 (fts5_aux.c): a term's share of a row's score is at most
``(k1 + 1) * idf``, whatever its frequency, the row's length or the column weights."""
PRUNE_GAIN = 4
"""Rows matching the common terms of a query per row matching its rare ones from which
the ranking tries leaving the common terms' rows unscored (:func:`_pruned`)."""
PRUNE_BOUND_SHARE = 0.5
"""The most the common terms' bounds may add up to, as a share of the rarest term's, for
the ranking to try leaving their rows unscored (:func:`_pruned`). The row ranked last of
the best asked for (a hundred) rarely scores more than half the rarest term's bound, so an
attempt with more common weight than that fails and the whole query is ranked after it:
on the SciFact memory at 10,000 entries 238 of 287 attempts failed, 2.7 ms each. A cost
model, not a change of results (the ranking is the same either way): chosen on SciFact
train and the synthetic 10,000-entry memory, the mean keyword ranking of SciFact test's
claims 9.20 → 6.80 ms a search, the synthetic one's 6.74 → 6.61 ms, a million entries'
85.0 → 84.2 ms (there its median is 1.3 ms higher; bench/RESULTS.md, "Issue 49 (session
21)")."""


@dataclass(frozen=True, slots=True)
class MatchQuery:
    """One BM25 ranking asked of the FTS5 index."""

    match: str
    """FTS5 MATCH expression of the query's words (its terms quoted)."""
    limit: int
    weights: Mapping[str, float]
    """BM25 weight of each FTS5 column, by name; a column not named weighs 1.0, as in
    FTS5's own ``bm25()``."""
    phrases: str | None = None
    """FTS5 MATCH expression of the query's adjacent word pairs, or None: a hit's rank
    is then ``bm25(words) + phrase_weight * bm25(phrases)``."""
    phrase_weight: float = 0.0
    phrase_pool: int = 0
    """Best hits by words alone that the phrase score may reorder."""
    category: Category | None = None
    terms: tuple[str, ...] = ()
    """The quoted terms ``match`` OR-s, in its order, with the number of entries holding
    each (``frequencies``) out of ``total``: when given, rows that hold only terms too
    common to reach the best ``limit`` are never scored (:func:`_pruned`)."""
    frequencies: tuple[int, ...] = ()
    total: int = 0


def fts_columns(db: sqlite3.Connection) -> tuple[str, ...]:
    """The FTS5 index's columns, in the order it declares them."""
    return tuple(str(row[1]) for row in db.execute(f"PRAGMA table_info({FTS_TABLE})"))


def bm25_weights(columns: Sequence[str], weights: Mapping[str, float]) -> str:
    """``bm25()``'s positional weights for ``columns`` from weights by name.

    Raises:
        ValueError: a weight names no column of the index.
    """
    unknown = sorted(set(weights) - set(columns))
    if unknown:
        raise ValueError(
            f"BM25 weights name no column of the keyword index: {', '.join(unknown)}"
            f" (its columns: {', '.join(columns)})"
        )
    return ", ".join(repr(float(weights.get(c, 1.0))) for c in columns)


def ranked(read: Read, columns: Sequence[str], query: MatchQuery) -> list[tuple[Entry, float]]:
    """The entries matching ``query`` best first, each with its rank (raw ``bm25()``,
    plus the weighted phrase score: negative, lower is better)."""
    rows = _ranked_rows(read, columns, query, COLUMNS)
    return [(row_to_entry(r[:-1]), float(r[-1])) for r in rows]


def ranked_ids(read: Read, columns: Sequence[str], query: MatchQuery) -> list[tuple[str, float]]:
    """:func:`ranked`'s ids and ranks, the entries left unread (hybrid search reads only
    those its relevance gate judges)."""
    return [(str(r[0]), float(r[-1])) for r in _ranked_rows(read, columns, query, ("id",))]


def _ranked_rows(
    read: Read, columns: Sequence[str], query: MatchQuery, select: Sequence[str]
) -> list[Any]:
    """Rows of the entries' ``select`` columns and the rank, best first."""
    if query.limit <= 0:
        return []
    weights = bm25_weights(columns, query.weights)
    best = _pruned(read, query, weights)
    if best is None:
        best = [(int(r[0]), float(r[1])) for r in read(*_words_sql(query, weights, _pool(query)))]
    return _rows_of(read, query, weights, best, select)


def _pool(query: MatchQuery) -> int:
    """How many rows are ranked by words: ``limit``, or the phrase pool when larger."""
    return max(query.limit, query.phrase_pool if query.phrases is not None else 0)


def _pruned(read: Read, query: MatchQuery, weights: str) -> list[tuple[int, float]] | None:
    """The best ``max(limit, phrase_pool)`` rows by words with their ``bm25()`` rank,
    exactly as the whole query ranks them, scoring only the rows that hold one of its rare
    terms; ``None`` when that does not pay (then the whole query is ranked).

    MaxScore (Turtle and Flood, 1995) in FTS5's terms: a row holding only the common
    terms C scores at most the sum of their bounds (:data:`BM25_K1`), so once the k-th
    best row holding a rare term scores more, no such row is among the best k. Those
    rows are ranked by the whole query's ``bm25()``, its terms in the same order, through
    ``(all) NOT ((C) NOT (rare))``: the rows matching it are those holding a rare term,
    and FTS5 counts nothing for the phrases right of a NOT, so each row's rank is the
    one the whole query gives it, to the bit. A bound not met asks again with more terms
    counted as rare, and with every term the whole query is ranked."""
    terms, counts = query.terms, query.frequencies
    if len(terms) < 2 or len(counts) != len(terms) or query.total <= 0:
        return None
    want = _pool(query)
    order = sorted(range(len(terms)), key=counts.__getitem__)  # rarest first
    bounds = [_bound(query.total, counts[i]) for i in order]
    rare = 1
    while rare < len(terms) and sum(counts[i] for i in order[:rare]) < want:
        rare += 1  # fewer rows than the best asked for: the bound could not be met
    while rare < len(terms) and sum(bounds[rare:]) > PRUNE_BOUND_SHARE * bounds[0]:
        rare += 1  # too much common weight: the bound would most likely not be met
    while rare < len(terms):
        if sum(counts[i] for i in order[rare:]) < PRUNE_GAIN * sum(counts[i] for i in order[:rare]):
            return None  # the common terms' rows are not many more: rank them all
        common = " OR ".join(terms[i] for i in order[rare:])
        held = " OR ".join(terms[i] for i in order[:rare])
        restricted = replace(query, match=f"({query.match}) NOT (({common}) NOT ({held}))")
        rows = [(int(r[0]), float(r[1])) for r in read(*_words_sql(restricted, weights, want))]
        floor = -rows[-1][1] if len(rows) == want else 0.0  # the k-th best score
        needed, left = rare, 0.0
        for at in range(len(terms) - 1, 0, -1):  # the most common terms the floor covers
            if left + bounds[at] >= floor:
                needed = max(rare, at + 1)
                break
            left += bounds[at]
        else:
            needed = 1
        if needed <= rare:
            return rows
        rare = needed
    return None


def _bound(total: int, hits: int) -> float:
    """The most one term held by ``hits`` of ``total`` rows adds to a row's ``bm25()``
    score: FTS5's idf times ``k1 + 1``, with a margin for the rounding of either."""
    idf = math.log((total - hits + 0.5) / (hits + 0.5))
    return (BM25_K1 + 1.0) * max(idf, 1e-6) * 1.01


def _words_sql(query: MatchQuery, weights: str, limit: int) -> tuple[str, list[object]]:
    """The best ``limit`` rowids by words alone, with their ``bm25()`` rank."""
    source, where, params = FTS_TABLE, f"{FTS_TABLE} MATCH ?", [query.match]
    if query.category is not None:
        source += f" JOIN entries c ON c.rowid = {FTS_TABLE}.rowid"
        where += " AND c.category = ?"
        params.append(query.category.value)
    sql = (
        f"SELECT {FTS_TABLE}.rowid AS rowid, bm25({FTS_TABLE}, {weights}) AS rank"
        f" FROM {source} WHERE {where} ORDER BY rank LIMIT ?"
    )
    return sql, [*params, limit]


def _rows_of(
    read: Read,
    query: MatchQuery,
    weights: str,
    best: list[tuple[int, float]],
    select: Sequence[str],
) -> list[Any]:
    """The ``select`` columns and rank of the rows ``best`` ranked by words, each
    reranked by ``rank + phrase_weight * bm25(phrases)`` when the query has phrases, the
    best ``limit``; their entries are read last, only the winning rows (reading them
    before the LIMIT reads every matching row's content: 2-3x slower).

    Three statements, the rows ranked in Python between them: one statement joining the
    phrase ranking to the best rows by words was planned well by SQLite 3.40–3.46 and
    by 3.50 and 3.51 (which newer Pythons may be built with) as a scan of every phrase
    match for each of the best rows: 50–95 ms a search instead of 9–12 at 10,000
    entries (bench/RESULTS.md, "Session 24")."""
    ranks = dict(best)
    if query.phrases is not None and best:
        phrase = (
            f"SELECT rowid, bm25({FTS_TABLE}, {weights}) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ?"
        )
        scored = {int(r[0]): float(r[1]) for r in read(phrase, (query.phrases,))}
        ranks = {i: rank + query.phrase_weight * scored.get(i, 0.0) for i, rank in best}
    chosen = sorted(ranks, key=ranks.__getitem__)[: query.limit]
    marks = ", ".join("?" for _ in chosen)
    columns = ", ".join(select)
    rows = {
        int(r[0]): r[1:]
        for r in read(f"SELECT rowid, {columns} FROM entries WHERE rowid IN ({marks})", chosen)
    }
    return [(*rows[i], ranks[i]) for i in chosen if i in rows]


def match_count(read: Read, match: str) -> int:
    """How many entries match the FTS5 expression ``match``."""
    rows = read(f"SELECT count(*) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ?", (match,))
    return int(rows[0][0]) if rows else 0


def holding(read: Read, match: str, ids: Sequence[str]) -> set[str]:
    """Those of the entries ``ids`` that match the FTS5 expression ``match``."""
    if not ids:
        return set()
    marks = ", ".join("?" for _ in ids)
    rows = read(
        f"SELECT e.id FROM {FTS_TABLE} JOIN entries e ON e.rowid = {FTS_TABLE}.rowid"
        f" WHERE {FTS_TABLE} MATCH ? AND e.id IN ({marks})",
        (match, *ids),
    )
    return {str(r[0]) for r in rows}
