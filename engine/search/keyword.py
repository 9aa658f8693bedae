"""BM25 keyword retrieval over the entry mirror's FTS5 index.

Every query term is quoted (:meth:`engine.search.query.Query.match`), so FTS5 syntax in
user text is searched for, never parsed. Hits are ranked by ``bm25()`` with titles and
keywords weighted above content (:data:`BM25_WEIGHTS`), and normalised to 0..1 against
the best hit. The SQL is the mirror's (:mod:`engine.storage.mirror_keyword`): this
module decides what is asked and how it is weighed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, TypeVar

from engine.core.models import Entry
from engine.search.query import Query, quoted
from engine.search.scoring import QueryWeights, query_weights
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_keyword import MatchQuery

COMMON_TERM_SHARE = 0.1
"""In a memory of :data:`COMMON_TERM_MIN_ENTRIES` entries or more, a query term found in
more than this share of entries is left out of keyword search (the rarest term always
stays). BM25 gives such a term little weight, yet ranking the tens of thousands of
entries it matches is most of the time a search takes in a memory that large. Leaving it
out costs a little quality, so smaller memories, where keyword search is fast with every
term, keep them all (bench/RESULTS.md, "Keyword search at 100,000 entries")."""
COMMON_TERM_MIN_ENTRIES = 50_000
BM25_WEIGHTS = {
    "id": 0.0,
    "content": 1.0,
    "category": 0.5,
    "source": 0.2,
    "filePath": 0.5,
    "sectionTitle": 2.0,
    "keywords": 2.0,
}
"""Weight of each FTS5 column in ``bm25()``, by column name (the id is not indexed).
Titles and explicit keywords say more than a passing mention."""
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


class KeywordRank(NamedTuple):
    """A keyword match by id, its entry not read: :class:`KeywordHit` without the entry."""

    id: str
    rank: int
    score: float
    bm25: float


class KeywordSearcher:
    """Ranks the mirrored entries against a query with FTS5's BM25 (thread-safe).

    Reads through the mirror's keyword reads (:meth:`EntryMirror.ranked`); keeps the
    document frequencies of query terms until the memory's version changes.
    """

    def __init__(self, mirror: EntryMirror) -> None:
        self.mirror = mirror
        self._lock = threading.Lock()
        self._df: dict[str, int] = {}
        self._df_version: tuple[tuple[str | None, ...], int] = ((), -1)
        self._counted: tuple[tuple[str | None, ...], int] = ((), -1)

    def entries(self) -> int:
        """The memory's entry count, counted again only after a write (the mirror's
        ``store_version`` and ``vectors_version``, which every write through ``Records``
        sets): ``count(*)`` of a million entries is a scan of an index, ~120 ms, and a
        search asked for it twice (issue 38)."""
        stamp = (self.mirror.state("store_version"), self.mirror.state("vectors_version"))
        counted, total = self._counted
        if stamp != counted or total < 0 or None in stamp:
            total = self.mirror.count()
            self._counted = (stamp, total)
        return total

    def search(self, query: Query | str, limit: int, *, phrases: bool = True) -> list[KeywordHit]:
        """BM25-ranked entries matching any term of ``query`` (text is read as a
        :class:`Query` of its own), reranked by its adjacent word pairs found as phrases
        unless ``phrases`` is false (:data:`PHRASE_WEIGHT`); never raises on user text."""
        asked = self._asked(query, limit, phrases)
        if asked is None:
            return []
        return [
            KeywordHit(entry, i + 1, score, rank)
            for i, ((entry, rank), score) in enumerate(_scored(self.mirror.ranked(asked)))
        ]

    def ranks(self, query: Query, limit: int) -> list[KeywordRank]:
        """:meth:`search`'s ranking by entry id, no entry read (hybrid search reads the
        entries its relevance gate judges, a fraction of the candidates)."""
        asked = self._asked(query, limit, True)
        if asked is None:
            return []
        ranked = self.mirror.ranked_ids(asked)
        return [
            KeywordRank(entry_id, i + 1, score, rank)
            for i, ((entry_id, rank), score) in enumerate(_scored(ranked))
        ]

    def hits(self, ranks: Sequence[KeywordRank]) -> list[KeywordHit]:
        """The hits of ``ranks`` with their entries (those still stored)."""
        found = self.mirror.get_many([r.id for r in ranks])
        return [KeywordHit(found[r.id], r.rank, r.score, r.bm25) for r in ranks if r.id in found]

    def _asked(self, query: Query | str, limit: int, phrases: bool) -> MatchQuery | None:
        """The ranking to ask of the mirror for ``query``, or None when nothing is to be
        searched for."""
        if isinstance(query, str):
            query = Query.parse(query)
        leave_out = self._common_terms(query)
        match = query.match(leave_out)
        if match is None or limit <= 0:
            return None
        pairs = query.phrases(leave_out) if phrases else None
        asked = MatchQuery(
            match, limit, BM25_WEIGHTS, pairs, PHRASE_WEIGHT, PHRASE_POOL, query.category
        )
        return self._with_frequencies(asked, query, leave_out)

    def _with_frequencies(
        self, asked: MatchQuery, query: Query, leave_out: frozenset[str]
    ) -> MatchQuery:
        """``asked`` with the number of entries holding each of its terms, so that rows
        holding only common ones go unscored when they cannot reach the best
        (:func:`engine.storage.mirror_keyword.ranked`; same results, issue 38: FTS5 scores
        every row matching any term before its LIMIT). In memories of every size: at
        10,000 entries scoring the rows is nearly all of a keyword search's time, and the
        numbers are kept between searches until the memory changes (issue 49,
        bench/RESULTS.md). Not for a word being typed (a prefix)."""
        if query.partial is not None:
            return asked
        total = self.entries()
        terms = [t for t in query.terms if t not in leave_out] or list(query.terms)
        if len(terms) < 2 or " OR ".join(quoted(t) for t in terms) != asked.match:
            return asked
        found = self.document_frequencies(terms, total)
        counts = tuple(found[t] for t in terms)
        return replace(
            asked, terms=tuple(quoted(t) for t in terms), frequencies=counts, total=total
        )

    def document_frequencies(
        self, terms: Sequence[str], total: int | None = None
    ) -> dict[str, int]:
        """How many entries hold each of ``terms`` (as FTS5 matches it: by Porter stem),
        kept until the memory's version changes (:meth:`entries`: an edit changes them
        and not the count); ``total``: the count :meth:`entries` has just given."""
        if total is None:
            self.entries()
        version = self._counted
        with self._lock:
            if self._df_version != version or None in version[0]:  # moved: count again
                self._df, self._df_version = {}, version
            for term in terms:
                if term not in self._df:  # "word*": a word being typed, matched as a prefix
                    match = quoted(term[:-1]) + "*" if term.endswith("*") else quoted(term)
                    self._df[term] = self.mirror.match_count(match)
            return {t: self._df[t] for t in terms}

    def query_weights(self, query: Query, *, every_word: bool = False) -> QueryWeights:
        """The informative words of ``query`` (``every_word``: all it searches for) with
        their weight (idf) in this memory."""
        total = self.entries()
        weights = query_weights(query, {}, total, every_word=every_word)
        asked = [t + "*" if t == weights.partial else t for t in weights.terms]
        found = self.document_frequencies(asked, total)
        frequencies = {t.rstrip("*"): n for t, n in found.items()}
        return query_weights(query, frequencies, total, every_word=every_word)

    def _common_terms(self, query: Query) -> frozenset[str]:
        """Terms of ``query`` in more than :data:`COMMON_TERM_SHARE` of the entries (the
        rarest term always stays); none in memories under :data:`COMMON_TERM_MIN_ENTRIES`."""
        total = self.entries()
        if total < COMMON_TERM_MIN_ENTRIES:
            return frozenset()
        terms = query.searched_terms
        if not terms:
            return frozenset()
        df = self.document_frequencies(terms, total)
        common = {t for t in terms if df[t] > COMMON_TERM_SHARE * total}
        if len(common) == len(terms):
            common.discard(min(terms, key=df.__getitem__))
        return frozenset(common)


Ranked = TypeVar("Ranked", Entry, str)


def _scored(rows: list[tuple[Ranked, float]]) -> list[tuple[tuple[Ranked, float], float]]:
    """Each row with its BM25 normalised to 0..1 against the best row."""
    best = (rows[0][1] if rows else 0.0) or -1e-9
    return [(row, max(0.0, min(1.0, row[1] / best))) for row in rows]
