"""Re-indexing and export on the main screen.

A mixin of :class:`~app.tui.screens.main.MainScreen`. Export uses the same formatters as
the CLI (:func:`engine.output.export.render`); the export dialog only collects the options.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import TYPE_CHECKING

from textual import work
from textual.widgets import Label
from textual.worker import get_current_worker

from app.tui import messages as msg
from app.tui.widgets.indexing_bar import IndexingBar
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.status_line import StatusLine
from app.words import plural
from engine import SearchResult

EXPORTS = "exports"
"""Folder of the memory directory that exports are written to unless told otherwise."""

if TYPE_CHECKING:
    from textual.screen import Screen

    from app.tui.messages import SearchState
    from app.tui.screens.export import ExportRequest
    from engine import Memory

    _Base = Screen[None]
else:
    _Base = object

PROGRESS_INTERVAL = 0.05
"""Least time between two progress messages (a fast re-index has hundreds of files)."""
CHECK_INTERVAL = 20.0
"""Seconds between two looks at whether files changed since the last index (a dry run:
about 0.25 s for 456 files, in a thread), for edits made while the app is open."""


class MaintenanceActions(_Base):
    """Re-index with a progress bar, and export the current results."""

    memory: Memory
    state: SearchState

    def refresh_results(self, *, select: str | None = None, refocus: bool = False) -> None:
        """Provided by the main screen."""
        raise NotImplementedError

    # --- is the index behind its files? -------------------------------------------------

    @property
    def _indexing(self) -> bool:
        return any(w.group == "index" and w.is_running for w in self.workers)

    def check_index_now_and_then(self) -> None:
        """The timer's check: skipped while a re-index runs (it checks when it ends)."""
        if not self._indexing:
            self.check_index()

    @work(thread=True, group="check", exclusive=True, exit_on_error=False,
          description="check the index")  # fmt: skip
    def check_index(self) -> None:
        """Compare the files the index reads with the last index run; the status line
        says how many changed since (what ``memory-tui status`` says)."""
        from engine import Indexer

        outdated = Indexer(self.memory).freshness().outdated
        if not get_current_worker().is_cancelled:  # a newer check is on its way
            self.post_message(msg.IndexChecked(outdated))

    def on_index_checked(self, message: msg.IndexChecked) -> None:
        """Show the count, unless a re-index started since (it checks again when done)."""
        if not self._indexing:
            self.query_one(StatusLine).outdated = message.outdated

    # --- re-index ------------------------------------------------------------------------

    def action_reindex(self) -> None:
        """Index what changed: the knowledge folder and the project's docs."""
        if self._indexing:
            self.notify("Re-indexing is already running.", severity="warning")
            return
        self.query_one(IndexingBar).start()
        self.query_one(StatusLine).index_state = "indexing…"
        self.reindex()

    @work(thread=True, group="index", exit_on_error=False, description="re-index")
    def reindex(self, only: Collection[str] | None = None) -> None:
        """Run the indexer, posting progress; ends with :class:`~app.tui.messages.IndexFinished`."""
        from engine import Indexer

        last = 0.0

        def progress(done: int, total: int, path: str) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_INTERVAL or done == total:
                last = now
                self.post_message(msg.IndexProgress(done, total, path))

        # Vectors are computed by the app's background embedder, woken here.
        report = Indexer(self.memory).run(progress=progress, only=only, embed=False)
        wake = getattr(getattr(self.app, "embedding", None), "wake", None)
        if callable(wake):
            wake()
        summary = (
            f"{report.files_total} files: {report.files_processed} changed, "
            f"{report.files_removed} removed · entries {report.entries_created} new, "
            f"{report.entries_deleted} removed · {report.seconds:.1f} s"
        )
        errors = tuple(f"{path}: {problem}" for path, problem in report.errors)
        self.post_message(msg.IndexFinished(summary, errors))

    def on_index_progress(self, message: msg.IndexProgress) -> None:
        """Move the bar."""
        self.query_one(IndexingBar).advance(message.done, message.total, message.path)
        self.query_one(StatusLine).index_state = f"indexing {message.done}/{message.total}"

    def on_index_finished(self, message: msg.IndexFinished) -> None:
        """Hide the bar, report, and search again."""
        self.query_one(IndexingBar).stop()
        status = self.query_one(StatusLine)
        status.index_state = f"{len(message.errors)} errors" if message.errors else "ready"
        severity = "warning" if message.errors else "information"
        details = "\n".join([message.summary, *message.errors[:3]])
        self.notify(details, title="Re-indexed", severity=severity)
        self.refresh_results()
        self.check_index()

    def indexing_failed(self, text: str) -> None:
        """Hide the bar after a failed run (the error is shown by the caller)."""
        self.query_one(IndexingBar).stop()
        self.query_one(StatusLine).index_state = "error"
        self.check_index()

    def on_source_edited(self, message: msg.SourceEdited) -> None:
        """Re-index a knowledge file that was just edited in ``$EDITOR``."""
        self.query_one(StatusLine).index_state = "indexing…"
        self.reindex([message.rel_path])

    # --- export --------------------------------------------------------------------------
    # Exports go to .claude/memory/exports/ by default: a file written into the project
    # (an export.md at the root) would be indexed as documentation and searched again.

    def action_export(self) -> None:
        """Open the export dialog for the results on screen."""
        from app.tui.screens.export import ExportScreen

        results = self.query_one(ResultsTable).results
        state = self.state
        if state.browsing:  # what the header says: "showing 200 of 677 entries, newest first"
            summary = str(self.query_one("#results-header", Label).render())
        else:
            summary = f"{plural(len(results), 'result')} for “{state.query.strip()}”"
        paths = self.memory.paths
        exports = paths.memory_dir / EXPORTS  # ignored by git and never indexed
        exports.mkdir(parents=True, exist_ok=True)
        folder = exports.relative_to(paths.root).as_posix()
        self.app.push_screen(
            ExportScreen(count=len(results), summary=summary, base_dir=paths.root, folder=folder),
            lambda request: self.write_export(request, results, state.query) if request else None,
        )

    @work(thread=True, group="export", exit_on_error=False, description="export")
    def write_export(
        self, request: ExportRequest, results: tuple[SearchResult, ...], query: str
    ) -> None:
        """Render and write the file; posts :class:`~app.tui.messages.ExportWritten`."""
        from engine import render

        text = render(
            results, request.fmt, query.strip(), knowledge_prefix=self.memory.paths.knowledge_prefix
        )
        request.path.write_text(text, encoding="utf-8")
        self.post_message(msg.ExportWritten(request.path, request.fmt.value, len(results)))

    def on_export_written(self, message: msg.ExportWritten) -> None:
        """Confirm with a toast."""
        what = plural(message.count, "result")
        self.notify(f"{what} as {message.fmt} → {message.path}", title="Exported")
