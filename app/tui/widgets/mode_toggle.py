"""The search-mode toggle: vector, keyword or hybrid, each with a function key."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Label

from engine import SearchMode

MODE_KEYS: dict[SearchMode, str] = {
    SearchMode.HYBRID: "F2",
    SearchMode.KEYWORD: "F3",
    SearchMode.VECTOR: "F4",
}
"""The key that selects each mode (bound on the main screen), in display order."""


class ModeToggle(Horizontal):
    """Three segments; the active one is highlighted. Clicking one selects it."""

    mode: reactive[SearchMode] = reactive(SearchMode.HYBRID)
    """The selected mode (set by the screen)."""

    class Changed(Message):
        """The user clicked a mode."""

        def __init__(self, mode: SearchMode) -> None:
            super().__init__()
            self.mode = mode
            """The mode clicked."""

    def compose(self) -> ComposeResult:
        """One label per mode, in :data:`MODE_KEYS` order."""
        for mode, key in MODE_KEYS.items():
            yield Label(f"{mode.value} [dim]{key}[/]", id=f"mode-{mode.value}", classes="segment")

    def watch_mode(self, mode: SearchMode) -> None:
        """Highlight the active segment."""
        for segment in self.query(".segment"):
            segment.set_class(segment.id == f"mode-{mode.value}", "-active")

    def on_click(self, event: events.Click) -> None:
        """Post :class:`Changed` for the segment under the pointer."""
        widget = event.widget
        if widget is not None and widget.id and widget.id.startswith("mode-"):
            self.post_message(self.Changed(SearchMode(widget.id.removeprefix("mode-"))))
