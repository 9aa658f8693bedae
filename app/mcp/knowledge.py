"""The ``memory://{+path}`` resources: files under ``.claude/knowledge/``, safely.

A path is relative to the knowledge directory and may contain ``/``. It is refused when it
could reach anything else: ``..`` components, absolute paths (``/x``, ``C:\\x``, ``~``),
backslashes, NUL, percent-escapes left after the URI's own decoding (double encoding),
symlinks whose target lies outside the directory, and hidden files (``memory://.env``).
Files are read through the engine's guard: only regular files, their size checked first.
A folder (or the empty path) reads as a listing of the files below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcp.shared.path_security import is_absolute_path

from engine import (
    RESOURCE_SCHEME,
    EngineError,
    FileRefusedError,
    NotFoundError,
    project_files,
    read_project_text,
    resolve_inside,
)

SCHEME = RESOURCE_SCHEME


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


def _guarded(exc: EngineError, raw: str) -> KnowledgePathError:
    """The guard's refusal as a resource error."""
    if isinstance(exc, NotFoundError):
        return KnowledgePathError(
            "NOT_FOUND", f"no knowledge file '{raw}'; list the resources to see what exists"
        )
    detail = exc.detail if isinstance(exc, FileRefusedError) else exc.message
    return KnowledgePathError("INVALID_INPUT", f"'{raw}' is not served: {detail}")


def resolve(knowledge_dir: Path, raw: str) -> Path:
    """The real location of ``raw`` inside ``knowledge_dir`` (symlinks followed).

    Raises:
        KnowledgePathError: ``INVALID_INPUT`` for a refused path (hidden, a symlink leading
            outside or in a loop), ``NOT_FOUND`` when nothing is there.
    """
    rel = check_path(raw)
    if not knowledge_dir.is_dir():
        raise KnowledgePathError(
            "NOT_FOUND", f"{knowledge_dir} does not exist; run `memory-tui init` in the project"
        )
    try:
        return resolve_inside(knowledge_dir, knowledge_dir / rel)
    except EngineError as exc:
        raise _guarded(exc, raw) from None


def read(knowledge_dir: Path, raw: str, *, max_bytes: int = 2_000_000) -> str:
    """The text of a knowledge file, or a listing when ``raw`` names a folder.

    The file is read through the engine's guard (:func:`engine.read_project_text`): hidden
    files, FIFOs, devices, sockets and files over ``max_bytes`` (checked before reading)
    are refused, so no request can block the server or exhaust its memory.

    Raises:
        KnowledgePathError: refused, missing, too large or not UTF-8 text.
    """
    target = resolve(knowledge_dir, raw)
    if target.is_dir():
        return listing(knowledge_dir, under=target)
    try:
        return read_project_text(
            knowledge_dir, knowledge_dir / check_path(raw), max_bytes=max_bytes
        )
    except EngineError as exc:
        raise _guarded(exc, raw) from None


def files(knowledge_dir: Path, under: Path | None = None) -> list[KnowledgeFile]:
    """Regular files under the knowledge directory (or one folder of it), sorted by path.

    Listed by the engine's guard (:func:`engine.project_files`): hidden files and folders,
    anything a symlink takes outside, links in a loop, FIFOs and devices are left out.
    """
    try:
        start = (under or knowledge_dir).resolve(strict=True)
        base = knowledge_dir.resolve(strict=True)
    except (OSError, RuntimeError):
        return []
    found: list[KnowledgeFile] = []
    for path in project_files(start, suffixes=None):
        try:
            if not path.resolve(strict=True).is_relative_to(base):
                continue
            found.append(KnowledgeFile(path.relative_to(base).as_posix(), path.stat().st_size))
        except (OSError, RuntimeError, ValueError):  # gone meanwhile
            continue
    return sorted(found, key=lambda f: f.path)


def listing(knowledge_dir: Path, under: Path | None = None) -> str:
    """A markdown list of the knowledge files with their URIs."""
    entries = files(knowledge_dir, under)
    if not entries:
        return "No knowledge files here yet.\n"
    lines = ["# Knowledge files", ""]
    lines += [f"- {f.uri} ({f.size:,} bytes)" for f in entries]
    return "\n".join(lines) + "\n"
