"""What ``memory-tui add`` says on stderr about the entry it stored (or did not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import AddResult


def add_message(result: AddResult) -> str:
    """One line: added, already stored, or a near duplicate reported or skipped."""
    entry, near = result.entry, result.near_duplicate
    if near is not None:
        close = f"{near.entry.id} (similarity {near.similarity:.2f})"
        if not result.created:
            return f'not added: near duplicate of {close}; near_duplicate = "skip"'
        return f"added {entry.category.value} entry {entry.id}; near duplicate of {close}"
    if result.created:
        return f"added {entry.category.value} entry {entry.id}"
    return f"already stored as {entry.id} (nothing added)"
