"""The prompt hook's side of the exchange with a running ``serve-mcp``: find the servers
of this project and ask one for the entries to inject (the protocol and the server's side:
:mod:`app.hook_endpoint`).

The hook is a fresh process per prompt, and what it imports is most of its run time
(bench/RESULTS.md, "Issue 50: the hook's time is its imports"): this module holds only
what asking needs, not the server's threads, token drawing and socket server.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from app import pid_records

log = logging.getLogger("memory_tui.hook")

FOLDER = "hook-endpoints"
"""The discovery files' folder, under ``.claude/memory/``."""
PROTOCOL = 1
MAX_RESPONSE = 256 * 1024
HOST = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Injected:
    """One entry the hook injects, as plain fields (what crosses the socket)."""

    id: str
    category: str
    location: str
    content: str
    stale: bool = False
    stale_reason: str = ""

    @classmethod
    def from_fields(cls, data: object) -> Injected:
        """One entry from a server's answer.

        Raises:
            ValueError: ``data`` is not an entry's fields.
        """
        if not isinstance(data, dict):
            raise ValueError("an entry is not an object")
        texts = {k: data.get(k) for k in ("id", "category", "location", "content")}
        reason = data.get("stale_reason", "")
        if not all(isinstance(v, str) for v in texts.values()) or not isinstance(reason, str):
            raise ValueError("an entry's field is not text")
        return cls(
            id=str(texts["id"]),
            category=str(texts["category"]),
            location=str(texts["location"]),
            content=str(texts["content"]),
            stale=data.get("stale") is True,
            stale_reason=reason,
        )


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One running server's discovery record."""

    pid: int
    port: int
    token: str
    root: str
    protocol: int = PROTOCOL


def endpoints(memory_dir: Path, root: Path) -> list[Endpoint]:
    """The live servers of the project at ``root``, newest first. Stale records (their
    process is gone) are removed; unsafe or foreign ones are skipped."""
    project = str(root.resolve())

    def read(path: Path) -> tuple[float, Endpoint] | None:
        read = pid_records.read_private(path)
        if read is None:
            return None
        mtime, data = read
        try:
            endpoint = Endpoint(
                pid=int(data["pid"]),
                port=int(data["port"]),
                token=str(data["token"]),
                root=str(data["root"]),
                protocol=int(data.get("protocol", 0)),
            )
        except (KeyError, TypeError, ValueError):
            return None
        if endpoint.protocol != PROTOCOL or endpoint.root != project:
            return None
        if not 0 < endpoint.port < 65536:
            return None
        return mtime, endpoint

    found = pid_records.live(memory_dir / FOLDER, read, lambda record: record[1].pid)
    return [e for _, e in sorted(found, key=lambda f: -f[0])]


def ask(memory_dir: Path, root: Path, prompt: str, timeout: float) -> list[Injected] | None:
    """The entries a running server of this project chooses for ``prompt``, or None when
    none runs or none answers well within ``timeout`` seconds (all tries together)."""
    deadline = time.monotonic() + timeout
    for endpoint in endpoints(memory_dir, root):
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            return _exchange(endpoint, prompt, left)
        except (OSError, ValueError) as exc:
            log.info("the server (pid %d) did not answer the hook: %s", endpoint.pid, exc)
            if isinstance(exc, TimeoutError):
                return None
    return None


def _exchange(endpoint: Endpoint, prompt: str, timeout: float) -> list[Injected]:
    deadline = time.monotonic() + timeout
    request = json.dumps({"token": endpoint.token, "prompt": prompt}).encode() + b"\n"
    with socket.create_connection((HOST, endpoint.port), timeout=timeout) as sock:
        sock.sendall(request)
        received = bytearray()
        while not received.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer in time")
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                raise ValueError("the connection closed before the answer")
            received += chunk
            if len(received) > MAX_RESPONSE:
                raise ValueError("the answer is too long")
    answer = json.loads(received)
    if not isinstance(answer, dict) or not isinstance(answer.get("results"), list):
        error = answer.get("error") if isinstance(answer, dict) else None
        raise ValueError(f"the server said: {error}" if error else "not an answer")
    return [Injected.from_fields(item) for item in answer["results"]]
