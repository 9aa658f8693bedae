"""What a failed LanceDB call means, in plain words, and the one line a damaged store is
reported by.

LanceDB's errors come from Rust and read ``lance error: LanceError(IO): Generic
LocalFileSystem error: failed to fill whole buffer, /rustc/…/function.rs:250:5``: the
kind of error, the I/O library's phrase and the source line that raised it. A user
needs what happened to which file and what to run, so :func:`plain` keeps the message
and drops the wrapping and the source locations, and turns the I/O library's phrases for
a file that ends early or is gone into words; :func:`unreadable` is the line every face
prints for a store it cannot read, the same from every command.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol

from engine.core.errors import StorageError
from engine.storage.remote import store_error

REBUILD_STORE = "memory-tui doctor --rebuild-store"
"""What rebuilds a local store from the keyword index (every entry but its vector)."""

_LOCATION = re.compile(r",?\s*(?:at\s+)?/\S+\.rs:\d+:\d+")
"""A Rust source location (``/rustc/<hash>/library/…/x.rs:250:5``, ``/root/.cargo/…``)."""
_WRAPPER = re.compile(r"^(?:[\w/ ]{0,40}?error(?:\(\w+\))?:\s*)+", re.IGNORECASE)
"""The kinds LanceDB and its object store prefix a message with, one inside the other
(``lance error:``, ``LanceError(IO):``, ``Generic LocalFileSystem error:``, ``Wrapped
error:``)."""
_CUT_SHORT = re.compile(
    r"failed to fill whole buffer|unexpected end of file|early eof|file size is too small",
    re.IGNORECASE,
)
"""A read past the end of a file: Rust's ``UnexpectedEof`` (its two phrasings, and
object_store's) and Lance's check that a file holds its footer."""
_MISSING = re.compile(r"^(?:not found|no such file)[^:]*:\s*(?P<path>\S+)", re.IGNORECASE)
_CORRUPT = re.compile(r"corrupt|invalid (?:data|file|manifest)|not a lance file", re.IGNORECASE)
_PANICS = frozenset({"RustPanic", "PanicException"})
"""The exceptions a panic in LanceDB's Rust code arrives as (pyo3's): its decoder reading
bytes that are not what the file's metadata says, i.e. a file overwritten."""


def first_line(exc: BaseException) -> str:
    """The first line of an error's text (LanceDB's run to dozens), at most 300 characters."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def plain(exc: BaseException, store: Path | str | None = None) -> str:
    """What went wrong, in words: a file cut short or missing (named relative to the
    ``store`` folder when it lies inside it), else the error's own first line without
    LanceDB's wrapping and Rust source locations."""
    text = _WRAPPER.sub("", _LOCATION.sub("", first_line(exc))).strip(" ,;")
    if type(exc).__name__ in _PANICS:
        return "one of its files holds bytes that cannot be decoded"
    if _CUT_SHORT.search(text):
        return "one of its files is cut short"
    missing = _MISSING.match(text)
    if missing:
        return f"{_inside(missing['path'], store)} is missing"
    return text or type(exc).__name__


def is_damage(exc: BaseException) -> bool:
    """Whether a failed call found the store's files damaged (cut short, overwritten,
    missing, not in Lance's format), as opposed to busy, refused or out of reach."""
    text = _WRAPPER.sub("", first_line(exc)).strip()
    if type(exc).__name__ in _PANICS:
        return True
    return bool(_CUT_SHORT.search(text) or _MISSING.match(text) or _CORRUPT.search(text))


def unreadable(where: Path | str, exc: BaseException, *, local: bool = True) -> str:
    """The line for a store that cannot be read: what is wrong, in words, and what to run
    (a local store is rebuilt from the keyword index; a shared one is looked at first)."""
    what = plain(exc, where if local else None)
    if local:
        return (
            f"the vector store at {where} is damaged ({what}); `{REBUILD_STORE}` "
            "rebuilds it from the keyword index"
        )
    return (
        f"the vector store at {where} cannot be read ({what}); run `memory-tui doctor` "
        "to see what can be recovered"
    )


class _Store(Protocol):
    where: str
    remote: Any
    failed: bool


def read_failed(store: _Store, exc: BaseException) -> StorageError:
    """The error of a failed read of ``store``: out of reach, or :func:`unreadable`. The
    store remembers that it failed: a process says a failure once, and does not try a
    bookkeeping write (reference counts, on closing) that would fail and say it again."""
    store.failed = True
    return store_error(store.where, exc, unreadable(store.where, exc, local=store.remote is None))


def _inside(path: str, store: Path | str | None) -> str:
    """``path`` (as LanceDB writes it, without its leading ``/``) relative to the store's
    folder when it lies inside it."""
    if store is None:
        return path
    folder = Path(store).resolve().as_posix().lstrip("/")
    return path[len(folder) + 1 :] if path.startswith(folder + "/") else path
