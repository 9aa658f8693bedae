"""The basics of ``.gitignore``: globs, ``**``, anchoring, directory-only and negated rules.

Rules of a ``.gitignore`` apply to the directory that holds it and everything below; later
rules win over earlier ones, and rules of deeper files over those of shallower ones. Global
excludes and ``.git/info/exclude`` are not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One line of a ``.gitignore``."""

    base: str
    """Posix path of the directory holding the ``.gitignore`` (``""`` for the root)."""
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    anchored: bool
    """Matched against the path below :attr:`base`; otherwise against the bare name."""

    def matches(self, rel: str, is_dir: bool) -> bool:
        """Whether this rule speaks about ``rel`` (a posix path from the project root)."""
        if self.dir_only and not is_dir:
            return False
        if self.base:
            if not rel.startswith(self.base + "/"):
                return False
            rel = rel[len(self.base) + 1 :]
        target = rel if self.anchored else rel.rpartition("/")[2]
        return self.regex.fullmatch(target) is not None


def parse_gitignore(text: str, base: str) -> list[IgnoreRule]:
    """The rules of one ``.gitignore`` file found in directory ``base``."""
    rules: list[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.endswith("\\"):  # a trailing escaped space was cut by rstrip
            line += " "
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        if negate or line.startswith("\\"):  # "\!" and "\#" escape a literal first char
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        try:
            regex = re.compile(_translate(line))
        except re.error:
            continue
        rules.append(IgnoreRule(base, regex, negate, dir_only, anchored))
    return rules


def is_ignored(rules: Sequence[IgnoreRule], rel: str, is_dir: bool) -> bool:
    """Whether the last rule that matches ``rel`` ignores it."""
    ignored = False
    for rule in rules:
        if rule.matches(rel, is_dir):
            ignored = not rule.negate
    return ignored


def _translate(pattern: str) -> str:
    """A gitignore glob as a regular expression over posix paths."""
    parts: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            parts.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i) and i + 2 == n and (i == 0 or pattern[i - 1] == "/"):
            parts.append(".*")
            i += 2
        elif pattern[i] == "*":
            parts.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            parts.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 2)
            if end == -1:
                parts.append(re.escape("["))
                i += 1
                continue
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            parts.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        elif pattern[i] == "\\" and i + 1 < n:
            parts.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            parts.append(re.escape(pattern[i]))
            i += 1
    return "".join(parts)
