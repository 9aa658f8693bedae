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
MODEL_SHORT = {
    "loading": "[$warning]model loading…[/]",
    "ready": "[$success]model ready[/]",
    "failed": "[$error]keyword only[/]",
}
"""The same in fewer words, for a narrow terminal."""


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
        """Assemble the line from the current attributes: in full if it fits, else
        shorter (the model's state in two words, then without the mode, which the toggle
        shows too, then without the index while it is ready, then without the model's
        state, then the entries and notes alone)."""
        entries = "counting…" if self.entries is None else plural_entries(self.entries)
        notes = " · [$warning]$notes not shared[/] (F7)" if self.notes else ""
        indexing = self.index_state.startswith("indexing")
        index = "$index" if indexing else "index $index"  # "indexing 3/40", "index ready"
        quiet = self.index_state == "ready" and not self.outdated
        if self.outdated and not indexing:  # changed since the last index run
            behind = "[$warning]$outdated changed[/] (ctrl+r)"  # like "notes … (F7)"
            index = f"index: {behind}" if self.index_state == "ready" else f"{index} · {behind}"
        model = MODEL_LABELS.get(self.model_state, self.model_state)
        short = MODEL_SHORT.get(self.model_state, self.model_state)
        mode = " │ mode [b]$mode[/]"
        variants = [
            f"$entries{notes} │ {index}{mode} │ {model}",
            f"$entries{notes} │ {index}{mode} │ {short}",
            f"$entries{notes} │ {index} │ {short}",
            f"$entries{notes}" + ("" if quiet else f" │ {index}") + f" │ {short}",
            f"$entries{notes}" + ("" if quiet else f" │ {index}"),
            f"$entries{notes}",
        ]
        room = self.content_region.width or self.size.width
        for markup in variants:
            line = Content.from_markup(
                markup,
                entries=entries,
                notes=plural(self.notes, "note"),
                index=self.index_state,
                outdated=plural(self.outdated, "file"),
                mode=self.mode.value,
            )
            if not room or line.cell_length <= room:
                break
        return line
