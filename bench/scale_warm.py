"""Warm hybrid and keyword search of one code tree on a memory built by ``bench.scale``, in
a process of its own — ``python bench/scale_warm.py CODE_DIR MEMORY_DIR N``: to compare two
trees (an exported main and this one) on one memory, alternately, without the maintenance
``bench.scale`` runs first (the store's vector index is brought up to date first, as
the memory's next maintenance would). Prints p50 / p95 of N hybrid, then N keyword searches, and the
process's resident memory after them."""

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
mem = Memory.open(root, embedder=FakeEmbedder(384))
import engine  # noqa: E402
from engine.services.parts import parts_of  # noqa: E402

if True:  # the store's vector index as the memory's next maintenance leaves it
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
rss = int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) / 1024
print(code, f"hybrid {p50_p95(h)} | keyword {p50_p95(k)} | RSS {rss:.0f} MiB")
