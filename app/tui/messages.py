"""Messages that workers post to the main screen.

Workers run blocking engine calls off the UI thread; they never touch widgets. They post
one of these messages instead, and the screen's handlers update the widgets.
"""

from __future__ import annotations

from pathlib import Path

from textual.message import Message

from app.tui.search_state import SearchRequest, SearchState
from engine import Entry, SearchResult

__all__ = ["SearchRequest", "SearchState"]


class ResultsReady(Message):
    """A search or listing finished."""

    def __init__(
        self,
        request: SearchRequest,
        results: tuple[SearchResult, ...],
        warnings: tuple[str, ...],
        total: int | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        """The request these results answer (stale when its generation is old)."""
        self.results = results
        """Best first; when browsing, newest first with a score of 0."""
        self.warnings = warnings
        """What the engine had to degrade (e.g. one retriever unavailable)."""
        self.total = total
        """When browsing, how many entries match the filters (the listing stops at a
        limit); None for a search."""


class CountsReady(Message):
    """Entry counts for the filter lists and the status line."""

    def __init__(self, total: int, by_category: dict[str, int], by_source: dict[str, int]) -> None:
        super().__init__()
        self.total = total
        """All entries in the memory."""
        self.by_category = by_category
        """Entries per category (restricted to the selected source, if any)."""
        self.by_source = by_source
        """Entries per source."""


class ModelReady(Message):
    """The embedding model finished loading: vector and hybrid search are available."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        """How long the load took."""


class EntrySaved(Message):
    """An entry was added or edited."""

    def __init__(self, entry: Entry, *, created: bool, edited: bool = False) -> None:
        super().__init__()
        self.entry = entry
        """The entry as stored."""
        self.created = created
        """False when an identical entry already existed (nothing was added)."""
        self.edited = edited
        """True for an edit of an existing entry."""


class EntryDeleted(Message):
    """An entry was deleted (it can be restored with undo)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry
        """The entry as it was before the delete."""


class EntryRestored(Message):
    """The last deleted entry was put back."""

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry
        """The restored entry (same id as before)."""


class EntryPromoted(Message):
    """An entry was promoted into a knowledge file."""

    def __init__(self, entry: Entry, path: str, new_id: str | None) -> None:
        super().__init__()
        self.entry = entry
        """The original entry (now deleted)."""
        self.path = path
        """The knowledge file written, relative to the project root."""
        self.new_id = new_id
        """The first entry indexed from that file."""


class IndexProgress(Message):
    """Re-indexing moved on to another file."""

    def __init__(self, done: int, total: int, path: str) -> None:
        super().__init__()
        self.done = done
        """Files finished."""
        self.total = total
        """Files to look at."""
        self.path = path
        """The file being indexed now ("" at the end)."""


class IndexFinished(Message):
    """Re-indexing finished."""

    def __init__(self, summary: str, errors: tuple[str, ...]) -> None:
        super().__init__()
        self.summary = summary
        """One line for a toast: files changed, entries created, seconds."""
        self.errors = errors
        """``path: message`` of each file that could not be indexed."""


class IndexChecked(Message):
    """The files the index reads were compared with the last index run."""

    def __init__(self, outdated: int) -> None:
        super().__init__()
        self.outdated = outdated
        """Files new, changed or removed since then (``Indexer.freshness``)."""


class ExportWritten(Message):
    """Results were written to a file."""

    def __init__(self, path: Path, fmt: str, count: int) -> None:
        super().__init__()
        self.path = path
        """The file written."""
        self.fmt = fmt
        """The format's name."""
        self.count = count
        """Results written."""


class SourceEdited(Message):
    """The user came back from editing a knowledge file in ``$EDITOR``."""

    def __init__(self, rel_path: str) -> None:
        super().__init__()
        self.rel_path = rel_path
        """The file, relative to the project root (re-indexed after the edit)."""


class KnowledgeChanged(Message):
    """The watcher re-indexed knowledge files that changed on disk."""

    def __init__(self, summary: str, *, failed: bool = False) -> None:
        super().__init__()
        self.summary = summary
        """What changed and what re-indexing did, for a toast."""
        self.failed = failed
        """Whether re-indexing failed (the watcher goes on)."""


class EntryRefreshed(Message):
    """A stale entry was refreshed (a note re-cited, or discovery run again)."""

    def __init__(self, entry_id: str, summary: str) -> None:
        super().__init__()
        self.entry_id = entry_id
        """The entry that was stale."""
        self.summary = summary
        """What was done, for a toast."""
