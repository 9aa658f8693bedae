"""What the results pane asks of the engine: a search, or a listing when there is no query.

Called in the results pane's thread worker; a plain function of the memory and the
request, so that it touches no widget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import SearchResult

if TYPE_CHECKING:
    from app.tui.search_state import SearchRequest
    from engine import Memory

PREFIX_MIN_CHARS = 3
"""Shortest last word that is matched as a prefix while typing."""
SEARCH_LIMIT = 30
"""Results shown for a query."""
BROWSE_LIMIT = 200
"""Entries listed when there is no query."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a request brought back."""

    results: tuple[SearchResult, ...]
    """Best first; when browsing, newest first with a score of 0."""
    warnings: tuple[str, ...] = ()
    """What the engine had to degrade (e.g. one retriever unavailable)."""
    total: int | None = None
    """When browsing, how many entries match the filters (the listing stops at a limit);
    None for a search."""


def prefix_worthy(query: str) -> bool:
    """Whether the last word is long enough to match as a prefix (``vit`` → ``vitamin``).

    One- and two-letter prefixes match a large part of any index and make that keystroke
    slow, for results nobody reads; they match as whole words instead.
    """
    words = query.split()
    return bool(words) and len(words[-1]) >= PREFIX_MIN_CHARS


def ask(memory: Memory, request: SearchRequest) -> Answer:
    """Search for the request's query, or list the entries newest first without one."""
    state = request.state
    if state.browsing:
        listed = memory.listing(
            category=state.category,
            source=state.source,
            limit=BROWSE_LIMIT,
            stale_only=state.stale_only,
        )
        results = tuple(
            SearchResult(
                e, 0.0, stale=e.id in listed.stale, stale_reason=listed.stale.get(e.id, "")
            )
            for e in listed.entries
        )
        return Answer(results, total=listed.total)
    response = memory.search(
        state.query,
        mode=request.effective_mode,
        limit=SEARCH_LIMIT,
        category=state.category,
        source=state.source,
        stale_only=state.stale_only,
        prefix_last=prefix_worthy(state.query),
        wait_for_model=False,
    )
    return Answer(response.results, response.warnings)
