"""A cross-process write lock, so several processes can share one memory safely.

Every change to the store and its keyword mirror happens while holding an exclusive
``flock`` on ``.claude/memory/write.lock``. The kernel releases it when a process
dies, so a crashed writer never leaves the memory locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from engine.core.errors import LockTimeoutError, StorageError


class WriteLock:
    """Exclusive lock shared by the threads of this process and by other processes.

    Re-entrant within one thread, so a writer may call helpers that lock again.
    """

    def __init__(self, path: Path, timeout: float = 120.0) -> None:
        self.path = path
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    @contextlib.contextmanager
    def hold(self, *, timeout: float | None = None) -> Iterator[None]:
        """Hold the lock for the duration of the ``with`` block.

        Raises:
            LockTimeoutError: another process kept it longer than ``timeout`` seconds.
        """
        limit = self.timeout if timeout is None else timeout
        if not self._thread_lock.acquire(timeout=limit):
            raise LockTimeoutError(f"memory is busy: could not lock {self.path} in {limit:g} s")
        try:
            if self._depth == 0:
                self._acquire_file(limit)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._release_file()
        finally:
            self._thread_lock.release()

    def try_hold(self) -> bool:
        """Whether the lock is free right now (takes and releases it at once)."""
        try:
            with self.hold(timeout=0):
                return True
        except LockTimeoutError:
            return False

    def _acquire_file(self, limit: float) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StorageError(
                f"cannot write {self.path} ({exc.strerror}): the memory cannot be changed "
                f"until {self.path.parent} is writable (check its permissions, or free disk "
                "space); reading still works"
            ) from exc
        deadline = time.monotonic() + limit
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeoutError(
                        f"memory is busy: another process held {self.path} for {limit:g} s"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        self._fd = fd

    def _release_file(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
