"""The one factory that builds the app, for the CLI and for the tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.tui.app import MemoryApp
    from engine import Memory, SearchMode


def build_app(
    root: Path | str | None = None,
    *,
    memory: Memory | None = None,
    mode: SearchMode | str | None = None,
) -> MemoryApp:
    """The app on the memory of the project at ``root``, or on ``memory`` when given.

    Opening the memory is cheap (SQLite only): the embedding model is loaded by the app in
    the background, and LanceDB is imported on first need. A memory opened here is closed
    when the app ends; one passed in (tests use a fake embedder) stays the caller's.

    Raises:
        ConfigError: the project's configuration is invalid.
        ValueError: neither ``root`` nor ``memory`` was given.
    """
    from app.tui.app import MemoryApp
    from engine import Memory, parse_mode

    owns_memory = memory is None
    if memory is None:
        if root is None:
            raise ValueError("build_app needs a project root or a memory")
        memory = Memory.open(Path(root))
    chosen = parse_mode(mode) if mode is not None else None
    return MemoryApp(memory, mode=chosen, owns_memory=owns_memory)
