r"""``.gitignore`` files of a project, nested, read by ``pathspec`` (git's own wildmatch
rules: globs, ``**``, anchoring, directory-only and negated patterns, escapes).

What ``pathspec`` leaves to its caller is where a file's patterns apply: the directory
that holds it and everything below. Here the files of the folders from the root down are
asked deepest first, and the first with a pattern that speaks about a path decides (a
deeper file wins over a shallower one; within one file the last matching pattern wins,
``pathspec``'s rule). Global excludes and ``.git/info/exclude`` are not read.

Every pattern the project's files hold (``.gitignore``, ``.gitattributes``, what a
Makefile writes) is read by :func:`git_patterns`, which drops a line git cannot read (one
ending in a lone backslash: ``build\``) as git drops it, never the file; a pattern of the
configuration is read by :func:`setting_patterns`, which names the key and the pattern
instead.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import ConfigError

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

__all__ = [
    "IgnoreRules",
    "Tracked",
    "git_patterns",
    "is_ignored",
    "parse_gitignore",
    "setting_patterns",
]


@dataclass(frozen=True, slots=True)
class IgnoreRules:
    """The patterns of one ``.gitignore``."""

    base: str
    """Posix path of the directory holding the ``.gitignore`` (``""`` for the root)."""
    spec: GitIgnoreSpec

    def decides(self, rel: str, is_dir: bool) -> bool | None:
        """Whether this file ignores ``rel`` (a posix path from the project root): True
        (ignored), False (a negated pattern keeps it), None (no pattern speaks about it)."""
        if self.base:
            if not rel.startswith(self.base + "/"):
                return None
            rel = rel[len(self.base) + 1 :]
        if not is_dir:
            include: bool | None = self.spec.check_file(rel).include
            return include
        # A folder is decided by the last pattern that matches it, as git decides: pathspec's
        # GitIgnoreSpec ranks a file pattern's match above a folder pattern's whatever their
        # order, so "*" then "!*/" (ignore the programs a build leaves, keep every folder)
        # would prune every folder (psf/black#3694 met it; pathspec issue 137 is its kin).
        for pattern in reversed(self.spec.patterns):
            if pattern.include is not None and pattern.match_file(rel + "/") is not None:
                return pattern.include
        return None


def parse_gitignore(text: str, base: str) -> list[IgnoreRules]:
    """The patterns of one ``.gitignore`` file found in directory ``base`` (none for a
    file without one). ``pathspec`` is imported here, on the first file read: the prompt
    hook classifies paths with the module loaded and no ``.gitignore`` read."""
    spec = git_patterns(text.splitlines())
    return [IgnoreRules(base, spec)] if any(p.include is not None for p in spec.patterns) else []


def git_patterns(lines: Iterable[str]) -> GitIgnoreSpec:
    r"""Patterns of a project's file as git reads them: a line that is no pattern git can
    read (``build\``: a trailing lone backslash) is dropped, as git drops it, and the
    others kept. ``pathspec`` is imported here, on the first file read: the prompt hook
    classifies paths with this module loaded and no pattern read."""
    from pathspec import GitIgnoreSpec

    kept = list(lines)
    try:
        return GitIgnoreSpec.from_lines(kept)
    except ValueError:  # pathspec refuses the whole file for one line
        return GitIgnoreSpec.from_lines(line for line in kept if _invalid(line) is None)


def setting_patterns(key: str, patterns: Iterable[str]) -> GitIgnoreSpec:
    """The patterns of the configuration key ``key``.

    Raises:
        ConfigError: one is no pattern git can read; the message names the key and it.
    """
    from pathspec import GitIgnoreSpec

    kept = list(patterns)
    for pattern in kept:
        if (why := _invalid(pattern)) is not None:
            raise ConfigError(
                f"{key}: {pattern!r} is not a .gitignore pattern git can read ({why});"
                " correct or remove it in the configuration"
            )
    return GitIgnoreSpec.from_lines(kept)


def _invalid(line: str) -> str | None:
    """Why pathspec cannot read ``line`` as a pattern, or None when it can."""
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([line])
    except ValueError as exc:
        cause = exc.__cause__
        return str(cause) if cause is not None and str(cause) else str(exc)
    return None


def is_ignored(
    rules: Sequence[IgnoreRules], rel: str, is_dir: bool, tracked: Tracked | None = None
) -> bool:
    """Whether ``rel`` is ignored by ``rules`` (the files from the root down): the
    deepest file that speaks about it decides. With ``tracked``, a file git tracks, or a
    folder holding one, is never ignored, as git ignores none."""
    for file in reversed(rules):
        decided = file.decides(rel, is_dir)
        if decided is not None:
            return decided and not (tracked is not None and tracked.holds(rel, is_dir))
    return False


class Tracked:
    """The files git tracks under a project's root, read once and only when a pattern
    ignores something: "Files already tracked by Git are not affected" (gitignore(5)), so a
    page a project added with ``git add -f`` under an ignored ``docs/`` is the project's.
    Outside a git work tree, or without git, nothing is tracked and the patterns decide."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: frozenset[str] | None = None
        self._folders: frozenset[str] = frozenset()

    def holds(self, rel: str, is_dir: bool) -> bool:
        """Whether git tracks the file ``rel``, or (``is_dir``) a file below the folder."""
        if self._files is None:
            self._files = _git_files(self.root)
            self._folders = frozenset(path[:cut] for path in self._files for cut in _slashes(path))
        return rel in (self._folders if is_dir else self._files)


def _slashes(path: str) -> Iterator[int]:
    """Where each folder of ``path`` ends (``a/b/c``: 1, 3)."""
    cut = path.find("/")
    while cut != -1:
        yield cut
        cut = path.find("/", cut + 1)


def _git_files(root: Path) -> frozenset[str]:
    """``git ls-files`` in ``root``: the paths, relative to it, of the files git tracks
    there (none outside a work tree, when git is missing or refuses the repository)."""
    try:
        done = subprocess.run(
            # no hook of the repository's configuration runs (core.fsmonitor is a command)
            ["git", "-C", str(root), "-c", "core.fsmonitor=false", "ls-files", "-z", "--cached"],
            capture_output=True,
            timeout=60,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    if done.returncode != 0:
        return frozenset()
    return frozenset(p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p)
