"""A progress bar for long CLI commands, shown only on a terminal (stderr)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int, str], None]]:
    """Yield ``update(done, total, current)`` that drives a Rich progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[dim]{task.fields[current]}"),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None, current="")

        def update(done: int, total: int, current: str) -> None:
            bar.update(task, completed=done, total=total, current=current[-50:])

        yield update
