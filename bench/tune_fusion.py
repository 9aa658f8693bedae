"""Tune hybrid fusion on SciFact's *train* split (never the test split).

    python -m bench.tune_fusion

One pass collects each query's vector and keyword top-200 lists; fusion variants
(candidate depth, RRF k, keyword weight) are then scored offline with nDCG@10.
"""

from __future__ import annotations

from bench.metrics import ndcg_at_k
from bench.scifact import load_queries, open_memory
from engine.core.models import SearchMode
from engine.services.parts import parts_of


def fuse(vec: list[str], kw: list[str], depth: int, k: int, w_kw: float) -> list[str]:
    """Weighted RRF of the first ``depth`` items of each list."""
    scores: dict[str, float] = {}
    for rank, doc in enumerate(vec[:depth], start=1):
        scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    for rank, doc in enumerate(kw[:depth], start=1):
        scores[doc] = scores.get(doc, 0.0) + w_kw / (k + rank)
    return sorted(scores, key=lambda d: scores[d], reverse=True)


def main() -> None:
    memory, id_map, _ = open_memory(False)
    parts_of(memory).searcher.min_score = -1.0
    queries, qrels = load_queries("train")
    runs = []
    for qid, text in queries.items():
        vec = memory.search(text, mode=SearchMode.VECTOR, limit=200).results
        kw = memory.search(text, mode=SearchMode.KEYWORD, limit=200).results
        runs.append((qid, [id_map[r.entry.id] for r in vec], [id_map[r.entry.id] for r in kw]))
    print(f"train split, {len(runs)} queries: nDCG@10 of fusion variants")
    for depth in (40, 100, 200):
        for k in (20, 60):
            for w_kw in (1.0, 1.25, 1.5):
                score = sum(
                    ndcg_at_k(fuse(v, kw, depth, k, w_kw)[:10], qrels[q], 10) for q, v, kw in runs
                ) / len(runs)
                print(f"  depth {depth:>3}  k {k:>2}  keyword weight {w_kw:.2f}: {score:.4f}")


if __name__ == "__main__":
    main()
