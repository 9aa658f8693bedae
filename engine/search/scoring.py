"""The relevance every face shows: one 0..1 score that means the same for every query and
every memory, and the gate that hides results below it.

Search ranks whatever it is given; a ranking says nothing about whether its first result
answers anything ("the least bad of nothing" comes first too). The relevance of a result
is judged from two pieces of evidence that keep their meaning from one query and one
memory to the next:

- **meaning**: the cosine similarity of the query and the entry (all-MiniLM-L6-v2 puts
  text on a related topic at 0.4 and above, unrelated text at 0.0-0.3, whatever the
  memory holds);
- **words**: the share of the query's information the entry holds, each informative word
  weighed by its BM25 inverse document frequency in *this* memory
  (:func:`coverage`): a word the memory has never seen weighs the most, so a query about
  something else is covered by nothing, and a word found in every entry weighs little.
  When the gate decides whether a query is answered at all, unseen words that are at
  most a quarter of the query's words are left out instead
  (:data:`UNSEEN_FORGIVEN_SHARE`, :func:`answering_relevance`): no entry could hold
  them, and a question that spells one word differently from the memory is still about
  what the memory holds.

``evidence = cosine + COVERAGE_WEIGHT * coverage`` (:func:`evidence`), and the
relevance is ``1 / (1 + exp(-SLOPE * (evidence - EVIDENCE_MIDPOINT)))``: 0.5 exactly where the
evidence reaches the midpoint, about 0.9 for a cosine 0.2 above it, about 0.1 for one 0.2
below. A search shows results only when its best reaches 0.5 (:data:`RELEVANT`), and then
lists the others down to ``min_score`` (0.2 by default; :mod:`engine.search.gate`).

Queries without an informative word (stopwords and one-letter words only: ``x``, ``how
do I``) have nothing to judge and return nothing
(:attr:`engine.search.query.Query.informative`).

The constants were chosen on two ``bench/repo_qa`` memories (typer, express): the
midpoint from a plateau (0.38-0.42) where every on-topic question kept its answer in the
first five and at least 95 % of 64 off-topic queries (nonsense strings, everyday topics,
programming topics the projects do not deal with) returned nothing; the words' weight
(0.15-0.40 kept those) as the largest, so that holding every word of the query is enough
on its own; they were then checked on the others
(zustand, hono, this project, SciFact, LoCoMo; bench/RESULTS.md, "results a person
and an agent can trust"). The
memory's own similarity baseline for the query (the mean and spread of its cosine over
every entry, a per-query z-score) separated on-topic from off-topic queries worse than
the cosine itself there, and is not used.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.models import Entry
from engine.search.query import Query, name_parts, stem, word_set

EVIDENCE_MIDPOINT = 0.40
"""Evidence (cosine + weighted coverage) at which a result's relevance is 0.5."""
COVERAGE_WEIGHT = 0.40
"""How much cosine similarity an entry holding every informative word of the query is
worth: the whole midpoint, so such an entry is relevant unless its meaning is further
from the query than unrelated text's (a cosine below 0). An exact match of a rare name
counts even in a long entry about other things too, as does the word being typed."""
SLOPE = 11.0
"""Steepness of the relevance curve: ln(9) / 0.2, so 0.2 of evidence above the midpoint
reads 0.9 and 0.2 below reads 0.1."""
KEYWORD_SLOPE = 1.8
KEYWORD_MIDPOINT = 0.47
"""Keyword mode (no model): relevance ``1 / (1 + exp(-KEYWORD_SLOPE * (strength -
KEYWORD_MIDPOINT)))`` of the BM25 strength (:func:`keyword_strength`), a logistic fit of
answers against off-topic hits on typer and express. Words alone are weaker evidence than
meaning and words: the curve is flatter."""
RELEVANT = 0.5
"""A search shows results only when one of them reaches this relevance (the evidence
midpoint); it then lists the others down to ``min_score``."""
UNSEEN_FORGIVEN_SHARE = 0.25
"""The largest share of a query's informative words that may be words this memory has
never seen and still be left out when the gate decides whether the query is answered at
all (:attr:`QueryWeights.covered_total`, :func:`answering_relevance`).

A word no entry holds weighs the most, so that a query about something else is covered
by nothing. One such word among several the memory knows is something else: the project
spells it another way (``-vvv`` for "raise the verbosity", an abbreviation such as "dLNs"
that the texts never use), or it is a typo. No entry can hold it, so it lowered every
entry's coverage alike and silenced questions whose other words the memory answers
(SciFact's "CCL19 is absent within dLNs."; urfave_cli's "Can a boolean option be
repeated like -vvv to raise the verbosity level?" on a memory built before issue 34's
ranking2 merge). Up to one word in four is forgiven;
a query with more unknown words than that keeps their full weight (nonsense, everyday
and other-topic queries are mostly words the memory never saw). On SciFact train any
share from 0.2 recovers all that the gate cost (nDCG@10 0.7401 → 0.7425, 5 → 2 queries
silenced); of the 576 off-topic searches (64 queries on the eight ``bench/repo_qa``
memories and this project's, replayed on the memories built before that merge) a quarter
opens one (urfave_cli), a third 11, a half 46 (bench/RESULTS.md, "Issue 36 and 34: the floors")."""


def idf(total: int, document_frequency: int) -> float:
    """BM25's inverse document frequency (the non-negative form): a word in no entry
    weighs the most, one in every entry close to nothing."""
    return math.log(1.0 + (total - document_frequency + 0.5) / (document_frequency + 0.5))


