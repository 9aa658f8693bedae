"""When does a LanceDB ANN index pay off? Exact search against IVF indexes, by size.

    python -m bench.ann [--sizes 20000,100000] [--queries 100]

For each synthetic memory (:mod:`bench.synthetic`), over SciFact test queries embedded by
the real model: the in-memory exact search the long-lived processes use (time to load
the vectors from the embedding cache, then per query), LanceDB's flat search, and LanceDB
with an IVF_PQ and an IVF_HNSW_SQ index (build time, per-query latency, recall@10 against
exact). Indexes are built on a copy of the store, so the memories stay index-free.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from typing import Any

import numpy as np

from bench import synthetic
from bench.metrics import percentile
from bench.scifact import load_queries
from engine.services.parts import parts_of

KINDS = {"IVF_HNSW_SQ"}
"""Index types measured (IVF_PQ: add ``--pq``; it took 177 s to build at 100,000)."""


def _timed(fn: Any, queries: Any) -> tuple[list[list[str]], float, float]:
    out, times = [], []
    for q in queries:
        started = time.perf_counter()
        out.append(fn(q))
        times.append((time.perf_counter() - started) * 1000)
    return out, statistics.median(times), percentile(times, 95)


def _recall(got: list[list[str]], exact: list[list[str]]) -> float:
    return sum(len(set(g) & set(e)) for g, e in zip(got, exact, strict=True)) / (10 * len(exact))


def measure(size: int, n_queries: int) -> list[tuple[str, str, str, str, str]]:
    """Rows (method, build s, p50 ms, p95 ms, recall@10) for one size."""
    import lancedb
    from threadpoolctl import threadpool_limits

    from engine.services.memory import Memory

    root = synthetic.build(size)
    rows = []
    with Memory.open(root) as memory:
        texts = list(load_queries("test")[0].values())[:n_queries]
        qvecs = [parts_of(memory).embedder.embed_query(t) for t in texts]
        started = time.perf_counter()
        ids, _, matrix = parts_of(memory).store().all_vectors()
        load_s = time.perf_counter() - started

        def exact(q: Any) -> list[str]:
            threadpool_limits(limits=1, user_api="blas")  # a product bound by memory
            scores = matrix @ q
            top = np.argpartition(-scores, 9)[:10]
            return [ids[i] for i in top[np.argsort(-scores[top])]]

        truth, p50, p95 = _timed(exact, qvecs)
        rows.append(
            ("numpy exact (in memory)", f"load {load_s:.2f}", f"{p50:.1f}", f"{p95:.1f}", "1.000")
        )

    copy = root.parent / f"ann-{size}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root / ".claude" / "memory" / "vectors", copy)
    table = lancedb.connect(copy).open_table("memories")

    def lance(q: Any, **knobs: Any) -> list[str]:
        query = table.search(q.tolist(), vector_column_name="vector").distance_type("cosine")
        if knobs.get("flat"):
            query = query.bypass_vector_index()
        if "nprobes" in knobs:
            query = query.nprobes(knobs["nprobes"])
        if "refine" in knobs:
            query = query.refine_factor(knobs["refine"])
        return [r["id"] for r in query.select(["id", "_distance"]).limit(10).to_list()]

    lance(qvecs[0], flat=True)
    got, p50, p95 = _timed(lambda q: lance(q, flat=True), qvecs)
    rows.append(("LanceDB flat", "-", f"{p50:.1f}", f"{p95:.1f}", f"{_recall(got, truth):.3f}"))
    partitions = max(1, int(size**0.5))
    for kind, extra, sweep in (
        (
            "IVF_HNSW_SQ",
            {},
            [{"nprobes": 20}, {"nprobes": 20, "refine": 5}, {"nprobes": 50, "refine": 5}],
        ),
        ("IVF_PQ", {"num_sub_vectors": 48}, [{"nprobes": 20, "refine": 10}]),
    ):
        if kind not in KINDS:
            continue
        started = time.perf_counter()
        table.create_index(
            metric="cosine",
            vector_column_name="vector",
            index_type=kind,
            num_partitions=partitions,
            replace=True,
            **extra,
        )
        build_s = f"{time.perf_counter() - started:.1f}"
        for knobs in sweep:
            lance(qvecs[0], **knobs)
            got, p50, p95 = _timed(lambda q, k=knobs: lance(q, **k), qvecs)
            label = f"LanceDB {kind} ({partitions} partitions, {knobs})"
            recall = f"{_recall(got, truth):.3f}"
            rows.append((label, build_s, f"{p50:.1f}", f"{p95:.1f}", recall))
            build_s = "″"
    shutil.rmtree(copy, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20000,100000")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--pq", action="store_true", help="also build and measure IVF_PQ")
    args = parser.parse_args()
    if args.pq:
        KINDS.add("IVF_PQ")
    print("| entries | method | build / load s | p50 ms | p95 ms | recall@10 |")
    print("|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        for row in measure(size, args.queries):
            print(f"| {size:,} | " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
