"""Embedding the backlog in the background of a long-lived process (the MCP server, the
terminal app's watcher, ``memory-tui watch``).

:class:`BackgroundEmbedder` runs :class:`engine.services.embedding_backlog.EmbeddingBacklog`
in a daemon thread: woken when this process wrote new chunks (:meth:`wake`) and every
:data:`POLL_SECONDS` in case another process did (``index --no-embed``, a git hook). It
holds the write lock only while it writes a batch, so searches and writes never wait for
the model, and it stops between two batches (:meth:`stop`). A process already embedding
the project's backlog is left to it.
"""

from __future__ import annotations

import logging
import threading

from engine.embedding.base import Embedder
from engine.services.embedding_backlog import EmbeddingBacklog
from engine.storage.records import Records

log = logging.getLogger(__name__)

POLL_SECONDS = 30.0
"""How often the worker looks for a backlog it was not told about (one SQLite count)."""


class BackgroundEmbedder:
    """A daemon thread that embeds one memory's backlog until stopped."""

    def __init__(
        self, records: Records, embedder: Embedder, *, poll_seconds: float = POLL_SECONDS
    ) -> None:
        self.backlog = EmbeddingBacklog(records, embedder)
        self.records = records
        self.poll_seconds = poll_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.embedded = 0
        """Entries this worker gave their vector."""

    def start(self) -> BackgroundEmbedder:
        """Start the thread (once); it looks at the backlog at once."""
        if self._thread is None:
            self._wake.set()
            self._thread = threading.Thread(
                target=self._loop, name="memory-embed-backlog", daemon=True
            )
            self._thread.start()
        return self

    def wake(self) -> None:
        """New entries may wait for their vector: look now rather than at the next poll."""
        self._wake.set()

    @property
    def running(self) -> bool:
        """Whether the thread is alive (after :meth:`stop`: still finishing a batch)."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 1.0) -> None:
        """Stop after the batch in progress (waits up to ``timeout`` seconds for it)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                report = self.backlog.run(stop=self._stop, wait=False)
            except Exception:  # the next wake or poll tries again; searches use keywords
                if self._stop.is_set():  # the memory closed under the batch: nothing lost,
                    log.debug("embedding stopped mid-batch", exc_info=True)  # it waits
                    break
                log.warning("embedding the backlog failed", exc_info=True)
                continue
            self.embedded += report.embedded
            if report.embedded and not report.pending:
                self._maintain()

    def _maintain(self) -> None:
        try:
            self.records.maintain_vector_index()
        except Exception:
            log.warning("could not refresh the vector index", exc_info=True)
