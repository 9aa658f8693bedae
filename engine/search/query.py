r"""Query text → search terms: the one tokenizer every retriever and the gate share.

Keyword search, the relevance gate and the Claude Code hook all read a query the same
way: ``\w+`` tokens, lower-cased, stopwords dropped unless nothing else is left.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

import snowballstemmer

WORD = re.compile(r"\w+", re.UNICODE)
"""A term: a run of word characters (letters, digits, underscore; any script)."""
MAX_QUERY_TERMS = 128
"""Most distinct terms of one query sent to FTS5."""
MIN_PREFIX = 2
"""Shortest word being typed that is searched as a prefix: a single letter as a prefix
(``s*``) would match nearly every entry, so it is searched as a whole word."""
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "should",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


def words(text: str) -> list[str]:
    """Every term of ``text``, lower-cased, in order (repeats kept)."""
    return [t.lower() for t in WORD.findall(text)]


_PORTER = snowballstemmer.stemmer("porter")


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """The Porter stem of a lower-cased word, as FTS5's ``porter`` tokenizer indexes it
    ("turnips" and "turnip" both give "turnip")."""
    return str(_PORTER.stemWord(word))


def content_terms(query: str) -> list[str]:
    """The distinct lower-cased terms of ``query`` that keyword search looks for."""
    terms = list(dict.fromkeys(t.lower() for t in WORD.findall(query)))
    return ([t for t in terms if t not in STOPWORDS] or terms)[:MAX_QUERY_TERMS]


def is_prefix(query: str, tokens: list[str]) -> bool:
    """Whether the last token of ``query`` is a word being typed, searched as a prefix:
    not followed by a space, and at least :data:`MIN_PREFIX` characters long."""
    return bool(tokens) and not query[-1].isspace() and len(tokens[-1]) >= MIN_PREFIX


def build_match_query(
    query: str, *, prefix_last: bool = False, leave_out: frozenset[str] = frozenset()
) -> str | None:
    """Turn free text into a safe FTS5 MATCH expression, or ``None`` if it has no terms.

    Every term is double-quoted, so FTS5 operators in user text (``NOT``, ``*``, ``:``,
    ``-``, parentheses, quotes) are searched for as words, never parsed. Terms are
    OR-ed and ranked by BM25: an implicit AND finds nothing for long natural-language
    queries. Stopwords are dropped unless the query has nothing else; so are the terms
    in ``leave_out`` (see :data:`engine.search.keyword.COMMON_TERM_SHARE`), unless that
    would leave nothing.
    """
    tokens = words(query)
    if not tokens:
        return None
    # FTS5 slows down sharply with very many OR-ed phrases (150k terms: ~12 s); a query
    # that long is pasted text, and its first terms rank as well as all of them.
    terms = content_terms(query)
    terms = [t for t in terms if t not in leave_out] or terms
    quoted = [f'"{t}"' for t in terms]
    # The word being typed is the last token, even when it repeats an earlier one.
    if prefix_last and is_prefix(query, tokens) and tokens[-1] in terms:
        where = terms.index(tokens[-1])
        quoted[where] = quoted[where] + "*"
    return " OR ".join(quoted)


MAX_PHRASES = 16
"""Most word pairs of one query searched as phrases."""


def build_phrase_query(
    query: str, *, prefix_last: bool = False, leave_out: frozenset[str] = frozenset()
) -> str | None:
    """The pairs of adjacent words of ``query`` (neither a stopword nor in ``leave_out``)
    as one FTS5 MATCH expression of quoted phrases (``"support group" OR "group
    meeting"``), or ``None`` when it has no such pair. The word being typed
    (``prefix_last``) is in none: it is not a whole word yet. A term left out of the
    words' query for being in too many entries is left out here too: a phrase reads the
    postings of both its words. Quoting makes it as safe as :func:`build_match_query`."""
    tokens = words(query)
    if prefix_last and is_prefix(query, tokens):
        tokens = tokens[:-1]
    skip = STOPWORDS | leave_out
    pairs: list[str] = []
    for first, second in pairwise(tokens):
        if first in skip or second in skip:
            continue
        phrase = f'"{first} {second}"'
        if phrase not in pairs:
            pairs.append(phrase)
            if len(pairs) == MAX_PHRASES:  # pasted text: its first pairs rank as well
                break
    return " OR ".join(pairs) or None
