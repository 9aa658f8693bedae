"""Watch mode: created, edited and deleted knowledge files are re-indexed within seconds."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.core.errors import EngineError
from engine.services.memory import Memory
from engine.services.watch import FileChange, KnowledgeWatcher, WatchBatch

ALLOWED = 10.0
"""Seconds a test waits for the watcher to catch up before failing (generous: a loaded machine
is slow). The latency the watcher is built for (2 s; ~0.3-0.5 s measured) is the bench's
figure (``python -m bench.watch_latency``), not a test's."""


class Running:
    """A watcher running in a thread, with the batches it reported."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.batches: list[WatchBatch] = []
        self.stop = threading.Event()
        self.ready = threading.Event()
        watcher = KnowledgeWatcher(memory, debounce_ms=100)
        self.thread = threading.Thread(
            target=watcher.run,
            args=(self.batches.append,),
            kwargs={"stop": self.stop, "ready": self.ready.set},
            daemon=True,
        )

    def until(self, condition: Callable[[], bool]) -> float:
        """Seconds until ``condition`` holds; polls, and fails the test past :data:`ALLOWED`."""
        start = time.monotonic()
        while not condition():
            assert time.monotonic() - start < ALLOWED, "the watcher did not catch up in time"
            time.sleep(0.02)
        return time.monotonic() - start

    def finds(self, word: str) -> bool:
        return bool(self.memory.search(word, mode="keyword").results)


@pytest.fixture
def running(memory: Memory) -> Iterator[Running]:
    memory.paths.knowledge_dir.mkdir(parents=True)
    memory.add("warm-up entry: imports LanceDB and creates the table, as `watch` does at start")
    run = Running(memory)
    run.thread.start()
    assert run.ready.wait(ALLOWED)
    yield run
    run.stop.set()
    run.thread.join(ALLOWED)
    assert not run.thread.is_alive()


def test_create_edit_and_delete_become_searchable(
    running: Running, record_property: Callable[[str, object], None]
) -> None:
    note = running.memory.paths.knowledge_dir / "cache.md"

    note.write_text("# Cache\n\nThe tamarind cache expires hourly.\n", encoding="utf-8")
    created = running.until(lambda: running.finds("tamarind"))
    note.write_text("# Cache\n\nThe lychee cache expires daily.\n", encoding="utf-8")
    edited = running.until(lambda: running.finds("lychee") and not running.finds("tamarind"))
    note.unlink()
    deleted = running.until(lambda: not running.finds("lychee"))

    # The latencies are information for the reader; the bench holds the 2 s figure.
    print(f"watch latency: create {created:.2f} s, edit {edited:.2f} s, delete {deleted:.2f} s")
    record_property("watch_latency_seconds", {"create": created, "edit": edited, "delete": deleted})
    # The batch is recorded just after its entries become searchable.
    running.until(lambda: any(c.kind == "deleted" for b in running.batches for c in b.changes))
    kinds = [c.kind for b in running.batches for c in b.changes if c.path.endswith("cache.md")]
    # Events close together may be one batch (create + edit as one "added").
    assert kinds[0] == "added" and kinds[-1] == "deleted" and len(kinds) >= 2
    assert all(not b.error for b in running.batches)


def test_deleting_a_folder_removes_its_files_entries(running: Running) -> None:
    folder = running.memory.paths.knowledge_dir / "domain"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe mangosteen rule.\n", encoding="utf-8")
    (folder / "b.md").write_text("# B\n\nThe durian rule.\n", encoding="utf-8")
    running.until(lambda: running.finds("mangosteen") and running.finds("durian"))

    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()

    running.until(lambda: not running.finds("mangosteen") and not running.finds("durian"))


def test_editor_scratch_files_are_ignored(running: Running) -> None:
    folder = running.memory.paths.knowledge_dir
    (folder / ".cache.md.swp").write_text("swap", encoding="utf-8")
    (folder / "notes.md~").write_text("backup", encoding="utf-8")
    (folder / "real.md").write_text("# Real\n\nThe feijoa note.\n", encoding="utf-8")

    running.until(lambda: running.finds("feijoa") and bool(running.batches))

    paths = {c.path for b in running.batches for c in b.changes}
    assert paths == {".claude/knowledge/real.md"}


def test_a_failed_batch_is_reported_and_the_watch_goes_on(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory.paths.knowledge_dir.mkdir(parents=True)
    watcher = KnowledgeWatcher(memory)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("engine.services.indexing.Indexer.run", broken)
    batch = watcher.apply([FileChange("added", ".claude/knowledge/x.md")])

    assert batch.error == "OSError: disk full"
    assert batch.report is None


def test_watching_needs_a_knowledge_folder(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        watcher = KnowledgeWatcher(memory)
        with pytest.raises(EngineError, match="no knowledge folder"):
            watcher.run(lambda batch: None, stop=threading.Event())
