"""Warm search latency per mode in a long-lived memory (what the TUI and serve-mcp run).

    python -m bench.warm_latency [--entries 10000] [--rounds 3]

The synthetic memory of ``--entries`` entries (:mod:`bench.synthetic`: SciFact abstracts
with their real vectors), opened once as a long-lived process; the 100 first
SciFact test queries are embedded once (a vector search each: the query cache then holds
them, as it does for a user refining a search), then each mode runs every query
``--rounds`` times (the store's vector index brought up to date first, as the memory's
next maintenance would). Prints the p50 and p95 per mode; issue 23's target is warm
hybrid p50 ≤ 15 ms at 10,000 entries. To compare two trees on one memory, run this loop
with each tree first on ``sys.path`` (``-m`` puts the working folder first), alternately,
on the same quiet machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import synthetic
from bench.scifact import load_queries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from engine.services.memory import Memory

    queries = list(load_queries("test")[0].values())[:100]
    root = synthetic.build(args.entries)
    with Memory.open(root) as memory:
        from engine.services.parts import parts_of

        # the store's vector index as the memory's next maintenance leaves it
        parts_of(memory).records.maintain_vector_index()
        memory.search("warm up", mode="hybrid")
        for query in queries:
            memory.search(query, mode="vector", limit=10)
        for mode in ("keyword", "vector", "hybrid"):
            times = []
            for _ in range(args.rounds):
                for query in queries:
                    started = time.perf_counter()
                    memory.search(query, mode=mode, limit=10)
                    times.append((time.perf_counter() - started) * 1000)
            ordered = sorted(times)
            p95 = ordered[int(0.95 * (len(ordered) - 1))]
            print(
                f"{mode:8} {args.entries:,} entries: p50 {statistics.median(times):.1f} ms, "
                f"p95 {p95:.1f} ms ({len(times)} searches)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
