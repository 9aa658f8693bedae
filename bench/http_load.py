"""Load on the HTTP server: many agent sessions at once, searching, adding and listing.

    python -m bench.http_load [--sessions 16] [--seconds 120] [--entries 2000] [--think-ms 0]
                              [--token] [--memory-profile DIR]

Builds a project of ``--entries`` short notes (real model), starts the real
``memory-tui serve-mcp --http`` on loopback and runs ``--sessions`` MCP SDK clients for
``--seconds``: each picks 80 % ``memory_search``, 15 % ``memory_add``, 5 % ``memory_list``,
waiting ``--think-ms`` between calls (0: back to back). Prints errors, acknowledged adds
missing afterwards, latency percentiles per tool, the server's resident memory after
``--warmup`` seconds of the same load (not measured) and every 10 s until the end, and where
the adds' time goes in the server: the server runs under ``bench.server_probe``, which
samples its threads' stacks from outside the product (the share of the adds' samples in
the lock wait, the store commit, the mirror transaction, the embedding...). Targets
(issue 38): 0 errors, 0 lost, add p95 ≤ 250 ms, RSS growth ≤ 15 % after warm-up. With
``--token`` the server requires a random token (given in ``MEMORY_TUI_HTTP_TOKEN``) and
every client sends it (issue 39).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextContent

MEMORY_TUI = [sys.executable, "-m", "bench.server_probe"]
"""The server: ``memory-tui`` under the bench's probes (bench/server_probe.py)."""
TOPICS = ["deploy", "database", "cache", "auth", "queue", "frontend", "logging", "billing"]


def note(i: int) -> str:
    topic = TOPICS[i % len(TOPICS)]
    return f"Note {i} on {topic}: the {topic} service on port {8000 + i} restarts after deploy."


def build(root: Path, entries: int) -> None:
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory

    (root / ".claude").mkdir(parents=True)
    with Memory.open(root) as memory:
        memory.add_many([NewEntry(note(i), source="session") for i in range(entries)])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Load:
    """What the sessions did: latencies per tool, errors, acknowledged ids."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {"memory_search": [], "memory_add": [], "memory_list": []}
        self.errors: list[str] = []
        self.acked: list[str] = []

    async def call(self, client: Client, tool: str, arguments: dict[str, Any]) -> None:
        started = time.perf_counter()
        try:
            result = await client.call_tool(tool, arguments)
        except Exception as exc:
            self.errors.append(f"{tool}: {type(exc).__name__}: {exc}")
            return
        self.ms[tool].append((time.perf_counter() - started) * 1000)
        block = result.content[0] if result.content else None
        if result.is_error or not isinstance(block, TextContent):
            self.errors.append(f"{tool}: {block}")
        elif tool == "memory_add":
            self.acked.append(json.loads(block.text)["id"])


@contextlib.asynccontextmanager
async def connect(url: str, headers: dict[str, str]) -> AsyncIterator[Client]:
    """The SDK's streamable-HTTP client (what ``Client(url)`` builds), sending ``headers``."""
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http), cache=None) as client,
    ):
        yield client


async def session(
    url: str, headers: dict[str, str], load: Load, seed: int, until: float, think: float
) -> None:
    rng = random.Random(seed)
    async with connect(url, headers) as client:
        n = 0
        while time.monotonic() < until:
            roll = rng.random()
            if roll < 0.80:
                topic = rng.choice(TOPICS)
                await load.call(client, "memory_search", {"query": f"{topic} restarts", "limit": 5})
            elif roll < 0.95:
                text = f"session {seed} learned fact {n} about {rng.choice(TOPICS)}"
                await load.call(client, "memory_add", {"content": text})
            else:
                await load.call(client, "memory_list", {"limit": 20})
            n += 1
            if think:
                await anyio.sleep(think)


async def run_load(
    url: str, headers: dict[str, str], sessions: int, seconds: float, think: float
) -> Load:
    load = Load()
    until = time.monotonic() + seconds
    async with anyio.create_task_group() as group:
        for seed in range(sessions):
            group.start_soon(session, url, headers, load, seed, until, think)
    return load


async def warm(url: str, headers: dict[str, str]) -> None:
    """What any session does first: the model loaded, the store opened by one add."""
    async with connect(url, headers) as client:
        for _ in range(5):
            await client.call_tool("memory_search", {"query": "deploy restarts", "mode": "vector"})
        await client.call_tool("memory_add", {"content": "warm-up note of the load benchmark"})


