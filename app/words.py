"""Words every face shares: a count with its noun in the right number."""

from __future__ import annotations


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 entry``, ``2 entries``, ``1,234 results``: the count and the word that agrees."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"
