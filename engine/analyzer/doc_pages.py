"""Documentation pages a project's manifest lists by name (issue 50).

Some docs tools take their pages from a list in the project's manifest rather than from a
folder: ex_doc's ``extras`` in ``mix.exs`` (Elixir), Cabal's ``extra-doc-files``
(Haskell), the files after ``-`` in ``.yardopts`` (Ruby's YARD). A page listed there is
documentation by the project's own declaration, wherever it sits: Broadway's guides live
in ``guides/examples/``, whose folder name alone reads as example programs. Each reader
returns the listed paths or glob patterns relative to the manifest's folder; a listed page
is never an example or a test by its folder's name
(:class:`engine.analyzer.noise.NoiseClassifier`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from fnmatch import fnmatchcase

_EXTRAS = re.compile(r"\bextras:\s*")
_ELIXIR_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_CABAL_FIELD = re.compile(r"^(\s*)extra-doc-files\s*:(.*)$", re.IGNORECASE)


def _mix_exs(text: str) -> list[str]:
    """The string literals of every ``extras:`` value of a ``mix.exs``: its bracketed list
    (``extras: ["README.md", "guides/a.md": [title: "A"]]``), or the rest of the line
    (``extras: Path.wildcard("guides/*.md")``). Keyword options (``title:``) are strings
    too, but name no page (they are then matched against no file)."""
    found: list[str] = []
    for match in _EXTRAS.finditer(text):
        start = match.end()
        if text.startswith("[", start):
            depth, end = 0, start
            for end in range(start, len(text)):
                depth += {"[": 1, "]": -1}.get(text[end], 0)
                if depth == 0:
                    break
            value = text[start : end + 1]
        else:
            value = text[start:].partition("\n")[0]
        found += (s for s in _ELIXIR_STRING.findall(value) if s)
    return found


def _cabal(text: str) -> list[str]:
    """The files of a ``.cabal`` file's ``extra-doc-files`` field: its value and the lines
    indented deeper than the field below it, split at commas and spaces."""
    found: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _CABAL_FIELD.match(line)
        if match is None:
            continue
        values = [match.group(2)]
        indent = len(match.group(1))
        for more in lines[i + 1 :]:
            if more.strip() and len(more) - len(more.lstrip()) <= indent:
                break
            values.append(more.split("--", 1)[0])
        found += (v for value in values for v in re.split(r"[,\s]+", value) if v)
    return found


def _yardopts(text: str) -> list[str]:
    """The extra files of a ``.yardopts``: the words after a lone ``-``."""
    words = text.split()
    return words[words.index("-") + 1 :] if "-" in words else []


_READERS: dict[str, Callable[[str], list[str]]] = {
    "mix.exs": _mix_exs,
    ".yardopts": _yardopts,
}


def reader_for(name: str) -> Callable[[str], list[str]] | None:
    """The reader of the manifest named ``name``, if it lists doc pages."""
    if name.endswith(".cabal"):
        return _cabal
    return _READERS.get(name)


def declared_pages(folder: str, name: str, text: str) -> list[str]:
    """The doc pages (paths or glob patterns) the manifest ``folder/name`` lists, made
    project-relative; those that leave the project are dropped."""
    reader = reader_for(name)
    if reader is None:
        return []
    found = []
    for value in reader(text):
        if value.startswith("/") or "\\" in value or "\0" in value:
            continue
        rel = posixpath.normpath(posixpath.join(folder or ".", value))
        if rel not in (".", "..") and not rel.startswith("../") and rel not in found:
            found.append(rel)
    return found


def listed(pages: list[str], rel: str) -> bool:
    """Whether the project-relative ``rel`` is one of ``pages`` or matches one of their
    glob patterns (``*`` within a folder, ``**`` across folders)."""
    return any(rel == page or _glob(page, rel) for page in pages)


def _glob(pattern: str, rel: str) -> bool:
    if not any(c in pattern for c in "*?["):
        return False
    if "**" in pattern:
        return fnmatchcase(rel, pattern.replace("**/", "*").replace("**", "*"))
    return rel.count("/") == pattern.count("/") and fnmatchcase(rel, pattern)
