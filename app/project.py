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
