"""Which language a file is written in, and the per-language tally of a project.

The table below names the languages the benches were measured with, and fixes their
names and whether each is code (:func:`is_code`) and a program (:func:`is_program`). An
extension it does not name is GitHub Linguist's (:mod:`engine.analyzer.linguist`): a
language Linguist calls ``programming`` is a program, named as Linguist names it (unless
the table names the language otherwise: Linguist's CMake and Makefile are build files
here too); markup, data and prose are not languages of the tally (the docs rules decide
documentation). A file named without an extension that no table names (``bin/lwp-request``,
``script/server``) is in the language its ``#!`` line's interpreter is written in
(:func:`script_language`): the analysis reads it and keeps the answer
(:attr:`engine.analyzer.model.Analysis.scripts`, :func:`path_language`).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from functools import cache

from engine.analyzer.linguist import cached_program_language
from engine.analyzer.model import LanguageStat

_EXTENSIONS: dict[str, str] = {
    ".py": "Python", ".pyi": "Python", ".pyw": "Python",
    ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
    ".js": "JavaScript", ".jsx": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
    ".go": "Go", ".rs": "Rust", ".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin",
    ".scala": "Scala", ".groovy": "Groovy", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++",
    ".cxx": "C++", ".hpp": "C++", ".hh": "C++", ".cs": "C#", ".fs": "F#", ".rb": "Ruby",
    ".php": "PHP", ".swift": "Swift", ".m": "Objective-C", ".mm": "Objective-C",
    ".dart": "Dart", ".lua": "Lua", ".r": "R", ".jl": "Julia", ".ex": "Elixir",
    ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".ml": "OCaml", ".clj": "Clojure",
    ".zig": "Zig", ".nim": "Nim", ".pl": "Perl", ".pm": "Perl", ".sh": "Shell", ".bash": "Shell",
    ".zsh": "Shell", ".fish": "Shell", ".ps1": "PowerShell", ".sql": "SQL", ".vue": "Vue",
    ".svelte": "Svelte", ".astro": "Astro", ".html": "HTML", ".htm": "HTML", ".css": "CSS",
    ".scss": "SCSS", ".sass": "SCSS", ".less": "Less", ".tcss": "Textual CSS",
    ".md": "Markdown", ".mdx": "Markdown", ".markdown": "Markdown", ".rst": "reStructuredText",
    ".json": "JSON", ".yaml": "YAML", ".yml": "YAML", ".toml": "TOML", ".ini": "INI",
    ".cfg": "INI", ".xml": "XML", ".proto": "Protocol Buffers", ".graphql": "GraphQL",
    ".gql": "GraphQL", ".tf": "HCL", ".hcl": "HCL", ".ipynb": "Jupyter Notebook",
    ".hrl": "Erlang", ".elm": "Elm", ".cljs": "Clojure", ".cljc": "Clojure", ".fsx": "F#",
    ".fsi": "F#", ".mli": "OCaml", ".lhs": "Haskell", ".cr": "Crystal", ".gleam": "Gleam",
    ".sol": "Solidity", ".vb": "Visual Basic", ".rkt": "Racket", ".el": "Emacs Lisp",
    ".lisp": "Common Lisp", ".scm": "Scheme", ".sc": "Scala", ".sbt": "Scala",
    ".gradle": "Groovy", ".cu": "CUDA", ".cuh": "CUDA", ".nix": "Nix", ".tcl": "Tcl",
    ".coffee": "CoffeeScript", ".pas": "Pascal", ".f90": "Fortran",
    ".hx": "Haxe", ".purs": "PureScript", ".res": "ReScript", ".psm1": "PowerShell",
    ".raku": "Raku", ".glsl": "GLSL", ".hlsl": "HLSL", ".wgsl": "WGSL", ".vala": "Vala",
}  # fmt: skip

FILE_NAMES: dict[str, str] = {
    "Dockerfile": "Dockerfile",
    "Containerfile": "Dockerfile",
    "Makefile": "Makefile",
    "GNUmakefile": "Makefile",
    "CMakeLists.txt": "CMake",
    "Justfile": "Just",
    "justfile": "Just",
    "Rakefile": "Ruby",
    "Gemfile": "Ruby",
}
"""Files the table names by their whole name (``CMakeLists.txt`` is CMake, not text)."""

_NON_CODE = frozenset(
    {"Markdown", "reStructuredText", "JSON", "YAML", "TOML", "INI", "XML", "Jupyter Notebook",
     "Dockerfile", "Makefile", "CMake", "Just"}
)  # fmt: skip
"""Documentation, data and build files: counted, but they do not make a source directory."""


def language_of(file_name: str) -> str | None:
    """The language of a file, from its name or extension (the table's, else Linguist's
    programming languages); ``None`` when unknown, or markup, data or prose the table
    does not name."""
    if file_name in FILE_NAMES:
        return FILE_NAMES[file_name]
    if file_name.startswith("Dockerfile."):
        return "Dockerfile"
    dot = file_name.rfind(".")
    if dot <= 0:
        return None
    known = _EXTENSIONS.get(file_name[dot:].lower())
    if known is not None:
        return known
    first = file_name.find(".", 1)
    return cached_program_language(file_name[first:].lower())


SHEBANG_BYTES = 512
"""How much of a file's start holds its ``#!`` line."""


