"""The results pane: its header, the results table, the empty and error states, export.

It owns the results: it runs each search the screen asks for in a thread worker (a newer
one cancels the older, and an answer to an out-of-date request is dropped, never shown),
waits out a pause between keystrokes, shows what came back, keeps the focus on rows that
exist, and writes the results to a file on request.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Label, Static
from textual.worker import Worker, WorkerState, get_current_worker

from app.tui.failures import failure, report_failure
from app.tui.search_state import SearchRequest, SearchState
from app.tui.widgets.curation import Curation
from app.tui.widgets.results_query import ask
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.results_text import error_text, header_text, placeholder_text
from app.words import plural
from engine import ExportFormat, SearchMode, SearchResult, printable

if TYPE_CHECKING:
    from pathlib import Path

    from app.tui.screens.export import ExportRequest
    from engine import Memory

DEBOUNCE_SECONDS = 0.05
"""Pause after a keystroke before searching (typing fast runs one search, not five)."""
EXPORTS = "exports"
"""Folder of the memory directory that exports are written to unless told otherwise."""


class ResultsPane(Vertical):
    """The header line, the table (or a message in its place); see the module docstring.
    The keys that act on the selected entry are bound here and handed to its
    :class:`~app.tui.widgets.curation.Curation`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_entry", "Edit"),
        Binding("d,delete", "delete_entry", "Delete"),
        Binding("p", "promote_entry", "Promote"),
        Binding("o", "open_source", "Open file"),
        Binding("f", "refresh_entry", "Refresh stale", show=False),
    ]

    class ResultsReady(Message):
        """A search or listing finished."""

        def __init__(
            self,
            request: SearchRequest,
            results: tuple[SearchResult, ...],
            warnings: tuple[str, ...],
            total: int | None = None,
        ) -> None:
            super().__init__()
            self.request = request
            """The request these results answer (stale when its generation is old)."""
            self.results = results
            """Best first; when browsing, newest first with a score of 0."""
            self.warnings = warnings
            """What the engine had to degrade (e.g. one retriever unavailable)."""
            self.total = total
            """When browsing, how many entries match the filters (the listing stops at a
            limit); None for a search."""

    class ResultsGone(Message):
        """The focus was on results that went away and none is left to take it."""

    class ExportWritten(Message):
        """Results were written to a file."""

        def __init__(self, path: Path, fmt: str, count: int) -> None:
            super().__init__()
            self.path = path
            """The file written."""
            self.fmt = fmt
            """The format's name."""
            self.count = count
            """Results written."""

    def __init__(self, memory: Memory, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.memory = memory
        """The engine's front door (searches and exports go through it)."""
        self.generation = 0
        """Number of the newest request; answers to older ones are dropped."""
        self.shown: SearchRequest | None = None
        """The request whose results are on display."""
        self._state = SearchState()
        self._mode = SearchMode.KEYWORD
        self._timer: Timer | None = None
        self._last_start = 0.0
        self._select_after: str | None = None
        self._refocus_after: int | None = None
        self.export_format = ExportFormat.TEXT
        """The format of the last export, offered first by the next (for this session)."""

    def compose(self) -> ComposeResult:
        """The header, the table and the message shown instead of an empty table."""
        yield Label("", id="results-header", markup=False)
        # Paths in the knowledge folder are shown relative to it.
        yield ResultsTable(id="results", strip_prefix=self.memory.paths.knowledge_prefix)
        yield Static("", id="results-message", markup=False)
        yield Curation(self.memory)

    @property
    def table(self) -> ResultsTable:
        """The results table."""
        return self.query_one(ResultsTable)

    @property
    def curation(self) -> Curation:
        """What changes entries (the results are searched again once it has)."""
        return self.query_one(Curation)

    @property
    def waiting(self) -> bool:
        """Whether a search waits out the pause after a keystroke."""
        return self._timer is not None

    # --- asking --------------------------------------------------------------------------

    def ask(self, state: SearchState, mode: SearchMode, *, debounce: bool = False) -> None:
        """Search for ``state`` in ``mode`` (after a pause between keystrokes if asked)."""
        self._state, self._mode = state, mode
        self.generation += 1
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        # A key typed after a pause searches at once; one typed moments after a search
        # started waits out the pause; one typed while a search runs starts when it ends.
        running, rest = self._searching, DEBOUNCE_SECONDS - (time.monotonic() - self._last_start)
        if debounce and (running or rest > 0):
            self._timer = self.set_timer(DEBOUNCE_SECONDS if running else rest, self._start)
        else:
            self._start()

    def reload(
        self,
        state: SearchState,
        mode: SearchMode,
        *,
        select: str | None = None,
        refocus: bool = False,
    ) -> None:
        """Search again (after a change to the memory), with the cursor on ``select`` if it
        is found; with ``refocus``, the results take the focus (the query when none is left)."""
        self._select_after = select
        self.ask(state, mode)
        self._refocus_after = self.generation if refocus else None

    def _start(self) -> None:
        self._timer = None
        self._last_start = time.monotonic()
        request = SearchRequest(self._state, self.generation, self._mode)
        self.query_one("#results-header", Label).update("Searching…")
        # exclusive: a newer search cancels the older one (a thread cannot be stopped, so
        # the older one checks before posting, and the handler drops stale generations).
        self.run_worker(
            partial(self._search, request),
            name=f"search-{request.generation}",
            group="search",
            description="search",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _search(self, request: SearchRequest) -> None:
        worker = get_current_worker()
        answer = ask(self.memory, request)
        if not worker.is_cancelled:
            self.post_message(
                self.ResultsReady(request, answer.results, answer.warnings, answer.total)
            )

    @property
    def _searching(self) -> bool:
        return any(w.group == "search" and w.is_running for w in self.workers)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A search that ended lets the one waiting for it start; a failed search is shown
        in place of the results, a failed export as a toast."""
        worker = event.worker
        ended = event.state in (WorkerState.SUCCESS, WorkerState.ERROR)
        if worker.group == "search" and ended and self._timer is not None and not self._searching:
            self._timer.stop()  # the newest query, now
            self._start()
        text = failure(event)
        if text is None:
            return
        if worker.group != "search":
            report_failure(self, worker, text)
        elif worker.name == f"search-{self.generation}":
            self._show_error(text)

    # --- showing -------------------------------------------------------------------------

    def on_results_pane_results_ready(self, message: ResultsReady) -> None:
        """Show results, unless the search changed since they were asked for."""
        request = message.request
        if request.generation != self.generation:
            return  # stale: a newer request is on its way
        same_search = self.shown is not None and self.shown.state == request.state
        self.shown = request
        table = self.table
        table.show_results(
            message.results, browsing=request.state.browsing, keep_cursor=same_search
        )
        if self._select_after is not None:
            ids = [r.entry.id for r in message.results]
            if self._select_after in ids:
                table.move_cursor(row=ids.index(self._select_after), animate=False)
            self._select_after = None
        text = header_text(request, len(message.results), message.total, message.warnings)
        self.query_one("#results-header", Label).update(printable(text))
        self._show_placeholder(request, len(message.results))
        self._keep_focus(refocus=self._refocus_after == request.generation)

    def _keep_focus(self, *, refocus: bool = False) -> None:
        # Never leave the focus on rows that went away (a delete, a refresh that takes the
        # last stale entry off the list): the results take it if any are left, else the
        # query, so that the next key typed lands somewhere.
        table, focused = self.table, self.screen.focused
        lost = focused is None or (focused is table and not table.results)
        if refocus or lost:
            self._refocus_after = None
            if table.results:
                self.screen.set_focus(table)
            else:
                self.post_message(self.ResultsGone())

    def _show_placeholder(self, request: SearchRequest, count: int) -> None:
        text = printable(placeholder_text(request, count))
        self.set_class(bool(text), "-placeholder")
        self.remove_class("-error")
        self.query_one("#results-message", Static).update(text)

    def _show_error(self, text: str) -> None:
        self.query_one("#results-header", Label).update("Search failed")
        self.table.show_results((), browsing=self._state.browsing)
        self.add_class("-placeholder", "-error")
        self.query_one("#results-message", Static).update(printable(error_text(text)))
        self._keep_focus()

    def take_focus(self) -> None:
        """Move to the results, if there are any."""
        if self.table.results:
            self.screen.set_focus(self.table)

    # --- the selected entry -------------------------------------------------------------

    def _chosen(self, verb: str) -> SearchResult | None:
        result = self.table.selected
        if result is None and verb:
            self.notify(f"Select an entry to {verb} first.", severity="warning")
        return result

    def action_edit_entry(self) -> None:
        """Open the form on the selected entry."""
        if chosen := self._chosen("edit"):
            self.curation.edit(chosen.entry)

    def action_delete_entry(self) -> None:
        """Ask, then delete the selected entry."""
        if chosen := self._chosen("delete"):
            self.curation.delete(chosen.entry)

    def action_promote_entry(self) -> None:
        """Move the selected entry into a knowledge file."""
        if chosen := self._chosen("promote"):
            self.curation.promote(chosen.entry)

    def action_open_source(self) -> None:
        """Open the selected entry's file in ``$EDITOR``."""
        if chosen := self._chosen("open"):
            self.curation.open_source(chosen.entry)

    def action_refresh_entry(self) -> None:
        """Refresh the selected entry if it is stale."""
        if chosen := self._chosen(""):
            self.curation.refresh_stale(chosen.entry, stale=chosen.stale)

    # --- export --------------------------------------------------------------------------
    # Exports go to .claude/memory/exports/ by default: a file written into the project
    # (an export.md at the root) would be indexed as documentation and searched again.

    def export(self) -> None:
        """Open the export dialog for the results on display."""
        from app.tui.screens.export import ExportScreen

        results, state = self.table.results, self._state
        if state.browsing:  # what the header says: "showing 200 of 677 entries, newest first"
            summary = str(self.query_one("#results-header", Label).render())
        else:
            summary = f"{plural(len(results), 'result')} for “{state.query.strip()}”"
        paths = self.memory.paths
        exports = paths.memory_dir / EXPORTS  # ignored by git and never indexed
        exports.mkdir(parents=True, exist_ok=True)
        folder = exports.relative_to(paths.root).as_posix()

        def chosen(request: ExportRequest | None) -> None:
            if request is not None:
                self.export_format = request.fmt
                self.write_export(request, results, state.query)

        dialog = ExportScreen(
            count=len(results),
            summary=summary,
            base_dir=paths.root,
            folder=folder,
            fmt=self.export_format,
        )
        self.app.push_screen(dialog, chosen)

    @work(thread=True, group="export", exit_on_error=False, description="export")
    def write_export(
        self, request: ExportRequest, results: tuple[SearchResult, ...], query: str
    ) -> None:
        """Render and write the file; posts :class:`ExportWritten`."""
        from engine import render

        text = render(
            results, request.fmt, query.strip(), knowledge_prefix=self.memory.paths.knowledge_prefix
        )
        request.path.write_text(text, encoding="utf-8")
        self.post_message(self.ExportWritten(request.path, request.fmt.value, len(results)))

    def on_results_pane_export_written(self, message: ExportWritten) -> None:
        """Confirm with a toast."""
        what = plural(message.count, "result")
        self.notify(f"{what} as {message.fmt} → {message.path}", title="Exported")
