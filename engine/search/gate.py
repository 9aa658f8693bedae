"""The relevance gate: which candidates are worth showing at all, with the score shown.

Every candidate gets its relevance (:mod:`engine.search.scoring`: cosine similarity and
the share of the query's information it holds). Two decisions follow:

- **the query**: a search shows anything only when one of its candidates is relevant
  (:data:`~engine.search.scoring.RELEVANT`, 0.5). An unrelated query (nonsense, another
  topic) has no candidate close in meaning nor holding its rare words, and returns
  nothing instead of its least-bad neighbours;
- **each result**: once the query has found something, results down to ``min_score``
  (0.2 by default) are listed: the answer to a question is often a section or a piece of
  code less close in wording than the overview above it.

The fused ranking chooses which candidates are judged, best first (twice ``limit`` that
reach ``min_score``, and at least :data:`SCAN` while none is relevant). They are listed
by their fused value plus their evidence (:func:`order_key`): the fused value sees how
far a result stands above the rest in this query's lists, the evidence what it holds in
absolute terms. The score shown is the relevance, pooled where that order and the
relevance disagree so that it never rises down the list (:func:`pooled`); a list is thus
always in the order of its scores. A long page cut in many sections should not fill the
list: past a file's best :data:`PER_FILE` sections, its others are folded under its best
one (counted in its ``folded``, never moved down the list), as search engines group
results by site, and its second is listed below the best section of every other file
listed (:func:`files_first`), the files' best sections by their file's value (its best
section and, a quarter as much, its next two: :func:`file_values`), so that a file whose
definitions are cut apart is weighed as a whole. An interface file and its
implementation are one answer-space: where one is listed, the other's best listed section
follows it (:func:`engine.search.companions.pair_companions`). A ``min_score`` of 0 or
less turns the two relevance decisions off. An entry still waiting for its vector
(two-phase indexing) is judged by its words alone.

A summary the analysis wrote (:func:`is_summary`: a module's, a package's, the
project's) never displaces a section that answers: where a section of its file or folder
is listed, that section takes the better of their two places and the summary is left
out (:func:`fold_summaries`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core.models import Entry, Gate, ScoreExplanation, SearchResult, Source
from engine.search.companions import pair_companions
from engine.search.scoring import (
    RELEVANT,
    QueryWeights,
    answering_relevance,
    coverage,
    evidence,
    relevance,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from engine.storage.lance_search import Underway

VECTOR_PENDING = Gate.VECTOR_PENDING
"""The gate's reason for an entry judged on its words alone: it has no vector yet."""

RERANK_WEIGHT = 5.0
"""Weight of a result's absolute evidence against its fused value in the order listed,
drawing on twice ``limit`` candidates. Chosen on SciFact train and LoCoMo dev: nDCG@10
0.7388 in the fused order alone, 0.7425 at 5 (0.7425 / 0.7420 / 0.7453 / 0.7417 at 8 /
12 / 20 / 40); LoCoMo R@5 0.6163, 0.6207 / 0.6228 / 0.6224 / 0.6186 at 2 / 5 / 10 / 20."""
PER_FILE = 2
"""Sections of one file listed before the file's others are folded under its best."""
FILE_SUPPORT = 0.25
"""Weight of a file's next sections in its value (:func:`file_values`). Chosen on the 13
``bench/repo_qa`` sets (0, 0.125, 0.25, 0.35, 0.5 tried: 0.125–0.25 gain three questions
and lose none, 0.5 loses four) and checked on three held-out repositories."""
SCAN = 40
"""Fused candidates examined at least before a search says that none is relevant."""

FOUND = float("inf")
"""The ``best`` that says the query has found something already (a search filtered by
category, whose whole memory holds a relevant result): the gate lists the filtered
candidates down to ``min_score`` without asking one of them to be relevant."""

Candidate = TypeVar("Candidate")
"""A fused candidate: a result, or what :func:`gate_candidates` is told to make one of."""

Similarities = Callable[["npt.NDArray[np.float32]", Sequence[Any]], "Underway[dict[str, float]]"]
"""Cosine similarity of a query vector to those of a batch of candidates whose similarity
is not known yet, by entry id (missing: unknown), read under way: the gate reads the
batch's entries and judges its other candidates meanwhile."""

ResultsOf = Callable[[Sequence[Any]], list[SearchResult]]
"""A batch of candidates made results, their entries read (one no longer stored is left
out; the batch's vectors are read meanwhile)."""


