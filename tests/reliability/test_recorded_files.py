"""Damaged or missing recorded files, through the real CLI: commands degrade with one
clear warning line, and ``doctor`` says what is wrong and what to do.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.health import diagnose
from engine.services.indexing import Indexer
from engine.services.memory import Memory

NOTE = "The sprocket math lives in gears.py: see `spin()` before changing it"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a knowledge file, a note citing code, and its citations recorded."""
    root = git_repo(tmp_path / "project")
    (root / "gears.py").write_text("def spin():\n    return 1\n", encoding="utf-8")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text("# Gears\n\nSprockets are greased weekly.\n")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(NOTE, category="gotcha")
        Indexer(memory).run()
    [citations] = [
        c for c in diagnose(root, FakeEmbedder(DIMENSION)).checks if c.part == "citations"
    ]
    assert citations.detail.startswith("1 entry cites code")  # the note cites gears.py
    return root


def test_garbage_citations_cost_one_warning_and_doctor_rebuilds(project: Path, home: Path) -> None:
    citations = project / ".claude" / "memory" / "citations.sqlite"
    citations.write_bytes(b"\x00garbage, not SQLite\xff" * 300)
    for args in (
        ["search", "sprocket", "--mode", "keyword"],
        ["stale"],
        ["list"],
        ["stale", "--json"],
    ):
        result = run_cli(*args, cwd=project, home=home)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        problems = [line for line in result.stderr.splitlines() if "citations.sqlite" in line]
        assert len(problems) <= 1, result.stderr
    stale = run_cli("stale", cwd=project, home=home)
    assert "citations.sqlite is unreadable" in stale.stderr
    assert "run `memory-tui doctor`" in stale.stderr
    assert citations.read_bytes().startswith(b"\x00garbage")  # a read renames nothing

    doctor = run_cli("doctor", cwd=project, home=home)
    assert "Traceback" not in doctor.stderr
    [line] = [line for line in doctor.stdout.splitlines() if " citations " in line]
    assert line.startswith("warning") and "was unreadable" in line
    assert "memory-tui discover --full" in doctor.stdout
    assert (citations.parent / "citations.sqlite.corrupt").exists()

    again = run_cli("doctor", cwd=project, home=home)
    [line] = [line for line in again.stdout.splitlines() if " citations " in line]
    assert line.startswith("ok") and "1 entry cites code" in line
    (project / "gears.py").write_text("def spun():\n    return 2\n", encoding="utf-8")
    stale = run_cli("stale", cwd=project, home=home)
    assert stale.returncode == 0 and "gears.py" in stale.stdout  # stale checks are back
    assert "unreadable" not in stale.stderr


def test_a_missing_store_of_record_is_a_problem_with_what_to_do(project: Path, home: Path) -> None:
    memory_dir = project / ".claude" / "memory"
    shutil.rmtree(memory_dir / "vectors")
    for path in memory_dir.glob("fts.sqlite*"):
        path.unlink()
    assert (memory_dir / "meta.json").exists()
    doctor = run_cli("doctor", cwd=project, home=home)
    assert doctor.returncode == 1
    assert "Traceback" not in doctor.stderr
    [line] = [line for line in doctor.stdout.splitlines() if " vector store " in line]
    assert line.startswith("problem") and "meta.json records 1 indexed knowledge files" in line
    assert "entries are gone" in line
    assert "→ run: memory-tui index --force" in doctor.stdout
    assert "1 problem(s) left" in doctor.stderr


def test_a_new_memory_without_a_store_is_healthy(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "fresh")
    (root / ".claude" / "memory").mkdir(parents=True)
    doctor = run_cli("doctor", cwd=root, home=home)
    [line] = [line for line in doctor.stdout.splitlines() if " vector store " in line]
    assert line.startswith("ok") and "empty" in line
