"""What a failed worker tells the user: one wording for every widget that runs one.

A worker's ``StateChanged`` message goes to the widget that started it and does not
bubble, so each widget hears of its own workers; each passes a failure to
:func:`report_failure` (a toast naming what could not be done) unless it shows the
failure in place, as the results pane does for a search.
"""

from __future__ import annotations

from textual.dom import DOMNode
from textual.worker import Worker, WorkerState

from engine import EngineError


def describe_error(error: BaseException) -> str:
    """A one-line message for an error raised in a worker."""
    if isinstance(error, EngineError):
        return error.message
    return f"{type(error).__name__}: {error}"


def failure(event: Worker.StateChanged) -> str | None:
    """The one-line message of a worker that just failed; None for any other change."""
    if event.state is not WorkerState.ERROR or event.worker.error is None:
        return None
    return describe_error(event.worker.error)


def report_failure(node: DOMNode, worker: Worker[object], text: str) -> None:
    """Toast ``text`` as the reason ``worker`` could not do what its description says."""
    node.notify(text, title=f"Could not {worker.description}", severity="error")
