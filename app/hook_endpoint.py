"""A running ``serve-mcp`` answers the prompt hook: hybrid search with the model warm.

The prompt hook (:mod:`app.prompt_hook`) is a fresh process per prompt and cannot load the
embedding model within its budget. A ``serve-mcp`` of the same project (Claude Code starts
one per session, over stdio) has it loaded, so while it runs it also listens here:

* **where**: a TCP socket on the loopback address (127.0.0.1, a port the system picks),
  never any other interface;
* **discovery**: a file ``.claude/memory/hook-endpoints/<pid>.json`` holding the pid, the
  port, the project root and a token drawn for this run (:func:`secrets.token_urlsafe`),
  created with mode 0600 (only this user can read the token) and removed when the server
  stops. A file whose process is gone (a killed server) is stale: the hook ignores it and
  removes it; one that is not a plain file of this user with mode 0600, or names another
  project, is ignored;
* **the exchange**: one JSON line each way per connection. The hook sends ``{"token",
  "prompt"}``; the server checks the token (constant-time) and answers ``{"results":
  [...]}``, the entries to inject as plain fields (:class:`Injected`), or ``{"error"}``.
  A request larger than :data:`MAX_REQUEST` bytes, or not sent within
  :data:`REQUEST_TIMEOUT`, is dropped.

The hook waits at most its budget (:data:`app.prompt_hook.SERVED_TIMEOUT`) and searches
the keyword index itself when no server runs, none answers in time, or the answer is not
well formed. What it prints is formatted by the hook from the fields received, through the
same formatting and terminal guard as its own keyword results. The hook's side (finding
the servers, asking one) and the protocol's names are :mod:`app.hook_client`, which the
hook imports without this server's modules.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import socketserver
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app import pid_records
from app.hook_client import FOLDER, HOST, Endpoint, Injected

log = logging.getLogger("memory_tui.hook")

MAX_REQUEST = 64 * 1024
"""Bytes of one request line (the hook sends at most 2,000 characters of prompt)."""
REQUEST_TIMEOUT = 2.0
"""Seconds the server waits for a request line before dropping the connection."""
POLL = 0.1
"""Seconds between the endpoint's checks for shutdown: what it adds to a server's exit."""


# --- the server side ------------------------------------------------------------------


Answer = Callable[[str], list[Injected]]
"""Finds the entries to inject for a prompt (runs in the endpoint's worker threads)."""


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, answer: Answer, token: str) -> None:
        self.answer = answer
        self.token = token
        super().__init__((HOST, 0), _Handler)


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        self.connection.settimeout(REQUEST_TIMEOUT)
        try:
            line = self.rfile.readline(MAX_REQUEST + 1)
        except OSError:
            return
        if len(line) > MAX_REQUEST or not line.endswith(b"\n"):
            return  # too long, or the client gave up mid-line
        try:
            request: Any = json.loads(line)
        except ValueError:
            self._reply({"error": "not a JSON line"})
            return
        if not isinstance(request, dict) or not isinstance(request.get("token"), str):
            self._reply({"error": "no token"})
            return
        if not hmac.compare_digest(request["token"].encode(), self.server.token.encode()):
            self._reply({"error": "wrong token"})
            return
        prompt = request.get("prompt")
        if not isinstance(prompt, str):
            self._reply({"error": "no prompt"})
            return
        try:
            found = self.server.answer(prompt)
        except Exception:
            log.warning("the hook endpoint could not answer", exc_info=True)
            self._reply({"error": "search failed"})
            return
        self._reply({"results": [asdict(i) for i in found]})

    def _reply(self, data: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # the hook gave up waiting: nothing to do
            self.wfile.write(json.dumps(data).encode() + b"\n")
            self.wfile.flush()


@contextlib.contextmanager
def serve_hook(root: Path, answer: Answer) -> Iterator[Endpoint | None]:
    """Answer the prompt hook of the project at ``root`` while the block runs (see the
    module docstring).

    Nothing is opened when the project has no ``.claude/`` folder, its memory folder leads
    outside it, or the discovery file cannot be written (the hook then searches by
    itself); yields the endpoint or None.
    """
    from engine import EngineError, MemoryPaths

    try:
        memory_dir = MemoryPaths.for_root(root).memory_dir
    except EngineError as exc:  # every tool call reports it too
        log.warning("not answering the prompt hook: %s", exc.message)
        yield None
        return
    if not memory_dir.parent.is_dir():
        yield None
        return
    token = secrets.token_urlsafe(32)
    try:
        server = _Server(answer, token)
    except OSError as exc:
        log.warning("cannot open the prompt hook's endpoint on %s: %s", HOST, exc.strerror)
        yield None
        return
    endpoint = Endpoint(
        pid=os.getpid(), port=server.server_address[1], token=token, root=str(root.resolve())
    )
    path = memory_dir / FOLDER / f"{endpoint.pid}.json"
    thread = threading.Thread(
        target=server.serve_forever, args=(POLL,), name="hook-endpoint", daemon=True
    )
    thread.start()
    written = False
    try:
        pid_records.write_private(path, json.dumps(asdict(endpoint)))
        written = True
        log.info("answering the prompt hook on %s:%d", HOST, endpoint.port)
    except OSError as exc:
        log.warning("cannot write the prompt hook's discovery file %s: %s", path, exc)
    try:
        yield endpoint if written else None
    finally:
        if written:
            with contextlib.suppress(OSError):
                path.unlink()
        server.shutdown()
        server.server_close()
