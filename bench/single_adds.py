"""One entry at a time, as an agent adds notes — ``python -m bench.single_adds [N]``.

Adds N distinct notes one by one through ``Memory.add`` (the path MCP's ``memory_add``
takes, real model), then the same N notes in one ``add_many`` into another memory, and
prints: add latency p50 of the first and the last 10 % of the single adds (and their ratio),
and the vector store's bytes on disk and manifests for both (and the ratio), right after
the adds and after one more compaction 3 s later (versions younger than
``KEEP_VERSIONS_FOR`` survive a compaction, so a burst leaves its last seconds behind).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of


def _disk(root: Path) -> int:
    folder = root / ".claude" / "memory" / "vectors"
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _versions(root: Path) -> int:
    return len(list((root / ".claude" / "memory" / "vectors").rglob("*.manifest")))


def main(n: int = 2000) -> None:
    texts = [
        f"Note {i}: the service on port {8000 + i} restarts after deploy {i % 97}."
        for i in range(n)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        single, batch = Path(tmp) / "single", Path(tmp) / "batch"
        times = []
        with Memory.open(single) as memory:
            memory.add("warm up the model")
            for text in texts:
                started = time.perf_counter()
                memory.add(text, source="session")
                times.append((time.perf_counter() - started) * 1000)
        after_adds, manifests = _disk(single), _versions(single)
        with Memory.open(single) as memory:  # what the next writes (or `compact`) do
            time.sleep(3)
            parts_of(memory).store().compact()
        settled = _disk(single), _versions(single)
        with Memory.open(batch) as memory:
            memory.add("warm up the model")
            memory.add_many([NewEntry(t, source="session") for t in texts])
        tenth = max(1, n // 10)
        first, last = statistics.median(times[:tenth]), statistics.median(times[-tenth:])
        one, many = after_adds, _disk(batch)
        print(
            f"{n} single adds: p50 first 10 % {first:.1f} ms, last 10 % {last:.1f} ms "
            f"(ratio {last / first:.2f})"
        )
        print(
            f"bytes on disk right after the adds: {one / 1e6:.1f} MB ({manifests} manifests); "
            f"one batch {many / 1e6:.1f} MB ({_versions(batch)} manifests); ratio {one / many:.2f}"
        )
        print(
            f"after one more compaction 3 s later: {settled[0] / 1e6:.1f} MB "
            f"({settled[1]} manifests); ratio {settled[0] / many:.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
