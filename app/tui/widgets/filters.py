"""The filter sidebar: the category and source lists, their counts, and whether it shows.

It owns what it displays: the counts (a thread worker asks the engine and posts
:class:`FilterSidebar.CountsReady`, which it shows and lets bubble up for the status
line), the value marked active in each list, and the user's choice to show or hide it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.worker import Worker

from app.tui.failures import failure, report_failure
from app.tui.widgets.filter_list import FilterList
from engine import Category, Source

if TYPE_CHECKING:
    from engine import Memory

PERSONAL = (Source.SESSION, Source.MANUAL)
"""Sources of the personal notes, which nobody else sees until promoted."""


class FilterSidebar(Vertical):
    """The two filter lists; shown on wide terminals and hidden on narrow ones until the
    user chooses (the screen's ``-narrow`` class and this widget's ``-shown``/``-hidden``)."""

    class CountsReady(Message):
        """Entry counts for the filter lists and the status line."""

        def __init__(
            self, total: int, by_category: dict[str, int], by_source: dict[str, int]
        ) -> None:
            super().__init__()
            self.total = total
            """All entries in the memory."""
            self.by_category = by_category
            """Entries per category (restricted to the selected source, if any)."""
            self.by_source = by_source
            """Entries per source."""

        @property
        def notes(self) -> int:
            """Personal notes (session and manual) among the entries."""
            return sum(self.by_source.get(s.value, 0) for s in PERSONAL)

    def __init__(self, memory: Memory, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.memory = memory
        """The engine's front door (counts come from it)."""
        self.by_source: dict[str, int] = {}
        """Entries per source, as last counted."""
        self.choice: bool | None = None
        """Shown (True) or hidden (False) as the user last chose with ctrl+g; None: as
        the width has it."""

    def compose(self) -> ComposeResult:
        """The category list above the source list."""
        yield FilterList([c.value for c in Category], title="Category", id="categories")
        yield FilterList([s.value for s in Source], title="Source", id="sources")

    @property
    def source(self) -> Source | None:
        """The source filter applied (None: all)."""
        active = self.query_one("#sources", FilterList).active
        return Source(active) if active else None

    # --- counts --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="counts", exit_on_error=False, description="count")
    def refresh_counts(self, source: Source | None = None) -> None:
        """Count entries per category (within ``source``) and per source; posts
        :class:`CountsReady`."""
        counts = self.memory.counts(source=source)
        self.post_message(
            self.CountsReady(counts.total, dict(counts.by_category), dict(counts.by_source))
        )

    def on_filter_sidebar_counts_ready(self, message: CountsReady) -> None:
        """Show the counts (the message goes on up to the screen)."""
        self.by_source = message.by_source
        self.query_one("#categories", FilterList).show_counts(
            message.by_category, sum(message.by_category.values())
        )
        self.query_one("#sources", FilterList).show_counts(message.by_source, message.total)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Say why the entries could not be counted."""
        text = failure(event)
        if text is not None:
            report_failure(self, event.worker, text)

    @on(FilterList.Changed)
    def _mark_chosen(self, message: FilterList.Changed) -> None:
        # Marked here; the screen applies the filter to its search state.
        message.filter_list.set_active(message.value)
        if message.filter_list.id == "sources":
            self.refresh_counts(self.source)

    def set_source(self, source: Source | None) -> None:
        """Mark ``source`` as the applied source filter and count within it."""
        self.query_one("#sources", FilterList).set_active(source.value if source else None)
        self.refresh_counts(source)

    def next_notes_source(self) -> Source | None:
        """The next step of the notes review (F7): agents' notes, then yours, then all;
        a source without notes is skipped (the status line counts both), so the first
        press shows notes whenever the status line says there are some."""
        steps = [s for s in PERSONAL if self.by_source.get(s.value, 0)]
        current = self.source
        if current in PERSONAL:  # the review goes on from there
            steps = [s for s in steps if PERSONAL.index(s) > PERSONAL.index(current)]
        return steps[0] if steps else None

    # --- shown or hidden -----------------------------------------------------------------

    def visible(self, *, narrow: bool) -> bool:
        """Whether the sidebar is on screen at a terminal ``narrow`` or not."""
        return self.choice if self.choice is not None else not narrow

    def choose(self, shown: bool) -> None:
        """Show or hide the sidebar, whatever the width: an absolute choice, not a flip of
        the width's default, so that a resize across the breakpoint keeps it."""
        self.choice = shown
        self.set_class(shown, "-shown")
        self.set_class(not shown, "-hidden")

    def focus_categories(self) -> None:
        """Move to the category list once the sidebar is drawn."""
        self.call_after_refresh(self.query_one("#categories", FilterList).focus)
