"""``doctor``: one check per part, derived files repaired, the store rebuilt on request."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from cli_support import run_cli
from fakes import FakeEmbedder
from read_back import from_the_store, store_alone

from engine.services.entries import NewEntry
from engine.services.health import REBUILD_STORE, HealthReport, Status, diagnose
from engine.services.indexing import MAX_FILE_BYTES, Indexer
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.paths import MemoryPaths

PARTS = [
    "config",
    "embedding cache",
    "vector store",
    "keyword index",
    "vectors",
    "meta.json",
    "citations",
    "write lock",
    "knowledge",
    "model",
]


def statuses(report: HealthReport) -> dict[str, Status]:
    return {c.part: c.status for c in report.checks}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A memory with 12 notes and two indexed knowledge files."""
    knowledge = tmp_path / ".claude" / "knowledge"
    (knowledge / "patterns").mkdir(parents=True)
    (knowledge / "patterns" / "retry.md").write_text(
        "# Retry\n\nUse exponential backoff with jitter for flaky upstreams.\n", "utf-8"
    )
    (knowledge / "gotchas.md").write_text(
        "# Gotchas\n\nLanceDB needs double quotes around camelCase columns.\n", "utf-8"
    )
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(f"note {n} about the billing ledger") for n in range(12)])
        Indexer(memory).run()
    return tmp_path


def _ids(root: Path) -> set[str]:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        return {e.id for e in memory.list()}


def test_a_healthy_memory_reports_every_part_ok(project: Path) -> None:
    report = diagnose(project, FakeEmbedder())
    assert [c.part for c in report.checks] == PARTS
    assert set(statuses(report).values()) == {Status.OK}, report.checks
    assert report.healthy


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_keyword_index_deleted_or_corrupted_is_rebuilt(project: Path, damage: str) -> None:
    before = _ids(project)
    fts = MemoryPaths.for_root(project).fts_path
    for suffix in ("", "-wal", "-shm"):
        Path(f"{fts}{suffix}").unlink(missing_ok=True)
    if damage == "garbage":
        fts.write_bytes(os.urandom(16384))
    report = diagnose(project, FakeEmbedder())
    check = next(c for c in report.checks if c.part == "keyword index")
    assert check.status is Status.REPAIRED and "14 entries, agrees" in check.detail
    assert report.healthy
    assert _ids(project) == before
    assert diagnose(project, FakeEmbedder()).checks == [
        c
        if c.part != "keyword index"
        else c.__class__(c.part, Status.OK, "14 entries, agrees with the store")
        for c in report.checks
    ]


