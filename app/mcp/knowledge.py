"""The ``memory://{+path}`` resources: files under ``.claude/knowledge/``, safely.

A path is relative to the knowledge directory and may contain ``/``. It is refused when it
could reach anything else: ``..`` components, absolute paths (``/x``, ``C:\\x``, ``~``),
backslashes, NUL, percent-escapes left after the URI's own decoding (double encoding), and
symlinks whose target lies outside the directory. A folder (or the empty path) reads as a
listing of the files below it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mcp.shared.path_security import is_absolute_path

SCHEME = "memory://"
MAX_FILE_BYTES = 2_000_000
"""Largest knowledge file served (markdown far beyond this is not knowledge)."""


class KnowledgePathError(ValueError):
    """A requested path is refused or names no readable file; ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class KnowledgeFile:
    """One file under the knowledge directory."""

    path: str
    """Posix path relative to the knowledge directory (the part after ``memory://``)."""
    size: int

    @property
    def uri(self) -> str:
        """The resource URI of the file."""
        return SCHEME + self.path


def mime_type(path: str) -> str:
    """``text/markdown`` for markdown files, ``text/plain`` otherwise."""
    return "text/markdown" if path.lower().endswith((".md", ".markdown")) else "text/plain"


def _refuse(reason: str) -> KnowledgePathError:
    return KnowledgePathError(
        "INVALID_INPUT",
        f"refused path: {reason}. Paths are relative to .claude/knowledge/, e.g. "
        "memory://architecture/overview.md; list the resources to see what exists.",
    )


def check_path(raw: str) -> str:
    """The path, normalised to ``a/b.md``, if nothing about it could leave the directory.

    Raises:
        KnowledgePathError: with code ``INVALID_INPUT``.
    """
    if "\x00" in raw:
        raise _refuse("NUL character")
    if "%" in raw:
        raise _refuse("percent-encoded characters (the URI was encoded twice)")
    if "\\" in raw:
        raise _refuse("backslash; use '/' between folders")
    if raw.startswith(("/", "~")) or is_absolute_path(raw):
        raise _refuse("absolute path")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise _refuse("'..' is not allowed")
    return "/".join(parts)


def resolve(knowledge_dir: Path, raw: str) -> Path:
    """The real location of ``raw`` inside ``knowledge_dir`` (symlinks followed).

    Raises:
        KnowledgePathError: ``INVALID_INPUT`` for a refused path or a symlink leading
            outside, ``NOT_FOUND`` when nothing is there.
    """
    rel = check_path(raw)
    try:
        base = knowledge_dir.resolve(strict=True)
    except OSError:
        raise KnowledgePathError(
            "NOT_FOUND", f"{knowledge_dir} does not exist; run `memory-tui init` in the project"
        ) from None
    target = (base / rel).resolve()
    if not target.is_relative_to(base):
        raise _refuse("it leads outside .claude/knowledge/ (symlink)")
    if not target.exists():
        raise KnowledgePathError(
            "NOT_FOUND", f"no knowledge file '{rel}'; list the resources to see what exists"
        )
    return target


def read(knowledge_dir: Path, raw: str) -> str:
    """The text of a knowledge file, or a listing when ``raw`` names a folder.

    Raises:
        KnowledgePathError: refused, missing, too large or not UTF-8 text.
    """
    target = resolve(knowledge_dir, raw)
    if target.is_dir():
        return listing(knowledge_dir, under=target)
    size = target.stat().st_size
    if size > MAX_FILE_BYTES:
        raise KnowledgePathError(
            "INVALID_INPUT",
            f"'{raw}' is {size:,} bytes; files over {MAX_FILE_BYTES:,} are not served",
        )
    try:
        return target.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise KnowledgePathError("INVALID_INPUT", f"'{raw}' is not UTF-8 text") from None


def files(knowledge_dir: Path, under: Path | None = None) -> list[KnowledgeFile]:
    """Regular files under the knowledge directory (or one folder of it), sorted by path.

    Hidden files and folders are skipped, and so is anything a symlink takes outside.
    """
    try:
        base = knowledge_dir.resolve(strict=True)
    except OSError:
        return []
    start = under or base
    found: list[KnowledgeFile] = []
    for folder, dirs, names in os.walk(start, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(folder, name)
            real = path.resolve()
            if not real.is_relative_to(base) or not real.is_file():
                continue
            rel = path.relative_to(base).as_posix()
            found.append(KnowledgeFile(rel, real.stat().st_size))
    return sorted(found, key=lambda f: f.path)


def listing(knowledge_dir: Path, under: Path | None = None) -> str:
    """A markdown list of the knowledge files with their URIs."""
    entries = files(knowledge_dir, under)
    if not entries:
        return "No knowledge files here yet.\n"
    lines = ["# Knowledge files", ""]
    lines += [f"- {f.uri} ({f.size:,} bytes)" for f in entries]
    return "\n".join(lines) + "\n"
