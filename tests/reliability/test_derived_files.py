"""Derived files under load and damage: fts.sqlite busy is not fts.sqlite broken."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from cli_support import run_cli
from fakes import FakeEmbedder

from engine.core.errors import LockTimeoutError, StorageError
from engine.services.entries import NewEntry
from engine.services.health import REBUILD_STORE, Status, diagnose
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.storage import mirror as fts_module
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths


def test_a_keyword_index_locked_by_another_process_is_not_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("an entry that must stay in the keyword index")
        path = memory.paths.fts_path
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another writer, mid-transaction
    monkeypatch.setattr(fts_module, "BUSY_TIMEOUT_S", 0.2, raising=False)
    try:
        with pytest.raises(LockTimeoutError, match="busy"):
            EntryMirror(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not path.with_name(path.name + ".corrupt").exists()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is None
        assert memory.count() == 1


def _add(root: Path, *texts: str) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in texts])


def test_an_older_copy_of_the_keyword_index_is_detected_and_repaired(tmp_path: Path) -> None:
    _add(tmp_path, *(f"first batch entry {n}" for n in range(5)))
    fts_path = MemoryPaths.for_root(tmp_path).fts_path
    saved = tmp_path / "fts-copy.sqlite"
    shutil.copy(fts_path, saved)  # not pending: the copy was consistent when taken
    _add(tmp_path, *(f"second batch entry {n}" for n in range(5)))
    for suffix in ("-wal", "-shm"):
        Path(f"{fts_path}{suffix}").unlink(missing_ok=True)
    shutil.copy(saved, fts_path)  # e.g. restored from a backup, or synced from elsewhere
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.last_repair is not None
        assert memory.last_repair.added == 5
        assert memory.count() == 10
        assert len(memory.search("second batch", mode="keyword", limit=20).results) == 10


def test_a_missing_store_refuses_writes_and_keeps_the_keyword_copy(tmp_path: Path) -> None:
    _add(tmp_path, *(f"precious note {n}" for n in range(6)))
    shutil.rmtree(MemoryPaths.for_root(tmp_path).vectors_dir)
    model = FakeEmbedder()
    with Memory.open(tmp_path, embedder=model) as memory:
        assert memory.count() == 6  # reads are served by the mirror
        assert memory.search("precious", mode="keyword").results
        with pytest.raises(StorageError, match=r"missing.*memory-tui doctor --rebuild-store"):
            memory.add("a new note that would start an empty store")
        assert model.texts_embedded == 0  # refused before the model was asked for anything
        # The doctor's repair of the index refuses to copy an absent store over it.
        checks = {c.part: c for c in diagnose(tmp_path, FakeEmbedder()).checks}
        assert checks["vector store"].fix == REBUILD_STORE
        assert checks["keyword index"].status is Status.WARNING  # left untouched
        assert memory.count() == 6
    assert not MemoryPaths.for_root(tmp_path).vectors_dir.exists()


def test_an_unreadable_embedding_cache_is_moved_aside_and_started_anew(tmp_path: Path) -> None:
    _add(tmp_path, "kafka consumers commit offsets after processing")
    cache = MemoryPaths.for_root(tmp_path).embedding_cache_path
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(b"not a database at all" * 200)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert [r.entry.content for r in memory.search("kafka offsets").results] == [
            "kafka consumers commit offsets after processing"
        ]
        assert memory.add("a second note re-fills the cache").created
    assert cache.with_name(cache.name + ".corrupt").exists()


def test_missing_store_data_is_a_storage_error_naming_doctor(tmp_path: Path) -> None:
    _add(tmp_path, *(f"note {n}" for n in range(3)))
    data = MemoryPaths.for_root(tmp_path).vectors_dir / "memories.lance" / "data"
    for part in data.iterdir():
        part.unlink()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        missing = r"is damaged \(memories\.lance/data/\w+\.lance is missing\)"
        [warning] = memory.search("note", mode="vector").warnings
        assert re.search(missing + r".*memory-tui doctor --rebuild-store", warning), warning
        with pytest.raises(StorageError, match=missing):
            memory.update(memory.list()[0].id, content="an edit needs the store")
        checks = {c.part: c for c in diagnose(tmp_path, FakeEmbedder()).checks}
        assert re.search(missing, checks["vector store"].detail), checks["vector store"]
        assert checks["keyword index"].status is Status.WARNING  # left untouched
        assert memory.count() == 3  # the mirror is left alone


# -- the same damage seen through the real CLI: warnings, repairs, clear errors -------------


@pytest.fixture
def cli_project(tmp_path: Path) -> Path:
    """12 notes and one indexed knowledge file, in a store the CLI's model fits (384-d)."""
    root = tmp_path / "p"
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gotchas.md").write_text(
        "# Gotchas\n\nLanceDB needs double quotes around camelCase columns.\n", "utf-8"
    )
    with Memory.open(root, embedder=FakeEmbedder(384, "fake-384")) as memory:
        memory.add_many([NewEntry(f"note {n} on the billing ledger") for n in range(12)])
        Indexer(memory).run()
    return root


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = root.parent / "home"
    home.mkdir(exist_ok=True)
    out = run_cli(*args, "--project", str(root), cwd=root, home=home)
    assert "Traceback" not in out.stderr, out.stderr
    return out


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_cli_rebuilds_a_lost_keyword_index_with_a_warning(cli_project: Path, damage: str) -> None:
    fts = MemoryPaths.for_root(cli_project).fts_path
    for suffix in ("", "-wal", "-shm"):
        Path(f"{fts}{suffix}").unlink(missing_ok=True)
    if damage == "garbage":
        fts.write_bytes(b"\x00garbage" * 2048)
    out = _cli(cli_project, "list", "--json", "-n", "100")
    assert out.returncode == 0
    assert len(json.loads(out.stdout)) == 13
    assert "warning" in out.stderr.lower() and "repaired" in out.stderr
    if damage == "garbage":
        assert "unreadable" in out.stderr
    again = _cli(cli_project, "list", "--json", "-n", "100")
    assert again.stderr == ""  # repaired once, quiet afterwards


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_cli_index_rebuilds_meta_json_with_a_warning(cli_project: Path, damage: str) -> None:
    meta = MemoryPaths.for_root(cli_project).meta_path
    meta.unlink()
    if damage == "garbage":
        meta.write_bytes(b"\xff\xfe not json")
    out = _cli(cli_project, "index")
    assert out.returncode == 0, out.stderr
    assert "meta.json" in out.stderr and "warning" in out.stderr.lower()
    assert "0 chunks embedded" in out.stdout
    assert json.loads(meta.read_text("utf-8"))["fileHashes"]


