r"""Query text → search terms: the one tokenizer every retriever and the gate share.

A search reads its text once (:meth:`Query.parse`): ``\w+`` tokens, lower-cased,
stopwords dropped unless nothing else is left, the word being typed (search as you type)
and the filters. The :class:`Query` then serves every part of the search: the FTS5
expressions of keyword search (:meth:`Query.match`, :meth:`Query.phrases`), the
informative words the gate and the relevance score weigh (:attr:`Query.informative`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import snowballstemmer

from engine.core.models import Category

WORD = re.compile(r"\w+", re.UNICODE)
"""A term: a run of word characters (letters, digits, underscore; any script)."""
_ASCII_SEPARATORS = str.maketrans(
    {chr(c): " " for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")}
)


def word_set(text: str) -> set[str]:
    """The distinct terms of ``text`` (:data:`WORD`'s runs, as they are written). An
    ASCII text's are split at its other characters instead of matched one by one: the
    same terms in 0.6 of the time (the relevance gate reads every candidate's text)."""
    if text.isascii():
        return set(text.translate(_ASCII_SEPARATORS).split())
    return set(WORD.findall(text))


def name_parts(words: set[str]) -> set[str]:
    """The parts of the ``words`` joined by underscores (``xdg_config_home`` → ``xdg``,
    ``config``, ``home``): the words the keyword index reads in them (FTS5's
    ``unicode61`` separates at ``_``)."""
    return {part for word in words if "_" in word for part in word.split("_") if part}


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
    """Every term of ``text``, lower-cased, in order (repeats kept): the tokenizer."""
    return [t.lower() for t in WORD.findall(text)]


_PORTER = snowballstemmer.stemmer("porter")


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """The Porter stem of a lower-cased word, as FTS5's ``porter`` tokenizer indexes it
    ("turnips" and "turnip" both give "turnip")."""
    return str(_PORTER.stemWord(word))


def is_informative(term: str) -> bool:
    """A word that says what a query is about: not a stopword, and not a single Latin
    letter or digit (``x``, ``q``, ``2``: in every memory, they match by accident)."""
    return term not in STOPWORDS and (len(term) > 1 or not term.isascii())


def is_prefix(query: str, tokens: Sequence[str]) -> bool:
    """Whether the last token of ``query`` is a word being typed, searched as a prefix:
    not followed by a space, and at least :data:`MIN_PREFIX` characters long."""
    return bool(tokens) and not query[-1].isspace() and len(tokens[-1]) >= MIN_PREFIX


def quoted(term: str) -> str:
    """``term`` as one quoted FTS5 string: searched for as a word, never parsed."""
    return '"' + term.replace('"', '""') + '"'


MAX_PHRASES = 16
"""Most word pairs of one query searched as phrases."""


@dataclass(frozen=True, slots=True)
class Query:
    """One search's query, read once: its words and filters, shared by keyword search,
    the gate, the relevance score and the explanation."""

    text: str
    tokens: tuple[str, ...]
    """Every word of the text, lower-cased, in order (repeats kept)."""
    terms: tuple[str, ...]
    """The distinct words keyword search looks for: stopwords dropped unless nothing
    else is left, at most :data:`MAX_QUERY_TERMS`."""
    partial: str | None = None
    """The word being typed (search as you type): matched as a prefix. None unless the
    search asked for it and the last word is one (:func:`is_prefix`)."""
    category: Category | None = None
    """Only entries of this category."""

    @classmethod
    def parse(
        cls, text: str, *, prefix_last: bool = False, category: Category | None = None
    ) -> Query:
        """Read ``text``: the only place a search tokenises its query."""
        tokens = tuple(words(text))
        distinct = list(dict.fromkeys(tokens))
        # FTS5 slows down sharply with very many OR-ed phrases (150k terms: ~12 s); a
        # query that long is pasted text, and its first terms rank as well as all of them.
        terms = ([t for t in distinct if t not in STOPWORDS] or distinct)[:MAX_QUERY_TERMS]
        partial = tokens[-1] if prefix_last and is_prefix(text, tokens) else None
        return cls(text, tokens, tuple(terms), partial, category)

    @property
    def informative(self) -> tuple[str, ...]:
        """The distinct words that carry meaning, in order (:func:`is_informative`);
        empty when the query has none."""
        return tuple(t for t in dict.fromkeys(self.tokens) if is_informative(t))

    def match(self, leave_out: frozenset[str] = frozenset()) -> str | None:
        """The query as a safe FTS5 MATCH expression, or ``None`` if it has no terms.

        Every term is double-quoted, so FTS5 operators in user text (``NOT``, ``*``,
        ``:``, ``-``, parentheses, quotes) are searched for as words, never parsed. Terms
        are OR-ed and ranked by BM25: an implicit AND finds nothing for long
        natural-language queries. The terms in ``leave_out`` (see
        :data:`engine.search.keyword.COMMON_TERM_SHARE`) are dropped, unless that would
        leave nothing. The word being typed is searched as a prefix (``"inst"*``)."""
        if not self.tokens:
            return None
        terms = [t for t in self.terms if t not in leave_out] or list(self.terms)
        found = [quoted(t) for t in terms]
        # The word being typed is the last token, even when it repeats an earlier one.
        if self.partial is not None and self.partial in terms:
            where = terms.index(self.partial)
            found[where] = found[where] + "*"
        return " OR ".join(found)

    def phrases(self, leave_out: frozenset[str] = frozenset()) -> str | None:
        """The pairs of adjacent words (neither a stopword nor in ``leave_out``) as one
        FTS5 MATCH expression of quoted phrases (``"support group" OR "group
        meeting"``), or ``None`` when it has no such pair. The word being typed is in
        none: it is not a whole word yet. A term left out of :meth:`match` for being in
        too many entries is left out here too: a phrase reads the postings of both its
        words. Quoting makes it as safe as :meth:`match`."""
        tokens = self.tokens[:-1] if self.partial is not None else self.tokens
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

    @property
    def searched_terms(self) -> tuple[str, ...]:
        """The terms whose frequencies decide which are too common to search (the word
        being typed, a prefix, is always searched)."""
        return self.terms[:-1] if self.partial is not None and self.terms else self.terms
