"""What an index run did (:class:`IndexReport`) and what it plans per file (:class:`FilePlan`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the report alone is what a client of a running server imports)
    from engine.core.models import Entry
    from engine.services.entries import NewEntry

__all__ = ["FilePlan", "IndexFreshness", "IndexReport"]


@dataclass(slots=True)
class IndexReport:
    """What an index run did (or, for a dry run, would do)."""

    files_total: int = 0
    files_processed: int = 0
    files_skipped: int = 0
    files_removed: int = 0
    entries_created: int = 0
    entries_updated: int = 0
    entries_deleted: int = 0
    embedded: int = 0
    """Chunks sent to the embedding model (cache misses)."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    changed_files: list[str] = field(default_factory=list)
    seconds: float = 0.0
    vector_index: str = ""
    """What was done to the store's ANN index ("" when nothing was due)."""
    dry_run: bool = False
    pending: int = 0
    """Entries still waiting for their vector when the run returned (its embedding phase
    was skipped or stopped early; the next ``index`` or a long-lived process embeds them)."""
    embed_seconds: float = 0.0
    """Of ``seconds``, the time spent embedding (the second phase)."""


@dataclass(frozen=True, slots=True)
class IndexFreshness:
    """How far the index is behind the files it reads (``Indexer.freshness``): what
    ``memory-tui status`` and the terminal app's status line report."""

    files_total: int
    """Files the index reads: the knowledge folder's markdown and the project's docs."""
    outdated: int
    """Files new or changed since the last index run, plus files indexed then and gone
    now (every file, after a change of the chunking settings or of the model)."""


@dataclass(slots=True)
class FilePlan:
    """What indexing one file changes: chunks to create, entries to refresh or delete."""

    rel: str
    digest: str
    stat: tuple[int, ...] | None = None
    """The file's stat before it was read (:mod:`engine.services.index_reads`)."""
    creates: list[NewEntry] = field(default_factory=list)
    updates: list[Entry] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    aliases: dict[str, int] = field(default_factory=dict)
    page: bool = False
    """A documentation page (a knowledge note has no cap)."""
    cap: int | None = None
    """The most chunks the page was allowed (``None``: no cap); kept in ``meta.json``."""
