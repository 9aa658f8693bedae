"""The client's side of the exchange with a running ``serve-mcp``, and the protocol: find
the servers of this project and ask one (the server's side: :mod:`app.hook_endpoint`).

Two kinds of request, each one JSON line carrying the token:

* ``prompt`` (:func:`ask`): the prompt hook asks for the entries to inject;
* ``index`` (:func:`ask_server`): ``memory-tui index`` and the git hooks' re-index ask the
  server to run the index (:class:`IndexRequest`) on its open store with its model
  loaded, instead of importing LanceDB and loading the model themselves;
* ``search`` (:func:`ask_server`): ``memory-tui search --mode hybrid|vector`` asks the
  server to search and render the results (:class:`SearchRequest`).

For these two the server writes a ``{"working": true}`` line every :data:`HEARTBEAT`
seconds while the work goes on, then ``{"report": {...}}`` (or ``{"error": "..."}``).

Every kind, size and timeout of the exchange is declared here, once. The hook is a fresh
process per prompt, and what it imports is most of its run time (bench/RESULTS.md,
"Issue 50: the hook's time is its imports"): this module holds only what asking needs,
not the server's threads, token drawing and socket server.
"""

from __future__ import annotations

import hashlib
import json
import logging
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import pid_records

if TYPE_CHECKING:
    from engine import Config

log = logging.getLogger("memory_tui.hook")

FOLDER = "hook-endpoints"
"""The discovery files' folder, under ``.claude/memory/``."""
PROTOCOL = 1
"""A request without ``kind`` is a prompt: the first protocol's hooks still get answers."""
HOST = "127.0.0.1"

PROMPT = "prompt"
"""The prompt hook's request: ``{"token", "kind", "prompt"}``."""
INDEX = "index"
"""The index run's request: ``{"token", "kind", **IndexRequest fields}``."""
SEARCH = "search"
"""A search's request: ``{"token", "kind", **SearchRequest fields}``."""
KINDS = (PROMPT, INDEX, SEARCH)

MAX_REQUEST = 256 * 1024
"""Bytes of one request line: a prompt (the hook sends at most 2,000 characters) or the
paths of an index run; a longer one is refused (the client runs the index itself)."""
MAX_PATHS = 2_000
"""Paths one index request may name (a larger change is indexed by the client itself)."""
MAX_PATH_CHARS = 1_024
"""Characters of one path in an index request."""
MAX_RESPONSE = 8 * 1024 * 1024
"""Bytes of one answer line (a search's rendered results, at most 100 of them)."""

REQUEST_TIMEOUT = 2.0
"""Seconds the server waits for a request line before dropping the connection."""
CONNECT_TIMEOUT = 1.0
"""Seconds an index client waits for a server to accept the connection."""
HEARTBEAT = 0.5
"""Seconds between the server's ``working`` lines while an index run goes on."""
SILENCE = 15.0
"""Seconds an index or search client waits for the next line before it gives the server
up (a stopped or hung server) and does the work by itself; a server that dies closes the
connection, and the client goes on at once."""


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
    request = {"token": endpoint.token, "kind": PROMPT, "prompt": prompt}
    with socket.create_connection((HOST, endpoint.port), timeout=timeout) as sock:
        sock.sendall(json.dumps(request).encode() + b"\n")
        answer = next(_lines(sock, lambda: deadline - time.monotonic()))
    results = _answered(answer, "results")
    if not isinstance(results, list):
        raise ValueError("not an answer")
    return [Injected.from_fields(item) for item in results]


def _lines(sock: socket.socket, left: Callable[[], float]) -> Iterator[Any]:
    """The JSON lines the server sends, each within ``left()`` seconds of the last.

    Raises:
        TimeoutError: none came in time.
        ValueError: the connection closed first, or a line is too long or not JSON.
    """
    received = bytearray()
    while True:
        while b"\n" not in received:
            wait = left()
            if wait <= 0:
                raise TimeoutError("no answer in time")
            sock.settimeout(wait)
            chunk = sock.recv(65536)
            if not chunk:
                raise ValueError("the connection closed before the answer")
            received += chunk
            if len(received) > MAX_RESPONSE:
                raise ValueError("the answer is too long")
        line, _, rest = bytes(received).partition(b"\n")
        received = bytearray(rest)
        yield json.loads(line)


def _answered(answer: Any, key: str) -> Any:
    """``answer[key]``; ValueError saying what the server said when it is not there."""
    if isinstance(answer, dict) and key in answer:
        return answer[key]
    error = answer.get("error") if isinstance(answer, dict) else None
    raise ValueError(f"the server said: {error}" if isinstance(error, str) else "not an answer")


# --- index runs ------------------------------------------------------------------------


