"""``.gitignore`` files of a project, nested, read by ``pathspec`` (git's own wildmatch
rules: globs, ``**``, anchoring, directory-only and negated patterns, escapes).

What ``pathspec`` leaves to its caller is where a file's patterns apply: the directory
that holds it and everything below. Here the files of the folders from the root down are
asked deepest first, and the first with a pattern that speaks about a path decides (a
deeper file wins over a shallower one; within one file the last matching pattern wins,
``pathspec``'s rule). Global excludes and ``.git/info/exclude`` are not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

__all__ = ["IgnoreRules", "is_ignored", "parse_gitignore"]


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
        include: bool | None = self.spec.check_file(rel + "/" if is_dir else rel).include
        return include


def parse_gitignore(text: str, base: str) -> list[IgnoreRules]:
    """The patterns of one ``.gitignore`` file found in directory ``base`` (none for a
    file without one). ``pathspec`` is imported here, on the first file read: the prompt
    hook classifies paths with the module loaded and no ``.gitignore`` read."""
    from pathspec import GitIgnoreSpec

    spec = GitIgnoreSpec.from_lines(text.splitlines())
    return [IgnoreRules(base, spec)] if any(p.include is not None for p in spec.patterns) else []


def is_ignored(rules: Sequence[IgnoreRules], rel: str, is_dir: bool) -> bool:
    """Whether ``rel`` is ignored by ``rules`` (the files from the root down): the
    deepest file that speaks about it decides."""
    for file in reversed(rules):
        decided = file.decides(rel, is_dir)
        if decided is not None:
            return decided
    return False
