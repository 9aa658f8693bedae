"""A keyword index deleted or replaced under a running process is reopened (issue 16).

Before, a long-lived process (serve-mcp, the TUI) kept reading its deleted ``fts.sqlite``
and never saw what other processes added afterwards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.services.memory import Memory


def _delete_index(memory_dir: Path) -> None:
    for name in ("fts.sqlite", "fts.sqlite-wal", "fts.sqlite-shm"):
        (memory_dir / name).unlink(missing_ok=True)


def test_a_running_process_sees_entries_added_after_its_index_was_deleted(
    tmp_path: Path,
) -> None:
    server = Memory.open(tmp_path, embedder=FakeEmbedder())
    try:
        zebra = server.add("zebra crossings are striped").entry
        assert [r.entry.id for r in server.search("zebra", mode="keyword").results] == [zebra.id]
        _delete_index(server.paths.memory_dir)
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as cli:
            giraffe = cli.add("giraffe necks are long").entry
        for query, wanted in (("giraffe", giraffe.id), ("zebra", zebra.id)):
            found = [r.entry.id for r in server.search(query, mode="keyword").results]
            assert found == [wanted], query
        assert server.count() == 2
        assert {e.id for e in server.list()} == {zebra.id, giraffe.id}
    finally:
        server.close()


def test_a_process_that_finds_its_index_gone_rebuilds_it_from_the_store(tmp_path: Path) -> None:
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    try:
        entry = memory.add("okapi stripes on the legs").entry
        _delete_index(memory.paths.memory_dir)
        assert [r.entry.id for r in memory.search("okapi", mode="keyword").results] == [entry.id]
        assert memory.get(entry.id) == entry
        later = memory.add("a write after the rebuild lands in the new file").entry
        assert memory.count() == 2
        assert memory.paths.fts_path.exists()
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as other:
            assert other.get(later.id) is not None
    finally:
        memory.close()


@pytest.mark.slow
def test_deleting_the_index_under_serve_mcp(tmp_path: Path) -> None:
    """The real server and the real CLI both find a known entry afterwards."""
    import subprocess

    from bench.mcp_shutdown import MEMORY_TUI, Session

    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    session = Session(project)
    try:
        session.call("memory_add", content="the zebra crossing rule lives in traffic.py")
        _delete_index(project / ".claude" / "memory")
        added = subprocess.run(
            [MEMORY_TUI, "add", "giraffe feeding happens at noon", "--project", str(project)],
            capture_output=True,
            text=True,
        )
        assert added.returncode == 0, added.stderr
        for query in ("zebra", "giraffe"):
            answer = session.call("memory_search", query=query, mode="keyword")
            assert query in str(answer["result"]), answer
            found = subprocess.run(
                [MEMORY_TUI, "search", query, "--mode", "keyword", "--project", str(project)],
                capture_output=True,
                text=True,
            )
            assert query in found.stdout, found.stderr
    finally:
        session.hang_up()
