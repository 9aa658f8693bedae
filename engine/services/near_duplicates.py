"""Near duplicates on add: a new note whose meaning a stored entry already holds.

Seed 002 ("Tier 2 — Near-duplicate via cosine similarity"): the new text is embedded as a
document, the stored entries nearest to it are looked up (the vector search's one query on
the store, through its ANN index in a memory large enough to have one), and one at cosine similarity
:data:`NEAR_DUPLICATE_SIMILARITY` or more is a near duplicate. Identical text is not one
here: exact duplicates are stored once already (content hash). What happens then is the
``near_duplicate`` setting: ``report`` (the default: add, and say which entry is close),
``keep`` (add, no check) or ``skip`` (do not add; answer with the existing entry).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from engine.core.models import Entry
from engine.embedding.document import embed_entries
from engine.search.vector import ANN_NPROBES, ANN_RERANKED
from engine.services.entries import NearDuplicate

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from engine.embedding.base import Embedder
    from engine.search.vector import VectorSearcher

log = logging.getLogger(__name__)

NEAR_DUPLICATE_SIMILARITY = 0.9
"""Cosine similarity from which two texts count as saying the same (seed 002's 0.9)."""
_NEIGHBOURS = 3


def find_near_duplicates(
    embedder: Embedder, vectors: VectorSearcher, drafts: Sequence[Entry]
) -> list[NearDuplicate | None]:
    """For each of ``drafts`` (entries as they would be stored), the stored entry nearest
    to it if it is a near duplicate, not identical. Embedded in one batch through the
    memory's embedding cache (labels and text, :mod:`engine.embedding.document`), so
    storing them afterwards does not embed them again."""
    embedded = embed_entries(embedder, drafts)
    try:  # one query of the store for every draft (a server's batch of adds)
        nearest = _nearest_each(vectors, embedded)
    except Exception as exc:  # an unreadable vector store must not stop the add
        log.warning("near-duplicate check skipped: %s", exc)
        return [None] * len(drafts)
    return [_closest(d, found) for d, found in zip(drafts, nearest, strict=True)]


def _nearest_each(
    vectors: VectorSearcher, embedded: npt.NDArray[np.float32]
) -> list[list[tuple[Entry, float]]]:
    """The :data:`_NEIGHBOURS` stored entries nearest to each row of ``embedded``, with
    the vector search's settings (entries waiting for their vector left out, as a vector
    search leaves them out), in one query of the store answered on this thread
    (:meth:`engine.storage.record_store.RecordStore.nearest_each_here`): in a server, the
    writer's check does not wait behind the searches' queries on LanceDB's loop thread."""
    waiting = vectors.waiting()
    asked = _NEIGHBOURS + min(waiting, _NEIGHBOURS)
    refine = max(1, -(-ANN_RERANKED // asked))
    found = vectors.store().nearest_each_here(embedded, asked, nprobes=ANN_NPROBES, refine=refine)
    pending = vectors.unembedded_among([entry_id for hits in found for entry_id, _ in hits])
    return [
        vectors.with_entries([h for h in hits if h[0] not in pending][:_NEIGHBOURS])
        for hits in found
    ]


def _closest(draft: Entry, nearest: Sequence[tuple[Entry, float]]) -> NearDuplicate | None:
    """The near duplicate of ``draft`` among its ``nearest`` stored entries (best first)."""
    own_hash = draft.content_hash
    for entry, similarity in nearest:
        if entry.content_hash == own_hash:
            continue  # the same text: the exact-duplicate check answers that
        if similarity >= NEAR_DUPLICATE_SIMILARITY:
            return NearDuplicate(entry, similarity)
        break  # nearest first: the rest are further away
    return None
