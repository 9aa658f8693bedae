"""Words every face shares: a count with its noun in the right number, and the nearest
known name to a mistyped one."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 entry``, ``2 entries``, ``1,234 results``: the count and the word that agrees."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'search'?)`` for the known name nearest to ``name`` (difflib's
    ratio of at least 0.6), or ``""`` when none is near: the hint the CLI gives for a
    mistyped command, option or choice and the MCP server for a mistyped argument."""
    close = get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
