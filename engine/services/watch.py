"""Watch mode: re-index knowledge files and documentation sources as they change.

:class:`KnowledgeWatcher` waits for file-system events under the knowledge folder and the
folders that hold documentation sources (through
``watchfiles``, debounced so that an editor's save-rename-chmod burst is one change), and
re-indexes only the files that changed; the indexer embeds only the chunks whose text is
new. Each batch is handed to a callback as a :class:`WatchBatch`. Used by ``memory-tui
watch`` and by the terminal app's watcher worker; it never prints.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.analyzer.doc_kinds import prose_dialect
from engine.core.errors import EngineError
from engine.guards.files import project_files
from engine.services.indexing import Indexer, IndexReport
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.meta import IndexMeta

log = logging.getLogger(__name__)

DEBOUNCE_MS = 200
"""Events closer together than this are one batch."""


@dataclass(frozen=True, slots=True)
class FileChange:
    """One knowledge file that changed."""

    kind: str
    """``added``, ``modified`` or ``deleted``."""
    path: str
    """Project-relative posix path."""


@dataclass(slots=True)
class WatchBatch:
    """A debounced set of changes and what re-indexing them did."""

    changes: list[FileChange]
    report: IndexReport | None = None
    error: str = ""
    """Why re-indexing failed (the watcher carries on)."""
    seconds: float = 0.0
    """Time spent re-indexing the batch."""
    entries_by_file: dict[str, int] = field(default_factory=dict)


class KnowledgeWatcher:
    """Keeps one memory in step with its knowledge folder while it runs."""

    def __init__(self, memory: Memory, *, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.memory = memory
        self.parts = parts_of(memory)
        self.debounce_ms = debounce_ms
        self.folder = memory.paths.knowledge_dir
        self.root = memory.paths.root
        self.indexer = Indexer(memory)
        self.embedder = memory.background_embedder()
        """Embeds what the watcher indexed, in the background, while it runs."""

    def watched(self) -> list[Path]:
        """The knowledge folder, the top folders holding sources and root-level sources.

        Watching the whole project would put a watch on every folder of a big tree
        (``node_modules``…); a source in a folder that had none at start is indexed by
        the next ``index`` or git hook instead.
        """
        paths = {self.folder}
        for rel, _ in self.indexer.sources.files():
            top = rel.split("/", 1)[0]
            paths.add(self.root / top)
        return sorted(paths)

    def check_folder(self) -> None:
        """Raises :class:`EngineError` when there is no knowledge folder to watch."""
        if not self.folder.is_dir():
            raise EngineError(
                f"no knowledge folder at {self.folder}: run `memory-tui init` first",
                code="NOT_INITIALISED",
            )

    def catch_up(self) -> IndexReport:
        """Index what changed while nobody was watching (the vectors in the background
        once :meth:`run` starts)."""
        return Indexer(self.memory).run(embed=False)

    def run(
        self,
        on_batch: Callable[[WatchBatch], None],
        *,
        stop: threading.Event | None = None,
        ready: Callable[[], None] | None = None,
    ) -> None:
        """Watch until ``stop`` is set (or Ctrl-C), calling ``on_batch`` after each batch.

        ``ready`` is called once the watch is in place: changes made after it are seen.
        New chunks are searchable by keyword once indexed, and embedded in the background.
        """
        self.check_folder()
        self.embedder.start()
        try:
            self._watch(on_batch, stop, ready)
        finally:
            self.embedder.stop()

    def _watch(
        self,
        on_batch: Callable[[WatchBatch], None],
        stop: threading.Event | None,
        ready: Callable[[], None] | None,
    ) -> None:
        from watchfiles import Change, watch

        kinds = {Change.added: "added", Change.modified: "modified", Change.deleted: "deleted"}
        events = watch(
            *self.watched(),
            watch_filter=self._wanted,
            debounce=self.debounce_ms,
            step=50,
            stop_event=stop,
            raise_interrupt=False,
            yield_on_timeout=True,  # the first (empty) batch says the watch is in place
            rust_timeout=200,
        )
        announced = False
        for raw in events:
            if not announced:
                announced = True
                if ready is not None:
                    ready()
            if not raw:
                continue
            seen: dict[str, set[str]] = {}
            for change, path in raw:
                seen.setdefault(path, set()).add(kinds[change])
            changes = [_collapse(p, k, self._rel(p)) for p, k in sorted(seen.items())]
            # A folder is "modified" whenever a file in it changes: that file has its own event.
            changes = [
                c for c in changes if c.kind != "modified" or not (self.root / c.path).is_dir()
            ]
            if changes:
                on_batch(self.apply(changes))

    def apply(self, changes: list[FileChange]) -> WatchBatch:
        """Re-index the files of ``changes`` (a folder: every file it holds or held)."""
        started = time.perf_counter()
        batch = WatchBatch(changes)
        only: set[str] = set()
        known: list[str] | None = None
        for change in changes:
            folder = self.root / change.path
            if change.kind != "deleted" and folder.is_dir():  # files may predate its watch
                # The guard's listing: no hidden parts, FIFOs or links out (or in a loop).
                found = sorted(project_files(folder, suffixes=None))
                rels = (p.relative_to(self.root).as_posix() for p in found)
                only.update(rel for rel in rels if self.indexer.wants(rel))
            elif self.indexer.wants(change.path):
                only.add(change.path)
            elif change.kind == "deleted":  # maybe a folder: its files are gone too
                if known is None:
                    known = list(IndexMeta.load(self.memory.paths.meta_path)[0].file_hashes)
                only.update(k for k in known if k.startswith(change.path.rstrip("/") + "/"))
        try:
            batch.report = self.indexer.run(only=sorted(only), embed=False)
            self.embedder.wake()
        except Exception as exc:  # one failed batch must not end the watch
            log.warning("re-indexing %s failed", ", ".join(sorted(only)), exc_info=True)
            batch.error = f"{type(exc).__name__}: {exc}"
        for path in only:
            batch.entries_by_file[path] = len(self.parts.mirror.by_file(path))
        batch.seconds = time.perf_counter() - started
        return batch

    def _rel(self, path: str) -> str:
        return Path(path).resolve().relative_to(self.root.resolve()).as_posix()

    @staticmethod
    def _wanted(change: object, path: str) -> bool:
        name = Path(path).name
        if name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp")):
            return False
        # A deleted path may be a folder of documentation; anything else must be named as one.
        return prose_dialect(name) is not None or "." not in name


def _collapse(path: str, kinds: set[str], rel: str) -> FileChange:
    """One change per file for a burst of events (an editor's write-rename-chmod)."""
    if not Path(path).exists():
        return FileChange("deleted", rel)
    return FileChange("added" if "added" in kinds else "modified", rel)
