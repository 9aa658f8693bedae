"""Documentation pages that only include another file of the project.

A docs site shows the project's top-level files among its pages by including them:
Sphinx's ``docs/changes.rst`` is a title over ``.. include:: ../CHANGES.rst`` (docutils'
``include`` directive; m2r's ``mdinclude`` for a markdown file), a MyST page holds an
```` ```{include} ../CHANGELOG.md ```` fence, an MkDocs page a snippet line (``--8<--
"CHANGELOG.md"``, pymdown-extensions' Snippets) or ``{% include-markdown "../README.md"
%}`` (mkdocs-include-markdown-plugin). The page's own text is its title: indexed, it is an
entry that holds nothing, named for what the question asks about ("Changes"), beside the
entry of the file itself. Such a page is the included file shown again, and the file is
the one people edit (:func:`included_file`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

MAX_STUB_BYTES = 2_048
"""A page longer than this says something of its own."""

_RST_INCLUDE = re.compile(r"\.\.[ \t]+(?:include|mdinclude)::[ \t]*(\S.*?)[ \t]*$")
_RST_OPTION = re.compile(r"[ \t]+:[\w-]+:.*$")
_RST_TARGET = re.compile(r"\.\.[ \t]+_[^:]+:[ \t]*$")
_ADORNMENT = re.compile(r"([=\-~^\"'`#*+:.])\1{2,}[ \t]*$")
_MYST_FENCE = re.compile(r"(`{3,}|:{3,})[ \t]*\{include\}[ \t]+(\S.*?)[ \t]*$")
_MYST_TARGET = re.compile(r"\([\w.:-]+\)=[ \t]*$")
_SNIPPET = re.compile(r"-{1,}8<-{1,}[ \t]+[\"']([^\"']+)[\"'][ \t]*$")
_INCLUDE_MARKDOWN = re.compile(r"\{%[ \t]*include-markdown[ \t]+[\"']([^\"']+)[\"'][^%]*%\}[ \t]*$")
_MD_HEADING = re.compile(r"#{1,6}[ \t]+\S.*$")


def included_file(rel: str, text: str, exists: Callable[[str], bool]) -> str | None:
    """The project file (its path from the project's root) that the page ``rel`` with
    content ``text`` only includes, or ``None`` when the page says anything besides a
    title, labels and include lines, includes nothing, or includes a file that is not in
    the project (``exists``: whether a project-relative path names a file)."""
    if len(text.encode("utf-8", errors="replace")) > MAX_STUB_BYTES:
        return None
    folder = posixpath.dirname(rel)
    targets = _include_targets(text.replace("\r\n", "\n").split("\n"))
    if not targets:
        return None
    found = []
    for target, from_root in targets:
        tried = [posixpath.join(folder, target)]
        if from_root:  # Snippets' base path is the project's root, then the page's folder
            tried.insert(0, target)
        paths = [posixpath.normpath(p) for p in tried]
        path = next((p for p in paths if not p.startswith("..") and exists(p)), None)
        if path is None:
            return None
        found.append(path)
    return found[0]


def _include_targets(lines: list[str]) -> list[tuple[str, bool]] | None:
    """Each include of ``lines`` as (target, whether it is relative to the project's root
    rather than the page), or ``None`` when a line is none of an include, its options, a
    title, a label or blank."""
    targets: list[tuple[str, bool]] = []
    prose = 0  # lines of text that are not an include: a title's, at most
    fence: str | None = None
    for i, line in enumerate(lines):
        if fence is not None:  # inside a MyST include fence: its options, then its end
            if line.strip() == fence:
                fence = None
            elif line.strip() and not line.lstrip().startswith(":"):
                return None
            continue
        if not line.strip() or _RST_OPTION.match(line) or _ADORNMENT.match(line):
            continue
        if _RST_TARGET.match(line) or _MYST_TARGET.match(line):
            continue
        if found := _RST_INCLUDE.match(line):
            targets.append((found.group(1), False))
        elif found := _MYST_FENCE.match(line):
            fence = found.group(1)
            targets.append((found.group(2), False))
        elif found := _SNIPPET.match(line.strip()):
            targets.append((found.group(1), True))
        elif found := _INCLUDE_MARKDOWN.match(line.strip()):
            targets.append((found.group(1), False))
        elif _MD_HEADING.match(line) or _ADORNMENT.match(_next(lines, i)):
            prose += 1  # a title: "# Changes", or a reST title over its adornment
        else:
            return None
        if prose > 1:
            return None
    return targets if fence is None else None


def _next(lines: list[str], i: int) -> str:
    return lines[i + 1] if i + 1 < len(lines) else ""
