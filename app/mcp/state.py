"""What the MCP server holds between calls: the memory, the model warm-up, bookkeeping.

The memory is opened on first need (a bad config is reported by each call, and a fixed
one is picked up by the next). The embedding model and LanceDB load in a background
thread once the client has listed the tools, so ``initialize`` and ``tools/list`` never
wait for them, and keyword search works meanwhile. Reference counting (and the
auto-promotion it can trigger, :meth:`engine.Memory.referenced`) runs after the search has
been answered, in one worker thread, so it adds nothing to search latency.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from app.mcp.writer import Writer
from engine import EngineError

if TYPE_CHECKING:
    from engine import BackgroundEmbedder, Memory

log = logging.getLogger("memory_tui.mcp")

REFERENCE_DELAY = 0.5
"""Seconds reference counts wait for others to join them in one write."""
CLIENT_READY_TIMEOUT = 3.0
"""Seconds the warm-up waits for the client's ``tools/list`` before starting anyway."""
WARM_UP_EXIT_WAIT = 0.2
"""Seconds :meth:`ServerState.close` lets an unfinished warm-up run before leaving it be."""

MemorySource: TypeAlias = "Memory | Path | str | Callable[[], Memory]"


def _open_memory(root: Path) -> Memory:
    from app.project import config_or_defaults
    from engine import Memory

    config = config_or_defaults(root, "serve-mcp")  # a bad config must not stop the server
    return Memory.open(root, config=config)


def _index_a_fresh_clone(memory: Memory) -> None:
    """A clone whose memory was never built (``.claude/memory/`` is not committed) gets
    its knowledge files indexed once, in the background: keyword search works meanwhile."""
    from engine import Indexer

    if memory.count() or memory.paths.meta_path.exists():
        return
    if not memory.paths.knowledge_dir.is_dir():
        return
    report = Indexer(memory).run(embed=False)  # the vectors come from the background
    log.info("built the memory of this clone: %d entries", report.entries_created)


class ServerState:
    """The memory behind the server, opened lazily, plus its background work.

    ``source`` is a :class:`Memory` (used as is, never closed here), a project root, or a
    factory; memories this object opened are closed by :meth:`close`.
    """

    def __init__(self, source: MemorySource) -> None:
        # engine.services.memory is imported on first need, not at start-up (tools/list is timed).
        self._given: Memory | None = None
        if isinstance(source, Path | str):
            root = Path(source)
            self._factory: Callable[[], Memory] = lambda: _open_memory(root)
        elif callable(source):
            self._factory = source
        else:
            given = self._given = source
            self._factory = lambda: given
        self._memory: Memory | None = self._given
        self._open_lock = threading.Lock()
        self._warm_lock = threading.Lock()
        self._warm_thread: threading.Thread | None = None
        self.client_ready = threading.Event()
        """Set when the client has listed the tools: start-up traffic is over."""
        self.building = threading.Event()
        """Set while a fresh clone's memory is built from its knowledge files and docs."""
        self.warmed = threading.Event()
        """Set when the background warm-up has finished (successfully or not)."""
        self._bookkeeper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcp-bookkeeping")
        self._last_job: Future[None] | None = None
        self._pending: list[str] = []
        self._pending_lock = threading.Lock()
        self._closing = threading.Event()
        self._embedding: BackgroundEmbedder | None = None
        """Embeds entries that wait for their vector, once the warm-up is done."""
        self.writer = Writer()
        """Writes every session's adds, those arriving together in one write."""

    # --- the memory ------------------------------------------------------------------

    def memory(self) -> Memory:
        """The memory, opened on first call (blocking: call it from a worker thread).

        Raises:
            ConfigError: the project's configuration is invalid.
        """
        with self._open_lock:
            if self._memory is None:
                self._memory = self._factory()
            return self._memory

    def close(self) -> None:
        """Finish the bookkeeping and close the memory if this object opened it.

        A warm-up still loading the model after :data:`WARM_UP_EXIT_WAIT` keeps the memory
        open (closing it under the loader's feet is not safe): the process is about to end
        with ``os._exit`` (see ``serve_mcp``), and the warm-up writes nothing that matters.
        """
        self._closing.set()
        self.writer.close()
        self._bookkeeper.shutdown(wait=True)
        embedding = self._embedding
        if embedding is not None:
            embedding.stop(WARM_UP_EXIT_WAIT)  # between two batches; none is lost
            if embedding.running:
                log.info("a batch is still being embedded: leaving without closing the memory")
                return
        thread = self._warm_thread
        if thread is not None:
            thread.join(WARM_UP_EXIT_WAIT)
            if thread.is_alive():
                log.info("the model is still loading: leaving without closing the memory")
                return
        with self._open_lock:
            if self._memory is not None and self._memory is not self._given:
                self._memory.close()
            self._memory = self._given

    # --- warm-up ---------------------------------------------------------------------

    def start_warm_up(self, *, wait_for_client: bool = True) -> None:
        """Load the model and open the vector store in the background (once)."""
        with self._warm_lock:
            if self._warm_thread is not None:
                return
            self._warm_thread = threading.Thread(
                target=self._warm_up, args=(wait_for_client,), name="mcp-warm-up", daemon=True
            )
            self._warm_thread.start()

    def _warm_up(self, wait_for_client: bool) -> None:
        if wait_for_client:
            # Importing torch holds the GIL for long stretches: let the handshake go first.
            self.client_ready.wait(CLIENT_READY_TIMEOUT)
        try:
            memory = self.memory()
            self.building.set()  # a fresh clone's text first: keyword search answers then
            try:
                _index_a_fresh_clone(memory)
            finally:
                self.building.clear()
            memory.warm_up(mode="vector")
            log.info("embedding model and vector store are ready")
            self._start_embedding(memory)
        except EngineError as exc:  # e.g. a bad config: every tool call reports it too
            log.warning("background warm-up failed: %s", exc.message)
        except Exception:
            log.warning("background warm-up failed; searches use keywords", exc_info=True)
        finally:
            self.warmed.set()

    def _start_embedding(self, memory: Memory) -> None:
        """Embed the entries waiting for their vector in the background (searches use
        their keyword half meanwhile), unless the server is closing."""
        with self._warm_lock:
            if self._closing.is_set() or self._embedding is not None:
                return
            self._embedding = memory.background_embedder().start()

    def model_loaded(self) -> bool:
        """Whether vector search can run without waiting for the model."""
        memory = self._memory
        return memory is not None and memory.model_loaded

    # --- bookkeeping -----------------------------------------------------------------

    def count_references(self, ids: Sequence[str]) -> None:
        """Count that searches returned these entries, later, in the bookkeeping thread.

        Counts that arrive while a write is queued join it: a burst of searches costs
        one store write, not one each.
        """
        if not ids:
            return
        with self._pending_lock:
            queued = bool(self._pending)
            self._pending.extend(ids)
            if not queued:
                self._last_job = self._bookkeeper.submit(self._drain)

    def _drain(self) -> None:
        self._closing.wait(REFERENCE_DELAY)  # a closing server writes them at once
        with self._pending_lock:
            ids, self._pending = self._pending, []
        self._count_and_promote(ids)

    def flush(self, timeout: float | None = None) -> None:
        """Wait until the bookkeeping submitted so far is done (jobs run in order)."""
        job = self._last_job
        if job is not None:
            job.exception(timeout)  # waits; errors were logged by the job itself

    def _count_and_promote(self, ids: list[str]) -> None:
        try:
            self.memory().referenced(ids)  # counts, and auto-promotes by the engine's rule
        except Exception:
            log.warning("could not record references of %d entries", len(ids), exc_info=True)
