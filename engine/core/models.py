"""Domain types shared by every part of the engine.

Everything here is a frozen dataclass or an enum: cheap to import (no third-party
modules), safe to pass between threads, and trivially comparable in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

MAX_CONTENT_LENGTH = 10_000
"""Largest entry content, in characters, that any face accepts."""

MAX_KEYWORDS = 10
"""Most keywords one entry may carry."""

ENTRY_COLUMNS = (
    "id",
    "content",
    "category",
    "source",
    "filePath",
    "sectionTitle",
    "keywords",
    "referenceCount",
    "promoted",
    "promotedAt",
    "createdAt",
    "updatedAt",
    "contentHash",
    "lineStart",
    "lineEnd",
)
"""Stored fields of an entry (all but the vector), as named in the store and the mirror."""


class Category(StrEnum):
    """What kind of knowledge an entry holds; used for filtering."""

    ARCHITECTURE = "architecture"
    COMPONENT = "component"
    DOMAIN = "domain"
    PATTERN = "pattern"
    GOTCHA = "gotcha"
    DISCOVERY = "discovery"
    GENERAL = "general"


class Source(StrEnum):
    """How an entry came to exist."""

    MARKDOWN = "markdown"
    """Indexed from a markdown file: the knowledge folder or the project's documentation."""
    SESSION = "session"
    """Added by an agent during a session (MCP)."""
    DISCOVERY = "discovery"
    """Produced by codebase analysis."""
    MANUAL = "manual"
    """Added by a person (CLI or TUI)."""


class SearchMode(StrEnum):
    """Which retriever(s) a search uses."""

    VECTOR = "vector"
    KEYWORD = "keyword"
    HYBRID = "hybrid"


@dataclass(frozen=True, slots=True)
class Entry:
    """One unit of memory: a chunk of a knowledge file or a free-standing note."""

    id: str
    content: str
    category: Category = Category.GENERAL
    source: Source = Source.MANUAL
    file_path: str = ""
    """Path relative to the project root (markdown and discovery entries)."""
    section_title: str = ""
    """Heading path of the chunk, e.g. ``Install > Linux``."""
    keywords: tuple[str, ...] = ()
    reference_count: int = 0
    promoted: bool = False
    promoted_at: str = ""
    created_at: str = ""
    updated_at: str = ""
    content_hash: str = ""
    line_start: int = 0
    """First source line (1-based) of a markdown chunk; 0 when not from a file."""
    line_end: int = 0

    @property
    def title(self) -> str:
        """A one-line label: the section title, else the first non-blank line."""
        if self.section_title:
            return self.section_title
        for line in self.content.splitlines():
            stripped = line.strip().lstrip("#").strip()
            if stripped:
                return stripped
        return ""

    @property
    def location(self) -> str:
        """``path:line`` for file-backed entries, the bare path, or ``""``."""
        if not self.file_path:
            return ""
        if self.line_start:
            return f"{self.file_path}:{self.line_start}"
        return self.file_path


@dataclass(frozen=True, slots=True)
class ScoreExplanation:
    """Why a result ranked where it did.

    Ranks are 1-based positions in each retriever's list; ``None`` when the entry
    was not in that list.
    """

    vector_rank: int | None = None
    vector_similarity: float | None = None
    """Cosine similarity between query and entry embeddings (-1..1)."""
    keyword_rank: int | None = None
    keyword_score: float | None = None
    """The raw BM25 of the keyword match (FTS5's ``bm25()`` negated: higher is better,
    unbounded; its scale depends on the query's words and the memory)."""
    fused_score: float | None = None
    """The fused value before scaling (hybrid only): a sum of z-scores or of 1/(k + rank)."""
    gate: str | None = None
    """Which half of the evidence carried the result through the relevance gate:
    ``"similarity"`` (its cosine), ``"terms"`` (the query's words it holds, weighed), or
    ``"vector_pending"`` (not embedded yet: kept on its keyword match); None where no gate
    ran (keyword)."""
    vector_weight: float | None = None
    """The vector list's weight in this query's z-score fusion (hybrid only): 1 when the
    two lists agree on their first results, down to 0.5 when they share none."""
    coverage: float | None = None
    """The share (0..1) of the query's information the entry holds: its informative
    words weighed by their rarity in this memory (:mod:`engine.search.scoring`)."""
    folded: int = 0
    """How many more sections of the same file matched, at a lower score, and are folded
    under this result instead of listed (see :func:`engine.search.gate.fold_by_file`)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """An entry found by a search, with its score: the relevance (0..1) of
    :mod:`engine.search.scoring`, the same scale for every query and memory."""

    entry: Entry
    score: float
    explanation: ScoreExplanation = field(default_factory=ScoreExplanation)
    stale: bool = False
    """The entry cites code that has changed since it was written (see engine.freshness.stale)."""
    stale_reason: str = ""
    """Why it is stale, e.g. ``compute_total is no longer defined in billing.py``."""
