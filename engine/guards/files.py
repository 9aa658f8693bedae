"""Reading and writing project files safely: the one guard every file reader goes through.

A file of the project (a knowledge file, a doc page, a resource served over MCP) is read
only when it

- lies inside its folder once symlinks are resolved (a link out of the folder is refused),
- has no hidden part (``.env``, ``.git/…``) below that folder, unless the caller allows it,
- is a regular file: a FIFO, a device or a socket is refused before it is opened (opening
  a FIFO would block until a writer comes), and the file is opened non-blocking in case
  it was swapped for one after the check,
- is no larger than the caller's cap, checked with ``stat`` before anything is read (a
  2 GB file is never loaded), and again on the bytes read (a file that grew meanwhile).

:func:`project_files` lists the files such a read would accept, without following links
into folders (so a symlink loop cannot make it run forever). :func:`write_project_file` writes a
file inside a folder through a temporary file and :func:`os.replace`, refusing symlinks.
Each refusal is a :class:`FileRefusedError` whose ``reason`` is a short phrase ("binary",
"over 2,000,000 bytes", "a FIFO, not a regular file") and whose message says what to do.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from engine.core.errors import InvalidInputError, NotFoundError

DEFAULT_MAX_BYTES = 2_000_000
"""Largest file read by default (markdown far beyond this is not knowledge)."""

NEW_FILE_MODE = 0o644
"""Permissions of a file :func:`write_project_file` creates (an existing one keeps its own)."""

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class FileRefusedError(InvalidInputError):
    """A project file that is not read (or written): ``reason`` says why in a few words."""

    def __init__(self, name: str, reason: str, advice: str = "") -> None:
        self.detail = reason + (f"; {advice}" if advice else "")
        super().__init__(f"{name}: {self.detail}")
        self.name = name
        self.reason = reason


def hidden_part(rel: str | PurePosixPath) -> str | None:
    """The first hidden component (``.env``, ``.git``) of a relative path, or None."""
    for part in PurePosixPath(rel).parts:
        if part.startswith(".") and part not in (".", ".."):
            return part
    return None


def kind_of(mode: int) -> str:
    """``a FIFO``, ``a socket``… for what is not a regular file; ``""`` for a regular one."""
    return next(
        (name for test, name in _KINDS if test(mode)), "" if stat.S_ISREG(mode) else "special"
    )


def resolve_inside(base: Path, path: Path, *, allow_hidden: bool = False) -> Path:
    """The real location of ``path`` (absolute, or relative to ``base``), which must lie in
    ``base`` once every symlink is resolved.

    Raises:
        FileRefusedError: a hidden part, a symlink loop, or a link leading outside.
        NotFoundError: nothing is there (or ``base`` itself is missing).
    """
    path = path if path.is_absolute() else base / path
    name = _name(base, path)
    if not path.is_relative_to(base):
        raise FileRefusedError(name, f"not inside {base}")
    if not allow_hidden and (hidden := hidden_part(name)) is not None:
        raise FileRefusedError(name, f"hidden ({hidden}); hidden files are never read")
    try:
        real_base = base.resolve(strict=True)
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise NotFoundError(f"{name}: no such file") from None
    except (OSError, RuntimeError) as exc:  # ELOOP: a symlink loop (RuntimeError before 3.13)
        raise FileRefusedError(name, f"cannot be resolved ({_why(exc)})") from None
    if not real.is_relative_to(real_base):
        raise FileRefusedError(name, f"leads outside {base.name}/ (to {real})")
    return real


def read_project_bytes(
    base: Path,
    path: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allow_hidden: bool = False,
    start_only: bool = False,
) -> bytes:
    """The bytes of a regular file inside ``base``, at most ``max_bytes`` of them.
    ``start_only``: only the file's start is wanted (to tell what it is), so a longer
    file is not refused: its first ``max_bytes`` are read.

    Raises:
        FileRefusedError: see the module docstring; also an unreadable file.
        NotFoundError: nothing is there.
    """
    real = resolve_inside(base, path, allow_hidden=allow_hidden)
    name = _name(base, path if path.is_absolute() else base / path)
    cap = None if start_only else max_bytes
    try:
        _check_stat(name, os.stat(real), cap)
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise NotFoundError(f"{name}: no such file") from None
    except OSError as exc:
        raise FileRefusedError(name, f"unreadable ({_why(exc)})") from None
    with os.fdopen(fd, "rb") as fh:
        _check_stat(name, os.fstat(fh.fileno()), cap)  # swapped since the check?
        data = fh.read(max_bytes if start_only else max_bytes + 1)
    if len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)
    return data


def decode(data: bytes, name: str) -> str:
    """UTF-8 text of a file's bytes (a BOM is dropped).

    Raises:
        FileRefusedError: NUL bytes near the start (binary) or invalid UTF-8.
    """
    if b"\x00" in data[:8192]:
        raise FileRefusedError(name, "binary", "it contains NUL bytes; it is skipped")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileRefusedError(
            name, "not UTF-8", f"invalid byte at offset {exc.start}; save it as UTF-8"
        ) from None


def read_project_text(
    base: Path, path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, allow_hidden: bool = False
) -> str:
    """:func:`read_project_bytes` then :func:`decode`."""
    data = read_project_bytes(base, path, max_bytes=max_bytes, allow_hidden=allow_hidden)
    return decode(data, _name(base, path if path.is_absolute() else base / path))


def project_files(base: Path, suffixes: tuple[str, ...] | None = (".md",)) -> Iterator[Path]:
    """Files under ``base`` ending in one of ``suffixes`` that a read could accept: not
    hidden, inside ``base`` once resolved, regular files (by ``stat``, which never blocks).

    Folders are walked without following symlinks, so a link loop ends the walk and every
    folder walked lies inside ``base``: a file that is not a link is inside by its place
    (one ``lstat``); a symlinked file is listed when it resolves inside ``base``. Folder by
    folder, names sorted; ``suffixes`` None lists every file.
    """
    try:
        real_base = base.resolve(strict=True)
    except (OSError, RuntimeError):
        return
    for folder, dirs, names in os.walk(base, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or (suffixes and not name.lower().endswith(suffixes)):
                continue
            path = Path(folder, name)
            try:
                mode = os.lstat(path).st_mode
                if stat.S_ISLNK(mode):
                    real = path.resolve(strict=True)
                    wanted = stat.S_ISREG(os.stat(real).st_mode) and real.is_relative_to(real_base)
                else:
                    wanted = stat.S_ISREG(mode)
            except (OSError, RuntimeError):  # dangling link, loop, vanished
                continue
            if wanted:
                yield path


def write_project_file(base: Path, path: Path, text: str) -> None:
    """Write ``text`` to ``path`` inside ``base`` (a new or existing regular file), through a
    temporary file in the same folder and :func:`os.replace`: a reader (or a crash) sees
    the old or the new file, never half of one.

    Raises:
        FileRefusedError: ``path`` or a folder on the way is a symlink (dangling or not),
            leads outside ``base``, or is not a regular file.
    """
    name = _name(base, path)
    real_base = base.resolve(strict=True)
    parent = path.parent.resolve(strict=True)
    if path.parent.is_symlink() or not parent.is_relative_to(real_base):
        raise FileRefusedError(name, "its folder is a symlink or lies outside; nothing written")
    permissions = NEW_FILE_MODE
    if os.path.lexists(path):
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            raise FileRefusedError(name, "is a symlink; nothing is written through a link")
        if kind := kind_of(mode):
            raise FileRefusedError(name, f"{kind}, not a regular file; nothing written")
        permissions = stat.S_IMODE(mode)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".md", dir=parent)
    try:
        os.chmod(tmp, permissions)  # mkstemp's 0600 would hide the file from other users
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, parent / path.name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _check_stat(name: str, st: os.stat_result, max_bytes: int | None) -> None:
    """Refuse what is not a regular file, or (``max_bytes`` given) is larger than it."""
    if kind := kind_of(st.st_mode):
        raise FileRefusedError(name, f"{kind}, not a regular file", "only regular files are read")
    if max_bytes is not None and st.st_size > max_bytes:
        raise _too_large(name, st.st_size, max_bytes)


def _too_large(name: str, size: int, max_bytes: int) -> FileRefusedError:
    return FileRefusedError(
        name,
        f"over {max_bytes:,} bytes",
        f"it is {size:,} bytes; split it, or raise max_file_bytes in the config",
    )


def _name(base: Path, path: Path) -> str:
    """``path`` relative to ``base`` for messages (as given when it lies elsewhere)."""
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _why(exc: BaseException) -> str:
    if (isinstance(exc, OSError) and exc.errno == errno.ELOOP) or isinstance(exc, RuntimeError):
        return "a symlink loop"
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