def config_key(config: Config) -> str:
    """What identifies a configuration across processes (where it came from aside): the
    server indexes for a client only with the configuration the client would use."""
    return hashlib.sha256(repr(replace(config, source="")).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class IndexRequest:
    """An index run asked of the server: what ``Indexer.run`` and ``Indexer.embed`` get."""

    config: str
    """:func:`config_key` of the client's configuration."""
    paths: tuple[str, ...] | None = None
    """Project-relative paths to index (None: everything that changed)."""
    dry_run: bool = False
    embed: bool = True
    """Run the second phase (the vectors) before answering."""

    def fields(self) -> dict[str, Any]:
        data = asdict(self)
        data["paths"] = None if self.paths is None else list(self.paths)
        return data

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> IndexRequest:
        """The request in a request line's fields (sizes checked; the paths' places are
        the server's to check, :func:`app.hook_endpoint.guarded_paths`).

        Raises:
            ValueError: a field is missing, of the wrong type, or too large.
        """
        config, paths = data.get("config"), data.get("paths")
        dry_run, embed = data.get("dry_run", False), data.get("embed", True)
        if not isinstance(config, str) or not config:
            raise ValueError("no configuration key")
        if not isinstance(dry_run, bool) or not isinstance(embed, bool):
            raise ValueError("dry_run and embed must be true or false")
        if paths is None:
            return cls(config=config, dry_run=dry_run, embed=embed)
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise ValueError("paths must be a list of text")
        if len(paths) > MAX_PATHS:
            raise ValueError(f"{len(paths)} paths: at most {MAX_PATHS} in one request")
        if any(len(p) > MAX_PATH_CHARS for p in paths):
            raise ValueError(f"a path over {MAX_PATH_CHARS} characters")
        return cls(config=config, paths=tuple(paths), dry_run=dry_run, embed=embed)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A search asked of the server: what ``Memory.search`` gets, and the format of the
    rendered results."""

    config: str
    """:func:`config_key` of the client's configuration."""
    query: str
    format: str = "text"
    mode: str | None = None
    limit: int | None = None
    category: str | None = None
    min_score: float | None = None
    source: str | None = None
    stale_only: bool = False

    def fields(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> SearchRequest:
        """The request in a request line's fields (their values are the engine's to check).

        Raises:
            ValueError: a field is missing or of the wrong type.
        """
        config, query, fmt = data.get("config"), data.get("query"), data.get("format", "text")
        if not isinstance(config, str) or not config:
            raise ValueError("no configuration key")
        if not isinstance(query, str) or not isinstance(fmt, str):
            raise ValueError("query and format must be text")
        optional: dict[str, type | tuple[type, ...]] = {
            "mode": str,
            "limit": int,
            "category": str,
            "min_score": (int, float),
            "source": str,
        }
        values: dict[str, Any] = {}
        for name, kind in optional.items():
            value = data.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, kind)):
                raise ValueError(f"{name} is of the wrong type")
            values[name] = value
        stale_only = data.get("stale_only", False)
        if not isinstance(stale_only, bool):
            raise ValueError("stale_only must be true or false")
        return cls(config=config, query=query, format=fmt, stale_only=stale_only, **values)


@dataclass(frozen=True, slots=True)
class Served:
    """A server's answer to an index or search request."""

    pid: int
    report: dict[str, Any]
    """What the server did, as fields (checked by the caller, which knows their types)."""


class NotServed(Exception):
    """A server of this project was asked and did not do the work (``str()``: why)."""

    def __init__(self, pid: int, reason: str) -> None:
        super().__init__(reason)
        self.pid = pid


def ask_server(
    memory_dir: Path, root: Path, kind: str, request: IndexRequest | SearchRequest
) -> Served | None:
    """Have the newest running server of the project at ``root`` do ``request`` (of
    ``kind``: :data:`INDEX` or :data:`SEARCH`).

    Returns None when no server runs. The server's answer comes when its work is done
    (however long: it says it is working every :data:`HEARTBEAT` seconds).

    Raises:
        NotServed: the server refused, failed, went silent for :data:`SILENCE`
            seconds or closed the connection: the caller does the work by itself (an
            unfinished index run of the server's keeps the index lock until it ends, so
            the two never mix).
    """
    found = endpoints(memory_dir, root)
    if not found:
        return None
    endpoint = found[0]
    line = json.dumps({"token": endpoint.token, "kind": kind, **request.fields()}).encode()
    if len(line) >= MAX_REQUEST:
        raise NotServed(endpoint.pid, f"the request is over {MAX_REQUEST} bytes")
    try:
        with socket.create_connection((HOST, endpoint.port), timeout=CONNECT_TIMEOUT) as sock:
            sock.sendall(line + b"\n")
            for answer in _lines(sock, lambda: SILENCE):
                if isinstance(answer, dict) and answer.get("working") is True:
                    continue
                report = _answered(answer, "report")
                if not isinstance(report, dict):
                    raise ValueError("not a report")
                return Served(endpoint.pid, report)
    except TimeoutError:
        raise NotServed(endpoint.pid, f"no answer for {SILENCE:g} s") from None
    except (OSError, ValueError) as exc:
        raise NotServed(endpoint.pid, str(exc) or type(exc).__name__) from None
    raise NotServed(endpoint.pid, "no answer")  # pragma: no cover - _lines never ends
