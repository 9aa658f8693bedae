"""Writes first: searches step aside while this process writes an add.

In a server answering many sessions at once (``serve-mcp --http``), every request runs in
a thread of one Python process, and the threads take turns on one interpreter lock. An
add releases that lock at each SQLite statement, embedding and store call, and each time
waits for its turn behind every search thread that is ready to run: with a dozen searches
in flight, an add of 12 ms alone took 290 ms (bench/RESULTS.md, issue 38 "writes first").
Adds are few (an agent writes one note for every handful of searches) and short, and an
agent waits for its add's answer before it goes on, so they go first: while one is being
written (:meth:`WritesFirst.writing`), a search reaching one of its steps
(:meth:`WritesFirst.step_aside`, called between the parts of a search) waits, without
holding the interpreter lock, until no add is in progress. It waits at most
:data:`MAX_WAIT` at each step, so a steady stream of adds slows searches down but never
stops them. A process that adds alone, or searches alone, never waits.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

MAX_WAIT = 0.1
"""Seconds a search waits at one step for the adds in progress, at most."""


class WritesFirst:
    """Counts this process's adds in progress; searches wait for them at their steps."""

    def __init__(self, max_wait: float = MAX_WAIT) -> None:
        self.max_wait = max_wait
        self._writing = 0
        self._done = threading.Condition()

    @property
    def writing_now(self) -> int:
        """Adds in progress."""
        return self._writing

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Mark one add in progress for the block's length."""
        with self._done:
            self._writing += 1
        try:
            yield
        finally:
            with self._done:
                self._writing -= 1
                if not self._writing:
                    self._done.notify_all()

    def step_aside(self) -> float:
        """Wait while an add is in progress, :attr:`max_wait` seconds at most; returns the
        seconds waited (0.0 at once when none is: the common case reads one integer)."""
        if not self._writing:
            return 0.0
        started = time.monotonic()
        deadline = started + self.max_wait
        with self._done:
            while self._writing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._done.wait(left)
        return time.monotonic() - started
