"""The main screen: query, mode, filters, results, preview and status.

The screen composes the widgets and routes between them. It owns the search state
(query, mode, category, source, stale only) and the model's state, pushes them down to
the widgets that act on them, and hears their messages: the results pane searches and
shows, the sidebar counts and filters, the indexing bar keeps the index in step, the
curation widget writes; none of them reaches into another.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker

from app.tui.failures import failure
from app.tui.search_state import SearchState
from app.tui.widgets.curation import Curation
from app.tui.widgets.filter_list import FilterList
from app.tui.widgets.filters import FilterSidebar
from app.tui.widgets.indexing_bar import IndexingBar
from app.tui.widgets.mode_toggle import ModeToggle
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_pane import ResultsPane
from app.tui.widgets.results_table import ResultsTable
from app.tui.widgets.search_bar import SearchBar
from app.tui.widgets.status_line import StatusLine
from engine import Category, SearchMode, Source

if TYPE_CHECKING:
    from engine import Memory

MODEL_LOAD_DELAY = 0.3
"""Seconds after start-up before the model starts loading."""
MODES = (SearchMode.HYBRID, SearchMode.KEYWORD, SearchMode.VECTOR)
FILTERS_WIDTH = 160
"""From this width the filters are shown until ctrl+g hides them; below it, the results
keep the room (hidden until ctrl+g shows them)."""
COMPACT_WIDTH = 80
"""Below this width the mode toggle shows only the mode chosen (F2-F4 still switch)."""


class MainScreen(Screen[None]):
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
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (20, "-tall")]
    """Wide: results and preview side by side. Short: the preview and most of the chrome
    go, so that the results keep the room (at 50×14, nine rows)."""

    class ModelReady(Message):
        """The embedding model finished loading: vector and hybrid search are available."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.seconds = seconds
            """How long the load took."""

    def __init__(self, memory: Memory, *, mode: SearchMode = SearchMode.HYBRID) -> None:
        super().__init__()
        self.memory = memory
        """The engine's front door (the only way this screen reaches the data)."""
        self.state = SearchState(mode=mode)
        """What is being searched; widgets are updated from it."""
        self.model_state = "loading"
        """"loading", "ready" or "failed"."""

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Query and mode on top, filters on the left, results and preview, status below."""
        memory = self.memory
        with Horizontal(id="top"):
            yield SearchBar(id="search")
            yield ModeToggle(id="mode")
        with Horizontal(id="body"):
            yield FilterSidebar(memory, id="sidebar")
            with Horizontal(id="panes"):
                yield ResultsPane(memory, id="results-pane")
                yield EntryPreview(id="preview")
        yield IndexingBar(memory, id="indexing")
        yield StatusLine(id="status")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        """``-cramped`` and ``-compact`` (see :data:`FILTERS_WIDTH`, :data:`COMPACT_WIDTH`)."""
        self.set_class(event.size.width < FILTERS_WIDTH, "-cramped")
        self.set_class(event.size.width < COMPACT_WIDTH, "-compact")

    @property
    def results(self) -> ResultsPane:
        """The results pane."""
        return self.query_one(ResultsPane)

    @property
    def sidebar(self) -> FilterSidebar:
        """The filter sidebar."""
        return self.query_one(FilterSidebar)

    @property
    def indexing(self) -> IndexingBar:
        """The indexing bar (and the index workers)."""
        return self.query_one(IndexingBar)

    @property
    def status(self) -> StatusLine:
        """The status line."""
        return self.query_one(StatusLine)

    def on_mount(self) -> None:
        """Show what is there at once; load the model in the background."""
        self.query_one(ModeToggle).mode = self.state.mode
        self.status.mode = self.state.mode
        self.query_one(SearchBar).focus()
        self.sidebar.refresh_counts(self.state.source)
        self.results.ask(self.state, self.effective_mode())
        if self.memory.model_loaded:
            self._set_model_state("ready")
        # The import of the model's libraries holds the GIL for seconds: start it once the
        # first screen is up, so that it does not slow down the first paint.
        self.set_timer(MODEL_LOAD_DELAY, self.load_model)

    # --- state ---------------------------------------------------------------------------

    def update_state(self, *, debounce: bool = False, **changes: Any) -> None:
        """Apply ``changes`` to the search state and search again (after a pause if asked)."""
        self.state = replace(self.state, **changes)
        self.query_one(ModeToggle).mode = self.state.mode
        self.status.mode = self.state.mode
        self.results.ask(self.state, self.effective_mode(), debounce=debounce)

    def refresh_results(self, *, select: str | None = None, refocus: bool = False) -> None:
        """Run the current search again (after a change to the memory); with ``refocus``,
        its results take the focus (the query when none are left)."""
        self.results.reload(self.state, self.effective_mode(), select=select, refocus=refocus)
        self.sidebar.refresh_counts(self.state.source)

    def effective_mode(self) -> SearchMode:
        """The mode to ask of the engine: keyword until the model is ready."""
        return self.state.mode if self.model_state == "ready" else SearchMode.KEYWORD

    # --- the model -----------------------------------------------------------------------

    @work(thread=True, group="model", exit_on_error=False, description="load the model")
    def load_model(self) -> None:
        """Load the embedding model and open the vector store, off the UI thread."""
        started = time.perf_counter()
        self.memory.warm_up(mode=SearchMode.HYBRID)  # a store that cannot open says so now
        self.post_message(self.ModelReady(time.perf_counter() - started))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Without the model, search goes on by keyword."""
        text = failure(event)
        if text is None or event.worker.group != "model":
            return
        self._set_model_state("failed")
        self.notify(text, title="Embedding model unavailable", severity="error")
        if self.state.mode is not SearchMode.KEYWORD:
            self.update_state()

    def on_main_screen_model_ready(self, message: ModelReady) -> None:
        """Switch to the chosen mode now that vectors can be used."""
        was_waiting = self.model_state != "ready"
        self._set_model_state("ready")
        if was_waiting:
            self.notify(f"Model loaded in {message.seconds:.1f} s", title="Hybrid search ready")
            if self.state.mode is not SearchMode.KEYWORD and not self.state.browsing:
                self.update_state()

    def _set_model_state(self, state: str) -> None:
        self.model_state = state
        self.status.model_state = state

    # --- routing: query, mode, filters, results ------------------------------------------

    @on(SearchBar.QueryChanged)
    def _query_changed(self, message: SearchBar.QueryChanged) -> None:
        self.update_state(query=message.query, debounce=True)

    @on(SearchBar.LeaveRequested)
    def _leave_search(self) -> None:
        self.results.take_focus()

    @on(ModeToggle.Changed)
    def _mode_clicked(self, message: ModeToggle.Changed) -> None:
        self.action_set_mode(message.mode.value)

    @on(FilterList.Changed, "#categories")
    def _category_chosen(self, message: FilterList.Changed) -> None:
        self.update_state(category=Category(message.value) if message.value else None)
        self.action_focus_search()  # the next key typed narrows the query

    @on(FilterList.Changed, "#sources")
    def _source_chosen(self, message: FilterList.Changed) -> None:
        self.update_state(source=Source(message.value) if message.value else None)
        self.action_focus_search()

    def on_filter_sidebar_counts_ready(self, message: FilterSidebar.CountsReady) -> None:
        """The status line counts the entries and the notes not shared yet."""
        self.status.entries = message.total
        self.status.notes = message.notes

    @on(ResultsTable.EntryHighlighted)
    def _entry_highlighted(self, message: ResultsTable.EntryHighlighted) -> None:
        shown = self.results.shown
        mode = shown.effective_mode.value if shown else self.state.mode.value
        browsing = shown.state.browsing if shown else True
        self.query_one(EntryPreview).follow(message.result, mode=mode, browsing=browsing)

    def on_results_pane_results_gone(self) -> None:
        """The next key typed goes to the query."""
        self.action_focus_search()

    # --- routing: index and curation -----------------------------------------------------

    def on_indexing_bar_index_checked(self, message: IndexingBar.IndexChecked) -> None:
        """Show the count, unless a re-index started since (it checks again when done)."""
        if not self.indexing.indexing:
            self.status.outdated = message.outdated

    def on_indexing_bar_index_progress(self, message: IndexingBar.IndexProgress) -> None:
        """Count the files in the status line."""
        self.status.index_state = f"indexing {message.done}/{message.total}"

    def on_indexing_bar_index_finished(self, message: IndexingBar.IndexFinished) -> None:
        """Report, and search again."""
        self.status.index_state = f"{len(message.errors)} errors" if message.errors else "ready"
        severity = "warning" if message.errors else "information"
        details = "\n".join([message.summary, *message.errors[:3]])
        self.notify(details, title="Re-indexed", severity=severity)
        self.refresh_results()

    def on_indexing_bar_index_failed(self) -> None:
        """The status line says so."""
        self.status.index_state = "error"

    def on_indexing_bar_knowledge_changed(self, message: IndexingBar.KnowledgeChanged) -> None:
        """Say what changed and show the current results."""
        severity = "warning" if message.failed else "information"
        self.notify(message.summary, title="Knowledge re-indexed", severity=severity)
        self.refresh_results()

    def on_curation_entry_saved(self, message: Curation.EntrySaved) -> None:
        """Show the entry saved."""
        self.refresh_results(select=message.entry.id)

    def on_curation_entry_deleted(self) -> None:
        """Show what is left."""
        self.refresh_results(refocus=True)

    def on_curation_entry_restored(self, message: Curation.EntryRestored) -> None:
        """Show the entry again."""
        self.refresh_results(select=message.entry.id, refocus=True)

    def on_curation_entry_promoted(self, message: Curation.EntryPromoted) -> None:
        """Show the entry where it went; the index now lags behind one more file."""
        self.refresh_results(select=message.new_id)
        self.indexing.check_index()

    def on_curation_entry_refreshed(self, message: Curation.EntryRefreshed) -> None:
        """Show the results again."""
        self.refresh_results(select=message.entry_id)

    def on_curation_source_edited(self, message: Curation.SourceEdited) -> None:
        """Re-index a knowledge file that was just edited in ``$EDITOR``."""
        self.status.index_state = "indexing…"
        self.indexing.reindex([message.rel_path])

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
        self.results.take_focus()

    def action_focus_search(self) -> None:
        """Move to the query input (at once: the next key typed must land there)."""
        self.set_focus(self.query_one(SearchBar))

    @property
    def filters_visible(self) -> bool:
        """Whether the filter sidebar is on screen: as the user last chose with ctrl+g,
        else as the width has it (shown from :data:`FILTERS_WIDTH` columns)."""
        return self.sidebar.visible(narrow=self.has_class("-cramped"))

    def action_toggle_filters(self) -> None:
        """Go to the filters (shown first if they are hidden); from the filters, hide them
        and go back to the query. The results and the preview stay as they are."""
        focused, sidebar = self.focused, self.sidebar
        in_filters = focused is not None and (focused is sidebar or sidebar in focused.ancestors)
        if self.filters_visible and in_filters:
            sidebar.choose(False)
            self.action_focus_search()
        else:
            self.action_focus_filters()

    def action_focus_filters(self) -> None:
        """Show the filters and move to the category list."""
        if not self.filters_visible:
            self.sidebar.choose(True)
        self.sidebar.focus_categories()

    def action_review_notes(self) -> None:
        """Show the personal notes, which nobody else sees until promoted: agents' notes
        first (source ``session``), then yours (``manual``), then everything again."""
        chosen = self.sidebar.next_notes_source()
        if chosen is None and self.state.source is None:
            self.notify("No personal notes: everything in the memory is shared.", title="Notes")
            return
        self.sidebar.set_source(chosen)
        self.update_state(source=chosen)
        if chosen is None:
            return
        who = "agents' notes" if chosen is Source.SESSION else "your notes"
        self.notify(
            f"Showing {who}: personal until promoted (p on one). {self.status.notes} in all; "
            "`memory-tui promote --all-notes` promotes them after a review.",
            title="Notes to share",
        )

    def action_toggle_stale(self) -> None:
        """Show only the stale entries (or everything again)."""
        self.update_state(stale_only=not self.state.stale_only)

    def action_add_entry(self) -> None:
        """Open the form for a new entry."""
        self.results.curation.add()

    def action_undo_delete(self) -> None:
        """Put back the last deleted entry."""
        self.results.curation.undo()

    def action_export(self) -> None:
        """Open the export dialog for the results on screen."""
        self.results.export()

    def action_reindex(self) -> None:
        """Index what changed: the knowledge folder and the project's docs."""
        if self.indexing.reindex():
            self.status.index_state = "indexing…"
        else:
            self.notify("Re-indexing is already running.", severity="warning")

    def action_toggle_watch(self) -> None:
        """Start or stop watching the knowledge folder."""
        if self.indexing.watching:
            self.indexing.stop_watching()
            self.status.index_state = "ready"
            self.notify("Stopped watching the knowledge folder.", title="Watch")
        elif not self.indexing.start_watching():
            self.notify("There is no knowledge folder to watch.", severity="warning")
        else:
            self.status.index_state = "watching"
            self.notify("Edits to knowledge files are indexed as you save them.", title="Watching")

    def action_help(self) -> None:
        """Show the help screen."""
        from app.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
