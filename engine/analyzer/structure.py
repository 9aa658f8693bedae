"""The shape of a project: source directories, entry-point files, test files."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from engine.analyzer.testing_names import is_test_name

_CONTAINERS = frozenset({"src", "lib", "libs", "packages", "apps", "crates", "cmd", "internal"})
"""Top-level directories that only hold the real units one level down."""
_TEST_DIRS = frozenset(
    {"test", "tests", "__tests__", "spec", "specs", "fixtures", "__fixtures__", "testdata",
     "__mocks__", "e2e", "benches"}
)  # fmt: skip
_SOURCE_SET_TEST = re.compile(r"[a-z]+Test")
"""Gradle source sets of tests beside ``src/main``: ``src/androidTest``, ``src/jvmTest``."""
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


def is_test_path(rel: str) -> bool:
    """Whether ``rel`` is a test file by its name
    (:func:`engine.analyzer.testing_names.is_test_name`) or lives in a test/fixture
    directory."""
    directory, _, name = rel.rpartition("/")
    if is_test_name(name):
        return True
    parts = directory.split("/")
    if any(p == "src" and _SOURCE_SET_TEST.fullmatch(q) for p, q in pairwise(parts)):
        return True
    return any(part.lower() in _TEST_DIRS for part in parts if part)


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
