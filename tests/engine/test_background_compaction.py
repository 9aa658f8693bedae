"""Issue 38: compaction runs beside the adds, not in front of them. A local store compacts
in a thread of its own, outside the write lock (engine.storage.maintenance.Compactor); the
adds, updates and deletes that meet it lose nothing and the mirror stays in step."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import lancedb
import pytest
from fakes import FakeEmbedder
from lancedb.table import LanceTable

from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import lance_commits, maintenance
from engine.storage.lance_rows import latest_version_on_disk

WAIT_S = 60.0
"""How long a step may take before the test gives up (a bound against hanging, not a
measure of speed: on a loaded machine the steps take a second or two)."""


@pytest.fixture
def compact_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compaction due every 4 writes (4 small fragments), to meet it in a few adds."""
    monkeypatch.setattr(maintenance, "COMPACT_CHECK_EVERY", 4)
    monkeypatch.setattr(maintenance, "COMPACT_SMALL_FRAGMENTS", 4)


def test_an_add_is_not_blocked_by_a_running_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compact_often: None
) -> None:
    started, release = threading.Event(), threading.Event()
    real_optimize = LanceTable.optimize

    def held_optimize(self: LanceTable, **kwargs: Any) -> Any:
        started.set()
        release.wait(WAIT_S)  # the compaction runs until the test lets it finish
        return real_optimize(self, **kwargs)

    monkeypatch.setattr(LanceTable, "optimize", held_optimize)
    written: list[str] = []
    failures: list[BaseException] = []
    later_adds_done = threading.Event()

    def writer(memory: Memory) -> None:
        try:
            for i in range(4):  # the fourth write finds a compaction due
                written.append(memory.add(f"note {i} before the compaction").entry.id)
            started.wait(WAIT_S)
            for i in range(3):  # while the compaction is held
                written.append(memory.add(f"note {i} during the compaction").entry.id)
            later_adds_done.set()
        except BaseException as exc:
            failures.append(exc)

    try:
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
            thread = threading.Thread(target=writer, args=(memory,))
            thread.start()
            assert started.wait(WAIT_S), "no compaction started"
            finished_during = later_adds_done.wait(WAIT_S) and not release.is_set()
            release.set()
            thread.join(WAIT_S)
            assert failures == []
            assert finished_during, "the adds waited for the compaction to finish"
            store = parts_of(memory).records.store()
            assert store.compactor is not None and store.compactor.wait(WAIT_S)
            assert store.compactor.runs == 1
            assert {e.id for e in memory.list(limit=100)} == set(written)
            assert store.count() == parts_of(memory).mirror.count() == 7
    finally:
        release.set()


def test_concurrent_adds_updates_and_deletes_meet_compactions_and_lose_nothing(
    memory: Memory, compact_often: None
) -> None:
    kept: dict[str, str] = {}
    deleted: list[str] = []
    failures: list[BaseException] = []
    guard = threading.Lock()

    def session(n: int) -> None:
        try:
            for i in range(12):
                entry = memory.add(f"session {n} fact {i} about otters").entry
                if i % 4 == 1:  # an update: a merge of rows a compaction may rewrite
                    entry = memory.update(entry.id, content=f"session {n} fact {i} revised")
                if i % 4 == 2:
                    assert memory.delete(entry.id)
                    with guard:
                        deleted.append(entry.id)
                    continue
                with guard:
                    kept[entry.id] = entry.content
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=session, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    records = parts_of(memory).records
    store = records.store()
    assert store.compactor is not None and store.compactor.wait(WAIT_S)
    assert store.compactor.runs >= 1
    stored = store.get_many(list(kept) + deleted)
    assert {i: e.content for i, e in stored.items()} == kept
    assert {e.id: e.content for e in memory.list(limit=1000)} == kept
    assert store.count() == records.mirror.count() == len(kept)


