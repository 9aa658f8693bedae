"""What the results pane says: its header line, and the empty and error states.

Pure functions of the search request, so that each state reads as designed and can be
tested without running the app.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.tui.messages import SearchRequest

QUERY_CHARS = 40
"""Longest query quoted in the header."""


def header_text(
    request: SearchRequest, count: int, total: int | None, warnings: Sequence[str] = ()
) -> str:
    """``12 results for “query” · hybrid · category gotcha`` and the like."""
    state, parts = request.state, []
    filtered = bool(state.category or state.source or state.stale_only)
    if state.browsing and count == 0 and not filtered:
        parts.append("Empty memory")
    elif state.browsing:
        total = count if total is None else total
        parts.append(
            f"{count:,} entries, newest first"
            if count >= total or filtered
            else f"newest {count:,} of {total:,} entries"
        )
    else:
        query = " ".join(state.query.split())
        query = query if len(query) <= QUERY_CHARS else query[: QUERY_CHARS - 1] + "…"
        plural = "s" * (count != 1)
        parts.append(f"{count:,} result{plural} for “{query}” · {request.effective_mode.value}")
        if request.effective_mode is not state.mode:
            parts.append(f"{state.mode.value} once the model is ready")
    if state.category:
        parts.append(f"category {state.category.value}")
    if state.source:
        parts.append(f"source {state.source.value}")
    if state.stale_only:
        parts.append("stale only (F6)")
    parts += [w for w in warnings if "still loading" not in w]
    return " · ".join(parts)


def placeholder_text(request: SearchRequest, count: int) -> str:
    """What to show instead of an empty table ("" when there are results)."""
    state = request.state
    if count:
        return ""
    if state.stale_only:
        return (
            "No stale entries: nothing cites code that has changed since it was written."
            "\n\nF6 shows every entry again."
        )
    if state.browsing and not (state.category or state.source):
        return (
            "Your memory is empty.\n\nAdd an entry with ctrl+n, or put markdown files "
            "under .claude/knowledge/ and re-index with ctrl+r."
        )
    if state.browsing:
        return "No entries match these filters.\n\nChoose “All” in the filters (ctrl+g)."
    return (
        f"No results for “{state.query.strip()}” in {request.effective_mode.value} mode."
        "\n\nTry other words, keyword mode (F3) for exact terms, or clear the filters."
    )


def error_text(message: str) -> str:
    """The results pane after a failed search."""
    return (
        f"The search failed: {message}\n\nThe app is still running: edit the query or "
        "change the mode to try again."
    )
