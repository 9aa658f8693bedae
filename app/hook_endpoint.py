"""A running ``serve-mcp`` answers the prompt hook (hybrid search with the model warm),
and runs ``memory-tui index`` (for the CLI and the git hooks) and ``memory-tui search
--mode hybrid|vector`` on its open store, with its model loaded.

The prompt hook (:mod:`app.prompt_hook`) is a fresh process per prompt and cannot load the
embedding model within its budget; an index run or a search by meaning in a fresh process
spends more than a second importing LanceDB alone (docs/upstream/lancedb-import.md). A
``serve-mcp`` of the same project (Claude Code starts one per session, over stdio) has
both loaded, so while it runs it also listens here:

* **where**: a TCP socket on the loopback address (127.0.0.1, a port the system picks),
  never any other interface;
* **discovery**: a file ``.claude/memory/hook-endpoints/<pid>.json`` holding the pid, the
  port, the project root and a token drawn for this run (:func:`secrets.token_urlsafe`),
  created with mode 0600 (only this user can read the token) and removed when the server
  stops. A file whose process is gone (a killed server) is stale: clients ignore it and
  remove it; one that is not a plain file of this user with mode 0600, or names another
  project, is ignored;
* **the exchange**: one JSON line from the client, checked for the token (constant-time),
  then by kind (:mod:`app.hook_client` declares the kinds, sizes and timeouts). A
  ``prompt`` is answered ``{"results": [...]}``, the entries to inject as plain fields
  (:class:`Injected`). An ``index`` request's paths must lie inside the project
  (:func:`guarded_paths`, through the engine's ``resolve_inside``). An index run or a
  search goes on in a thread of its own while the connection gets a ``{"working": true}``
  line every :data:`HEARTBEAT` seconds, then ``{"report": {...}}``. A request that is
  too long, not JSON, without the right token, of an unknown kind or with a bad field is
  answered ``{"error": "..."}``; one not sent within :data:`REQUEST_TIMEOUT` is dropped.

The prompt hook waits at most its budget (:data:`app.prompt_hook.SERVED_TIMEOUT`) and
searches the keyword index itself when no server runs, none answers in time, or the answer
is not well formed; ``index`` and ``search`` do the work themselves on any refusal,
failure or silence (:func:`app.hook_client.ask_server`, :mod:`app.served`). What each
prints is formatted by the client from the fields received (a search's results are
rendered by the server with the CLI's own ``render``). The clients' side is
:mod:`app.hook_client`, which they import without this server's modules.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import socket
import socketserver
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict, replace
from pathlib import Path, PurePosixPath
from typing import Any

from app import pid_records
from app.hook_client import (
    FOLDER,
    HEARTBEAT,
    HOST,
    INDEX,
    MAX_REQUEST,
    PROMPT,
    REQUEST_TIMEOUT,
    SEARCH,
    Endpoint,
    IndexRequest,
    Injected,
    SearchRequest,
)

log = logging.getLogger("memory_tui.hook")

POLL = 0.1
"""Seconds between the endpoint's checks for shutdown: what it adds to a server's exit."""


# --- the server side ------------------------------------------------------------------


Answer = Callable[[str], list[Injected]]
"""Finds the entries to inject for a prompt (runs in the endpoint's worker threads)."""
Index = Callable[[IndexRequest], dict[str, Any]]
"""Runs an index request (its paths already guarded) and returns the report's fields;
raises :class:`Refused` for a request this server cannot run as the client would."""
Search = Callable[[SearchRequest], dict[str, Any]]
"""Runs a search request and returns what the client prints; raises :class:`Refused` as
:data:`Index` does."""


class Refused(Exception):
    """A request the server does not run; ``str()`` says why, and the client is told."""


def guarded_paths(root: Path, paths: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``paths`` (project-relative, ``/``-separated) once each is known to lie inside the
    project at ``root``: no absolute path, no ``..``, and, where something is there, no
    link leading outside (:func:`engine.guards.files.resolve_inside`). A path where
    nothing is is accepted: a deleted file's entries are removed by the run.

    Raises:
        Refused: a path that is empty, absolute, climbs out, or leads outside.
    """
    from engine import EngineError, NotFoundError, resolve_inside

    if paths is None:
        return None
    checked = []
    for raw in paths:
        rel = PurePosixPath(raw)
        if not raw or "\0" in raw or "\\" in raw or rel.is_absolute() or ".." in rel.parts:
            raise Refused(f"{raw!r} is not a path inside the project")
        try:
            resolve_inside(root, root / rel, allow_hidden=True)
        except NotFoundError:
            pass  # nothing there (a deleted file); it stays inside by the checks above
        except EngineError as exc:
            raise Refused(exc.message) from None
        checked.append(rel.as_posix())
    return tuple(checked)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(
        self, root: Path, answer: Answer, index: Index | None, search: Search | None, token: str
    ) -> None:
        self.root = root
        self.answer = answer
        self.index = index
        self.search = search
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
        if len(line) > MAX_REQUEST:
            self._reply({"error": f"the request is over {MAX_REQUEST} bytes"})
            self._drain()
            return
        if not line.endswith(b"\n"):
            return  # the client gave up mid-line
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
        kind = request.get("kind", PROMPT)  # the first protocol's hooks send no kind
        if kind == PROMPT:
            self._prompt(request)
        elif kind == INDEX and self.server.index is not None:
            self._index(request, self.server.index)
        elif kind == SEARCH and self.server.search is not None:
            self._search(request, self.server.search)
        else:
            self._reply({"error": f"this server does not answer requests of kind {kind!r}"})

    def _prompt(self, request: dict[str, Any]) -> None:
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

    def _index(self, request: dict[str, Any], index: Index) -> None:
        try:
            asked = IndexRequest.from_fields(request)
            asked = replace(asked, paths=guarded_paths(self.server.root, asked.paths))
        except (ValueError, Refused) as exc:
            self._reply({"error": f"refused: {exc}"})
            return
        self._work(lambda: index(asked), "the index run")

    def _search(self, request: dict[str, Any], search: Search) -> None:
        try:
            asked = SearchRequest.from_fields(request)
        except ValueError as exc:
            self._reply({"error": f"refused: {exc}"})
            return
        self._work(lambda: search(asked), "the search")

    def _work(self, work: Callable[[], dict[str, Any]], what: str) -> None:
        """Do ``work`` in a thread of its own, saying ``working`` while it runs, then
        answer its report: a client that leaves meanwhile does not stop it (an index
        run of its own waits for the index lock)."""
        from engine import EngineError

        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["report"] = work()
            except Refused as exc:
                outcome["error"] = f"refused: {exc}"
            except EngineError as exc:  # e.g. bad input: the client's own run says it
                outcome["error"] = f"{what} failed: {exc.message}"
            except Exception as exc:
                log.warning("%s asked by a client failed", what, exc_info=True)
                outcome["error"] = f"{what} failed: {type(exc).__name__}: {exc}"

        worker = threading.Thread(target=run, name="hook-endpoint-work", daemon=True)
        worker.start()
        worker.join(HEARTBEAT)
        while worker.is_alive():
            self._reply({"working": True})
            worker.join(HEARTBEAT)
        self._reply(outcome)

    def _drain(self) -> None:
        """Read what is left of a refused request (closing on unread bytes would reset
        the connection before the client reads the refusal)."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            left = 16 * MAX_REQUEST
            while left > 0 and (chunk := self.connection.recv(65536)):
                left -= len(chunk)

    def _reply(self, data: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # the hook gave up waiting: nothing to do
            self.wfile.write(json.dumps(data).encode() + b"\n")
            self.wfile.flush()


@contextlib.contextmanager
def serve_hook(
    root: Path, answer: Answer, index: Index | None = None, search: Search | None = None
) -> Iterator[Endpoint | None]:
    """Answer the prompt hook of the project at ``root`` (and, given ``index`` and
    ``search``, its index runs and searches) while the block runs (see the module
    docstring).

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
        server = _Server(root.resolve(), answer, index, search, token)
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
