"""Folders outside the project through the real console script: every command stops with
the key to fix, and the prompt hook stays silent (it never blocks a prompt)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory


def _clean_failure(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr  # a configuration error is a usage error
    assert result.stdout == "" and "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, str]:
    """A project whose memory holds one note; returns (root, its id)."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        note = memory.add("Seed scripts fail when migrations have not run yet").entry
    return root, note.id


def test_a_knowledge_dir_outside_the_project_stops_every_command_with_the_key(
    project: tuple[Path, str], home: Path
) -> None:
    root, _ = project
    config = root / ".claude" / "memory.config.toml"
    config.write_text('knowledge_dir = "../x"\n', encoding="utf-8")

    for command in (("list",), ("index",), ("search", "seed", "--mode", "keyword")):
        stderr = _clean_failure(run_cli(*command, cwd=root, home=home))
        assert stderr.startswith(f"memory-tui: error: {config}: key 'knowledge_dir': '../x' "), (
            command,
            stderr,
        )
        assert "outside the project" in stderr


def test_the_prompt_hook_stays_silent_when_the_memory_folder_leads_outside(
    project: tuple[Path, str], home: Path, tmp_path: Path
) -> None:
    root, _ = project
    memory_dir = root / ".claude" / "memory"
    outside = tmp_path / "moved-memory"
    memory_dir.rename(outside)
    memory_dir.symlink_to(outside, target_is_directory=True)
    before = sorted(p.name for p in outside.iterdir())

    result = run_cli("hook", cwd=root, home=home, stdin='{"prompt": "seed scripts migrations"}')
    listing = run_cli("list", cwd=root, home=home)

    assert (result.returncode, result.stdout) == (0, "")
    assert "Traceback" not in result.stderr
    assert "the memory folder .claude/memory: '.claude/memory' leads through a symlink" in (
        _clean_failure(listing)
    )
    assert sorted(p.name for p in outside.iterdir()) == before


def test_init_writes_nothing_when_the_knowledge_folder_links_outside(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "fresh")
    outside = tmp_path / "dotfiles"
    outside.mkdir()
    (root / ".claude").mkdir()
    (root / ".claude" / "knowledge").symlink_to(outside, target_is_directory=True)

    stderr = _clean_failure(run_cli("init", "--skip-analyze", cwd=root, home=home))

    assert stderr.startswith("memory-tui: error: knowledge_dir '.claude/knowledge': ")
    assert f"leads through a symlink to {outside.resolve()}, outside the project" in stderr
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in (root / ".claude").iterdir()) == ["knowledge"]
