"""The status line: entries, index state, model state and search mode at a glance."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from app.tui.widgets.results_text import entries as plural_entries
from app.words import plural
from engine import SearchMode

MODEL_LABELS = {
    "loading": "[$warning]model loading…[/] keyword results until ready",
    "ready": "[$success]model ready[/]: hybrid available",
    "failed": "[$error]model unavailable[/]: keyword only",
}
"""How each model state reads."""


class StatusLine(Static):
    """One line at the bottom of the main screen; the screen sets its attributes."""

    entries: reactive[int | None] = reactive(None)
    """Entries in the memory (None until counted)."""
    index_state: reactive[str] = reactive("ready")
    """"ready", "indexing 3/40", "index error", …"""
    model_state: reactive[str] = reactive("loading")
    """One of the keys of :data:`MODEL_LABELS`."""
    mode: reactive[SearchMode] = reactive(SearchMode.HYBRID)
    """The mode the user chose."""
    notes: reactive[int] = reactive(0)
    """Personal notes (session and manual): not shared until promoted."""
    outdated: reactive[int] = reactive(0)
    """Files new, changed or removed since the last index run (``Indexer.freshness``)."""

    def render(self) -> Content:
        """Assemble the line from the current attributes."""
        entries = "counting…" if self.entries is None else plural_entries(self.entries)
        model = MODEL_LABELS.get(self.model_state, self.model_state)
        notes = " · [$warning]$notes not shared[/] (F7)" if self.notes else ""
        indexing = self.index_state.startswith("indexing")
        index = "$index" if indexing else "index $index"  # "indexing 3/40", "index ready"
        if self.outdated and not indexing:  # changed since the last index run
            behind = "[$warning]$outdated changed[/] (ctrl+r)"  # like "notes … (F7)"
            index = f"index: {behind}" if self.index_state == "ready" else f"{index} · {behind}"
        return Content.from_markup(
            f"$entries{notes} │ {index} │ mode [b]$mode[/] │ {model}",
            entries=entries,
            notes=plural(self.notes, "note"),
            index=self.index_state,
            outdated=plural(self.outdated, "file"),
            mode=self.mode.value,
        )
