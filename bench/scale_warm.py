"""Warm hybrid and keyword search of one code tree on a memory built by ``bench.scale``, in
a process of its own — ``python bench/scale_warm.py CODE_DIR MEMORY_DIR N [store]``: to
compare two trees (an exported main and this one) on one memory, alternately, without the
maintenance ``bench.scale`` runs first. Prints p50 / p95 of N hybrid, then N keyword
searches. With ``store``, every vector search reads the store (issue 49's one path: the
tree's in-memory tiers, where it has them, set to nothing) after the tree's own
``maintain_vector_index`` (its index, built on the memory if due)."""

import json
import os
import sys
import time
from pathlib import Path

code = sys.argv[1]
sys.path[:0] = [code, code + "/tests"]
os.environ["LANCE_LOG"] = "error"
from fakes import FakeEmbedder  # noqa: E402

from bench.metrics import p50_p95  # noqa: E402
from engine.services.memory import Memory  # noqa: E402

root = sys.argv[2]
n = int(sys.argv[3])
asks = json.loads(Path(root, "queries.json").read_text())
store_only = sys.argv[4:] == ["store"]
if store_only:
    from engine.search import vector

    for tier in ("SNAPSHOT_MAX", "EXACT_IN_MEMORY_MAX"):
        if hasattr(vector, tier):
            setattr(vector, tier, 0)
mem = Memory.open(root, embedder=FakeEmbedder(384), vectors_in_memory=True)
import engine  # noqa: E402
from engine.services.parts import parts_of  # noqa: E402

if store_only:
    t = time.perf_counter()
    done = parts_of(mem).records.maintain_vector_index()
    print(f"maintenance: {done or 'nothing due'} ({time.perf_counter() - t:.1f} s)", flush=True)

assert engine.__file__.startswith(code), engine.__file__  # that tree's engine
mem.search(asks[0], mode="hybrid")
h: list[float] = []
k: list[float] = []
for q in asks[1 : n + 1]:
    t = time.perf_counter()
    mem.search(q, mode="hybrid")
    h.append((time.perf_counter() - t) * 1000)
for q in asks[1 : n + 1]:
    t = time.perf_counter()
    mem.search(q, mode="keyword")
    k.append((time.perf_counter() - t) * 1000)
print(code, f"hybrid {p50_p95(h)} | keyword {p50_p95(k)}")
