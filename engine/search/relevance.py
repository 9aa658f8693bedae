"""Is an entry relevant enough to put in front of an agent unasked? (the prompt hook)

Search ranks; it does not say whether anything it found answers the prompt. The hook must
say nothing rather than inject noise, and it runs on every prompt, so it cannot load the
embedding model. The test here is keyword-only and cheap: the share of the prompt's
*information* that an entry holds. Each prompt term weighs its inverse document frequency
in this memory (the BM25 idf): "option" in a CLI library's memory weighs little, a rare
name weighs a lot, and a term the memory has never seen ("banana") weighs the most — so
a prompt about something else entirely is covered by nothing and injects nothing.
Terms are matched by FTS5 itself (the same porter stemming as search).

A prompt is read for what it is about: the words of asking ("how do I", "what is",
"where", "some", "before") are dropped with the Snowball project's English stop-word list
(:data:`PROMPT_STOPWORDS`), forms of one word count once (Porter stem), and the BM25
candidates are searched with the informative terms only. A candidate must then hold
:data:`MIN_COVERAGE` of their idf weight and at least :data:`MIN_MATCHED` of them (all
but one, up to :data:`FULL_MATCH`): one rare word shared by chance ("capital" in "the
capital of Australia") is not a match. A word no entry holds is left out of that weight
as search's gate leaves it out (one in four at most: "collides" where the code says
"clashing", a spelling the memory never uses), and only where :data:`FULL_MATCH` known
words besides one remain (:func:`measured_total`).

An entry's *name* — its section title and file path, read as words (``setCookie`` →
"set", "cookie" and "setcookie"; ``flag_mutex.go`` → "flag", "mutex") — says what the
entry is about, where its text may only mention a word in passing. A prompt term in the
name counts as held even where the index does not see it (an identifier is one token to
FTS5), an entry whose name holds :data:`NAMED_MATCH` of the prompt's terms passes without
the all-but-one rule (two words of the prompt in a name are no chance meeting: "protect a
route with basic auth" → ``src/middleware/basic-auth/index.ts``), and the entries that
pass are ordered by :func:`standing`: the weight they hold, the weight their name holds
and their BM25 score, so the section *about* the prompt's words comes before the one that
merely uses them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.models import Entry
from engine.search.keyword import KeywordHit, KeywordSearcher
from engine.search.query import MAX_QUERY_TERMS, STOPWORDS, Query, quoted, stem, words
from engine.search.scoring import QueryWeights, idf

MIN_COVERAGE = 0.35
"""Share of the prompt's idf weight an entry must hold. Chosen with :data:`MIN_MATCHED`
and :data:`FULL_MATCH` by ``python -m bench.hook_gate`` on typer, express, zustand and
hono only (0.4 and 0.45 found fewer answers, 0.5 fewer still), checked on the other four
sets of bench/repo_qa."""
MIN_MATCHED = 2
"""Informative prompt terms an entry must hold, whatever their weight: without it, one
rare word shared by chance made the hook speak on off-topic prompts."""
FULL_MATCH = 3
"""An entry must hold all but one of the prompt's informative terms, up to this many
("explain the difference between TCP and UDP" is not answered by an entry that names TCP
and UDP): two of four spoke on 12 % of the off-topic prompts on hono."""
NAMED_MATCH = 2
"""Prompt terms an entry's title and path must hold to pass without :data:`FULL_MATCH`."""
CANDIDATES = 50
"""Best BM25 hits examined: an entry named for the prompt's words may rank below sections
that repeat one of them (bench/RESULTS.md, "Issue 34: the hook without a server")."""
_NAME_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
"""A word of an identifier or a path: camelCase, PascalCase and acronyms split
(``HTTPServer`` → HTTP, Server), separators (``_``, ``-``, ``/``, ``.``) dropped."""
MIN_TERMS = 2
"""Prompts with fewer informative terms ("thanks", "go on") never inject."""
PROMPT_STOPWORDS = frozenset(
    # The Snowball project's English stop-word list (snowballstem.org/algorithms/english/
    # stop.txt): the words of asking and linking in a prompt; contractions as \w+ splits
    # them ("don't" → "don", "t").
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves what which
    who whom this that these those am is are was were be been being have has had having do
    does did doing would should could ought a an the and but if or because as until while of
    at by for with about against between into through during before after above below to
    from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too
    very can cannot will just don doesn didn isn aren wasn weren hasn haven hadn won wouldn
    shouldn couldn mustn shan let s t d ll m re ve""".split()  # noqa: SIM905
)
"""Words of a prompt that say nothing about what it is about."""


@dataclass(frozen=True, slots=True)
class RelevantHit:
    """A keyword hit that covers enough of the prompt."""

    hit: KeywordHit
    coverage: float
    """Share of the prompt's idf weight that the entry holds (0..1)."""
    matched: tuple[str, ...]
    named: tuple[str, ...] = ()
    """The matched terms that the entry's title or path holds."""


def prompt_weights(keyword: KeywordSearcher, terms: list[str]) -> QueryWeights:
    """The prompt's terms with their BM25 idf in this memory and the ones no entry holds."""
    total = keyword.mirror.count()
    frequencies = {term: keyword.mirror.match_count(quoted(term)) for term in terms}
    weights = {term: idf(total, frequencies[term]) for term in terms}
    unseen = frozenset(t for t in terms if total and not frequencies[t])
    return QueryWeights(tuple(terms), weights, None, unseen)


def measured_total(weights: QueryWeights) -> float:
    """The weight coverage is measured against: every term's, less the terms this memory
    has never seen where search's gate leaves them out (at most
    :data:`~engine.search.scoring.UNSEEN_FORGIVEN_SHARE` of them,
    :attr:`QueryWeights.covered_total`) and :data:`FULL_MATCH` known terms besides one
    remain, so that leaving them out never lowers the terms an entry must hold: three
    common words left of four ("write a limerick about a cat who codes") meet by chance."""
    known = len(weights.terms) - len(weights.unseen)
    return weights.covered_total if known - 1 >= FULL_MATCH else weights.total


def relevant_hits(
    keyword: KeywordSearcher, prompt: str, *, min_coverage: float = MIN_COVERAGE
) -> list[RelevantHit]:
    """The BM25 hits for ``prompt`` that hold at least ``min_coverage`` of its weight, the
    entries named for the prompt's words first (see the module's description)."""
    terms = prompt_terms(prompt)
    if len(terms) < MIN_TERMS:
        return []
    # BM25 over the words alone: the phrase reranking (made for search) moved the hook's
    # candidates on bench/repo_qa for no answer found, and cost one on zustand.
    hits = keyword.search(Query.parse(" ".join(terms)), CANDIDATES, phrases=False)
    if not hits:
        return []
    asked = prompt_weights(keyword, terms)
    weights = asked.weights
    total = measured_total(asked) or 1.0
    found = _matches(keyword, terms, [h.entry.id for h in hits])
    needed = max(MIN_MATCHED, min(FULL_MATCH, len(terms) - 1))
    stems = {t: stem(t) for t in terms}
    chosen = []
    for hit in hits:
        in_name = name_words(hit.entry)
        named = tuple(t for t in terms if stems[t] in in_name)
        matched = tuple(t for t in terms if hit.entry.id in found.get(t, ()) or t in named)
        coverage = min(1.0, sum(weights[t] for t in matched) / total)
        if coverage >= min_coverage and (len(matched) >= needed or len(named) >= NAMED_MATCH):
            chosen.append(RelevantHit(hit, coverage, matched, named))
    # Stable: BM25 order among entries of equal standing.
    chosen.sort(key=lambda r: -standing(r, weights, total))
    return chosen


def standing(found: RelevantHit, weights: Mapping[str, float], total: float) -> float:
    """How well ``found`` answers the prompt: the share of the prompt's weight it holds,
    plus the share its name holds, plus its BM25 score against the best hit's (0..1),
    which weighs the words by how often the entry uses them for its length: a long page
    that mentions every word once is not above the section about them."""
    named = sum(weights[t] for t in found.named) / total
    return found.coverage + named + found.hit.score


def name_words(entry: Entry) -> set[str]:
    """The Porter stems of the words of ``entry``'s section title and file path, with
    identifiers split into their words (:data:`_NAME_PART`) and kept whole as well: a
    prompt that names ``subscribeWithSelector`` has it as one term."""
    text = f"{entry.section_title} {entry.file_path}"
    parts = {stem(part.lower()) for part in _NAME_PART.findall(text)}
    return parts | {stem(word) for word in words(text)}


def prompt_terms(prompt: str) -> list[str]:
    """The informative terms of ``prompt``: its words less :data:`PROMPT_STOPWORDS` and
    the search stopwords, one per Porter stem (as FTS5 indexes them), in order; single
    letters only when they are digits."""
    terms: dict[str, str] = {}
    for word in words(prompt):
        if word in PROMPT_STOPWORDS or word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
            continue
        terms.setdefault(stem(word), word)
    return list(terms.values())[:MAX_QUERY_TERMS]


def _matches(keyword: KeywordSearcher, terms: list[str], ids: list[str]) -> dict[str, set[str]]:
    """For each term, which of the entries ``ids`` contain it (any column FTS indexes)."""
    return {term: keyword.mirror.holding(quoted(term), ids) for term in terms}
