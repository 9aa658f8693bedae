"""Search functions only tests call: the gate over results that are results already,
and the prompt's term weights as a plain dict (the engine's path uses
:func:`engine.search.gate.gate_candidates` and :func:`engine.search.relevance.prompt_weights`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from engine.core.models import SearchResult
from engine.search.gate import Similarities, gate_candidates
from engine.search.keyword import KeywordSearcher
from engine.search.relevance import prompt_weights
from engine.search.scoring import QueryWeights

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def gate(
    query: QueryWeights,
    qvec: npt.NDArray[np.float32],
    fused: Sequence[SearchResult],
    limit: int,
    *,
    min_score: float,
    similarities: Similarities,
    unembedded: Collection[str] = (),
) -> list[SearchResult]:
    """:func:`gate_candidates` for fused candidates that are results already."""
    return gate_candidates(
        query,
        qvec,
        fused,
        lambda batch: list(batch),
        limit,
        min_score=min_score,
        similarities=similarities,
        unembedded=unembedded,
    )


def term_weights(keyword: KeywordSearcher, terms: list[str]) -> dict[str, float]:
    """BM25 idf of each term in this memory (unseen terms get the largest)."""
    return dict(prompt_weights(keyword, terms).weights)


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``condition`` every 20 ms until it holds (True) or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
