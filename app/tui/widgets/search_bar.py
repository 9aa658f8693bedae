"""The search input: every edit is a new query; Enter moves to the results.

(↓ is bound on the main screen, which moves the focus at once: a second ↓ typed right
after it must already reach the results.)
"""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input


class SearchBar(Input):
    """A single-line query input that posts :class:`QueryChanged` on every edit."""

    class QueryChanged(Message):
        """The query text changed (the screen debounces and searches)."""

        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query
            """The new query text."""

    class LeaveRequested(Message):
        """The user wants to move from the query to the results (Enter or ↓)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="Search the memory… (type to search, ↓ for results, F1 for help)",
            id=id,
        )

    def on_input_changed(self, event: Input.Changed) -> None:
        """Re-post the edit as :class:`QueryChanged`."""
        event.stop()
        self.post_message(self.QueryChanged(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the results."""
        event.stop()
        self.post_message(self.LeaveRequested())
