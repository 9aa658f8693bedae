"""What the results pane says: its header line, and the empty and error states.

Pure functions of the search request, so that each state reads as designed and can be
tested without running the app.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.tui.search_state import SearchRequest, SearchState
from app.words import plural

QUERY_CHARS = 40
"""Longest query quoted in the header."""


def entries(count: int) -> str:
    """``1 entry`` or ``N entries``."""
    return plural(count, "entry", "entries")


def quoted(query: str) -> str:
    """The query on one line, cut to :data:`QUERY_CHARS`, in quotes."""
    query = " ".join(query.split())
    return "“" + (query if len(query) <= QUERY_CHARS else query[: QUERY_CHARS - 1] + "…") + "”"


def filters_text(state: SearchState) -> str:
    """``category gotcha · source session``: the filters applied ("" for none)."""
    parts = []
    if state.category:
        parts.append(f"category {state.category.value}")
    if state.source:
        parts.append(f"source {state.source.value}")
    return " · ".join(parts)


def header_text(
    request: SearchRequest, count: int, total: int | None, warnings: Sequence[str] = ()
) -> str:
    """``12 results for “query” · hybrid · category gotcha`` and the like.

    ``total`` is how many entries match the filters when browsing (None: not known), so a
    cut listing reads ``showing 200 of 677 entries``.
    """
    state, parts = request.state, []
    filtered = bool(state.category or state.source or state.stale_only)
    if state.browsing and count == 0 and not filtered:
        parts.append("Empty memory")
    elif state.browsing:
        if total is None or count >= total:
            parts.append(f"{entries(count)}, newest first")
        else:
            parts.append(f"showing {count:,} of {entries(total)}, newest first")
    else:
        parts.append(f"{plural(count, 'result')} for {quoted(state.query)}")
        parts.append(request.effective_mode.value)
        if request.effective_mode is not state.mode:
            parts.append(f"{state.mode.value} once the model is ready")
    if filters_text(state):
        parts.append(filters_text(state))
    if state.stale_only:
        parts.append("stale only (F6)")
    parts += [w for w in warnings if "still loading" not in w]
    return " · ".join(parts)


def placeholder_text(request: SearchRequest, count: int) -> str:
    """What to show instead of an empty table ("" when there are results)."""
    state = request.state
    if count:
        return ""
    narrowed = filters_text(state)
    if state.stale_only:
        return stale_placeholder(state)
    if state.browsing and not narrowed:
        return (
            "Your memory is empty.\n\nAdd an entry with ctrl+n, or put markdown files "
            "under .claude/knowledge/ and re-index with ctrl+r."
        )
    if state.browsing:
        return f"No entries match {narrowed}.\n\nChoose “All” in the filters (ctrl+g)."
    within = f" ({narrowed})" if narrowed else ""
    return (
        f"No results for {quoted(state.query)}{within} in {request.effective_mode.value} "
        "mode.\n\nTry other words, keyword mode (F3) for exact terms, or clear the filters."
    )


def stale_placeholder(state: SearchState) -> str:
    """The empty stale listing (F6): it names the query and filters that narrowed it, so
    that it does not claim the whole memory is fresh when only these results are."""
    narrowed = filters_text(state)
    if state.browsing and not narrowed:
        return (
            "No stale entries: nothing cites code that has changed since it was written."
            "\n\nF6 shows every entry again."
        )
    what = "" if state.browsing else f" match {quoted(state.query)}"
    what += f" in {narrowed}" if narrowed else ""
    return (
        f"No stale entries{what}."
        "\n\nF6 shows every entry again; clear the query or the filters to look wider."
    )


def error_text(message: str) -> str:
    """The results pane after a failed search."""
    return (
        f"The search failed: {message}\n\nThe app is still running: edit the query or "
        "change the mode to try again."
    )