def judged(
    result: SearchResult, sim: float | None, query: QueryWeights, *, unembedded: bool = False
) -> SearchResult:
    """``result`` scored by its relevance, with its cosine similarity and coverage in
    the explanation and the gate's reason: which half of the evidence is the larger,
    ``similarity`` (the cosine) or ``terms`` (the query's words it holds, weighed), or
    ``vector_pending`` when it has no vector yet. Without a similarity (unembedded, or a
    vector that cannot be read) it is judged by its words alone, as if its cosine were 0
    (unrelated text), so holding all the query's words reads 0.5."""
    covered = coverage(query, result.entry) if query.weights else None
    words = covered or 0.0
    if sim is None:
        score = relevance(0.0, words)
        reason = VECTOR_PENDING if unembedded else Gate.TERMS
    else:
        score = relevance(sim, words)
        reason = Gate.SIMILARITY if sim >= evidence(0.0, words) else Gate.TERMS
    shown_coverage = None if covered is None else round(covered, 6)
    why = result.explanation  # made anew, not replace()d: a search judges 20-40 of them
    explanation = ScoreExplanation(
        vector_rank=why.vector_rank,
        vector_similarity=sim,
        keyword_rank=why.keyword_rank,
        keyword_score=why.keyword_score,
        fused_score=why.fused_score,
        vector_weight=why.vector_weight,
        coverage=shown_coverage,
        gate=reason,
        folded=why.folded,
    )
    return SearchResult(result.entry, score, explanation, result.stale, result.stale_reason)


def gate_candidates(
    query: QueryWeights,
    qvec: npt.NDArray[np.float32],
    fused: Sequence[Candidate],
    results_of: ResultsOf,
    limit: int,
    *,
    min_score: float,
    similarities: Similarities,
    unembedded: Collection[str] = (),
    found: bool = False,
) -> list[SearchResult]:
    """The best ``limit`` fused candidates by :func:`shown`'s order, scored by their
    relevance, or none when no candidate is relevant (see the module docstring) and the
    query is not ``found`` to have found something elsewhere (:data:`FOUND`).
    Candidates are judged in fused order until twice ``limit`` reach ``min_score`` (the
    order may draw on them), a batch at a time: ``results_of`` makes a batch's results
    (reading their entries; one no longer stored is left out) and the similarities of
    keyword-only candidates are looked up together. An entry in ``unembedded`` has no
    vector yet (two-phase indexing) and is judged by its words alone. A query without an
    informative word keeps nothing."""
    if not query.terms:
        return []
    scored: list[SearchResult] = []
    waiting: list[SearchResult] = []
    best, batch_start, depth = (FOUND if found else 0.0), 0, 2 * limit
    while batch_start < len(fused) and (
        _listed(scored, min_score) + len(waiting) < depth
        or (best < RELEVANT and batch_start < SCAN)
    ):
        size = max(limit * 2, 20)
        chunk = fused[batch_start : batch_start + size]
        batch_start += size
        reading = similarities(qvec, chunk)  # begun first: read beside what follows
        try:
            batch = _judged_batch(results_of(chunk), reading, query, unembedded)
        except BaseException:  # nothing of the read is left open
            reading.close()
            raise
        for result in batch:
            if result.explanation.gate == VECTOR_PENDING:
                waiting.append(result)
                continue
            scored.append(result)
            best = max(best, answering(result, query))
    return shown(scored, min_score, limit, waiting, best=best)


def _judged_batch(
    batch: Sequence[SearchResult],
    reading: Underway[dict[str, float]],
    query: QueryWeights,
    unembedded: Collection[str],
) -> list[SearchResult]:
    """``batch`` judged, in its order: first the results whose similarity fusion knows,
    while ``reading`` (the others' similarities) is under way, then the others with what
    it read (those in ``unembedded`` on their words alone)."""
    done: dict[int, SearchResult] = {}
    for n, result in enumerate(batch):
        sim = result.explanation.vector_similarity
        if sim is not None:
            done[n] = judged(result, sim, query)
    sims = reading.result()
    for n, result in enumerate(batch):
        if n not in done:
            sim = sims.get(result.entry.id)
            waits = sim is None and result.entry.id in unembedded
            done[n] = judged(result, sim, query, unembedded=waits)
    return [done[n] for n in range(len(batch))]


