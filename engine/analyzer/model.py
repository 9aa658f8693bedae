"""The results of a codebase analysis: frozen, comparable, cheap to pass around."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SymbolKind = Literal["function", "class", "const", "type", "interface", "enum", "method", "default"]
"""What an exported name is. Methods are named ``Class.method``."""


@dataclass(frozen=True, slots=True)
class LanguageStat:
    """How much of the project is written in one language."""

    language: str
    extensions: tuple[str, ...]
    """File extensions (or file names, e.g. ``Dockerfile``) seen for this language, sorted."""
    files: int
    lines: int
    percentage: float
    """Share of all recognised files, by file count, rounded to one decimal."""


@dataclass(frozen=True, slots=True)
class Symbol:
    """One public name of a module."""

    name: str
    kind: SymbolKind
    file: str
    """Posix path relative to the project root."""
    line: int
    """1-based line of the definition (or of the export statement)."""
    detail: str = ""
    """Signature, bases, value or a note (``default export``, ``re-export from .core``)."""
    summary: str = ""
    """First line of the docstring, when there is one."""


@dataclass(frozen=True, slots=True)
class DocOutline:
    """The title and headings of one documentation file."""

    file: str
    title: str
    headings: tuple[str, ...]
    """Headings in document order, without the title heading."""
    levels: tuple[int, ...] = ()
    """Heading levels (1-6), parallel to :attr:`headings`."""
    lead: str = ""
    """The opening text of release notes (their newest releases, which their one summary
    entry holds: :func:`engine.analyzer.docs.lead`); empty for other documents."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything :func:`engine.analyzer.analyze` learned about a project."""

    root: Path
    name: str
    """Project name from pyproject.toml, package.json, Cargo.toml or go.mod; else folder name."""
    languages: tuple[LanguageStat, ...]
    """Sorted by file count, descending."""
    source_dirs: tuple[str, ...]
    entry_points: tuple[str, ...]
    symbols: tuple[Symbol, ...]
    """Sorted by file, then line."""
    frameworks: tuple[str, ...]
    test_tools: tuple[str, ...]
    docs: tuple[DocOutline, ...]
    stats: dict[str, int]
    """``files``, ``directories``, ``lines``, ``source_files``, ``test_files``,
    ``skipped_binary``, ``skipped_large``."""
    errors: tuple[tuple[str, str], ...]
    """``(file, message)`` for files that could not be read or parsed."""
    files: dict[str, str]
    """Posix relative path → SHA-256 of the bytes, for every file that was read."""
    summaries: dict[str, str]
    """Posix relative path → first line of the module docstring (Python modules that have one)."""
    scripts: dict[str, str] = field(default_factory=dict)
    """Posix relative path → language, for the files named without an extension that their
    ``#!`` line gives one (:func:`engine.analyzer.languages.script_language`)."""


@dataclass(frozen=True, slots=True)
class DiscoveryDraft:
    """The text of one ``discovery`` entry, ready to be stored."""

    content: str
    section_title: str
    file_path: str
    """The module or document the entry is about; ``""`` for project-wide entries."""
    keywords: tuple[str, ...]
    line_start: int = 0
    """First line of ``file_path`` the entry holds (0: the file as a whole)."""
    line_end: int = 0
