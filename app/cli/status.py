"""``memory-tui status``: the project's state in a few lines (or JSON), changing nothing.

Initialised or not, entries by source and category, personal notes not yet promoted
(shared with nobody until then), knowledge files and how many changed since the last
index, entries waiting for their vector (two-phase indexing), the git hooks, whether
``memory-tui`` is on PATH (the committed wiring needs it there, or ``MEMORY_TUI_BIN``), and
the ``serve-mcp --http`` servers running on the project, with whether each requires a token.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import json_text, printable


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``status`` to the parser."""
    p = command("status", "Show the project's state: memory, notes to share, index, hooks.")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.set_defaults(handler=status)


def status(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui status``: exit 0 whatever the state (it is a report, not a check)."""
    data = gather(root)
    if args.json:
        sys.stdout.write(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
    else:
        sys.stdout.write(printable("\n".join(describe(data)) + "\n"))
    return 0


def gather(root: Path) -> dict[str, Any]:
    """Everything ``status`` reports, as plain data; opens the memory only if it exists."""
    from engine import MemoryPaths

    paths = MemoryPaths.for_root(root)
    data: dict[str, Any] = {
        "project": str(root),
        "initialised": paths.memory_dir.is_dir(),
        "on_path": shutil.which("memory-tui") is not None,
        "local_bin": _local_bin(root),
        "hooks": _hooks(root),
        "http_servers": _http_servers(paths.memory_dir),
    }
    if data["initialised"]:
        data.update(_memory_state(root))
    return data


def _memory_state(root: Path) -> dict[str, Any]:
    from app.cli.setup import sources_line
    from engine import Indexer, Memory

    with Memory.open(root) as memory:
        stats = memory.stats()
        notes = memory.unpromoted_notes()
        fresh = Indexer(memory).freshness()  # the terminal app's status line asks the same
        waiting = memory.vectors_waiting()
    return {
        "entries": stats["entries"],
        "by_source": stats["by_source"],
        "by_category": stats["by_category"],
        "unpromoted_notes": len(notes),
        "knowledge_files": fresh.files_total,
        "files_to_index": fresh.outdated,
        "pending_vectors": waiting,
        "sources": sources_line(root),
    }


def _local_bin(root: Path) -> str | None:
    """The path to ``memory-tui`` that ``init`` wrote into this machine's (uncommitted)
    settings when it was not on PATH, if any."""
    from app.init import BIN_VARIABLE, LOCAL_SETTINGS

    try:
        data = json.loads((root / LOCAL_SETTINGS).read_text(encoding="utf-8"))
        value = data.get("env", {}).get(BIN_VARIABLE)
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def _http_servers(memory_dir: Path) -> list[dict[str, Any]]:
    """The running ``serve-mcp --http`` servers: address, token, and how exposed."""
    from app.mcp.serving import running

    servers = []
    for server in running(memory_dir):
        status, detail, fix = server.exposure()
        servers.append(
            {
                "pid": server.pid,
                "host": server.host,
                "port": server.port,
                "token": server.token,
                "exposure": status,
                "detail": detail,
                "fix": fix,
            }
        )
    return servers


def _hooks(root: Path) -> dict[str, str]:
    """Each git hook's state (``installed``, ``chained``, ``absent``); empty outside git."""
    from app.githooks.install import status as hook_status
    from engine import EngineError

    try:
        return {state.name: state.state for state in hook_status(root)}
    except EngineError:
        return {}


def describe(data: dict[str, Any]) -> list[str]:
    """The lines ``status`` prints for ``data``."""
    lines = [f"project:   {data['project']}"]
    if not data["initialised"]:
        from app.project import not_a_project

        why = not_a_project(Path(data["project"])) or "run `memory-tui init`"
        lines.append(f"memory:    not initialised: {why}")
    else:
        lines += _memory_lines(data)
    hooks = data["hooks"]
    installed = [name for name, state in hooks.items() if state != "absent"]
    if not hooks:
        lines.append("hooks:     not a git repository")
    elif len(installed) == len(hooks):
        lines.append(f"hooks:     installed ({', '.join(installed)})")
    else:
        lines.append(
            f"hooks:     {len(installed)} of {len(hooks)} installed: "
            "`memory-tui hooks install` keeps the index in step with git"
        )
    lines.append(_path_line(data))
    for server in data["http_servers"]:
        fix = f" ({server['fix']})" if server["fix"] else ""
        lines.append(f"serving:   {server['detail']}{fix}")
    return lines


def _path_line(data: dict[str, Any]) -> str:
    if data["on_path"]:
        return "on PATH:   yes"
    where = (
        f"this machine uses {data['local_bin']} (.claude/settings.local.json); "
        if data["local_bin"]
        else ""
    )
    return (
        f"on PATH:   no: {where}the committed .mcp.json and hook call `memory-tui`, so put "
        "it on PATH (pipx / uv tool install) or set MEMORY_TUI_BIN"
    )


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _memory_lines(data: dict[str, Any]) -> list[str]:
    def counts(key: str) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(data[key].items())) or "none"

    lines = [
        f"memory:    {_plural(data['entries'], 'entry', 'entries')}",
        f"  source:   {counts('by_source')}",
        f"  category: {counts('by_category')}",
    ]
    notes = data["unpromoted_notes"]
    lines.append(
        f"notes:     {notes} personal, not shared until promoted"
        + (" (review: `memory-tui promote --all-notes`)" if notes else "")
    )
    pending = data["files_to_index"]
    fresh = (
        f"{pending} changed since the last index (run `memory-tui index`)"
        if pending
        else "index up to date"
    )
    lines.append(f"knowledge: {_plural(data['knowledge_files'], 'file', 'files')}; {fresh}")
    lines.append(f"sources:   {data['sources']}")
    waiting = data["pending_vectors"]
    lines.append(
        f"vectors:   {waiting} of {data['entries']} entries wait for theirs (keyword search "
        "finds them; run `memory-tui embed`, or leave it to serve-mcp, the TUI or watch)"
        if waiting
        else "vectors:   every entry embedded"
    )
    return lines