def is_script_name(file_name: str) -> bool:
    """Whether ``file_name`` has no extension and no table names it (``lwp-request``, not
    ``Makefile``): a script, when its first line says which interpreter runs it."""
    return "." not in file_name and language_of(file_name) is None


def script_language(head: bytes) -> str | None:
    """The language of a script by the interpreter its ``#!`` line names (``#!/usr/bin/perl
    -w``, ``#!/usr/bin/env -S node``), from pre-commit's ``identify`` (the table of
    interpreters and the tags of extensions it keeps for telling files' types): the
    interpreter's tags (``perl``; ``shell`` and ``bash``) are looked up as the extensions
    that carry them, named by :func:`language_of` (``.pl``: Perl, ``.sh``: Shell). ``None``
    without a ``#!`` line, or for an interpreter no table names (``awk``, ``make``)."""
    if not head.startswith(b"#!"):
        return None
    from identify.identify import parse_shebang, tags_from_interpreter

    command = parse_shebang(io.BytesIO(head[:SHEBANG_BYTES]))
    if not command:
        return None
    return _tagged_language(frozenset(tags_from_interpreter(command[0])))


@cache
def _tagged_language(tags: frozenset[str]) -> str | None:
    """The language most of the extensions carrying one of ``tags`` are in."""
    from identify.extensions import EXTENSIONS

    named = Counter(
        language_of(f"x.{extension}") for extension, carried in EXTENSIONS.items() if tags & carried
    )
    named.pop(None, None)
    return named.most_common(1)[0][0] if named else None


def path_language(rel: str, scripts: Mapping[str, str]) -> str | None:
    """The language of the project file ``rel``: by its name, else by its ``#!`` line as
    the analysis found it (``scripts``: :attr:`engine.analyzer.model.Analysis.scripts`)."""
    return language_of(rel.rpartition("/")[2]) or scripts.get(rel)


_NOT_PROGRAMS = frozenset(
    {"HTML", "CSS", "SCSS", "Less", "Textual CSS", "SQL", "GraphQL", "Protocol Buffers"}
)
"""Source that is not a program: markup, stylesheets and data schemas (GitHub Linguist's
``markup`` and ``data`` types). Counted as code in the project's tally, but not cut into
definitions."""


def is_code(language: str | None) -> bool:
    """Whether files of ``language`` are program source (not docs or data)."""
    return language is not None and language not in _NON_CODE


def is_program(language: str | None) -> bool:
    """Whether files of ``language`` are programs, whose definitions the memory holds:
    source (:func:`is_code`) other than markup, stylesheets and data schemas. Every
    programming language the tally knows, not a list of the ones with a grammar: a
    language without one is cut at its top-level blocks."""
    return is_code(language) and language not in _NOT_PROGRAMS


class _Programs(Container[str]):
    """Every language :func:`is_program` accepts: the table's and Linguist's, so a
    question of membership (``language in PROGRAM_LANGUAGES``), not a list."""

    def __contains__(self, language: object) -> bool:
        return isinstance(language, str) and is_program(language)


PROGRAM_LANGUAGES: Container[str] = _Programs()
"""Every language :func:`is_program` accepts (:class:`_Programs`)."""


def _extension_label(file_name: str) -> str:
    dot = file_name.rfind(".")
    if file_name in FILE_NAMES or dot <= 0:
        return file_name
    return file_name[dot:].lower()


@dataclass(slots=True)
class _Tally:
    files: int = 0
    lines: int = 0
    extensions: set[str] = field(default_factory=set)


class LanguageCounter:
    """Accumulates files and lines per language while a project is walked."""

    def __init__(self) -> None:
        self._tallies: dict[str, _Tally] = {}

    def add(self, language: str, file_name: str, lines: int) -> None:
        """Count one file."""
        tally = self._tallies.setdefault(language, _Tally())
        tally.files += 1
        tally.lines += lines
        tally.extensions.add(_extension_label(file_name))

    def stats(self) -> tuple[LanguageStat, ...]:
        """One entry per language, most files first (then most lines, then name)."""
        total = sum(t.files for t in self._tallies.values())
        rows = [
            LanguageStat(
                language=name,
                extensions=tuple(sorted(t.extensions)),
                files=t.files,
                lines=t.lines,
                percentage=round(100.0 * t.files / total, 1) if total else 0.0,
            )
            for name, t in self._tallies.items()
        ]
        rows.sort(key=lambda s: (-s.files, -s.lines, s.language))
        return tuple(rows)


def count_lines(data: bytes) -> int:
    """Number of lines in ``data`` (a last line without a newline counts)."""
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
