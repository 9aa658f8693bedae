"""What requiring the token costs a request to the HTTP server, measured in pairs.

    python -m bench.http_token [--rounds 16] [--calls 25] [--sessions 4] [--entries 2000]

Builds a project of ``--entries`` notes (real model, as ``bench.http_load``) and starts two
real ``memory-tui serve-mcp --http`` servers on it side by side: one without a token, one
requiring it (``MEMORY_TUI_HTTP_TOKEN``). Each round, ``--sessions`` MCP SDK clients make
``--calls`` calls each (85 % ``memory_search`` with ``bench.http_load``'s queries, 15 %
``memory_list``; no adds, so neither server makes the other reload its vectors) to one
server, then to the other, in ABBA order, so a machine busy with other work weighs on
both alike. Prints each server's latency percentiles and the ratio of the medians (token /
no token), overall and as the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

from bench.http_load import MEMORY_TUI, TOPICS, build, connect, free_port, pct, warm


async def one_round(
    url: str, headers: dict[str, str], sessions: int, calls: int, seed: int
) -> list[float]:
    """Latencies (ms) of ``sessions`` × ``calls`` calls made at once."""
    found: list[float] = []

    async def session(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        async with connect(url, headers) as client:
            for _ in range(calls):
                roll = rng.random()
                if roll < 0.85:
                    query = f"{rng.choice(TOPICS)} restarts"
                    tool, arguments = "memory_search", {"query": query, "limit": 5}
                else:
                    tool, arguments = "memory_list", {"limit": 20}
                started = time.perf_counter()
                result = await client.call_tool(tool, arguments)
                found.append((time.perf_counter() - started) * 1000)
                if result.is_error:
                    raise SystemExit(f"{tool} failed: {result.content}")

    async with anyio.create_task_group() as group:
        for n in range(sessions):
            group.start_soon(session, n)
    return found


def start(root: Path, port: int, token: str | None) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "MEMORY_TUI_HTTP_TOKEN"}
    if token is not None:
        env["MEMORY_TUI_HTTP_TOKEN"] = token
    command = [MEMORY_TUI, "serve-mcp", "--http", "--port", str(port), "--project", str(root)]
    return subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)


def ready(url: str, headers: dict[str, str]) -> None:
    deadline = time.monotonic() + 180
    while True:
        try:
            anyio.run(warm, url, headers)
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--calls", type=int, default=25)
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--entries", type=int, default=2000)
    args = parser.parse_args(argv)
    token = secrets.token_urlsafe(32)
    arms = {"no token": {}, "token": {"Authorization": f"Bearer {token}"}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        build(root, args.entries)
        ports = {"no token": free_port(), "token": free_port()}
        urls = {arm: f"http://127.0.0.1:{port}/mcp" for arm, port in ports.items()}
        servers = [start(root, ports["no token"], None), start(root, ports["token"], token)]
        try:
            for arm, url in urls.items():
                ready(url, arms[arm])
            ms: dict[str, list[float]] = {arm: [] for arm in arms}
            ratios = []
            load = []
            for r in range(args.rounds):
                order = ["no token", "token"] if r % 2 == 0 else ["token", "no token"]
                medians = {}
                for arm in order:
                    found = anyio.run(one_round, urls[arm], arms[arm], args.sessions, args.calls, r)
                    ms[arm] += found
                    medians[arm] = statistics.median(found)
                ratios.append(medians["token"] / medians["no token"])
                load.append(os.getloadavg()[0])
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    low, _, high = statistics.quantiles(ratios, n=4)
    print(
        f"{args.rounds} rounds (ABBA) x {args.sessions} sessions x {args.calls} calls per "
        f"server on {args.entries} entries; load average {min(load):.1f}-{max(load):.1f} "
        f"(median {statistics.median(load):.1f}) on {os.cpu_count()} cores"
    )
    for arm, values in ms.items():
        print(
            f"  {arm:9} n={len(values):5}  p50 {pct(values, 50):7.1f} ms  "
            f"p95 {pct(values, 95):7.1f} ms  p99 {pct(values, 99):7.1f} ms"
        )
    print(
        f"  token / no token: p50 {pct(ms['token'], 50) / pct(ms['no token'], 50):.3f}, "
        f"p95 {pct(ms['token'], 95) / pct(ms['no token'], 95):.3f}; median of the rounds' "
        f"p50 ratios {statistics.median(ratios):.3f} (quartiles {low:.3f}-{high:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
