"""Keyword reads of the entry mirror: the FTS5 statements BM25 ranking is made of.

The search layer says what to look for in a :class:`MatchQuery` (its FTS5 MATCH
expressions, the weight of each FTS column by name, a category filter, how many);
the SQL against ``memory_fts`` and ``entries`` is written here, next to the schema it
reads (:mod:`engine.storage.mirror_rows`). Column weights are matched to the FTS5
columns by name, in the order the index declares them, so a weight cannot land on the
wrong column when the columns change.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.models import Category, Entry
from engine.storage.mirror_rows import COLUMNS, row_to_entry

Read = Callable[[str, Sequence[object]], list[Any]]
"""Rows of one read-only statement on the mirror."""

FTS_TABLE = "memory_fts"


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
    if query.limit <= 0:
        return []
    sql, params = _ranking_sql(query, bm25_weights(columns, query.weights))
    return [(row_to_entry(r[:-1]), float(r[-1])) for r in read(sql, params)]


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


def _ranking_sql(query: MatchQuery, weights: str) -> tuple[str, list[object]]:
    """The statement ranking entries for ``query``, and its parameters: FTS5 ranks first
    and only the winning rows are read (joining before the LIMIT reads every matching
    row's content: 2-3x slower, bench/RESULTS.md). With phrases, the best
    ``phrase_pool`` by words are reranked by words and phrases together."""
    columns = ", ".join("e." + c for c in COLUMNS)
    source, where, params = FTS_TABLE, f"{FTS_TABLE} MATCH ?", [query.match]
    if query.category is not None:
        source += f" JOIN entries c ON c.rowid = {FTS_TABLE}.rowid"
        where += " AND c.category = ?"
        params.append(query.category.value)
    words_rank = (
        f"SELECT {FTS_TABLE}.rowid AS rowid, bm25({FTS_TABLE}, {weights}) AS rank"
        f" FROM {source} WHERE {where} ORDER BY rank LIMIT ?"
    )
    if query.phrases is None:
        sql = (
            f"SELECT {columns}, hits.rank FROM ({words_rank}) AS hits"
            " JOIN entries e ON e.rowid = hits.rowid ORDER BY hits.rank"
        )
        return sql, [*params, query.limit]
    sql = (
        f"WITH hits AS ({words_rank}), phrase AS (SELECT rowid, bm25({FTS_TABLE},"
        f" {weights}) AS rank FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ?),"
        " ranked AS (SELECT hits.rowid, hits.rank + ? * coalesce(phrase.rank, 0) AS rank"
        " FROM hits LEFT JOIN phrase ON phrase.rowid = hits.rowid ORDER BY rank LIMIT ?)"
        f" SELECT {columns}, ranked.rank FROM ranked JOIN entries e ON e.rowid = ranked.rowid"
        " ORDER BY ranked.rank"
    )
    limit = query.limit
    return sql, [*params, max(limit, query.phrase_pool), query.phrases, query.phrase_weight, limit]
