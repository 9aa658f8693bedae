"""Several processes on one project at once: writers, a searcher, the real CLI, an indexer.

Writers are worker processes (fake embedder, real LanceDB and SQLite); keyword searches
and stats go through the real ``memory-tui`` console script meanwhile. Afterwards the
memory holds exactly what was acknowledged, the keyword mirror agrees with the store,
no "database is locked" escaped anywhere and no search failed.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cli_support import run_console_script
from fakes import FakeEmbedder
from reliability_support import (
    LOCKED,
    reference_markdown,
    snapshot,
    spawn,
    write_tree,
)

from engine.core.models import Source
from engine.services.memory import Memory


@dataclass
class CliLog:
    """Outcomes of the CLI commands run while the workers were busy."""

    runs: int = 0
    failures: list[str] = field(default_factory=list)

    def run(self, root: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
        out = run_console_script(*args, "--project", str(root), cwd=root, home=home, timeout=120)
        self.runs += 1
        if out.returncode != 0 or any(word in out.stderr for word in LOCKED):
            self.failures.append(f"{args}: exit {out.returncode}: {out.stderr[-500:]}")
        return out


def _finish(proc: subprocess.Popen[str], timeout: float = 600) -> tuple[int, str, str]:
    stdout, stderr = proc.communicate(timeout=timeout)
    return proc.returncode, stdout, stderr


def _acks(stdout: str) -> list[str]:
    return [line.split()[1] for line in stdout.splitlines() if line.startswith("ACK ")]


def run_writers_and_searcher(
    root: Path, home: Path, writers: int, per_writer: int
) -> tuple[dict[str, list[str]], dict[str, object], CliLog]:
    """Start ``writers`` adders and one searcher; run CLI reads until the writers end."""
    Memory.open(root, embedder=FakeEmbedder()).close()
    stop = root / "stop-searching"
    searcher = spawn("search", root, stop)
    tags = [f"w{n}" for n in range(writers)]
    procs = {tag: spawn("add", root, tag, str(per_writer)) for tag in tags}
    cli = CliLog()
    deadline = time.monotonic() + 900
    while any(p.poll() is None for p in procs.values()) and time.monotonic() < deadline:
        out = cli.run(root, home, "search", "writer remembers", "--mode", "keyword", "--json")
        if out.returncode == 0:
            json.loads(out.stdout)  # complete, parseable output
        cli.run(root, home, "stats", "--json")
    acked: dict[str, list[str]] = {}
    for tag, proc in procs.items():
        code, stdout, stderr = _finish(proc)
        assert code == 0, f"writer {tag} failed: {stdout[-1000:]} {stderr[-2000:]}"
        assert not any(word in stdout + stderr for word in LOCKED), stderr[-2000:]
        acked[tag] = _acks(stdout)
    stop.touch()
    code, stdout, stderr = _finish(searcher)
    assert code == 0, stderr[-2000:]
    assert not any(word in stdout + stderr for word in LOCKED), stderr[-2000:]
    summary = json.loads(stdout.strip().splitlines()[-1])
    return acked, summary, cli


def check_writers_outcome(
    root: Path, acked: dict[str, list[str]], summary: dict[str, object], cli: CliLog, total: int
) -> None:
    """Exactly ``total`` entries, each acknowledged; mirror = store; nothing failed."""
    assert summary["failed"] == 0, summary["errors"]
    assert isinstance(summary["searches"], int) and summary["searches"] > 0
    assert cli.failures == []
    assert cli.runs > 0
    ids = [i for tag_ids in acked.values() for i in tag_ids]
    assert len(ids) == total and len(set(ids)) == total
    state = snapshot(root)
    assert state.store_ids == set(ids)
    assert state.mirror_ids == set(ids)
    assert state.mirror_matches_store and state.integrity_ok
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is None  # nothing was left pending
        assert memory.count() == total
        for tag in acked:  # each writer's last entry is findable by its unique token
            last = len(acked[tag]) - 1
            hits = memory.search(f"token{tag}x{last}", mode="keyword").results
            assert hits and hits[0].entry.id == acked[tag][-1]


def test_four_writers_and_a_searcher_lose_nothing(tmp_path: Path) -> None:
    """Short version (4 x 20) of the 4 x 200 run below, for every `make test-fast`."""
    home = tmp_path / "home"
    home.mkdir()
    acked, summary, cli = run_writers_and_searcher(tmp_path / "p", home, 4, 20)
    check_writers_outcome(tmp_path / "p", acked, summary, cli, 80)


@pytest.mark.slow
def test_four_writers_of_200_entries_and_a_searcher_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    started = time.perf_counter()
    acked, summary, cli = run_writers_and_searcher(tmp_path / "p", home, 4, 200)
    check_writers_outcome(tmp_path / "p", acked, summary, cli, 800)
    print(
        f"\n4 writers x 200 + searcher: {time.perf_counter() - started:.1f} s, "
        f"{summary['searches']} searches (0 failed), {cli.runs} CLI runs (0 failed)"
    )


def test_re_indexing_while_agents_add_loses_none_of_them(tmp_path: Path) -> None:
    root = tmp_path / "p"
    write_tree(root, 24, random.Random(3))
    Memory.open(root, embedder=FakeEmbedder()).close()
    indexer = spawn("index", root, "--force", "--loops", "3")
    writers = {tag: spawn("add", root, tag, "30") for tag in ("alpha", "beta")}
    acked = {}
    for tag, proc in writers.items():
        code, stdout, stderr = _finish(proc)
        assert code == 0, stdout[-1000:] + stderr[-2000:]
        acked[tag] = _acks(stdout)
    code, stdout, stderr = _finish(indexer)
    assert code == 0, stdout[-1000:] + stderr[-2000:]
    runs = [json.loads(line) for line in stdout.splitlines() if line != "READY"]
    assert len(runs) == 3 and all(run["errors"] == [] for run in runs)
    for text in (stdout, stderr):
        assert not any(word in text for word in LOCKED)

    ids = {i for tag_ids in acked.values() for i in tag_ids}
    assert len(ids) == 60
    state = snapshot(root)
    assert state.mirror_matches_store and state.integrity_ok
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        manual = {e.id for e in memory.list(source=Source.MANUAL)}
    assert manual == ids
    assert state.markdown == reference_markdown(root, tmp_path / "reference")
