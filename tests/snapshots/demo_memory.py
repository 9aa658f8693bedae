"""A deterministic memory for snapshots: fixed ids, timestamps and (fake) vectors."""

from __future__ import annotations

from pathlib import Path

from fakes import FakeEmbedder

from engine.core.hashing import content_hash
from engine.services.memory import Memory
from engine.core.models import Category, Entry, Source

ENTRIES = (
    (
        "LanceDB filters need double quotes around camelCase columns such as "
        '`"contentHash"`; unquoted names are lower-cased and match nothing.',
        Category.GOTCHA,
        Source.MANUAL,
        ("lancedb", "sql"),
        "",
        0,
    ),
    (
        "# Storage\n\nEntries live in **LanceDB** (the store of record); the SQLite FTS5 "
        "index is derived from it and repairs itself after a crash.",
        Category.ARCHITECTURE,
        Source.MARKDOWN,
        (),
        ".claude/knowledge/architecture/storage.md",
        1,
    ),
    (
        "Hybrid search fuses the vector and keyword rankings with Reciprocal Rank Fusion "
        "(k = 60), then drops candidates that are neither close nor complete matches.",
        Category.PATTERN,
        Source.MARKDOWN,
        ("rrf", "search"),
        ".claude/knowledge/patterns/search.md",
        12,
    ),
    (
        "Keyword search quotes every term, so FTS5 syntax in user text never raises.",
        Category.GOTCHA,
        Source.SESSION,
        ("fts5",),
        "",
        0,
    ),
    (
        "The TUI loads the embedding model in a background worker; keyword search works "
        "before it is ready.",
        Category.COMPONENT,
        Source.DISCOVERY,
        (),
        "",
        0,
    ),
)


def demo_memory(root: Path) -> Memory:
    """A memory at ``root`` holding :data:`ENTRIES` with fixed ids and dates."""
    memory = Memory.open(root, embedder=FakeEmbedder())
    entries = [
        Entry(
            id=f"entry{i:02d}",
            content=content,
            category=category,
            source=source,
            file_path=path,
            keywords=keywords,
            reference_count=i,
            created_at=f"2025-06-0{i}T09:30:00.000000+00:00",
            updated_at=f"2025-06-0{i}T10:45:00.000000+00:00",
            content_hash=content_hash(content),
            line_start=line,
            line_end=line + 4 if line else 0,
        )
        for i, (content, category, source, keywords, path, line) in enumerate(ENTRIES, start=1)
    ]
    memory.restore(entries)
    return memory
