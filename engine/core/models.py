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


class Category(StrEnum):
    """What kind of knowledge an entry holds; used for filtering."""

    ARCHITECTURE = "architecture"
    COMPONENT = "component"
    DOMAIN = "domain"
    PATTERN = "pattern"
    GOTCHA = "gotcha"
    DISCOVERY = "discovery"
    GENERAL = "general"


MERGED_TITLES = " · "
"""Joins the heading paths of a page's sections merged into one entry (a long page held to
its share of the memory: :func:`engine.markdown.pages.fit_page`)."""


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


NOTE_SOURCES: tuple[Source, ...] = (Source.SESSION, Source.MANUAL)
"""Personal notes: their text is scanned for what it cites of the code, and a stale one
is refreshed by reviewing it (re-recording what it cites)."""
PROMOTABLE_SOURCES: tuple[Source, ...] = (Source.SESSION, Source.DISCOVERY, Source.MANUAL)
"""Entries that live only in the memory: promotion moves them into a knowledge file, by
hand or, with ``auto_promote``, once their reference count reaches ``promote_threshold``."""


class SearchMode(StrEnum):
    """Which retriever(s) a search uses."""

    VECTOR = "vector"
    KEYWORD = "keyword"
    HYBRID = "hybrid"


class ExportFormat(StrEnum):
    """An output format; the value is the name users type (``--format csv``)."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    MD = "md"
    XML = "xml"


class Fusion(StrEnum):
    """How a hybrid search fuses its keyword and vector lists (``fusion``)."""

    ZSCORE = "zscore"
    """Sums each list's z-normalised scores."""
    RRF = "rrf"
    """Reciprocal Rank Fusion: sums 1/(k + rank)."""


class SecretPolicy(StrEnum):
    """What storing content that looks like a secret does (``secret_policy``)."""

    REJECT = "reject"
    REDACT = "redact"


class NearDuplicatePolicy(StrEnum):
    """What adding a note close in meaning to a stored one does (``near_duplicate``)."""

    REPORT = "report"
    """Add it, and say which entry is close."""
    KEEP = "keep"
    """Add it silently."""
    SKIP = "skip"
    """Do not add it: answer with the stored entry."""


class Gate(StrEnum):
    """Which half of the evidence carried a result through the relevance gate."""

    SIMILARITY = "similarity"
    """Its cosine similarity to the query."""
    TERMS = "terms"
    """The query's words it holds, weighed by their rarity."""
    VECTOR_PENDING = "vector_pending"
    """Not embedded yet: kept on its keyword match."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One unit of memory: a chunk of a knowledge file or a free-standing note. Its
    fields are declared for the stores and faces in :data:`ENTRY_FIELDS`, in this order."""

    id: str
    content: str
    category: Category = Category.GENERAL
    source: Source = Source.MANUAL
    file_path: str = ""
    """Path relative to the project root (markdown and discovery entries)."""
    line_start: int = 0
    """First source line (1-based) of a markdown chunk; 0 when not from a file."""
    line_end: int = 0
    section_title: str = ""
    """Heading path of the chunk, e.g. ``Install > Linux``; the paths of a page's sections
    merged into one entry are joined by :data:`MERGED_TITLES`."""
    keywords: tuple[str, ...] = ()
    reference_count: int = 0
    promoted: bool = False
    promoted_at: str = ""
    created_at: str = ""
    updated_at: str = ""
    content_hash: str = ""

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


class FieldKind(StrEnum):
    """What sort of value an entry field holds; each store and face maps a kind to its own
    type (SQLite, Arrow, JSON), so a new field of a known kind needs no code there."""

    ID = "id"
    """Non-empty text that names the entry."""
    TEXT = "text"
    CATEGORY = "category"
    SOURCE = "source"
    KEYWORDS = "keywords"
    """A tuple of words, stored as a JSON array in text."""
    COUNT = "count"
    """A whole number from 0."""
    FLAG = "flag"
    LINE = "line"
    """A 1-based line number, 0 when unknown (``null`` in JSON)."""


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of :class:`Entry`: how it is named and kept everywhere."""

    attr: str
    """The attribute of :class:`Entry`."""
    column: str
    """The column in the store and the mirror."""
    kind: FieldKind
    description: str
    """What it means, for people and clients (JSON Schema, MCP output schema)."""
    json_key: str = ""
    """Its key in the JSON shape; the column's name when empty."""
    searchable: bool = False
    """Indexed for keyword search (the mirror's FTS5 table, in declaration order)."""
    exported: bool = False
    """A column of the tabular export formats (csv, xml)."""
    since: int = 1
    """The store schema version that added it: stores written before it get the column
    with its kind's empty value when they are opened (see the stores' migrations)."""

    @property
    def key(self) -> str:
        """The JSON key."""
        return self.json_key or self.column


