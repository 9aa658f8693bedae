"""The main screen's thread workers: search (or list), count, load the model.

A mixin of :class:`~app.tui.screens.main.MainScreen`. Each worker calls the engine off the
UI thread and posts a message from :mod:`app.tui.messages`; none touches a widget.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from app.tui import messages as msg
from engine import SearchMode, SearchResult

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine import Memory

    _Base = Screen[None]
else:
    _Base = object

PREFIX_MIN_CHARS = 3
"""Shortest last word that is matched as a prefix while typing."""
SEARCH_LIMIT = 30
"""Results shown for a query."""
BROWSE_LIMIT = 200
"""Entries listed when there is no query."""


def prefix_worthy(query: str) -> bool:
    """Whether the last word is long enough to match as a prefix (``vit`` → ``vitamin``).

    One- and two-letter prefixes match a large part of any index and make that keystroke
    slow, for results nobody reads; they match as whole words instead.
    """
    words = query.split()
    return bool(words) and len(words[-1]) >= PREFIX_MIN_CHARS


class SearchWorkers(_Base):
    """Workers that read the memory (mixed into the main screen)."""

    memory: Memory
    state: msg.SearchState

    def run_search(self, request: msg.SearchRequest) -> None:
        """Search (or list, without a query) and post :class:`~app.tui.messages.ResultsReady`.

        Runs in a thread worker started by :meth:`_start_search`.
        """
        worker = get_current_worker()
        state = request.state
        total: int | None = None
        if state.browsing:
            listed = self.memory.listing(
                category=state.category,
                source=state.source,
                limit=BROWSE_LIMIT,
                stale_only=state.stale_only,
            )
            results: tuple[SearchResult, ...] = tuple(
                SearchResult(
                    e, 0.0, stale=e.id in listed.stale, stale_reason=listed.stale.get(e.id, "")
                )
                for e in listed.entries
            )
            total = listed.total
            warnings: tuple[str, ...] = ()
        else:
            response = self.memory.search(
                state.query,
                mode=request.effective_mode,
                limit=SEARCH_LIMIT,
                category=state.category,
                source=state.source,
                stale_only=state.stale_only,
                prefix_last=prefix_worthy(state.query),
                wait_for_model=False,
            )
            results, warnings = response.results, response.warnings
        if not worker.is_cancelled:
            self.post_message(msg.ResultsReady(request, results, warnings, total))

    @work(thread=True, exclusive=True, group="counts", exit_on_error=False, description="count")
    def refresh_counts(self) -> None:
        """Count entries per category and source; posts :class:`~app.tui.messages.CountsReady`."""
        counts = self.memory.counts(source=self.state.source)
        self.post_message(
            msg.CountsReady(counts.total, dict(counts.by_category), dict(counts.by_source))
        )

    @work(thread=True, group="model", exit_on_error=False, description="load the model")
    def load_model(self) -> None:
        """Load the embedding model and open the vector store, off the UI thread."""
        started = time.perf_counter()
        self.memory.warm_up(mode=SearchMode.HYBRID)  # a store that cannot open says so now
        self.post_message(msg.ModelReady(time.perf_counter() - started))
