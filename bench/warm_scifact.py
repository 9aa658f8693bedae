"""Warm search latency of one code tree on ``bench.warm_latency``'s memory, in a process
of its own — ``python bench/warm_scifact.py CODE_DIR [ROUNDS]``: to compare two trees
(an exported main and this one) on one memory, alternately.

The memory is ``bench.synthetic``'s 10,000 SciFact entries with their real vectors (built
by ``python -m bench.warm_latency``, which also brings its vector index up to date); the
queries the 100 first SciFact test claims, embedded by the real model once (a vector
search each: the query cache then holds them, as for a user refining a search). Prints
the p50 of ``ROUNDS`` (3) rounds of keyword, vector and hybrid searches of them.
"""

import os
import statistics
import sys
import time
from pathlib import Path

code = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
here = str(Path(__file__).resolve().parents[1])
sys.path[:0] = [code, here]  # the tree's engine; this checkout's bench where the tree's lacks it
os.environ["LANCE_LOG"] = "error"

import engine  # noqa: E402
from bench import synthetic  # noqa: E402
from bench.scifact import load_queries  # noqa: E402
from engine.services.memory import Memory  # noqa: E402

assert engine.__file__.startswith(code), engine.__file__  # that tree's engine
root = Path(here) / "bench" / ".cache" / "synthetic-10000"
if not synthetic.root_for(10_000).exists() and not root.exists():
    raise SystemExit("build the memory first: python -m bench.warm_latency")
queries = list(load_queries("test")[0].values())[:100]
with Memory.open(root) as memory:
    memory.search("warm up", mode="hybrid")
    for query in queries:
        memory.search(query, mode="vector", limit=10)
    shown = []
    for mode in ("keyword", "vector", "hybrid"):
        times = []
        for _ in range(rounds):
            for query in queries:
                started = time.perf_counter()
                memory.search(query, mode=mode, limit=10)
                times.append((time.perf_counter() - started) * 1000)
        shown.append(f"{mode} p50 {statistics.median(times):.1f} ms")
print(code, " | ".join(shown))
