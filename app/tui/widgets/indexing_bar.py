"""The indexing bar: re-indexing with a progress bar, the watcher, and the index check.

It owns everything about keeping the index in step with the files: the re-index worker
(whose progress it shows), the knowledge watcher (F5), and the look now and then at
whether files changed since the last index run. Each posts one of the messages nested
here; the screen passes what they mean on to the status line and the results.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Label, ProgressBar
from textual.worker import Worker, get_current_worker

from app.tui.failures import failure, report_failure

if TYPE_CHECKING:
    from engine import Memory, WatchBatch

PROGRESS_INTERVAL = 0.05
"""Least time between two progress messages (a fast re-index has hundreds of files)."""
CHECK_INTERVAL = 20.0
"""Seconds between two looks at whether files changed since the last index (a dry run:
about 0.25 s for 456 files, in a thread), for edits made while the app is open."""


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


class IndexingBar(Horizontal):
    """A label and a progress bar, hidden (by the stylesheet) unless ``-active``; the
    index workers run here."""

    class IndexProgress(Message):
        """Re-indexing moved on to another file."""

        def __init__(self, done: int, total: int, path: str) -> None:
            super().__init__()
            self.done = done
            """Files finished."""
            self.total = total
            """Files to look at."""
            self.path = path
            """The file being indexed now ("" at the end)."""

    class IndexFinished(Message):
        """Re-indexing finished."""

        def __init__(self, summary: str, errors: tuple[str, ...]) -> None:
            super().__init__()
            self.summary = summary
            """One line for a toast: files changed, entries created, seconds."""
            self.errors = errors
            """``path: message`` of each file that could not be indexed."""

    class IndexFailed(Message):
        """Re-indexing raised (the bar is hidden and the error toasted already)."""

    class IndexChecked(Message):
        """The files the index reads were compared with the last index run."""

        def __init__(self, outdated: int) -> None:
            super().__init__()
            self.outdated = outdated
            """Files new, changed or removed since then (``Indexer.freshness``)."""

    class KnowledgeChanged(Message):
        """The watcher re-indexed knowledge files that changed on disk."""

        def __init__(self, summary: str, *, failed: bool = False) -> None:
            super().__init__()
            self.summary = summary
            """What changed and what re-indexing did, for a toast."""
            self.failed = failed
            """Whether re-indexing failed (the watcher goes on)."""

    def __init__(self, memory: Memory, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.memory = memory
        """The engine's front door (the indexer and the watcher run on it)."""
        self._watch_stop: threading.Event | None = None

    def compose(self) -> ComposeResult:
        """The label and the bar."""
        yield Label("Indexing", id="index-label")
        yield ProgressBar(id="index-bar", show_eta=False)

    def on_mount(self) -> None:
        """Look at the files now (the status line says "index ready" only if none
        changed since the last index), and again now and then."""
        self.check_index()
        self.set_interval(CHECK_INTERVAL, self.check_now_and_then)

    # --- the bar -------------------------------------------------------------------------

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

    # --- is the index behind its files? -------------------------------------------------

    @property
    def indexing(self) -> bool:
        """Whether a re-index is running."""
        return any(w.group == "index" and w.is_running for w in self.workers)

    def check_now_and_then(self) -> None:
        """The timer's check: skipped while a re-index runs (it checks when it ends)."""
        if not self.indexing:
            self.check_index()

    @work(thread=True, group="check", exclusive=True, exit_on_error=False,
          description="check the index")  # fmt: skip
    def check_index(self) -> None:
        """Compare the files the index reads with the last index run; posts
        :class:`IndexChecked` (what ``memory-tui status`` says)."""
        from engine import Indexer

        outdated = Indexer(self.memory).freshness().outdated
        if not get_current_worker().is_cancelled:  # a newer check is on its way
            self.post_message(self.IndexChecked(outdated))

    # --- re-index ------------------------------------------------------------------------

    def reindex(self, only: Collection[str] | None = None) -> bool:
        """Index what changed, with the bar; or only the files ``only`` names (one just
        edited), quietly. False when a full re-index is already running."""
        if only is None:
            if self.indexing:
                return False
            self.start()
        self.run_reindex(only)
        return True

    @work(thread=True, group="index", exit_on_error=False, description="re-index")
    def run_reindex(self, only: Collection[str] | None = None) -> None:
        """Run the indexer, posting progress; ends with :class:`IndexFinished`."""
        from engine import Indexer

        last = 0.0

        def progress(done: int, total: int, path: str) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_INTERVAL or done == total:
                last = now
                self.post_message(self.IndexProgress(done, total, path))

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
        self.post_message(self.IndexFinished(summary, errors))

    def on_indexing_bar_index_progress(self, message: IndexProgress) -> None:
        """Move the bar."""
        self.advance(message.done, message.total, message.path)

    def on_indexing_bar_index_finished(self) -> None:
        """Hide the bar and look at the files again."""
        self.stop()
        self.check_index()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Say why a worker failed; a failed re-index also hides the bar."""
        text = failure(event)
        if text is None:
            return
        if event.worker.group == "index":
            self.stop()
            self.post_message(self.IndexFailed())
            self.check_index()
        report_failure(self, event.worker, text)

    # --- watch ---------------------------------------------------------------------------

    @property
    def watching(self) -> bool:
        """Whether the watcher worker is running."""
        return self._watch_stop is not None

    def start_watching(self) -> bool:
        """Start watching the knowledge folder; False when there is none."""
        if not self.memory.paths.knowledge_dir.is_dir():
            return False
        self._watch_stop = threading.Event()
        self.watch_knowledge(self._watch_stop)
        return True

    def stop_watching(self) -> None:
        """Ask the watcher worker to end (it does within a fraction of a second)."""
        if self._watch_stop is not None:
            self._watch_stop.set()
            self._watch_stop = None

    @work(thread=True, group="watch", exit_on_error=False, description="watch knowledge files")
    def watch_knowledge(self, stop: threading.Event) -> None:
        """Run the watcher until ``stop`` is set; posts :class:`KnowledgeChanged` per batch."""
        from engine import KnowledgeWatcher

        watcher = KnowledgeWatcher(self.memory)
        watcher.run(
            lambda batch: self.post_message(
                self.KnowledgeChanged(batch_summary(batch), failed=bool(batch.error))
            ),
            stop=stop,
        )

    def on_indexing_bar_knowledge_changed(self) -> None:
        """Look at the files again after the watcher re-indexed some."""
        self.check_index()

    def on_unmount(self) -> None:
        """Stop the watcher with the screen."""
        if self._watch_stop is not None:
            self._watch_stop.set()
