"""Reads of the LanceDB table that fail with a clear message, or succeed on a retry.

A read can fail because a file of the version it began with is gone: another process
compacted the table and removed old versions (none are kept locally, a few minutes' worth
on object storage; see ``maintenance.KEEP_VERSIONS_FOR``). It reads again, once, from the
latest version. A remote store that cannot be reached fails with a message that says so
(:func:`engine.storage.remote.unreachable`) and is not retried here: the object store
client has retried already.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from engine.core.errors import StorageError
from engine.storage.lance_rows import unreadable
from engine.storage.remote import is_unreachable, store_error


class _Store(Protocol):
    path: Path
    where: str
    _table: Any


_S = TypeVar("_S", bound=_Store)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def reads(
    method: Callable[Concatenate[_S, _P], _R],
) -> Callable[Concatenate[_S, _P], _R]:
    """Turn LanceDB's errors on a read (missing data files, a damaged manifest) into a
    :class:`StorageError` that says what to run, instead of a traceback."""

    def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except StorageError:
            raise
        except (RuntimeError, OSError, ValueError) as exc:
            if is_unreachable(exc) or not _vanished(exc):
                raise store_error(self.where, exc, unreadable(self.where, exc)) from exc
        # Another process compacted the table and removed the version this read had
        # begun with (old versions are not kept; see maintenance.KEEP_VERSIONS_FOR):
        # read again from the latest version, once.
        try:
            if self._table is not None:
                self._table.checkout_latest()
            return method(self, *args, **kwargs)
        except StorageError:
            raise
        except (RuntimeError, OSError, ValueError) as exc:
            raise store_error(self.where, exc, unreadable(self.where, exc)) from exc

    functools.update_wrapper(wrapper, method)
    return wrapper


def _vanished(exc: BaseException) -> bool:
    """Whether a read failed because a file of the version it had opened is gone."""
    text = str(exc).lower()
    return "not found" in text or "no such file" in text
