"""Running the server: logging, then stdio (what ``.mcp.json`` registers) or streamable HTTP.

stdout belongs to the protocol. The SDK's stdio transport serves the wire from a private
copy of fd 1 and points fd 1 at stderr while it runs, so stray output from libraries
cannot corrupt it; logs go to stderr and to ``.claude/memory/memory-tui.log``.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from app.hook_endpoint import serve_hook
from app.mcp.auth import TOKEN_ENV, require_token_beyond_loopback
from app.mcp.hook import hook_answer, index_answer, search_answer
from app.mcp.listen import listen
from app.mcp.serving import HttpServer, record
from engine import MemoryPaths

if TYPE_CHECKING:
    from app.mcp.server import MemoryServer

log = logging.getLogger("memory_tui.mcp")

LOG_BYTES = 1_000_000
LOG_BACKUPS = 2
FILE_ONLY = "file_only"
"""A log record with this attribute set goes to the log file only: stderr has its line."""
QUIET_LOGGERS = ("mcp", "httpx", "uvicorn.access", "sentence_transformers", "transformers")


def configure_logging(root: Path, *, verbose: bool = False) -> Path | None:
    """Log to stderr (WARNING, or INFO with ``verbose``; ``CLAUDE_MEMORY_LOG_LEVEL``
    overrides) and, in a project with a ``.claude/`` folder, to its log file (INFO).

    Returns the log file's path, if one is used.
    """
    stderr_level = os.environ.get("CLAUDE_MEMORY_LOG_LEVEL", "INFO" if verbose else "WARNING")
    console = logging.StreamHandler(sys.stderr)
    console.setFormatter(logging.Formatter("memory-tui: %(levelname)s: %(message)s"))
    console.setLevel(stderr_level.upper())
    console.addFilter(lambda record: not getattr(record, FILE_ONLY, False))
    handlers: list[logging.Handler] = [console]
    paths = MemoryPaths.for_root(root)
    log_path: Path | None = None
    if paths.claude_dir.is_dir():
        try:
            paths.memory_dir.mkdir(parents=True, exist_ok=True)
            file_handler = logging.handlers.RotatingFileHandler(
                paths.log_path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
            )
        except OSError as exc:
            print(f"memory-tui: warning: cannot write {paths.log_path}: {exc}", file=sys.stderr)
        else:
            file_handler.setFormatter(
                logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s %(message)s")
            )
            file_handler.setLevel(logging.INFO)
            handlers.append(file_handler)
            log_path = paths.log_path
    logger = logging.getLogger()
    logger.handlers[:] = handlers
    logger.setLevel(min(logging.INFO, console.level))
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    return log_path


M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the number of malloc arenas."""
MALLOC_ARENAS = 2
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter for the size from which an allocation is mmapped."""
MMAP_THRESHOLD = 1024 * 1024
"""Blocks of 1 MiB and more get pages of their own, given back to the system when freed."""


def _few_malloc_arenas() -> None:
    """Let glibc keep few malloc arenas and give large blocks back.

    Each of the server's worker threads otherwise gets its own arena, and memory freed in
    one is not reused by the others: under 16 HTTP sessions the resident size grew 68 % in
    two minutes, against 23 % in one minute with two arenas (bench/http_load.py).

    A fixed mmap threshold: by default glibc raises it (up to 32 MiB) each time a large
    mmapped block is freed, after which the server's blocks of a few MiB (Arrow buffers
    of a search or a compaction; before issue 49 the in-memory vectors) came from the heap,
    where fragmentation kept them: RSS rose ~0.3 MiB/s for minutes under load; with the
    threshold fixed at 1 MiB it stayed level (bench/RESULTS.md, issue 38).
    ``MALLOC_ARENA_MAX`` / ``MALLOC_MMAP_THRESHOLD_`` in the environment win."""
    if sys.platform != "linux":
        return
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        if "MALLOC_ARENA_MAX" not in os.environ:
            libc.mallopt(M_ARENA_MAX, MALLOC_ARENAS)
        if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
            libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError):  # not glibc (musl): nothing to tune
        pass


def _stop_on_sigterm() -> None:
    """SIGTERM (what a supervisor or a leaving client sends) ends the server as Ctrl-C
    does: the loop stops, and the clean-up below writes what was queued."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)


