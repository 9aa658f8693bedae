"""``memory-tui index``, the git hooks' re-index and ``memory-tui search --mode
hybrid|vector``, done by a running ``serve-mcp``.

A fresh process indexing one edited file or searching by meaning spends most of its time
importing LanceDB and loading the model (bench/RESULTS.md, "Issue 49 (nopatch, session
16)"); a ``serve-mcp`` of the same project has both loaded and its store open. So these
commands ask it first (:func:`app.hook_client.ask_server`) with the configuration they
would use, and do the work themselves when no server runs, when it refuses (another
configuration; ``index --force`` is never asked), or when it fails or goes silent: a run
is never lost, and the index lock keeps a server's unfinished run and the client's apart.
What they print is what they would print by themselves.
"""

from __future__ import annotations

import logging
import sys
from argparse import Namespace
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.hook_client import (
    INDEX,
    SEARCH,
    IndexRequest,
    NotServed,
    SearchRequest,
    ask_server,
    config_key,
)

if TYPE_CHECKING:
    from engine import Config, IndexReport, Memory

log = logging.getLogger("memory_tui.cli")


def index_by_server(
    root: Path,
    *,
    paths: Sequence[str] | None = None,
    dry_run: bool = False,
    embed: bool = True,
) -> IndexReport | None:
    """The report of the index run a running server of the project at ``root`` did for
    this process (``paths``: only these project-relative files), or None when the caller
    must run it: no server runs, or the one asked did not run it (said on stderr).
    """
    from engine import printable

    found = _project(root)
    if found is None:
        return None
    memory_dir, config = found
    request = IndexRequest(
        config=config_key(config),
        paths=None if paths is None else tuple(paths),
        dry_run=dry_run,
        embed=embed,
    )
    try:
        served = ask_server(memory_dir, root, INDEX, request)
        if served is None:
            return None
        report = report_from_fields(served.report)
    except (NotServed, ValueError) as exc:
        pid = f" (pid {exc.pid})" if isinstance(exc, NotServed) else ""
        why = f"the running server{pid} did not index: {exc}; indexing here"
        print(printable(f"memory-tui: {why}"), file=sys.stderr)
        return None
    print(f"memory-tui: indexed by the running server (pid {served.pid})", file=sys.stderr)
    return report


def _project(root: Path) -> tuple[Path, Config] | None:
    """The memory folder and the configuration of the project at ``root``; None when it
    has no memory yet or its configuration is invalid (the caller's own run says so)."""
    from engine import EngineError, MemoryPaths, load_config

    try:
        config = load_config(root)
        memory_dir = MemoryPaths.for_root(root, config.knowledge_dir).memory_dir
    except EngineError:
        return None
    return (memory_dir, config) if memory_dir.is_dir() else None


@dataclass(frozen=True, slots=True)
class Searched:
    """What a server's search prints: warnings, the rendered results, promotions."""

    warnings: list[str]
    output: str
    promoted: list[tuple[str, str]]
    """(the promoted note's id, where it went) for each auto-promotion."""


def search_request(args: Namespace, fmt: str, config: str = "") -> SearchRequest:
    """The ``search`` command's options as a :class:`SearchRequest` (``config``: the
    :func:`config_key` a server checks; a search run here has none to check)."""
    return SearchRequest(
        config=config,
        query=args.query,
        format=fmt,
        mode=args.mode,
        limit=args.limit,
        category=args.category,
        min_score=args.min_score,
        source=args.source,
        stale_only=args.stale,
    )


def run_search(memory: Memory, request: SearchRequest) -> Searched:
    """What ``memory-tui search`` prints for ``request`` on ``memory``: its warnings, the
    results rendered, and the entries the search made due for promotion, promoted
    (``Memory.search``, ``render``, ``Memory.referenced``). The command runs it on its own
    memory, a running server on its (:func:`app.mcp.hook.search_answer`): one use case,
    whichever process runs it."""
    from engine import render

    response = memory.search(
        request.query,
        mode=request.mode,
        limit=request.limit,
        category=request.category,
        min_score=request.min_score,
        source=request.source,
        stale_only=request.stale_only,
    )
    prefix = memory.paths.knowledge_prefix
    output = render(response.results, request.format, query=request.query, knowledge_prefix=prefix)
    promoted = [
        (done.original.id, done.path.relative_to(memory.paths.root).as_posix())
        for done in memory.referenced([r.entry.id for r in response.results])
    ]
    return Searched(list(response.warnings), output, promoted)


def search_by_server(root: Path, args: Namespace, fmt: str) -> Searched | None:
    """What a running server's search (``args``, the ``search`` command's options, the
    results rendered as ``fmt``) prints; None when the caller must search by itself: a
    keyword search (fast without a server), no server runs, or the one asked did not
    search (logged only: the caller's own search says what went wrong, if anything did).
    """
    found = _project(root)
    if found is None:
        return None
    memory_dir, config = found
    mode = args.mode or config.search_mode.value
    if mode == "keyword":
        return None
    request = search_request(args, fmt, config_key(config))
    try:
        served = ask_server(memory_dir, root, SEARCH, request)
        if served is None:
            return None
        data = served.report
        warnings, output = data.get("warnings"), data.get("output")
        promoted = _texts(data.get("promoted"), "promoted", pairs=True)
        if not isinstance(output, str):
            raise ValueError("the search's output is not text")
        return Searched(_texts(warnings, "warnings"), output, [(a, b) for a, b in promoted])
    except (NotServed, ValueError) as exc:
        log.info("the running server did not search: %s", exc)
        return None


def report_from_fields(data: dict[str, Any]) -> IndexReport:
    """The :class:`engine.IndexReport` whose fields a server sent, each of its type.

    Raises:
        ValueError: a field is missing or not of its type.
    """
    from engine import IndexReport

    values: dict[str, Any] = {}
    blank = IndexReport()
    for field in fields(IndexReport):
        value, default = data.get(field.name), getattr(blank, field.name)
        if field.name in ("errors", "warnings"):
            value = [tuple(pair) for pair in _texts(value, field.name, pairs=True)]
        elif isinstance(default, list):
            value = _texts(value, field.name)
        elif isinstance(default, bool) or isinstance(value, bool):
            if type(value) is not type(default):
                raise ValueError(f"the report's {field.name} is not {type(default).__name__}")
        elif isinstance(default, int | float) and isinstance(value, int | float):
            value = type(default)(value)
            if value != data[field.name]:
                raise ValueError(f"the report's {field.name} is not a whole number")
        elif not isinstance(value, type(default)):
            raise ValueError(f"the report's {field.name} is not {type(default).__name__}")
        values[field.name] = value
    return IndexReport(**values)


def _texts(value: object, name: str, *, pairs: bool = False) -> list[Any]:
    def ok(item: object) -> bool:
        if pairs:
            return isinstance(item, list) and len(item) == 2 and all(ok_text(i) for i in item)
        return ok_text(item)

    def ok_text(item: object) -> bool:
        return isinstance(item, str)

    if not isinstance(value, list) or not all(ok(item) for item in value):
        raise ValueError(f"the report's {name} is not a list of {'pairs of ' if pairs else ''}text")
    return value
