"""What the main screen searches for: the state it owns and the requests it sends down.

Plain data (no widget, no message): the screen keeps one :class:`SearchState`, changes it
as the user types or filters, and hands each version to the results pane as a numbered
:class:`SearchRequest`, so that an answer to an older request can be told and dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Category, SearchMode, Source


@dataclass(frozen=True, slots=True)
class SearchState:
    """What the results pane should show: the screen owns it and pushes it down."""

    query: str = ""
    mode: SearchMode = SearchMode.HYBRID
    category: Category | None = None
    source: Source | None = None
    stale_only: bool = False
    """Show only entries whose cited code changed (F6)."""

    @property
    def browsing(self) -> bool:
        """True when there is no query: entries are listed newest first."""
        return not self.query.strip()


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One search (or listing) as sent to a worker; ``generation`` identifies it."""

    state: SearchState
    generation: int
    effective_mode: SearchMode
    """The mode actually asked of the engine (keyword while the model is loading)."""
