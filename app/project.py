"""Finding the project a command works on."""

from __future__ import annotations

import os
from pathlib import Path


def find_project_root(start: Path | None = None) -> Path:
    """The top of the git working tree containing ``start`` (default: the current
    directory), else ``start`` itself. ``CLAUDE_MEMORY_PROJECT`` overrides both."""
    override = os.environ.get("CLAUDE_MEMORY_PROJECT")
    if override:
        return Path(override).resolve()
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return here


NOT_INITIALISED = "NOT_INITIALISED"
"""The error code of a command run in a project that has no memory yet (exit status 2)."""


def require_initialised(root: Path) -> None:
    """Raise unless ``root`` has a memory: commands that read it create nothing on the way.

    Raises:
        EngineError: code ``NOT_INITIALISED``, saying to run ``memory-tui init`` first.
    """
    from engine import EngineError, MemoryPaths

    if not MemoryPaths.for_root(root).memory_dir.is_dir():
        raise EngineError(
            f"no memory in {root} yet: run `memory-tui init` first "
            "(or `memory-tui add` to start with a note)",
            code=NOT_INITIALISED,
        )
