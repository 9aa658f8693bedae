"""Issue 16: single adds do not pile up fragments; compaction loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.maintenance import COMPACT_CHECK_EVERY, COMPACT_SMALL_FRAGMENTS


def test_one_at_a_time_adds_are_compacted_as_they_go(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        ids = [
            memory.add(f"note {i}: the quokka number {i} lives here").entry.id for i in range(120)
        ]
        store = parts_of(memory).records.store()
        assert store.compactor is not None  # compacts in the background (issue 38)
        store.compactor.wait()
        figures = store.figures()
        assert figures["rows"] == 120
        assert figures["fragments"] <= COMPACT_SMALL_FRAGMENTS + COMPACT_CHECK_EVERY
        assert {e.id for e in memory.list(limit=1000)} == set(ids)
        assert (
            memory.search("quokka number 77", mode="keyword")
            .results[0]
            .entry.content.startswith("note 77:")
        )


def test_compact_now_merges_fragments_and_keeps_every_entry(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        for i in range(COMPACT_CHECK_EVERY - 1):  # below the automatic check
            memory.add(f"entry {i} about zebras")
        store = parts_of(memory).records.store()
        assert store.figures()["fragments"] == COMPACT_CHECK_EVERY - 1
        done = store.compact()
        assert done["fragments_before"] == COMPACT_CHECK_EVERY - 1 and done["fragments"] == 1
        assert done["rows"] == COMPACT_CHECK_EVERY - 1
        vectors = store.vectors_for([e.id for e in memory.list(limit=100)])
        assert len(vectors) == COMPACT_CHECK_EVERY - 1


def test_doctor_compacts_a_store_of_many_small_fragments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.services.health import Status, diagnose
    from engine.storage import maintenance

    monkeypatch.setattr(maintenance, "COMPACT_CHECK_EVERY", 10_000)  # as before issue 16
    embedder = FakeEmbedder()
    with Memory.open(tmp_path, embedder=embedder) as memory:
        for i in range(COMPACT_SMALL_FRAGMENTS + 3):
            memory.add(f"fragment maker {i}")
        assert (
            parts_of(memory).records.store().figures()["fragments"] == COMPACT_SMALL_FRAGMENTS + 3
        )
    report = diagnose(tmp_path, embedder)
    store = next(c for c in report.checks if c.part == "vector store")
    assert store.status is Status.REPAIRED
    assert f"compacted {COMPACT_SMALL_FRAGMENTS + 3} fragments into 1" in store.detail
    again = diagnose(tmp_path, embedder)
    assert next(c for c in again.checks if c.part == "vector store").status is Status.OK


def test_cli_compact(tmp_path: Path) -> None:
    from cli_support import git_repo, run_cli

    root = git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    missing = run_cli("compact", cwd=root, home=home)
    assert missing.returncode == 2 and "memory-tui init" in missing.stderr
    assert not (root / ".claude").exists()
    for i in range(3):
        assert run_cli("add", f"note {i} on llamas", cwd=root, home=home).returncode == 0
    done = run_cli("compact", "--json", cwd=root, home=home)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert (figures["rows"], figures["fragments_before"], figures["fragments"]) == (3, 3, 1)


def test_the_compaction_threshold_grows_with_the_table_up_to_a_bound() -> None:
    from engine.storage.maintenance import COMPACT_MAX_SMALL_FRAGMENTS, compaction_threshold

    assert compaction_threshold(0) == COMPACT_SMALL_FRAGMENTS
    assert compaction_threshold(5_000) == COMPACT_SMALL_FRAGMENTS
    assert COMPACT_SMALL_FRAGMENTS < compaction_threshold(20_000) < COMPACT_MAX_SMALL_FRAGMENTS
    assert compaction_threshold(10_000_000) == COMPACT_MAX_SMALL_FRAGMENTS


def test_compacting_now_leaves_the_keyword_index_in_step(tmp_path: Path) -> None:
    """``Memory.compact`` records the version it leaves, as the background compaction
    does: the next open finds the index in step and repairs nothing."""
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        for i in range(COMPACT_CHECK_EVERY - 1):  # below the automatic check
            memory.add(f"entry {i} about wombats")
        assert memory.compact()["fragments"] == 1
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is None
        assert len(memory.search("wombats", mode="keyword", limit=50).results) > 0
