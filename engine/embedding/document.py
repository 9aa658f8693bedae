"""What an entry's vector is computed from, and the key the embedding cache keeps it under.

A short note rarely repeats the words it was filed under: "use --no-cache in CI" saved as a
*gotcha* with the keywords ``docker, build`` says nothing of Docker. Its vector is therefore
computed from its **labels** on a line of their own — the title a person gave it, its
category, its keywords — followed by its text (:func:`document_text`); keyword search
already reads those fields (FTS5 columns, weighted above the text). Entries whose text
opens with its own heading get no title label: a markdown chunk starts with its heading
path (:mod:`engine.markdown.chunking`), a discovery entry with "Python code: name in
path". Categories every entry of a kind shares (``general``, ``discovery``) are no label.
A page's sections merged into one entry (a long page held to its share of the memory) are
the exception: the text opens with the first section's heading only, and the model reads
an entry's first 256 tokens, so the headings of the sections after it are a label
(:func:`merged_headings`): a search for the fourth of six merged sections ("Public access
to RDS instances", cJSON's "Case Sensitivity") finds the entry by meaning too.

An entry without labels is embedded from its text alone, exactly as before labels
existed, so memories of plain notes (and the evaluation sets, bench/RESULTS.md) keep their
vectors. The embedding cache keys a labelled entry's vector by :func:`document_key`, a
hash of its labels and its content hash (no need to read the text to find a vector);
an unlabelled entry's key is its content hash.

Vectors stored before labels existed were computed from the text alone; they stay in the
store until the entry is re-embedded (an edit, ``memory-tui doctor --rebuild-store``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.hashing import content_hash
from engine.core.models import MERGED_TITLES, Category, Entry, Source

if TYPE_CHECKING:
    from engine.embedding.base import Embedder, Vectors

UNLABELLED_CATEGORIES = frozenset({Category.GENERAL.value, Category.DISCOVERY.value})
"""Categories that say nothing about one entry (the default; every analyser entry's)."""
TITLED_SOURCES = frozenset({Source.SESSION.value, Source.MANUAL.value})
"""Sources whose text does not open with its own heading, so a title is a label."""
SEPARATOR = " — "


def labels_of(source: str, category: str, keywords: Sequence[str], section_title: str) -> str:
    """The label line of an entry with these fields ("" when it has none)."""
    if source == Source.DISCOVERY.value:
        return ""  # its text opens with "<language> code: <name> in <path>"
    parts = []
    if section_title.strip() and source in TITLED_SOURCES:
        parts.append(" ".join(section_title.split()))
    elif merged := merged_headings(section_title):
        parts.append(merged)
    if category not in UNLABELLED_CATEGORIES:
        parts.append(category)
    words = [" ".join(k.split()) for k in keywords if k.strip()]
    if words:
        parts.append(", ".join(words))
    return SEPARATOR.join(parts)


def merged_headings(section_title: str) -> str:
    """The last headings of the sections after the first in a title of merged sections
    (``A > B > C · A > B > D · A > E`` → ``D · E``), or ""; the text opens with the first."""
    _, *after = section_title.split(MERGED_TITLES)
    headings = (" ".join(path.rpartition(" > ")[2].split()) for path in after)
    return MERGED_TITLES.join(dict.fromkeys(h for h in headings if h))


def labels(entry: Entry) -> str:
    """The label line of ``entry`` (see the module docstring)."""
    return labels_of(entry.source.value, entry.category.value, entry.keywords, entry.section_title)


def document_text(entry: Entry) -> str:
    """The text ``entry``'s vector is computed from: its labels, then its content."""
    head = labels(entry)
    return f"{head}\n{entry.content}" if head else entry.content


def key_of(digest: str, head: str) -> str:
    """The cache key of a text with content hash ``digest`` under the label line ``head``."""
    return content_hash(f"{head}\x00{digest}") if head else digest


def document_key(entry: Entry) -> str:
    """The embedding cache's key for ``entry``'s vector (see the module docstring)."""
    return key_of(entry.content_hash or content_hash(entry.content), labels(entry))


def embed_entries(embedder: Embedder, entries: Sequence[Entry]) -> Vectors:
    """The vectors of ``entries`` (their :func:`document_text`), through the embedding
    cache when ``embedder`` has one, under their :func:`document_key`."""
    texts = [document_text(e) for e in entries]
    return embedder.embed_keyed(texts, [document_key(e) for e in entries])


def cached_entries(embedder: Embedder, entries: Sequence[Entry]) -> tuple[Any, list[int]]:
    """The embedding cache's vectors of ``entries`` without running the model, and the
    rows it has none for (all zeros); every row when ``embedder`` keeps no cache."""
    return embedder.cached_keyed([document_key(e) for e in entries])