def answering(result: SearchResult, query: QueryWeights) -> float:
    """How far a judged result answers the query, for the decision to show anything:
    its relevance with a few words the memory has never seen left out of its coverage
    (:func:`engine.search.scoring.answering_relevance`); its score is the plain one."""
    why = result.explanation
    if why.gate == VECTOR_PENDING:
        return 0.0
    return answering_relevance(why.vector_similarity or 0.0, why.coverage or 0.0, query)


def result_evidence(result: SearchResult) -> float:
    """A judged result's evidence (:func:`engine.search.scoring.evidence`)."""
    why = result.explanation
    return evidence(why.vector_similarity or 0.0, why.coverage or 0.0)


def order_key(result: SearchResult) -> float:
    """Where a result is listed: its fused value (how far it stands above the other
    candidates in both lists, relative to this query) plus :data:`RERANK_WEIGHT` times
    its evidence (what it holds in absolute terms), so that a result near the top of both
    lists goes above one first in one list and far down the other."""
    return (result.explanation.fused_score or 0.0) + RERANK_WEIGHT * result_evidence(result)


def shown(
    results: Sequence[SearchResult],
    min_score: float,
    limit: int,
    waiting: Sequence[SearchResult] = (),
    *,
    key: Callable[[SearchResult], float] = order_key,
    best: float | None = None,
) -> list[SearchResult]:
    """The first ``limit`` of ``results`` and ``waiting`` (entries without their vector
    yet, kept on their keyword match as before they are embedded) in ``key`` order
    (:func:`order_key`; vector mode: the cosine), summaries folded into a section of their
    place (:func:`fold_summaries`), their scores pooled so that none rises
    down the list (:func:`pooled`), those under ``min_score`` left out, a file's sections
    past its best two folded (:func:`fold_by_file`). ``results`` count only when
    ``min_score`` is 0 or less or one of them is relevant: ``best``, the query's best
    :func:`answering` relevance (by default their best score)."""
    if best is None:
        best = max((r.score for r in results), default=0.0)
    if min_score > 0 and best < max(RELEVANT, min_score):
        results = []
    ordered = sorted([*results, *waiting], key=key, reverse=True)
    ordered = files_first(ordered, min_score, key)
    ordered = pair_companions(ordered, lambda r: _is_listed(r, min_score))
    ordered = pooled(fold_summaries(ordered, min_score))
    if min_score > 0:
        ordered = [
            r for r in ordered if r.score >= min_score or r.explanation.gate == VECTOR_PENDING
        ]
    return fold_by_file(ordered)[:limit]


def files_first(
    results: Sequence[SearchResult],
    min_score: float,
    key: Callable[[SearchResult], float] = order_key,
) -> list[SearchResult]:
    """``results`` (in listing order, by ``key``) with each file's later sections listed
    below the best section of every other file listed (at ``min_score`` or above, or
    waiting for its vector): every file found is shown once before a second part of one
    is. A long page cut in many sections (a migration guide that touches every topic)
    otherwise takes two of the first five places with sections that each match a little,
    and the page that answers falls out of them. The files' best sections are listed by
    their file's value (:func:`file_values`): a file whose definitions are cut apart
    answers a question about what it does as a whole with several sections that each
    hold part of it. The order is kept within each file; entries without a file (notes)
    keep their own ``key``."""
    values = file_values(results, min_score, key)
    seen: set[str] = set()
    head: list[SearchResult] = []
    later: list[SearchResult] = []
    for result in results:
        path = result.entry.file_path
        if path and path in seen:
            later.append(result)
            continue
        seen.add(path)
        (head if not path or _is_listed(result, min_score) else later).append(result)
    head.sort(key=lambda r: values.get(r.entry.file_path, key(r)), reverse=True)
    return head + later


def file_values(
    results: Sequence[SearchResult],
    min_score: float,
    key: Callable[[SearchResult], float] = order_key,
) -> dict[str, float]:
    """Each file's value in the listing: the ``key`` of its best listed section plus
    :data:`FILE_SUPPORT` times the keys of its next :data:`PER_FILE` listed sections (the
    way passage retrieval scores a document by its best passage and the others that
    support it). A single section is its own value; entries without a file have none."""
    keys: dict[str, list[float]] = {}
    for result in results:
        path = result.entry.file_path
        if path and _is_listed(result, min_score):
            keys.setdefault(path, []).append(key(result))
    return {
        path: max(found) + FILE_SUPPORT * sum(max(0.0, k) for k in sorted(found)[-2::-1][:PER_FILE])
        for path, found in keys.items()
    }


