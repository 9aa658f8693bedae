"""The shape of a project: source directories and entry-point files (test files are
:mod:`engine.analyzer.testing_names`'s)."""

from __future__ import annotations

import re
from collections import Counter

_CONTAINERS = frozenset({"src", "lib", "libs", "packages", "apps", "crates", "cmd", "internal"})
"""Top-level directories that only hold the real units one level down."""
_ENTRY_FILE = re.compile(
    r"""(
        (.*/)?__main__\.py
      | (src/)?([^/]+/)?(cli|main|manage|wsgi|asgi|app)\.py
      | (.*/)?main\.go
      | (.*/)?src/main\.rs | (.*/)?src/bin/[^/]+\.rs
      | (src/)?(index|main|cli|server)\.[cm]?[jt]sx?
      | bin/[^/]+\.[cm]?js
    )""",
    re.VERBOSE,
)


def is_entry_file(rel: str) -> bool:
    """Whether ``rel`` looks like a program entry point by its name and place."""
    return _ENTRY_FILE.fullmatch(rel) is not None


class SourceDirectories:
    """Counts code files per source unit: a top-level directory, or one level into ``src``."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()

    def add(self, rel: str) -> None:
        """Count the code file ``rel``."""
        parts = rel.split("/")
        if len(parts) == 1:
            self._counts["."] += 1
        elif parts[0] in _CONTAINERS and len(parts) > 2:
            self._counts[f"{parts[0]}/{parts[1]}"] += 1
        else:
            self._counts[parts[0]] += 1

    def result(self) -> tuple[str, ...]:
        """Directories holding code, most files first; the root only when it has code itself."""
        return tuple(d for d, _ in sorted(self._counts.items(), key=lambda kv: (-kv[1], kv[0])))