def test_the_mirror_records_the_version_the_compaction_left(
    tmp_path: Path, compact_often: None
) -> None:
    """No write after the compaction: the mirror records its version itself, so the next
    open does not take it for another writer's commit and repair the mirror."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        for i in range(4):
            memory.add(f"note {i} on the heron colony")
        records = parts_of(memory).records
        compactor = records.store().compactor
        assert compactor is not None
        compactor.join()
        assert compactor.runs == 1
        latest = latest_version_on_disk(records.paths.vectors_dir)
        assert records.mirror.state("store_version") == str(latest)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert parts_of(memory).records.ensure_consistent() is None  # nothing to repair


@pytest.mark.filterwarnings("ignore:optimize\\(cleanup_older_than=0\\)")
def test_a_write_that_began_on_a_version_a_compaction_cleaned_up_is_tried_again(
    tmp_path: Path,
) -> None:
    """A handle still on the version before a compaction whose cleanup removed its data
    files (LanceDB: "Not found: .../data/....lance"): the update committed nothing and
    lands on the latest version."""
    table = lancedb.connect(tmp_path).create_table("t", data=[{"id": "a0", "n": 0}])
    for i in range(1, 5):
        table.add([{"id": f"a{i}", "n": i}])
    stale = lancedb.connect(tmp_path).open_table("t")  # no consistency interval: stays
    lancedb.connect(tmp_path).open_table("t").optimize(cleanup_older_than=timedelta(0))
    with pytest.raises(RuntimeError, match="Not found") as raised:
        stale.delete("id = 'a2'")
    assert lance_commits.is_conflict(raised.value)

    def update(t: Any) -> None:
        t.merge_insert("id").when_matched_update_all().execute([{"id": "a1", "n": 10}])

    lance_commits.committed(stale, update)
    fresh = lancedb.connect(tmp_path).open_table("t")
    assert sorted((r["id"], r["n"]) for r in fresh.to_arrow().to_pylist()) == [
        ("a0", 0),
        ("a1", 10),
        ("a2", 2),
        ("a3", 3),
        ("a4", 4),
    ]


CHILD = """
import os
import sys
from pathlib import Path
from lancedb.table import LanceTable
from engine.storage import maintenance

maintenance.COMPACT_CHECK_EVERY = 4
maintenance.COMPACT_SMALL_FRAGMENTS = 4
real_optimize = LanceTable.optimize

def say(line):
    # One write(2) per line, atomic on a pipe: print() writes its parts one by one, and
    # the compaction thread's line once landed between "ACK" and the id.
    os.write(1, (line + "\\n").encode())

def loud_optimize(self, **kwargs):
    say("COMPACTING")
    return real_optimize(self, **kwargs)

LanceTable.optimize = loud_optimize
from fakes import FakeEmbedder
from engine.services.memory import Memory

with Memory.open(Path(sys.argv[1]), embedder=FakeEmbedder()) as memory:
    for i in range(100_000):
        say("ACK " + memory.add(f"note {i} of the killed writer").entry.id)
"""


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2])
def test_a_writer_killed_during_a_background_compaction_loses_nothing_it_acknowledged(
    tmp_path: Path, delay: float
) -> None:
    """kill -9 while the compaction thread runs (and the adds go on beside it): the next
    open finds every acknowledged entry, the mirror in step with the store, and both
    writable and compactable."""
    import os
    import signal
    import subprocess
    import sys
    import time

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo), str(repo / "tests")])}
    root = tmp_path / "p"
    (root / ".claude").mkdir(parents=True)
    command = [sys.executable, "-c", CHILD, str(root)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    acked: set[str] = set()
    for raw in proc.stdout:
        line = raw.decode().split()
        if line[:1] == ["ACK"]:
            acked.add(line[1])
        elif line == ["COMPACTING"]:
            break
    else:
        pytest.fail(f"the writer ended before a compaction: {proc.communicate()[1][-2000:]!r}")
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    rest, stderr = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == -signal.SIGKILL, stderr[-2000:]
    acked |= {line.split()[1] for line in rest.decode().splitlines() if line.startswith("ACK ")}
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        records = parts_of(memory).records
        stored = set(records.store().ids_and_stamps())
        assert acked <= stored
        assert set(records.mirror.ids_and_stamps()) == stored
        assert memory.add("a note after the kill").created
        assert records.store().compact()["fragments"] == 1
        assert records.store().count() == records.mirror.count() == len(stored) + 1
