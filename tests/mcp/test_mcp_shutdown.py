"""``serve-mcp`` leaves fast and clean: on stdin EOF and on SIGTERM (issue 16).

Clients kill a server about 2 s after closing its stdin; a server still writing then left
the next command a repair to do. The real command with the real model; the bound below is
generous (a busy machine), the real figure is in bench/RESULTS.md (``bench.mcp_shutdown``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.mcp_shutdown import Session, work
from engine.services.memory import Memory

EXIT_BOUND = 2.0
"""Seconds: what clients give a server before killing it (the target is 1 s)."""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    return project


def _counted(project: Path) -> tuple[int, int, bool]:
    """(entries, total references, whether opening found the mirror out of step)."""
    memory = Memory.open(project)
    try:
        needs_repair = memory.last_repair is not None
        entries = memory.list(limit=1000)
        return len(entries), sum(e.reference_count for e in entries), needs_repair
    finally:
        memory.close()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["stdin", "sigterm"])
def test_server_exits_promptly_and_keeps_what_it_was_given(tmp_path: Path, how: str) -> None:
    project = _project(tmp_path)
    session = Session(project)
    work(session, trial=0)  # 20 searches, then 5 adds
    session.call("memory_search", query="learned fact number", limit=5)
    leave = session.hang_up if how == "stdin" else session.terminate
    elapsed = leave(timeout=60)
    assert session.process.returncode == 0
    assert elapsed < EXIT_BOUND
    entries, references, needs_repair = _counted(project)
    assert entries == 5
    assert references == 5  # the last search's hits were counted before leaving
    assert not needs_repair  # the next command does not rebuild the keyword index


@pytest.mark.slow
def test_a_killed_server_leaves_no_repair_behind(tmp_path: Path) -> None:
    """kill -9 right after searches (their counts being written): the next command finds
    the keyword index in step with the store and repairs nothing."""
    import signal

    project = _project(tmp_path)
    session = Session(project)
    work(session, trial=0)
    for i in range(20):
        session.call("memory_search", query=f"learned fact number {i % 5}", limit=5)
    session.process.send_signal(signal.SIGKILL)
    session.process.wait(30)
    memory = Memory.open(project)
    try:
        assert memory.last_repair is None
        assert memory.count() == 5
    finally:
        memory.close()
