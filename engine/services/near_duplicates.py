"""Near duplicates on add: a new note whose meaning a stored entry already holds.

Seed 002 ("Tier 2 — Near-duplicate via cosine similarity"): the new text is embedded as a
document, the stored entries nearest to it are looked up (through the store's ANN index in
a memory large enough to have one, not a scan of every vector), and one at cosine similarity
:data:`NEAR_DUPLICATE_SIMILARITY` or more is a near duplicate. Identical text is not one
here: exact duplicates are stored once already (content hash). What happens then is the
``near_duplicate`` setting: ``report`` (the default: add, and say which entry is close),
``keep`` (add, no check) or ``skip`` (do not add; answer with the existing entry).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from engine.core.models import Entry
from engine.embedding.document import embed_entries
from engine.services.entries import NearDuplicate
from engine.storage import maintenance

if TYPE_CHECKING:
    from engine.embedding.base import Embedder
    from engine.search.vector import VectorSearcher

log = logging.getLogger(__name__)

NEAR_DUPLICATE_SIMILARITY = 0.9
"""Cosine similarity from which two texts count as saying the same (seed 002's 0.9)."""
_NEIGHBOURS = 3


def find_near_duplicate(
    embedder: Embedder, vectors: VectorSearcher, draft: Entry
) -> NearDuplicate | None:
    """The stored entry nearest to ``draft`` (the entry as it would be stored) if it is a
    near duplicate, not identical. Embedded through the memory's embedding cache (its
    labels and text, :mod:`engine.embedding.document`), so storing it afterwards does
    not embed it again."""
    vector = embed_entries(embedder, [draft])[0]
    own_hash = draft.content_hash
    try:
        nearest = _nearest(vectors, vector)
    except Exception as exc:  # an unreadable vector store must not stop the add
        log.warning("near-duplicate check skipped: %s", exc)
        return None
    for entry, similarity in nearest:
        if entry.content_hash == own_hash:
            continue  # the same text: the exact-duplicate check answers that
        if similarity >= NEAR_DUPLICATE_SIMILARITY:
            return NearDuplicate(entry, similarity)
        break  # nearest first: the rest are further away
    return None


def _nearest(vectors: VectorSearcher, vector: Any) -> list[tuple[Entry, float]]:
    """The stored entries nearest to ``vector``: through the store's ANN index when the
    memory is large enough to have one (:data:`maintenance.ANN_MIN_ROWS`), rows added
    since it was built scanned by LanceDB; else the exact search of smaller memories
    (the in-memory copy, or the embedding cache's vectors in a one-shot process)."""
    if vectors.mirror.count() >= maintenance.ANN_MIN_ROWS:
        store = vectors.store()
        if store.has_vector_index():
            found = store.vector_search(vector, _NEIGHBOURS)
            pending = vectors.unembedded_among([e.id for e, _ in found])  # placeholders
            return [(e, sim) for e, sim in found if e.id not in pending]
    return vectors.search(vector, _NEIGHBOURS)
