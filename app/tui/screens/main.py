"""The main screen: query, mode, filters, results, preview and status.

The screen owns the search state (query, mode, category, source) and pushes it down to
its widgets; widgets post messages up. Every engine call runs in a thread worker that
posts a message from :mod:`app.tui.messages`; results that answer an out-of-date
request (the user typed on) are dropped.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, Static
from textual.worker import Worker, WorkerState

from app.tui import messages as msg
from app.tui.actions.curation import CurationActions
from app.tui.actions.freshness import FreshnessActions
from app.tui.actions.maintenance import CHECK_INTERVAL, MaintenanceActions
from app.tui.actions.search import SearchWorkers
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.indexing_bar import IndexingBar
from app.tui.widgets.mode_toggle import ModeToggle
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.results_text import describe_error, error_text, header_text, placeholder_text
from app.tui.widgets.search_bar import SearchBar
from app.tui.widgets.status_line import StatusLine
from engine import Category, SearchMode, SearchResult, Source, printable

if TYPE_CHECKING:
    from engine import Memory

DEBOUNCE_SECONDS = 0.05
"""Pause after a keystroke before searching (typing fast runs one search, not five)."""
PREVIEW_DELAY = 0.06
"""Seconds the preview waits for the selection to settle before rendering it."""
MODEL_LOAD_DELAY = 0.3
"""Seconds after start-up before the model starts loading."""
MODES = (SearchMode.HYBRID, SearchMode.KEYWORD, SearchMode.VECTOR)


class MainScreen(
    SearchWorkers, CurationActions, MaintenanceActions, FreshnessActions, Screen[None]
):
    """Search, browse and curate; see the module docstring."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "add_entry", "Add"),
        Binding("ctrl+t", "cycle_mode", "Mode", show=False),
        Binding("ctrl+z", "undo_delete", "Undo"),
        Binding("ctrl+s", "export", "Export"),
        Binding("ctrl+r", "reindex", "Re-index"),
        Binding("f1", "help", "Help"),
        Binding("f2", "set_mode('hybrid')", "Hybrid", show=False),
        Binding("f3", "set_mode('keyword')", "Keyword", show=False),
        Binding("f4", "set_mode('vector')", "Vector", show=False),
        Binding("f5", "toggle_watch", "Watch", show=False),
        Binding("f6", "toggle_stale", "Stale", show=False),
        Binding("f7", "review_notes", "Notes"),
        Binding("ctrl+g", "toggle_filters", "Filters"),
        Binding("down", "focus_results", "Results", show=False),
    ]
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"),
        (140, "-wide"),
    ]

    def __init__(self, memory: Memory, *, mode: SearchMode = SearchMode.HYBRID) -> None:
        super().__init__()
        self.memory = memory
        """The engine's front door (the only way this screen reaches the data)."""
        self.state = msg.SearchState(mode=mode)
        """What is being searched; widgets are updated from it."""
        self.model_state = "loading"
        """"loading", "ready" or "failed"."""
        self.total: int | None = None
        """Entries in the memory, once counted."""
        self._generation = 0
        self._shown: msg.SearchRequest | None = None
        self._timer: Timer | None = None
        self._last_start = 0.0
        self._preview_timer: Timer | None = None
        self._preview_pending: SearchResult | None = None
        self._select_after: str | None = None
        self._refocus_after: int | None = None
        self._filters_shown: bool | None = None

    # --- layout --------------------------------------------------------------------------

    def _knowledge_prefix(self) -> str:
        paths = self.memory.paths
        try:
            return paths.knowledge_dir.relative_to(paths.root).as_posix() + "/"
        except ValueError:
            return ""

    def compose(self) -> ComposeResult:
        """Query and mode on top, filters on the left, results and preview, status below."""
        with Horizontal(id="top"):
            yield SearchBar(id="search")
            yield ModeToggle(id="mode")
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield FilterList([c.value for c in Category], title="Category", id="categories")
                yield FilterList([s.value for s in Source], title="Source", id="sources")
            with Horizontal(id="panes"):
                with Vertical(id="results-pane"):
                    yield Label("", id="results-header", markup=False)
                    yield ResultsTable(id="results", strip_prefix=self._knowledge_prefix())
                    yield Static("", id="results-message", markup=False)
                yield EntryPreview(id="preview")
        yield IndexingBar(id="indexing")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        """Show what is there at once; load the model in the background."""
        self.query_one(ModeToggle).mode = self.state.mode
        self.query_one(StatusLine).mode = self.state.mode
        self.query_one(SearchBar).focus()
        self.refresh_counts()
        self._start_search()
        self.check_index()  # "index ready" only if no file changed since the last index
        self.set_interval(CHECK_INTERVAL, self.check_index_now_and_then)
        if getattr(self.memory.base_embedder, "loaded", True):
            self._set_model_state("ready")
        # The import of the model's libraries holds the GIL for seconds: start it once the
        # first screen is up, so that it does not slow down the first paint.
        self.set_timer(MODEL_LOAD_DELAY, self.load_model)

    # --- state ---------------------------------------------------------------------------

    def update_state(self, *, debounce: bool = False, **changes: Any) -> None:
        """Apply ``changes`` to the search state and search again (after a pause if asked)."""
        self.state = replace(self.state, **changes)
        self._generation += 1
        self.query_one(ModeToggle).mode = self.state.mode
        self.query_one(StatusLine).mode = self.state.mode
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        # A key typed after a pause searches at once; one typed moments after a search
        # started waits out the pause; one typed while a search runs starts when it ends.
        running, rest = self._searching, DEBOUNCE_SECONDS - (time.monotonic() - self._last_start)
        if debounce and (running or rest > 0):
            self._timer = self.set_timer(DEBOUNCE_SECONDS if running else rest, self._start_search)
        else:
            self._start_search()

    def refresh_results(self, *, select: str | None = None, refocus: bool = False) -> None:
        """Run the current search again (after a change to the memory); with ``refocus``,
        its results take the focus (the query when none are left)."""
        self._select_after = select
        self.update_state()
        self._refocus_after = self._generation if refocus else None
        self.refresh_counts()

    def effective_mode(self) -> SearchMode:
        """The mode to ask of the engine: keyword until the model is ready."""
        return self.state.mode if self.model_state == "ready" else SearchMode.KEYWORD

    def _start_search(self) -> None:
        self._timer = None
        self._last_start = time.monotonic()
        request = msg.SearchRequest(self.state, self._generation, self.effective_mode())
        self.query_one("#results-header", Label).update("Searching…")
        # exclusive: a newer search cancels the older one (a thread cannot be stopped, so
        # the older one checks before posting, and the handler drops stale generations).
        self.run_worker(
            partial(self.run_search, request),
            name=f"search-{request.generation}",
            group="search",
            description="search",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    # --- worker results ----------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place where worker errors become messages for the user; a search that
        ended lets the one waiting for it start."""
        if event.worker.group == "search" and event.state in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            self._search_ended()
        if event.state is not WorkerState.ERROR or event.worker.error is None:
            return
        worker, text = event.worker, describe_error(event.worker.error)
        if worker.group == "search":
            if worker.name == f"search-{self._generation}":
                self._show_search_error(text)
        elif worker.group == "model":
            self._set_model_state("failed")
            self.notify(text, title="Embedding model unavailable", severity="error")
            if self.state.mode is not SearchMode.KEYWORD:
                self.update_state()
        else:
            if worker.group == "index":
                self.indexing_failed(text)
            self.notify(text, title=f"Could not {worker.description}", severity="error")

    @property
    def _searching(self) -> bool:
        return any(w.group == "search" and w.is_running for w in self.workers)

    def _search_ended(self) -> None:
        if self._timer is not None and not self._searching:  # the newest query, now
            self._timer.stop()
            self._start_search()

    # --- message handlers ----------------------------------------------------------------

    def on_results_ready(self, message: msg.ResultsReady) -> None:
        """Show results, unless the user has changed the search since it was asked."""
        request = message.request
        if request.generation != self._generation:
            return  # stale: a newer request is on its way
        same_search = self._shown is not None and self._shown.state == request.state
        self._shown = request
        table = self.query_one(ResultsTable)
        table.show_results(
            message.results, browsing=request.state.browsing, keep_cursor=same_search
        )
        if self._select_after is not None:
            ids = [r.entry.id for r in message.results]
            if self._select_after in ids:
                table.move_cursor(row=ids.index(self._select_after), animate=False)
            self._select_after = None
        self._show_header(request, len(message.results), message.total, message.warnings)
        self._show_placeholder(request, len(message.results))
        self._keep_focus(refocus=self._refocus_after == request.generation)

    def _keep_focus(self, *, refocus: bool = False) -> None:
        """Never leave the focus on rows that went away (a delete, a refresh that takes the
        last stale entry off the list): the results take it if any are left, else the
        query, so that the next key typed lands somewhere."""
        table = self.query_one(ResultsTable)
        lost = self.focused is None or (self.focused is table and not table.results)
        if refocus or lost:
            self._refocus_after = None
            self.set_focus(table if table.results else self.query_one(SearchBar))

    def on_counts_ready(self, message: msg.CountsReady) -> None:
        """Update the filter counts and the status line."""
        self.total = message.total
        self.query_one("#categories", FilterList).show_counts(
            message.by_category, sum(message.by_category.values())
        )
        self.query_one("#sources", FilterList).show_counts(message.by_source, message.total)
        self.query_one(StatusLine).entries = message.total
        personal = (Source.SESSION.value, Source.MANUAL.value)
        self.query_one(StatusLine).notes = sum(message.by_source.get(s, 0) for s in personal)
        if self._shown is not None and self._shown.state.browsing:
            self._show_placeholder(self._shown, len(self.query_one(ResultsTable).results))

    def on_model_ready(self, message: msg.ModelReady) -> None:
        """Switch to the chosen mode now that vectors can be used."""
        was_waiting = self.model_state != "ready"
        self._set_model_state("ready")
        if was_waiting:
            self.notify(f"Model loaded in {message.seconds:.1f} s", title="Hybrid search ready")
            if self.state.mode is not SearchMode.KEYWORD and not self.state.browsing:
                self.update_state()

    @on(SearchBar.QueryChanged)
    def _query_changed(self, message: SearchBar.QueryChanged) -> None:
        self.update_state(query=message.query, debounce=True)

    @on(SearchBar.LeaveRequested)
    def _leave_search(self) -> None:
        table = self.query_one(ResultsTable)
        if table.results:
            self.set_focus(table)

    @on(ModeToggle.Changed)
    def _mode_clicked(self, message: ModeToggle.Changed) -> None:
        self.action_set_mode(message.mode.value)

    @on(FilterList.Changed, "#categories")
    def _category_chosen(self, message: FilterList.Changed) -> None:
        message.filter_list.set_active(message.value)
        self.update_state(category=Category(message.value) if message.value else None)
        self.action_focus_search()  # the next key typed narrows the query

    @on(FilterList.Changed, "#sources")
    def _source_chosen(self, message: FilterList.Changed) -> None:
        message.filter_list.set_active(message.value)
        self.update_state(source=Source(message.value) if message.value else None)
        self.refresh_counts()
        self.action_focus_search()

    @on(ResultsTable.EntryHighlighted)
    def _entry_highlighted(self, message: ResultsTable.EntryHighlighted) -> None:
        # Rendering markdown takes longer than drawing the results: it follows a moment
        # later, once, instead of on every keystroke or cursor step.
        self._preview_pending = message.result
        if self._preview_timer is not None:
            self._preview_timer.stop()
        self._preview_timer = self.set_timer(PREVIEW_DELAY, self._show_preview)

    def _show_preview(self) -> None:
        self._preview_timer = None
        shown = self._shown
        mode = shown.effective_mode.value if shown else self.state.mode.value
        browsing = shown.state.browsing if shown else True
        self.query_one(EntryPreview).show(self._preview_pending, mode=mode, browsing=browsing)

    # --- presentation --------------------------------------------------------------------

    def _set_model_state(self, state: str) -> None:
        self.model_state = state
        self.query_one(StatusLine).model_state = state

    def _show_header(
        self,
        request: msg.SearchRequest,
        count: int,
        total: int | None,
        warnings: tuple[str, ...],
    ) -> None:
        text = printable(header_text(request, count, total, warnings))
        self.query_one("#results-header", Label).update(text)

    def _show_placeholder(self, request: msg.SearchRequest, count: int) -> None:
        text = printable(placeholder_text(request, count))
        pane = self.query_one("#results-pane")
        pane.set_class(bool(text), "-placeholder")
        pane.remove_class("-error")
        self.query_one("#results-message", Static).update(text)

    def _show_search_error(self, text: str) -> None:
        self.query_one("#results-header", Label).update("Search failed")
        self.query_one(ResultsTable).show_results((), browsing=self.state.browsing)
        self.query_one("#results-pane").add_class("-placeholder", "-error")
        self.query_one("#results-message", Static).update(printable(error_text(text)))
        self._keep_focus()

    # --- actions -------------------------------------------------------------------------

    def action_set_mode(self, mode: str) -> None:
        """Search in ``mode`` (vector, keyword or hybrid)."""
        chosen = SearchMode(mode)
        if chosen is not self.state.mode:
            self.update_state(mode=chosen)
        if chosen is not SearchMode.KEYWORD and self.model_state == "loading":
            self.notify("Keyword results until the model has loaded.", title=f"{mode} search")

    def action_cycle_mode(self) -> None:
        """Switch to the next mode: hybrid → keyword → vector → hybrid."""
        self.action_set_mode(MODES[(MODES.index(self.state.mode) + 1) % len(MODES)].value)

    def action_focus_results(self) -> None:
        """Move to the results (↓ from the query), synchronously."""
        table = self.query_one(ResultsTable)
        if table.results:
            self.set_focus(table)

    def action_focus_search(self) -> None:
        """Move to the query input (at once: the next key typed must land there)."""
        self.set_focus(self.query_one(SearchBar))

    @property
    def filters_visible(self) -> bool:
        """Whether the filter sidebar is on screen: as the user last chose with ctrl+g,
        else as the width has it (shown on wide terminals, hidden on narrow ones)."""
        if self._filters_shown is not None:
            return self._filters_shown
        return not self.has_class("-narrow")

    def _show_filters(self, shown: bool) -> None:
        # An absolute choice, not a flip of the width's default: a resize across the
        # breakpoint keeps the filters as the user left them.
        self._filters_shown = shown
        self.set_class(shown, "-filters-shown")
        self.set_class(not shown, "-filters-hidden")

    def action_toggle_filters(self) -> None:
        """Go to the filters (shown first if they are hidden); from the filters, hide them
        and go back to the query. The results and the preview stay as they are."""
        focused = self.focused
        sidebar = self.query_one("#sidebar")
        in_filters = focused is not None and (focused is sidebar or sidebar in focused.ancestors)
        if self.filters_visible and in_filters:
            self._show_filters(False)
            self.action_focus_search()
        else:
            self.action_focus_filters()

    def action_focus_filters(self) -> None:
        """Show the filters and move to the category list."""
        if not self.filters_visible:
            self._show_filters(True)
        self.call_after_refresh(self.query_one("#categories", FilterList).focus)

    def action_help(self) -> None:
        """Show the help screen."""
        from app.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
