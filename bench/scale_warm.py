"""Warm hybrid and keyword search of one code tree on a memory built by ``bench.scale``, in
a process of its own — ``python bench/scale_warm.py CODE_DIR MEMORY_DIR N``: to compare two
trees (an exported main and this one) on one memory, alternately, without the maintenance
``bench.scale`` runs first (the store's vector index is brought up to date first, as the
memory's next maintenance would). Prints p50 / p95 of N hybrid, then N keyword searches,
and the process's resident memory after them.

Warm means one search before them unless ``--warm=W`` asks for more: every file of the
memory read once (so that it is in the OS page cache, as a server's files are after a
while), then W searches of each mode on queries other than the N timed (the last of
``queries.json``). With one search, a million entries' first queries read the index and
the keyword doclists from disk: p95 of 500–800 ms, and a p50 that moves with them.
With an argument ``phases``, also
where the hybrid searches' time went: the mean per search of each step (the keyword
ranking, the store's nearest query and its reads by id, or both at once where the tree
reads them together, the mirror's reads, fusion, the gate with the reads it makes),
timed by wrapping those functions here, not in the engine."""

import json
import os
import sys
import time
from pathlib import Path

args = [a for a in sys.argv[1:] if not a.startswith("--warm")]
warm = next((int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--warm=")), 0)
code = args[0]
sys.path[:0] = [code, code + "/tests"]
os.environ["LANCE_LOG"] = "error"
from fakes import FakeEmbedder  # noqa: E402

from bench.metrics import p50_p95  # noqa: E402
from engine.services.memory import Memory  # noqa: E402

root = args[1]
n = int(args[2])
asks = json.loads(Path(root, "queries.json").read_text())
if warm and n + warm >= len(asks):
    raise SystemExit(f"{len(asks)} queries: not enough for {n} timed and {warm} to warm up")
for file in sorted(Path(root).rglob("*")) if warm else ():
    if file.is_file():
        with file.open("rb") as f:
            while f.read(1 << 24):
                pass
mem = Memory.open(root, embedder=FakeEmbedder(384))
import engine  # noqa: E402
from engine.services.parts import parts_of  # noqa: E402

if True:  # the store's vector index as the memory's next maintenance leaves it
    t = time.perf_counter()
    done = parts_of(mem).records.maintain_vector_index()
    print(f"maintenance: {done or 'nothing due'} ({time.perf_counter() - t:.1f} s)", flush=True)

assert engine.__file__.startswith(code), engine.__file__  # that tree's engine
spent: dict[str, list[float]] = {}


def timed(owner: object, name: str, label: str) -> None:
    real = getattr(owner, name)

    def wrapper(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.setdefault(label, []).append(time.perf_counter() - start)

    setattr(owner, name, wrapper)


if args[3:] == ["phases"]:
    import engine.search.searcher as searcher
    from engine.search.keyword import KeywordSearcher
    from engine.storage.mirror import EntryMirror
    from engine.storage.record_store import RecordStore

    timed(KeywordSearcher, "ranks", "keyword ranks (FTS5)")
    timed(RecordStore, "nearest", "store nearest")
    timed(RecordStore, "vectors_for", "store vectors by id")
    if hasattr(RecordStore, "nearest_with_vectors"):  # a tree that reads them together
        timed(RecordStore, "nearest_with_vectors", "store nearest + by id")
    timed(EntryMirror, "get_many", "mirror entries")
    timed(searcher, "fuse_ranks", "fusion")
    timed(searcher, "gate_candidates", "gate (with its reads)")
mem.search(asks[0], mode="hybrid")
for q in asks[len(asks) - warm :] if warm else ():
    mem.search(q, mode="hybrid")
    mem.search(q, mode="keyword")
spent.clear()
h: list[float] = []
k: list[float] = []
for q in asks[1 : n + 1]:
    t = time.perf_counter()
    mem.search(q, mode="hybrid")
    h.append((time.perf_counter() - t) * 1000)
phases = {label: (sum(times) * 1000 / n, len(times) / n) for label, times in spent.items()}
for q in asks[1 : n + 1]:
    t = time.perf_counter()
    mem.search(q, mode="keyword")
    k.append((time.perf_counter() - t) * 1000)
rss = int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) / 1024
print(code, f"hybrid {p50_p95(h)} | keyword {p50_p95(k)} | RSS {rss:.0f} MiB")
for label, (ms, calls) in phases.items():
    print(f"  {label:<24} {ms:6.2f} ms a search ({calls:.2f} calls)")