def serve(
    root: Path,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
    verbose: bool = False,
    token: str | None = None,
    token_from: str = "",
) -> int:
    """Serve the memory of the project at ``root`` until the client goes away (or Ctrl-C).

    Over HTTP, ``token`` (see :mod:`app.mcp.auth`; ``token_from`` says where it came
    from) is required beyond loopback: without one this raises
    :class:`~app.mcp.auth.TokenError` before anything is opened or bound. The port is
    bound next, before the memory is opened (:class:`~app.mcp.listen.ListenError` when it
    cannot be), and one line on stderr says where the server listens.
    Returns the exit code.
    """
    listening = None
    if http:
        require_token_beyond_loopback(host, token)
        listening = listen(host, port)
    configure_logging(root, verbose=verbose)
    # The server embeds one short query at a time, often on a machine whose cores are busy
    # with other work (agents, builds, tests). Intra-op threads gain little on such small
    # inputs and collapse under contention (measured on 2 busy cores: 530 ms per query with
    # 2 threads, 38 ms with 1), so a single thread unless the user asks otherwise.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # numpy's first import is not thread-safe: a tool call's worker thread importing it
    # while the warm-up thread imports onnxruntime (which imports numpy) failed with
    # "partially initialized module". Importing it here, before any thread, costs ~0.1 s.
    import numpy  # noqa: F401

    from app.mcp.server import create_server

    _few_malloc_arenas()
    server = create_server(root, token=token if http else None)
    _stop_on_sigterm()
    try:
        if listening is not None:
            running = HttpServer(pid=os.getpid(), host=host, port=port, token=token is not None)
            started = serving_line(root, running, token_from)
            print(started, file=sys.stderr, flush=True)
            log.info(started.removeprefix("memory-tui: "), extra={FILE_ONLY: True})
            memory_dir = MemoryPaths.for_root(root).memory_dir
            endpoint = _endpoint(root, server)
            with record(memory_dir, running), endpoint:
                anyio.run(_serve_http, server, host, listening)
        else:
            log.info("serving %s over stdio (pid %d)", root, os.getpid())
            with _endpoint(root, server):
                anyio.run(server.run_stdio_async)
    except KeyboardInterrupt:
        pass
    finally:
        if listening is not None:
            listening.close()
        server.state.close()
        log.info("server stopped")
    return 0


def _endpoint(root: Path, server: MemoryServer) -> contextlib.AbstractContextManager[object]:
    """The loopback endpoint (:mod:`app.hook_endpoint`): the prompt hook, index runs and
    searches of the CLI, answered with this server's memory."""
    memory = server.state.memory
    return serve_hook(root, hook_answer(server), index_answer(memory), search_answer(memory))


def serving_line(root: Path, server: HttpServer, token_from: str) -> str:
    """The line ``serve-mcp --http`` starts with: where it serves, and the token's rule."""
    url = f"http://{server.address}/mcp"
    if server.token:
        rule = (
            f"every request must carry the token ({token_from or 'given'}) as "
            "`Authorization: Bearer TOKEN`"
        )
    else:
        rule = (
            "no token: every user and program on this machine can reach it "
            f"(set {TOKEN_ENV} or --token-file to require one)"
        )
    return f"memory-tui: serving {root} over MCP at {url}; {rule}; Ctrl-C stops"


async def _serve_http(server: MemoryServer, host: str, listening: socket.socket) -> None:
    """The SDK's streamable HTTP app under uvicorn, on the socket already listening (what
    ``run_streamable_http_async`` does, but on a socket bound before)."""
    import uvicorn

    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, log_level=server.settings.log_level.lower())
    await uvicorn.Server(config).serve(sockets=[listening])