def test_keyword_index_out_of_step_is_resynchronised(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        victim = memory.list()[0].id
        with parts_of(memory).mirror.transaction() as db:
            parts_of(memory).mirror.delete(db, [victim])
    report = diagnose(project, FakeEmbedder())
    check = next(c for c in report.checks if c.part == "keyword index")
    assert check.status is Status.REPAIRED and "1 added" in check.detail
    assert victim in _ids(project)


def test_embedding_cache_corrupted_is_moved_aside(project: Path) -> None:
    cache = MemoryPaths.for_root(project).embedding_cache_path
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(os.urandom(8192))
    report = diagnose(project, FakeEmbedder())
    assert statuses(report)["embedding cache"] is Status.REPAIRED
    assert report.healthy
    assert cache.with_name(cache.name + ".corrupt").exists()


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_meta_json_deleted_or_corrupted_is_rebuilt(project: Path, damage: str) -> None:
    meta = MemoryPaths.for_root(project).meta_path
    saved = json.loads(meta.read_text("utf-8"))["fileHashes"]
    meta.unlink()
    if damage == "garbage":
        meta.write_text('{"fileHashes": [1, 2', "utf-8")
    report = diagnose(project, FakeEmbedder())
    check = next(c for c in report.checks if c.part == "meta.json")
    assert check.status is Status.REPAIRED and "0 chunks embedded" in check.detail
    assert json.loads(meta.read_text("utf-8"))["fileHashes"] == saved
    assert statuses(diagnose(project, FakeEmbedder()))["meta.json"] is Status.OK


def test_missing_store_is_a_problem_naming_rebuild_then_rebuilt(project: Path) -> None:
    before = _ids(project)
    shutil.rmtree(MemoryPaths.for_root(project).vectors_dir)
    report = diagnose(project, FakeEmbedder())
    store = next(c for c in report.checks if c.part == "vector store")
    assert store.status is Status.PROBLEM and store.fix == REBUILD_STORE
    assert "missing" in store.detail
    assert not report.healthy
    assert _ids(project) == before  # nothing was thrown away meanwhile

    rebuilt = diagnose(project, FakeEmbedder(), rebuild_store_if_needed=True)
    assert rebuilt.checks[1] == rebuilt.checks[1].__class__(
        "vector store", Status.REPAIRED, "rebuilt from the keyword index: 14 entries"
    )
    assert rebuilt.healthy, rebuilt.checks
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        assert set(from_the_store(memory)) == before
        hits = memory.search("billing ledger note 3", mode="vector").results
        assert hits and "note 3" in hits[0].entry.content


def test_unreadable_store_is_moved_aside_and_rebuilt(project: Path) -> None:
    before = _ids(project)
    versions = MemoryPaths.for_root(project).vectors_dir / "memories.lance" / "_versions"
    for manifest in versions.glob("*.manifest"):
        manifest.write_bytes(b"\x00garbage")
    report = diagnose(project, FakeEmbedder())
    assert statuses(report)["vector store"] is Status.PROBLEM
    assert statuses(report)["keyword index"] is Status.WARNING  # kept: the only copy
    rebuilt = diagnose(project, FakeEmbedder(), rebuild_store_if_needed=True)
    assert rebuilt.healthy, rebuilt.checks
    assert _ids(project) == before
    assert list(project.glob(".claude/memory/vectors.broken-*"))


def test_a_data_file_cut_short_is_reported_in_words_and_rebuilt_losing_nothing(
    project: Path,
) -> None:
    """Issue 45: every data file truncated (counts and versions, read from the manifest,
    still answer): the report goes on past the store, names the damage without LanceDB's
    Rust locations and the command that repairs it, which brings every entry back."""
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        before = {e.id: e.content for e in memory.list(limit=100)}
    data = MemoryPaths.for_root(project).vectors_dir / "memories.lance" / "data"
    for part in data.glob("*.lance"):
        os.truncate(part, 100)
    report = diagnose(project, FakeEmbedder())
    by_part = {c.part: c for c in report.checks}
    store = by_part["vector store"]
    assert store.status is Status.PROBLEM and store.fix == REBUILD_STORE
    assert store.detail.endswith(
        "is damaged (one of its files is cut short); the keyword index still holds all 14 entries"
    )
    assert "rustc" not in store.detail and "LanceError" not in store.detail
    assert by_part["keyword index"].status is Status.WARNING  # kept: the only copy
    assert {"config", "embedding cache", "write lock", "knowledge", "model"} <= set(by_part)
    assert not report.healthy

    rebuilt = diagnose(project, FakeEmbedder(), rebuild_store_if_needed=True)
    assert rebuilt.checks[1].detail == "rebuilt from the keyword index: 14 entries"
    assert rebuilt.healthy, rebuilt.checks
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        store_entries = from_the_store(memory).values()
        assert {e.id: e.content for e in store_entries} == before
        assert {e.id: e.content for e in memory.list(limit=100)} == before


def test_no_memory_bad_config_and_odd_knowledge_files_are_reported(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "memory.config.toml").write_text('chunk_size = "big"\n', "utf-8")
    knowledge = tmp_path / ".claude" / "knowledge"
    knowledge.mkdir()
    (knowledge / "blob.md").write_bytes(b"\x89PNG\x00\x00binary")
    (knowledge / "huge.md").write_bytes(b"# Huge\n" + b"x" * (MAX_FILE_BYTES + 1))
    (knowledge / "broken.md").write_text("---\ntitle: [unclosed\n# Body\n", "utf-8")
    report = diagnose(tmp_path, FakeEmbedder())
    by_part = {c.part: c for c in report.checks}
    assert by_part["config"].status is Status.PROBLEM and "chunk_size" in by_part["config"].detail
    assert by_part["memory"].fix == "memory-tui init"
    knowledge_check = by_part["knowledge"]
    assert knowledge_check.status is Status.WARNING
    for name in ("blob.md: binary", "huge.md: over", "broken.md: line 1"):
        assert name in knowledge_check.detail
    assert not report.healthy


def test_cli_doctor_exit_codes_and_output(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shutil.rmtree(MemoryPaths.for_root(project).vectors_dir)
    broken = run_cli("doctor", "--project", str(project), cwd=project, home=home)
    assert broken.returncode == 1
    lines = broken.stdout.splitlines()
    assert any(line.startswith("problem   vector store") for line in lines)
    assert f"→ run: {REBUILD_STORE}" in broken.stdout
    assert "1 problem(s) left" in broken.stderr

    empty = tmp_path / "empty"
    empty.mkdir()
    fresh = run_cli("doctor", "--json", "--project", str(empty), cwd=empty, home=home)
    assert fresh.returncode == 1
    data = json.loads(fresh.stdout)
    assert data["healthy"] is False
    assert {"part": "memory", "status": "problem"}.items() <= data["checks"][1].items()


def test_a_store_built_with_another_model_is_re_embedded_on_request(project: Path) -> None:
    before = _ids(project)
    other_model = FakeEmbedder(384, "another-model-384")
    report = diagnose(project, other_model)
    store = next(c for c in report.checks if c.part == "vector store")
    assert store.status is Status.PROBLEM and "256-dimension" in store.detail
    assert store.fix == REBUILD_STORE and REBUILD_STORE in store.detail
    rebuilt = diagnose(project, other_model, rebuild_store_if_needed=True)
    assert rebuilt.healthy, rebuilt.checks
    with Memory.open(project, embedder=other_model) as memory:
        hits = memory.search("billing ledger note 3", mode="vector").results
        assert hits and "note 3" in hits[0].entry.content
        with store_alone(memory, FakeEmbedder(384, "another-model-384")) as stored:
            assert {e.id for e in stored.list()} == before
            assert stored.vectors_waiting() == 0  # each of the 14 has its new vector
            assert diagnose(stored.paths.root, other_model).healthy  # 384 dimensions
