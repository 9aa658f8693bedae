"""The ``serve-mcp --http`` servers running on a project, for ``doctor`` and ``status``.

Each HTTP server writes a small record, ``.claude/memory/http-servers/<pid>.json``
(address, port, whether it requires a token; never the token), while it runs and removes
it when it stops. A record whose process is gone (a killed server) is ignored.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from app import pid_records
from app.mcp.auth import TOKEN_ENV, is_loopback

log = logging.getLogger("memory_tui.mcp")

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
            pid_records.write_private(path, json.dumps(asdict(server)))
            written = True
        except OSError as exc:
            log.warning("cannot record the running server in %s: %s", path, exc.strerror)
    try:
        yield
    finally:
        if written:
            path.unlink(missing_ok=True)


def running(memory_dir: Path) -> list[HttpServer]:
    """The HTTP servers of this project whose process is alive, by pid (a killed
    server's record is removed)."""
    found = pid_records.live(memory_dir / RECORDS, _read, lambda server: server.pid)
    return sorted(found, key=lambda s: s.pid)


def _read(path: Path) -> HttpServer | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return HttpServer(
            pid=int(data["pid"]),
            host=str(data["host"]),
            port=int(data["port"]),
            token=bool(data["token"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
