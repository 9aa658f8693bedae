"""Records of a project's running processes: one JSON file per process, named by its pid.

A long-lived process (``serve-mcp``: its HTTP address in ``http-servers/``, the prompt
hook's endpoint in ``hook-endpoints/``) writes its record when it starts and removes it
when it stops; readers keep the records whose process is alive and remove the others (a
killed process's). One rule for "alive" serves both (:func:`alive`).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

Record = TypeVar("Record")

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists. Another user's process (the system refuses to
    signal it) exists too: its record is not this process's to remove."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, and is another user's
        return True
    except OSError:
        return False
    return True


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by this user only (0600), atomically, never
    through a symlink; makes the folder.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def read_private(path: Path) -> tuple[float, dict[str, Any]] | None:
    """The record at ``path`` if it is a plain file of this user that nobody else can
    read or write (mode 0600), with its modification time; None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077:
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
        with os.fdopen(fd, "rb", closefd=False) as stream:
            raw = stream.read(4096)
        data = json.loads(raw)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    return (info.st_mtime, data) if isinstance(data, dict) else None


def live(
    folder: Path, read: Callable[[Path], Record | None], pid: Callable[[Record], int]
) -> list[Record]:
    """The records in ``folder`` (``*.json``, by name) that ``read`` accepts and whose
    process is :func:`alive`; the record of a process that is gone is removed. A record
    ``read`` refuses (None: unreadable, malformed, another project's) is left alone."""
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    found = []
    for path in paths:
        record = read(path)
        if record is None:
            continue
        if not alive(pid(record)):
            with contextlib.suppress(OSError):
                path.unlink()  # a killed process's record
            continue
        found.append(record)
    return found