def wait_ready(url: str, headers: dict[str, str], process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited ({process.returncode})")
        try:
            anyio.run(warm, url, headers)
            return
        except Exception:
            time.sleep(0.5)
    raise SystemExit("the server did not answer in 120 s")


async def sampled(
    url: str,
    headers: dict[str, str],
    sessions: int,
    seconds: float,
    think: float,
    pid: int,
    rss: list[tuple[float, float]],
) -> Load:
    """:func:`run_load`, with the server's RSS sampled every 10 s into ``rss``."""
    started = time.monotonic()

    async def sample() -> None:
        while time.monotonic() - started < seconds:
            rss.append((time.monotonic() - started, rss_mib(pid)))
            await anyio.sleep(10)

    async with anyio.create_task_group() as group:
        group.start_soon(sample)
        load = await run_load(url, headers, sessions, seconds, think)
        group.cancel_scope.cancel()
    return load


def read_profile(path: Path) -> dict[str, Any] | None:
    """The server's add samples (bench/server_probe.py), or None if it wrote none."""
    return json.loads(path.read_text()) if path.exists() else None


def print_profile(data: dict[str, Any] | None) -> None:
    """Where the adds' time went: the share of the adds' stack samples in each part."""
    if data is None:
        print("  where an add's time goes: no samples (the server did not exit cleanly)")
        return
    samples: dict[str, int] = data["samples"]
    whole = sum(samples.values())
    if not whole:
        return
    print(
        f"  where the adds' time goes in the server ({whole} stack samples of adding threads, "
        f"every {data['interval'] * 1000:g} ms):"
    )
    for name, count in sorted(samples.items(), key=lambda kv: -kv[1]):
        print(f"    {name:26} {count / whole * 100:5.1f} %")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def print_memory_profile(folder: Path, measured_from: float) -> None:
    """The server's memory samples, and where Python allocations grew from the first
    sample taken after ``measured_from`` (a wall-clock time) to the last."""
    import tracemalloc

    path = folder / "samples.jsonl"
    samples = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    if not samples:
        print("  memory profile: no samples")
        return
    print("  memory profile (RSS / Arrow pool / traced Python, MiB; threads):")
    for row in samples:
        mark = "*" if row["time"] >= measured_from else " "
        print(
            f"   {mark}{row['n']:3} {row['rss_mib']:7.1f} {row['arrow_mib']:7.1f} "
            f"{row['traced_mib']:7.1f} {row['threads']:4}"
        )
    after = [row for row in samples if row["time"] >= measured_from] or samples
    first, last = after[0]["n"], samples[-1]["n"]
    old = tracemalloc.Snapshot.load(str(folder / f"snapshot-{first}.dump"))
    new = tracemalloc.Snapshot.load(str(folder / f"snapshot-{last}.dump"))
    print(f"  Python allocations grown most, sample {first} -> {last}:")
    for stat in new.compare_to(old, "lineno")[:15]:
        print(f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d}  {stat.traceback}")


def lost(root: Path, acked: list[str]) -> int:
    from engine.services.memory import Memory

    with Memory.open(root) as memory:
        return sum(1 for i in acked if memory.get(i) is None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--think-ms", type=float, default=0)
    parser.add_argument(
        "--warmup", type=float, default=30, help="seconds of the same load before measuring"
    )
    parser.add_argument(
        "--token", action="store_true", help="the server requires a token; clients send it"
    )
    parser.add_argument(
        "--memory-profile",
        type=Path,
        metavar="DIR",
        help="the server traces its allocations into DIR (slow: for finding growth)",
    )
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "MEMORY_TUI_HTTP_TOKEN"}
    headers: dict[str, str] = {}
    if args.token:
        token = secrets.token_urlsafe(32)
        env["MEMORY_TUI_HTTP_TOKEN"] = token
        headers["Authorization"] = f"Bearer {token}"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        build(root, args.entries)
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        profile = Path(tmp) / "add-stacks.json"
        probes = ["--stacks", str(profile)]
        if args.memory_profile:
            probes += ["--memory", str(args.memory_profile.resolve())]
        serve = ["serve-mcp", "--http", "--port", str(port), "--project", str(root)]
        command = [*MEMORY_TUI, *probes, "--", *serve]
        process = subprocess.Popen(command, stderr=subprocess.PIPE, env=env)
        rss: list[tuple[float, float]] = []
        try:
            wait_ready(url, headers, process)
            think = args.think_ms / 1000
            if args.warmup:  # the same load, not measured: caches and pools fill up
                warmed = anyio.run(run_load, url, headers, args.sessions, args.warmup, think)
            rss_start = rss_mib(process.pid)
            measured_from = time.time()
            load = anyio.run(
                sampled, url, headers, args.sessions, args.seconds, think, process.pid, rss
            )
            rss_end = rss_mib(process.pid)
        finally:
            process.terminate()
            stderr = process.communicate(timeout=30)[1].decode(errors="replace")
        missing = lost(root, load.acked + (warmed.acked if args.warmup else []))
        parts = read_profile(profile)  # (the warm-up's adds included)
    calls = sum(len(v) for v in load.ms.values())
    print(
        f"{args.sessions} sessions x {args.seconds:g} s (think {args.think_ms:g} ms) on "
        f"{args.entries} entries, {'a token' if args.token else 'no token'}: "
        f"{calls} calls ({calls / args.seconds:.0f}/s), "
        f"{len(load.errors)} errors, {missing} of {len(load.acked)} acknowledged adds lost; "
        f"server exit code {process.returncode}"
    )
    for tool, values in load.ms.items():
        print(
            f"  {tool:14} n={len(values):5}  p50 {pct(values, 50):7.1f} ms  "
            f"p95 {pct(values, 95):7.1f} ms  p99 {pct(values, 99):7.1f} ms"
        )
    growth = (rss_end - rss_start) / rss_start * 100
    print(
        f"  server RSS {rss_start:.0f} MiB after {args.warmup:g} s of warm-up load -> "
        f"{rss_end:.0f} MiB at the end ({growth:+.0f} %); every 10 s: "
        + " ".join(f"{mib:.0f}" for _, mib in rss)
    )
    print_profile(parts)
    if args.memory_profile:
        print_memory_profile(args.memory_profile, measured_from)
    for error in load.errors[:5]:
        print(f"  error: {error}")
    if "Traceback" in stderr:
        print("  server stderr:\n" + stderr[-2000:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
