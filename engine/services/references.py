"""References and promotion by use: the one rule every face goes through.

An entry is referenced each time a face hands it to a caller: a search's results (CLI,
MCP, the terminal app, the prompt hook and the server that answers it), an entry opened
in the app, a session's recalled notes. :func:`referenced` counts them
(``count_references``) and, with ``auto_promote``, promotes each entry that qualifies
(:func:`qualifies`: an unpromoted entry of :data:`PROMOTABLE_SOURCES` whose count reached
``promote_threshold``) — the same entries ``memory-tui promote --due`` promotes
(:func:`due_for_promotion`). Promotion is imported only when an entry qualifies: the
prompt hook, a process per prompt, counts and leaves.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.errors import EngineError
from engine.core.models import NOTE_SOURCES, PROMOTABLE_SOURCES, Entry
from engine.services.parts import parts_of

if TYPE_CHECKING:
    from engine.services.memory import Memory
    from engine.services.promote import PromoteResult

log = logging.getLogger(__name__)


def qualifies(entry: Entry, threshold: int) -> bool:
    """Whether ``entry`` is due for promotion at ``threshold`` references."""
    return (
        entry.source in PROMOTABLE_SOURCES
        and not entry.promoted
        and entry.reference_count >= threshold
    )


def due_for_promotion(memory: Memory) -> list[Entry]:
    """Every entry due for promotion (:func:`qualifies`), source by source, newest first."""
    threshold = memory.config.promote_threshold
    return [
        e
        for source in PROMOTABLE_SOURCES
        for e in memory.list(source=source)
        if qualifies(e, threshold)
    ]


def unpromoted_notes(memory: Memory) -> list[Entry]:
    """Every personal note (session and manual) not promoted yet, oldest first."""
    notes = [e for source in NOTE_SOURCES for e in memory.list(source=source) if not e.promoted]
    return sorted(notes, key=lambda e: e.created_at)


def referenced(memory: Memory, ids: Sequence[str]) -> tuple[PromoteResult, ...]:
    """Count that these entries were handed to a caller, then, with ``auto_promote``,
    promote those that qualify; returns the promotions. A promotion that is refused (a
    symlinked knowledge file, a file that indexes nothing) is logged and the entry kept."""
    if memory.config.count_references:
        parts_of(memory).records.count_references(ids)
    if not memory.config.auto_promote:
        return ()
    threshold = memory.config.promote_threshold
    due = [
        e
        for i in dict.fromkeys(ids)
        if (e := memory.get(i)) is not None and qualifies(e, threshold)
    ]
    if not due:
        return ()
    from engine.services.promote import promote

    done = []
    for entry in due:
        try:
            result = promote(memory, entry.id)
        except EngineError as exc:
            log.warning("auto-promotion of %s refused: %s", entry.id, exc.message)
            continue
        log.info(
            "auto-promoted %s entry %s (%d references) to %s",
            entry.source.value,
            entry.id,
            entry.reference_count,
            result.path,
        )
        done.append(result)
    return tuple(done)
