"""What the CLI says on stderr about a write: the entry ``add`` stored (or did not), and
the files an index run could not read or index."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from engine import printable

if TYPE_CHECKING:
    from engine import AddResult, IndexReport


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


def report_index_problems(report: IndexReport) -> None:
    """An index run's warnings and errors, one line each on stderr; they quote file names
    and parser messages, so escape sequences in them are made inert."""
    for where, message in report.warnings:
        print(printable(f"memory-tui: warning: {where}: {message}"), file=sys.stderr)
    for where, message in report.errors:
        print(printable(f"memory-tui: error: {where}: {message}"), file=sys.stderr)
