"""The re-indexing bar: shown while knowledge files are being indexed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class IndexingBar(Horizontal):
    """A label and a progress bar; hidden (by the stylesheet) unless ``-active``."""

    def compose(self) -> ComposeResult:
        """The label and the bar."""
        yield Label("Indexing", id="index-label")
        yield ProgressBar(id="index-bar", show_eta=False)

    def start(self) -> None:
        """Show the bar with an unknown total."""
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.query_one("#index-label", Label).update("Indexing…")
        self.add_class("-active")

    def advance(self, done: int, total: int, path: str) -> None:
        """Show ``done`` of ``total`` files, and the file being read."""
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)
        name = path.rsplit("/", 1)[-1] if path else "finishing"
        self.query_one("#index-label", Label).update(f"Indexing {name}")

    def stop(self) -> None:
        """Hide the bar."""
        self.remove_class("-active")
