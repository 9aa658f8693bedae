"""Refreshing stale entries: the one rule the faces (``memory-tui stale --refresh``, the
terminal app's ``f``) go through.

An entry is stale when code it cites changed (:mod:`engine.freshness`). What refreshes it
depends on where it came from:

- a personal note (:data:`~engine.core.models.NOTE_SOURCES`) is reviewed: what its text
  cites is recorded again as of now;
- a discovery entry is renewed by running discovery again, incrementally (once for all
  the discovery entries given);
- a chunk of a knowledge file is not refreshed here: its file is the source, edit it.

Entries that are not stale are left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.models import NOTE_SOURCES, Entry, Source

if TYPE_CHECKING:
    from engine.services.discovery import DiscoveryReport
    from engine.services.memory import Memory

FILE_IS_SOURCE = "its knowledge file is the source: edit the file, then index"


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :func:`refresh` did with each entry it was given."""

    reviewed: tuple[Entry, ...] = ()
    """Notes whose citations were recorded again: no longer stale."""
    rediscovered: tuple[Entry, ...] = ()
    """Discovery entries renewed by the discovery run :attr:`discovery`."""
    discovery: DiscoveryReport | None = None
    kept: tuple[tuple[Entry, str], ...] = ()
    """Stale entries not refreshed, with why."""
    fresh: tuple[Entry, ...] = ()
    """Entries that were not stale: left alone."""

    def summary(self) -> str:
        """One line saying what was done."""
        said = []
        if self.reviewed:
            said.append(
                f"{len(self.reviewed)} note(s) marked as reviewed: they cite the code as it is"
            )
        if self.discovery is not None:
            report = self.discovery
            said.append(
                f"discovery: {len(report.changed_files)} files changed · entries "
                f"{report.created} new, {report.deleted} replaced"
            )
        if self.kept:
            said.append(f"{len(self.kept)} not refreshed: {self.kept[0][1]}")
        if self.fresh and not said:
            said.append("not stale: nothing to refresh")
        return "; ".join(said) or "nothing to refresh"


def refresh(memory: Memory, entries: Sequence[Entry]) -> Refreshed:
    """Refresh the stale ones of ``entries``; see the module docstring."""
    reasons = memory.stale_reasons([e.id for e in entries])
    stale = [e for e in entries if e.id in reasons]
    notes = tuple(e for e in stale if e.source in NOTE_SOURCES)
    found = tuple(e for e in stale if e.source is Source.DISCOVERY)
    kept = tuple((e, FILE_IS_SOURCE) for e in stale if e.source is Source.MARKDOWN)
    if notes:
        memory.mark_reviewed(notes)
    report = None
    if found:
        from engine.services.discovery import run_discovery

        report = run_discovery(memory, incremental=True)
    fresh = tuple(e for e in entries if e.id not in reasons)
    return Refreshed(notes, found, report, kept, fresh)