def is_summary(entry: Entry) -> bool:
    """Whether ``entry`` is a summary the analysis wrote about a module, a folder, the
    project or one of its topics rather than a part of a file's own text: an entry of
    source ``discovery`` with no line span. The analysis records the lines of every piece
    it cuts from a file (a definition, a part of one) and none for what it writes about a
    place as a whole; documentation and notes are not the analysis's."""
    return entry.source == Source.DISCOVERY and not entry.line_start


def fold_summaries(results: Sequence[SearchResult], min_score: float) -> list[SearchResult]:
    """``results`` (in listing order) with each summary (:func:`is_summary`) folded into
    the first listed result of its own place that is not a summary: a section of its
    file, of a file in its folder, of any file for a summary of the whole project. That
    section is listed at the better of the two places and the summary left out, so a
    summary never takes a place from a section that answers, and its place keeps its
    rank. A summary stays where no section of its place is listed: it is then the only
    result that speaks for that place. Listed: at ``min_score`` or above (any result when
    ``min_score`` is 0 or less), or waiting for its vector."""
    listed = list(results)
    i = 0
    while i < len(listed):
        j = _section_for(listed, i, min_score) if is_summary(listed[i].entry) else None
        if j is not None and j < i:
            del listed[i]
            continue
        if j is not None:
            listed[i] = listed.pop(j)
        i += 1
    return listed


def _section_for(listed: Sequence[SearchResult], i: int, min_score: float) -> int | None:
    """Where in ``listed`` the first listed section of the place of the summary at ``i``
    is, if anywhere."""
    place = listed[i].entry.file_path.rstrip("/")
    return next(
        (
            k
            for k, r in enumerate(listed)
            if k != i and _within(r, place) and _is_listed(r, min_score)
        ),
        None,
    )


def _within(result: SearchResult, place: str) -> bool:
    """Whether ``result`` is a section (not a summary) of a file at ``place``: the file
    itself, a file in the folder, any file when ``place`` is the project (``""``)."""
    path = result.entry.file_path
    return (
        bool(path)
        and not is_summary(result.entry)
        and (not place or path == place or path.startswith(f"{place}/"))
    )


def _is_listed(result: SearchResult, min_score: float) -> bool:
    """Whether ``result`` will be listed (:func:`shown`'s floor)."""
    return min_score <= 0 or result.score >= min_score or result.explanation.gate == VECTOR_PENDING


def pooled(results: Sequence[SearchResult]) -> list[SearchResult]:
    """``results`` in the same order, each score replaced by the isotonic regression of
    the scores on that order (pool adjacent violators): where a result's relevance is
    higher than the one listed above it, the two (and any others caught up) share their
    mean. The scores then never rise down the list, and each stays on the relevance
    scale."""
    blocks: list[list[float]] = []  # [sum of scores, count]
    for result in results:
        blocks.append([result.score, 1.0])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] < blocks[-1][0] * blocks[-2][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    values = [total / count for total, count in blocks for _ in range(int(count))]
    return [replace(r, score=v) for r, v in zip(results, values, strict=True)]


def _listed(results: Sequence[SearchResult], min_score: float) -> int:
    """How many of ``results`` at ``min_score`` or above would be listed once folded (at
    most :data:`PER_FILE` a file; entries without a file are never folded)."""
    results = [r for r in results if r.score >= min_score]
    per_file: dict[str, int] = {}
    for result in results:
        path = result.entry.file_path
        if path:
            per_file[path] = per_file.get(path, 0) + 1
    return sum(1 for r in results if not r.entry.file_path) + sum(
        min(n, PER_FILE) for n in per_file.values()
    )


def fold_by_file(results: Sequence[SearchResult], per_file: int = PER_FILE) -> list[SearchResult]:
    """``results`` (sorted by score) with each file's sections past its best ``per_file``
    left out of the list and counted on the file's best result (``folded``); the order
    is kept. Entries without a file (notes) are never folded."""
    listed: list[SearchResult] = []
    best: dict[str, int] = {}
    seen: dict[str, int] = {}
    for result in results:
        path = result.entry.file_path
        seen[path] = seen.get(path, 0) + 1
        if path and seen[path] > per_file:
            first = listed[best[path]]
            why = replace(first.explanation, folded=first.explanation.folded + 1)
            listed[best[path]] = replace(first, explanation=why)
            continue
        if path and path not in best:
            best[path] = len(listed)
        listed.append(result)
    return listed
