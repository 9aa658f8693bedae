"""Latency of ``memory-tui serve-mcp`` as an agent sees it, over stdio with the SDK client.

    python -m bench.mcp_latency [--entries 1000] [--runs 1]

A project of ``--entries`` SciFact abstracts (real model; the SciFact embedding cache is
reused when ``bench.scifact`` has built it) lives in ``bench/.cache/mcp-latency``. Each run
spawns the server and measures: spawn → ``initialize`` answered, spawn → ``tools/list``
answered, the first ``memory_search`` right after (the model is still loading then, so it
runs on keywords), the first search that waits for the model (``mode: vector``), the warm
hybrid search (median of 5), and the server's resident memory when idle after searching.
CPU load of the machine is printed too: on a shared machine it dominates the wall times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from bench.scifact import CACHE as SCIFACT_CACHE
from bench.scifact import load_corpus, load_queries

ROOT = Path(__file__).resolve().parent / ".cache" / "mcp-latency"
MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")


def build_project(entries: int) -> None:
    """Create the project with ``entries`` abstracts unless it already has them."""
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory

    memory_dir = ROOT / ".claude" / "memory"
    if memory_dir.is_dir():
        with Memory.open(ROOT) as memory:
            if memory.count() == entries:
                return
        shutil.rmtree(ROOT)
    memory_dir.mkdir(parents=True)
    shared = SCIFACT_CACHE / ".claude" / "memory" / "embeddings.sqlite"
    if shared.exists():  # same texts, same model: no re-embedding
        shutil.copy(shared, memory_dir / "embeddings.sqlite")
    docs = load_corpus()[:entries]
    with Memory.open(ROOT) as memory:
        for start in range(0, len(docs), 256):
            batch = docs[start : start + 256]
            memory.add_many([NewEntry(text[:10_000], source="manual") for _, text in batch])
            print(f"  added {start + len(batch)}/{len(docs)}", file=sys.stderr, flush=True)


def _server_pid() -> int | None:
    """The pid of the serve-mcp child of this process."""
    me = str(os.getpid())
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = stat.rsplit(")", 1)[1].split()[1]
        if ppid == me and b"serve-mcp" in cmdline:
            return int(proc.name)
    return None


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _search(client: Client, query: str, **extra: Any) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    result = await client.call_tool("memory_search", {"query": query, **extra})
    elapsed = time.perf_counter() - started
    block = result.content[0]
    assert isinstance(block, TextContent) and not result.is_error, block
    return elapsed, json.loads(block.text)


async def measure(queries: list[str]) -> dict[str, Any]:
    """One spawn of the server and the timings of one session."""
    params = StdioServerParameters(
        command=MEMORY_TUI, args=["serve-mcp", "--project", str(ROOT)], env=dict(os.environ)
    )
    spawned = time.perf_counter()
    async with Client(params, mode="legacy", cache=None) as client:
        initialized = time.perf_counter() - spawned
        await client.list_tools()
        listed = time.perf_counter() - spawned
        first, first_data = await _search(client, queries[0])
        vector, _ = await _search(client, queries[1], mode="vector")
        vector_at = time.perf_counter() - spawned
        await _search(client, queries[2])  # first hybrid search with everything loaded
        warm = [(await _search(client, q))[0] for q in queries[3:8]]
        keyword = [(await _search(client, q, mode="keyword"))[0] for q in queries[3:8]]
        await anyio.sleep(2)  # idle: bookkeeping done
        pid = _server_pid()
        rss = _rss_mib(pid) if pid else float("nan")
    return {
        "initialize_s": initialized,
        "tools_list_s": listed,
        "first_search_ms": first * 1000,
        "first_search_used": first_data["used"],
        "first_vector_search_ms": vector * 1000,
        "vector_ready_after_spawn_s": vector_at,
        "warm_hybrid_median_ms": statistics.median(warm) * 1000,
        "warm_keyword_median_ms": statistics.median(keyword) * 1000,
        "idle_rss_mib": rss,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    build_project(args.entries)
    queries = list(load_queries("test")[0].values())[:8]
    for run in range(args.runs):
        load = os.getloadavg()[0]
        result = anyio.run(measure, queries)
        print(f"run {run + 1} (load average {load:.2f} on {os.cpu_count()} CPUs)")
        for key, value in result.items():
            print(f"  {key:28} {value:.3f}" if isinstance(value, float) else f"  {key:28} {value}")


if __name__ == "__main__":
    main()
