"""The health check of the vectors themselves (see :mod:`engine.services.health`): how many
entries wait for theirs after the first phase of indexing (keyword search finds them, vector
search not yet), and what computes them."""

from __future__ import annotations

from engine.services.health_report import HealthReport, Status
from engine.services.memory import Memory
from engine.services.parts import parts_of

EMBED = "memory-tui embed"


def check_vectors(memory: Memory, report: HealthReport) -> None:
    """One line: every entry embedded, or how many wait (a warning, not a problem:
    searches work, hybrid search ranks those by their keywords)."""
    parts = parts_of(memory)
    total, pending = parts.mirror.count(), parts.mirror.unembedded_count()
    if not pending:
        report.add("vectors", Status.OK, f"all {total:,} entries embedded")
        return
    report.add(
        "vectors",
        Status.WARNING,
        f"{pending:,} of {total:,} entries wait for their vector (found by keyword search, "
        "not yet by vector search; serve-mcp, the TUI and watch embed them in the background)",
        EMBED,
    )