def test_cli_refuses_to_write_without_the_store_and_names_the_fix(cli_project: Path) -> None:
    shutil.rmtree(MemoryPaths.for_root(cli_project).vectors_dir)
    out = _cli(cli_project, "add", "a note that must not start an empty store")
    assert out.returncode == 1
    assert "vector store" in out.stderr and "memory-tui doctor --rebuild-store" in out.stderr
    listed = _cli(cli_project, "list", "--json", "-n", "100")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 13


def test_cli_on_an_unreadable_store_says_what_to_run(cli_project: Path) -> None:
    data = MemoryPaths.for_root(cli_project).vectors_dir / "memories.lance" / "data"
    for part in data.iterdir():
        part.unlink()
    listed = json.loads(_cli(cli_project, "list", "--json", "-n", "100").stdout)
    # Not a knowledge file's chunk: those are refused whatever the store's state.
    victim = next(e["id"] for e in listed if e["source"] != "markdown")
    out = _cli(cli_project, "delete", victim)
    assert out.returncode == 1
    assert out.stderr.count("vector store") == 1, out.stderr  # said once
    assert "is missing); `memory-tui doctor --rebuild-store`" in out.stderr
    listed = _cli(cli_project, "list", "--json", "-n", "100")  # reads still work
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 13
    assert "is damaged" in listed.stderr and "memory-tui doctor --rebuild-store" in listed.stderr


@pytest.mark.parametrize("command", [("index", "--force", "--no-embed"), ("doctor",)])
def test_a_store_cut_short_is_said_once_by_a_command_that_meets_it_thrice(
    cli_project: Path, command: tuple[str, ...]
) -> None:
    """Issue 45: a search counted references, which every later write folds into the
    store first and a closing process flushes; each of them met the damage and said it,
    with LanceDB's Rust locations (three times for ``index --force``)."""
    assert "ledger" in _cli(cli_project, "search", "billing ledger", "--mode", "keyword").stdout
    data = MemoryPaths.for_root(cli_project).vectors_dir / "memories.lance" / "data"
    for part in data.glob("*.lance"):
        os.truncate(part, 100)
    out = _cli(cli_project, *command)
    assert out.returncode == 1
    said = [line for line in (out.stderr + out.stdout).splitlines() if "damaged" in line]
    assert len(said) == 1, out.stderr + out.stdout
    assert "vector store at" in said[0] and "is damaged (one of its files is cut short)" in said[0]
    assert "rustc" not in out.stderr + out.stdout


_OPEN_AT_ONCE = """
import sys, time
from pathlib import Path
from engine.freshness.citations import Citation, CitationDb
from engine.embedding.cache import EmbeddingCache
from engine.storage.mirror import EntryMirror

folder, start = Path(sys.argv[1]), float(sys.argv[2])
while time.time() < start:
    pass
try:
    EntryMirror(folder / "fts.sqlite").close()
    EmbeddingCache(folder / "embeddings.sqlite").close()
    CitationDb(folder / "citations.sqlite").record({"e1": [Citation("a.py")]})
    print("ok")
except Exception as exc:
    print(f"ERROR {type(exc).__name__}: {exc}")
"""


@pytest.mark.slow
def test_processes_creating_the_same_files_at_once_never_see_locked(tmp_path: Path) -> None:
    """Six processes open new fts/embedding/citation databases at the same instant.

    Switching a new file to WAL raced with "database is locked" (no busy handler is
    called there); 4 writer processes hit it on citations.sqlite.
    """
    import os
    import sys
    import time

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    errors: list[str] = []
    for trial in range(12):
        folder = tmp_path / f"t{trial}"
        folder.mkdir()
        start = f"{time.time() + 1.5:.3f}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", _OPEN_AT_ONCE, str(folder), start],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
            )
            for _ in range(6)
        ]
        errors += [
            line
            for p in procs
            for line in p.communicate(timeout=120)[0].splitlines()
            if line != "ok"
        ]
    assert errors == []
