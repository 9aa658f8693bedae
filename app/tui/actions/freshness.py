"""Freshness on the main screen: the watcher worker, the stale filter, refreshing entries.

A mixin of :class:`~app.tui.screens.main.MainScreen`. F5 runs the knowledge watcher
(:class:`engine.services.watch.KnowledgeWatcher`) in a thread worker, so files edited in another
editor show up in the open app; each batch posts :class:`~app.tui.messages.KnowledgeChanged`.
F6 shows only stale entries (those whose cited code changed); ``f`` on a result refreshes it:
a note's citations are re-recorded as reviewed, a discovery entry is re-discovered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import work

from app.tui import messages as msg
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.status_line import StatusLine
from engine import Source

if TYPE_CHECKING:
    from textual.screen import Screen

    from app.tui.messages import SearchState
    from engine import Memory, WatchBatch

    _Base = Screen[None]
else:
    _Base = object


def batch_summary(batch: WatchBatch) -> str:
    """One line per changed file, for a toast."""
    lines = [f"{change.kind} {change.path}" for change in batch.changes]
    if batch.error:
        lines.append(f"re-indexing failed: {batch.error}")
    elif batch.report is not None:
        report = batch.report
        lines.append(
            f"entries {report.entries_created} new, {report.entries_deleted} removed · "
            f"{batch.seconds:.2f} s"
        )
    return "\n".join(lines)


class FreshnessActions(_Base):
    """Watch the knowledge folder, filter stale entries, refresh them."""

    memory: Memory
    state: SearchState
    _watch_stop: threading.Event | None = None
    check_index: Callable[[], object]
    """Provided by the maintenance actions (annotated only: a stub would shadow it)."""

    def refresh_results(self, *, select: str | None = None, refocus: bool = False) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    def update_state(self, *, debounce: bool = False, **changes: Any) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    # --- watch ---------------------------------------------------------------------------

    @property
    def watching(self) -> bool:
        """Whether the watcher worker is running."""
        return self._watch_stop is not None

    def action_toggle_watch(self) -> None:
        """Start or stop watching the knowledge folder."""
        if self._watch_stop is not None:
            self.stop_watching()
            self.notify("Stopped watching the knowledge folder.", title="Watch")
            return
        if not self.memory.paths.knowledge_dir.is_dir():
            self.notify("There is no knowledge folder to watch.", severity="warning")
            return
        self._watch_stop = threading.Event()
        self.query_one(StatusLine).index_state = "watching"
        self.watch_knowledge(self._watch_stop)
        self.notify("Edits to knowledge files are indexed as you save them.", title="Watching")

    def stop_watching(self) -> None:
        """Ask the watcher worker to end (it does within a fraction of a second)."""
        if self._watch_stop is not None:
            self._watch_stop.set()
            self._watch_stop = None
            self.query_one(StatusLine).index_state = "ready"

    @work(thread=True, group="watch", exit_on_error=False, description="watch knowledge files")
    def watch_knowledge(self, stop: threading.Event) -> None:
        """Run the watcher until ``stop`` is set; posts a message per batch."""
        from engine import KnowledgeWatcher

        watcher = KnowledgeWatcher(self.memory)
        watcher.run(
            lambda batch: self.post_message(
                msg.KnowledgeChanged(batch_summary(batch), failed=bool(batch.error))
            ),
            stop=stop,
        )

    def on_knowledge_changed(self, message: msg.KnowledgeChanged) -> None:
        """Say what changed and show the current results."""
        severity = "warning" if message.failed else "information"
        self.notify(message.summary, title="Knowledge re-indexed", severity=severity)
        self.refresh_results()
        self.check_index()

    def on_unmount(self) -> None:
        """Stop the watcher with the screen."""
        if self._watch_stop is not None:
            self._watch_stop.set()

    # --- stale entries -------------------------------------------------------------------

    def action_toggle_stale(self) -> None:
        """Show only the stale entries (or everything again)."""
        self.update_state(stale_only=not self.state.stale_only)

    def action_refresh_entry(self) -> None:
        """Refresh the selected entry if it is stale."""
        result = self.query_one(ResultsTable).selected
        if result is None:
            return
        if not result.stale:
            self.notify("This entry is not stale.", title="Refresh")
            return
        self.refresh_entry(result.entry.id, result.entry.source)

    @work(thread=True, group="refresh", exit_on_error=False, description="refresh the entry")
    def refresh_entry(self, entry_id: str, source: Source) -> None:
        """Re-cite a note as reviewed, or re-run discovery for a discovery entry."""
        if source is Source.DISCOVERY:
            from engine import run_discovery

            report = run_discovery(self.memory, incremental=True)
            text = (
                f"discovery: {len(report.changed_files)} files changed · entries "
                f"{report.created} new, {report.deleted} replaced"
            )
        else:
            entry = self.memory.get(entry_id)
            if entry is not None:
                self.memory.mark_reviewed([entry])
            text = "marked as reviewed: it now cites the code as it is"
        self.post_message(msg.EntryRefreshed(entry_id, text))

    def on_entry_refreshed(self, message: msg.EntryRefreshed) -> None:
        """Confirm and show the results again."""
        self.notify(message.summary, title="Refreshed")
        self.refresh_results(select=message.entry_id)
