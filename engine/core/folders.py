"""Folders named by the configuration must lie inside the project.

memory-tui reads and writes only inside the project: a configured folder (``knowledge_dir``,
the memory folder ``.claude/memory``) that leads outside it through ``..``, an absolute path
or a symlink is a configuration error naming the key, so that the MCP server can never list
or serve, and promotion never write, files elsewhere (a home folder's ``.ssh/``).
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.core.errors import ConfigError

FOLDER_KEYS = ("knowledge_dir",)
"""Settings naming a folder, which must lie inside the project (symlinks resolved)."""


def folder_inside(project_root: Path, folder: str, where: str) -> Path:
    """The real location of ``folder`` (relative to the project, or absolute), which must
    lie inside the project once symlinks are resolved.

    Raises:
        ConfigError: naming ``where`` (the file and key, or the variable) and the place
            the folder leads to.
    """
    root = project_root.resolve()
    if "\x00" in folder:
        raise ConfigError(f"{where}: the folder name contains a NUL character")
    try:
        target = (root / folder).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise ConfigError(f"{where}: {folder!r} cannot be resolved ({exc})") from None
    if not target.is_relative_to(root):
        how = "" if Path(os.path.normpath(root / folder)) == target else " through a symlink"
        raise ConfigError(
            f"{where}: {folder!r} leads{how} to {target}, outside the project {root}; "
            "memory-tui reads and writes only inside the project: use a folder inside it "
            'such as ".claude/knowledge"'
        )
    return target