@dataclass(frozen=True, slots=True)
class QueryWeights:
    """The informative words of one query and their weight in one memory."""

    terms: tuple[str, ...]
    weights: Mapping[str, float]
    partial: str | None = None
    """The word being typed (search as you type): it only has to start a word."""
    unseen: frozenset[str] = frozenset()
    """The words of :attr:`terms` that no entry of the memory holds."""

    @property
    def total(self) -> float:
        return sum(self.weights.values())

    @property
    def covered_total(self) -> float:
        """The weight the query's decision measures coverage against
        (:func:`answering_relevance`): every word's, less the words the memory has never
        seen when they are at most :data:`UNSEEN_FORGIVEN_SHARE` of the informative words
        and some word is known (no entry could hold them)."""
        unseen = sum(1 for t in self.terms if t in self.unseen)
        if 0 < unseen < len(self.terms) and unseen <= UNSEEN_FORGIVEN_SHARE * len(self.terms):
            return sum(w for t, w in self.weights.items() if t not in self.unseen)
        return self.total


def query_weights(
    query: Query, frequencies: Mapping[str, int], total: int, *, every_word: bool = False
) -> QueryWeights:
    """The weights of ``query``'s informative words (``every_word``: of the words keyword
    search looks for, single letters included), from their document frequencies in a
    memory of ``total`` entries."""
    terms = query.terms if every_word else query.informative
    weights = {t: idf(total, frequencies.get(t, 0)) for t in terms}
    unseen = frozenset(t for t in terms if total and not frequencies.get(t, 0))
    return QueryWeights(terms, weights, query.partial if query.partial in terms else None, unseen)


def matched_terms(query: QueryWeights, entry: Entry) -> list[str]:
    """The informative words of the query that the entry holds in its searchable text
    (content, title, keywords, path), compared by stem as the keyword index does
    ("turnips" finds "turnip"); the word being typed by prefix. An entry holding none of
    them as they are written is read again with the parts of its names joined by
    underscores, as the keyword index reads them: a search for ``xdg`` is answered by
    what holds ``XDG_CONFIG_HOME``, while an entry that holds the query's words is not
    lifted by the parts of its identifiers (counting them everywhere moved answers down
    on bench/repo_qa's oil_nvim and fmt sets: MRR 0.726 → 0.692 and 0.772 → 0.752)."""
    text = " ".join((entry.content, entry.section_title, " ".join(entry.keywords), entry.file_path))
    found = word_set(text.lower())
    held = _held_terms(query, found)
    parts = name_parts(found) if not held else set()
    return _held_terms(query, found | parts) if parts else held


def _held_terms(query: QueryWeights, found: set[str]) -> list[str]:
    """The query's informative words among ``found``, by stem; the word being typed by
    prefix."""
    held = _held_stems(found, {stem(t) for t in query.terms if t not in found})
    return [
        t
        for t in query.terms
        if t in found
        or stem(t) in held
        or (t == query.partial and any(w.startswith(t) for w in found))
    ]


def _held_stems(found: set[str], wanted: set[str]) -> set[str]:
    """Those of the stems ``wanted`` that a word of ``found`` has. Porter's rules change a
    word's ending only, so a word and its (non-empty) stem start with the same letter: only
    the words starting as a wanted stem does are stemmed (a tenth of them, most often; a
    gate judging 26 candidates a search spent 1 ms stemming every word)."""
    if not wanted:
        return set()
    if "" in wanted:  # a one-letter word ("s") stems to nothing
        return {stem(w) for w in found} & wanted
    firsts = {s[0] for s in wanted}
    return {stem(w) for w in found if w[0] in firsts} & wanted


def coverage(query: QueryWeights, entry: Entry) -> float:
    """The share (0..1) of the query's information the entry holds."""
    total = query.total
    if not total:
        return 0.0
    return min(1.0, sum(query.weights[t] for t in matched_terms(query, entry)) / total)


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def evidence(cosine: float, covered: float) -> float:
    """What the relevance is a curve of: ``cosine + COVERAGE_WEIGHT * coverage``.

    (Counting the coverage squared, so that part of the words counts less than its share,
    silenced this project's own memory more on programming questions, 0.83 → 0.91 of the
    off-topic set, but judged 5 SciFact claims instead of 3 to have nothing relevant:
    nDCG@10 0.7345 → 0.7295; not taken.)"""
    return cosine + COVERAGE_WEIGHT * covered


def relevance(cosine: float, covered: float) -> float:
    """The relevance (0..1) of a result from its cosine similarity and its coverage."""
    return _logistic(SLOPE * (evidence(cosine, covered) - EVIDENCE_MIDPOINT))


def answering_relevance(cosine: float, covered: float, query: QueryWeights) -> float:
    """The relevance that decides whether a query is answered at all: as
    :func:`relevance`, with the coverage measured against :attr:`QueryWeights.covered_total`
    (a few words the memory has never seen left out). The score shown, and the order, keep
    the plain coverage: a forgiven word must not lift the entries that hold the query's
    common words above the one that answers it."""
    total, known = query.total, query.covered_total
    return relevance(cosine, min(1.0, covered * total / known) if known else covered)


def keyword_strength(bm25: float, query: QueryWeights) -> float:
    """A keyword hit's BM25 (positive, higher is better) over the summed weight of the
    query's informative words: comparable across queries, unlike BM25 itself, which
    grows with the number of words."""
    return bm25 / query.total if query.total else 0.0


def keyword_relevance(bm25: float, query: QueryWeights) -> float:
    """The relevance (0..1) of a keyword-only result (keyword mode: no model)."""
    if not query.total:
        return 0.0
    return _logistic(KEYWORD_SLOPE * (keyword_strength(bm25, query) - KEYWORD_MIDPOINT))
