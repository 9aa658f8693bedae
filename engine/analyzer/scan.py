"""Walking a project: ignored and hidden directories, ``.gitignore``, binary and huge files.

The walk is deterministic (entries in name order) and streams: each wanted file is read,
checked and handed over before the next one is touched, so memory stays flat on big trees.
"""

from __future__ import annotations

import fnmatch
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.analyzer.gitignore import IgnoreRules, Tracked, is_ignored, parse_gitignore
from engine.core.errors import EngineError
from engine.guards.files import read_project_bytes

log = logging.getLogger(__name__)

DEFAULT_IGNORED: frozenset[str] = frozenset(
    {
        ".git", "node_modules", "dist", "build", ".venv", "venv", "__pycache__", ".mypy_cache",
        ".pytest_cache", ".ruff_cache", ".tox", "target", ".next", "coverage", ".claude",
        ".idea", ".vscode", "site-packages", "*.egg-info", ".eggs", "htmlcov", ".nox",
        "bower_components", "vendor",
    }
)  # fmt: skip
"""Directory names (or globs) never walked, at any depth. Hidden directories are skipped too."""

BUILD_OUTPUTS: frozenset[str] = frozenset({"build", "target"})
"""Names of :data:`DEFAULT_IGNORED` that a build writes its output under (Make, CMake,
Gradle, setuptools, Sphinx, mdBook's ``build-dir``; Cargo and Maven's ``target``) and that
a project also gives its own sources: a book's chapter on building (``book/src/build/``), Go's
package ``build``. Such a folder is walked where git tracks a file below it, as
gitignore(5) says of tracked files; a build's output is never committed. The other names
stay unwalked wherever they are: dependencies and environments (GitHub Linguist's
``vendor.yml`` lists ``node_modules/``, ``bower_components/``, ``vendor/``, ``dist/``),
caches and coverage reports."""

BINARY_SNIFF_BYTES = 8192
"""A NUL byte within this many leading bytes marks a file as binary."""


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """A wanted text file, already read."""

    rel: str
    """Posix path relative to the root."""
    data: bytes


@dataclass(slots=True)
class ScanStats:
    """What the walk saw besides the files it handed over."""

    files: int = 0
    """Regular, non-hidden, non-ignored files (wanted or not, skipped or not)."""
    directories: int = 0
    """Directories walked below the root."""
    skipped_binary: int = 0
    skipped_large: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)


class DirectoryFilter:
    """Decides which directory names are never entered."""

    def __init__(self, ignored: Iterable[str]) -> None:
        names = set(ignored)
        self._exact = frozenset(n for n in names if not any(c in n for c in "*?["))
        self._globs = tuple(sorted(names - self._exact))

    def skips(self, name: str) -> bool:
        """Whether a directory called ``name`` is left out."""
        if name.startswith(".") or name in self._exact:
            return True
        return any(fnmatch.fnmatchcase(name, g) for g in self._globs)

    def enters(self, name: str, rel: str, tracked: Tracked | None) -> bool:
        """Whether the walk goes into the folder ``rel`` called ``name``: one :meth:`skips`
        leaves out is entered only when it is named for a build's output
        (:data:`BUILD_OUTPUTS`) and git tracks a file below it."""
        if not self.skips(name):
            return True
        return name in BUILD_OUTPUTS and tracked is not None and tracked.holds(rel, True)


def scan(
    root: Path,
    *,
    ignored_dirs: Iterable[str],
    max_file_bytes: int,
    wanted: Callable[[str], bool],
    stats: ScanStats,
) -> Iterator[ScannedFile]:
    """Yield every wanted text file under ``root``; ``stats`` is filled in as the walk goes.

    ``wanted`` receives the file name. Symlinked directories are never entered (no loops, no
    escaping the root); symlinked files are read only when their target is inside the root.

    Long because the walk prunes directories, applies .gitignore rules and filters files in
    one pass over each listing; split, the rules and stats would be passed around.
    """
    root = root.resolve()
    dirs = DirectoryFilter(ignored_dirs)
    tracked = Tracked(root)  # a file git tracks is never ignored
    pending: list[tuple[Path, str, tuple[IgnoreRules, ...]]] = [(root, "", ())]
    while pending:
        directory, rel_dir, rules = pending.pop()
        rules = rules + read_gitignore(directory, rel_dir)
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            stats.errors.append((rel_dir or ".", f"cannot list directory: {exc.strerror}"))
            continue
        subdirs: list[tuple[Path, str, tuple[IgnoreRules, ...]]] = []
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_link = entry.is_symlink()
            except OSError:
                continue
            if is_dir:
                if dirs.enters(entry.name, rel, tracked) and not is_ignored(
                    rules, rel, True, tracked
                ):
                    stats.directories += 1
                    subdirs.append((Path(entry.path), rel, rules))
                continue
            if entry.name.startswith(".") or is_ignored(rules, rel, False, tracked):
                continue
            if is_link and not inside(root, Path(entry.path)):
                continue
            try:
                if not entry.is_file():
                    continue
                size = entry.stat().st_size
            except OSError:
                continue
            stats.files += 1
            if not wanted(entry.name):
                continue
            if size > max_file_bytes:
                stats.skipped_large += 1
                log.debug("skipping %s: %d bytes", rel, size)
                continue
            data = _read(Path(entry.path), rel, stats)
            if data is None:
                continue
            if b"\0" in data[:BINARY_SNIFF_BYTES]:
                stats.skipped_binary += 1
                continue
            yield ScannedFile(rel, data)
        pending.extend(reversed(subdirs))


def _read(path: Path, rel: str, stats: ScanStats) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError as exc:
        stats.errors.append((rel, f"cannot read: {exc.strerror or exc}"))
        return None


def read_gitignore(directory: Path, rel_dir: str) -> tuple[IgnoreRules, ...]:
    """The rules of ``directory``'s .gitignore (none where it is missing or refused),
    patterns relative to ``rel_dir``."""
    try:  # through the guard: a FIFO or a huge file named .gitignore is not read
        data = read_project_bytes(directory, directory / ".gitignore", allow_hidden=True)
    except EngineError:
        return ()
    text = data.decode("utf-8", errors="replace")
    return tuple(parse_gitignore(text, rel_dir))


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` resolves (links followed) to a place under ``root``."""
    try:
        path.resolve().relative_to(root)
    except (OSError, ValueError, RuntimeError):
        return False
    return True
