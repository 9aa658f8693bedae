"""An agent adding notes one at a time through the MCP server, thousands of them.

    python -m bench.mcp_adds [--adds 5000]

Spawns the real ``memory-tui serve-mcp`` (real model) on an empty project and calls
``memory_add`` ``--adds`` times over stdio, one distinct note per call, with a search every
20 adds (as an agent does). Prints the add latency p50 of the first and the last 500 (and
their ratio; target ≤ 1.25) and the vector store's bytes on disk once the server has left,
against the same notes indexed in one batch (target ≤ 2×), with a breakdown by kind of file.
Also the server's CPU time per add (all its threads, from /proc; searches and compactions
included, so a mean), first 500 (after the ten that open the store) and last 500: on a
machine shared with other jobs the wall time of the two windows meets different
neighbours, the CPU time much less so.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.mcp_shutdown import Session

WINDOW = 500


def note(i: int) -> str:
    return f"Note {i}: the service on port {8000 + i} restarts after deploy {i % 97}."


def cpu_ms(pid: int) -> float:
    """CPU time (user + system, all threads) a process has used, in ms; 0 off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") * 1000


def disk(root: Path) -> tuple[int, dict[str, int]]:
    """Bytes of the vector store, and by kind (data, manifests, transactions, …)."""
    folder = root / ".claude" / "memory" / "vectors"
    kinds: Counter[str] = Counter()
    for path in folder.rglob("*"):
        if path.is_file():
            kind = path.suffix or path.parent.name
            kinds[kind] += path.stat().st_size
    return sum(kinds.values()), dict(kinds)


def batch_bytes(root: Path, count: int) -> int:
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory

    with Memory.open(root) as memory:
        memory.add_many([NewEntry(note(i), source="session") for i in range(count)])
    return disk(root)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--adds", type=int, default=5000)
    args = parser.parse_args(argv)
    times: list[float] = []
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "single"
        (project / ".claude").mkdir(parents=True)
        session = Session(project)
        started_all = time.perf_counter()
        pid = session.process.pid
        # The model loads in a background thread once the tools are listed: wait for it
        # (a vector search does), so the first window's CPU is the adds', not the load's.
        session.call("memory_search", query="warm up", mode="vector", limit=1)
        for i in range(args.adds):
            used, started = cpu_ms(pid), time.perf_counter()
            session.call("memory_add", content=note(i))
            times.append((time.perf_counter() - started) * 1000)
            cpu.append(cpu_ms(pid) - used)
            if i % 20 == 19:
                session.call("memory_search", query=f"port {8000 + i}", limit=5)
            if (i + 1) % 1000 == 0:
                print(f"  {i + 1} adds, {time.perf_counter() - started_all:.0f} s", flush=True)
        exit_s = session.hang_up()
        single, kinds = disk(project)
        batch = batch_bytes(Path(tmp) / "batch", args.adds)
    window = min(WINDOW, max(1, len(times) // 10))
    first, last = statistics.median(times[:window]), statistics.median(times[-window:])
    print(
        f"{args.adds} adds through serve-mcp: p50 first {window} {first:.1f} ms, "
        f"last {window} {last:.1f} ms (ratio {last / first:.2f}); server exit {exit_s:.2f} s"
    )
    # The first adds open the store (importing LanceDB: a second of CPU): left out.
    skip = min(10, window)
    cpu_first = statistics.fmean(cpu[skip : window + skip])
    cpu_last = statistics.fmean(cpu[-window:])
    print(
        f"server CPU per add (mean): adds {skip + 1}-{window + skip} {cpu_first:.1f} ms, "
        f"last {window} {cpu_last:.1f} ms (ratio {cpu_last / cpu_first:.2f})"
    )
    print(
        f"vector store on disk: {single / 1e6:.1f} MB; the same notes in one batch "
        f"{batch / 1e6:.1f} MB; ratio {single / batch:.2f}"
    )
    print("  by kind: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
