"""Retrieval metrics as trec_eval computes them (linear gains)."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence


def ndcg_at_k(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    """nDCG@k with gains equal to the relevance grades (trec_eval ``ndcg_cut``)."""
    dcg = sum(
        qrels.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]) if qrels.get(doc)
    )
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at_k(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 100) -> float:
    """Share of the relevant documents found in the first k."""
    relevant = {d for d, g in qrels.items() if g > 0}
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def percentile(values: Sequence[float], pct: float) -> float:
    """The pct-th percentile (nearest rank)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[index]


def median(values: Sequence[float]) -> float:
    """The median."""
    return statistics.median(values)


def timed_ms(action: Callable[[int], object], runs: int) -> list[float]:
    """Milliseconds of each of ``runs`` calls ``action(n)``."""
    times = []
    for n in range(runs):
        started = time.perf_counter()
        action(n)
        times.append((time.perf_counter() - started) * 1000)
    return times


def p50_p95(times: Sequence[float], width: int = 7) -> str:
    """``p50 … ms, p95 … ms`` of ``times`` (p95 the value at index ⌊0.95 n⌋)."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"p50 {statistics.median(ordered):{width}.1f} ms, p95 {p95:{width}.1f} ms"
