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
from engine.storage.lance_errors import read_failed
from engine.storage.remote import is_unreachable


class _Store(Protocol):
    path: Path
    where: str
    remote: Any
    failed: bool
    _table: Any

    def table(self) -> Any: ...


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
                raise read_failed(self, exc) from exc
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
            raise read_failed(self, exc) from exc

    functools.update_wrapper(wrapper, method)
    return wrapper


def arrow_of(query: Any) -> Any:
    """A LanceDB query's rows as an arrow table, its batches read whole: ``to_arrow``
    would also look at the schema twice for blob columns, which the table has none of
    (two of the six calls into LanceDB's event loop a query makes: 0.4 ms of a 4 ms
    query of 550 rows, more on a loaded machine, where each call waits for a thread)."""
    return query.to_batches().read_all()


def _vanished(exc: BaseException) -> bool:
    """Whether a read failed because a file of the version it had opened is gone."""
    text = str(exc).lower()
    return "not found" in text or "no such file" in text


def read_everything(store: _Store) -> int:
    """Read every column of every row once, batch by batch, keeping nothing: the check
    that no file of the store is damaged, which a count or the version (read from the
    manifest alone) never opens. Returns the number of rows read.

    Raises:
        StorageError: a file is cut short, missing or unreadable (:func:`read_failed`).
    """
    table = store.table()
    if table is None:
        return 0
    rows = 0
    try:
        for batch in table.search().limit(None).to_batches():
            rows += batch.num_rows
    except Exception as exc:  # any failure, a panic in LanceDB's decoder included
        raise read_failed(store, exc) from exc
    return rows
