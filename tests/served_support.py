"""Fake servers behind discovery files, and raw requests to a project's endpoint: for the
tests of what the CLI asks a running ``serve-mcp`` (test_served_index.py,
test_served_search.py)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app import hook_client
from app.hook_client import FOLDER


@contextlib.contextmanager
def fake_server(project: Path, answer: Callable[[socket.socket], object]) -> Iterator[list[Any]]:
    """A listener behind a discovery file of this process that reads one request line
    and lets ``answer`` reply (or not); yields the requests it read."""
    listener = socket.create_server(("127.0.0.1", 0))
    received: list[Any] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            with conn:
                received.append(json.loads(conn.makefile("rb").readline()))
                answer(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    written = record(project, port=listener.getsockname()[1], pid=os.getpid())
    try:
        yield received
    finally:
        listener.close()
        thread.join(10)
        written.unlink(missing_ok=True)


def record(project: Path, *, port: int, pid: int) -> Path:
    folder = project / ".claude" / "memory" / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{pid}.json"
    fields = {"pid": pid, "port": port, "token": "t", "root": str(project.resolve())}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({**fields, "protocol": hook_client.PROTOCOL}, out)
    return path


def dies_working(conn: socket.socket) -> None:
    conn.sendall(b'{"working": true}\n')  # then the process "dies": the connection closes


def malformed_report(conn: socket.socket) -> None:
    conn.sendall(b'{"report": {"files_total": "many"}}\n')


def fails(conn: socket.socket) -> None:
    conn.sendall(b'{"error": "the index run failed: OSError: disk full"}\n')


def ask(project: Path, fields: dict[str, Any] | bytes) -> Any:
    """The first line other than ``working`` the project's endpoint answers ``fields``
    (an index request with its token) or the raw ``bytes``."""
    [endpoint] = hook_client.endpoints(project / ".claude" / "memory", project)
    if isinstance(fields, dict):
        line = json.dumps({"token": endpoint.token, "kind": "index", **fields}).encode() + b"\n"
    else:
        line = fields
    with socket.create_connection(("127.0.0.1", endpoint.port), timeout=10) as sock:
        sock.sendall(line)
        stream = sock.makefile("rb")
        while (answer := json.loads(stream.readline())) == {"working": True}:
            pass
    return answer
