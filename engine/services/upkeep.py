"""Use cases that keep a memory ready rather than change what it says: the model loaded,
vectors computed for the entries waiting for them, the store compacted."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.services.embedding_backlog import BacklogReport, Progress
    from engine.services.parts import Parts


def model_loaded(parts: Parts) -> bool:
    """Whether vector search can run without waiting for the model to load."""
    return parts.embedder.loaded


def load_model(parts: Parts) -> None:
    """Load the model now (an embedder that loads nothing ahead has nothing to do)."""
    parts.embedder.load()


def warm_up_writes(parts: Parts) -> None:
    """Load the model, embed once and open the store's table, so the first write does not
    pay for them."""
    load_model(parts)
    parts.base_embedder.embed_documents(["warm up"])  # the first inference is slow
    if parts.store().exists():
        parts.store().count()  # imports LanceDB and opens the table


def embed_waiting(parts: Parts, *, progress: Progress | None = None) -> BacklogReport:
    """Embed every entry waiting for its vector; once none waits, create or refresh the
    ANN index if due (an index over placeholders would be wrong)."""
    from engine.services.embedding_backlog import EmbeddingBacklog

    done = EmbeddingBacklog(parts.records, parts.embedder).run(progress=progress)
    if done.embedded and not done.pending:
        parts.records.maintain_vector_index()
    return done


def compact(parts: Parts) -> dict[str, int]:
    """Fold the pending reference counts into the store (so compaction takes them in
    too), then compact it under the write lock."""
    return parts.records.compact()
