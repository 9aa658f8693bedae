"""Adds that meet a compaction — ``python -m bench.http_load_compaction [--adds 320]
[--entries 2000] [--runs 1]``.

The part of ``bench.http_load``'s add tail that compaction makes, without the HTTP server
and the searches beside it: one process adds ``--adds`` notes one at a time to a memory of
``--entries`` notes (the fake embedder of the tests, tests/fakes.py: the figures are the
write path's), and LanceDB's ``optimize`` is timed wherever it runs. Prints the adds' p50 /
p95 / p99 / max, the compactions' durations, and the median add among those that
overlapped a compaction against the others. With the compaction in the write (before
issue 38's background compaction) the add that finds it due waits for all of it; run
against another checkout with ``PYTHONPATH=<checkout> python bench/http_load_compaction.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder
from lancedb.table import LanceTable

from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.storage import maintenance


def run(adds: int, entries: int) -> None:
    spans: list[tuple[float, float]] = []
    real = LanceTable.optimize

    def timed(self: LanceTable, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(self, **kwargs)
        finally:
            spans.append((started, time.perf_counter()))

    LanceTable.optimize = timed  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        (root / ".claude").mkdir(parents=True)
        notes = [f"Note {i} on topic {i % 8}: port {8000 + i} restarts" for i in range(entries)]
        with Memory.open(root, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry(text, source="session") for text in notes])
        spans.clear()
        times: list[tuple[float, float]] = []
        with Memory.open(root, embedder=FakeEmbedder()) as memory:
            for i in range(adds):
                started = time.perf_counter()
                memory.add(f"sequential fact {i} about the caching layer")
                times.append((started, time.perf_counter()))
    LanceTable.optimize = real  # type: ignore[method-assign]
    ms = [(end - start) * 1000 for start, end in times]
    overlaps = [any(a < end and start < b for a, b in spans) for start, end in times]
    met = [t for t, over in zip(ms, overlaps, strict=True) if over]
    others = [t for t, over in zip(ms, overlaps, strict=True) if not over]
    q = statistics.quantiles(ms, n=100, method="inclusive")
    background = hasattr(maintenance, "Compactor")
    print(
        f"{adds} single adds on {entries} entries, compaction "
        f"{'in a thread of its own' if background else 'in the write'}: "
        f"p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {max(ms):.1f} ms"
    )
    print(f"  {len(spans)} compactions, ms: " + " ".join(f"{(b - a) * 1000:.0f}" for a, b in spans))
    if met:
        print(
            f"  adds overlapping a compaction: {len(met)}, median {statistics.median(met):.1f} ms;"
            f" the others: {len(others)}, median {statistics.median(others):.1f} ms"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--adds", type=int, default=320)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    for _ in range(args.runs):
        run(args.adds, args.entries)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
