"""Progress for long CLI steps, shown only on a terminal (stderr) and silent in pipes.

:func:`progress_bar` drives a bar with a count and the time left (indexing);
:func:`embedding_progress` the same for embedding, or plain lines off a terminal;
:func:`working` shows a spinner with the elapsed time for a step whose size is unknown
(codebase analysis, compaction). Both yield a no-op off a
terminal (plain lines for embedding), so callers never branch on where stderr goes.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

Update = Callable[[int, int, str], None]
_active: list[Any] = []
"""The progress display now shown, if any: Rich allows one at a time, so a step that
starts inside another (a spinner inside indexing) adds a line to it."""


def on_terminal() -> bool:
    """Whether stderr is a terminal (progress is shown only there)."""
    return sys.stderr.isatty()


def _ignore(done: int, total: int, current: str) -> None:
    """The progress callback used off a terminal."""


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Update]:
    """Yield ``update(done, total, current)`` that drives a Rich progress bar on stderr."""
    if not on_terminal():
        yield _ignore
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        _count_column(),
        TextColumn("[dim]{task.fields[current]}"),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None, current="")

        def update(done: int, total: int, current: str) -> None:
            bar.update(task, completed=done, total=total, current=current[-50:])

        _active.append(bar)
        try:
            yield update
        finally:
            _active.remove(bar)


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "-:--"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def _count_column() -> Any:
    """Done/total and the time left; for a step of unknown size (a spinner line added to
    the bar), the time elapsed instead."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class CountColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            if task.total is None:
                return Text(f"{_clock(task.elapsed)} elapsed", style="dim")
            done = f"{int(task.completed)}/{int(task.total)}"
            return Text(f"{done} ETA {_clock(task.time_remaining)}")

    return CountColumn()


PLAIN_INTERVAL = 10.0
"""Seconds between two plain progress lines (off a terminal)."""


@contextlib.contextmanager
def embedding_progress(label: str = "Embedding") -> Iterator[Update]:
    """Progress of the embedding phase: the bar with its ETA on a terminal; elsewhere (a
    pipe, a CI log) a plain line every :data:`PLAIN_INTERVAL` seconds with the count, the
    rate and the time left, so a long first run says how it is doing."""
    if on_terminal():
        with progress_bar(label) as update:
            yield update
        return
    started = last = time.monotonic()

    def update(done: int, total: int, current: str) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < PLAIN_INTERVAL or not done:
            return
        last = now
        rate = done / (now - started)
        left = (total - done) / rate if rate else None
        print(
            f"memory-tui: {label.lower()} {done}/{total} chunks "
            f"({rate:.0f}/s, about {_clock(left)} left)",
            file=sys.stderr,
            flush=True,
        )

    yield update


@contextlib.contextmanager
def working(label: str) -> Iterator[None]:
    """A spinner with the elapsed time while the block runs (terminal only)."""
    if not on_terminal():
        yield
        return
    if _active:
        task = _active[-1].add_task(label, total=None, current="")
        try:
            yield
        finally:
            _active[-1].remove_task(task)
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        bar.add_task(label, total=None)
        _active.append(bar)
        try:
            yield
        finally:
            _active.remove(bar)


def pending_line(pending: int) -> str:
    """What to say of entries that wait for their vector (keyword search finds them)."""
    return (
        f"vectors: {pending} entries wait for theirs (keyword search finds them already); "
        "`memory-tui embed` computes them, as do serve-mcp, the TUI and watch in the "
        "background\n"
    )
