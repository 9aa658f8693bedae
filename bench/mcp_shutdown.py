"""How long ``memory-tui serve-mcp`` takes to exit once its client closes stdin.

    python -m bench.mcp_shutdown [--trials 5] [--entries 200]

Clients give a server about 2 s after closing its stdin (the MCP SDK, Claude Code) and then
kill it; a server killed half-way through its clean-up left work for the next command. Each
trial spawns the real server (real model) on a project of ``--entries`` short notes, sends
20 searches and 5 adds over JSON-RPC, closes stdin and measures the time until the process
has exited, then the time the next ``memory-tui list`` takes (a repair would show there).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")
SEARCHES = 20
ADDS = int(os.environ.get("BENCH_ADDS", "5"))


class Session:
    """One server process spoken to in raw JSON-RPC lines (what a client writes)."""

    def __init__(self, project: Path) -> None:
        self.process = subprocess.Popen(
            [MEMORY_TUI, "serve-mcp", "--project", str(project)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._id = 0
        params = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        }
        self.request("initialize", params)
        self.notify("notifications/initialized")
        self.request("tools/list", {})

    def notify(self, method: str) -> None:
        self._send({"jsonrpc": "2.0", "method": method})

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            answer: dict[str, Any] = json.loads(self.process.stdout.readline())
            if answer.get("id") == self._id:
                if "error" in answer or answer.get("result", {}).get("isError"):
                    raise RuntimeError(f"{method} failed: {answer}")
                return answer

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def terminate(self, timeout: float = 60.0) -> float:
        """Send SIGTERM as a supervisor does; seconds until the process has exited."""
        started = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout)
        return time.perf_counter() - started

    def hang_up(self, timeout: float = 60.0) -> float:
        """Close stdin as a leaving client does; seconds until the process has exited."""
        assert self.process.stdin is not None
        started = time.perf_counter()
        self.process.stdin.close()
        self.process.wait(timeout)
        return time.perf_counter() - started


def work(session: Session, trial: int) -> None:
    """The traffic of one short agent session: searches, then a few notes."""
    for i in range(SEARCHES):
        session.call("memory_search", query=f"note about topic {i % 7}", limit=5)
    for i in range(ADDS):
        session.call("memory_add", content=f"trial {trial} learned fact number {i}")


def seed(project: Path, entries: int) -> None:
    (project / ".claude").mkdir(parents=True)
    session = Session(project)
    for i in range(entries):
        session.call("memory_add", content=f"note about topic {i % 7}: detail {i}")
    session.hang_up()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--entries", type=int, default=200)
    args = parser.parse_args(argv)
    exits: list[float] = []
    nexts: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        seed(project, args.entries)
        for trial in range(args.trials):
            session = Session(project)
            work(session, trial)
            exits.append(session.hang_up())
            started = time.perf_counter()
            subprocess.run(
                [MEMORY_TUI, "list", "--limit", "1", "--project", str(project)],
                check=True,
                capture_output=True,
                env={**os.environ, "CLAUDE_MEMORY_LOG_LEVEL": "WARNING"},
            )
            nexts.append(time.perf_counter() - started)
            print(f"trial {trial}: exit {exits[-1]:.2f} s, next `list` {nexts[-1]:.2f} s")
    print(
        f"serve-mcp exit after stdin closes: median {statistics.median(exits):.2f} s, "
        f"max {max(exits):.2f} s; next command: median {statistics.median(nexts):.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