ENTRY_FIELDS: tuple[EntryField, ...] = (
    EntryField(
        "id",
        "id",
        FieldKind.ID,
        "Stable id (32 hex digits for stored entries).",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "content", "content", FieldKind.TEXT, "The full text.", searchable=True, exported=True
    ),
    EntryField(
        "category",
        "category",
        FieldKind.CATEGORY,
        "What kind of knowledge it holds.",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "source",
        "source",
        FieldKind.SOURCE,
        "markdown: a knowledge file; session: an agent's note; discovery: codebase "
        "analysis; manual: added by a person.",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "file_path",
        "filePath",
        FieldKind.TEXT,
        "File the entry comes from or cites, relative to the project root ('' if none).",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "line_start",
        "lineStart",
        FieldKind.LINE,
        "First line in filePath (null if unknown).",
        json_key="line",
        exported=True,
        since=2,
    ),
    EntryField(
        "line_end",
        "lineEnd",
        FieldKind.LINE,
        "Last line in filePath (null if unknown).",
        since=2,
    ),
    EntryField(
        "section_title",
        "sectionTitle",
        FieldKind.TEXT,
        "Heading path of the section, e.g. 'Install > Linux'.",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "keywords",
        "keywords",
        FieldKind.KEYWORDS,
        "Terms a later question would use to find it.",
        searchable=True,
        exported=True,
    ),
    EntryField(
        "reference_count",
        "referenceCount",
        FieldKind.COUNT,
        "How often searches returned it.",
    ),
    EntryField(
        "promoted",
        "promoted",
        FieldKind.FLAG,
        "Moved into a knowledge file (shared through git).",
    ),
    EntryField("promoted_at", "promotedAt", FieldKind.TEXT, "When it was promoted ('' if not)."),
    EntryField("created_at", "createdAt", FieldKind.TEXT, "ISO 8601 time of creation."),
    EntryField("updated_at", "updatedAt", FieldKind.TEXT, "ISO 8601 time of the last change."),
    EntryField(
        "content_hash",
        "contentHash",
        FieldKind.TEXT,
        "SHA-256 of the content (duplicates are stored once).",
        since=2,
    ),
)
"""Every stored field of an entry (all but the vector), in one place: the mirror's and
the store's schemas and migrations, row reading and writing, the JSON shape, the export
columns and the MCP output model are derived from it, and the shipped JSON Schema files
are checked against it by the tests. To add a field: an attribute of :class:`Entry` and
an item here (``since`` the next store version), and its key in the two JSON Schema files."""

ENTRY_COLUMNS: tuple[str, ...] = tuple(f.column for f in ENTRY_FIELDS)
"""Stored fields of an entry (all but the vector), as named in the store and the mirror."""


@dataclass(frozen=True, slots=True)
class ScoreExplanation:
    """Why a result ranked where it did.

    Ranks are 1-based positions in each retriever's list; ``None`` when the entry
    was not in that list. Each field's ``key`` is its name in the JSON shape, in this
    order (``search_result.schema.json``; the MCP output model is derived from both).
    """

    vector_rank: int | None = field(default=None, metadata={"key": "vectorRank"})
    vector_similarity: float | None = field(default=None, metadata={"key": "vectorSimilarity"})
    """Cosine similarity between query and entry embeddings (-1..1)."""
    keyword_rank: int | None = field(default=None, metadata={"key": "keywordRank"})
    keyword_score: float | None = field(default=None, metadata={"key": "bm25"})
    """The raw BM25 of the keyword match (FTS5's ``bm25()`` negated: higher is better,
    unbounded; its scale depends on the query's words and the memory)."""
    fused_score: float | None = field(default=None, metadata={"key": "fusedScore"})
    """The fused value before scaling (hybrid only): a sum of z-scores or of 1/(k + rank)."""
    vector_weight: float | None = field(default=None, metadata={"key": "vectorWeight"})
    """The vector list's weight in this query's z-score fusion (hybrid only): 1 when the
    two lists agree on their first results, down to 0.5 when they share none."""
    coverage: float | None = field(default=None, metadata={"key": "coverage"})
    """The share (0..1) of the query's information the entry holds: its informative
    words weighed by their rarity in this memory (:mod:`engine.search.scoring`)."""
    gate: Gate | None = field(default=None, metadata={"key": "gate"})
    """Which half of the evidence carried the result through the relevance gate
    (:class:`Gate`); None where no gate ran (keyword)."""
    folded: int = field(default=0, metadata={"key": "folded"})
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
