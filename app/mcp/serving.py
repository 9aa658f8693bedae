"""The ``serve-mcp --http`` servers running on a project, for ``doctor`` and ``status``.

Each HTTP server writes a small record, ``.claude/memory/http-servers/<pid>.json``
(address, port, whether it requires a token; never the token), while it runs and removes
it when it stops. A record whose process is gone (a killed server) is ignored.

For benchmarks, ``MEMORY_TUI_MEMORY_PROFILE`` naming a folder makes a running server
trace its Python allocations (:mod:`tracemalloc`) and write, every
:data:`MEMORY_SAMPLE_SECONDS`, one JSON line of its resident size, Arrow's memory pool
and the traced total to ``samples.jsonl`` there, and a tracemalloc snapshot
``snapshot-<n>.dump`` (``bench.http_load --memory-profile`` diffs them). Tracing slows
the server: never on in normal use.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from app.mcp.auth import TOKEN_ENV, is_loopback

log = logging.getLogger("memory_tui.mcp")

MEMORY_PROFILE_ENV = "MEMORY_TUI_MEMORY_PROFILE"
"""Names the folder a server writes its memory samples and snapshots to (benchmarks)."""
MEMORY_SAMPLE_SECONDS = 10.0
"""Seconds between two memory samples of a profiled server."""

RECORDS = "http-servers"
"""The folder of the records, under ``.claude/memory/``."""


@dataclass(frozen=True, slots=True)
class HttpServer:
    """One running ``serve-mcp --http``."""

    pid: int
    host: str
    port: int
    token: bool
    """Whether every request must carry the token."""

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def exposure(self) -> tuple[str, str, str]:
        """``(status, detail, fix)``: how far this server lets the memory be read and
        changed without a token (``ok``, ``warning`` on loopback, ``problem`` beyond)."""
        where = f"serve-mcp --http (pid {self.pid}) on {self.address}"
        restart = f"restart it with {TOKEN_ENV} set (or --token-file)"
        if self.token:
            return "ok", f"{where} requires the token", ""
        if is_loopback(self.host):
            return (
                "warning",
                f"{where} has no token: every user and program on this machine "
                "(a reverse proxy in front of it too) can read and change the memory",
                restart,
            )
        return (
            "problem",
            f"{where} has no token: anyone who can reach the port can read and change the memory",
            restart,
        )


@contextlib.contextmanager
def record(memory_dir: Path, server: HttpServer) -> Iterator[None]:
    """Keep ``server``'s record while the block runs (nothing when ``memory_dir``'s
    project has no ``.claude/`` folder or the record cannot be written)."""
    path = memory_dir / RECORDS / f"{server.pid}.json"
    written = False
    if memory_dir.parent.is_dir():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text(json.dumps(asdict(server)), encoding="utf-8")
            temporary.replace(path)
            written = True
        except OSError as exc:
            log.warning("cannot record the running server in %s: %s", path, exc.strerror)
    try:
        with memory_profile():
            yield
    finally:
        if written:
            path.unlink(missing_ok=True)


def resident_mib() -> float:
    """This process's resident size in MiB (``nan`` where ``/proc`` is not there)."""
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextlib.contextmanager
def memory_profile() -> Iterator[None]:
    """While the block runs, sample this process's memory into the folder that
    :data:`MEMORY_PROFILE_ENV` names (nothing when it is unset)."""
    folder = os.environ.get(MEMORY_PROFILE_ENV)
    if not folder:
        yield
        return
    import tracemalloc

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(int(os.environ.get("MEMORY_TUI_MEMORY_FRAMES", "1")))
    stop = threading.Event()

    def sample() -> None:
        import pyarrow

        n = 0
        while True:
            started = time.monotonic()
            traced, _ = tracemalloc.get_traced_memory()
            line = {
                "n": n,
                "time": time.time(),
                "rss_mib": resident_mib(),
                "arrow_mib": pyarrow.total_allocated_bytes() / 2**20,
                "traced_mib": traced / 2**20,
                "threads": threading.active_count(),
            }
            tracemalloc.take_snapshot().dump(str(out / f"snapshot-{n}.dump"))
            with (out / "samples.jsonl").open("a", encoding="utf-8") as file:
                file.write(json.dumps(line) + "\n")
            n += 1
            if stop.wait(max(0.0, MEMORY_SAMPLE_SECONDS - (time.monotonic() - started))):
                return

    thread = threading.Thread(target=sample, name="memory-profile", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)
        tracemalloc.stop()


def running(memory_dir: Path) -> list[HttpServer]:
    """The HTTP servers of this project whose process is alive, by pid."""
    folder = memory_dir / RECORDS
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    found = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            server = HttpServer(
                pid=int(data["pid"]),
                host=str(data["host"]),
                port=int(data["port"]),
                token=bool(data["token"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if _alive(server.pid):
            found.append(server)
    return sorted(found, key=lambda s: s.pid)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except OSError:
        return False
    return True
