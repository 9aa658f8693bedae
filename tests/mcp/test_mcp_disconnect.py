"""A client that goes away at any moment leaves ``memory-tui serve-mcp`` exiting cleanly.

The real command, with the real model loading in the background: the client hangs up
right after ``tools/list`` (which starts the warm-up), at several moments of the load.
Before the fix the process aborted (SIGABRT, "terminate called without an active
exception") in most trials: the interpreter was finalised under the loader's native thread.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")
HANG_UP_AFTER = (0.0, 0.05, 0.3, 1.0)
"""Seconds after ``tools/list`` at which the client closes the server's stdin."""
EXIT_WAIT = 120.0
"""Seconds the server may take to exit (generous: a busy machine)."""


def _send(process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def _hang_up_during_warm_up(project: Path, delay: float) -> tuple[int, str]:
    process = subprocess.Popen(
        [MEMORY_TUI, "serve-mcp", "--project", str(project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    params = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "leaver", "version": "1"},
    }
    _send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
    assert json.loads(process.stdout.readline())["id"] == 1
    _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    _send(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert json.loads(process.stdout.readline())["id"] == 2  # the warm-up starts now
    time.sleep(delay)
    _, stderr = process.communicate(timeout=EXIT_WAIT)  # closes stdin: the client is gone
    return process.returncode, stderr.decode(errors="replace")


@pytest.mark.slow
@pytest.mark.parametrize("delay", HANG_UP_AFTER)
def test_client_hanging_up_during_warm_up_exits_zero(tmp_path: Path, delay: float) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    for _ in range(3):
        code, stderr = _hang_up_during_warm_up(project, delay)
        assert code == 0, stderr[-2000:]
        assert "Traceback" not in stderr and "terminate called" not in stderr
